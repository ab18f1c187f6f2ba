"""The one adapter between hand records and the rest of Tavolo: engines, renderers, computer players, cards.

Everything in ``bot.records`` reaches a game only through these functions, so when the game modules move
(per-game packages, a new registry API) only this file has to be re-pointed.
"""

from __future__ import annotations

import random
from typing import Any

from bot.ai.base import Agent
from bot.ai.hints import hint
from bot.engine import cards as _cards
from bot.engine import rng as _rng
from bot.engine.errors import IllegalAction, InvalidOptions
from bot.engine.notation import Notation
from bot.engine.offered import offered, why_not
from bot.engine.protocol import Game, Settlement, View
from bot.games import registry as _registry
from bot.games.spec import Renderer
from bot.ledger.texts import amount_text as _amount_text
from bot.render import base as _render_base
from bot.render import cards as _render_cards
from bot.render import errors as _render_errors
from bot.tables import frontends as _frontends
from bot.tables import model as _table_model
from bot.tables import screens as _screens

__all__ = [
    "Agent",
    "IllegalAction",
    "InvalidOptions",
    "Panel",
    "Seat",
    "Table",
    "TableUpdate",
    "agent_levels",
    "audience",
    "card_label",
    "deck",
    "engine_class",
    "error_text",
    "game_ids",
    "hint",
    "make_agent",
    "notation",
    "offered",
    "option_defaults",
    "private_panel",
    "public_panel",
    "renderer",
    "rng",
    "seat_range",
    "seat_screen",
    "settlement_text",
    "suit_label",
    "table_screen",
    "title",
    "why_not",
]

Panel = _render_base.Panel
#: a game as a table, and what a table shows to whom (``tavolo play`` is a front-end of a table)
Seat = _table_model.Seat
#: an amount with its unit as a noun with plural forms (``+3 stakes``, ``-1 resto``, ``140 points``)
amount_text = _amount_text
#: a stored player name as the reader sees it (a computer's name in the reader's language)
display_name = _table_model.display_name
Table = _table_model.Table
TableUpdate = _frontends.TableUpdate
audience = _frontends.audience
table_screen = _screens.table_screen
seat_screen = _screens.seat_screen

#: the card ids of each deck (a game names its deck in its spec)
_DECKS: dict[str, tuple[str, ...]] = {
    "wizard60": _cards.WIZARD_60,
    "french": _cards.FRENCH_52_JOKER,
    "italian": _cards.ITALIAN_40,
    "minchiate97": _cards.MINCHIATE_97,
}


def error_text(err: BaseException, game_id: str) -> str:
    """An engine's error as the players read it (the same texts as on Discord, in the current locale)."""
    return _render_errors.error_text(err, game_id)


def game_ids() -> list[str]:
    """Every game id Tavolo knows, in registry order."""
    return _registry.ids()


def title(game_id: str) -> str:
    return _registry.get(game_id).title


def engine_class(game_id: str) -> type[Game]:
    """The engine class of ``game_id``."""
    return _registry.game_class(game_id)


def seat_range(game_id: str) -> tuple[int, int]:
    """The fewest and the most seats the game can be played with."""
    cls = engine_class(game_id)
    return cls.min_seats, cls.max_seats


def option_defaults(game_id: str) -> dict[str, Any]:
    """Each table option's default value (its type tells how to read a value typed on a command line)."""
    return {spec.name: spec.default for spec in engine_class(game_id).option_specs}


def deck(game_id: str) -> tuple[str, ...]:
    return _DECKS[_registry.get(game_id).deck or ""]


def renderer(game_id: str) -> Renderer:
    """The game's renderer (``public_panel``, ``private_panel``, ``settlement_text``)."""
    return _registry.renderer(game_id)


def public_panel(game_id: str, view: View, names: list[str]) -> Panel:
    return renderer(game_id).public_panel(view, names)


def private_panel(game_id: str, view: View, names: list[str]) -> Panel:
    return renderer(game_id).private_panel(view, names)


def settlement_text(game_id: str, settlement: Settlement, names: list[str]) -> str:
    return renderer(game_id).settlement_text(settlement, names)


def card_label(game_id: str, card: str) -> str:
    """How the Discord bot shows ``card`` (``Q♠``, ``3🪙``, ``T17``, ``🧙 Wizard``)."""
    return renderer(game_id).card_label(card)


def suit_label(game_id: str, suit: str) -> str:
    """A suit's symbol as the Discord bot shows it (``♠``, ``🪙``); ``NT`` is "no trump"."""
    if suit == "NT":
        return "no trump"
    table = _render_cards.ITALIAN_SUIT if _registry.get(game_id).deck == "italian" else _render_cards.FRENCH_SUIT
    return table.get(suit, suit)


def agent_levels(game_id: str) -> list[str]:
    return _registry.agent_levels(game_id)


def make_agent(game_id: str, level: str | None) -> Agent:
    return _registry.make_agent(game_id, level)


def notation(game_id: str) -> Notation | None:
    """The game's action notation (``None`` for an unknown game or one without a notation)."""
    return _registry.get(game_id).notation if _registry.exists(game_id) else None


def rng(seed: int, *labels: object) -> random.Random:
    """A ``random.Random`` derived from ``seed`` and ``labels`` (the engines' own seeding scheme)."""
    return _rng.make_rng(seed, *labels)

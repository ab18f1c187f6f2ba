"""The one adapter between hand records and the rest of Tavolo: engines, renderers, computer players, cards.

Everything in ``bot.records`` reaches a game only through these functions, so when the game modules move
(per-game packages, a new registry API) only this file has to be re-pointed.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from bot.ai import base as _ai
from bot.engine import cards as _cards
from bot.engine import rng as _rng
from bot.engine.errors import IllegalAction, InvalidOptions
from bot.engine.protocol import Game, Settlement, View
from bot.games import registry as _registry
from bot.render import base as _render_base
from bot.render import cards as _render_cards

__all__ = [
    "IllegalAction",
    "InvalidOptions",
    "Panel",
    "agent_levels",
    "card_label",
    "deck",
    "engine_class",
    "game_ids",
    "make_agent",
    "option_defaults",
    "private_panel",
    "public_panel",
    "renderer",
    "rng",
    "seat_range",
    "settlement_text",
    "suit_label",
    "title",
]

Panel = _render_base.Panel

#: the deck each game is played with (the card ids that actions and records use)
_DECKS: dict[str, tuple[str, ...]] = {
    "wizard": _cards.WIZARD_60,
    "mighty": _cards.FRENCH_52_JOKER,
    "mediatore": _cards.ITALIAN_40,
    "minchiate": _cards.MINCHIATE_97,
}


def game_ids() -> list[str]:
    """Every game id Tavolo knows, in registry order."""
    return list(_registry.GAMES)


def title(game_id: str) -> str:
    return _registry.GAMES[game_id].title


def engine_class(game_id: str) -> type[Game]:
    """The engine class of ``game_id`` (importing it also registers its computer players)."""
    return _registry.game_class(game_id)


def seat_range(game_id: str) -> tuple[int, int]:
    """The fewest and the most seats the game can be played with."""
    cls = engine_class(game_id)
    return cls.min_seats, cls.max_seats


def option_defaults(game_id: str) -> dict[str, Any]:
    """Each table option's default value (its type tells how to read a value typed on a command line)."""
    return {spec.name: spec.default for spec in engine_class(game_id).option_specs}


def deck(game_id: str) -> tuple[str, ...]:
    return _DECKS[game_id]


def renderer(game_id: str) -> ModuleType:
    """The game's renderer module (``public_panel``, ``private_panel``, ``settlement_text``)."""
    return _registry.renderer(game_id)


def public_panel(game_id: str, view: View, names: list[str]) -> Panel:
    return renderer(game_id).public_panel(view, names)  # type: ignore[no-any-return]


def private_panel(game_id: str, view: View, names: list[str]) -> Panel:
    return renderer(game_id).private_panel(view, names)  # type: ignore[no-any-return]


def settlement_text(game_id: str, settlement: Settlement, names: list[str]) -> str:
    return renderer(game_id).settlement_text(settlement, names)  # type: ignore[no-any-return]


def card_label(game_id: str, card: str) -> str:
    """How the Discord bot shows ``card`` (``Q♠``, ``3🪙``, ``T17``, ``🧙 Wizard``)."""
    return _render_cards.label(game_id, card)


def suit_label(game_id: str, suit: str) -> str:
    """A suit's symbol as the Discord bot shows it (``♠``, ``🪙``); ``NT`` is "no trump"."""
    if suit == "NT":
        return "no trump"
    table = _render_cards.ITALIAN_SUIT if game_id == "mediatore" else _render_cards.FRENCH_SUIT
    return table.get(suit, suit)


def agent_levels(game_id: str) -> list[str]:
    engine_class(game_id)  # registers the game's agents
    return _ai.agent_levels(game_id)


def make_agent(game_id: str, level: str | None) -> _ai.Agent:
    engine_class(game_id)  # registers the game's agents
    return _ai.make_agent(game_id, level)


def rng(seed: int, *labels: object) -> random.Random:
    """A ``random.Random`` derived from ``seed`` and ``labels`` (the engines' own seeding scheme)."""
    return _rng.make_rng(seed, *labels)

"""Wizard's pictures: the table from the public view (bids / tricks per seat, the trump indicator in the middle),
a hand from one seat's view (nothing in a blind round, where a player does not see their own card)."""

from __future__ import annotations

from typing import Any

from bot.i18n import _n
from bot.images.scene import HandScene, RevealScene, TableScene, legal_cards, plays, seats_of
from bot.render.cards import FRENCH_SUIT

DECK = "wizard60"


def _line(view: dict[str, Any], s: int) -> str:
    tricks = view["tricks"][s]
    if not view["has_bid"][s]:
        return _n("{n} trick", "{n} tricks", tricks) if view["phase"] == "play" else ""
    bid = view["bids"][s]
    # secret bidding keeps the numbers private until the round ends: the plate only says that the seat has bid
    return f"{tricks} / {bid}" if bid is not None else f"{tricks} / ?"


def table_picture(view: dict[str, Any], names: list[str]) -> TableScene | None:
    n = view["num_seats"]
    if view["phase"] == "over":
        return None
    trump = view.get("trump")
    lt = view.get("last_trick")
    return TableScene(
        deck=DECK,
        seats=seats_of(names, n, (_line(view, s) for s in range(n)), view["to_move"], [None] * n),
        trick=plays(view.get("trick")),
        last_trick=plays(lt) or None,
        centre_text=FRENCH_SUIT.get(trump, "") if trump else None,
        centre_card=view.get("indicator"),
        last_winner=lt.get("winner") if lt else None,
    )


def hand_picture(view: dict[str, Any]) -> HandScene | None:
    if view.get("hand_hidden") or not view.get("hand"):
        return None
    return HandScene(DECK, tuple(view["hand"]), legal_cards(view))


def reveal_picture(view: dict[str, Any], names: list[str]) -> RevealScene | None:
    """Wizard reveals no cards at the end of a round (every card was played face up)."""
    return None

"""Mighty's pictures: the table from the public view (tricks per seat, the declarer and a revealed friend marked,
the contract in the middle), a hand from one seat's view (its cards only, the playable ones raised)."""

from __future__ import annotations

from typing import Any

from bot.i18n import _p
from bot.images.reveal import RevealRow
from bot.images.scene import HandScene, RevealScene, TableScene, legal_cards, plays, seat_name, seats_of
from bot.render.cards import FRENCH_SUIT

from .engine import TRICKS

DECK = "french"


def _trump(trump: str) -> str:
    # i18n: the short "no trump" drawn after a bid's number on the table picture (20 NT), a few letters
    return FRENCH_SUIT.get(trump) or _p("mighty short", "NT")


def table_picture(view: dict[str, Any], names: list[str]) -> TableScene | None:
    n = view["num_seats"]
    ph = view["phase"]
    if ph == "over":
        return None
    decl = view.get("declarer")
    teams: list[int | None] = [None] * n
    if decl is not None and ph != "auction":
        teams[decl] = 0
        if view.get("friend") is not None:  # public once revealed (the view says None before)
            teams[view["friend"]] = 0
    if ph == "auction":
        # "-" for a pass, the high bid as "15 ♠"; then tricks won of the hand's 10
        lines = ["-" if s in view["auction"]["passed"] else "" for s in range(n)]
        hi = view["auction"].get("high")
        if hi:
            lines[hi["seat"]] = f"{hi['n']} {_trump(hi['trump'])}"
    else:
        lines = [f"{view['tricks_won'][s]}/{TRICKS}" for s in range(n)]
    contract = view.get("contract") or view.get("bid")
    centre = f"{contract['n']} {_trump(contract['trump'])}" if contract else None
    lt = view.get("last_trick") if ph == "play" else None
    return TableScene(
        deck=DECK,
        seats=seats_of(names, n, lines, view["to_move"], teams),
        trick=plays(view.get("trick")),
        last_trick=plays(lt) or None,
        centre_text=centre,
        last_winner=lt.get("winner") if lt else None,
    )


def hand_picture(view: dict[str, Any]) -> HandScene | None:
    if not view.get("hand"):
        return None
    return HandScene(DECK, tuple(view["hand"]), legal_cards(view))


def reveal_picture(view: dict[str, Any], names: list[str]) -> RevealScene | None:
    """The hand just over, from the public view's ``last_hand``: each seat's captured point cards (the called
    friend card ringed). Labels are the players' names only."""
    last = view.get("last_hand")
    if not last or not last.get("captured"):
        return None
    ring = frozenset([last["friend_card"]]) if last.get("friend_card") else frozenset()
    rows = tuple(
        RevealRow(seat_name(names, s), tuple(cards), ring & set(cards)) for s, cards in enumerate(last["captured"])
    )
    return RevealScene(DECK, rows)

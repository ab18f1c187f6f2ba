"""Mediatore's pictures: the table from the public view (tricks per seat, the bidder and a public partner marked,
a public called card in the middle), a hand from one seat's view (its cards only, the playable ones raised)."""

from __future__ import annotations

from typing import Any

from bot.images.reveal import RevealRow
from bot.images.scene import HandScene, RevealScene, TableScene, legal_cards, plays, seat_name, seats_of

from .engine import TRICKS

DECK = "italian"


def table_picture(view: dict[str, Any], names: list[str]) -> TableScene | None:
    n = view["num_seats"]
    ph = view["phase"]
    if ph == "over":
        return None
    teams: list[int | None] = [None] * n
    bidder = view.get("bidder")
    if bidder is not None:
        teams[bidder] = 0
        if view.get("partner") is not None:  # the view names the partner only once it is public
            teams[view["partner"]] = 0
    if view.get("contract") is None:
        lines = [""] * n
        # no word needed: "-" for a pass, "+" for a bid (the text names it)
        for s, c in view.get("auction") or []:
            lines[s] = "-" if str(c) == "pass" else "+"
    else:
        # tricks won of the hand's 9 (numbers only: a drawn word would come from the catalogue, docs/words.md)
        lines = [f"{view['tricks_won'][s]}/{TRICKS}" for s in range(n)]
        if bidder is not None:
            lines[bidder] = "* " + lines[bidder]
    lt = view.get("last_trick") if view.get("trick") is not None else None
    return TableScene(
        deck=DECK,
        seats=seats_of(names, n, lines, view["to_move"], teams),
        trick=plays(view.get("trick")),
        last_trick=plays(lt) or None,
        centre_card=view.get("called_card"),
        last_winner=lt.get("winner") if lt else None,
        clockwise=False,  # play goes to the right
    )


def hand_picture(view: dict[str, Any]) -> HandScene | None:
    if not view.get("hand"):
        return None
    return HandScene(DECK, tuple(view["hand"]), legal_cards(view))


def reveal_picture(view: dict[str, Any], names: list[str]) -> RevealScene | None:
    """The hand just over, from the public view's ``last_hand``: the counting cards each side took. Rows are
    labelled with the players' names."""
    last = view.get("last_hand")
    counting = (last or {}).get("counting_cards")
    if not counting:
        return None
    side = [int(s) for s in last.get("bidder_side") or []]
    others = [s for s in range(len(names)) if s not in side]
    rows = (
        RevealRow(" + ".join(seat_name(names, s) for s in side), tuple(counting.get("bidder_side") or ())),
        RevealRow(" + ".join(seat_name(names, s) for s in others), tuple(counting.get("defenders") or ())),
    )
    return RevealScene(DECK, rows)

"""Mediatore's pictures: the table from the public view (tricks per seat, the bidder and a public partner marked,
a public called card in the middle), a hand from one seat's view (its cards only, the playable ones raised)."""

from __future__ import annotations

from typing import Any

from bot.images.scene import HandScene, TableScene, legal_cards, plays, seats_of

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
        for s, c in view.get("auction") or []:
            lines[s] = str(c)
    else:
        lines = [f"{view['tricks_won'][s]} tricks" for s in range(n)]
        if bidder is not None:
            lines[bidder] = f"{view['contract']} · {view['tricks_won'][bidder]}"
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

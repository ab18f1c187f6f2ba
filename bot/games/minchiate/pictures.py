"""Minchiate's pictures: the table from the public view (the two teams coloured, tricks per seat), a hand from one
seat's view (its cards only, grouped as trumps, the Matto and the suits, the playable ones raised)."""

from __future__ import annotations

from typing import Any

from bot.images.scene import HandScene, TableScene, legal_cards, plays, seats_of

DECK = "minchiate97"


def table_picture(view: dict[str, Any], names: list[str]) -> TableScene | None:
    n = view["num_seats"]
    if view["phase"] == "over":
        return None
    teams: list[int | None] = [None] * n
    for i, key in enumerate(sorted(view.get("teams") or {})):
        for s in view["teams"][key]:
            teams[s] = i
    lines = [f"team {'AB'[teams[s] or 0] if teams[s] is not None else '?'} · {view['tricks_won'][s]}" for s in range(n)]
    lt = view.get("last_trick")
    return TableScene(
        deck=DECK,
        seats=seats_of(names, n, lines, view["to_move"], teams),
        trick=plays(view.get("trick")),
        last_trick=plays(lt) or None,
        last_winner=lt.get("winner") if lt else None,
        clockwise=False,  # play goes to the right
    )


def hand_picture(view: dict[str, Any]) -> HandScene | None:
    if not view.get("hand"):
        return None
    return HandScene(DECK, tuple(view["hand"]), legal_cards(view))

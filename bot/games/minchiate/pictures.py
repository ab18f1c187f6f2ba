"""Minchiate's pictures: the table from the public view (the two teams coloured, tricks per seat), a hand from one
seat's view (its cards only, grouped as trumps, the Matto and the suits, the playable ones raised)."""

from __future__ import annotations

from typing import Any

from bot.i18n import _
from bot.images.reveal import RevealRow
from bot.images.scene import HandScene, RevealScene, TableScene, legal_cards, plays, seat_name, seats_of

from .engine import TEAMS, TRICKS

DECK = "minchiate97"


def table_picture(view: dict[str, Any], names: list[str]) -> TableScene | None:
    n = view["num_seats"]
    if view["phase"] == "over":
        return None
    teams: list[int | None] = [None] * n
    for i, key in enumerate(sorted(view.get("teams") or {})):
        for s in view["teams"][key]:
            teams[s] = i
    lines = [
        # i18n: a seat's plate on the table picture: its team (A or B) and the tricks it won of the deal's 21
        _("team {team} · {tricks}/{total}", team=TEAMS[teams[s] or 0], tricks=view["tricks_won"][s], total=TRICKS)
        if teams[s] is not None
        else f"{view['tricks_won'][s]}/{TRICKS}"
        for s in range(n)
    ]
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


def reveal_picture(view: dict[str, Any], names: list[str]) -> RevealScene | None:
    """The deal just over, from the public view's ``last_deal``: the cards each partnership scored with
    (declared combinations, robbing, exposed cards). Rows are labelled with the partners' names."""
    last = view.get("last_deal")
    if not last:
        return None
    scored: dict[str, list[str]] = {"A": [], "B": []}
    for ev in last.get("events") or []:
        team = ev.get("team")
        if team in scored:
            scored[team] += [c for c in ev.get("cards") or [] if c not in scored[team]]
    if not any(scored.values()):
        return None
    rows = tuple(
        RevealRow(" + ".join(seat_name(names, s) for s in range(len(names)) if s % 2 == t), tuple(scored[team]))
        for t, team in enumerate("AB")
    )
    return RevealScene(DECK, rows)

"""Playing through pages: pick a choice the page's own view offers and send it, as a person tapping would."""

from __future__ import annotations

import random
from typing import Any

from bot.games import registry
from bot.images import sprites
from bot.tables.service import TableService

from .rig import Page


def choices_of(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every action the page's controls offer (a combo: its base with random picks, drawn later)."""
    private = view.get("private") or {}
    out: list[dict[str, Any]] = []
    for c in private.get("controls") or []:
        if c["kind"] == "combo":
            out.append({"combo": c})
        else:
            out += [ch["action"] for ch in c["choices"]]
    return out


def pick(rng: random.Random, view: dict[str, Any]) -> dict[str, Any] | None:
    options = choices_of(view)
    if not options:
        return None
    choice = rng.choice(options)
    if "combo" not in choice:
        return choice
    combo = choice["combo"]
    action = dict(combo["base_action"] or {})
    for f in combo["fields"]:
        values = [v for _, v in f["options"]]
        picked = rng.sample(values, min(f["count"], len(values)))
        action[f["key"]] = picked[0] if f["count"] == 1 else sorted(picked)
    return action


def card_ids(game_id: str) -> frozenset[str]:
    return frozenset(sprites.DECKS[registry.get(game_id).deck])


def cards_in(value: Any, ids: frozenset[str]) -> set[str]:
    """Every string in a JSON value that is exactly a card id (hands, legal cards, tricks, actions, options)."""
    if isinstance(value, str):
        return {value} if value in ids else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v, ids) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(cards_in(v, ids) for v in value)) if value else set()
    return set()


def hidden_from(service: TableService, table_id: int, seat: int | None) -> set[str]:
    """The cards other seats hold now that ``seat``'s own game view (or the public view) does not show."""
    t = service.tables[table_id]
    assert t.game is not None
    ids = card_ids(t.game_id)
    shown = cards_in(t.game.public_view(), ids) | (cards_in(t.game.view(seat), ids) if seat is not None else set())
    held = set().union(*(set(t.game.view(o).get("hand") or []) for o in range(len(t.seats)) if o != seat))
    return held - shown


async def play_step(rng: random.Random, pages: list[Page], table_id: int) -> bool:
    """One action by a page whose seat is to move; False when no page has anything to do."""
    movers = [p for p in pages if table_id in p.views and choices_of(p.views[table_id])]
    if not movers:
        return False
    page = rng.choice(movers)
    for _ in range(20):
        action = pick(rng, page.views[table_id])
        if action is None:
            return False
        reply = await page.act(table_id, action)
        if reply["t"] == "ok":
            return True
        assert reply["code"] in ("illegal", "stale", "not_your_turn"), reply  # a random combo may be illegal
        if reply["code"] != "illegal":
            return True  # the table moved on meanwhile: the caller waits and looks again
    return True

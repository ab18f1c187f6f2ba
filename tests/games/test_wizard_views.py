"""No Wizard view shares a container with the engine: whatever a caller does to a ``public_view()`` or a
``view(seat)`` — every list and dict in it changed — the engine's next views are unchanged.

The engine copies its tricks, rounds and events with one function per shape (cheaper than a generic deep copy,
and a view is built after every action); a shape that grows a container its copy misses fails here.
"""

from __future__ import annotations

import json
import random
from typing import Any

from bot.engine.protocol import View
from bot.games.wizard.engine import WizardGame
from tests.records.randgames import choose

#: short games that reach every event kind, a finished round (round_log) and the game's end
OPTIONS: list[tuple[int, dict[str, Any]]] = [
    (4, {"rounds": [1, 2], "bid_mode": "open", "wizard_turned": "dealer_chooses"}),
    (3, {"rounds": [1, 3], "bid_mode": "simultaneous", "first_round_blind": True}),
    (5, {"rounds": [2], "bid_mode": "secret"}),
]


def _containers(x: Any, out: list[Any]) -> list[Any]:
    if isinstance(x, dict):
        out.append(x)
        for v in x.values():
            _containers(v, out)
    elif isinstance(x, list | tuple):
        if isinstance(x, list):
            out.append(x)
        for v in x:
            _containers(v, out)
    return out


def _vandalize(view: View) -> None:
    # every container grows a marker (all collected first, so that no marker is walked into)
    for c in _containers(view, []):
        if isinstance(c, dict):
            c["__vandal__"] = 1
        else:
            c.append("__vandal__")


def _states(game: WizardGame) -> str:
    return json.dumps([game.public_view(), *(game.view(s) for s in range(game.num_seats))])


def test_views_share_no_container_with_the_engine() -> None:
    kinds: set[str] = set()
    rounds_logged = 0
    for seed, (n, options) in enumerate(OPTIONS):
        game = WizardGame(n, options, 100 + seed)
        rng = random.Random(seed)
        while True:
            before = _states(game)
            _vandalize(game.public_view())
            for s in range(n):
                _vandalize(game.view(s))
            assert _states(game) == before, (seed, game.public_view()["events"][-1:])
            view = game.public_view()
            kinds.update(e["kind"] for e in view["events"])
            rounds_logged = max(rounds_logged, len(view["round_log"]))
            if game.is_over:
                break
            game.apply(*choose(game, rng))
    # every shape the engine copies was in a view: each kind of event, a finished round
    assert kinds >= {"deal", "bid", "bids_complete", "trick", "round_end", "game_over"}, kinds
    assert rounds_logged >= 2

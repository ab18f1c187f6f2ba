"""``replay(..., states=)`` keeps exactly the states asked for, equal to a full replay's, and ``None`` elsewhere:
a hand's pages read its steps and the state before its first action; a validation reads none."""

from __future__ import annotations

import random

from bot.engine.protocol import Action
from bot.games.wizard.engine import WizardGame
from bot.records import record_from_log, replay

from .randgames import NAMES, choose


def test_a_hands_states_are_the_full_replays_and_no_other() -> None:
    # the bookkeeping is the replay's, not an engine's: one short game of three hands (the first one hand long)
    options = {"rounds": [1, 2, 3], "bid_mode": "open"}
    game, rng = WizardGame(4, options, 5), random.Random(5)
    log: list[tuple[int, Action]] = []
    while not game.is_over:
        log.append(choose(game, rng))
        game.apply(*log[-1])
    rec = record_from_log("wizard", NAMES[:4], options, 5, log)
    full = replay(rec, views=True, check=False)
    assert full.hands == [0, 1, 2]
    for hand in full.hands:
        part = replay(rec, views=True, check=False, states=hand)
        first = full.steps_of(hand)[0].index
        wanted = {s.index for s in full.steps_of(hand)} | {first - 1}
        initial = (full.initial, full.initial_views) if first == 0 else (None, None)
        assert (part.initial, part.initial_views) == initial
        for a, b in zip(part.steps, full.steps, strict=True):
            if a.index in wanted:
                assert (a.public, a.views) == (b.public, b.views), (hand, a.index)
            else:
                assert (a.public, a.views) == (None, None), (hand, a.index)
    none = replay(rec, views=True, check=False, states="none")
    assert none.initial is None and none.initial_views is None
    assert all(s.public is None and s.views is None for s in none.steps)
    assert [(s.seat, s.action, s.hand, s.starts_hand, s.settlements) for s in none.steps] == [
        (s.seat, s.action, s.hand, s.starts_hand, s.settlements) for s in full.steps
    ]

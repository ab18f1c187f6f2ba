"""Records of many random games of every engine: text -> parse -> replay gives back the same game.

Same actions, the same ``public_view()`` and every seat's ``view()`` after every step, the same
settlements; a record cut at any hand replays as the same prefix; every action any engine offers has a
notation that reads back exactly.
"""

from __future__ import annotations

import random

import pytest

from bot.records import (
    cut,
    format_action,
    format_record,
    parse_action,
    parse_record,
    record_from_log,
    replay,
)
from bot.records.notation import same

from .randgames import Played, play_random

GAMES = ("wizard", "mediatore", "mighty", "minchiate")
#: 100 random games in all, each compared view by view (Minchiate deals and full views are the slow part); the
#: wide round trip below covers twenty times as many games' actions and settlements, and the engines' own property
#: tests cover their views over thousands more
GAMES_PER_GAME = {"wizard": 30, "mediatore": 25, "mighty": 25, "minchiate": 20}


def _check_game(p: Played) -> None:
    rec = record_from_log(p.game_id, p.players, p.options, p.seed, p.log, date="2026-12-01", tags={"Table": "7"})
    text = format_record(rec)
    back = parse_record(text)
    assert back == rec
    assert format_record(back) == text
    done = replay(back, views=True)
    assert len(done.steps) == len(p.log)
    assert done.initial == p.initial
    for i, step in enumerate(done.steps):
        assert step.seat == p.log[i][0]
        assert same(step.action, p.log[i][1]), (i, step.action, p.log[i][1])
        assert step.public == p.publics[i], f"public view differs after step {i}"
        assert step.views == p.views[i], f"a seat's view differs after step {i}"
    got = done.game.settlements()
    assert [(s.index, dict(s.amounts), dict(s.summary)) for s in got] == [
        (s.index, dict(s.amounts), dict(s.summary)) for s in p.settlements
    ]
    assert done.game.is_over == (p.game is not None and p.game.is_over)
    # cut at one of its hands: the actions up to that hand's end, the settlements booked in it
    hand = random.Random(p.seed).choice(done.hands)
    one = cut(back, hand)
    assert one.hand == hand
    one_text = format_record(one)
    assert f'[Hand "{hand + 1}"]' in one_text
    part = replay(parse_record(one_text))
    assert [s.action for s in part.steps] == [s.action for s in done.steps[: len(part.steps)]]
    assert part.steps[-1].hand == hand
    assert len(part.steps) == len(done.steps) or done.steps[len(part.steps)].hand > hand
    assert [b.index for b in one.settlements] == [b.index for s in done.steps_of(hand) for b in s.settlements]


@pytest.mark.parametrize("game_id", GAMES)
def test_random_games_round_trip(game_id: str) -> None:
    for k in range(GAMES_PER_GAME[game_id]):
        _check_game(play_random(game_id, 1000 * GAMES.index(game_id) + k))


EXPECTED_VERBS = {
    "wizard": {"bid", "play", "trump", "undo"},
    "mediatore": {"pass", "bid", "call", "play", "discard"},
    "mighty": {"bid", "pass", "discard", "contract", "call", "play"},
    "minchiate": {"play", "discard", "declare"},
}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_offered_action_has_an_exact_notation(game_id: str) -> None:
    verbs: set[str] = set()
    checked = 0
    # at least 8 games, and on until every kind of action has been met (a turned Wizard is rare)
    for k in range(300):
        if k >= 8 and EXPECTED_VERBS[game_id] <= verbs:
            break
        p = play_random(game_id, 50_000 + k, views=False, collect_legal=True)
        # what the seats were offered, and what the controls sent (combos, undo)
        for a in [*p.legal_seen, *(a for _, a in p.log)]:
            text = format_action(game_id, a)
            assert not text.startswith("{"), f"{a} has no notation: {text}"
            assert same(parse_action(game_id, text), a), (a, text)
            verbs.add(text.split()[0])
            checked += 1
    assert EXPECTED_VERBS[game_id] <= verbs
    assert checked > 100


#: the wide round trip: many more games, each checked on its steps, its final public view and its settlements
#: (the public and per-seat views of every step are compared in ``test_random_games_round_trip`` above; building
#: them for every step of 4,000 games cost most of this test's time once the views became true copies)
WIDE_GAMES = 500


@pytest.mark.parametrize("game_id", GAMES)
def test_thousands_of_random_games_round_trip(game_id: str) -> None:
    for k in range(WIDE_GAMES):
        p = play_random(game_id, 500_000 + 10_000 * GAMES.index(game_id) + k, views=False, publics=False)
        rec = record_from_log(p.game_id, p.players, p.options, p.seed, p.log)
        back = parse_record(format_record(rec))
        assert back == rec
        done = replay(back, states="none")
        assert [(s.seat, s.action) for s in done.steps] == p.log
        assert done.game.public_view() == p.game.public_view()
        got = [(s.index, dict(s.amounts)) for s in done.game.settlements()]
        assert got == [(s.index, dict(s.amounts)) for s in p.settlements]

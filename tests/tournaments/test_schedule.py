"""Properties of the seating draw (hypothesis): everyone seated once per round, legal table sizes, byes that
rotate, and repeat pairings that are minimal (checked against brute force on small fields)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.schedule import History, draw_round, pair, repeat_count, table_sizes

GAMES = {"mediatore": (4, 4), "minchiate": (4, 4), "mighty": (5, 5), "wizard": (3, 6)}


def _cost(tables: list[tuple[int, ...]], met: Counter[tuple[int, int]]) -> int:
    return sum(met[pair(a, b)] ** 2 for t in tables for a, b in itertools.combinations(t, 2))


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 30),
    game=st.sampled_from(sorted(GAMES)),
    fill=st.sampled_from(["computer", "bye"]),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 2**32),
)
def test_every_player_is_seated_once_per_round(n: int, game: str, fill: str, rounds: int, seed: int) -> None:
    lo, hi = GAMES[game]
    players = random.Random(seed).sample(range(1, 10_000), n)
    history = History()
    rng = random.Random(seed)
    for _ in range(rounds):
        draw = draw_round(players, history, min_seats=lo, max_seats=hi, fill=fill, teams=game == "minchiate", rng=rng)
        seated = [u for t in draw.tables for u in t if u is not None]
        assert sorted(seated + list(draw.byes)) == sorted(players)  # once each: a seat or a bye
        for t in draw.tables:
            assert lo <= len(t) <= hi
            assert any(u is not None for u in t)
            if fill == "bye" and n >= lo:
                assert None not in t  # byes instead of computers
        if fill == "computer":
            assert not draw.byes
            computers = [sum(1 for u in t if u is None) for t in draw.tables]
            assert not computers or max(computers) - min(computers) <= 1  # computers spread out
        else:
            assert len(draw.byes) < lo or n < lo
        history.record(draw.tables, draw.byes, teams=game == "minchiate")
    if fill == "bye" and lo == hi and n >= lo:
        counts = [history.byes.get(u, 0) for u in players]
        assert max(counts) - min(counts) <= 1  # byes rotate


@settings(max_examples=40, deadline=None)
@given(
    meetings=st.lists(st.tuples(st.integers(1, 8), st.integers(1, 8), st.integers(1, 3)), max_size=20),
    seed=st.integers(0, 2**32),
)
def test_repeat_pairings_are_minimal_for_two_tables_of_four(meetings: list[tuple[int, int, int]], seed: int) -> None:
    history = History()
    for a, b, k in meetings:
        if a != b:
            history.met[pair(a, b)] += k
    players = list(range(1, 9))
    draw = draw_round(players, history, min_seats=4, max_seats=4, rng=random.Random(seed))
    got = _cost([tuple(u for u in t if u is not None) for t in draw.tables], history.met)
    best = min(
        _cost([g, tuple(u for u in players if u not in g)], history.met)
        for g in itertools.combinations(players, 4)
        if 1 in g
    )
    assert got == best


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_second_round_never_repeats_when_avoidable(seed: int) -> None:
    # 16 players at 4 tables of 4: round 2 can always split every round-1 table over the four tables.
    history = History()
    players = list(range(100, 116))
    rng = random.Random(seed)
    first = draw_round(players, history, min_seats=4, max_seats=4, rng=rng)
    history.record(first.tables)
    second = draw_round(players, history, min_seats=4, max_seats=4, rng=rng)
    assert repeat_count(second.tables, history.met) == 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_minchiate_partnerships_rotate(seed: int) -> None:
    history = History()
    players = list(range(1, 9))
    rng = random.Random(seed)
    for _ in range(3):
        draw = draw_round(players, history, min_seats=4, max_seats=4, teams=True, rng=rng)
        history.record(draw.tables, teams=True)
    assert max(history.partners.values()) == 1  # 3 rounds: nobody partners the same player twice


def test_draw_is_deterministic_and_ignores_input_order() -> None:
    players = list(range(1, 14))
    a = draw_round(players, History(), min_seats=3, max_seats=6, rng=random.Random(7))
    b = draw_round(players[::-1], History(), min_seats=3, max_seats=6, rng=random.Random(7))
    assert a == b


def test_table_sizes() -> None:
    assert table_sizes(8, 3, 6, "computer") == ([4, 4], 0)
    assert table_sizes(7, 3, 6, "computer") == ([4, 3], 0)
    assert table_sizes(13, 4, 4, "bye") == ([4, 4, 4], 1)
    assert table_sizes(13, 4, 4, "computer") == ([4, 3, 3, 3], 0)
    assert table_sizes(3, 5, 5, "bye") == ([3], 0)  # fewer than one table: computers fill anyway
    assert table_sizes(2, 3, 6, "computer") == ([2], 0)

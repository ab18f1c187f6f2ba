"""bot.ledger.settlement: settle-up with the fewest transfers (checked against brute force), exact amounts,
deterministic; the greedy past the exact limits."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ledger import settlement
from bot.ledger.settlement import EXACT_LIMIT, EXACT_LIMIT_UNBALANCED, Settlement, Transfer, settle

users = st.integers(min_value=1, max_value=10**18)
amounts = st.integers(min_value=-(10**12), max_value=10**12)


@st.composite
def zero_sum(draw: st.DrawFn) -> dict[int, int]:
    """Balances of distinct users that sum to zero (the last one takes the rest)."""
    ids = draw(st.lists(users, min_size=1, max_size=30, unique=True))
    values = [draw(amounts) for _ in ids[:-1]]
    return dict(zip(ids, [*values, -sum(values)], strict=True))


def _open(balances: dict[int, int]) -> int:
    return sum(1 for v in balances.values() if v)


@settings(deadline=None)  # (twenty players take the dynamic programme a tenth of a second)
@given(zero_sum())
def test_zero_sum_balances_are_cleared_exactly(balances: dict[int, int]) -> None:
    result = settle(balances)
    assert result.unmatched == 0
    assert all(v == 0 for v in result.after(balances).values())
    assert len(result.transfers) <= max(0, _open(balances) - 1)
    for t in result.transfers:
        assert t.amount > 0 and t.payer != t.payee
        assert balances[t.payer] < 0 < balances[t.payee]  # debtors only pay, creditors only receive


@settings(deadline=None)
@given(st.dictionaries(users, amounts, max_size=30))
def test_any_balances_clear_one_side_and_leave_the_sum(balances: dict[int, int]) -> None:
    result = settle(balances)
    after = result.after(balances)
    assert result.unmatched == sum(balances.values())
    # what is left is all on one side, and adds up to what no human counterpart can take
    assert all(v >= 0 for v in after.values()) or all(v <= 0 for v in after.values())
    assert sum(after.values()) == result.unmatched
    assert len(result.transfers) <= max(0, _open(balances) - 1)
    # nobody is pushed past zero: a debtor never becomes a creditor nor the other way round
    assert all(after[u] * balances[u] >= 0 and abs(after[u]) <= abs(balances[u]) for u in balances)


@settings(deadline=None)
@given(zero_sum(), st.randoms(use_true_random=False))
def test_order_of_the_input_does_not_matter(balances: dict[int, int], rnd: random.Random) -> None:
    items = list(balances.items())
    rnd.shuffle(items)
    assert settle(dict(items)) == settle(balances)


def test_marco_pays_anna_and_luca() -> None:
    marco, anna, luca = 3, 1, 2
    result = settle({marco: -35, anna: 20, luca: 15})
    assert result == Settlement((Transfer(marco, anna, 20), Transfer(marco, luca, 15)), 0)


def test_largest_debtor_pays_largest_creditor_first() -> None:
    # one group of four (no smaller group sums to zero): three transfers, the largest debtor's listed first
    result = settle({1: -10, 2: -30, 3: 25, 4: 15})
    assert result.transfers == (Transfer(2, 3, 25), Transfer(2, 4, 5), Transfer(1, 4, 10))


def test_ties_go_to_the_smaller_user_id() -> None:
    result = settle({9: -5, 4: -5, 7: 5, 2: 5})
    assert result.transfers == (Transfer(4, 2, 5), Transfer(9, 7, 5))


def test_nothing_to_settle() -> None:
    assert settle({}) == Settlement((), 0)
    assert settle({1: 0, 2: 0}) == Settlement((), 0)


def test_one_sided_balances_stay_open() -> None:
    # points: everybody scored, nobody owes; and a debt left by a computer player's winnings
    assert settle({1: 120, 2: 80}) == Settlement((), 200)
    assert settle({1: -7, 2: 4}) == Settlement((Transfer(1, 2, 4),), -3)


def test_amounts_are_exact_integers() -> None:
    big = 10**30
    assert settle({1: -big, 2: big - 1, 3: 1}).transfers == (Transfer(1, 2, big - 1), Transfer(1, 3, 1))
    with pytest.raises(TypeError):
        settle({1: 1.5, 2: -1.5})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        settle({1: True, 2: -1})


# ---------------------------------------------------------------- the minimum, against brute force


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every set partition of ``items`` (Bell(8) = 4140 of them for eight players)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in _partitions(rest):
        for i in range(len(p)):
            yield [*p[:i], [first, *p[i]], *p[i + 1 :]]
        yield [[first], *p]


def _brute_minimum(balances: dict[int, int]) -> int:
    """The fewest transfers over every transfer set, by brute force: the transfers of a set form a forest (a cycle
    can always be dropped), a tree of ``k`` players has ``k - 1`` of them, and each tree clears its players: a tree
    sums to zero, or, when the balances do not, leaves only the kind of rest the whole does (creditors still owed
    when the sum is positive, debtors still owing when it is negative). So: players minus the most groups of any
    partition whose groups all clear, with every partition tried."""
    total = sum(balances.values())
    people = [u for u, v in balances.items() if v]

    def clears(group: list[int]) -> bool:
        s = sum(balances[u] for u in group)
        return s == 0 or (s > 0 and total > 0) or (s < 0 and total < 0)

    most = max(len(p) for p in _partitions(people) if all(clears(g) for g in p)) if people else 0
    return len(people) - most


def _check_valid(balances: dict[int, int], result: Settlement) -> None:
    """Positive integer amounts, debtors pay and creditors receive, one side cleared, nobody past zero."""
    after = result.after(balances)
    assert result.unmatched == sum(balances.values()) == sum(after.values())
    for t in result.transfers:
        assert isinstance(t.amount, int) and t.amount > 0 and t.payer != t.payee
        assert balances[t.payer] < 0 < balances[t.payee]
    assert all(v >= 0 for v in after.values()) or all(v <= 0 for v in after.values())
    assert all(after[u] * balances[u] >= 0 and abs(after[u]) <= abs(balances[u]) for u in balances)
    if result.unmatched == 0:
        assert all(v == 0 for v in after.values())


small = st.integers(min_value=-6, max_value=6)


@st.composite
def small_zero_sum(draw: st.DrawFn) -> dict[int, int]:
    ids = draw(st.lists(st.integers(1, 50), min_size=1, max_size=8, unique=True))
    values = [draw(small) for _ in ids[:-1]]
    return dict(zip(ids, [*values, -sum(values)], strict=True))


@settings(max_examples=300, deadline=None)
@given(small_zero_sum())
def test_zero_sum_is_the_brute_force_minimum(balances: dict[int, int]) -> None:
    result = settle(balances)
    _check_valid(balances, result)
    assert result.exact
    assert len(result.transfers) == _brute_minimum(balances)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.integers(1, 50), small, max_size=8))
def test_any_balances_are_the_brute_force_minimum(balances: dict[int, int]) -> None:
    result = settle(balances)
    _check_valid(balances, result)
    assert result.exact
    assert len(result.transfers) == _brute_minimum(balances)


def test_the_first_evening_three_transfers_not_four() -> None:
    # the example: {-6 -> +6} and {-5, -5 -> +10}; the greedy made four
    balances = {1: -6, 2: -5, 3: -5, 4: 6, 5: 10}
    result = settle(balances)
    assert result.transfers == (Transfer(1, 4, 6), Transfer(2, 5, 5), Transfer(3, 5, 5))
    assert len(settlement._greedy(sorted((v, u) for u, v in balances.items()))) == 4


def test_every_five_player_set_in_minus_six_to_six_is_minimal() -> None:
    # every multiset of five balances in -6..+6 summing to zero (252): the greedy was not minimal on ten
    worse = 0
    for combo in itertools.combinations_with_replacement(range(-6, 7), 5):
        if sum(combo) != 0:
            continue
        balances = dict(enumerate(combo, start=1))
        minimum = _brute_minimum(balances)
        result = settle(balances)
        _check_valid(balances, result)
        assert len(result.transfers) == minimum, combo
        worse += len(settlement._greedy(sorted((v, u) for u, v in balances.items() if v))) > minimum
    assert worse == 10


def test_a_rest_is_spread_over_groups() -> None:
    # +5, +5 against -4, -4: two transfers (each creditor keeps 1), not one group of four
    for balances in ({1: 5, 2: 5, 3: -4, 4: -4}, {1: -5, 2: -5, 3: 4, 4: 4}):
        result = settle(balances)
        _check_valid(balances, result)
        assert len(result.transfers) == 2 and abs(result.unmatched) == 2


def _no_pairs(n: int, rng: random.Random, zero_sum: bool) -> dict[int, int]:
    while True:
        values = [rng.choice((-1, 1)) * rng.randint(1, 99) for _ in range(n - 1 if zero_sum else n)]
        if zero_sum:
            values.append(-sum(values))
        if 0 not in values and not any(-v in values for v in values):
            return {100 + i: v for i, v in enumerate(values)}


def test_past_the_exact_limit_the_greedy_answers_and_says_so() -> None:
    rng = random.Random(4)
    for n, zero_sum, limit in ((EXACT_LIMIT, True, EXACT_LIMIT), (EXACT_LIMIT_UNBALANCED, False, None)):
        balances = _no_pairs(n, rng, zero_sum)
        assert settle(balances).exact
        more = _no_pairs((limit or n) + 1, rng, zero_sum)
        result = settle(more)
        assert not result.exact
        _check_valid(more, result)
        assert len(result.transfers) <= len(more) - 1


def test_exact_pairs_do_not_count_towards_the_limit() -> None:
    # 30 players in 15 pairs of -x/+x: 15 transfers, exactly, without the dynamic programme
    balances = {u: (u // 2 + 1) * (1 if u % 2 else -1) for u in range(30)}
    result = settle(balances)
    assert result.exact and len(result.transfers) == 15
    _check_valid(balances, result)


def test_huge_balances_stay_exact_in_the_programme() -> None:
    big = 10**30
    balances = {1: -big, 2: -3, 3: big - 1, 4: 4}
    result = settle(balances)
    _check_valid(balances, result)
    assert len(result.transfers) == 3

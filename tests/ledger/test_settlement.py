"""bot.ledger.settlement: the greedy settle-up — exact, at most players - 1 transfers, deterministic."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ledger.settlement import Settlement, Transfer, settle

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


@given(zero_sum())
def test_zero_sum_balances_are_cleared_exactly(balances: dict[int, int]) -> None:
    result = settle(balances)
    assert result.unmatched == 0
    assert all(v == 0 for v in result.after(balances).values())
    assert len(result.transfers) <= max(0, _open(balances) - 1)
    for t in result.transfers:
        assert t.amount > 0 and t.payer != t.payee
        assert balances[t.payer] < 0 < balances[t.payee]  # debtors only pay, creditors only receive


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
    result = settle({1: -10, 2: -30, 3: 25, 4: 15})
    assert result.transfers == (Transfer(2, 3, 25), Transfer(1, 4, 10), Transfer(2, 4, 5))


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

"""Settling up: open balances in one currency turned into the few transfers that clear them. Pure, exact integers.

The standard greedy: the largest debtor pays the largest creditor as much as the smaller of the two can take, and
again until one side is empty. Every transfer clears at least one player (the last one clears two when the
balances sum to zero), so ``n`` players with an open balance need at most ``n - 1`` transfers. (The true minimum
is NP-hard in general; the greedy is what groups use by hand and is never worse than ``n - 1``.)

Ties are broken by amount, then by the smaller user id, so the same balances always give the same transfers in
the same order.

Balances need not sum to zero: computer players and admin adjustments have no human counterpart. Then one side
is cleared completely and the rest (``unmatched``) stays open: positive, creditors nobody owes; negative, debts
owed to nobody in particular.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Settlement", "Transfer", "settle"]


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (> 0) units."""

    payer: int
    payee: int
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The transfers, largest debtor first, and what no transfer can clear (the balances' sum)."""

    transfers: tuple[Transfer, ...]
    unmatched: int

    def after(self, balances: Mapping[int, int]) -> dict[int, int]:
        """The balances once every transfer is paid (a payment moves the payer up and the payee down)."""
        out = dict(balances)
        for t in self.transfers:
            out[t.payer] = out.get(t.payer, 0) + t.amount
            out[t.payee] = out.get(t.payee, 0) - t.amount
        return out


def settle(balances: Mapping[int, int]) -> Settlement:
    """The greedy settlement of ``balances`` (user id -> balance; positive: is owed, negative: owes)."""
    for uid, value in balances.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"balance of {uid} must be an int, got {value!r}")
    # Heaps of (-size, user id): the largest first, the smaller id first among equals.
    debtors = [(value, uid) for uid, value in balances.items() if value < 0]
    creditors = [(-value, uid) for uid, value in balances.items() if value > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    transfers: list[Transfer] = []
    while debtors and creditors:
        debt, payer = heapq.heappop(debtors)
        credit, payee = heapq.heappop(creditors)
        amount = min(-debt, -credit)
        transfers.append(Transfer(payer, payee, amount))
        if debt + amount < 0:
            heapq.heappush(debtors, (debt + amount, payer))
        if credit + amount < 0:
            heapq.heappush(creditors, (credit + amount, payee))
    return Settlement(tuple(transfers), sum(balances.values()))

"""Settling up: open balances in one currency turned into the fewest transfers that clear them. Pure, exact integers.

The minimum, exactly. Transfers between the players of one group that sums to zero clear that group with
``size - 1`` of them (each transfer clears at least one player, the last clears two), and no transfer set does
better than splitting the players into as many zero-sum groups as possible: a set of transfers is a forest whose
trees are zero-sum groups, and a tree of ``k`` players has ``k - 1`` edges. So the minimum is ``n`` (players with
an open balance) minus the largest number of disjoint zero-sum groups, found by a dynamic programme over subsets
(:func:`_most_zero_groups`: ``O(2^n n)``, vectorised). Inside each group the largest debtor pays the largest
creditor, which uses exactly ``size - 1`` transfers.

Two reductions first, both safe for the minimum: players at zero are left out, and a debtor and a creditor with
the same amount (``-x`` and ``+x``) always make a group of their own (moving them out of whatever groups they were
in never loses a group). The dynamic programme then runs on whoever is left; :data:`EXACT_LIMIT` of them (20:
under 0.2 s on one core) is as far as it goes. Beyond that the plain greedy (largest debtor to largest
creditor, at most ``n - 1`` transfers, usually within one or two of the minimum) is used instead, and
:attr:`Settlement.exact` says so.

Balances need not sum to zero: computer players and admin adjustments have no human counterpart. Then one side
(the smaller) is cleared completely and the rest (``unmatched``) stays open: positive, creditors nobody owes;
negative, debts owed to nobody in particular. The minimum is then over groups that each leave only that kind of
rest (sum ``>= 0``, resp. ``<= 0``), and the programme has to try every group of every subset (``O(3^n)``), so
its limit is :data:`EXACT_LIMIT_UNBALANCED` (14: a tenth of a second) players.

Deterministic: the same balances always give the same transfers in the same order, whatever the order of the
mapping: the largest debtor's payments first (then the smaller user id), each payer's largest payment first.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["EXACT_LIMIT", "EXACT_LIMIT_UNBALANCED", "Settlement", "Transfer", "settle"]

#: the most players with an open balance (after exact pairs) solved exactly when the balances sum to zero
EXACT_LIMIT = 20
#: the same when they do not (computer players, adjustments): the programme is O(3^n) there
EXACT_LIMIT_UNBALANCED = 14


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (> 0) units."""

    payer: int
    payee: int
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The transfers, largest debtor first, and what no transfer can clear (the balances' sum). ``exact``: the
    number of transfers is the minimum (False only past the exact limits, where the greedy answered)."""

    transfers: tuple[Transfer, ...]
    unmatched: int
    exact: bool = True

    def after(self, balances: Mapping[int, int]) -> dict[int, int]:
        """The balances once every transfer is paid (a payment moves the payer up and the payee down)."""
        out = dict(balances)
        for t in self.transfers:
            out[t.payer] = out.get(t.payer, 0) + t.amount
            out[t.payee] = out.get(t.payee, 0) - t.amount
        return out


def settle(balances: Mapping[int, int]) -> Settlement:
    """The fewest transfers that settle ``balances`` (user id -> balance; positive: is owed, negative: owes)."""
    for uid, value in balances.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"balance of {uid} must be an int, got {value!r}")
    total = sum(balances.values())
    # Solve with the rest (if any) on the creditors' side: flip the signs when debts exceed credits, and flip the
    # transfers back at the end.
    flip = total < 0
    people = sorted(((-v if flip else v), uid) for uid, v in balances.items() if v)
    groups, rest = _exact_pairs(people)
    exact = True
    limit = EXACT_LIMIT if total == 0 else EXACT_LIMIT_UNBALANCED
    if len(rest) > limit:
        # Past the exact limit: the greedy over everyone left (documented in docs/ledger/settling.md).
        groups.append(rest)
        exact = False
    elif any(v < 0 for v, _ in rest):  # (no debtor left: nobody pays, the creditors keep the rest)
        values = [v for v, _ in rest]
        parts = _most_zero_groups(values) if total == 0 else _most_surplus_groups(values)
        groups.extend([rest[i] for i in part] for part in parts)
    transfers: list[Transfer] = []
    for group in groups:
        for payer, payee, amount in _greedy(group):
            transfers.append(Transfer(payee, payer, amount) if flip else Transfer(payer, payee, amount))
    owes = {uid: v for uid, v in balances.items()}
    transfers.sort(key=lambda t: (owes[t.payer], t.payer, -t.amount, t.payee))
    return Settlement(tuple(transfers), total, exact)


def _exact_pairs(people: list[tuple[int, int]]) -> tuple[list[list[tuple[int, int]]], list[tuple[int, int]]]:
    """Split off every ``-x``/``+x`` pair (smaller ids paired first); return the pairs and who is left."""
    by_amount: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for p in people:
        by_amount[p[0]].append(p)
    pairs: list[list[tuple[int, int]]] = []
    used: set[int] = set()
    for value, debtors in sorted(by_amount.items()):
        if value >= 0:
            break
        creditors = by_amount.get(-value, [])
        for d, c in zip(sorted(debtors, key=lambda p: p[1]), sorted(creditors, key=lambda p: p[1]), strict=False):
            pairs.append([d, c])
            used.update((d[1], c[1]))
    return pairs, [p for p in people if p[1] not in used]


def _greedy(group: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """``(payer, payee, amount)``: the largest debtor pays the largest creditor, smaller id first among equals.
    A group summing to zero (or leaving a rest with its creditors) takes at most ``len(group) - 1`` transfers."""
    debtors = [(v, uid) for v, uid in group if v < 0]
    creditors = [(-v, uid) for v, uid in group if v > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    out: list[tuple[int, int, int]] = []
    while debtors and creditors:
        debt, payer = heapq.heappop(debtors)
        credit, payee = heapq.heappop(creditors)
        amount = min(-debt, -credit)
        out.append((payer, payee, amount))
        if debt + amount < 0:
            heapq.heappush(debtors, (debt + amount, payer))
        if credit + amount < 0:
            heapq.heappush(creditors, (credit + amount, payee))
    return out


def _subset_sums(values: Sequence[int]) -> np.ndarray:
    """The sum of every subset, indexed by its bit mask (int64 when that cannot overflow, exact objects else)."""
    exact = sum(abs(v) for v in values) < 2**62
    sums = np.zeros(1 << len(values), dtype=np.int64 if exact else object)
    for i, v in enumerate(values):
        sums[1 << i : 2 << i] = sums[: 1 << i] + v
    return sums


def _most_zero_groups(values: Sequence[int]) -> list[list[int]]:
    """The largest number of disjoint zero-sum groups covering ``values`` (which sum to zero), as index lists.

    ``best[m]`` is the most zero-sum groups a subset ``m`` of zero sum splits into; for any ``m`` it is
    ``[sum(m) == 0] + max(best[m - {i}])``: put the groups of an optimal split in a row, and the zero-sum
    prefixes of that row are exactly the groups' ends. Computed one subset size at a time, all subsets of a size
    at once (numpy), then walked back from the full set."""
    n = len(values)
    size = 1 << n
    sums = _subset_sums(values)
    zero = (sums == 0).astype(np.int8)
    zero[0] = 0
    count = np.zeros(size, dtype=np.int8)
    for i in range(n):
        count[1 << i : 2 << i] = count[: 1 << i] + 1
    by_size = np.argsort(count, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(count, minlength=n + 1))))
    best = np.zeros(size, dtype=np.int8)
    for k in range(1, n + 1):
        masks = by_size[bounds[k] : bounds[k + 1]]
        top = np.full(len(masks), -1, dtype=np.int8)
        for i in range(n):
            bit = 1 << i
            # a mask without bit i reads some other entry; np.where throws it away
            np.maximum(top, np.where(masks & bit, best[masks ^ bit], -1), out=top)
        best[masks] = top + zero[masks]
    groups: list[list[int]] = []
    mask, current = size - 1, []
    while mask:
        # the highest index whose removal keeps the optimum (a fixed rule: the same input, the same groups)
        target = best[mask] - zero[mask]
        i = next(i for i in reversed(range(n)) if mask >> i & 1 and best[mask ^ (1 << i)] == target)
        current.append(i)
        mask ^= 1 << i
        if zero[mask] or not mask:
            groups.append(sorted(current))
            current = []
    return groups


def _most_surplus_groups(values: Sequence[int]) -> list[list[int]]:
    """The largest number of disjoint groups covering ``values`` (summing to more than zero) that each sum to zero
    or more (a creditor on their own is such a group: owed, pays nobody). ``O(3^n)``: every subset's every group
    holding its first member is tried; the prefix argument of :func:`_most_zero_groups` fails for these groups."""
    n = len(values)
    sums = _subset_sums(values).tolist()
    best = [-1] * (1 << n)
    choice = [0] * (1 << n)
    best[0] = 0
    for mask in range(1, 1 << n):
        if sums[mask] < 0:
            continue
        low = mask & -mask
        rest = mask ^ low
        top, pick = -1, 0
        sub = rest
        while True:
            group = sub | low
            if sums[group] >= 0:
                got = best[mask ^ group]
                if got >= 0 and got + 1 > top:
                    top, pick = got + 1, group
            if not sub:
                break
            sub = (sub - 1) & rest
        best[mask], choice[mask] = top, pick
    groups: list[list[int]] = []
    mask = (1 << n) - 1
    while mask:
        group = choice[mask]
        groups.append([i for i in range(n) if group >> i & 1])
        mask ^= group
    return groups

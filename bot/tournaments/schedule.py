"""Seating draw for tournament rounds: pure functions, no I/O, deterministic for a given ``random.Random``.

The problem: split the active players of one round into tables of the game's size, filling the rest with
computer seats or byes, so that players meet opponents they have not met yet (and, in partnership games,
get new partners).

The algorithm (small inputs: a server tournament has tens of players, not thousands):

1. **Byes** (``fill="bye"`` and a fixed table size): the ``n mod size`` players with the fewest byes so far
   sit out, ties broken at random, so byes rotate.
2. **Table sizes**: fixed-size games use ``ceil(n / size)`` tables; computer seats are spread one table at
   a time so no table gets more computers than another plus one. Variable-size games (Wizard, 3-6) use as
   few tables as possible with sizes differing by at most one.
3. **Grouping**: several random restarts, each followed by hill climbing over pairwise swaps of players at
   different tables; the cost of a grouping is the sum over every pair of humans sharing a table of
   ``(times they already met) ** 2`` — squared, so two repeats of one pair are worse than one repeat each
   of two pairs. The best grouping over all restarts wins.
4. **Seat order** within a table is shuffled; for partnership games (Minchiate, seats 0+2 vs 1+3) the
   partnership that repeats the fewest earlier partnerships is chosen (then shuffled within that choice).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "Draw",
    "History",
    "Pair",
    "draw_round",
    "pair",
    "repeat_count",
    "table_sizes",
]

Pair = tuple[int, int]


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(slots=True)
class History:
    """What earlier rounds did: how often each pair of humans shared a table or were partners, and byes."""

    met: Counter[Pair] = field(default_factory=Counter)
    partners: Counter[Pair] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)

    def record(self, tables: Iterable[Sequence[int | None]], byes: Iterable[int] = (), *, teams: bool = False) -> None:
        """Fold one round in (``tables`` in seat order; ``None`` = computer)."""
        for seats in tables:
            humans = [u for u in seats if u is not None]
            for a, b in itertools.combinations(humans, 2):
                self.met[pair(a, b)] += 1
            if teams and len(seats) == 4:
                for x, y in ((0, 2), (1, 3)):
                    p, q = seats[x], seats[y]
                    if p is not None and q is not None:
                        self.partners[pair(p, q)] += 1
        for u in byes:
            self.byes[u] += 1


@dataclass(frozen=True, slots=True)
class Draw:
    """One round's seating: each table's seats in order (``None`` = a computer seat), and the byes."""

    tables: tuple[tuple[int | None, ...], ...]
    byes: tuple[int, ...]


def table_sizes(n: int, min_seats: int, max_seats: int, fill: str) -> tuple[list[int], int]:
    """How many humans sit at each table, and how many players get a bye.

    Returns ``(humans_per_table, byes)``. With computers, a table's missing seats are filled by the
    caller up to ``min_seats`` (fixed-size games: up to the size). Fewer players than one table need
    computers whatever ``fill`` says."""
    if n <= 0:
        return [], 0
    if min_seats == max_seats:
        size = min_seats
        if fill == "bye" and n >= size:
            tables, byes = n // size, n % size
            return [size] * tables, byes
        tables = math.ceil(n / size)
    else:
        if n < min_seats:
            return [n], 0  # fewer than one table: computers fill even with byes (nobody could play)
        tables = math.ceil(n / max_seats)
    base, extra = divmod(n, tables)
    # larger tables first: with computer fill the short tables (the ones with computers) come last
    return [base + 1] * extra + [base] * (tables - extra), 0


def repeat_count(tables: Iterable[Sequence[int | None]], met: Mapping[Pair, int]) -> int:
    """How many pairs sharing a table in ``tables`` had already met (each such pair counts once)."""
    total = 0
    for seats in tables:
        humans = [u for u in seats if u is not None]
        total += sum(1 for a, b in itertools.combinations(humans, 2) if met.get(pair(a, b), 0) > 0)
    return total


def _group_cost(group: Sequence[int], met: Mapping[Pair, int]) -> int:
    return sum(met.get(pair(a, b), 0) ** 2 for a, b in itertools.combinations(group, 2))


def _climb(groups: list[list[int]], met: Mapping[Pair, int]) -> int:
    """Swap players between tables while that lowers the cost; returns the final cost."""
    costs = [_group_cost(g, met) for g in groups]
    improved = True
    while improved:
        improved = False
        for gi, gj in itertools.combinations(range(len(groups)), 2):
            a_grp, b_grp = groups[gi], groups[gj]
            for x in range(len(a_grp)):
                for y in range(len(b_grp)):
                    a_grp[x], b_grp[y] = b_grp[y], a_grp[x]
                    ci, cj = _group_cost(a_grp, met), _group_cost(b_grp, met)
                    if ci + cj < costs[gi] + costs[gj]:
                        costs[gi], costs[gj] = ci, cj
                        improved = True
                    else:
                        a_grp[x], b_grp[y] = b_grp[y], a_grp[x]
    return sum(costs)


def _seat_order(humans: list[int], size: int, history: History, teams: bool, rng: random.Random) -> list[int | None]:
    seats: list[int | None] = [*humans, *([None] * (size - len(humans)))]
    rng.shuffle(seats)
    if not (teams and size == 4):
        return seats
    # Minchiate: the three ways to split four seats into partnerships; keep the least repeated one.
    a, b, c, d = seats
    options = [(a, c, b, d), (a, b, c, d), (a, d, b, c)]  # (team A pair, team B pair)

    def partner_cost(opt: tuple[int | None, ...]) -> int:
        pairs = [(opt[0], opt[1]), (opt[2], opt[3])]
        return sum(history.partners.get(pair(x, y), 0) for x, y in pairs if x is not None and y is not None)

    best = min(options, key=partner_cost)  # min is stable: the shuffled order breaks ties at random
    return [best[0], best[2], best[1], best[3]]  # seats 0,2 = team A; 1,3 = team B


def draw_round(
    players: Sequence[int],
    history: History,
    *,
    min_seats: int,
    max_seats: int,
    fill: str = "computer",
    teams: bool = False,
    rng: random.Random,
    restarts: int = 24,
) -> Draw:
    """Seat ``players`` (distinct user ids) for one round. See the module docstring for the method.

    Every player appears exactly once: at one table or among the byes. With ``fill="computer"`` every table
    has between ``min_seats`` and ``max_seats`` seats (computers fill the gaps); with ``fill="bye"`` tables
    are all-human, except when there are fewer players than one table needs (computers fill that one).
    """
    if fill not in ("computer", "bye"):
        raise ValueError("fill must be 'computer' or 'bye'")
    if len(set(players)) != len(players):
        raise ValueError("players must be distinct")
    ordered = sorted(players)  # the caller's order must not matter, only the rng
    sizes, n_byes = table_sizes(len(ordered), min_seats, max_seats, fill)
    byes: list[int] = []
    if n_byes:
        shuffled = ordered[:]
        rng.shuffle(shuffled)
        shuffled.sort(key=lambda u: history.byes.get(u, 0))  # stable: random among equal bye counts
        byes = sorted(shuffled[:n_byes])
    seated = [u for u in ordered if u not in set(byes)]
    best: list[list[int]] | None = None
    best_cost = math.inf
    for _ in range(max(1, restarts) if len(sizes) > 1 else 1):
        pool = seated[:]
        rng.shuffle(pool)
        groups, i = [], 0
        for s in sizes:
            groups.append(pool[i : i + s])
            i += s
        cost = _climb(groups, history.met) if len(groups) > 1 else _group_cost(groups[0], history.met)
        if cost < best_cost:
            best, best_cost = [g[:] for g in groups], cost
            if cost == 0:
                break
    tables: list[tuple[int | None, ...]] = []
    for group in best or []:
        size = min_seats if min_seats == max_seats else max(len(group), min_seats)
        tables.append(tuple(_seat_order(group, size, history, teams, rng)))
    return Draw(tuple(tables), tuple(byes))

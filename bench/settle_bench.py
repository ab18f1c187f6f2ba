"""Settle-up benchmark (a script, not a test): how long the exact minimum takes as the group grows.

    python bench/settle_bench.py [--repeat 3] [--seed 1]

For each size, random balances in -999..999 with no ``-x``/``+x`` pair (pairs are split off before the dynamic
programme, so they would make it look faster than it is); zero-sum sets up to :data:`EXACT_LIMIT` players, and
sets with a rest (computer players) up to :data:`EXACT_LIMIT_UNBALANCED`. Prints the median time per size, the
CPU time (steadier than the wall clock on a shared machine), the transfers found and, for comparison, the
greedy's count on the same balances.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from bot.ledger import settlement
from bot.ledger.settlement import EXACT_LIMIT, EXACT_LIMIT_UNBALANCED, settle


def balances(n: int, rng: random.Random, *, zero_sum: bool) -> dict[int, int]:
    """``n`` distinct users, no amount whose opposite is also there; summing to zero when asked."""
    while True:
        values = [rng.choice((-1, 1)) * rng.randint(1, 999) for _ in range(n - 1 if zero_sum else n)]
        if zero_sum:
            values.append(-sum(values))
        if 0 not in values and not any(-v in values for v in values):
            return {1000 + i: v for i, v in enumerate(values)}


def greedy_count(b: dict[int, int]) -> int:
    return len(settlement._greedy(sorted((v, u) for u, v in b.items() if v)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cases = [(n, True) for n in (8, 12, 16, 18, EXACT_LIMIT)]
    cases += [(n, False) for n in (8, 10, 12, EXACT_LIMIT_UNBALANCED)]
    print(f"{'players':>7} {'sum':>8} {'median s':>9} {'cpu s':>7} {'transfers':>9} {'greedy':>6}")
    for n, zero in cases:
        times, cpu, found, greedy = [], [], 0, 0
        for _ in range(args.repeat):
            b = balances(n, rng, zero_sum=zero)
            start, start_cpu = time.perf_counter(), time.process_time()
            result = settle(b)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            assert result.exact and all(v == 0 for v in result.after(b).values()) == zero
            found, greedy = len(result.transfers), greedy_count(b)
        label = "zero" if zero else "rest"
        median, median_cpu = statistics.median(times), statistics.median(cpu)
        print(f"{n:>7} {label:>8} {median:>9.3f} {median_cpu:>7.3f} {found:>9} {greedy:>6}")


if __name__ == "__main__":
    main()

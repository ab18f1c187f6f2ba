"""Wizard bid accuracy per hand size on duplicate rounds (a benchmark script, not a test): where do bids miss?

Every hand size is played as a one-round game (the ``rounds`` option) on ``--deals`` seeded deals, each under
the 4 seat rotations of ``bench/ai_ladder.py`` (agent A in one seat, three B seats), so the luck of the cards
cancels. Per hand size it prints A's bid accuracy (Wilson 95% CI) next to B's, how A missed (overbid: fewer
tricks than bid; underbid: more), and the mean paired points difference per round (A's seat minus the mean of
B's, averaged over the rotations, 95% CI over deals); then the same over all hand sizes and A's decision CPU times.

Usage:
    python bench/wizard_rounds.py [--deals 10] [--sizes 1-15] [--seed 1] [--matchup strong:normal] [--jobs 1]
        [--budget wizard.play=300 ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))
sys.path.insert(0, str(Path(__file__).parent))

from ai_ladder import _pct, agent, mean_ci, rotations, wilson

from bot.engine.rng import derive_seed
from bot.games import registry
from bot.games.wizard.engine import WizardGame

N = 4


@dataclasses.dataclass
class SizeResult:
    """One deal of one hand size under every rotation."""

    a_hits: int = 0
    a_over: int = 0  # A took fewer tricks than it bid
    a_under: int = 0
    b_hits: int = 0
    b_rounds: int = 0
    diffs: list[float] = dataclasses.field(default_factory=list)  # per rotation: A's points - mean of B's
    times: list[float] = dataclasses.field(default_factory=list)  # A's non-forced decisions, CPU seconds


def play(a_level: str, b_level: str, size: int, deal: int, seed: int) -> SizeResult:
    deal_seed = derive_seed(seed, "wizard-rounds", size, deal)
    out = SizeResult()
    for rot, (a,) in enumerate(rotations("wizard")):
        levels = [a_level if s == a else b_level for s in range(N)]
        agents = [agent("wizard", lv) for lv in levels]
        game = WizardGame(N, {"rounds": str(size)}, deal_seed)
        step = 0
        while not game.is_over:
            seat = game.to_move()[0]
            forced = len([x for x in game.legal_actions(seat) if x.get("type") != "undo"]) <= 1
            rng = random.Random(derive_seed(seed, "wizard-rounds", size, deal, rot, step))
            t0 = time.process_time()
            action = agents[seat].choose(game.clone(), seat, rng)
            if seat == a and not forced:
                out.times.append(time.process_time() - t0)
            game.apply(seat, action)
            step += 1
        summary = game.settlements()[0].summary
        bids, tricks, totals = summary["bids"][0], summary["tricks"][0], summary["totals"]
        out.a_hits += bids[a] == tricks[a]
        out.a_over += tricks[a] < bids[a]
        out.a_under += tricks[a] > bids[a]
        others = [s for s in range(N) if s != a]
        out.b_hits += sum(bids[s] == tricks[s] for s in others)
        out.b_rounds += len(others)
        out.diffs.append(totals[a] - statistics.fmean(totals[s] for s in others))
    return out


def parse_sizes(text: str) -> list[int]:
    sizes: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        sizes.extend(range(int(lo), int(hi or lo) + 1))
    return sizes


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":
        # as in ai_ladder.py: heuristic tie-breaks iterate sets of strings; fix the hash seed for reproducibility
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--sizes", default="1-15")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matchup", default="strong:normal")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget", nargs="*", default=[], metavar="wizard.FIELD=VALUE")
    args = parser.parse_args()
    search = registry.search("wizard")
    for item in args.budget:
        name, _, value = item.partition("=")
        fld = name.partition(".")[2]
        old = getattr(search.budget, fld)
        search.budget = dataclasses.replace(search.budget, **{fld: type(old)(value)})
    print("strong budget:", dataclasses.asdict(search.budget))
    a_level, _, b_level = args.matchup.partition(":")
    sizes = parse_sizes(args.sizes)
    tasks = [(a_level, b_level, size, d, args.seed) for size in sizes for d in range(args.deals)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play, *zip(*tasks, strict=True)))
    else:
        results = [play(*t) for t in tasks]
    by_size: dict[int, list[SizeResult]] = {s: [] for s in sizes}
    for t, r in zip(tasks, results, strict=True):
        by_size[t[2]].append(r)
    print(f"{a_level} vs 3 {b_level}, {args.deals} deals x 4 rotations per hand size, seed {args.seed}")
    print(" size   A bids hit [95% CI]        over under   B bids hit   paired points/round")

    def line(label: str, rs: list[SizeResult]) -> None:
        rounds = 4 * len(rs)
        hits = sum(r.a_hits for r in rs)
        p, lo, hi = wilson(hits, rounds)
        bp = sum(r.b_hits for r in rs) / max(1, sum(r.b_rounds for r in rs))
        m, h = mean_ci([statistics.fmean(r.diffs) for r in rs])
        over, under = sum(r.a_over for r in rs), sum(r.a_under for r in rs)
        print(
            f"{label:>5s}   {100 * p:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]  {over:4d} {under:5d}"
            f"   {100 * bp:5.1f}%      {m:+7.2f} ± {h:5.2f}"
        )

    for size in sizes:
        line(str(size), by_size[size])
    line("all", results)
    med, p95, mx = _pct(t for r in results for t in r.times)
    print(f"decision time {a_level}: median {med * 1000:.1f} ms  p95 {p95 * 1000:.1f} ms  max {mx * 1000:.1f} ms")


if __name__ == "__main__":
    main()

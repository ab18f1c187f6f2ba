"""Strength ladder of the computer players on duplicate deals (a benchmark script, not a test).

Every match-up ``A:B`` replays the same fixed list of seeded deals under every seat rotation, so the luck of
the cards cancels: in a deal, A sits where B sat in another rotation.

* Mediatore (4 seats) and Minchiate (4 seats, fixed teams 0+2 / 1+3): A holds seats {r, r+2}, r = 0, 1.
* Mighty (5 seats): A holds seats {r, r+2}, r = 0..4 (2 seats of 5 - sides form during the auction).
* Wizard (4 seats): A holds seat r, r = 0..3, against three B players; whole games (all rounds by default).

Per game and match-up it prints: the mean paired difference (A's mean per-seat result minus B's, per deal,
averaged over the rotations; Minchiate: the deal's whole point difference) with a 95% CI; the share of hands
A's seats won (their mean booking - stake, or Minchiate resti - above B's; ties count half) with a Wilson 95%
CI; the same share over the *decided* hands (A's and B's seats booked differently): in Mighty, when B's
declarer calls one of A's seats as its friend, A and B each have one seat on each side and book exactly the
same (+S and -S against +2S, -S and -S), so those hands say nothing about either agent; for Mediatore /
Mighty also the "pure-side" hands (declarer and partner played by the same agent: A wins if its contract is
made or B's is beaten); contract success per level (Mediatore, Mighty); Wizard bid accuracy and
first-place share of A; decision times (CPU time; median / p95 / max, non-forced decisions only) per level. The
levels are ``random`` (uniform legal moves) and the registered ones (``easy`` = greedy heuristic, ``normal``,
``strong``); ``--budget`` overrides a strong budget for experiments.

``--compare-with PATH`` plays the same match-ups on the same deals with the ``bot`` package of another checkout
(e.g. the previous version) in a second process, at the same time (so both meet the same machine load), and
prints its figures too, the paired difference per deal (this version minus that one, with its 95% CI), how many
deals were played move for move alike, and both sides' decision times.

Usage:
    python bench/ai_ladder.py [--games wizard mediatore mighty minchiate] [--deals 20]
        [--matchups strong:random strong:easy ...] [--seed 1] [--first-deal 0] [--jobs 1] [--wizard-rounds all]
        [--budget mediatore.play=200 ...] [--compare-with ../previous-checkout]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# --bot-root (used by --compare-with): play with the bot package of another checkout
sys.path.insert(
    0, str(Path(sys.argv[sys.argv.index("--bot-root") + 1] if "--bot-root" in sys.argv else Path(__file__).parents[1]))
)

from bot.ai.base import Agent, RandomAgent
from bot.engine.protocol import Game
from bot.engine.rng import derive_seed
from bot.games import registry
from bot.games.registry import game_class, make_agent

SEATS = {"wizard": 4, "mediatore": 4, "mighty": 5, "minchiate": 4}
OPTIONS: dict[str, dict[str, Any]] = {
    "wizard": {},
    "mediatore": {"hands": 1},
    "mighty": {"hands": 1},
    "minchiate": {"deals_per_game": 1},
}


def rotations(game_id: str) -> list[tuple[int, ...]]:
    """The seats agent A holds, one tuple per rotation."""
    n = SEATS[game_id]
    if game_id == "wizard":
        return [(r,) for r in range(n)]
    if game_id == "mighty":
        return [(r, (r + 2) % n) for r in range(n)]
    return [(r, r + 2) for r in range(2)]


def agent(game_id: str, level: str) -> Agent:
    return RandomAgent() if level == "random" else make_agent(game_id, level)


@dataclass
class DealResult:
    """One deal played under every rotation."""

    diffs: list[float] = field(default_factory=list)  # per rotation: A mean - B mean
    wins: list[float] = field(default_factory=list)  # per hand: 1 / 0.5 / 0 for A
    pure: list[float] = field(default_factory=list)  # hands whose declaring side is one agent: 1 if A won
    decided: list[float] = field(default_factory=list)  # hands where A's and B's seats booked differently
    contracts: dict[str, list[int]] = field(default_factory=dict)  # level -> [made, played]
    bids: list[int] = field(default_factory=lambda: [0, 0])  # Wizard: A's exact bids, rounds
    first: list[float] = field(default_factory=list)  # Wizard: A first (ties share)
    times: dict[str, list[float]] = field(default_factory=dict)
    digest: str = ""  # of every move of the deal (two versions played it alike iff equal)


def play_deal(game_id: str, a_level: str, b_level: str, deal: int, seed: int, wizard_rounds: str) -> DealResult:
    cls = game_class(game_id)
    n = SEATS[game_id]
    options = dict(OPTIONS[game_id])
    if game_id == "wizard" and wizard_rounds != "all":
        options["rounds"] = wizard_rounds
    deal_seed = derive_seed(seed, game_id, "deal", deal)
    out = DealResult()
    moves = hashlib.sha256()
    for rot, a_seats in enumerate(rotations(game_id)):
        levels = [a_level if s in a_seats else b_level for s in range(n)]
        agents = [agent(game_id, lv) for lv in levels]
        game: Game = cls(n, options, deal_seed)  # type: ignore[call-arg]
        step = 0
        while not game.is_over:
            seat = game.to_move()[0]
            legal = game.legal_actions(seat)
            rng = random.Random(derive_seed(seed, game_id, deal, rot, step))
            # CPU time of this process: what the decision costs, much less disturbed by other jobs than wall time
            t0 = time.process_time()
            action = agents[seat].choose(game.clone(), seat, rng)
            dt = time.process_time() - t0
            if len([x for x in legal if x.get("type") != "undo"]) > 1:
                out.times.setdefault(levels[seat], []).append(dt)
            moves.update(json.dumps(action, sort_keys=True).encode())
            game.apply(seat, action)
            step += 1
        _score(game_id, game, a_seats, levels, out)
    out.digest = moves.hexdigest()
    return out


def _score(game_id: str, game: Game, a_seats: tuple[int, ...], levels: list[str], out: DealResult) -> None:
    n = game.num_seats
    b_seats = [s for s in range(n) if s not in a_seats]
    total_a = total_b = 0.0
    for st in game.settlements():
        cur = "resto" if game_id == "minchiate" else "point" if game_id == "wizard" else "stake"
        amounts: tuple[float, ...] = tuple(st.amounts[cur])
        ma = sum(amounts[s] for s in a_seats) / len(a_seats)
        mb = sum(amounts[s] for s in b_seats) / len(b_seats)
        if game_id != "wizard":
            # a hand is won by the agent whose seats booked more (Minchiate: the team with the positive net
            # resti, docs/rules/minchiate.md §8.6); equal bookings count half
            out.wins.append(1.0 if ma > mb else 0.0 if ma < mb else 0.5)
            if ma != mb:
                out.decided.append(1.0 if ma > mb else 0.0)
        if game_id == "minchiate":
            # the paired difference in points (finer than resti): the deal's whole point difference, resti
            # converted during play counted as 60 points each
            pts = float(st.summary["points_diff"])
            pa = pts if a_seats[0] % 2 == 0 else -pts
            ma, mb = pa, -pa
        total_a += ma
        total_b += mb
        decl = st.summary.get("bidder", st.summary.get("declarer"))
        if game_id in ("mediatore", "mighty") and decl is not None:
            rec = out.contracts.setdefault(levels[decl], [0, 0])
            made = bool(st.summary.get("made"))
            rec[0] += made
            rec[1] += 1
            # With mixed partnerships (a random declarer calling an A seat as friend) "A's seats" are on both
            # sides; the pure hands (declarer and partner played by the same agent) measure the sides cleanly.
            side = st.summary.get("bidder_side") or [decl, st.summary.get("friend")]
            side = [s for s in side if s is not None]
            side_a = {s in a_seats for s in side}
            if len(side_a) == 1:
                declarer_is_a = side_a.pop()
                out.pure.append(1.0 if made == declarer_is_a else 0.0)
        if game_id == "wizard":
            a = a_seats[0]
            bids = st.summary["bids"]
            tricks = st.summary["tricks"]
            out.bids[0] += sum(1 for b, t in zip(bids, tricks, strict=True) if b[a] == t[a])
            out.bids[1] += len(bids)
            ranks = st.summary["ranks"]
            firsts = [s for s in range(n) if ranks[s] == 1]
            out.first.append(1.0 / len(firsts) if a in firsts else 0.0)
            out.wins.append(1.0 if ranks[a] == 1 else 0.0)
    out.diffs.append(total_a - total_b)


def mean_ci(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("inf")
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def wilson(p_sum: float, n: int) -> tuple[float, float, float]:
    if n == 0:
        return 0.0, 0.0, 0.0
    p = p_sum / n
    z = 1.96
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, c - h, c + h


def _pct(xs: Iterable[float]) -> tuple[float, float, float]:
    s = sorted(xs)
    if not s:
        return 0.0, 0.0, 0.0
    return statistics.median(s), s[min(len(s) - 1, int(0.95 * len(s)))], s[-1]


def run(
    game_id: str, a: str, b: str, deals: int, seed: int, jobs: int, wizard_rounds: str, first_deal: int = 0
) -> dict[str, Any]:
    args = [(game_id, a, b, d, seed, wizard_rounds) for d in range(first_deal, first_deal + deals)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play_deal, *zip(*args, strict=True)))
    else:
        results = [play_deal(*x) for x in args]
    paired = [statistics.fmean(r.diffs) for r in results]
    wins = [w for r in results for w in r.wins]
    pure = [w for r in results for w in r.pure]
    decided = [w for r in results for w in r.decided]
    contracts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    times: dict[str, list[float]] = defaultdict(list)
    bids = [0, 0]
    first: list[float] = []
    for r in results:
        for lv, (made, played) in r.contracts.items():
            contracts[lv][0] += made
            contracts[lv][1] += played
        for lv, ts in r.times.items():
            times[lv].extend(ts)
        bids[0] += r.bids[0]
        bids[1] += r.bids[1]
        first.extend(r.first)
    return {
        "per_deal": paired,
        "digests": [r.digest for r in results],
        "paired": mean_ci(paired),
        "wins": wilson(sum(wins), len(wins)),
        "hands": len(wins),
        "pure": (wilson(sum(pure), len(pure)), len(pure)) if pure else None,
        "decided": (wilson(sum(decided), len(decided)), len(decided)) if game_id != "wizard" else None,
        "contracts": dict(contracts),
        "times": {lv: _pct(ts) for lv, ts in times.items()},
        "bids": wilson(bids[0], bids[1]) if bids[1] else None,
        "first": wilson(sum(first), len(first)) if first else None,
        "deals": deals,
    }


def report(game_id: str, a: str, b: str, res: dict[str, Any]) -> None:
    m, h = res["paired"]
    p, lo, hi = res["wins"]
    unit = {"wizard": "points/game", "minchiate": "points/deal"}.get(game_id, "stake/hand")
    print(f"{game_id:9s} {a:>6s} vs {b:<6s} deals={res['deals']:3d}  paired diff {m:+8.2f} ± {h:6.2f} {unit}")
    what = "first place (A seat)" if game_id == "wizard" else "hands won by A side"
    print(f"{'':9s}   {what}: {100 * p:5.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]  (n={res['hands']})")
    if res["decided"]:
        (dp, dlo, dhi), dn = res["decided"]
        print(f"{'':9s}   decided hands won by A:   {100 * dp:5.1f}%  [{100 * dlo:5.1f}, {100 * dhi:5.1f}]  (n={dn})")
    if res["pure"]:
        (pp, plo, phi), pn = res["pure"]
        print(f"{'':9s}   pure-side hands won by A: {100 * pp:5.1f}%  [{100 * plo:5.1f}, {100 * phi:5.1f}]  (n={pn})")
    if res["bids"]:
        bp, blo, bhi = res["bids"]
        fp, flo, fhi = res["first"]
        print(
            f"{'':9s}   A bid accuracy {100 * bp:5.1f}% [{100 * blo:5.1f}, {100 * bhi:5.1f}]; "
            f"first-place share {100 * fp:5.1f}% [{100 * flo:5.1f}, {100 * fhi:5.1f}]"
        )
    for lv, (made, played) in sorted(res["contracts"].items()):
        cp, clo, chi = wilson(made, played)
        ci = f"[{100 * clo:5.1f}, {100 * chi:5.1f}]"
        print(f"{'':9s}   contracts by {lv:6s}: {made}/{played} made = {100 * cp:5.1f}% {ci}")
    for lv, (med, p95, mx) in sorted(res["times"].items()):
        ms = f"median {med * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms  max {mx * 1000:6.1f} ms"
        print(f"{'':9s}   decision time {lv:6s}: {ms}")
    sys.stdout.flush()


def compare(game_id: str, a: str, b: str, new: dict[str, Any], old: dict[str, Any]) -> None:
    """This version's results against the other checkout's on the same deals."""
    diffs = [x - y for x, y in zip(new["per_deal"], old["per_deal"], strict=True)]
    m, h = mean_ci(diffs)
    alike = sum(x == y for x, y in zip(new["digests"], old["digests"], strict=True))
    print(f"{'':9s}   this version minus the other: {m:+.2f} ± {h:.2f} per deal (A's paired diff, 95% CI)")
    print(f"{'':9s}   deals played move for move alike: {alike} of {len(diffs)}")
    for lv in sorted(set(new["times"]) | set(old["times"])):
        parts = []
        for name, res in (("this", new), ("other", old)):
            if lv in res["times"]:
                med, p95, mx = res["times"][lv]
                parts.append(f"{name} {med * 1000:6.1f} / {p95 * 1000:6.1f} / {mx * 1000:6.1f}")
        print(f"{'':9s}   decision time {lv:6s} (median / p95 / max ms): {'   '.join(parts)}")
    sys.stdout.flush()


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":
        # Some heuristics break ties by iterating a set of card strings, whose order depends on the per-process
        # string hash seed: fix it so that a run is exactly reproducible.
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=list(SEATS))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument(
        "--matchups",
        nargs="*",
        default=["strong:random", "strong:easy", "strong:normal", "normal:random", "normal:easy", "easy:random"],
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--first-deal", type=int, default=0, help="index of the first deal (extend an earlier run with new deals)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (each deal is one task)")
    parser.add_argument("--wizard-rounds", default="all", help="Wizard `rounds` option (default: whole games)")
    parser.add_argument("--compare-with", metavar="PATH", help="another checkout to play the same deals with")
    parser.add_argument("--bot-root", help=argparse.SUPPRESS)
    parser.add_argument("--json-out", help=argparse.SUPPRESS)
    parser.add_argument(
        "--budget",
        nargs="*",
        default=[],
        metavar="GAME.FIELD=VALUE",
        help="override a strong budget, e.g. mediatore.play=100 mighty.declare_kinds=discard,call",
    )
    args = parser.parse_args()
    for item in args.budget:
        name, _, value = item.partition("=")
        game_id, _, fld = name.partition(".")
        old = registry.search(game_id).budget
        typ = type(getattr(old, fld))
        val: Any
        if typ is bool:
            val = value.lower() in ("1", "true", "yes")
        elif typ is tuple:
            val = tuple(x for x in value.split(",") if x)  # e.g. mighty.declare_kinds=discard,call
        else:
            val = typ(value)
        registry.search(game_id).budget = dataclasses.replace(old, **{fld: val})
    print("strong budgets:", {g: dataclasses.asdict(registry.search(g).budget) for g in args.games})
    other: subprocess.Popen[bytes] | None = None
    other_out = ""
    if args.compare_with:
        # the same command with the other checkout's bot package, run alongside
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
            other_out = f.name
        argv = list(sys.argv[1:])
        i = argv.index("--compare-with")
        del argv[i : i + 2]
        cmd = [sys.executable, __file__, *argv, "--bot-root", args.compare_with, "--json-out", other_out]
        other = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    collected: dict[str, dict[str, Any]] = {}
    for game_id in args.games:
        for mu in args.matchups:
            a, _, b = mu.partition(":")
            t0 = time.perf_counter()
            res = run(game_id, a, b, args.deals, args.seed, args.jobs, args.wizard_rounds, args.first_deal)
            collected[f"{game_id} {mu}"] = res
            if not args.json_out:
                report(game_id, a, b, res)
                print(f"{'':9s}   ({time.perf_counter() - t0:.0f} s)")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(collected))
    if other is not None:
        if other.wait() != 0:
            raise SystemExit(f"the run with {args.compare_with} failed")
        theirs = json.loads(Path(other_out).read_text())
        Path(other_out).unlink()
        print(f"\n-- the same deals with {args.compare_with} --")
        for key, res in collected.items():
            game_id, mu = key.split(" ")
            a, _, b = mu.partition(":")
            report(game_id, a, b, theirs[key])
            compare(game_id, a, b, res, theirs[key])


if __name__ == "__main__":
    main()

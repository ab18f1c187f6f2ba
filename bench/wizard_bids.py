"""Screen Wizard bidders against a table of played-out bids (a benchmark script, not a test).

A bid's worth cannot be read from one played round: the luck of the cards is far larger than the difference
between two bidders. This script separates the two. ``build`` plays positions (a hand size, a seeded deal,
one of the 4 seat rotations of ``bench/ai_ladder.py``; agent A in one seat, three B seats) up to A's bid, then
plays the round to its end once for **every** bid within ``--spread`` of the ``normal`` heuristic's bid, A
playing its cards as the ``--player`` level; it stores what each bid scored. ``screen`` then asks a bidder for
its bid in every stored position (rebuilt by replaying the same seeded moves) and reads its result from the
table, so bidders are compared on the same positions and the same card play (paired: two bidders differ only
where their bids differ), at the cost of the bid decisions alone. It also prints the best bid in hindsight
(an upper bound no bidder reaches: it knows how the cards fell).

Usage:
    python bench/wizard_bids.py build --out bids.json [--deals 4] [--sizes 1-15] [--seed 1] [--spread 2]
        [--player strong] [--opponents normal] [--jobs 2]
    python bench/wizard_bids.py screen --table bids.json [--bidder strong] [--against strong]
        [--variant MODULE:FUNCTION] [--jobs 2]

``--variant`` names a function returning an agent (for bidders not yet in the registry, e.g. a scratch module on
``PYTHONPATH``); its bids are compared with those of ``--against``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))
sys.path.insert(0, str(Path(__file__).parent))

from ai_ladder import agent, mean_ci, rotations, wilson
from wizard_rounds import parse_sizes

from bot.ai.base import Agent
from bot.engine.rng import derive_seed
from bot.games.wizard.engine import WizardGame

N = 4


def _rng(seed: int, size: int, deal: int, rot: int, step: int) -> random.Random:
    return random.Random(derive_seed(seed, "wizard-bids", size, deal, rot, step))


def _to_bid(size: int, deal: int, rot: int, seed: int, agents: list[Agent]) -> tuple[WizardGame, int, int]:
    """The round played by ``agents`` up to A's bid: (the game, A's seat, the step number)."""
    a = rotations("wizard")[rot][0]
    game = WizardGame(N, {"rounds": str(size)}, derive_seed(seed, "wizard-bids", size, deal))
    step = 0
    while True:
        seat = game.to_move()[0]
        actions = game.legal_actions(seat)
        if seat == a and actions[0]["type"] == "bid":
            return game, a, step
        game.apply(seat, agents[seat].choose(game.clone(), seat, _rng(seed, size, deal, rot, step)))
        step += 1


def _finish(game: WizardGame, a: int, step: int, key: tuple[int, int, int, int], agents: list[Agent]) -> int:
    """Plays the round to its end; A's tricks."""
    seed, size, deal, rot = key
    while not game.is_over:
        seat = game.to_move()[0]
        game.apply(seat, agents[seat].choose(game.clone(), seat, _rng(seed, size, deal, rot, step)))
        step += 1
    return int(game.settlements()[0].summary["tricks"][0][a])


def build_position(size: int, deal: int, rot: int, seed: int, spread: int, player: str, opponents: str) -> dict:
    a = rotations("wizard")[rot][0]
    agents = [agent("wizard", player if s == a else opponents) for s in range(N)]
    game, a, step = _to_bid(size, deal, rot, seed, agents)
    rng = _rng(seed, size, deal, rot, step)
    base = int(agent("wizard", "normal").choose(game.clone(), a, rng)["n"])
    legal = sorted(int(x["n"]) for x in game.legal_actions(a) if x["type"] == "bid")
    tricks: dict[str, int] = {}
    for b in legal:
        if abs(b - base) <= spread:
            g = game.clone()
            g.apply(a, next(x for x in g.legal_actions(a) if x["type"] == "bid" and x["n"] == b))
            tricks[str(b)] = _finish(g, a, step + 1, (seed, size, deal, rot), agents)
    return {"size": size, "deal": deal, "rot": rot, "seed": seed, "base": base, "tricks": tricks}


def _points(bid: int, tricks: int) -> int:
    return 20 + 10 * bid if bid == tricks else -10 * abs(bid - tricks)


def _make(name: str) -> Agent:
    if ":" in name:
        module, _, func = name.partition(":")
        return getattr(importlib.import_module(module), func)()
    return agent("wizard", name)


def screen_position(pos: dict, bidders: list[str], opponents: str) -> list[int]:
    """Each bidder's bid in the stored position."""
    size, deal, rot, seed = pos["size"], pos["deal"], pos["rot"], pos["seed"]
    a = rotations("wizard")[rot][0]
    # the moves before A's bid are the B seats' (and A's trump choice as dealer, made by the building player):
    # replay them with the table's own agents so the position is the stored one
    agents = [agent("wizard", pos.get("player", "strong") if s == a else opponents) for s in range(N)]
    game, a, step = _to_bid(size, deal, rot, seed, agents)
    out = []
    for name in bidders:
        bidder = _make(name)
        out.append(int(bidder.choose(game.clone(), a, _rng(seed, size, deal, rot, step))["n"]))
    return out


def build(args: argparse.Namespace) -> None:
    sizes = parse_sizes(args.sizes)
    tasks = [
        (size, d, rot, args.seed, args.spread, args.player, args.opponents)
        for size in sizes
        for d in range(args.deals)
        for rot in range(N)
    ]
    # the largest rounds first, so the pool ends with short tasks
    tasks.sort(key=lambda t: -t[0])
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(build_position, *zip(*tasks, strict=True)))
    for r in rows:
        r["player"], r["opponents"] = args.player, args.opponents
    rows.sort(key=lambda r: (r["size"], r["deal"], r["rot"]))
    Path(args.out).write_text(json.dumps(rows))
    hindsight = sum(any(int(b) == t for b, t in r["tricks"].items()) for r in rows)
    print(f"{len(rows)} positions; best bid in hindsight hits {100 * hindsight / len(rows):.1f}%")


def screen(args: argparse.Namespace) -> None:
    rows = json.loads(Path(args.table).read_text())
    opponents = rows[0]["opponents"]
    bidders = [args.against, args.variant or args.bidder]
    with ProcessPoolExecutor(args.jobs) as pool:
        bids = list(pool.map(screen_position, rows, [bidders] * len(rows), [opponents] * len(rows)))
    print(f"{len(rows)} positions (table {args.table}: {rows[0]['player']} plays A's cards, 3 {opponents})")
    print(f"{'':>10s} {'hits [95% CI]':>24s} {'points/round':>14s} {'off table':>9s}")

    def hit(i: int, k: int) -> bool:
        return bids[i][k] == rows[i]["tricks"].get(str(bids[i][k]))

    scores: list[list[float]] = []  # per bidder, per position: points (nan: the bid is not in the table)
    for k, name in enumerate(bidders):
        pts = [
            _points(bs[k], r["tricks"][str(bs[k])]) if str(bs[k]) in r["tricks"] else float("nan")
            for r, bs in zip(rows, bids, strict=True)
        ]
        scores.append(pts)
        off = sum(x != x for x in pts)
        p, lo, hi = wilson(sum(hit(i, k) for i in range(len(rows))), len(rows) - off)
        m = statistics.fmean(x for x in pts if x == x)
        print(f"{name[-10:]:>10s}   {100 * p:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]   {m:+8.2f}   {off:9d}")
    differ = [i for i, bs in enumerate(bids) if bs[0] != bs[1]]
    m, h = mean_ci([d for d in (b - a for a, b in zip(*scores, strict=True)) if d == d])
    gained = sum(hit(i, 1) - hit(i, 0) for i in differ)
    print(f"bids differ in {len(differ)} positions; hits gained there {gained:+d}; paired points {m:+.2f} ± {h:.2f}")
    sizes = sorted({r["size"] for r in rows})
    line = []
    for s in sizes:
        idx = [i for i, r in enumerate(rows) if r["size"] == s]
        line.append(f"{s}:{sum(hit(i, 0) for i in idx)}/{sum(hit(i, 1) for i in idx)}")
    print("hits per size (against/bidder of", len(rows) // len(sizes), "):", " ".join(line))


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":
        # as in ai_ladder.py: heuristic tie-breaks iterate sets of strings; fix the hash seed for reproducibility
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", required=True)
    b.add_argument("--deals", type=int, default=4)
    b.add_argument("--sizes", default="1-15")
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--spread", type=int, default=2)
    b.add_argument("--player", default="strong")
    b.add_argument("--opponents", default="normal")
    b.add_argument("--jobs", type=int, default=2)
    s = sub.add_parser("screen")
    s.add_argument("--table", required=True)
    s.add_argument("--bidder", default="strong")
    s.add_argument("--against", default="strong")
    s.add_argument("--variant", default="")
    s.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    build(args) if args.cmd == "build" else screen(args)


if __name__ == "__main__":
    main()

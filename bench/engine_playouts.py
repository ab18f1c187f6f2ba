"""Random-playout speed of every engine: complete games (Wizard) or hands (the others) per second.

Usage: python bench/engine_playouts.py [--seconds 3]
Prints, per game, the median of 5 timed batches and the cost of the operations a search AI leans on.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.protocol import Game
from bot.games.registry import game_class

SETUPS = {
    # game id: (seats, options, what one unit is)
    "wizard": (4, {}, "full games (15 rounds)"),
    "mediatore": (4, {"hands": 1}, "hands"),
    "mighty": (5, {"hands": 1}, "hands"),
    "minchiate": (4, {"deals_per_game": 1}, "deals"),
}


def playout(cls: type[Game], seats: int, options: dict[str, object], seed: int) -> int:
    rng = random.Random(seed)
    game = cls(seats, options, seed)  # type: ignore[call-arg]
    actions = 0
    while not game.is_over:
        seat = game.to_move()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        actions += 1
    return actions


def bench(game_id: str, seconds: float) -> None:
    seats, options, unit = SETUPS[game_id]
    cls = game_class(game_id)
    rates, action_rates = [], []
    seed = 0
    for _ in range(5):
        start = time.perf_counter()
        n = acts = 0
        while time.perf_counter() - start < seconds / 5:
            acts += playout(cls, seats, options, seed)
            seed += 1
            n += 1
        dt = time.perf_counter() - start
        rates.append(n / dt)
        action_rates.append(acts / dt)
    # clone / determinize cost on a mid-game state
    game = cls(seats, options, 12345)  # type: ignore[call-arg]
    rng = random.Random(1)
    for _ in range(20):
        if game.is_over:
            break
        s = game.to_move()[0]
        game.apply(s, rng.choice(game.legal_actions(s)))
    viewer = game.to_move()[0] if game.to_move() else 0
    t0 = time.perf_counter()
    for _ in range(2000):
        game.clone()
    clone_us = (time.perf_counter() - t0) / 2000 * 1e6
    t0 = time.perf_counter()
    for _ in range(500):
        game.determinize(viewer, rng)
    det_us = (time.perf_counter() - t0) / 500 * 1e6
    print(
        f"{game_id:10s} {statistics.median(rates):9.1f} {unit}/s   "
        f"{statistics.median(action_rates):9.0f} actions/s   clone {clone_us:6.1f} µs   determinize {det_us:7.1f} µs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    parser.add_argument("games", nargs="*", default=list(SETUPS))
    args = parser.parse_args()
    for game_id in args.games:
        try:
            bench(game_id, args.seconds)
        except ImportError as e:
            print(f"{game_id:10s} not available ({e})")


if __name__ == "__main__":
    main()

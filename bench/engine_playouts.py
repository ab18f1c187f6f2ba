"""Random-playout speed of every engine: complete games (Wizard) or hands (the others) per second.

Usage: python bench/engine_playouts.py [--seconds 3] [--runs 5] [games...]

Per game it prints the median (and range) over ``--runs`` timed batches of:

* ``display``: random playouts through the display interface (``legal_actions`` / ``apply``, dict actions, events);
* ``lean``: the same playouts through the simulation interface (``sim_legal`` / ``sim_apply`` on a search clone);
* ``baseline``: a minimal hand-written trick loop with the same seats and cards per trick and per hand (deal,
  random card following suit, highest of the led suit or trump wins; ints, no engine, no dicts);
* ``ratio``: time per card played of the baseline over that of the lean playout (1.0 = as fast as the bare loop;
  a playout includes the deal and the declarations, which the baseline does not have).

and the cost of the operations a search AI leans on (clone, determinize).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
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


def display_playout(cls: type[Game], seats: int, options: dict[str, object], seed: int) -> int:
    """One random game through the display interface; returns the number of cards played."""
    rng = random.Random(seed)
    game = cls(seats, options, seed)  # type: ignore[call-arg]
    cards = 0
    while not game.is_over:
        seat = game.to_move()[0]
        cards += game.phase == "play"  # type: ignore[attr-defined]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return cards


def lean_playout(cls: type[Game], seats: int, options: dict[str, object], seed: int) -> int:
    """The same through the simulation interface on a search clone (no display events)."""
    rng = random.Random(seed)
    game = cls(seats, options, seed)  # type: ignore[call-arg]
    if not hasattr(game, "sim_apply"):  # an engine without it (e.g. an older checkout): the display interface
        return display_playout(cls, seats, options, seed)
    game = game.clone(for_search=True)
    legal, play = game.sim_legal, game.sim_apply
    cards = 0
    while not game.is_over:
        seat = game.to_move()[0]
        cards += game.phase == "play"  # type: ignore[attr-defined]
        play(seat, rng.choice(legal(seat)))
    return cards


def baseline_playout(seats: int, deck_size: int, tricks: list[int], rng: random.Random) -> int:
    """A bare trick loop: cards are ints (suit = c % 4, rank = c // 4), suit 0 is trump."""
    cards = 0
    for n in tricks:  # one deal per hand size (Wizard rounds; one hand elsewhere)
        deck = list(range(deck_size))
        rng.shuffle(deck)
        hands = [deck[i * n : (i + 1) * n] for i in range(seats)]
        leader = 0
        for _ in range(n):
            led = -1
            best = -1
            win = leader
            for i in range(seats):
                s = (leader + i) % seats
                hand = hands[s]
                if led < 0:
                    c = hand[int(rng.random() * len(hand))]
                    led = c % 4
                else:
                    follow = [x for x in hand if x % 4 == led]
                    pool = follow or hand
                    c = pool[int(rng.random() * len(pool))]
                hand.remove(c)
                suit = c % 4
                key = 100 + c // 4 if suit == 0 else c // 4 if suit == led else -1
                if key > best:
                    best, win = key, s
            leader = win
            cards += seats
    return cards


def timed(fn: Callable[[int], int], seconds: float, runs: int) -> list[float]:
    """Seconds per card of ``fn(seed) -> cards``, one value per run of ``seconds / runs``."""
    out = []
    seed = 0
    for _ in range(runs):
        start = time.perf_counter()
        cards = 0
        while time.perf_counter() - start < seconds / runs:
            cards += fn(seed)
            seed += 1
        out.append((time.perf_counter() - start) / max(1, cards))
    return out


def _fmt(xs: list[float], scale: float = 1e6, unit: str = "µs") -> str:
    return f"{statistics.median(xs) * scale:6.2f} {unit} [{min(xs) * scale:.2f}, {max(xs) * scale:.2f}]"


def bench(game_id: str, seconds: float, runs: int) -> None:
    seats, options, unit = SETUPS[game_id]
    cls = game_class(game_id)
    # the shape of the baseline: cards per trick (seats) and tricks per hand, taken from one engine playout
    probe = cls(seats, options, 7)  # type: ignore[call-arg]
    deck_size = {"wizard": 60, "mediatore": 40, "mighty": 53, "minchiate": 97}[game_id]
    if game_id == "wizard":
        tricks = list(probe.hand_sizes)  # type: ignore[attr-defined]
    else:
        tricks = [display_playout(cls, seats, options, 7) // seats]
    brng = random.Random(0)
    # interleaved runs, so that a noisy neighbour slows all three alike
    disp: list[float] = []
    lean: list[float] = []
    base: list[float] = []
    for _ in range(runs):
        disp += timed(lambda s: display_playout(cls, seats, options, s), seconds / 3, 1)
        lean += timed(lambda s: lean_playout(cls, seats, options, s), seconds / 3, 1)
        base += timed(lambda s: baseline_playout(seats, deck_size, tricks, brng), seconds / 3, 1)
    ratios = sorted(b / x for b, x in zip(base, lean, strict=True))
    dratios = sorted(b / x for b, x in zip(base, disp, strict=True))
    cards_per_unit = sum(tricks) * seats
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
    print(f"{game_id:10s} per card: display {_fmt(disp)}  lean {_fmt(lean)}  baseline {_fmt(base)}")
    print(
        f"{'':10s} ratio baseline/lean {statistics.median(ratios):.3f} [{ratios[0]:.3f}, {ratios[-1]:.3f}]"
        f"  (display {statistics.median(dratios):.3f} [{dratios[0]:.3f}, {dratios[-1]:.3f}])  runs={runs}"
    )
    print(
        f"{'':10s} {1 / statistics.median(lean) / cards_per_unit:8.1f} {unit}/s lean, "
        f"{1 / statistics.median(disp) / cards_per_unit:8.1f} display   "
        f"clone {clone_us:6.1f} µs   determinize {det_us:7.1f} µs"
    )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=6.0, help="time per game (default 6)")
    parser.add_argument("--runs", type=int, default=5, help="timed batches per measurement (default 5)")
    parser.add_argument("games", nargs="*", default=list(SETUPS))
    args = parser.parse_args()
    for game_id in args.games:
        try:
            bench(game_id, args.seconds, args.runs)
        except ImportError as e:
            print(f"{game_id:10s} not available ({e})")


if __name__ == "__main__":
    main()

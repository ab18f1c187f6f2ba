"""Random-playout speed of every engine: complete games (Wizard) or hands (the others) per second.

Usage: python bench/engine_playouts.py [--seconds 6] [--runs 5] [--cpu] [games...]

Per game it prints the median (and range) over ``--runs`` timed batches of:

* ``lean``: random card play of a hand (from its first card to its end, on a clone, as a search's playout does)
  through the simulation interface (``clone(for_search=True)``, ``sim_legal`` / ``sim_apply``);
* ``display``: the same through the display interface (``clone()``, ``legal_actions`` / ``apply``);
* ``baseline``: a minimal hand-written trick loop with the same seats and tricks (deal, a random card following
  suit, highest of the led suit or trump wins; ints, no engine, no dicts);
* ``ratio``: time per card of the baseline over that of the lean playout (1.0 = as fast as the bare loop);

the three are timed in turns (ten slices each per run), so that a neighbour's load weighs on them alike;

then whole random games through the display interface (declarations included) and the cost of clone and
determinize.
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


def play_starts(cls: type[Game], seats: int, options: dict[str, object], count: int) -> list[tuple[Game, int]]:
    """States at the first card of a hand (Wizard: of every round), reached by random declarations, with the
    number of tricks of that hand."""
    out: list[tuple[Game, int]] = []
    for seed in range(count):
        rng = random.Random(seed)
        game = cls(seats, options, seed)  # type: ignore[call-arg]
        while not game.is_over:
            seat = game.to_move()[0]
            if game.phase == "play":  # type: ignore[attr-defined]
                out.append((game.clone(), len(game.view(seat)["hand"])))
                while game.phase == "play":  # type: ignore[attr-defined]  # (a finished game is not in play)
                    seat = game.to_move()[0]
                    game.apply(seat, rng.choice(game.legal_actions(seat)))
                continue
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    return out


def display_cards(start: Game, rng: random.Random) -> int:
    """The card play of one hand from ``start`` by random legal moves, through the display interface."""
    game = start.clone()
    cards = 0
    while game.phase == "play":  # type: ignore[attr-defined]  # (a finished game is not in play)
        seat = game.to_move()[0]
        acts = game.legal_actions(seat)
        game.apply(seat, acts[int(rng.random() * len(acts))])
        cards += 1
    return cards


def lean_cards(start: Game, rng: random.Random) -> int:
    """The same through the simulation interface, on a search clone (what a search's playout does)."""
    if not hasattr(start, "sim_apply"):  # an engine without it (e.g. an older checkout): the display interface
        return display_cards(start, rng)
    game = start.clone(for_search=True)
    legal, play = game.sim_legal, game.sim_apply
    cards = 0
    while game.phase == "play":  # type: ignore[attr-defined]  # (a finished game is not in play)
        seat = game.to_move()[0]
        moves = legal(seat)
        play(seat, moves[int(rng.random() * len(moves))])  # drawn as the baseline draws
        cards += 1
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


#: the clock of the measurements (``--cpu``: the process's CPU time, which a busy neighbour does not inflate)
clock: Callable[[], float] = time.perf_counter


def timed(fn: Callable[[int], int], seconds: float, runs: int) -> list[float]:
    """Seconds per card of ``fn(seed) -> cards``, one value per run of ``seconds / runs``."""
    out = []
    seed = 0
    for _ in range(runs):
        start = clock()
        cards = 0
        while clock() - start < seconds / runs:
            cards += fn(seed)
            seed += 1
        out.append((clock() - start) / max(1, cards))
    return out


def interleaved(fns: list[Callable[[int], int]], seconds: float, slices: int) -> list[float]:
    """Seconds per card of each ``fn(i) -> cards`` over ``seconds`` each, taken in ``slices`` turns in rotation, so
    that a neighbour's load that comes and goes weighs on all of them alike (the ratios of one run stay fair)."""
    spent = [0.0] * len(fns)
    cards = [0] * len(fns)
    seeds = [0] * len(fns)
    for _ in range(slices):
        for j, fn in enumerate(fns):
            start = clock()
            while clock() - start < seconds / slices:
                cards[j] += fn(seeds[j])
                seeds[j] += 1
            spent[j] += clock() - start
    return [t / max(1, n) for t, n in zip(spent, cards, strict=True)]


def _fmt(xs: list[float], scale: float = 1e6, unit: str = "µs") -> str:
    return f"{statistics.median(xs) * scale:6.2f} {unit} [{min(xs) * scale:.2f}, {max(xs) * scale:.2f}]"


def bench(game_id: str, seconds: float, runs: int) -> None:
    seats, options, unit = SETUPS[game_id]
    cls = game_class(game_id)
    deck_size = {"wizard": 60, "mediatore": 40, "mighty": 53, "minchiate": 97}[game_id]
    starts = play_starts(cls, seats, options, 40 if game_id != "wizard" else 4)
    rng = random.Random(0)
    k = len(starts)
    # interleaved runs, so that a noisy neighbour slows all of them alike
    disp: list[float] = []
    lean: list[float] = []
    base: list[float] = []
    whole: list[float] = []
    for _ in range(runs):
        d, le, b = interleaved(
            [
                lambda i: display_cards(starts[i % k][0], rng),
                lambda i: lean_cards(starts[i % k][0], rng),
                lambda i: baseline_playout(seats, deck_size, [starts[i % k][1]], rng),
            ],
            seconds / 4,
            10,
        )
        disp.append(d)
        lean.append(le)
        base.append(b)
        whole += timed(lambda i: display_playout(cls, seats, options, i), seconds / 4, 1)
    ratios = sorted(b / x for b, x in zip(base, lean, strict=True))
    dratios = sorted(b / x for b, x in zip(base, disp, strict=True))
    cards_per_unit = sum(len(st.view(st.to_move()[0])["hand"]) for st, _ in starts[:15]) * seats
    cards_per_unit //= min(15, k) if game_id != "wizard" else 1
    # clone / determinize cost on a mid-game state
    game = cls(seats, options, 12345)  # type: ignore[call-arg]
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
    print(f"{game_id:10s} card play, per card: lean {_fmt(lean)}  display {_fmt(disp)}  baseline {_fmt(base)}")
    print(
        f"{'':10s} ratio baseline/lean {statistics.median(ratios):.3f} [{ratios[0]:.3f}, {ratios[-1]:.3f}]"
        f"  (baseline/display {statistics.median(dratios):.3f} [{dratios[0]:.3f}, {dratios[-1]:.3f}])  runs={runs}"
    )
    print(
        f"{'':10s} whole random {unit} (display interface, declarations included): "
        f"{1 / statistics.median(whole) / cards_per_unit:7.1f}/s  "
        f"clone {clone_us:5.1f} µs  determinize {det_us:6.1f} µs"
    )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=6.0, help="time per game (default 6)")
    parser.add_argument("--runs", type=int, default=5, help="timed batches per measurement (default 5)")
    parser.add_argument("--cpu", action="store_true", help="time with the process's CPU time (a shared machine)")
    parser.add_argument("games", nargs="*", default=list(SETUPS))
    args = parser.parse_args()
    if args.cpu:
        global clock
        clock = time.process_time
    for game_id in args.games:
        try:
            bench(game_id, args.seconds, args.runs)
        except ImportError as e:
            print(f"{game_id:10s} not available ({e})")


if __name__ == "__main__":
    main()

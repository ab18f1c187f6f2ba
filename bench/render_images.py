"""Benchmark of the card pictures: start-up cost, then median render times and PNG sizes per deck.

Targets (one core): a 13-card hand <= 15 ms, a 5-seat table with a full trick <= 30 ms, every PNG <= 150 KB.
Renders bypass the content cache (``cache=None``), so every call really draws and encodes; the process is
pinned to one core (where the OS allows it).

    .venv/bin/python bench/render_images.py [--runs 50]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from bot.images import SeatInfo, prepare, render_hand, render_table
from bot.images.hand import group_by_suit
from bot.images.sprites import DECKS

HAND_SIZES = {"french": 13, "wizard60": 13, "italian": 10, "minchiate97": 21}


def _median_ms(fn: Callable[[], bytes], runs: int) -> tuple[float, int]:
    size = len(fn())  # warm-up (and the size)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50, help="renders per measurement")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    t = time.perf_counter()
    prepare()
    print(f"prepare (all decks, all sizes, palettes): {time.perf_counter() - t:.2f} s")
    rng = random.Random(1)
    names = ["Alessandra", "Bartholomew the Long-Named", "Chen", "Dário", "Eun-ji"]
    print(f"{'deck':<10} {'hand':>5} {'hand ms':>8} {'hand KB':>8} {'legal ms':>9} {'table ms':>9} {'table KB':>9}")
    for deck, cards in DECKS.items():
        deck_cards = list(cards)
        rng.shuffle(deck_cards)
        n = HAND_SIZES[deck]
        hand = [c for c in cards if c in set(deck_cards[:n])]  # in deck order, as engines sort hands
        legal = set(group_by_suit(deck, hand)[0])
        h_ms, h_size = _median_ms(lambda hand=hand, deck=deck: render_hand(deck, hand, cache=None), args.runs)
        l_ms, _ = _median_ms(
            lambda hand=hand, deck=deck, legal=legal: render_hand(deck, hand, legal, cache=None), args.runs
        )
        seats = [SeatInfo(nm, f"{i} / {i + 1}", active=i == 2, team=i % 2) for i, nm in enumerate(names)]
        trick = [(i, deck_cards[n + i]) for i in range(5)]
        last = [(i, deck_cards[n + 5 + i]) for i in range(5)]

        def table(deck: str = deck, seats: list[SeatInfo] = seats, trick=trick, last=last) -> bytes:
            return render_table(deck, seats, trick, last, centre_text="7♠", trick_winner=3, last_winner=1, cache=None)

        t_ms, t_size = _median_ms(table, args.runs)
        print(f"{deck:<10} {n:>5} {h_ms:>8.1f} {h_size / 1024:>8.1f} {l_ms:>9.1f} {t_ms:>9.1f} {t_size / 1024:>9.1f}")


if __name__ == "__main__":
    main()

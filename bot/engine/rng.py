"""Seeded, replayable randomness.

Every random decision of an engine comes from a ``random.Random`` built here from the table seed and a
label (e.g. the hand number), so a hand's deal never depends on how much randomness earlier hands used.
That makes ``options + seed + action log`` an exact recipe for a game.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, *labels: object) -> int:
    """A 64-bit seed derived from ``seed`` and ``labels`` (stable across runs and Python versions)."""
    text = ":".join([str(seed), *map(str, labels)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def make_rng(seed: int, *labels: object) -> random.Random:
    """A ``random.Random`` seeded from ``seed`` and ``labels``."""
    return random.Random(derive_seed(seed, *labels))


def shuffled(cards: tuple[str, ...] | list[str], rng: random.Random) -> list[str]:
    """A shuffled copy of ``cards``."""
    out = list(cards)
    rng.shuffle(out)
    return out

"""Seats and direction of play.

Every engine numbers seats ``0..n-1`` *in playing order*, so the next player is always ``(s + 1) % n``.
``Direction`` only tells renderers which neighbour that is at a real table: Mighty and Wizard go
clockwise (next = left), Mediatore and Minchiate anticlockwise (next = right).
"""

from __future__ import annotations

from enum import StrEnum


class Direction(StrEnum):
    CLOCKWISE = "clockwise"
    ANTICLOCKWISE = "anticlockwise"

    @property
    def next_side(self) -> str:
        """Which neighbour plays next, as a player sitting at the table sees it."""
        return "left" if self is Direction.CLOCKWISE else "right"


def next_seat(seat: int, n: int, steps: int = 1) -> int:
    return (seat + steps) % n


def seats_from(first: int, n: int) -> list[int]:
    """All seats in playing order starting with ``first``."""
    return [(first + i) % n for i in range(n)]

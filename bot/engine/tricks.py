"""Trick bookkeeping shared by the engines (rules about *who wins* stay in each game)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Trick:
    """One trick: who led it and the ``(seat, card)`` plays in order."""

    leader: int
    plays: list[tuple[int, str]] = field(default_factory=list)
    winner: int | None = None

    @property
    def cards(self) -> list[str]:
        return [c for _, c in self.plays]

    def next_seat(self, n: int) -> int:
        return (self.leader + len(self.plays)) % n

    def is_complete(self, n: int) -> bool:
        return len(self.plays) == n

    def card_of(self, seat: int) -> str | None:
        for s, c in self.plays:
            if s == seat:
                return c
        return None

    def copy(self) -> Trick:
        return Trick(self.leader, list(self.plays), self.winner)

    def to_json(self) -> dict[str, object]:
        return {"leader": self.leader, "plays": [[s, c] for s, c in self.plays], "winner": self.winner}

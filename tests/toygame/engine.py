"""Toy: 2-3 players, a 12-card deck (ranks 1-6 in suits R and B), three cards each, follow suit, the highest
card of the led suit wins, the winner leads. One hand; each trick is a point."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Self

from bot.engine.errors import IllegalAction
from bot.engine.protocol import Action, Game, GameResult, OptionSpec, Settlement, View
from bot.engine.rng import make_rng
from bot.engine.seats import Direction

DECK = tuple(f"{r}{s}" for s in "RB" for r in "123456")
HAND = 3


class ToyGame(Game):
    game_id: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 3
    direction: ClassVar[Direction] = Direction.CLOCKWISE
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("bonus", 0, lo=0, hi=5, help="Points for the last trick (default 0)"),
    )

    def __init__(self, num_seats: int, options: dict[str, Any] | None, seed: int) -> None:
        self.options = self.normalize_options(options, num_seats)
        self._n = num_seats
        deck = list(DECK)
        make_rng(seed, "deal").shuffle(deck)
        self._hands = [sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(num_seats)]
        self._trick: list[tuple[int, str]] = []
        self._leader = 0
        self._points = [0] * num_seats
        self._played: list[str] = []
        self._settled: list[Settlement] = []

    @property
    def num_seats(self) -> int:
        return self._n

    @property
    def hand_number(self) -> int:
        return 0

    @property
    def is_over(self) -> bool:
        return bool(self._settled)

    def to_move(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        return ((self._leader + len(self._trick)) % self._n,)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move():
            return []
        hand = self._hands[seat]
        if self._trick:
            led = self._trick[0][1][-1]
            follow = [c for c in hand if c[-1] == led]
            hand = follow or hand
        return [{"type": "play", "card": c} for c in hand]

    def apply(self, seat: int, action: Action) -> None:
        if action not in self.legal_actions(seat):
            raise IllegalAction("not_now")
        card = action["card"]
        self._hands[seat].remove(card)
        self._played.append(card)
        self._trick.append((seat, card))
        if len(self._trick) < self._n:
            return
        led = self._trick[0][1][-1]
        winner = max((p for p in self._trick if p[1][-1] == led), key=lambda p: int(p[1][0]))[0]
        self._points[winner] += 1
        self._trick = []
        self._leader = winner
        if not any(self._hands):
            self._points[winner] += self.options["bonus"]
            ranks = GameResult.from_totals("point", self._points).ranks
            self._settled.append(
                Settlement(0, {"point": tuple(self._points)}, {"tricks": list(self._points), "ranks": list(ranks)})
            )

    def public_view(self) -> View:
        return {
            "to_move": list(self.to_move()),
            "trick": [list(p) for p in self._trick],
            "points": list(self._points),
            "played": list(self._played),
            "over": self.is_over,
        }

    def view(self, seat: int) -> View:
        return {**self.public_view(), "seat": seat, "hand": list(self._hands[seat]), "legal": self.legal_actions(seat)}

    def settlements(self) -> list[Settlement]:
        return list(self._settled)

    def result(self) -> GameResult | None:
        return GameResult.from_totals("point", self._points) if self.is_over else None

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__ = {k: (list(v) if isinstance(v, list) else v) for k, v in self.__dict__.items()}
        other._hands = [list(h) for h in self._hands]
        return other

    def determinize(self, seat: int, rng: random.Random) -> Self:
        other = self.clone()
        pool = [c for s in range(self._n) if s != seat for c in other._hands[s]]
        rng.shuffle(pool)
        for s in range(self._n):
            if s != seat:
                k = len(other._hands[s])
                other._hands[s], pool = sorted(pool[:k]), pool[k:]
        return other

"""ISMCTS on a tiny game where the answer is known, and the strong agents' contract: legal, deterministic."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar, Self

import pytest

from bot.ai.ismcts import SearchSpec, ismcts
from bot.ai.strong import StrongAgent
from bot.engine.protocol import Action, Game, GameResult, Settlement, View
from bot.engine.seats import Direction
from bot.games.registry import game_class, make_agent, search

# seat 0 picks a row, seat 1 (who sees the row) picks a column; seat 0 wins PAYOFF[row][col], seat 1 loses it.
# Row 1 has the best average but seat 1 can punish it; row 2 is the best against a sensible opponent.
PAYOFF = [[1, 1], [6, -1], [2, 2]]


class RowColumn(Game):
    game_id: ClassVar[str] = "rowcol"
    title: ClassVar[str] = "Row / column"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    direction: ClassVar[Direction] = Direction.CLOCKWISE

    def __init__(self, num_seats: int = 2, options: Any = None, seed: int = 0) -> None:
        self.options: dict[str, Any] = {}
        self.row: int | None = None
        self.col: int | None = None
        self._settled: list[Settlement] = []

    @property
    def num_seats(self) -> int:
        return 2

    def to_move(self) -> tuple[int, ...]:
        return () if self.col is not None else (0,) if self.row is None else (1,)

    def legal_actions(self, seat: int) -> list[Action]:
        if self.to_move() != (seat,):
            return []
        return [{"type": "pick", "n": i} for i in range(3 if seat == 0 else 2)]

    def apply(self, seat: int, action: Action) -> None:
        if seat == 0:
            self.row = action["n"]
        else:
            self.col = action["n"]
            assert self.row is not None
            x = PAYOFF[self.row][self.col]
            self._settled.append(Settlement(0, {"stake": (x, -x)}))

    @property
    def is_over(self) -> bool:
        return self.col is not None

    def public_view(self) -> View:
        return {"row": self.row, "col": self.col}

    def view(self, seat: int) -> View:
        return self.public_view()

    def settlements(self) -> list[Settlement]:
        return list(self._settled)

    def result(self) -> GameResult | None:
        return None

    @property
    def hand_number(self) -> int:
        return 0

    def clone(self) -> Self:
        g = self.__class__()
        g.row, g.col, g._settled = self.row, self.col, list(self._settled)
        return g

    def determinize(self, seat: int, rng: random.Random) -> Self:
        return self.clone()


def _reward(root: Game, state: Game) -> list[float]:
    x = state.settlements()[0].amounts["stake"][0]
    return [(x + 2) / 8, (6 - x) / 8]


def test_ismcts_models_the_opponent() -> None:
    res = ismcts(RowColumn(), 0, random.Random(3), SearchSpec(reward=_reward), iterations=400)
    assert res.action == {"type": "pick", "n": 2}
    assert sum(v for v, _ in res.stats.values()) == 400


def test_ismcts_candidates_restrict_the_root() -> None:
    cands = [{"type": "pick", "n": 0}, {"type": "pick", "n": 1}]
    res = ismcts(RowColumn(), 0, random.Random(3), SearchSpec(reward=_reward), iterations=200, candidates=cands)
    assert res.action == {"type": "pick", "n": 0}  # 1 beats -1 once seat 1 punishes row 1


SETUPS: dict[str, tuple[int, dict[str, Any]]] = {
    "wizard": (4, {"rounds": "5"}),
    "mediatore": (4, {"hands": 1}),
    "mighty": (5, {"hands": 1}),
    "minchiate": (4, {}),
}


def _mid_hand(game_id: str, plays: int) -> tuple[Game, int]:
    """A game advanced by the normal agents until ``plays`` cards were played, and the seat to move."""
    n, opts = SETUPS[game_id]
    game = game_class(game_id)(n, opts, 11)  # type: ignore[call-arg]
    normal = make_agent(game_id, "normal")
    rng = random.Random(5)
    played = 0
    while True:
        seat = game.to_move()[0]
        acts = [a for a in game.legal_actions(seat) if a["type"] != "undo"]
        if acts[0]["type"] == "play":
            if played >= plays and len(acts) > 1:
                return game, seat
            played += 1
        game.apply(seat, normal.choose(game, seat, rng))


@pytest.mark.parametrize("game_id", list(SETUPS))
def test_strong_is_legal_and_deterministic(game_id: str) -> None:
    game, seat = _mid_hand(game_id, 3)
    agent = make_agent(game_id, "strong")
    assert agent.level == "strong"
    a1 = agent.choose(game.clone(), seat, random.Random(42))
    a2 = make_agent(game_id, "strong").choose(game.clone(), seat, random.Random(42))
    assert a1 == a2
    assert game.is_legal(seat, a1)


@pytest.mark.parametrize("game_id", list(SETUPS))
def test_normal_stays_the_default_level(game_id: str) -> None:
    game_class(game_id)
    assert make_agent(game_id).level == "normal"
    assert make_agent(game_id, "easy").level == "easy"


@pytest.mark.parametrize("game_id", list(SETUPS))
def test_ismcts_mode_on_every_game(game_id: str) -> None:
    """The tree search itself (the default for Wizard, an option for the others) on a real position."""
    game, seat = _mid_hand(game_id, 5)
    base: Any = make_agent(game_id, "normal")
    budget = replace(search(game_id).budget, play=40, play_mode="ismcts")
    action = StrongAgent(search(game_id), base, budget).choose(game.clone(), seat, random.Random(1))
    assert game.is_legal(seat, action)


def test_wizard_bid_is_simulated_and_legal() -> None:
    game = game_class("wizard")(4, {"rounds": "6"}, 3)  # type: ignore[call-arg]
    seat = game.to_move()[0]
    acts = [a for a in game.legal_actions(seat) if a["type"] != "undo"]
    assert acts[0]["type"] == "bid"
    action = make_agent("wizard", "strong").choose(game.clone(), seat, random.Random(2))
    assert action in acts

"""Wizard's adapter for the strong level: ISMCTS card play with cheap rollouts, the round score as reward."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from bot.ai.base import Agent
from bot.ai.ismcts import ActionKey, SearchSpec, action_key
from bot.ai.strong import Budget, GameSearch, StrongAgent
from bot.engine.protocol import Action, Game

from .ai import WizardAgent
from .engine import RANK, SUIT, WizardGame


class RoundReward:
    """Wizard: the round score of every seat, from the public totals before and after the round.

    The root totals are cached per root state (one search reuses the same root). The key includes the number
    of rounds settled: a later root may reuse the ``id`` of a freed one, and the totals change only when a
    round is settled, so an equal key means equal totals."""

    def __init__(self) -> None:
        self._root_key: tuple[int, int] = (-1, -1)
        self._root_totals: list[int] = []

    def __call__(self, root: Game, state: Game) -> Sequence[float]:
        key = (id(root), len(root.settlements()))
        if key != self._root_key:
            self._root_totals = list(root.public_view()["totals"])
            self._root_key = key
        after = state.public_view()["totals"]
        return [0.5 + 0.5 * math.tanh((a - b) / 30.0) for a, b in zip(after, self._root_totals, strict=True)]

    def __getstate__(self) -> dict[str, Any]:
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]


def action_identity(action: Action) -> ActionKey:
    """The four Wizards (and the four Jesters) are interchangeable: one edge for all of them."""
    card = action.get("card")
    if isinstance(card, str) and (card.startswith("WIZ") or card.startswith("JES")):
        return ("play", card[:3])
    return action_key(action)


def rollout_policy(game: Game, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """Cheap Wizard rollout: a seat short of its bid plays its strongest card, one that has it plays its
    weakest; ``EPSILON`` of the moves are random. It reads the bids, tricks and trump of the
    *determinized* state directly (the engine's public ``bids``/``tricks_won``/``trump_suit``/``lead_suit``)
    because building a view per rollout move would cost more than the whole rollout; these are public facts."""
    if actions[0]["type"] != "play" or rng.random() < EPSILON:
        return rng.choice(actions)
    assert isinstance(game, WizardGame)
    bids, tricks = game.bids, game.tricks_won
    if bids[seat] is None:
        return rng.choice(actions)
    trump, lead = game.trump_suit, game.lead_suit

    def value(a: Action) -> int:
        c: str = a["card"]
        r = RANK[c]
        if r in (0, 15):
            return r * 7  # Jester 0, Wizard 105
        suit = SUIT[c]
        return r + (50 if suit == trump else 25 if suit == lead else 0)

    if tricks[seat] < bids[seat]:
        return max(actions, key=value)
    return min(actions, key=value)


EPSILON = 0.2


EPSILON = 0.2


class WizardSearch(GameSearch):
    budget = Budget(play=200, agent_rollouts=False, declare_samples=8)

    def search_spec(self, base: Agent, budget: Budget) -> SearchSpec:
        return SearchSpec(reward=RoundReward(), key=action_identity, policy=rollout_policy)

    def candidates(self, actions: list[Action], base_choice: Action, view: dict[str, Any] | None) -> list[Action]:
        kind = base_choice["type"]
        if kind == "bid":
            return [a for a in actions if a["type"] == "bid" and abs(a["n"] - base_choice["n"]) == 1]
        if kind == "trump":
            return [a for a in actions if a["type"] == "trump"]
        return []

    def declare_samples(self, game: Game, seat: int, samples: int) -> int:
        # a playout costs about one heuristic decision per card left: keep bids under ~0.25 s
        return max(3, min(samples, 64 // max(1, len(game.view(seat)["hand"]))))


SEARCH = WizardSearch()


def strong_agent() -> Agent:
    """Searched play and declarations over the ``normal`` heuristic (see :mod:`bot.ai.strong`)."""
    return StrongAgent(SEARCH, WizardAgent())

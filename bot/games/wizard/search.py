"""Wizard's adapter for the strong level: ISMCTS card play with cheap rollouts, the round score as reward."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from bot.ai.base import Agent
from bot.ai.ismcts import ActionKey, SearchSpec, action_key
from bot.ai.strong import Budget, GameSearch, StrongAgent
from bot.engine.protocol import Action, Game, Move

from .ai import WizardAgent
from .engine import RANK, SUIT, WizardGame


class RoundReward:
    """Wizard: the round score of every seat, from the public totals before and after the round.

    The totals are read from the engine (``totals``, the same list as ``public_view()["totals"]``), which is cheap,
    so nothing is cached: the earlier cache keyed by ``(id(root), settlements)`` could return a previous root's
    totals, since a freed root's ``id`` is reused and Wizard books its one settlement at the end of the game
    (within a game every key looked alike, so later rounds were scored against stale totals)."""

    def __call__(self, root: Game, state: Game) -> Sequence[float]:
        before = root.totals  # type: ignore[attr-defined]
        after = state.totals  # type: ignore[attr-defined]
        return [0.5 + 0.5 * math.tanh((a - b) / 30.0) for a, b in zip(after, before, strict=True)]


def action_identity(action: Action) -> ActionKey:
    """The four Wizards (and the four Jesters) are interchangeable: one edge for all of them."""
    card = action.get("card")
    if isinstance(card, str) and (card.startswith("WIZ") or card.startswith("JES")):
        return ("play", card[:3])
    return action_key(action)


def move_identity(move: Move) -> ActionKey:
    """:func:`action_identity` of a compact move (the same classes: one key for the four Wizards, one for the
    four Jesters)."""
    if type(move) is str:
        return ("play", move[:3]) if move.startswith(("WIZ", "JES")) else move
    return action_key(move)


def sim_rollout_policy(game: Game, seat: int, moves: list[Move], rng: random.Random) -> Move:
    """:func:`rollout_policy` over compact moves (card ids; bids stay actions): the same choices, the same
    random draws."""
    if type(moves[0]) is not str or rng.random() < EPSILON:
        return rng.choice(moves)
    assert isinstance(game, WizardGame)
    bids, tricks = game.bids, game.tricks_won
    if bids[seat] is None:
        return rng.choice(moves)
    trump, lead = game.trump_suit, game.lead_suit

    def value(c: str) -> int:
        r = RANK[c]
        if r in (0, 15):
            return r * 7  # Jester 0, Wizard 105
        suit = SUIT[c]
        return r + (50 if suit == trump else 25 if suit == lead else 0)

    if tricks[seat] < bids[seat]:
        return max(moves, key=value)
    return min(moves, key=value)


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
        return SearchSpec(
            reward=RoundReward(),
            key=action_identity,
            policy=rollout_policy,
            sim_key=move_identity,
            sim_policy=sim_rollout_policy,
        )

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

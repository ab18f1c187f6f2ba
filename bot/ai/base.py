"""The agent interface every computer player implements (each game lists its levels in its ``GameSpec``).

An agent decides for one seat. It may read only what that seat may know: ``game.view(seat)``,
``game.legal_actions(seat)`` and states from ``game.determinize(seat, rng)``. It must not read other
seats' hands from the game object. All randomness comes from the ``rng`` it is given, so decisions are
reproducible under a seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from bot.engine.protocol import Action, Game


class Agent(Protocol):
    """A computer player."""

    level: str

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        """Return one of ``game.legal_actions(seat)``."""
        ...


class RandomAgent:
    """Plays a uniformly random legal action (a baseline for tests and benchmarks)."""

    level = "random"

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        actions = game.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        return rng.choice(actions)


AgentFactory = Callable[[], Agent]

"""The agent interface every computer player implements (each game lists its levels in its ``GameSpec``).

An agent decides for one seat. It may read only what that seat may know: ``game.view(seat)``,
``game.legal_actions(seat)`` and states from ``game.determinize(seat, rng)``, or the narrow parts of the view an
engine exposes for speed (``card_play_view``, ``play_facts``, the compact ``sim_legal``), which a test checks
against the view. It must not read other seats' hands from the game object. All randomness comes from the
``rng`` it is given, so decisions are reproducible under a seed. An agent may also offer ``sim_choose`` (the
same choice as a compact move of ``sim_legal``), which search playouts prefer.
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

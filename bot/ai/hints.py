"""Hints for learners: what the ``strong`` computer player would do in a seat's place, and how it rates that.

Privacy by construction: the strong agent never sees the real game. The hint is searched on a *determinization*
of it from the seat's point of view (``game.determinize(seat, rng)``: every hidden card re-dealt at random,
consistently with what the seat can see), so two games that look the same from that seat give the same hint under
the same seed, whatever the other hands hold.

The "why" is measured, not invented: the suggested action and the ``normal`` heuristic's own choice (when it
differs) are played out to the end of the hand on the same sampled deals (common random numbers), and the hint
reports in how many of them each one came out well for the seat (a won hand, a made contract or bid).

Pure: no discord, no asyncio. A hint is a function of ``(the seat's view, seed)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.ai.base import Agent
from bot.ai.ismcts import SearchSpec, searchable
from bot.ai.strong import StrongAgent, _playout
from bot.engine.protocol import Action, Game

#: sampled deals on which the suggestion (and the heuristic's alternative) are played out for the "why"
SAMPLES = 24


@dataclass(frozen=True, slots=True)
class Hint:
    """What the strong player suggests, and how the suggestion fared on ``samples`` sampled deals."""

    action: Action
    #: how many of the sampled deals ended well for the seat with the suggested action
    good: int
    samples: int
    #: the ``normal`` heuristic's own choice when it differs from the suggestion, and how it fared
    alternative: Action | None = None
    alternative_good: int = 0
    #: only one action was legal (no search, no measure)
    forced: bool = False

    @property
    def rate(self) -> int:
        """The suggestion's share of good outcomes, in percent."""
        return round(100 * self.good / self.samples) if self.samples else 0

    @property
    def alternative_rate(self) -> int:
        return round(100 * self.alternative_good / self.samples) if self.samples else 0


def _outcomes(
    world: Game, seat: int, rng: random.Random, actions: list[Action], spec: SearchSpec, agent: Agent, samples: int
) -> list[int]:
    """For each action, on how many of ``samples`` sampled deals (the same ones for all) the seat did well."""
    good = [0] * len(actions)
    for _ in range(samples):
        det = world.determinize(seat, rng)
        seed = rng.getrandbits(64)
        for j, a in enumerate(actions):
            # a reward above one half is a good outcome: a won hand or a made contract, a positive round score
            good[j] += _playout(world, det, seat, a, spec, agent, seed) > 0.5
    return good


def hint(game: Game, seat: int, strong: Agent, seed: int, samples: int = SAMPLES) -> Hint:
    """The hint for ``seat`` (which must be to move) from ``strong`` (the game's strong agent)."""
    rng = random.Random(seed)
    # the search runs on a world re-dealt from the seat's view: the real hidden cards cannot reach it
    world = game.determinize(seat, rng)
    legal = searchable(world.legal_actions(seat))
    if not legal:
        raise ValueError(f"seat {seat} has no legal action")
    if len(legal) == 1:
        return Hint(legal[0], 0, 0, forced=True)
    action = strong.choose(world.clone(), seat, rng)
    if not isinstance(strong, StrongAgent):  # a game without a search adapter: no measure to give
        return Hint(action, 0, 0)
    alternative = strong.base.choose(world.clone(), seat, rng)
    candidates = [action] if alternative == action else [action, alternative]
    spec, agent = strong.spec, strong.base
    if action.get("type") != "play":
        # a declaration is measured by the playouts that chose it (Wizard: the bidder steering its tricks as the
        # strong level does), else a suggested bid could fare worse in the hint than the heuristic's
        plan = strong.search.declaration_plan(world, seat, candidates, strong.base, strong.spec, strong.budget)
        spec, agent = plan.spec, plan.agent
    good = _outcomes(world, seat, rng, candidates, spec, agent, samples)
    if len(candidates) == 1:
        return Hint(action, good[0], samples)
    return Hint(action, good[0], samples, alternative, good[1])

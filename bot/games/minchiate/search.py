"""Minchiate's adapter for the strong level: playouts by sequential halving over merged cards, an exact
endgame (the partnerships are fixed), discards and declarations simulated; the deal's resti as reward."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bot.ai.base import Agent
from bot.ai.ismcts import SearchSpec
from bot.ai.strong import Budget, GameSearch, StrongAgent, default_policy, new_settlement
from bot.engine.protocol import Action, Game

from . import ai as mc
from .ai import MinchiateNormal, prune_plays


def deal_reward(root: Game, state: Game) -> Sequence[float]:
    """Minchiate: half for the deal's result in resti (who wins it), half for its whole point difference.

    The points are the deal's total (``points_diff``: resti converted during play count 60 points each), not
    the residual ``final_diff`` left after those conversions, which would hide every converted resto."""
    st = new_settlement(root, state)
    if st is None:
        return [0.5] * 4
    net_a = int(st.summary.get("net_A", 0))
    points = float(st.summary.get("points_diff", 0))
    sign = (net_a > 0) - (net_a < 0)
    a = 0.5 + 0.25 * sign + 0.25 * math.tanh(points / 90.0)
    return [a if s % 2 == 0 else 1.0 - a for s in range(4)]


def combo_candidates(kind: str, actions: list[Action], base: Action, view: dict[str, Any]) -> list[Action]:
    """Discards and declarations worth simulating."""
    if kind == "discard":
        # one card at a time (the engine's form): the cheapest discardable card of each other suit, because
        # what a discard changes is which suit goes void (ruffing) and which combinations stay in hand
        cards = [a["cards"][0] for a in actions]
        hand: list[str] = view["hand"]
        best_of_suit: dict[str, str] = {}  # filled cheapest first, so its values stay in that order
        for c in sorted(cards, key=lambda c: mc._discard_key(c, hand)):
            best_of_suit.setdefault(mc.SUIT[c], c)
        return [{"type": "discard", "cards": [c]} for c in best_of_suit.values()]
    if kind == "declare" and base.get("combos"):
        # declaring scores now but shows the cards: against keeping them hidden
        return [{"type": "declare", "combos": []}]
    return []


class MinchiateSearch(GameSearch):
    budget = Budget(
        play=150,
        agent_rollouts=True,
        declare_samples=12,
        play_mode="halving",
        play_margin=0.05,
        endgame_tricks=3,
        endgame_samples=8,
        declare_kinds=("discard", "declare"),
    )
    declare_kinds = ("discard", "declare")

    def search_spec(self, base: Agent, budget: Budget) -> SearchSpec:
        return SearchSpec(reward=deal_reward, policy=default_policy(base, budget))

    def candidates(self, actions: list[Action], base_choice: Action, view: dict[str, Any] | None) -> list[Action]:
        kind = base_choice["type"]
        if view is not None and kind in self.declare_kinds:
            return combo_candidates(kind, actions, base_choice, view)
        return []


SEARCH = MinchiateSearch()


def strong_agent() -> Agent:
    """Searched play and declarations over the ``normal`` heuristic (see :mod:`bot.ai.strong`)."""
    return StrongAgent(SEARCH, MinchiateNormal(), prune=prune_plays)

"""CI-sized regression guard: the strong level (tiny budgets) still beats random play clearly on duplicate deals.

The full ladder is ``bench/ai_ladder.py``; this only catches a search that silently stopped working (a reward
with the wrong sign, a rollout that never ends the hand, a broken determinization)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.ai.base import Agent, RandomAgent
from bot.ai.strong import Budget, StrongAgent
from bot.engine.protocol import Game
from bot.engine.rng import derive_seed
from bot.games.registry import game_class, make_agent, search

# the real strong configuration (search mode, rollouts), with CI-sized budgets
SMALL: dict[str, tuple[int, dict[str, Any], Budget]] = {
    "mediatore": (4, {"hands": 1}, replace(search("mediatore").budget, play=30, declare_samples=4)),
    "mighty": (5, {"hands": 1}, replace(search("mighty").budget, play=25, declare_samples=3)),
    "minchiate": (
        4,
        {"deals_per_game": 1},
        replace(search("minchiate").budget, play=16, declare_samples=2, endgame_samples=2),
    ),
}


def _strong(game_id: str, budget: Budget) -> Agent:
    """The registered strong agent (with its game's card pruning), on a CI-sized budget."""
    agent = make_agent(game_id, "strong")
    assert isinstance(agent, StrongAgent)
    agent.budget = budget
    return agent


def _duplicate(game_id: str, deals: int) -> tuple[float, list[float]]:
    """Strong at seats {r, r+2} against random elsewhere, every deal under each rotation r = 0, 1.
    Returns (mean per-hand difference of the seats' mean stake, per-hand win flags of the strong side)."""
    n, options, budget = SMALL[game_id]
    cls = game_class(game_id)
    diffs: list[float] = []
    wins: list[float] = []
    for deal in range(deals):
        for rot in range(2):
            strong_seats = {rot, rot + 2}
            agents: list[Agent] = [_strong(game_id, budget) if s in strong_seats else RandomAgent() for s in range(n)]
            game: Game = cls(n, options, derive_seed(7, game_id, deal))  # type: ignore[call-arg]
            step = 0
            while not game.is_over:
                seat = game.to_move()[0]
                rng = random.Random(derive_seed(7, deal, rot, step))
                game.apply(seat, agents[seat].choose(game.clone(), seat, rng))
                step += 1
            for st in game.settlements():
                pay = st.amounts["resto" if game_id == "minchiate" else "stake"]
                a = sum(pay[s] for s in strong_seats) / 2
                b = sum(pay[s] for s in range(n) if s not in strong_seats) / (n - 2)
                diffs.append(a - b)
                wins.append(1.0 if a > b else 0.5 if a == b else 0.0)
    return sum(diffs) / len(diffs), wins


@pytest.mark.parametrize("game_id", list(SMALL))
def test_strong_beats_random_on_duplicate_deals(game_id: str) -> None:
    mean_diff, wins = _duplicate(game_id, 5 if game_id == "minchiate" else 3)
    assert mean_diff > 0
    # Minchiate at 16 playouts is about the heuristic's level (76% against random over 600 hands): the bar
    # is lower, but a reversed reward or a broken search still falls far below it
    assert sum(wins) / len(wins) >= (0.6 if game_id == "minchiate" else 0.75), wins


def test_wizard_strong_outscores_random() -> None:
    """Wizard (rounds of 3-5 cards, tiny budgets): one strong seat against three random ones, every seat in
    turn, scores more than the random seats on the same deals."""
    budget = replace(search("wizard").budget, play=30, declare_samples=3)
    base: Any = make_agent("wizard", "normal")
    margins: list[float] = []
    for deal in range(2):
        for strong_seat in range(4):
            agents: list[Agent] = [
                StrongAgent(search("wizard"), base, budget) if s == strong_seat else RandomAgent() for s in range(4)
            ]
            game: Game = game_class("wizard")(4, {"rounds": "3-5"}, derive_seed(7, "wizard", deal))  # type: ignore[call-arg]
            step = 0
            while not game.is_over:
                seat = game.to_move()[0]
                game.apply(seat, agents[seat].choose(game.clone(), seat, random.Random(derive_seed(7, deal, step))))
                step += 1
            totals = [sum(st.amounts["point"][s] for st in game.settlements()) for s in range(4)]
            others = [totals[s] for s in range(4) if s != strong_seat]
            margins.append(totals[strong_seat] - sum(others) / 3)
    assert sum(margins) / len(margins) > 20, margins
    assert sum(m > 0 for m in margins) >= 6, margins

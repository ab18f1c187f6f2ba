"""The agent runner: decisions in a worker process give the same action as in-process, and a call that
cannot be sent to a worker still runs (in a thread)."""

from __future__ import annotations

import random

from bot.ai_runner import AgentRunner
from bot.engine.protocol import Action, Game
from bot.games.registry import game_class, make_agent


def _game() -> Game:
    return game_class("mediatore")(4, {"hands": 1}, 3)  # type: ignore[call-arg]


async def test_process_runner_matches_in_process_decision() -> None:
    game = _game()
    seat = game.to_move()[0]
    agent = make_agent("mediatore", "strong")
    expected = agent.choose(game.clone(), seat, random.Random(9))
    runner = AgentRunner(1)
    try:
        got = await runner(agent.choose, game.clone(), seat, random.Random(9))
    finally:
        runner.shutdown()
    assert got == expected


async def test_unpicklable_call_falls_back_to_a_thread() -> None:
    game = _game()
    seat = game.to_move()[0]

    def local_choice(g: Game, s: int, rng: random.Random) -> Action:  # a local function cannot be pickled
        return g.legal_actions(s)[0]

    runner = AgentRunner(1)
    try:
        got = await runner(local_choice, game.clone(), seat, random.Random(1))
    finally:
        runner.shutdown()
    assert got == game.legal_actions(seat)[0]

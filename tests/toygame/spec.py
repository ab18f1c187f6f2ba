"""Toy's ``GameSpec``: everything Tavolo needs to know about it, in one declaration."""

from __future__ import annotations

from bot.games.spec import GameSpec, TournamentFormat

from . import render
from .ai import LowestCard
from .engine import ToyGame

SPEC = GameSpec(
    id="toy",
    title="Toy",
    description="Toy: a tiny trick-taking game used by the tests",
    engine=ToyGame,
    renderer=render,
    colour=0x123456,
    currency="point",
    stake_option="bonus",
    tournament=TournamentFormat(default_hands=1),
    agents={"normal": LowestCard},
)

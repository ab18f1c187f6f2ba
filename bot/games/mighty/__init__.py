"""Mighty (5 players): the Korean 53-card game, auction with trump change, a hidden friend.

The package is the whole game: ``engine`` (rules), ``render`` (views -> panels), ``ai`` (heuristic players),
``search`` (the strong level's adapter), ``facts`` (what ratings read). ``SPEC`` declares it to Tavolo.
"""

from __future__ import annotations

from bot.games.spec import GameSpec, ProfileFacts, TournamentFormat

from . import errors, notation, render
from .ai import EasyMightyAgent, MightyAgent
from .engine import MightyGame
from .facts import rating_sides
from .search import SEARCH, strong_agent

SPEC = GameSpec(
    id="mighty",
    title="Mighty",
    description="Mighty: the Korean 5-player game with a hidden friend",
    engine=MightyGame,
    renderer=render,
    colour=0x16A085,
    currency="stake",
    stake_option="stake",
    tournament=TournamentFormat(default_hands=4, option="hands", min_hands=1),
    agents={"normal": MightyAgent, "easy": EasyMightyAgent, "strong": strong_agent},
    search=SEARCH,
    notation=notation,
    deck="french",
    rating_sides=rating_sides,
    profile=ProfileFacts(contract_paths=("$.declarer", "$.bid"), contract_word="bid"),
    errors=errors.ERRORS,
)

"""Mediatore (4 players): Italian 40-card deck, auction, a hidden called partner, stakes.

The package is the whole game: ``engine`` (rules), ``render`` (views -> panels), ``ai`` (heuristic players),
``search`` (the strong level's adapter), ``facts`` (what ratings read). ``SPEC`` declares it to Tavolo.
"""

from __future__ import annotations

from bot.games.spec import GameSpec, ProfileFacts, TournamentFormat

from . import errors, notation, render
from .ai import EasyMediatoreAgent, MediatoreAgent
from .engine import MediatoreGame
from .facts import rating_sides
from .search import SEARCH, strong_agent

SPEC = GameSpec(
    id="mediatore",
    title="Mediatore",
    description="Mediatore: the Italian 4-player game with a hidden called partner",
    engine=MediatoreGame,
    renderer=render,
    colour=0xC0392B,
    currency="stake",
    stake_option="stake",
    tournament=TournamentFormat(default_hands=4, option="hands", min_hands=1),
    agents={"normal": MediatoreAgent, "easy": EasyMediatoreAgent, "strong": strong_agent},
    search=SEARCH,
    notation=notation,
    deck="italian",
    rating_sides=rating_sides,
    profile=ProfileFacts(contract_paths=("$.bidder", "$.contract"), contract_word="contract"),
    errors=errors.ERRORS,
)

"""Minchiate (4 players, 2 v 2): Florentine tarot with 97 cards and combinations, settled in resti.

The package is the whole game: ``engine`` and ``rules`` (rules), ``render`` (views -> panels), ``ai``
(heuristic players), ``search`` (the strong level's adapter), ``facts`` (what ratings read). ``SPEC`` declares
it to Tavolo.
"""

from __future__ import annotations

from bot.games.spec import GameSpec, TournamentFormat

from . import errors, notation, render
from .ai import MinchiateEasy, MinchiateNormal
from .engine import MinchiateGame
from .facts import rating_sides
from .search import SEARCH, strong_agent

SPEC = GameSpec(
    id="minchiate",
    title="Minchiate",
    description="Minchiate: Florentine tarot for two partnerships, settled in resti",
    engine=MinchiateGame,
    renderer=render,
    colour=0x8E44AD,
    currency="resto",
    stake_option="stake_per_resto",
    tournament=TournamentFormat(
        default_hands=1,
        option="deals_per_game",
        allowed=(1, 4),
        allowed_text="A Minchiate game is 1 deal or 4 deals (every seat deals once): use 1 or 4.",
    ),
    agents={"normal": MinchiateNormal, "easy": MinchiateEasy, "strong": strong_agent},
    search=SEARCH,
    notation=notation,
    deck="minchiate97",
    partnerships=True,
    rating_sides=rating_sides,
    errors=errors.ERRORS,
)

"""Wizard (3–6 players): bid the exact number of tricks you will take; Wizards and Jesters.

The package is the whole game: ``engine`` (rules), ``render`` (views -> panels), ``ai`` (heuristic players),
``search`` (the strong level's adapter), ``facts`` (tournament mapping). ``SPEC`` declares it to Tavolo.
"""

from __future__ import annotations

from bot.games.spec import GameSpec, ProfileFacts, TournamentFormat

from . import errors, notation, render
from .ai import EasyWizardAgent, WizardAgent
from .engine import WizardGame
from .facts import tournament_options
from .search import SEARCH, strong_agent

SPEC = GameSpec(
    id="wizard",
    title="Wizard",
    description="Wizard: bid the exact number of tricks you will take (3-6 players)",
    engine=WizardGame,
    renderer=render,
    colour=0x5865F2,
    currency="point",
    stake_option="stake_per_point",
    tournament=TournamentFormat(default_hands=0, table_options=tournament_options, takes_round_list=True),
    agents={"normal": WizardAgent, "easy": EasyWizardAgent, "strong": strong_agent},
    search=SEARCH,
    notation=notation,
    deck="wizard60",
    profile=ProfileFacts(bid_accuracy=True),
    errors=errors.ERRORS,
)

"""The ledger: an append-only record of every settled hand/game and admin adjustment, per guild and season.

Other code calls :class:`Ledger` instead of touching the tables. This package may use asyncio and
aiosqlite (through :mod:`bot.db`) but never imports discord.
"""

from .models import (
    HistoryRow,
    KeyConflict,
    LeaderboardRow,
    LedgerError,
    Season,
    SeasonSpec,
    SeatRef,
    UnknownSeason,
    ZeroSumError,
)
from .service import Ledger, settlement_key

__all__ = [
    "HistoryRow",
    "KeyConflict",
    "LeaderboardRow",
    "Ledger",
    "LedgerError",
    "Season",
    "SeasonSpec",
    "SeatRef",
    "UnknownSeason",
    "ZeroSumError",
    "settlement_key",
]

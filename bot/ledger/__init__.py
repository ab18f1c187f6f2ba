"""The ledger: an append-only record of every settled hand/game and admin adjustment, per guild and season.

It owns the ``seasons``, ``settlements`` and ``entries`` tables (and, in :mod:`bot.ledger.payments` and
:mod:`bot.ledger.money`, ``payments`` and ``guild_money``); every other module (tables, ratings,
tournaments, cogs) books and reads through :class:`Ledger`, whose reads return the typed values of
:mod:`bot.ledger.models`. This package may use asyncio and aiosqlite (through :mod:`bot.storage.db`) but never
imports discord.
"""

from .models import (
    BidAccuracy,
    ContractStat,
    GameTotals,
    HistoryRow,
    KeyConflict,
    LeaderboardRow,
    LedgerError,
    LedgerRefusal,
    Season,
    SeasonSpec,
    SeatRef,
    SettlementEntry,
    SettlementRow,
    TableSeatTotal,
    UnknownSeason,
    ZeroSumError,
)
from .service import Ledger, settlement_key

__all__ = [
    "BidAccuracy",
    "ContractStat",
    "GameTotals",
    "HistoryRow",
    "KeyConflict",
    "LeaderboardRow",
    "Ledger",
    "LedgerError",
    "LedgerRefusal",
    "Season",
    "SeasonSpec",
    "SeatRef",
    "SettlementEntry",
    "SettlementRow",
    "TableSeatTotal",
    "UnknownSeason",
    "ZeroSumError",
    "settlement_key",
]

"""Values the ledger API takes and returns, and its errors. Plain frozen dataclasses: no I/O here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from bot.errors import Refusal

__all__ = [
    "BOOKABLE_KINDS",
    "BidAccuracy",
    "ContractStat",
    "GameTotals",
    "HistoryRow",
    "KeyConflict",
    "LeaderboardRow",
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
]

#: Kinds a settlement may be booked as (``entries.kind`` also allows ``adjustment``, which only
#: :meth:`Ledger.adjust` writes, and ``payment``, which only :meth:`Ledger.book_payment` writes).
BOOKABLE_KINDS = ("hand", "game", "tournament")

#: ``"current"`` (the open season), ``"all"`` (every season), or a season *number* (1, 2, ...).
SeasonSpec = Literal["current", "all"] | int


class LedgerError(Exception):
    """Base class of the ledger's deliberate errors."""


class ZeroSumError(LedgerError, ValueError):
    """A ``stake``/``resto`` settlement whose amounts do not sum to zero."""


class KeyConflict(LedgerError, ValueError):
    """A settlement key is already booked for a *different* guild/game/table/hand: a key-scheme bug,
    never silently ignored (it would drop a hand or leak across guilds)."""


class LedgerRefusal(LedgerError, Refusal, ValueError):
    """Input the ledger refuses with a reason for the user (an admin's adjustment, a season): a catalogue msgid
    and its parameters, like the table service's refusals."""


class UnknownSeason(LedgerRefusal, LookupError):
    """A season number that the guild does not have."""


@dataclass(frozen=True, slots=True)
class SeatRef:
    """Who sat in a seat: a Discord user id, or ``None`` for a computer player; ``name`` as shown then."""

    user_id: int | None
    name: str


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    guild_id: int
    number: int
    started_at: datetime
    closed_at: datetime | None = None
    closed_by: int | None = None

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One line of a user's history: one settlement (all its currencies) or one adjustment.

    ``id`` is the smallest entry id of the line: pass the last row's ``id`` as ``before_id`` to get the
    next page.
    """

    id: int
    kind: str
    season_number: int
    amounts: Mapping[str, int]
    created_at: datetime
    settlement_id: int | None = None
    key: str | None = None
    game: str | None = None
    table_id: int | str | None = None
    hand_index: int | None = None
    seat: int | None = None
    summary: Mapping[str, Any] = field(default_factory=dict)
    actor_id: int | None = None
    reason: str | None = None
    #: a ``payment``: its id and the other side (the payee when the amount is positive, else the payer)
    payment_id: int | None = None
    counterparty_id: int | None = None


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """``total`` = sum of amounts (adjustments included when no game filter); ``games`` = settlements
    played in that currency; ``wins`` = settlements won (see :mod:`bot.ledger.service` for the rule)."""

    user_id: int
    name: str | None
    total: int
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class SettlementRow:
    """One booked settlement (a hand or a game) with its parsed summary."""

    id: int
    key: str
    guild_id: int
    season_id: int
    game: str
    table_id: int | str | None
    hand_index: int | None
    summary: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class SettlementEntry:
    """One seat's amount in one currency of a settlement. Computers have ``user_id = 0, is_bot = True``."""

    settlement_id: int
    seat: int
    user_id: int
    is_bot: bool
    currency: str
    amount: int


@dataclass(frozen=True, slots=True)
class TableSeatTotal:
    """One seat of one table in one currency, summed over the table's settlements: ``amount`` and
    ``wins`` (settlements that seat's player won, see :mod:`bot.ledger.service`)."""

    table_id: int
    seat: int
    user_id: int
    is_bot: bool
    currency: str
    amount: int
    wins: int


@dataclass(frozen=True, slots=True)
class GameTotals:
    """A user's career in one game and currency (all seasons, settlements only, adjustments excluded)."""

    games: int
    wins: int
    total: int


@dataclass(frozen=True, slots=True)
class ContractStat:
    """Hands a user declared with one contract, and how many of them were made."""

    contract: str
    made: int
    declared: int


@dataclass(frozen=True, slots=True)
class BidAccuracy:
    """A user's exact bids over the rounds they played (Wizard-style summaries)."""

    exact_bids: int
    rounds: int

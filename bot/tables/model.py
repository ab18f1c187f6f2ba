"""What a table is: seats, options, seed and the action log (plus runtime state rebuilt from them)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine.protocol import Action, Game
from bot.i18n import N_, _

Status = Literal["lobby", "running", "finished", "cancelled"]
#: the turn timer's range in seconds (settings, table creation, /table timer, the slash-command options)
MIN_TIMEOUT, MAX_TIMEOUT = 15, 3600
OPEN_STATUSES = ("lobby", "running")
#: how a computer seat is named when it is added (stored, so the ledger and records keep one stable name)
COMPUTER_NAME = N_("🤖 Computer {n}")
_COMPUTER = re.compile(r"🤖 Computer (\d+)")


@dataclass(slots=True)
class Seat:
    """One seat. ``user_id is None`` means a computer player; ``away`` means the human's turn timer ran
    out (or they stepped away) and the computer plays for them until they come back."""

    user_id: int | None
    name: str
    ai_level: str | None = None
    away: bool = False

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def computer_plays(self) -> bool:
        return self.user_id is None or self.away

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "ai_level": self.ai_level, "away": self.away}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        return cls(d["user_id"], d["name"], d.get("ai_level"), bool(d.get("away", False)))


@dataclass(slots=True)
class Table:
    id: int
    guild_id: int
    channel_id: int
    game_id: str
    host_id: int
    options: dict[str, Any]
    seed: int
    status: Status
    seats: list[Seat]
    turn_timeout: int
    messages: dict[str, int] = field(default_factory=dict)
    tournament_id: int | None = None
    log: list[tuple[int, Action]] = field(default_factory=list)
    stop_votes: set[int] = field(default_factory=set)  # humans who voted to stop the session
    stop_after_hand: bool = False  # finish when the current hand is settled
    open_records: bool = False  # every hand's cards may be replayed by anyone once the hand is over
    #: hints asked (the ``hints`` option): (version, seat) — the action count then and who asked; the hand records
    #: carry them, so a replay shows who was helped where
    hints_asked: list[tuple[int, int]] = field(default_factory=list)
    # --- the turn timer (stored with the table, so a restart keeps the time a turn had left) ---
    deadline: float | None = None  # when the humans to move time out (wall clock, epoch seconds)
    reminded: bool = False  # the humans to move were reminded of this deadline (once per turn)
    # --- runtime only (rebuilt at load) ---
    game: Game | None = None
    booked: int = 0  # how many of game.settlements() are known to be in the ledger

    def state_json(self) -> dict[str, Any]:
        return {
            "stop_votes": sorted(self.stop_votes),
            "stop_after_hand": self.stop_after_hand,
            "open_records": self.open_records,
            "hints_asked": [list(h) for h in self.hints_asked],
        }

    def load_state(self, d: dict[str, Any]) -> None:
        self.stop_votes = set(d.get("stop_votes", []))
        self.stop_after_hand = bool(d.get("stop_after_hand", False))
        self.open_records = bool(d.get("open_records", False))
        self.hints_asked = [(int(v), int(s)) for v, s in d.get("hints_asked", [])]

    @property
    def version(self) -> int:
        """Number of actions applied; a click rendered at another version may be stale."""
        return len(self.log)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    @property
    def names(self) -> list[str]:
        """The seats' names as the reader sees them: a computer's stored English name is shown in the locale
        current now (``🤖 Computer 2`` / ``🤖 컴퓨터 2``)."""
        return [_display(s) for s in self.seats]

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]


def _display(seat: Seat) -> str:
    return display_name(seat.name) if seat.is_computer else seat.name


def display_name(stored: str) -> str:
    """A stored player name as the reader sees it: a computer's English ``🤖 Computer 2`` (as tables, the ledger
    and hand records keep it) in the locale current now; any other name as it is."""
    m = _COMPUTER.fullmatch(stored)
    return _(COMPUTER_NAME, n=int(m.group(1))) if m else stored

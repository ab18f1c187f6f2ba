"""What a table shows to whom: one interface, several front-ends.

The table service (:mod:`bot.tables.service`) tells every front-end of each change as a :class:`TableUpdate`, in
the order the changes happened. A front-end shows the table only through its screens (:mod:`bot.tables.screens`):
the public screen (:func:`~bot.tables.screens.table_screen`, drawn from the game's public view) to everyone who
watches, and a seat's screen (:func:`~bot.tables.screens.seat_screen`, drawn from that seat's view) to that seat's
player only. Which screens an update touches is decided once, here (:func:`audience`), for every front-end.

The front-ends:

* Discord messages — the channel's table message, each player's DM (or an ephemeral hand when DMs are closed),
  the channel's posts and the turn reminders: :mod:`cogs.tables.frontend`;
* the terminal — ``tavolo play``, one seat against computers: :class:`bot.records.play.TerminalFrontend`;
* the Activity (Discord's embedded web app): each page a seat's screen (or the public one), pushed over a
  WebSocket: :class:`bot.activity.hub.Hub`.

A front-end never acts on the table: what its people do goes back through the service (a click in Discord, a line
typed in the terminal), which then notifies every front-end again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.engine.protocol import Settlement
from bot.errors import Refusal
from bot.i18n import tr

from .model import Table

__all__ = ["Audience", "Frontend", "Listener", "Notice", "TableUpdate", "Unping", "audience", "seats_watched_elsewhere"]


class Notice:
    """A text the service has for the table's channel (someone left, timed out, voted to stop): a catalogue msgid
    and its parameters, written by a front-end in its reader's language with :meth:`text`. ``key``: its outbox row,
    once a table's notice is recorded with the change that caused it (its parameters are then plain values)."""

    __slots__ = ("key", "msgid", "params")

    def __init__(self, msgid: str, **params: Any) -> None:
        self.msgid = msgid
        self.params = params
        self.key: str | None = None

    def text(self) -> str:
        """The notice in the current locale (lazy parameters evaluated in it too)."""
        return tr(self.msgid, **{k: v() if callable(v) else v for k, v in self.params.items()})

    def __str__(self) -> str:
        return str(Refusal(self.msgid, **self.params))  # English, like a refusal's

    def __repr__(self) -> str:
        return f"Notice({self.msgid!r}, **{self.params!r})"


@dataclass(frozen=True, slots=True)
class Unping:
    """A turn reminder to delete (its turn has passed), recorded as the outbox row ``key``."""

    key: str
    seat: int
    channel_id: int | None
    message_id: int


@dataclass(slots=True)
class TableUpdate:
    """What changed at a table; front-ends render from the table's screens, never from this directly."""

    table: Table
    kind: str  # "lobby" | "started" | "action" | "finished" | "cancelled" | "seats" | "reminder"
    settlements: list[Settlement] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    actor_seat: int | None = None
    #: "reminder": the humans to move, halfway through their turn timer, and the seconds they have left
    remind: list[int] = field(default_factory=list)
    seconds_left: int = 0
    #: reminders whose turn passed with this change (their deletion is owed, see :meth:`TableService._owe`)
    unpings: list[Unping] = field(default_factory=list)


#: a plain subscriber of the service's updates (a service that reacts to tables: tournaments, statistics)
Listener = Callable[[TableUpdate], Awaitable[None]]


class Frontend(Protocol):
    """One way a table is shown to people."""

    def update(self, update: TableUpdate) -> Awaitable[None] | None:
        """Called after every change of the table, while the table is in the state the update describes: take
        what must be shown now (a screen is drawn from the table as it is at that moment). What may follow later
        (sending it) a front-end does in the background, or returns as an awaitable, which the service awaits
        before the next front-end hears of the change. An exception is logged and never breaks the game."""
        ...


def seats_watched_elsewhere(frontends: Iterable[object], table_id: int, asking: object) -> set[int]:
    """The seats of a table whose player looks at it through another front-end than ``asking`` right now (a
    front-end may tell with an optional ``seats_watching(table_id) -> set[int]``; the Activity does): the Discord
    front-end leaves those players' DM hands be meanwhile — the page shows the same seat's screen — and so spends
    no Discord request on them. Their DM is brought up to date by the first change after they leave the page."""
    seats: set[int] = set()
    for f in frontends:
        watching = getattr(f, "seats_watching", None) if f is not asking else None
        if watching is not None:
            seats |= watching(table_id)
    return seats


@dataclass(frozen=True, slots=True)
class Audience:
    """Which screens an update touches, and for whom."""

    #: the public screen changed (every update but a reminder)
    public: bool
    #: the seats of humans whose own screen may have changed
    seats: tuple[int, ...]
    #: an action: a seat's screen is drawn again only if what it shows (its view, its choices) changed
    only_if_changed: bool
    #: the humans to remind that their turn is half gone (a "reminder" update)
    remind: tuple[int, ...]
    #: the table has something to say in public: a settled hand, a notice, the game's end
    posts: bool


def audience(u: TableUpdate) -> Audience:
    """Who must see what after ``u``, the same for every front-end."""
    t = u.table
    if u.kind == "reminder":
        return Audience(False, (), False, tuple(u.remind), False)
    seats: tuple[int, ...] = ()
    if u.kind in ("started", "action", "seats", "finished", "cancelled") and t.game is not None:
        seats = tuple(i for i, s in enumerate(t.seats) if s.user_id is not None)
    over = u.kind == "finished" and t.game is not None
    return Audience(True, seats, u.kind == "action", (), bool(u.settlements or u.notices or over))

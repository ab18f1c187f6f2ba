"""The Activity's sockets: who watches which channel, what each was last sent, and what each may do.

One :class:`Connection` per WebSocket, bound to a session (user, instance, channel). The hub listens to the table
service (:class:`~bot.tables.service.TableUpdate`): an update of a table in a watched channel marks it dirty on
every connection of that channel and wakes the connection's sender, which builds that reader's view when it runs
— several updates meanwhile coalesce, the latest state wins — and sends the top-level keys that changed since the
view it sent before (a full view when that is smaller, on a first sync, or after a reconnect).

Actions go through :meth:`TableService.act` with the version the page saw (which checks them against the seat's
offered actions at the state they are applied to, docs/activity-security.md), lobby operations through the same
service calls as the Discord buttons, always as the session's own user: a page can only ever act for its user's
seat, and only at a table of its instance's channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.errors import Refusal
from bot.games import registry
from bot.i18n import using
from bot.records.show import hint_text
from bot.tables.frontends import TableUpdate
from bot.tables.model import Table
from bot.tables.service import TableService

from . import texts, views
from .frames import FrameError, parse
from .sessions import Session

__all__ = ["Connection", "Hub", "TokenBucket"]

log = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]


class TokenBucket:
    """``rate`` frames a second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(eq=False)
class Connection:
    session: Session
    send: Send
    #: table id -> (version, view) last sent
    sent: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    dirty: set[int] = field(default_factory=set)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    #: the latest push latencies (update -> frame written, seconds), for the benchmark; bounded
    pushed: deque[float] = field(default_factory=lambda: deque(maxlen=4096))
    _since: dict[int, float] = field(default_factory=dict)

    @property
    def user_id(self) -> int:
        return self.session.user_id

    def mark(self, table_id: int) -> None:
        self.dirty.add(table_id)
        self._since.setdefault(table_id, time.perf_counter())
        self.wake.set()


class Hub:
    def __init__(
        self,
        service: TableService,
        *,
        rate: float = 8.0,
        burst: int = 20,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.by_channel: dict[int, set[Connection]] = {}
        self._buckets: dict[int, TokenBucket] = {}
        self._rate, self._burst, self._clock = rate, burst, clock
        #: table id -> revision, bumped by every update (a lobby change keeps the version but changes the view)
        self._rev: dict[int, int] = {}
        #: table -> (revision, locale -> the public part of its views), shared by every reader of that language
        self._public: dict[int, tuple[int, dict[str, dict[str, Any]]]] = {}
        #: tables that closed lately (the service forgets a closed table at once): their last views are still
        #: sent, and **Play again** is asked on them; bounded
        self._closed: dict[int, Table] = {}
        #: frames sent, by type (tests and the benchmark read it)
        self.frames: dict[str, int] = {}

    # ------------------------------------------------------------------ life of a connection
    def attach(self) -> None:
        """Become one of the service's front-ends (:class:`~bot.tables.frontends.Frontend`): told of every change."""
        self.service.add_frontend(self)

    def detach(self) -> None:
        self.service.remove_frontend(self)

    async def open(self, session: Session, send: Send, *, renewed: str | None = None) -> Connection:
        """Register a connection that said a valid hello: welcome it (``renewed``: the session token for its next
        reconnect) and send every table of its channel."""
        conn = Connection(session, send)
        self.by_channel.setdefault(session.channel_id, set()).add(conn)
        tables = self.tables_of(conn)
        with using(session.locale):
            welcome = {
                "t": "welcome",
                "user": {"id": str(session.user_id), "name": session.name},
                "seat_of": {str(t.id): t.seat_of(session.user_id) for t in tables},
                "texts": texts.client_texts(),
            }
            if renewed is not None:
                welcome["session"] = renewed
        await self._send(conn, welcome)
        for t in tables:
            conn.mark(t.id)
        conn.task = asyncio.create_task(self._sender(conn), name=f"activity-push-{session.user_id}")
        return conn

    async def close(self, conn: Connection) -> None:
        peers = self.by_channel.get(conn.session.channel_id)
        if peers is not None:
            peers.discard(conn)
            if not peers:
                del self.by_channel[conn.session.channel_id]
        if len(self._buckets) > 10_000:  # (kept past a reconnect, which must not refill a flooder's budget)
            live = {c.user_id for c in self.connections()}
            self._buckets = {u: b for u, b in self._buckets.items() if u in live}
        if conn.task is not None:
            conn.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await conn.task

    def connections(self) -> list[Connection]:
        return [c for peers in self.by_channel.values() for c in peers]

    def seats_watching(self, table_id: int) -> set[int]:
        """The seats of a table whose player has the Activity open now: the Discord front-end leaves their DM hands
        be while they play here (:func:`bot.tables.frontends.seats_watched_elsewhere`)."""
        t = self.service.tables.get(table_id)
        if t is None:
            return set()
        users = {c.user_id for c in self.by_channel.get(t.channel_id, ())}
        return {i for i, s in enumerate(t.seats) if s.user_id in users}

    def tables_of(self, conn: Connection) -> list[Table]:
        """The open tables of the connection's channel (and guild)."""
        s = conn.session
        return [
            t
            for t in self.service.tables.values()
            if t.channel_id == s.channel_id and t.is_open and (s.guild_id is None or t.guild_id == s.guild_id)
        ]

    def _table(self, conn: Connection, table_id: int) -> Table | None:
        """A table the connection may see: in its channel and guild, held by this process."""
        t = self.service.tables.get(table_id) or self._closed.get(table_id)
        s = conn.session
        if t is None or t.channel_id != s.channel_id or (s.guild_id is not None and t.guild_id != s.guild_id):
            return None
        return t

    # ------------------------------------------------------------------ pushes
    async def update(self, u: TableUpdate) -> None:
        """The :class:`~bot.tables.frontends.Frontend` interface: the table's pages are pushed its screens again."""
        t = u.table
        self._rev[t.id] = self._rev.get(t.id, 0) + 1
        for conn in self.by_channel.get(t.channel_id, ()):
            if conn.session.guild_id is None or conn.session.guild_id == t.guild_id:
                conn.mark(t.id)
        if not t.is_open:
            self._rev.pop(t.id, None)
            self._public.pop(t.id, None)
            self._closed[t.id] = t
            while len(self._closed) > 1024:
                del self._closed[next(iter(self._closed))]

    async def _sender(self, conn: Connection) -> None:
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.dirty:
                table_id = conn.dirty.pop()
                since = conn._since.pop(table_id, None)
                try:
                    await self._push(conn, table_id)
                except (ConnectionError, RuntimeError):
                    return  # the socket is closing: the handler ends the connection
                except Exception:
                    log.exception("could not push table %s to user %s", table_id, conn.user_id)
                if since is not None:
                    conn.pushed.append(time.perf_counter() - since)

    def _view(self, conn: Connection, t: Table) -> dict[str, Any]:
        locale = conn.session.locale
        seat = t.seat_of(conn.user_id)
        rev = self._rev.get(t.id, 0)
        cached = self._public.get(t.id)
        if cached is None or cached[0] != rev:
            cached = (rev, {})
            if t.is_open:
                self._public[t.id] = cached
        with using(locale):
            public = cached[1].get(locale)
            if public is None:
                public = views.public_view(t)
                if t.is_open:  # (a closed table's last views are built once: nothing to share them with later)
                    cached[1][locale] = public
            forced = self.service.forced_action(t, seat) if seat is not None and t.game is not None else None
            return views.with_seat(public, t, seat, forced, conn.user_id)

    async def _push(self, conn: Connection, table_id: int) -> None:
        t = self.service.tables.get(table_id) or self._closed.get(table_id)
        if t is None or t.channel_id != conn.session.channel_id:
            return  # closed and forgotten: the page keeps the last view it got (finished) or got `gone`
        if t.status == "cancelled":
            if conn.sent.pop(table_id, None) is not None:
                await self._send(conn, {"t": "gone", "table": table_id})
            return
        version, view = t.version, self._view(conn, t)
        before = conn.sent.get(table_id)
        conn.sent[table_id] = (version, view)
        if before is None:
            await self._send(conn, {"t": "table", "table": table_id, "version": version, "view": view})
            return
        patch = views.diff(before[1], view)
        if patch is None:
            await self._send(conn, {"t": "table", "table": table_id, "version": version, "view": view})
            return
        changed, removed = patch
        if not changed and not removed and version == before[0]:
            return  # (a new version the reader sees no change in still goes out: the next patch starts from it)
        frame = {"t": "patch", "table": table_id, "from": before[0], "version": version, "set": changed, "del": removed}
        await self._send(conn, frame)

    async def _send(self, conn: Connection, frame: dict[str, Any]) -> None:
        self.frames[frame["t"]] = self.frames.get(frame["t"], 0) + 1
        await conn.send(frame)

    # ------------------------------------------------------------------ frames from the page
    async def receive(self, conn: Connection, raw: str | bytes) -> None:
        """One frame from the page: refused (with a reason, nothing changed) or carried out."""
        try:
            frame = parse(raw)
        except FrameError as e:
            log.info("activity: user %s sent a refused frame (%s: %s)", conn.user_id, e.code, e)
            await self._refuse(conn, e.req, e.code)
            return
        req = frame.get("req")
        bucket = self._buckets.get(conn.user_id)
        if bucket is None:
            bucket = self._buckets[conn.user_id] = TokenBucket(self._rate, self._burst, self._clock)
        if not bucket.take():
            await self._refuse(conn, req, "rate_limited")
            return
        kind = frame["t"]
        if kind == "ping":
            for t in self.tables_of(conn):  # a table opened since (a new lobby) shows up on the next ping
                if t.id not in conn.sent:
                    conn.mark(t.id)
            await self._send(conn, {"t": "pong"})
            return
        if kind == "hello":
            await self._refuse(conn, None, "bad_frame")
            return
        t = self._table(conn, frame["table"])
        if t is None:
            await self._refuse(conn, req, "no_table")
            return
        try:
            extra = await (self._act(conn, t, frame) if kind == "act" else self._lobby(conn, t, frame))
        except Refusal as e:
            with using(conn.session.locale):
                text = texts.service_text(e, t.game_id)
            await self._send(conn, {"t": "refused", "req": req, "code": texts.refusal_code(e), "text": text})
            if t.id in self.service.tables:
                conn.mark(t.id)  # a stale page gets the current view again
            return
        except Exception:  # a bug or the database: the page hears it, the socket lives on
            log.exception("activity: %s of user %s on table %s failed", kind, conn.user_id, t.id)
            await self._refuse(conn, req, "failed")
            return
        await self._send(conn, {"t": "ok", "req": req, **extra})

    async def _refuse(self, conn: Connection, req: int | None, code: str) -> None:
        with using(conn.session.locale):
            text = texts.refusal_text(code)
        await self._send(conn, {"t": "refused", "req": req, "code": code, "text": text})

    async def _act(self, conn: Connection, t: Table, frame: dict[str, Any]) -> dict[str, Any]:
        if t.seat_of(conn.user_id) is None:
            raise Refusal(texts.NOT_SEATED)
        # the service checks the action against what the seat is offered at the state it is applied to, and
        # stores the engine's own object: nothing of the frame's action object reaches the log
        await self.service.act(t.id, conn.user_id, frame["action"], frame["version"])
        return {}

    async def _lobby(self, conn: Connection, t: Table, frame: dict[str, Any]) -> dict[str, Any]:
        op, uid, svc = frame["op"], conn.user_id, self.service
        if op == "join":
            await svc.join(t.id, uid, conn.session.name)
        elif op == "leave":
            await svc.leave(t.id, uid)
        elif op == "bot":
            await svc.add_computer(t.id, uid, frame.get("level"))
        elif op == "unbot":
            await svc.remove_computer(t.id, uid)
        elif op == "start":
            await svc.start(t.id, uid)
        elif op == "back":
            await svc.reclaim(t.id, uid)
        elif op == "cancel" or (op == "end" and t.status == "lobby"):
            await svc.cancel(t.id, uid)  # (host only: server managers use the Discord message)
        elif op == "end":
            await svc.end(t.id, uid)
        elif op == "vote":
            votes, humans = await svc.vote_stop(t.id, uid)
            with using(conn.session.locale):
                return {"text": texts.vote_text(votes, humans)}
        elif op == "again":
            await svc.rematch(t.id, uid, conn.session.name)  # the new lobby comes to every page with its update
        else:  # hint
            table, seat, found = await svc.hint(t.id, uid)
            assert table.game is not None
            with using(conn.session.locale):
                panel = registry.renderer(table.game_id).private_panel(table.game.view(seat), table.names)
                return {"text": hint_text(table.game_id, found, panel)}
        return {}

"""The fake gateway: a JSON websocket speaking enough of Discord's protocol for discord.py.

Protocol summary (what discord.py 2.7 actually does against it):

* It connects to ``<gateway>?v=10&encoding=json&compress=zlib-stream`` (or ``zstd-stream`` when a
  zstd module is importable). We accept and ignore ``compress``: discord.py only decompresses
  *binary* frames, so plain text frames work whatever it asked for.
* We send HELLO; it sends a heartbeat at once and then every ``heartbeat_interval`` ms, which we ACK.
* IDENTIFY -> READY (guilds listed as unavailable) followed by one GUILD_CREATE per guild.
  discord.py sits on READY until no GUILD_CREATE arrived for ``guild_ready_timeout`` seconds
  (2 s by default) before it fires ``on_ready``; interactions are processed regardless.
* RESUME (after a dropped connection) -> missed events replayed, then RESUMED; an unknown session
  gets INVALID_SESSION (``d=false``) and discord.py identifies again.
* REQUEST_GUILD_MEMBERS (op 8, sent when the members intent makes discord.py chunk guilds) ->
  a single GUILD_MEMBERS_CHUNK.

Sessions outlive connections so that a restarted or reconnecting bot can resume; per shard, the most
recent session to IDENTIFY or RESUME is the one that receives dispatched events.

Shards, as on Discord: ``/gateway/bot`` recommends :attr:`Gateway.shard_count` shards; IDENTIFY may carry
``shard: [shard_id, count]`` (none means ``[0, 1]``, every guild). A session gets READY, GUILD_CREATE and
every guild event only for the guilds with ``(guild_id >> 22) % count == shard_id``, and events outside
any guild (DMs) only on shard 0. Several sessions (one per shard, from one process or several) are live
at once; an invalid shard closes the connection with 4010.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

_log = logging.getLogger(__name__)

JSON = dict[str, Any]

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE_STATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

CLOSE_AUTH_FAILED = 4004
CLOSE_ALREADY_AUTHENTICATED = 4005
CLOSE_NOT_AUTHENTICATED = 4003
CLOSE_INVALID_SHARD = 4010

#: How many past events a session keeps for RESUME.
REPLAY_BUFFER = 10_000


class Connection:
    """One websocket. Frames go through a queue so that dispatch order equals sequence order."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.session: Session | None = None
        self.writer = asyncio.create_task(self._write())

    def send(self, frame: JSON) -> None:
        self.queue.put_nowait(json.dumps(frame, separators=(",", ":")))

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None or self.ws.closed:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionResetError, RuntimeError):
                return

    async def close(self, code: int = 1000, message: str = "") -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self.writer
        if not self.ws.closed:
            await self.ws.close(code=code, message=message.encode())


#: ``(shard_id, shard_count)``: what IDENTIFY's ``shard`` field says; ``(0, 1)`` without it.
Shard = tuple[int, int]


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: the shard that receives a guild's events."""
    return (guild_id >> 22) % shard_count


#: Events whose payload is the guild itself (its id is ``id``, not ``guild_id``).
_GUILD_OBJECT_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def event_guild(event: str, data: JSON) -> int | None:
    """The guild an event belongs to, as Discord routes it (None: a DM or a user-level event, shard 0)."""
    raw = data.get("id") if event in _GUILD_OBJECT_EVENTS else data.get("guild_id")
    return None if raw is None else int(raw)


@dataclass
class Session:
    """A gateway session (survives reconnects, enables RESUME)."""

    id: str
    intents: int
    shard: Shard = (0, 1)
    seq: int = 0
    connection: Connection | None = None
    #: True once READY and every GUILD_CREATE have been queued.
    ready: bool = False
    replay: deque[JSON] = field(default_factory=lambda: deque(maxlen=REPLAY_BUFFER))
    events_sent: int = 0

    def dispatch(self, event: str, data: JSON) -> int:
        self.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.replay.append(frame)
        self.events_sent += 1
        if self.connection is not None:
            self.connection.send(frame)
        return self.seq

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives the events of ``guild_id`` (None: DMs, shard 0's)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id


class Gateway:
    """Accepts bot connections on ``/gateway`` and routes dispatched events to the live session."""

    def __init__(self, fake: FakeDiscord, *, heartbeat_interval_ms: int = 41_250, shard_count: int = 1) -> None:
        self._fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        #: The shard count ``/gateway/bot`` recommends (a bot not told otherwise runs this many).
        self.shard_count = shard_count
        self.sessions: dict[str, Session] = {}
        #: The session that receives each shard's events (the latest to IDENTIFY or RESUME on that shard).
        self.live: dict[Shard, Session] = {}
        #: The latest session to IDENTIFY or RESUME on any shard (what single-shard tests look at).
        self.current: Session | None = None
        self.connections: list[Connection] = []
        #: Number of IDENTIFY / RESUME handshakes that succeeded (useful in restart tests).
        self.identify_count = 0
        self.resume_count = 0
        #: How many of the next websocket handshakes to refuse (HTTP 503), as during a gateway outage.
        self.refusing = 0
        #: Handshakes refused so far.
        self.refused = 0
        #: Successful IDENTIFYs per shard.
        self.identified: dict[Shard, int] = {}
        # Presence (3) and voice state (4) updates are accepted and ignored.
        self._handlers: dict[int, Callable[[Connection, Any], Any]] = {
            OP_HEARTBEAT: self._on_heartbeat,
            OP_IDENTIFY: self._on_identify,
            OP_RESUME: self._on_resume,
            OP_REQUEST_MEMBERS: self._on_request_members,
        }

    # -- dispatch -----------------------------------------------------------

    def dispatch(self, event: str, data: JSON, *, intent: int | None = None) -> bool:
        """Sends ``event`` to the live session of every shard that owns its guild (see :func:`event_guild`);
        returns False when nobody would receive it."""
        guild_id = event_guild(event, data)
        sent = False
        for session in list(self.live.values()):
            if not session.owns(guild_id) or (intent is not None and not session.intents & intent):
                continue
            session.dispatch(event, data)
            sent = True
        return sent

    @property
    def connected(self) -> bool:
        """Whether the latest session is connected and has been sent its guilds."""
        return _up(self.current)

    def shard_connected(self, shard: Shard) -> bool:
        """Whether ``shard`` (``(shard_id, count)``) has a live, connected session that has been sent its guilds."""
        return _up(self.live.get(shard))

    def session_for(self, guild_id: int | None) -> Session | None:
        """The live session that receives ``guild_id``'s events (None: DMs), if any."""
        return next((s for s in self.live.values() if s.owns(guild_id)), None)

    # -- test controls --------------------------------------------------------

    async def drop(self, code: int = 4000, *, shard: Shard | None = None) -> None:
        """Closes the live connection (of ``shard``, default the latest session's) abruptly; discord.py
        will try to RESUME."""
        session = self.current if shard is None else self.live.get(shard)
        if session is not None and session.connection is not None:
            connection = session.connection
            session.connection = None
            await connection.close(code=code, message="dropped by test")
        self._fake.notify()

    def refuse(self, connections: int = 1) -> None:
        """Answers the next ``connections`` websocket handshakes with 503, as a gateway node that is down."""
        self.refusing += connections

    def request_reconnect(self) -> None:
        """Sends op 7 RECONNECT, as Discord does before moving a session to another node."""
        session = self.current
        if session is not None and session.connection is not None:
            session.connection.send({"op": OP_RECONNECT, "d": None})

    async def invalidate(self) -> None:
        """Forgets every session and drops the connection, as when a session expires.

        discord.py then tries to RESUME, gets INVALID_SESSION and identifies from scratch.
        Events dispatched before it has identified again are lost, like on Discord.
        """
        live = list(self.live.values())
        self.sessions.clear()
        self.live.clear()
        self.current = None
        for session in live:
            if session.connection is not None:
                connection = session.connection
                session.connection = None
                await connection.close(code=4000, message="session invalidated by test")
        self._fake.notify()

    async def close_all(self) -> None:
        for connection in list(self.connections):
            await connection.close(code=1001, message="server shutting down")

    # -- websocket handler ---------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        # discord.py passes v, encoding and compress; only JSON is supported here.
        encoding = request.query.get("encoding", "json")
        if encoding != "json":
            raise web.HTTPBadRequest(text=f"unsupported encoding {encoding!r}")
        if self.refusing > 0:
            self.refusing -= 1
            self.refused += 1
            self._fake.notify()
            return web.Response(status=503, text="gateway unavailable (refused by test)")
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws)
        self.connections.append(connection)
        connection.send({"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await connection.close(4002, "decode error")
                    break
                await self._on_frame(connection, frame)
        finally:
            self.connections.remove(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
            connection.queue.put_nowait(None)
            self._fake.notify()
        return ws

    async def _on_frame(self, connection: Connection, frame: JSON) -> None:
        handler = self._handlers.get(frame.get("op"))  # type: ignore[arg-type]
        if handler is None:
            return
        result = handler(connection, frame.get("d"))
        if asyncio.iscoroutine(result):
            await result

    def _on_heartbeat(self, connection: Connection, data: Any) -> None:
        connection.send({"op": OP_HEARTBEAT_ACK, "d": None})

    def _token_ok(self, token: Any) -> bool:
        if not isinstance(token, str):
            return False
        return token.removeprefix("Bot ").strip() == self._fake.token

    async def _on_identify(self, connection: Connection, data: JSON) -> None:
        if connection.session is not None:
            await connection.close(CLOSE_ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if not self._token_ok(data.get("token")):
            await connection.close(CLOSE_AUTH_FAILED, "Authentication failed.")
            return
        shard = _parse_shard(data.get("shard"))
        if shard is None:
            await connection.close(CLOSE_INVALID_SHARD, "Invalid shard.")
            return
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents", 0)), shard=shard)
        self.sessions[session.id] = session
        self._attach(connection, session)
        ready = self._fake._ready_payload(session, data.get("shard"))
        ready["guilds"] = [g for g in ready["guilds"] if session.owns(int(g["id"]))]
        session.dispatch("READY", ready)
        for guild_payload in self._fake._guild_create_payloads():
            if session.owns(int(guild_payload["id"])):
                session.dispatch("GUILD_CREATE", guild_payload)
        session.ready = True
        self.identify_count += 1
        self.identified[shard] = self.identified.get(shard, 0) + 1
        self._fake.notify()

    async def _on_resume(self, connection: Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not self._token_ok(data.get("token")):
            # d=false: not resumable, discord.py closes and sends a fresh IDENTIFY.
            connection.send({"op": OP_INVALID_SESSION, "d": False})
            return
        last_seen = int(data.get("seq") or 0)
        previous = session.connection
        self._attach(connection, session)
        if previous is not None and previous is not connection:
            await previous.close(4009, "session resumed elsewhere")
        for frame in session.replay:
            if frame["s"] > last_seen:
                connection.send(frame)
        session.dispatch("RESUMED", {})
        session.ready = True
        self.resume_count += 1
        self._fake.notify()

    def _attach(self, connection: Connection, session: Session) -> None:
        connection.session = session
        session.connection = connection
        self.live[session.shard] = session
        self.current = session

    def _on_request_members(self, connection: Connection, data: JSON) -> None:
        session = connection.session
        if session is None:
            return
        guild_ids = data.get("guild_id")
        if not isinstance(guild_ids, list):
            guild_ids = [guild_ids]
        for guild_id in guild_ids:
            if not session.owns(int(guild_id)):
                continue  # Discord answers only for the guilds of the connection's shard
            chunk = self._fake._members_chunk(int(guild_id), data)
            if chunk is not None:
                session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def _up(session: Session | None) -> bool:
    return session is not None and session.connection is not None and session.ready


def _parse_shard(raw: Any) -> Shard | None:
    """IDENTIFY's ``shard`` field as ``(shard_id, count)``; ``(0, 1)`` when absent, None when invalid."""
    if raw is None:
        return (0, 1)
    try:
        shard_id, count = (int(x) for x in raw)
    except (TypeError, ValueError):
        return None
    return (shard_id, count) if 0 <= shard_id < count else None

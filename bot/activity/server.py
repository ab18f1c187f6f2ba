"""The Activity's HTTP server (aiohttp): the page and its bundle, card faces, the OAuth2 endpoints, the WebSocket.

Started by the bot when ``TAVOLO_ACTIVITY_PORT`` is set (bot/client.py); nothing listens otherwise. Every response
carries the security headers (:data:`SECURITY_HEADERS` and a Content-Security-Policy that lets only Discord frame the
page). The endpoints follow docs/activity-protocol.md; the refusals are ``{"error": code, "text": …}`` in the
reader's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.i18n import SOURCE, normalize, using
from bot.tables.service import TableService

from . import texts
from .cards import card_png
from .discord_api import DiscordApi, DiscordRefused
from .frames import FrameError, parse
from .hub import Hub
from .limits import Attempt, LoginLimits, retry_after
from .sessions import SessionError, Signer

__all__ = ["CLOSE_CODES", "STATIC", "ActivityServer"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
#: the WebSocket close code of each fatal error
CLOSE_CODES = {
    "bad_session": 4001,
    "expired": 4002,
    "replayed": 4003,
    "wrong_origin": 4004,
    "hello_timeout": 4005,
    "bad_hello": 4006,
    "too_large": 4007,
    "elsewhere": 4009,
    "shutting_down": 4010,
}
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
#: the largest client frame a socket reads at all (beyond it aiohttp closes with 1009); up to it a frame over
#: frames.MAX_FRAME is refused with ``too_large`` and the socket stays open
_READ_MAX = 64 * 1024
_HTTP_BODY_MAX = 8 * 1024
_INSTANCE_ID = re.compile(r"^[A-Za-z0-9:._-]{1,128}$")
_CODE = re.compile(r"^[A-Za-z0-9._~-]{1,512}$")
_ACCESS = re.compile(r"^[A-Za-z0-9._~+/=-]{1,512}$")
_ASSET = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".map": "application/json",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".woff2": "font/woff2",
}

LocaleOf = Callable[[int, str | None], Awaitable[str]]


def _csp(origin: str) -> str:
    ws = origin.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            f"connect-src 'self' {origin} {ws}",
            "frame-ancestors https://discord.com https://*.discord.com https://*.discordsays.com",
            "base-uri 'none'",
            "form-action 'none'",
            "object-src 'none'",
        )
    )


def _accept_locale(request: web.Request) -> str:
    first = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0].strip()
    return normalize(first) if first else SOURCE


class ActivityServer:
    """One per bot process (with several shard processes, one of them: see docs/activity.md)."""

    def __init__(
        self,
        service: TableService,
        *,
        application_id: int,
        client_secret: str,
        bot_token: str,
        api_base: str | None,
        port: int,
        origin: str | None = None,
        host: str = "0.0.0.0",
        locale_of: LocaleOf | None = None,
        shards: tuple[int, tuple[int, ...]] | None = None,
        static_dir: Path = STATIC,
        hello_timeout: float = 5.0,
        clock: Callable[[], float] = time.time,
        rate: float = 8.0,
        burst: int = 20,
        client_address: str | None = None,
        limits: LoginLimits | None = None,
    ) -> None:
        self.service = service
        self.origin = origin or f"https://{application_id}.discordsays.com"
        self.port, self.host = port, host
        self.api = DiscordApi(
            application_id=application_id, client_secret=client_secret, bot_token=bot_token, api_base=api_base
        )
        self.signer = Signer(client_secret, clock=clock)
        self.hub = Hub(service, rate=rate, burst=burst)
        self.locale_of = locale_of
        #: (shard count, this process's shards) with several bot processes (TAVOLO_SHARD_COUNT/IDS), else None
        self.shards = shards
        self.static_dir = static_dir
        self.hello_timeout = hello_timeout
        #: where the client's own address is (``TAVOLO_ACTIVITY_CLIENT_ADDRESS``): None (it is nowhere: behind
        #: Discord's proxy every page arrives from Discord's addresses), ``"peer"``, or a header's name
        self.client_address = client_address
        self.limits = limits or LoginLimits()
        self._sockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self._csp = _csp(self.origin)
        self.app = web.Application(middlewares=[self._headers], client_max_size=_HTTP_BODY_MAX)
        self.app.router.add_get("/", self.index)
        self.app.router.add_get("/index.html", self.index)
        self.app.router.add_get("/assets/{name}", self.asset)
        self.app.router.add_get("/cards/{deck}/{code}.png", self.card)
        self.app.router.add_post("/api/token", self.token)
        self.app.router.add_post("/api/session", self.session)
        self.app.router.add_get("/api/ws", self.ws)
        for k in shards[1] if shards is not None else ():
            # the reverse proxy sends /shard/<k>/ to the process running shard k (docs/activity.md)
            self.app.router.add_get(f"/shard/{k}/api/ws", self.ws)

    def shard_of(self, guild_id: int) -> int | None:
        """The Discord shard of a guild with several bot processes (Discord's rule), else None."""
        return None if self.shards is None else (guild_id >> 22) % self.shards[0]

    def owns_guild(self, guild_id: int) -> bool:
        shard = self.shard_of(guild_id)
        return shard is None or self.shards is None or shard in self.shards[1]

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        self.hub.attach()
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # (tests: a free port chosen by the system)
            server = getattr(site, "_server", None)
            sockets = getattr(server, "sockets", None) or []
            if sockets:
                self.port = sockets[0].getsockname()[1]
        log.info("activity: listening on %s:%d for pages from %s", self.host, self.port, self.origin)

    async def stop(self) -> None:
        self.hub.detach()
        for ws in list(self._sockets):  # pages reconnect (to the next process) on 4010
            await self._fatal(ws, "shutting_down", SOURCE)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.api.close()

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    # ------------------------------------------------------------------ headers
    @web.middleware
    async def _headers(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as e:  # (a 404 and the like: raised on, with the headers too)
            self._secure(request, e)
            raise
        if not response.prepared:  # (a WebSocket's upgrade response is sent already)
            self._secure(request, response)
        return response

    def _secure(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        response.headers["Content-Security-Policy"] = self._csp
        if request.path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"

    # ------------------------------------------------------------------ static files and cards
    async def index(self, request: web.Request) -> web.StreamResponse:
        page = self.static_dir / "index.html"
        if not page.is_file():
            raise web.HTTPNotFound()
        return web.Response(body=page.read_bytes(), content_type="text/html", charset="utf-8")

    async def asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        path = self.static_dir / "assets" / name
        if not _ASSET.match(name) or path.suffix not in _TYPES or not path.is_file():
            raise web.HTTPNotFound()
        return web.Response(body=path.read_bytes(), headers={"Content-Type": _TYPES[path.suffix]})

    async def card(self, request: web.Request) -> web.StreamResponse:
        deck, code = request.match_info["deck"], request.match_info["code"]
        # drawing a deck's sheet the first time takes a moment of CPU: not on the event loop
        data = await asyncio.to_thread(card_png, deck, code)
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(body=data, headers={"Content-Type": "image/png", "Cache-Control": "public, max-age=86400"})

    # ------------------------------------------------------------------ OAuth2
    def _refusal(self, status: int, code: str, locale: str) -> web.Response:
        with using(locale):
            text = texts.refusal_text(code)
        return web.json_response({"error": code, "text": text}, status=status)

    def _address(self, request: web.Request) -> str | None:
        """The client's own address where the operator said where it is (see :mod:`.limits`), else None."""
        how = self.client_address
        if how is None:
            return None
        value = request.headers.get(how, "") if how != "peer" else ""
        # X-Forwarded-For: the last entry is the one the operator's own proxy appended (the earlier ones are the
        # client's word); a request without the header did not come through that proxy: its peer is the client
        last = value.split(",")[-1].strip()
        return last[:64] or request.remote or "?"

    def _too_many(self, locale: str, seconds: float) -> web.Response:
        response = self._refusal(429, "rate_limited", locale)
        response.headers["Retry-After"] = retry_after(seconds)
        return response

    async def _body(self, request: web.Request, keys: dict[str, re.Pattern[str]]) -> dict[str, str] | None:
        try:
            body = await request.json()
        except (ValueError, web.HTTPException):
            return None
        if not isinstance(body, dict) or set(body) - set(keys):
            return None
        out = {}
        for key, pattern in keys.items():
            value = body.get(key)
            if not isinstance(value, str) or not pattern.match(value):
                return None
            out[key] = value
        return out

    async def token(self, request: web.Request) -> web.StreamResponse:
        return await self._open(request, {"code": _CODE, "instance_id": _INSTANCE_ID})

    async def session(self, request: web.Request) -> web.StreamResponse:
        return await self._open(request, {"access_token": _ACCESS, "instance_id": _INSTANCE_ID})

    async def _open(self, request: web.Request, keys: dict[str, re.Pattern[str]]) -> web.StreamResponse:
        locale = _accept_locale(request)
        origin = request.headers.get("Origin")
        if origin is not None and origin != self.origin:
            return self._refusal(403, "wrong_origin", locale)
        body = await self._body(request, keys)
        if body is None:
            return self._refusal(400, "bad_request", locale)
        # charged to what the request names (its instance, its access token, later its user), never to an address
        # that every page behind the same proxy shares (bot/activity/limits.py)
        attempt = self.limits.before(
            body["instance_id"], access_token=body.get("access_token"), address=self._address(request)
        )
        if not isinstance(attempt, Attempt):
            log.info("activity: a session request for instance %s waits %.1f s", body["instance_id"][:32], attempt)
            return self._too_many(locale, attempt)
        try:
            access = body.get("access_token") or await self.api.exchange(body["code"])
            user = await self.api.user(access)
            wait = self.limits.user(user.id)
            if wait > 0:
                return self._too_many(locale, wait)
            instance = await self.api.instance(body["instance_id"])
        except DiscordRefused as e:
            log.info("activity: refused a session: %s", e)
            status = {"discord_unavailable": 503, "no_instance": 403}.get(e.code, 401)
            return self._refusal(status, e.code, locale)
        if self.locale_of is not None:
            locale = await self.locale_of(user.id, user.locale)
        elif user.locale:
            locale = normalize(user.locale)
        if user.id not in instance.users:
            return self._refusal(403, "not_participant", locale)
        if instance.channel_id is None or instance.guild_id is None:
            return self._refusal(403, "no_channel", locale)
        session = self.signer.issue(
            user_id=user.id,
            name=user.name,
            instance_id=instance.instance_id,
            channel_id=instance.channel_id,
            guild_id=instance.guild_id,
            locale=locale,
        )
        reply: dict[str, Any] = {
            "session": session,
            "expires_in": self.signer.ttl,
            "user": {"id": str(user.id), "name": user.name},
            "channel_id": str(instance.channel_id),
            "locale": locale,
            # the socket's path: with several processes, the one holding the channel's guild (its shard's path)
            "ws": "/api/ws" if (shard := self.shard_of(instance.guild_id)) is None else f"/shard/{shard}/api/ws",
        }
        if "code" in body:
            reply["access_token"] = access
        self.limits.succeeded(attempt, access_token=access)
        return web.json_response(reply)

    # ------------------------------------------------------------------ the WebSocket
    async def _fatal(self, ws: web.WebSocketResponse, code: str, locale: str) -> None:
        with using(locale):
            text = texts.refusal_text(code)
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(json.dumps({"t": "error", "code": code, "text": text}, ensure_ascii=False))
        await ws.close(code=CLOSE_CODES[code], message=code.encode())

    async def ws(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=_READ_MAX, heartbeat=30.0)
        locale = _accept_locale(request)
        await ws.prepare(request)
        if request.headers.get("Origin") != self.origin:
            await self._fatal(ws, "wrong_origin", locale)
            return ws
        try:
            async with asyncio.timeout(self.hello_timeout):
                msg = await ws.receive()
        except TimeoutError:
            await self._fatal(ws, "hello_timeout", locale)
            return ws
        if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
            return ws
        try:
            frame = parse(msg.data)
        except FrameError as e:
            await self._fatal(ws, "too_large" if e.code == "too_large" else "bad_hello", locale)
            return ws
        if frame["t"] != "hello":
            await self._fatal(ws, "bad_hello", locale)
            return ws
        try:
            session = self.signer.spend(frame["session"])
        except SessionError as e:
            log.info("activity: refused a socket: %s", e.code)
            await self._fatal(ws, e.code, locale)
            return ws
        if session.guild_id is not None and not self.owns_guild(session.guild_id):
            await self._fatal(ws, "elsewhere", session.locale)
            return ws
        lock = asyncio.Lock()

        async def send(frame: dict[str, Any]) -> None:
            text = json.dumps(frame, separators=(",", ":"), ensure_ascii=False)
            async with lock:
                await ws.send_str(text)

        self._sockets.add(ws)
        conn = await self.hub.open(session, send, renewed=self.signer.renew(session))
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self.hub.receive(conn, msg.data)
                elif msg.type is WSMsgType.BINARY:
                    await self.hub.receive(conn, b"\x00")  # a binary frame is no JSON text: refused as such
        finally:
            self._sockets.discard(ws)
            await self.hub.close(conn)
            log.info("activity: socket of user %s closed (%s)", session.user_id, ws.close_code)
        return ws

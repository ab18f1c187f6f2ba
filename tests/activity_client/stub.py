"""A small stand-in for the bot's Activity endpoints, speaking docs/activity-protocol.md, so the client's own
behaviour (layout, reconnects, refusals, confirmations) is tested without a whole game behind it.

It serves the committed bundle (bot/activity/static) with a strict Content-Security-Policy, card faces from the
bot's sprite code, the token and session endpoints, and one WebSocket per page over a scripted table: four seats,
the page's seat 0 holds ``hand``, playing a card moves it to the trick. Every frame it receives is recorded.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import secrets
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.images.sprites import draw_card

STATIC = Path(__file__).resolve().parents[2] / "bot" / "activity" / "static"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "frame-ancestors https://discord.com https://*.discordsays.com; base-uri 'none'; form-action 'none'"
)
#: the bot's client texts (bot/activity/texts.py), plus the confirmation that cogs/tables.py asks before leaving
TEXTS = {
    "connecting": "Connecting…",
    "reconnecting": "Reconnecting…",
    "disconnected": "The connection was lost.",
    "your_turn": "Your turn",
    "waiting": "Waiting for the other players…",
    "no_table": "No table here yet",
    "spectating": "You are watching this table.",
    "which_way": "Play it how?",
    "confirm": "Confirm",
    "hint": "Hint",
    "seconds_left": "{seconds} s left",
    "last_trick": "Previous trick",
    "finished": "This table is over.",
    "confirm_leave": "Leave the game? The computer will play your seat.",
    "yes_leave": "Yes, leave",
}
HAND = ["AS", "KS", "QH", "TD", "2C", "7H", "JD", "9S", "3C", "AH", "5D", "8C", "QS"]


class StubBot:
    def __init__(self, hand: list[str] | None = None, *, renew: bool = False, deadline: int | None = None) -> None:
        self.deadline = deadline  # epoch ms of the turn's end
        self.hand = list(hand or HAND[:10])
        self.renew = renew  # welcome hands over the session for the next reconnect
        self.trick: list[list[Any]] = []
        self.version = 1
        self.status = "running"
        self.codes = {"code-alice": "alice-token"}
        self.sessions: dict[str, bool] = {}  # session -> used
        self.session_requests = 0
        self.received: list[dict[str, Any]] = []
        self.sockets: list[web.WebSocketResponse] = []
        self.ws_paths: list[str] = []
        self.refuse_next: str | None = None
        #: api/token answers 429 "Not so fast" (Retry-After: 1) while set; every api/token request is counted
        self.limit_tokens = False
        self.token_requests = 0
        #: the bot is "restarting": its proxy answers 503 to the session and socket endpoints (counted) while set
        self.down = False
        self.down_hits = 0
        self._req = itertools.count(1)
        self._cards: dict[tuple[str, str], bytes] = {}
        self._runner: web.AppRunner | None = None
        self.url = ""

    # ---------------------------------------------------------------- the table
    def view(self) -> dict[str, Any]:
        legal = self.hand if self.status == "running" else []
        names = ["Alice", "Bob", "Carol", "Dave"]
        return {
            "game": "stub",
            "status": self.status,
            "seat": 0,
            "title": "Stub table",
            "description": "A **scripted** table",
            "sections": [{"name": "Score", "value": "0 : 0"}],
            "footer": "",
            "buttons": [{"op": "leave", "label": "Leave", "style": "danger"}],
            "levels": [],
            "scene": {
                "deck": "french",
                "seats": [
                    {"name": n, "line": f"{i} tricks", "active": i == 0, "team": None} for i, n in enumerate(names)
                ],
                "trick": self.trick,
                "last_trick": [[1, "2S"], [2, "3S"], [3, "4S"], [0, "5S"]],
                "centre_text": None,
                "centre_card": None,
                "trick_winner": None,
                "last_winner": 0,
                "bottom_seat": 2,  # the public picture's; the page puts its reader's seat at the bottom
                "clockwise": True,
            },
            "private": {
                "title": "Your hand",
                "description": "Play a card.",
                "sections": [],
                "footer": "",
                "controls": [
                    {
                        "kind": "select",
                        "placeholder": "Play a card",
                        "choices": [
                            {
                                "label": c,
                                "style": "secondary",
                                "description": None,
                                "action": {"type": "play", "card": c},
                            }
                            for c in legal
                        ],
                        "base_action": None,
                        "fields": [],
                    }
                ],
                "asks": [
                    {
                        "kind": "hand",
                        "prompt": "Play a card",
                        "cards": {
                            c: [{"label": c, "style": "primary", "action": {"type": "play", "card": c}}] for c in legal
                        },
                    }
                ]
                if legal
                else [],
                "hand": {"deck": "french", "cards": self.hand, "legal": legal, "groups": None, "why": {}, "idle": None},
                "hint": True,
            },
            "deadline": self.deadline,
            "to_move": [0] if self.status == "running" else [],
        }

    async def play(self, card: str) -> None:
        """Seat 0 plays ``card`` (also used by tests to change the table behind a dropped page's back)."""
        old = self.view()
        self.hand.remove(card)
        self.trick = [*self.trick, [0, card]]
        self.version += 1
        new = self.view()
        changed = {k: v for k, v in new.items() if old.get(k) != v}
        frame = {"t": "patch", "table": 7, "from": self.version - 1, "version": self.version, "set": changed, "del": []}
        for ws in list(self.sockets):
            if not ws.closed:
                await ws.send_json(frame)

    async def drop(self) -> None:
        """The network drops every page's socket."""
        for ws in list(self.sockets):
            await ws.close(code=1011)

    async def restart(self) -> None:
        """The bot stops (as bot/activity/server.py does: ``shutting_down``, close 4010) and stays down until the
        test sets ``down`` back to False."""
        self.down = True
        for ws in list(self.sockets):
            await ws.send_json({"t": "error", "code": "shutting_down", "text": "Tavolo is restarting; reconnecting…"})
            await ws.close(code=4010)

    # ---------------------------------------------------------------- HTTP
    async def start(self) -> StubBot:
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_get("/assets/{name}", self._asset)
        app.router.add_get("/cards/{deck}/{code}.png", self._card)
        app.router.add_post("/api/token", self._token)
        app.router.add_post("/api/session", self._session)
        app.router.add_get("/api/ws", self._ws)
        # what the bot names with several processes: the page must use the path the token reply gives
        app.router.add_get("/shard/1/api/ws", self._ws)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def stop(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Content-Security-Policy": CSP})

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in ("app.js", "app.css"):
            raise web.HTTPNotFound()
        return web.FileResponse(STATIC / "assets" / name, headers={"Content-Security-Policy": CSP})

    async def _card(self, request: web.Request) -> web.StreamResponse:
        key = (request.match_info["deck"], request.match_info["code"])
        if key not in self._cards:
            try:
                img = draw_card(*key)
            except (KeyError, ValueError):
                raise web.HTTPNotFound() from None
            buf = io.BytesIO()
            img.resize((img.width // 2, img.height // 2)).save(buf, "PNG")
            self._cards[key] = buf.getvalue()
        return web.Response(body=self._cards[key], content_type="image/png")

    def _new_session(self) -> str:
        s = secrets.token_urlsafe(12)
        self.sessions[s] = False
        return s

    def _unavailable(self) -> web.Response:
        self.down_hits += 1
        return web.Response(status=503, text="<html>bad gateway</html>", content_type="text/html")

    async def _token(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.token_requests += 1
        if self.limit_tokens:
            text = "Not so fast: wait a moment and try again."
            resp = web.json_response({"error": "rate_limited", "text": text}, status=429)
            resp.headers["Retry-After"] = "1"
            return resp
        token = self.codes.get(body.get("code"))
        if token is None:
            return web.json_response({"error": "bad_code", "text": "That sign-in did not work."}, status=401)
        return web.json_response(
            {
                "access_token": token,
                "session": self._new_session(),
                "expires_in": 600,
                "user": {"id": "1", "name": "Alice"},
                "channel_id": "100",
                "locale": "en-US",
                "ws": "/shard/1/api/ws",
            }
        )

    async def _session(self, request: web.Request) -> web.Response:
        if self.down:
            return self._unavailable()
        body = await request.json()
        if body.get("access_token") not in self.codes.values():
            return web.json_response({"error": "bad_token", "text": "Sign in again."}, status=401)
        self.session_requests += 1
        return web.json_response({"session": self._new_session(), "expires_in": 600})

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        if self.down:
            return self._unavailable()
        ws = web.WebSocketResponse(max_msg_size=4096)
        await ws.prepare(request)
        self.ws_paths.append(request.path)
        self.sockets.append(ws)
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                frame = json.loads(msg.data)
                self.received.append(frame)
                await self._frame(ws, frame)
        finally:
            self.sockets.remove(ws)
        return ws

    async def _frame(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        t = frame.get("t")
        if t == "hello":
            s = frame.get("session")
            if s not in self.sessions or self.sessions[s]:
                await ws.send_json({"t": "error", "code": "session", "text": "Session expired"})
                await ws.close(code=4001)
                return
            self.sessions[s] = True
            welcome = {"t": "welcome", "user": {"id": "1", "name": "Alice"}, "seat_of": {"7": 0}, "texts": TEXTS}
            if self.renew:
                welcome["session"] = self._new_session()
            await ws.send_json(welcome)
            await ws.send_json({"t": "table", "table": 7, "version": self.version, "view": self.view()})
        elif t == "ping":
            await ws.send_json({"t": "pong"})
        elif t == "act":
            req = frame["req"]
            if self.refuse_next:
                text, self.refuse_next = self.refuse_next, None
                await ws.send_json({"t": "refused", "req": req, "code": "illegal", "text": text})
                return
            if frame.get("version") != self.version:
                await ws.send_json({"t": "refused", "req": req, "code": "stale", "text": "Too late."})
                return
            card = (frame.get("action") or {}).get("card")
            if card not in self.hand:
                await ws.send_json({"t": "refused", "req": req, "code": "illegal", "text": "Not that card."})
                return
            await ws.send_json({"t": "ok", "req": req})
            await self.play(card)
        elif t == "lobby" and frame.get("op") == "hint":
            await ws.send_json({"t": "ok", "req": frame["req"], "text": "💡 The strong computer would play **K♠**."})
        elif t == "lobby":
            await ws.send_json({"t": "ok", "req": frame["req"]})
            if frame.get("op") == "leave":
                self.status = "finished"
                self.version += 1
                await ws.send_json({"t": "table", "table": 7, "version": self.version, "view": self.view()})


async def wait_for(pred: Any, timeout: float = 10.0) -> None:
    """Until ``pred()`` holds (polling the recorded frames; the browser runs at its own pace)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.02)

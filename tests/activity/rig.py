"""A page's side of the Activity, for tests: the OAuth2 calls and a WebSocket that keeps the views it was sent.

:class:`Page` does what the web client does (docs/activity-protocol.md): ``POST /api/token`` with the code the fake
Discord's ``authorize`` gives, then a socket that says hello, applies ``table`` and ``patch`` frames (a patch whose
``from`` is not the version held fails the test: the server must never send one) and records every frame.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
from fakediscord import FakeDiscord
from fakediscord.activity import Instance
from fakediscord.users import FakeUser

from bot.activity.server import ActivityServer
from bot.ledger import Ledger
from bot.storage.db import Database
from bot.tables.service import TableService

WAIT = 10.0


async def _inline(fn: Any, *args: Any) -> Any:
    return fn(*args)


async def make_service(path: str | Path = ":memory:", **kw: Any) -> TableService:
    db = await Database.open(path)
    return TableService(db, Ledger(db), agent_runner=_inline, **kw)


async def make_server(fake: FakeDiscord, service: TableService, **kw: Any) -> ActivityServer:
    server = ActivityServer(
        service,
        application_id=fake.application_id,
        client_secret=fake.activities.client_secret,
        bot_token=fake.token,
        api_base=fake.api_base,
        port=0,
        host="127.0.0.1",
        **kw,
    )
    await server.start()
    return server


async def until(predicate: Callable[[], Any], what: str, timeout: float = WAIT) -> None:
    """Poll a condition of the server's side (no event to wait on there) until it holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


class Page:
    """One page of one user (its HTTP session and, once connected, its socket)."""

    def __init__(self, server: ActivityServer, fake: FakeDiscord, user: FakeUser, instance: Instance) -> None:
        self.server, self.fake, self.user, self.instance = server, fake, user, instance
        self.http = aiohttp.ClientSession()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[dict[str, Any]] = []
        self.views: dict[int, dict[str, Any]] = {}
        self.versions: dict[int, int] = {}
        self.session: str | None = None
        self.access_token: str | None = None
        self.renewed: str | None = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self.closed: tuple[int | None, str] | None = None
        self.req = 0

    @property
    def origin(self) -> str:
        return self.server.origin

    async def post(self, path: str, body: Any, *, origin: str | None = None) -> tuple[int, dict[str, Any]]:
        headers = {"Origin": origin or self.origin}
        async with self.http.post(self.server.url + path, json=body, headers=headers) as resp:
            return resp.status, await resp.json()

    async def login(self) -> dict[str, Any]:
        code = self.fake.activities.authorize(self.user)
        status, data = await self.post("/api/token", {"code": code, "instance_id": self.instance.instance_id})
        assert status == 200, data
        self.session, self.access_token = data["session"], data["access_token"]
        return data

    async def connect(
        self, session: str | None = None, *, origin: str | None = None, hello: bool = True, path: str = "/api/ws"
    ) -> None:
        self.ws = await self.http.ws_connect(self.server.url + path, headers={"Origin": origin or self.origin})
        self.closed = None
        self._reader = asyncio.create_task(self._read(self.ws))
        if hello:
            await self.send({"t": "hello", "session": session or self.session, "known": dict(self.versions)})

    async def send(self, frame: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(frame if isinstance(frame, str) else json.dumps(frame))

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type is not aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            self._apply(frame)
            self.frames.append(frame)
            self._changed.set()
        self.closed = (ws.close_code, "")
        self._changed.set()

    def _apply(self, f: dict[str, Any]) -> None:
        if f["t"] == "welcome":
            self.renewed = f.get("session")
        elif f["t"] == "table":
            self.views[f["table"]] = f["view"]
            self.versions[f["table"]] = f["version"]
        elif f["t"] == "patch":
            tid = f["table"]
            assert tid in self.views, f"a patch for table {tid} before its full view"
            assert self.versions[tid] == f["from"], f"patch from {f['from']} onto version {self.versions[tid]}"
            view = dict(self.views[tid])
            view.update(f["set"])
            for key in f["del"]:
                view.pop(key, None)
            self.views[tid] = view
            self.versions[tid] = f["version"]
        elif f["t"] == "gone":
            self.views.pop(f["table"], None)
            self.versions.pop(f["table"], None)

    async def wait(self, predicate: Callable[[], Any], what: str = "", timeout: float = WAIT) -> Any:
        async def loop() -> Any:
            while True:
                value = predicate()
                if value:
                    return value
                self._changed.clear()
                await self._changed.wait()

        try:
            return await asyncio.wait_for(loop(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"{self.user.name}: timed out waiting for {what}; last frames {self.frames[-3:]}"
            ) from None

    async def reply(self, req: int) -> dict[str, Any]:
        def found() -> dict[str, Any] | None:
            return next((f for f in self.frames if f.get("req") == req and f["t"] in ("ok", "refused")), None)

        return await self.wait(found, f"the reply to {req}")

    async def request(self, frame: dict[str, Any]) -> dict[str, Any]:
        self.req += 1
        await self.send({**frame, "req": self.req})
        return await self.reply(self.req)

    async def lobby(self, table: int, op: str, **kw: Any) -> dict[str, Any]:
        return await self.request({"t": "lobby", "table": table, "op": op, **kw})

    async def act(self, table: int, action: dict[str, Any], version: int | None = None) -> dict[str, Any]:
        v = self.versions[table] if version is None else version
        return await self.request({"t": "act", "table": table, "version": v, "action": action})

    async def closed_with(self) -> int | None:
        await self.wait(lambda: self.closed is not None, "the socket to close")
        assert self.closed is not None
        return self.closed[0]

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["t"] == "error"]

    async def drop(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader

    async def close(self) -> None:
        await self.drop()
        await self.http.close()

"""A real game behind the stand-in bot: :class:`GameStub` serves the VIEWs the bot builds (bot/activity/views.py)
of one seat of a real engine's table, so the client is looked at — and tested — on every phase of every game
without the whole bot. The page's user sits at seat 0 and hosts the table; the other seats are played at random
(seeded) whenever the page's seat waits, each step pushed as the bot would push it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from aiohttp import web

from bot.activity import texts, views
from bot.games import registry
from bot.i18n import using
from bot.tables.model import Seat, Table

from .stub import StubBot

SEATS = {"wizard": 4, "mighty": 5, "mediatore": 4, "minchiate": 4}
NAMES = ["Alice", "Bruno", "Chiara", "Dario", "Elena", "Fabio"]
USER = 1


def new_table(game: str, seed: int, options: dict[str, Any] | None = None, seats: int | None = None) -> Table:
    n = seats or SEATS[game]
    spec = registry.get(game)
    people = [Seat(USER + i if i < 3 else None, NAMES[i], ai_level=None if i < 3 else "normal") for i in range(n)]
    opts = spec.engine.normalize_options(options or {}, n)
    t = Table(7, 10, 100, game, USER, opts, seed, "running", people, 60)
    t.game = spec.engine(n, opts, seed)
    return t


def random_action(rng: random.Random, t: Table, seat: int) -> dict[str, Any]:
    assert t.game is not None
    prompt = t.game.view(seat).get("prompt") or {}
    if prompt.get("kind") == "combo":
        action = {"type": prompt["type"], **(prompt.get("fixed") or {})}
        for f in prompt["fields"]:
            picked = rng.sample(list(f["from"]), f["count"])
            action[f["key"]] = picked[0] if f["count"] == 1 else sorted(picked)
        return action
    return rng.choice(t.game.legal_actions(seat))


def step(rng: random.Random, t: Table, seat: int | None = None) -> bool:
    """One action of ``seat`` (else of a seat to move); False when the game is over."""
    assert t.game is not None
    movers = t.game.to_move()
    if not movers or t.game.result() is not None:
        t.status = "finished"
        return False
    s = seat if seat is not None else movers[0]
    for _ in range(50):
        try:
            t.game.apply(s, random_action(rng, t, s))
        except Exception:  # a random combination the engine refuses: another one
            continue
        t.log.append((s, {}))
        break
    if t.game.result() is not None:
        t.status = "finished"
    return True


def advance(rng: random.Random, t: Table, until: Callable[[Table], bool], limit: int = 5000) -> bool:
    for _ in range(limit):
        if until(t):
            return True
        if not step(rng, t):
            return until(t)
    return False


class GameStub(StubBot):
    """The stand-in bot over a real table (its VIEWs are the bot's)."""

    def __init__(self, table: Table, *, seed: int = 1, locale: str = "en", auto: bool = True) -> None:
        super().__init__()
        self.table = table
        self.rng = random.Random(seed)
        self.locale = locale
        self.auto = auto  # the other seats play on after each of the page's actions
        self.acts: list[dict[str, Any]] = []

    def view(self) -> dict[str, Any]:
        t = self.table
        seat = t.seat_of(USER)
        with using(self.locale):
            return views.view_of(t, seat, None, USER)

    @property
    def welcome_texts(self) -> dict[str, str]:
        with using(self.locale):
            return texts.client_texts()

    async def push(self) -> None:
        self.version = self.table.version
        frame = {"t": "table", "table": 7, "version": self.version, "view": self.view()}
        for ws in list(self.sockets):
            if not ws.closed:
                await ws.send_json(frame)

    async def others(self) -> None:
        """The other seats play until the page's seat is to move (or the game ends), each step pushed."""
        t = self.table
        while t.game is not None and t.status == "running":
            movers = t.game.to_move()
            if not movers or 0 in movers:
                break
            step(self.rng, t, movers[0])
            await self.push()

    async def _frame(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        t = self.table
        kind = frame.get("t")
        if kind == "hello":
            s = frame.get("session")
            if s not in self.sessions or self.sessions[s]:
                await ws.send_json({"t": "error", "code": "session", "text": "Session expired"})
                await ws.close(code=4001)
                return
            self.sessions[s] = True
            welcome = {"t": "welcome", "user": {"id": "1", "name": "Alice"}, "seat_of": {"7": 0}}
            await ws.send_json({**welcome, "texts": self.welcome_texts})
            self.version = t.version
            await ws.send_json({"t": "table", "table": 7, "version": t.version, "view": self.view()})
        elif kind == "ping":
            await ws.send_json({"t": "pong"})
        elif kind == "act":
            self.acts.append(frame)
            req = frame["req"]
            assert t.game is not None
            action = frame.get("action") or {}
            if frame.get("version") != t.version:
                await ws.send_json({"t": "refused", "req": req, "code": "stale", "text": "Too late."})
                return
            try:
                t.game.apply(0, action)
            except Exception as e:
                await ws.send_json({"t": "refused", "req": req, "code": "illegal", "text": str(e)})
                return
            t.log.append((0, action))
            if t.game.result() is not None:
                t.status = "finished"
            await ws.send_json({"t": "ok", "req": req})
            await self.push()
            if self.auto:
                await self.others()
        elif kind == "lobby":
            await ws.send_json({"t": "ok", "req": frame["req"]})

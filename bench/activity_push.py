"""The Activity under load: N tables with 5 pages each on one bot process (a benchmark script, not a test).

A child process is the bot's side: the real table service (SQLite file) and the real Activity server, N Mighty
tables (one hand) with five human seats each, started; sessions are signed there directly (the OAuth2 login is not
what this measures). This process is the pages: 5·N WebSockets that say hello, keep their views from the frames,
and play — on every table at once, the seat to move sends a choice its own view offers, as a person tapping.

Prints: actions applied, wall time, push latency p50/p99/max from an action sent to the frame carrying the new
version received by **every** page of the table, the bot process's CPU per action (``time.process_time`` of the
child, which the pages' CPU does not disturb) and its frames per action, and the Discord requests per card the
Activity makes (none: it calls Discord only at a page's login — the Discord messages' own requests are the
front-end's, see docs/benchmarks.md).

Usage: nice -n 15 python bench/activity_push.py [--tables 100] [--actions-per-table 60] [--seed 1] [--think 1,3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import aiohttp  # noqa: E402

SEATS = 5
#: patches whose ``from`` was not the version the page held (the server must never send one)
MISMATCHES: list[tuple[int, int, int]] = []
ORIGIN = "http://bench.invalid"


# ---------------------------------------------------------------------------------------------- the bot's side
def _serve(tables: int, db_dir: str, conn: Any) -> None:
    asyncio.run(_serve_async(tables, db_dir, conn))


async def _serve_async(tables: int, db_dir: str, conn: Any) -> None:
    from bot.activity.server import ActivityServer
    from bot.games import registry
    from bot.ledger import Ledger
    from bot.storage.db import Database
    from bot.tables.service import TableService

    game = next(g for g in registry.ids() if registry.game_class(g).min_seats == SEATS)
    db = await Database.open(Path(db_dir) / "bench.db")
    service = TableService(db, Ledger(db))
    server = ActivityServer(
        service,
        application_id=1,
        client_secret="bench",
        bot_token="-",
        api_base="http://127.0.0.1:9",
        port=0,
        host="127.0.0.1",
        origin=ORIGIN,
        rate=1000.0,
        burst=1000,
    )
    await server.start()
    last: dict[int, int] = {}  # table -> its version at its last update (finished tables leave the service)

    async def seen(u: Any) -> None:
        last[u.table.id] = u.table.version

    service.listeners.append(seen)
    acts: list[float] = []  # how long TableService.act takes (lock, engine, the SQLite commit, the notifications)
    plain_act = service.act

    async def timed_act(*a: Any, **kw: Any) -> Any:
        started = time.perf_counter()
        try:
            return await plain_act(*a, **kw)
        finally:
            acts.append(time.perf_counter() - started)

    service.act = timed_act  # type: ignore[method-assign]
    sessions: dict[str, str] = {}
    ids = []
    for i in range(tables):
        channel = 10_000 + i
        users = [100_000 + i * SEATS + j for j in range(SEATS)]
        t = await service.create(
            guild_id=1,
            channel_id=channel,
            game_id=game,
            host_id=users[0],
            host_name=f"u{users[0]}",
            options={"hands": 1, "weak_hand_misdeal": False},
        )
        for u in users[1:]:
            await service.join(t.id, u, f"u{u}")
        await service.start(t.id, users[0])
        ids.append(t.id)
        for u in users:
            sessions[str(u)] = server.signer.issue(
                user_id=u, name=f"u{u}", instance_id=f"i{i}", channel_id=channel, guild_id=1, locale="en"
            )
    conn.send({"port": server.port, "tables": ids, "sessions": sessions})
    loop = asyncio.get_running_loop()
    while True:
        command = await loop.run_in_executor(None, conn.recv)
        if command == "cpu":
            pushed = sorted(x for c in server.hub.connections() for x in c.pushed)
            for c in server.hub.connections():
                c.pushed.clear()
            conn.send(
                {"cpu": time.process_time(), "frames": dict(server.hub.frames), "pushed": pushed, "acts": sorted(acts)}
            )
            acts.clear()
        elif command == "versions":
            conn.send({str(t): last.get(t, 0) for t in ids})
        else:
            break
    await server.stop()
    await service.idle()
    await db.close()


# ---------------------------------------------------------------------------------------------- the pages
class Page:
    def __init__(self, table: int) -> None:
        self.table = table
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.changed = asyncio.Event()
        self.replies: dict[int, dict[str, Any]] = {}
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def run(self, http: aiohttp.ClientSession, url: str, session: str) -> None:
        self.ws = await http.ws_connect(url, headers={"Origin": ORIGIN}, max_msg_size=0)
        await self.ws.send_str(json.dumps({"t": "hello", "session": session}))
        async for msg in self.ws:
            f = json.loads(msg.data)
            if f["t"] == "table":
                self.view, self.version = f["view"], f["version"]
            elif f["t"] == "patch":
                if self.view is None or f["from"] != self.version:  # never expected: counted and reported
                    MISMATCHES.append((self.table, f["from"], self.version))
                self.view = {**self.view, **f["set"]}
                self.version = f["version"]
            elif f["t"] in ("ok", "refused"):
                self.replies[f["req"]] = f
            self.changed.set()

    def choices(self) -> list[dict[str, Any]]:
        private = (self.view or {}).get("private") or {}
        out: list[dict[str, Any]] = []
        for c in private.get("controls") or []:
            if c["kind"] == "combo":
                out.append({"combo": c})
            else:
                out += [ch["action"] for ch in c["choices"]]
        return out


def _pick(rng: random.Random, page: Page) -> dict[str, Any]:
    choice = rng.choice(page.choices())
    if "combo" not in choice:
        return choice
    action = dict(choice["combo"]["base_action"] or {})
    for f in choice["combo"]["fields"]:
        values = [v for _, v in f["options"]]
        picked = rng.sample(values, min(f["count"], len(values)))
        action[f["key"]] = picked[0] if f["count"] == 1 else sorted(picked)
    return action


async def _until(pages: list[Page], predicate: Any) -> None:
    while not predicate():
        waits = [asyncio.create_task(p.changed.wait()) for p in pages]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for w in waits:
            w.cancel()
        for p in pages:
            p.changed.clear()


async def _drive(
    pages: list[Page], rng: random.Random, limit: int, latencies: list[float], think: tuple[float, float]
) -> int:
    sent = 0
    req = 0
    while sent < limit:
        v = max(p.version for p in pages)
        await _until(pages, lambda v=v: all(p.version == v for p in pages))
        if pages[0].view is None or pages[0].view["status"] != "running":
            return sent
        movers = [p for p in pages if p.choices()]
        if not movers:
            await _until(pages, lambda v=v: any(p.version > v for p in pages))
            continue
        page = rng.choice(movers)
        if think[1] > 0:
            await asyncio.sleep(rng.uniform(*think))  # a person looking at the hand before tapping
        req += 1
        started = time.perf_counter()
        assert page.ws is not None
        await page.ws.send_str(
            json.dumps({"t": "act", "req": req, "table": page.table, "version": v, "action": _pick(rng, page)})
        )
        await _until([page], lambda r=req, p=page: r in p.replies)
        if page.replies[req]["t"] != "ok":
            continue  # a random combo (e.g. a discard) the game refuses: pick again
        await _until(pages, lambda v=v: all(p.version > v for p in pages))
        latencies.append(time.perf_counter() - started)
        sent += 1
    return sent


async def _pages(args: argparse.Namespace, conn: Any, info: dict[str, Any]) -> None:
    url = f"http://127.0.0.1:{info['port']}/api/ws"
    rng = random.Random(args.seed)
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    tables: list[list[Page]] = []
    readers = []
    for i, tid in enumerate(info["tables"]):
        pages = [Page(tid) for _ in range(SEATS)]
        for j, p in enumerate(pages):
            readers.append(asyncio.create_task(p.run(http, url, info["sessions"][str(100_000 + i * SEATS + j)])))
        tables.append(pages)
    for pages in tables:
        await _until(pages, lambda pages=pages: all(p.view is not None for p in pages))
    conn.send("versions")
    start_versions = conn.recv()
    conn.send("cpu")
    cpu0 = conn.recv()
    wall0 = time.perf_counter()
    latencies: list[float] = []
    think = tuple(float(x) for x in args.think.split(","))
    drives = asyncio.gather(
        *(_drive(p, random.Random(rng.random()), args.actions_per_table, latencies, think) for p in tables)  # type: ignore[arg-type]
    )
    try:
        sent = await asyncio.wait_for(drives, args.timeout)
    except TimeoutError:
        for pages in tables:  # what a stuck table looks like from its pages
            if (pages[0].view or {}).get("status") == "running":
                print("still running:", pages[0].table, [p.version for p in pages], [len(p.choices()) for p in pages])
        raise
    wall = time.perf_counter() - wall0
    conn.send("cpu")
    cpu1 = conn.recv()
    conn.send("versions")
    end_versions = conn.recv()
    applied = sum(end_versions[k] - start_versions[k] for k in start_versions)
    frames = {k: cpu1["frames"].get(k, 0) - cpu0["frames"].get(k, 0) for k in cpu1["frames"]}
    lat = sorted(latencies)
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [lat[0]] * 99
    print(f"tables {len(tables)} x {SEATS} pages; page actions {sum(sent)}, actions applied {applied} in {wall:.1f} s")
    print(
        f"push latency action -> every page: p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms,"
        f" max {lat[-1] * 1000:.1f} ms"
    )
    pushed = cpu1["pushed"]
    if len(pushed) > 1:
        pq = statistics.quantiles(pushed, n=100)
        print(
            f"inside the bot, table update -> frame written to a socket: p50 {pq[49] * 1000:.1f} ms,"
            f" p99 {pq[98] * 1000:.1f} ms ({len(pushed)} pushes)"
        )
    if len(cpu1["acts"]) > 1:
        aq = statistics.quantiles(cpu1["acts"], n=100)
        print(
            f"inside the bot, TableService.act (lock, engine, SQLite commit, notifications): p50 {aq[49] * 1000:.1f} ms"
            f", p99 {aq[98] * 1000:.1f} ms, max {cpu1['acts'][-1] * 1000:.1f} ms"
        )
    print(f"bot CPU per action applied: {(cpu1['cpu'] - cpu0['cpu']) / max(1, applied) * 1000:.2f} ms")
    print(
        f"frames per action applied: {', '.join(f'{k} {v / max(1, applied):.2f}' for k, v in sorted(frames.items()))}"
    )
    print(f"patches not starting from the page's version: {len(MISMATCHES)} {MISMATCHES[:5]}")
    print("Discord requests per card made by the Activity: 0 (only a page's login calls Discord: 3 requests)")
    for r in readers:
        r.cancel()
    await http.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--actions-per-table", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds of play")
    ap.add_argument("--think", default="0,0", help="seconds a player takes per move: MIN,MAX (default 0,0)")
    args = ap.parse_args()
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    with tempfile.TemporaryDirectory() as tmp:
        proc = ctx.Process(target=_serve, args=(args.tables, tmp, child))
        proc.start()
        info = parent.recv()
        try:
            asyncio.run(_pages(args, parent, info))
        finally:
            parent.send("quit")
            proc.join(30)


if __name__ == "__main__":
    main()

"""Two processes writing one PostgreSQL ledger at once: every hand once, zero-sum, nothing lost."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot.ledger import Ledger, SeatRef
from bot.storage.db import Database

N = 400  # settlement attempts (and adjustments, every 5th) per process


async def test_two_processes_settle_and_adjust_concurrently(pg_url: str) -> None:
    worker = Path(__file__).with_name("ledger_worker.py")
    await (await Database.open(pg_url)).close()  # migrate first, so both workers start on the same schema
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable, str(worker), pg_url, str(w), str(N), stdout=asyncio.subprocess.PIPE
        )
        for w in (1, 2)
    ]
    outs = [json.loads((await p.communicate())[0]) for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    booked = [set(o["booked"]) for o in outs]
    hands = {i for i in range(N) if i % 5 != 4}
    assert booked[0] | booked[1] == hands and not booked[0] & booked[1]  # each booked once, by one of them

    db = await Database.open(pg_url)
    try:
        rows = await db.fetchall("SELECT key, COUNT(*) FROM settlements GROUP BY key HAVING COUNT(*) > 1")
        assert not rows
        assert (await db.fetchone("SELECT COUNT(*) FROM settlements"))[0] == len(hands)  # type: ignore[index]
        entries = await db.fetchone("SELECT COUNT(*) FROM entries WHERE settlement_id IS NOT NULL")
        assert entries is not None and entries[0] == 4 * len(hands)
        adjustments = await db.fetchone("SELECT COUNT(*) FROM entries WHERE kind = 'adjustment'")
        assert adjustments is not None and adjustments[0] == sum(o["adjusted"] for o in outs) == 2 * (N // 5)
        unbalanced = await db.fetchall(
            "SELECT settlement_id FROM entries WHERE settlement_id IS NOT NULL GROUP BY settlement_id"
            " HAVING SUM(amount) <> 0"
        )
        assert not unbalanced
        seasons = await db.fetchall("SELECT guild_id, COUNT(*) FROM seasons GROUP BY guild_id")
        assert sorted((int(g), int(c)) for g, c in seasons) == [(1, 1), (2, 1), (3, 1)]
        check = await db.fetchall(
            "SELECT guild_id, season_id, currency, COALESCE(game, ''), user_id, SUM(amount), SUM(played), SUM(won)"
            " FROM entries WHERE is_bot = 0 GROUP BY 1, 2, 3, 4, 5"
        )
        totals = await db.fetchall(
            "SELECT guild_id, season_id, currency, game, user_id, total, games, wins FROM ledger_totals"
        )
        assert sorted(tuple(r) for r in totals) == sorted(tuple(r) for r in check)
        # Both folded ratings while booking: every settlement applied exactly once (none skipped).
        applied = await db.fetchone(
            "SELECT COUNT(*), COUNT(DISTINCT settlement_id) FROM rating_applied"
            " WHERE settlement_id IN (SELECT id FROM settlements)"
        )
        assert applied is not None and tuple(applied) == (len(hands), len(hands))
    finally:
        await db.close()


async def test_settlement_ids_follow_commit_order_across_processes(pg_url: str) -> None:
    """A settlement booked while another process's booking is uncommitted waits for it, so it gets the higher id
    and commits after it: a reader never sees an id above one that is still to come (the ratings fold)."""
    first, second = await Database.open(pg_url), await Database.open(pg_url)  # two pools: two processes
    seats = [SeatRef(7, "a"), SeatRef(8, "b")]
    committed = asyncio.Event()
    tasks: list[asyncio.Task[Any]] = []
    try:
        for db, key in ((first, "warm-up:1"), (second, "warm-up:2")):  # opens guild 1's season
            await Ledger(db).settle(key=key, guild_id=1, game="wizard", table_id=0, hand_index=0,
                                    seats=seats, amounts={"stake": [1, -1]})  # fmt: skip
        booked_first = asyncio.Event()

        async def slow_booking() -> None:
            async with first.transaction() as conn:
                await Ledger(first).book(conn, key="slow", guild_id=1, game="wizard", table_id=1, hand_index=0,
                                         seats=seats, amounts={"stake": [2, -2]})  # fmt: skip
                booked_first.set()
                await committed.wait()

        slow = asyncio.create_task(slow_booking())
        tasks.append(slow)
        await booked_first.wait()
        fast = asyncio.create_task(
            Ledger(second).settle(
                key="fast", guild_id=1, game="wizard", table_id=2, hand_index=0, seats=seats, amounts={"stake": [3, -3]}
            )
        )

        tasks.append(fast)

        async def waiting_on_lock() -> bool:
            row = await first.fetchone("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
            return row is not None and row[0] == 1

        async with asyncio.timeout(10):
            while not await waiting_on_lock():  # the second booking queues behind the first's lock
                await asyncio.sleep(0)
        assert not fast.done()
        committed.set()
        await slow
        assert await fast
        rows = await first.fetchall("SELECT key FROM settlements ORDER BY id")
        assert [r[0] for r in rows][-2:] == ["slow", "fast"]
    finally:
        committed.set()  # a failed check must not leave the first transaction open while the pools close
        await asyncio.gather(*tasks, return_exceptions=True)
        await first.close()
        await second.close()

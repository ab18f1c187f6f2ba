"""Two processes writing one PostgreSQL ledger at once: every hand once, zero-sum, nothing lost."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from bot.db import Database

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
    finally:
        await db.close()

"""PostgresDatabase.listen / notify (the DM forwarding between bot processes): delivery, and a lost LISTEN
connection coming back."""

from __future__ import annotations

import asyncio

from bot.storage.db import Database


async def test_notify_reaches_listeners_and_a_dropped_listener_returns(pg_url: str) -> None:
    db = await Database.open(pg_url)
    got: list[str] = []
    arrived = asyncio.Event()

    def on_payload(payload: str) -> None:
        got.append(payload)
        arrived.set()

    stop = await db.listen("tavolo_test", on_payload)  # type: ignore[attr-defined]
    try:
        await db.notify("tavolo_test", "one")  # type: ignore[attr-defined]
        await asyncio.wait_for(arrived.wait(), 5)
        assert got == ["one"]

        # The server drops the listening connection (a restart, a network cut): it reconnects by itself.
        rows = await db.fetchall(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%tavolo_test%'"
        )
        assert [r[0] for r in rows] == [True]
        async with asyncio.timeout(15):
            while "two" not in got:  # notifications sent before it is back are missed: send until one arrives
                arrived.clear()
                await db.notify("tavolo_test", "two")  # type: ignore[attr-defined]
                try:
                    await asyncio.wait_for(arrived.wait(), 0.5)
                except TimeoutError:
                    continue
    finally:
        await stop()
        await db.close()
    assert got[0] == "one" and set(got[1:]) == {"two"}

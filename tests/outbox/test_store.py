"""The outbox store on both backends: rows written with an action, pending in order, sent/dropped once, and
retries whose time is stored (a restart keeps it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.outbox import MAX_BACKOFF, OutboxStore, backoff
from bot.storage.db import Database


@pytest.fixture(autouse=True)
def _both_backends(backend: str) -> str:
    return backend


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_rows_commit_with_the_action_and_keys_are_unique(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "t.db")
    store = OutboxStore(db)
    try:
        async with db.transaction() as conn:
            await store.add(conn, "t1:post:0", "post", guild_id=5, table_id=1, channel_id=9, payload={"hand": 0})
            await store.add(conn, "t1:render", "render", guild_id=5, table_id=1)
        # the same owed message written again (a replay of the same action) is not a second row
        async with db.transaction() as conn:
            await store.add(conn, "t1:post:0", "post", guild_id=5, table_id=1, channel_id=9, payload={"hand": 99})
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await store.add(conn, "t1:post:1", "post", guild_id=5, table_id=1, channel_id=9)
                raise RuntimeError("the action failed: its owed messages go with it")
        rows = await store.pending()
        assert [(r.key, r.kind, r.payload) for r in rows] == [
            ("t1:post:0", "post", {"hand": 0}),
            ("t1:render", "render", {}),
        ]
        assert [r.key for r in await store.pending(kinds=["render"])] == ["t1:render"]
        assert await store.pending(table_id=2) == []
        assert rows[0].nonce != rows[1].nonce and len(rows[0].nonce) <= 25
    finally:
        await db.close()


async def test_sent_and_dropped_are_final(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "t.db")
    store = OutboxStore(db)
    try:
        async with db.transaction() as conn:
            for k in ("a", "b", "c"):
                await store.add(conn, k, "post", guild_id=5, channel_id=9)
        a, b, _c = await store.pending()
        await store.sent(a.id, 1234)
        await store.dropped(b.id, "403 Forbidden (error code: 50001): Missing Access")
        await store.dropped(a.id, "too late: it was sent")  # a sent row stays sent
        assert [r.key for r in await store.pending()] == ["c"]
        got_a, got_b = await store.get("a"), await store.get("b")
        assert got_a is not None and (got_a.state, got_a.message_id, got_a.last_error) == ("sent", 1234, None)
        assert got_b is not None and got_b.state == "dropped" and "50001" in (got_b.last_error or "")
    finally:
        await db.close()


async def test_retries_back_off_and_the_schedule_survives_a_reopen(tmp_path: Path) -> None:
    clock = Clock()
    db = await Database.open(tmp_path / "t.db")
    store = OutboxStore(db, clock=clock)
    async with db.transaction() as conn:
        await store.add(conn, "a", "post", guild_id=5, channel_id=9)
    (row,) = await store.pending()
    assert row.next_attempt_at == clock.now and row.attempts == 0
    assert await store.retry_later(row, "503 Service Unavailable") == clock.now + 1
    assert await store.retry_later(row, "503 Service Unavailable") == clock.now + 2
    # Discord's Retry-After wins over a shorter backoff
    assert await store.retry_later(row, "503", retry_after=30) == clock.now + 30
    await db.close()

    db = await Database.open(tmp_path / "t.db")
    try:
        (again,) = await OutboxStore(db, clock=clock).pending()
        assert (again.attempts, again.next_attempt_at, again.last_error) == (3, clock.now + 30, "503")
    finally:
        await db.close()


def test_backoff_grows_to_a_ceiling() -> None:
    assert [backoff(n) for n in (1, 2, 3, 4)] == [1, 2, 4, 8]
    assert backoff(50) == MAX_BACKOFF
    assert backoff(1, retry_after=7.5) == 7.5

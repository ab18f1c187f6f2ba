"""bot.storage.db on PostgreSQL (a real server, tests/pgserver.py): migrations, transactions, readers, errors."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage.db import Database, IntegrityError, MigrationError, load_migrations
from bot.storage.postgres import PostgresDatabase


@pytest.fixture
async def db(pg_url: str) -> AsyncIterator[Database]:
    database = await Database.open(pg_url)
    try:
        yield database
    finally:
        await database.close()


async def _count(db: Database) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM seasons")
    assert row is not None
    return int(row[0])


async def test_open_dispatches_and_migrates_once(pg_url: str) -> None:
    db = await Database.open(pg_url)
    try:
        assert isinstance(db, PostgresDatabase) and db.dialect == "postgres"
        assert await db.applied_migrations() == [(m.version, m.name) for m in load_migrations()]
        first = await db.fetchall("SELECT version, applied_at FROM schema_migrations ORDER BY version")
        tables = {r[0] for r in await db.fetchall("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert {"seasons", "settlements", "entries", "ledger_totals", "game_tables", "tournaments", "ratings"} <= tables
        assert {"seasons", "settlements", "entries", "game_tables", "tournaments"} <= db.identity_tables
    finally:
        await db.close()
    async with Database(pg_url) as again:
        assert [tuple(r) for r in await again.fetchall("SELECT version, applied_at FROM schema_migrations")] == [
            tuple(r) for r in first
        ]


async def test_processes_starting_together_apply_each_migration_once(pg_url: str) -> None:
    dbs = await asyncio.gather(*(Database.open(pg_url) for _ in range(3)))
    try:
        rows = await dbs[0].fetchall("SELECT version, COUNT(*) FROM schema_migrations GROUP BY version")
        assert all(int(r[1]) == 1 for r in rows) and len(rows) == len(load_migrations())
    finally:
        for d in dbs:
            await d.close()


async def test_failed_migration_rolls_back(pg_url: str, tmp_path: object) -> None:
    from pathlib import Path

    mig = Path(str(tmp_path)) / "migs"
    mig.mkdir()
    (mig / "001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
    (mig / "002_bad.sql").write_text("CREATE TABLE b (x INTEGER);\nINSERT INTO nope VALUES (1);\n")
    with pytest.raises(MigrationError, match="002_bad"):
        await Database.open(pg_url, migrations_dir=mig)
    (mig / "002_bad.sql").write_text("CREATE TABLE b (x INTEGER);")
    async with Database(pg_url, migrations_dir=mig) as db:
        assert await db.applied_migrations() == [(1, "ok"), (2, "bad")]


async def test_transactions_commit_roll_back_and_do_not_nest(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (?, 1, 'x')", (1 << 60,))
    assert await _count(db) == 1
    row = await db.fetchone("SELECT guild_id FROM seasons")
    assert row is not None and row[0] == 1 << 60  # snowflakes need 64 bits
    with pytest.raises(RuntimeError, match="boom"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (2, 1, 'x')")
            raise RuntimeError("boom")
    assert await _count(db) == 1
    async with db.transaction():
        with pytest.raises(RuntimeError, match="nested"):
            async with db.transaction():
                pass


async def test_writes_are_serialized_and_lastrowid_rowcount_work(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE counter (n INTEGER)")
        await conn.execute("INSERT INTO counter VALUES (0)")

    async def bump() -> None:
        async with db.transaction() as conn:
            rows = list(await conn.execute_fetchall("SELECT n FROM counter"))
            await asyncio.sleep(0)
            cur = await conn.execute("UPDATE counter SET n = ?", (rows[0][0] + 1,))
            assert cur.rowcount == 1

    await asyncio.gather(*(bump() for _ in range(50)))
    row = await db.fetchone("SELECT n FROM counter")
    assert row is not None and row[0] == 50
    async with db.transaction() as conn:
        a = await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (5, 1, 'x')")
        b = await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (6, 1, 'x')")
    assert a.lastrowid is not None and b.lastrowid == a.lastrowid + 1


async def test_reader_sees_committed_data_only(db: Database) -> None:
    inside, release = asyncio.Event(), asyncio.Event()

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
            assert await _count(db) == 1  # its own write, through the transaction
            inside.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await inside.wait()
    assert await _count(db) == 0  # another connection: committed data only, without waiting
    async with db.reader() as conn:
        rows = list(await conn.execute_fetchall("SELECT COUNT(*) FROM seasons"))
        assert rows[0][0] == 0
    release.set()
    await task
    assert await _count(db) == 1


async def test_append_only_triggers_raise_integrity_error(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
    for sql in ("DELETE FROM seasons", "UPDATE seasons SET number = 5"):
        with pytest.raises(IntegrityError, match="season"):
            async with db.transaction() as conn:
                await conn.execute(sql)
    with pytest.raises(IntegrityError):  # unique (guild_id, number)
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'y')")
    with pytest.raises(IntegrityError):  # CHECK (json_valid(...)) through the bootstrap's json_valid()
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO tournament_tables (tournament_id, round, table_no, seats_json) VALUES (1, 1, 1, 'nope')"
            )


async def test_cancelled_transaction_rolls_back_and_close_gives_up_on_a_stuck_one(pg_url: str) -> None:
    db = await Database.open(pg_url)
    started = asyncio.Event()

    async def stuck() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
            started.set()
            await asyncio.sleep(3600)

    task = asyncio.create_task(stuck())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await _count(db) == 0
    started.clear()
    task = asyncio.create_task(stuck())
    await started.wait()
    await db.close(timeout=0.05)
    task.cancel()
    with pytest.raises(BaseException):  # noqa: B017 - cancelled, or the connection was cut under it
        await task
    async with Database(pg_url) as again:
        assert await _count(again) == 0  # never committed
    with pytest.raises(RuntimeError, match="not open"):
        async with db.transaction():
            pass

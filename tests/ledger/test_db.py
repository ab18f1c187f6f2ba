"""bot.storage.db: opening, pragmas, migrations (fresh, re-open, upgrade, failure) and transactions."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.db import MIGRATIONS_DIR, Database, MigrationError, load_migrations, split_sql


@pytest.fixture
async def mem_db() -> AsyncIterator[Database]:
    db = await Database.open(":memory:")
    try:
        yield db
    finally:
        await db.close()


@pytest.fixture
async def file_db(tmp_path: Path) -> AsyncIterator[Database]:
    db = await Database.open(tmp_path / "f.db")
    try:
        yield db
    finally:
        await db.close()


async def _tables(db: Database) -> set[str]:
    rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {r[0] for r in rows}


# -- migrations ------------------------------------------------------------------------------------------
def test_shipped_migrations_are_numbered_and_parse() -> None:
    migs = load_migrations()
    assert [m.version for m in migs][:1] == [1]
    assert migs[0].name == "ledger"
    versions = [m.version for m in migs]
    assert versions == sorted(set(versions))
    for m in migs:
        assert m.statements(), m.path


async def test_migrations_apply_to_empty_memory_db(mem_db: Database) -> None:
    applied = await mem_db.applied_migrations()
    assert applied == [(m.version, m.name) for m in load_migrations()]
    assert {"seasons", "settlements", "entries", "schema_migrations"} <= await _tables(mem_db)
    fk = await mem_db.fetchone("PRAGMA foreign_keys")
    assert fk is not None and fk[0] == 1


async def test_file_db_creates_dirs_sets_pragmas_and_reopen_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "tavolo.db"
    db = await Database.open(path)
    try:
        assert path.exists()
        mode = await db.fetchone("PRAGMA journal_mode")
        assert mode is not None and mode[0] == "wal"
        timeout = await db.fetchone("PRAGMA busy_timeout")
        assert timeout is not None and timeout[0] == 5000
        first = await db.fetchall("SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
    finally:
        await db.close()

    db = await Database.open(path)
    try:
        again = await db.fetchall("SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
        assert [tuple(r) for r in again] == [tuple(r) for r in first]  # nothing re-applied
        row = await db.fetchone("SELECT COUNT(*) FROM seasons")
        assert row is not None and row[0] == 1  # data kept
    finally:
        await db.close()


async def test_upgrade_from_previous_version(tmp_path: Path) -> None:
    """A database made by an older release (only 001) gets the later migrations, and only those."""
    old_dir, new_dir = tmp_path / "old", tmp_path / "new"
    old_dir.mkdir()
    shutil.copytree(MIGRATIONS_DIR, new_dir)
    shutil.copy(MIGRATIONS_DIR / "001_ledger.sql", old_dir)
    (new_dir / "900_extra.sql").write_text(
        "-- a later migration; the ';' in this comment and in the string must not split it\n"
        "CREATE TABLE extra (x TEXT DEFAULT 'a;b');\n"
        "CREATE TRIGGER extra_t AFTER INSERT ON extra BEGIN SELECT 1; SELECT 2; END;\n"
        "INSERT INTO extra DEFAULT VALUES;\n"
    )
    path = tmp_path / "db.sqlite"
    async with Database(path, migrations_dir=old_dir) as db:
        assert await db.applied_migrations() == [(1, "ledger")]
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
    async with Database(path, migrations_dir=new_dir) as db:
        applied = await db.applied_migrations()
        assert applied == [(m.version, m.name) for m in load_migrations(new_dir)]
        assert applied[-1] == (900, "extra")
        row = await db.fetchone("SELECT x FROM extra")
        assert row is not None and row[0] == "a;b"
        row = await db.fetchone("SELECT COUNT(*) FROM seasons")
        assert row is not None and row[0] == 1


async def test_failed_migration_rolls_back_entirely(tmp_path: Path) -> None:
    mig = tmp_path / "migs"
    mig.mkdir()
    (mig / "001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
    (mig / "002_bad.sql").write_text("CREATE TABLE b (x INTEGER);\nINSERT INTO nope VALUES (1);\n")
    path = tmp_path / "db.sqlite"
    with pytest.raises(MigrationError, match="002_bad"):
        await Database.open(path, migrations_dir=mig)
    conn = sqlite3.connect(path)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert "a" in names and "b" not in names  # 002 left nothing behind
        assert conn.execute("SELECT version FROM schema_migrations").fetchall() == [(1,)]
    finally:
        conn.close()
    # Fixing the file lets the next start apply it.
    (mig / "002_bad.sql").write_text("CREATE TABLE b (x INTEGER);")
    async with Database(path, migrations_dir=mig) as db:
        assert await db.applied_migrations() == [(1, "ok"), (2, "bad")]


def test_split_sql_and_its_guards(tmp_path: Path) -> None:
    stmts = split_sql("CREATE TABLE t (s TEXT DEFAULT ';');\n-- c;\nCREATE TRIGGER x AFTER INSERT ON t "
                      "BEGIN SELECT 1; END;\n/* trailing; */\n")  # fmt: skip
    assert len(stmts) == 2 and stmts[1].endswith("END;")
    with pytest.raises(MigrationError, match="transactions"):
        split_sql("BEGIN;\nCREATE TABLE t (x);\nCOMMIT;")
    assert len(split_sql("CREATE TABLE t (x);\nCREATE TABLE u (y)")) == 2  # last ';' may be omitted
    with pytest.raises(MigrationError, match="unterminated"):
        split_sql("CREATE TABLE t (x);\nCREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT 1;\n")
    d = tmp_path / "dup"
    d.mkdir()
    (d / "001_a.sql").write_text("SELECT 1;")
    (d / "0001_b.sql").write_text("SELECT 1;")
    (d / "README.md").write_text("ignored")
    with pytest.raises(MigrationError, match="duplicate"):
        load_migrations(d)


# -- transactions ----------------------------------------------------------------------------------------
async def _count(db: Database) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM seasons")
    assert row is not None
    return int(row[0])


@pytest.mark.parametrize("kind", ["memory", "file"])
async def test_transaction_commits_and_rolls_back(kind: str, tmp_path: Path) -> None:
    db = await Database.open(":memory:" if kind == "memory" else tmp_path / "t.db")
    try:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
        assert await _count(db) == 1
        with pytest.raises(RuntimeError, match="boom"):
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (2, 1, 'x')")
                raise RuntimeError("boom")
        assert await _count(db) == 1
        assert not db.conn.in_transaction
    finally:
        await db.close()


async def test_nested_transaction_is_an_error_not_a_deadlock(mem_db: Database) -> None:
    async with mem_db.transaction():
        with pytest.raises(RuntimeError, match="nested"):
            async with mem_db.transaction():
                pass
        assert mem_db.in_transaction
    assert not mem_db.in_transaction


@pytest.mark.parametrize("kind", ["memory", "file"])
async def test_transactions_are_serialized(kind: str, tmp_path: Path) -> None:
    """Read-modify-write with an await in the middle must not lose updates."""
    db = await Database.open(":memory:" if kind == "memory" else tmp_path / "s.db")
    try:
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE counter (n INTEGER)")
            await conn.execute("INSERT INTO counter VALUES (0)")

        async def bump() -> None:
            async with db.transaction() as conn:
                rows = list(await conn.execute_fetchall("SELECT n FROM counter"))
                await asyncio.sleep(0)
                await conn.execute("UPDATE counter SET n = ?", (rows[0][0] + 1,))

        await asyncio.gather(*(bump() for _ in range(50)))
        row = await db.fetchone("SELECT n FROM counter")
        assert row is not None and row[0] == 50
    finally:
        await db.close()


@pytest.mark.parametrize("kind", ["memory", "file"])
async def test_reader_never_sees_uncommitted_writes(kind: str, tmp_path: Path) -> None:
    db = await Database.open(":memory:" if kind == "memory" else tmp_path / "r.db")
    try:
        inside = asyncio.Event()
        release = asyncio.Event()

        async def writer() -> None:
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
                # Inside the transaction, this task reads its own write.
                assert await _count(db) == 1
                inside.set()
                await release.wait()

        task = asyncio.create_task(writer())
        await inside.wait()
        read = asyncio.create_task(_count(db))
        if kind == "file":
            # WAL snapshot: committed data only, answered while the writer still holds its transaction (no waiting
            # for it: the writer is released only after this read is done)
            assert await asyncio.wait_for(read, timeout=30) == 0
        else:
            await asyncio.sleep(0.05)
            assert not read.done()  # :memory: readers wait for the writer
        release.set()
        await task
        if kind == "memory":
            assert await read == 1
        assert await _count(db) == 1
    finally:
        await db.close()


async def test_cancelled_transaction_rolls_back_and_db_stays_usable(mem_db: Database) -> None:
    started = asyncio.Event()

    async def slow() -> None:
        async with mem_db.transaction() as conn:
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
            started.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await _count(mem_db) == 0
    async with mem_db.transaction() as conn:
        await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
    assert await _count(mem_db) == 1


async def test_closed_database_refuses_work(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "c.db")
    await db.close()
    await db.close()  # idempotent
    with pytest.raises(RuntimeError, match="not open"):
        async with db.transaction():
            pass


async def test_task_outliving_a_transaction_is_not_inside_it(mem_db: Database) -> None:
    """A task spawned inside a transaction inherits its context; once the transaction is over it must not
    believe it still holds it (it would write into whichever transaction is open next)."""
    go = asyncio.Event()

    async def late() -> bool:
        await go.wait()
        return mem_db.in_transaction

    async with mem_db.transaction():
        task = asyncio.create_task(late())
        assert mem_db.in_transaction
    async with mem_db.transaction():
        go.set()
        assert await task is False


async def test_close_waits_for_a_running_transaction(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "w.db")
    started = asyncio.Event()

    async def work() -> None:
        async with db.transaction() as conn:
            started.set()
            await asyncio.sleep(0.05)
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")

    task = asyncio.create_task(work())
    await started.wait()
    await db.close()  # waits for the commit instead of cutting the transaction off
    await task
    async with Database(tmp_path / "w.db") as again:
        assert await _count(again) == 1


async def test_close_gives_up_on_a_stuck_transaction(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "stuck.db")
    started = asyncio.Event()

    async def stuck() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO seasons (guild_id, number, started_at) VALUES (1, 1, 'x')")
            started.set()
            await asyncio.sleep(3600)

    task = asyncio.create_task(stuck())
    await started.wait()
    await db.close(timeout=0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with Database(tmp_path / "stuck.db") as again:
        assert await _count(again) == 0  # never committed

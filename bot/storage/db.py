"""The database: SQLite (the default) or PostgreSQL, one interface; numbered migrations, serialized writes.

``Database.open(target)`` takes a SQLite path (or ``:memory:``) or a ``postgresql://`` URL; for the latter it
returns a :class:`bot.storage.postgres.PostgresDatabase` (asyncpg), which offers the same methods and connection
interface (:class:`Connection`) and translates the SQLite-flavoured SQL of the services
(:mod:`bot.storage.dialect`). What both share (the interface, migrations files, :class:`DatabaseBase`) is
in :mod:`bot.storage.base` and re-exported here. What follows describes the SQLite backend; the PostgreSQL one
documents its differences.

Usage::

    db = await Database.open("data/tavolo.db")
    async with db.transaction() as conn:      # BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error)
        await conn.execute("INSERT ...")
    async with db.reader() as conn:           # a consistent, committed-only view for queries
        rows = await conn.execute_fetchall("SELECT ...")
    await db.close()

Design notes (why it looks like this):

* **One writer.** SQLite allows a single writer at a time anyway; funnelling every write through one
  connection guarded by an :class:`asyncio.Lock` means a transaction opened by one coroutine can never
  see (or be committed by) statements of another coroutine sharing the connection. ``BEGIN IMMEDIATE``
  takes the write lock up front, so a transaction never fails half-way with ``SQLITE_BUSY`` on upgrade.
* **Separate reader.** Because the writer connection may hold an uncommitted transaction while it
  awaits, queries must not run on it (they would see rows that may still be rolled back). File
  databases get a second, ``query_only`` connection: in WAL mode it reads the last committed snapshot
  without blocking or being blocked by the writer. ``:memory:`` databases cannot be shared between
  connections, so there :meth:`Database.reader` borrows the writer under the same lock.
* **Re-entrancy is an error, not a deadlock.** A context variable remembers which databases the current
  task is inside a transaction of: a nested :meth:`Database.transaction` raises :class:`RuntimeError`,
  and :meth:`Database.reader` inside a transaction reuses the transaction's connection (so a service can
  read its own uncommitted writes).
* **Migrations** are ``bot/migrations/NNN_name.sql`` files, applied in version order, each exactly once
  and each in its own transaction together with its ``schema_migrations`` row, so a crash mid-way leaves
  either the whole migration or none of it. Files must not contain ``BEGIN``/``COMMIT`` themselves, and
  ``PRAGMA foreign_keys`` inside one has no effect (SQLite ignores it within a transaction).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite

from bot.storage.base import (
    _ACTIVE_TX,
    _IS_APPLIED,
    LOCK_RATINGS,
    LOCK_SETTLEMENTS,
    MIGRATIONS_DIR,
    Connection,
    Cursor,
    DatabaseBase,
    IntegrityError,
    Migration,
    MigrationError,
    is_postgres_url,
    load_migrations,
    split_sql,
)

__all__ = [
    "LOCK_RATINGS",
    "LOCK_SETTLEMENTS",
    "MIGRATIONS_DIR",
    "Connection",
    "Cursor",
    "Database",
    "DatabaseBase",
    "IntegrityError",
    "Migration",
    "MigrationError",
    "is_postgres_url",
    "load_migrations",
    "split_sql",
]

log = logging.getLogger(__name__)

T = TypeVar("T")


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back after an error without masking it.

    Shielded so that it also completes on cancellation: aiosqlite runs statements in FIFO order on its
    own thread, so the ROLLBACK is queued before any later BEGIN even if we are cancelled again. A
    connection already closed (shutdown gave up waiting) has nothing left to roll back.
    """
    try:
        if conn.in_transaction:
            await asyncio.shield(conn.execute("ROLLBACK"))
    except (ValueError, sqlite3.Error) as exc:  # aiosqlite raises ValueError on a closed connection
        log.warning("rollback failed: %s", exc)


def _is_memory(path: str) -> bool:
    return path in ("", ":memory:")


class Database(DatabaseBase):
    """An open SQLite database (see the module docstring). Create with :meth:`open`; a ``postgresql://`` target
    makes a :class:`~bot.storage.postgres.PostgresDatabase` instead."""

    dialect = "sqlite"

    def __new__(cls, path: str | os.PathLike[str], **options: Any) -> Database:
        if cls is Database and is_postgres_url(path):
            # asyncpg only when a server is configured. The backend is built whole here: it is not a subclass
            # (both share DatabaseBase), so Python does not call Database.__init__ on it afterwards.
            from bot.storage.postgres import PostgresDatabase

            return PostgresDatabase(path, **options)  # type: ignore[return-value]
        return super().__new__(cls)

    # -- transactions ----------------------------------------------------------------------------------
    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        migrations_dir: Path | None = None,
        busy_timeout_ms: int = 5000,
        cache_mib: int = 32,
    ) -> None:
        self.path = os.fspath(path)
        self.migrations_dir = migrations_dir or MIGRATIONS_DIR
        self.busy_timeout_ms = busy_timeout_ms
        self.cache_mib = cache_mib
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._tx_marker: object | None = None  # the open transaction's marker (see _ACTIVE_TX)

    @property
    def is_memory(self) -> bool:
        return _is_memory(self.path)

    async def connect(self) -> Self:
        if self._writer is not None:
            return self
        if not self.is_memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._writer = await self._open_connection(query_only=False)
            await self._apply_migrations(self._writer)
            if not self.is_memory:
                self._reader = await self._open_connection(query_only=True)
        except BaseException:
            await self.close()
            raise
        return self

    async def _open_connection(self, *, query_only: bool) -> aiosqlite.Connection:
        # isolation_level=None: autocommit; we issue BEGIN/COMMIT ourselves so transactions are explicit.
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            await conn.execute("PRAGMA foreign_keys = ON")
            # SQLite's default page cache is 2 MiB; ledger indexes outgrow it quickly and every miss is a
            # syscall. Leaderboards sort through temp b-trees: keep those in memory.
            await conn.execute(f"PRAGMA cache_size = {-1024 * int(self.cache_mib)}")
            await conn.execute("PRAGMA temp_store = MEMORY")
            if not self.is_memory and not query_only:
                row = await (await conn.execute("PRAGMA journal_mode = WAL")).fetchone()
                if row is None or str(row[0]).lower() != "wal":
                    log.warning("could not enable WAL on %s (got %r); readers may block", self.path, row)
                # NORMAL is durable against application crashes in WAL mode and much faster than FULL;
                # only an OS crash/power loss can lose the last transactions (never corrupt the file).
                await conn.execute("PRAGMA synchronous = NORMAL")
            if query_only:
                await conn.execute("PRAGMA query_only = ON")
        except BaseException:
            await conn.close()
            raise
        return conn

    async def close(self, *, timeout: float = 10.0) -> None:
        """Close both connections. Waits up to ``timeout`` seconds for a running transaction to finish;
        after that it closes anyway and SQLite rolls the unfinished transaction back."""
        if self._writer is None and self._reader is None:
            return
        if self.in_transaction:
            raise RuntimeError("Database.close() inside one of its own transactions")
        locked = False
        try:
            await asyncio.wait_for(self._write_lock.acquire(), timeout)
            locked = True
        except TimeoutError:
            log.warning("closing %s with a transaction still open; it will be rolled back", self.path)
        try:
            if locked and self._writer is not None and not self.is_memory:
                # SQLite's advice for long-lived databases: refresh planner statistics when useful; the
                # analysis limit keeps that to milliseconds even on a large ledger.
                try:
                    await self._writer.execute("PRAGMA analysis_limit = 1000")
                    await self._writer.execute("PRAGMA optimize")
                except sqlite3.Error as exc:  # housekeeping must never prevent closing
                    log.warning("PRAGMA optimize failed on %s: %s", self.path, exc)
            for attr in ("_reader", "_writer"):
                conn: aiosqlite.Connection | None = getattr(self, attr)
                setattr(self, attr, None)
                if conn is not None:
                    await conn.close()
        finally:
            if locked:
                self._write_lock.release()

    def is_writer(self, conn: Any) -> bool:
        """Whether ``conn`` is the connection of the current task's open :meth:`transaction`."""
        return self.in_transaction and conn is self._writer and bool(conn.in_transaction)

    @property
    def conn(self) -> aiosqlite.Connection:
        """The write connection. Prefer :meth:`transaction` / :meth:`reader`; this is for tools/benchmarks."""
        if self._writer is None:
            raise RuntimeError("database is not open")
        return self._writer

    # -- transactions ----------------------------------------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """A serialized write transaction: ``BEGIN IMMEDIATE``, then ``COMMIT``, or ``ROLLBACK`` on error.

        Everything executed on the yielded connection commits or rolls back together. Do not nest.
        """
        if self.in_transaction:
            raise RuntimeError("nested Database.transaction() in the same task (pass the connection down)")
        conn = self.conn
        async with self._write_lock:
            marker = self._tx_marker = object()
            token = _ACTIVE_TX.set(_ACTIVE_TX.get() | {marker})
            try:
                await conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    await conn.execute("COMMIT")
                except BaseException:
                    await _rollback(conn)
                    raise
            finally:
                self._tx_marker = None
                _ACTIVE_TX.reset(token)

    async def transaction_sync(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """SQLite only: a write transaction run whole on the writer's thread — ``BEGIN IMMEDIATE``, ``fn`` with the
        plain :mod:`sqlite3` connection, ``COMMIT`` (``ROLLBACK`` if ``fn`` raises) — in one hop instead of one
        per statement. For hot paths of a few statements (a settlement); ``fn`` must not block on anything
        but SQLite. Serialized with :meth:`transaction` by the same lock."""
        if self.in_transaction:
            raise RuntimeError("nested Database.transaction() in the same task (pass the connection down)")
        writer = self.conn

        def run() -> T:
            raw = writer._conn  # aiosqlite's sqlite3 connection, used here on aiosqlite's own thread
            raw.execute("BEGIN IMMEDIATE")
            try:
                result = fn(raw)
                raw.execute("COMMIT")
            except BaseException:
                if raw.in_transaction:
                    raw.execute("ROLLBACK")
                raise
            return result

        async with self._write_lock:
            # aiosqlite runs calls in order on one thread: even if we are cancelled while ``run`` executes, it
            # finishes (commit or rollback) before any later BEGIN.
            return await writer._execute(run)

    async def lock_across_processes(self, conn: Any, key: int) -> None:
        """Hold lock ``key`` (``LOCK_*``) until ``conn``'s transaction ends, so other processes' transactions taking
        it wait. SQLite: nothing to do — ``BEGIN IMMEDIATE`` already makes one writer per database file."""

    async def write_statement(self, sql: str, params: Any = ()) -> list[Any]:
        """One statement as a write transaction of its own (autocommit), its rows returned: one hop to the
        writer (SQLite), one round trip to the server (PostgreSQL). Serialized with :meth:`transaction`."""
        if self.in_transaction:
            raise RuntimeError("nested Database.transaction() in the same task (pass the connection down)")
        async with self._write_lock:
            return list(await self.conn.execute_fetchall(sql, params))

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[aiosqlite.Connection]:
        """A connection for queries that sees only committed data (or, inside a transaction of the
        current task, that transaction's own writes)."""
        if self.in_transaction:
            yield self.conn
        elif self._reader is not None:
            yield self._reader
        else:
            # :memory: — the writer is the only connection; the lock keeps us out of open transactions.
            async with self._write_lock:
                yield self.conn

    async def fetchall(self, sql: str, params: Any = ()) -> list[aiosqlite.Row]:
        async with self.reader() as conn:
            return list(await conn.execute_fetchall(sql, params))

    # -- migrations ------------------------------------------------------------------------------------
    async def _apply_migrations(self, conn: aiosqlite.Connection) -> None:
        migrations = load_migrations(self.migrations_dir)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        known = {m.version for m in migrations}
        rows = await conn.execute_fetchall("SELECT version FROM schema_migrations")
        newer = sorted({int(r[0]) for r in rows} - known)
        if newer:
            log.warning("database %s has migrations this code does not know: %s", self.path, newer)
        for mig in migrations:
            statements = mig.statements()  # parse before BEGIN so a malformed file changes nothing
            async with self._write_lock:
                await conn.execute("BEGIN IMMEDIATE")
                try:
                    # Checked inside the write lock: another process may have applied it meanwhile.
                    cur = await conn.execute(_IS_APPLIED, (mig.version,))
                    if await cur.fetchone() is not None:
                        await conn.execute("ROLLBACK")
                        continue
                    for stmt in statements:
                        await conn.execute(stmt)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at)"
                        " VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                        (mig.version, mig.name),
                    )
                    await conn.execute("COMMIT")
                except BaseException as exc:
                    await _rollback(conn)
                    if isinstance(exc, sqlite3.Error):
                        raise MigrationError(f"migration {mig.path.name} failed: {exc}") from exc
                    raise
                log.info("applied migration %03d_%s", mig.version, mig.name)

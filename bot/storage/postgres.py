"""The PostgreSQL backend (asyncpg): the same interface as the SQLite :class:`~bot.storage.db.Database`.

``Database.open("postgresql://user@host/db")`` lands here. What differs from SQLite, and why:

* **A pool, one writer per process.** Write transactions still go one at a time per process (an
  :class:`asyncio.Lock`, as with SQLite), so the services' in-process assumptions hold unchanged. Several
  *processes* (shards) write concurrently; what must hold across them is in the SQL: unique settlement
  keys (``ON CONFLICT DO NOTHING``), one transaction per settlement, totals maintained by atomic upserts.
* **Readers** get their own pooled connection. :meth:`reader` opens a ``REPEATABLE READ READ ONLY``
  transaction, so the several statements of one read (a leaderboard's seasons, totals and names) see one
  snapshot, like SQLite's WAL reader; inside a transaction of the current task it reuses that transaction.
* **SQL** is the services' SQLite-flavoured text, translated by :mod:`bot.storage.dialect` (placeholders,
  ``INSERT OR IGNORE``, timestamp defaults, ``lastrowid``). ``SUM`` over integers comes back as ``int``
  (a ``numeric`` codec), as with SQLite.
* **Errors**: constraint violations and the append-only triggers raise :class:`PgIntegrityError`, a
  subclass of :data:`bot.storage.db.IntegrityError`; other server errors :class:`PgDatabaseError`
  (a ``sqlite3.OperationalError``), so callers catch one family of exceptions.
* **Migrations**: the same numbered files; ``migrations/postgres/NNN_name.sql`` replaces a file whose
  SQLite text the dialect layer cannot translate (001's triggers). They run under an advisory lock, so
  processes starting together apply each migration once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Self

import asyncpg

from bot.storage.base import _ACTIVE_TX, MIGRATIONS_DIR, DatabaseBase, Migration, MigrationError, load_migrations
from bot.storage.dialect import translate, translate_ddl

__all__ = ["PgConnection", "PgDatabaseError", "PgIntegrityError", "PostgresDatabase"]

log = logging.getLogger(__name__)

# Any constant: the key of the advisory lock that serialises migrations between processes.
_MIGRATION_LOCK = 0x7A701_0
# Helpers the translated schema relies on (SQLite built-ins with no PostgreSQL twin). Idempotent.
_BOOTSTRAP = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
CREATE OR REPLACE FUNCTION json_valid(doc text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    PERFORM doc::jsonb;
    RETURN true;
EXCEPTION WHEN others THEN
    RETURN false;
END
$$;
"""


class PgIntegrityError(sqlite3.IntegrityError):
    """A PostgreSQL constraint violation (SQLSTATE class 23), as the backend-neutral IntegrityError."""


class PgDatabaseError(sqlite3.OperationalError):
    """Any other PostgreSQL error, as the backend-neutral database error."""


def _wrap(exc: asyncpg.PostgresError) -> sqlite3.Error:
    cls = PgIntegrityError if isinstance(exc, asyncpg.IntegrityConstraintViolationError) else PgDatabaseError
    err = cls(f"{type(exc).__name__}: {exc}")
    err.sqlstate = getattr(exc, "sqlstate", None)  # type: ignore[attr-defined]
    return err


async def _keep_session(raw: asyncpg.Connection) -> None:
    """Released connections skip asyncpg's reset query (``RESET ALL``, ``UNLISTEN *``…), a round trip per
    transaction and read: nothing here changes session state (no SET, LISTEN or cursors; the migrations'
    advisory lock is released explicitly), and asyncpg still rolls back a transaction left open."""


def _numeric(text: str) -> int | float:
    # SUM() of BIGINT is NUMERIC in PostgreSQL; SQLite gives an int. Integral values decode as int.
    try:
        return int(text)
    except ValueError:
        return float(text)


class PgCursor:
    """The result of :meth:`PgConnection.execute`: rows already fetched (asyncpg returns them whole)."""

    def __init__(self, rows: Sequence[asyncpg.Record], rowcount: int, lastrowid: int | None) -> None:
        self._rows = list(rows)
        self._pos = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> asyncpg.Record | None:
        if self._pos >= len(self._rows):
            return None
        self._pos += 1
        return self._rows[self._pos - 1]

    async def fetchmany(self, size: int) -> list[asyncpg.Record]:
        part = self._rows[self._pos : self._pos + size]
        self._pos += len(part)
        return part

    async def fetchall(self) -> list[asyncpg.Record]:
        part = self._rows[self._pos :]
        self._pos = len(self._rows)
        return part

    async def close(self) -> None:
        self._rows = []


class PgConnection:
    """aiosqlite's connection API over one asyncpg connection (see :class:`bot.storage.db.Connection`)."""

    def __init__(self, raw: asyncpg.Connection, identity_tables: frozenset[str]) -> None:
        self.raw = raw
        self._identity = identity_tables

    @property
    def in_transaction(self) -> bool:
        return bool(self.raw.is_in_transaction())

    async def execute(self, sql: str, parameters: Iterable[Any] = ()) -> PgCursor:
        stmt = translate(sql, self._identity)
        args = tuple(parameters)
        try:
            if stmt.returns_rows:
                rows = await self.raw.fetch(stmt.sql, *args)
                if stmt.returning_id:
                    return PgCursor([], len(rows), int(rows[-1][0]) if rows else None)
                return PgCursor(rows, len(rows), None)
            status = await self.raw.execute(stmt.sql, *args)
        except asyncpg.PostgresError as exc:
            raise _wrap(exc) from exc
        tail = status.rsplit(" ", 1)[-1]
        return PgCursor([], int(tail) if tail.isdigit() else -1, None)

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] = ()) -> list[asyncpg.Record]:
        cur = await self.execute(sql, parameters)
        return await cur.fetchall()

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> None:
        stmt = translate(sql)  # no RETURNING id: executemany has no lastrowid
        try:
            await self.raw.executemany(stmt.sql, [tuple(p) for p in parameters])
        except asyncpg.PostgresError as exc:
            raise _wrap(exc) from exc


class _Listener:
    """One LISTEN connection of :meth:`PostgresDatabase.listen`, reconnecting with backoff when it drops."""

    def __init__(self, url: str, channel: str, callback: Callable[[str], None], name: str) -> None:
        self._url, self._channel, self._callback, self._name = url, channel, callback, name
        self._raw: asyncpg.Connection | None = None
        self._stopped = False
        self._reconnecting: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        raw = await asyncpg.connect(self._url)
        await raw.add_listener(self._channel, lambda _conn, _pid, _channel, payload: self._callback(payload))
        raw.add_termination_listener(self._lost)
        self._raw = raw

    def _lost(self, _raw: Any) -> None:
        if not self._stopped and self._reconnecting is None:
            log.warning("LISTEN %s on %s lost; reconnecting", self._channel, self._name)
            self._reconnecting = asyncio.create_task(self._reconnect())

    async def _reconnect(self) -> None:
        delay = 0.5
        try:
            while not self._stopped:
                try:
                    await self.connect()
                    log.info("LISTEN %s on %s again", self._channel, self._name)
                    return
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                    log.warning("LISTEN %s: %s; retrying in %.1f s", self._channel, exc, delay)
                    await asyncio.sleep(delay)  # backoff while the server is unreachable
                    delay = min(delay * 2, 30.0)
        finally:
            self._reconnecting = None

    async def stop(self) -> None:
        self._stopped = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        if self._raw is not None and not self._raw.is_closed():
            await self._raw.close()


class PostgresDatabase(DatabaseBase):
    """A PostgreSQL database behind :class:`~bot.storage.db.Database`'s interface (see the module docstring)."""

    dialect = "postgres"

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        migrations_dir: Path | None = None,
        busy_timeout_ms: int = 5000,
        cache_mib: int = 32,
        pool_size: int = 8,
    ) -> None:
        self.path = os.fspath(path)
        self.migrations_dir = migrations_dir or MIGRATIONS_DIR
        self.busy_timeout_ms = busy_timeout_ms
        self.cache_mib = cache_mib
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._write_lock = asyncio.Lock()
        self._tx_marker: object | None = None
        self._tx_conn: PgConnection | None = None
        self.identity_tables: frozenset[str] = frozenset()

    @property
    def is_memory(self) -> bool:
        return False

    async def connect(self) -> Self:
        if self._pool is not None:
            return self
        try:
            self._pool = await asyncpg.create_pool(
                self.path, min_size=1, max_size=self.pool_size, init=self._init_connection, reset=_keep_session
            )
            async with self._pool.acquire() as raw:
                await self._apply_migrations(raw)
                rows = await raw.fetch(
                    "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema()"
                    " AND column_name = 'id' AND is_identity = 'YES'"
                )
            self.identity_tables = frozenset(str(r[0]) for r in rows)
        except BaseException:
            await self.close()
            raise
        return self

    @staticmethod
    async def _init_connection(raw: asyncpg.Connection) -> None:
        await raw.set_type_codec("numeric", schema="pg_catalog", encoder=str, decoder=_numeric, format="text")

    async def close(self, *, timeout: float = 10.0) -> None:
        """Close the pool; waits up to ``timeout`` seconds for a running transaction, then cuts it off (the
        server rolls it back)."""
        if self._pool is None:
            return
        if self.in_transaction:
            raise RuntimeError("Database.close() inside one of its own transactions")
        pool, locked = self._pool, False
        try:
            await asyncio.wait_for(self._write_lock.acquire(), timeout)
            locked = True
        except TimeoutError:
            log.warning("closing %s with a transaction still open; it will be rolled back", self._safe_name)
        self._pool = None
        try:
            if locked:
                await asyncio.wait_for(pool.close(), timeout)
            else:
                pool.terminate()
        except TimeoutError:
            pool.terminate()
        finally:
            if locked:
                self._write_lock.release()

    @property
    def _safe_name(self) -> str:
        return self.path.split("@")[-1]  # never log a password

    def _require_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("database is not open")
        return self._pool

    @property
    def conn(self) -> PgConnection:  # type: ignore[override]
        """The current task's transaction connection (PostgreSQL has no single long-lived writer)."""
        self._require_pool()
        if self._tx_conn is None or not self.in_transaction:
            raise RuntimeError("PostgreSQL: no connection outside Database.transaction()")
        return self._tx_conn

    def is_writer(self, conn: Any) -> bool:
        return self.in_transaction and conn is self._tx_conn and conn.in_transaction

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:  # type: ignore[override]
        if self.in_transaction:
            raise RuntimeError("nested Database.transaction() in the same task (pass the connection down)")
        pool = self._require_pool()
        async with self._write_lock, pool.acquire() as raw:
            conn = PgConnection(raw, self.identity_tables)
            marker = self._tx_marker = object()
            self._tx_conn = conn
            token = _ACTIVE_TX.set(_ACTIVE_TX.get() | {marker})
            try:
                await raw.execute("BEGIN")
                try:
                    yield conn
                    await raw.execute("COMMIT")
                except BaseException:
                    if not raw.is_closed() and raw.is_in_transaction():
                        try:
                            await asyncio.shield(raw.execute("ROLLBACK"))
                        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                            log.warning("rollback failed: %s", exc)
                    raise
            except asyncpg.PostgresError as exc:
                raise _wrap(exc) from exc
            finally:
                self._tx_marker = None
                self._tx_conn = None
                _ACTIVE_TX.reset(token)

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[PgConnection]:  # type: ignore[override]
        if self.in_transaction and self._tx_conn is not None:
            yield self._tx_conn
            return
        async with self._require_pool().acquire() as raw:
            tx = raw.transaction(isolation="repeatable_read", readonly=True)
            await tx.start()
            try:
                yield PgConnection(raw, self.identity_tables)
            finally:
                await tx.rollback()

    async def transaction_sync(self, fn: Any) -> Any:
        raise NotImplementedError("transaction_sync is SQLite's; PostgreSQL batches with write_statement")

    async def lock_across_processes(self, conn: Any, key: int) -> None:
        await conn.execute("SELECT pg_advisory_xact_lock(?)", (key,))

    async def write_statement(self, sql: str, params: Any = ()) -> list[Any]:
        """One statement, autocommitted (its own transaction: data-modifying CTEs make several writes one
        statement), in one round trip; under the process's write lock like :meth:`transaction`."""
        if self.in_transaction:
            raise RuntimeError("nested Database.transaction() in the same task (pass the connection down)")
        async with self._write_lock, self._require_pool().acquire() as raw:
            return await PgConnection(raw, self.identity_tables).execute_fetchall(sql, params)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> Callable[[], Awaitable[None]]:
        """Call ``callback(payload)`` (in the event loop) for every NOTIFY on ``channel``, from any process, on a
        connection of its own (re-opened if it is lost; notifications meanwhile are missed); returns the
        coroutine function that stops listening."""
        listener = _Listener(self.path, channel, callback, self._safe_name)
        await listener.connect()
        return listener.stop

    async def notify(self, channel: str, payload: str) -> None:
        """NOTIFY every process listening on ``channel``."""
        async with self._require_pool().acquire() as raw:
            await raw.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        if self.in_transaction and self._tx_conn is not None:
            return await self._tx_conn.execute_fetchall(sql, params)
        # One statement is one snapshot: no need for reader()'s transaction.
        async with self._require_pool().acquire() as raw:
            return await PgConnection(raw, self.identity_tables).execute_fetchall(sql, params)

    # -- migrations ------------------------------------------------------------------------------------
    def _script(self, mig: Migration) -> str:
        variant = self.migrations_dir / "postgres" / mig.path.name
        if variant.is_file():
            return variant.read_text(encoding="utf-8")
        return ";\n".join(translate_ddl(stmt).rstrip().rstrip(";") for stmt in mig.statements()) + ";"

    async def _apply_migrations(self, raw: asyncpg.Connection) -> None:  # type: ignore[override]
        migrations = load_migrations(self.migrations_dir)
        scripts = {m.version: self._script(m) for m in migrations}  # parse all before changing anything
        await raw.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
        try:
            async with self._write_lock:
                await raw.execute(_BOOTSTRAP)
                applied = {int(r[0]) for r in await raw.fetch("SELECT version FROM schema_migrations")}
                newer = sorted(applied - set(scripts))
                if newer:
                    log.warning("database %s has migrations this code does not know: %s", self._safe_name, newer)
                for mig in migrations:
                    if mig.version in applied:
                        continue
                    try:
                        async with raw.transaction():
                            await raw.execute(scripts[mig.version])
                            await raw.execute(
                                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2,"
                                " to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))",
                                mig.version,
                                mig.name,
                            )
                    except asyncpg.PostgresError as exc:
                        raise MigrationError(f"migration {mig.path.name} failed: {exc}") from exc
                    log.info("applied migration %03d_%s", mig.version, mig.name)
        finally:
            await raw.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)

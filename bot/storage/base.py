"""What the two database backends share: the connection interface, migrations files, cross-process lock keys,
the error type, and :class:`DatabaseBase`. Callers import all of it from :mod:`bot.storage.db`; the PostgreSQL backend
imports it from here, so neither backend module imports the other at import time.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

#: Where the numbered ``.sql`` migrations live (package data, no ``__init__.py``).
MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"

_MIGRATION_FILE = re.compile(r"^(\d{3,})_([a-z0-9_]+)\.sql$")
# Statements a migration may not issue: the runner owns the transaction.
_TX_CONTROL = re.compile(r"^(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b", re.IGNORECASE)
_IS_APPLIED = "SELECT 1 FROM schema_migrations WHERE version = ?"
_SQL_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.DOTALL)

# Markers of the transactions the current task (context) is inside. A marker is a fresh object per
# transaction, so a task that inherited the context but outlives the transaction is not fooled.
_ACTIVE_TX: ContextVar[frozenset[object]] = ContextVar("tavolo_db_active_tx", default=frozenset())


class MigrationError(RuntimeError):
    """A migration file is malformed, duplicated, or failed to apply."""


#: Keys of the locks several processes take on one PostgreSQL database (:meth:`Database.lock_across_processes`;
#: any constants, distinct from each other and from the migrations' lock).
LOCK_SETTLEMENTS = 0x7A7020
LOCK_RATINGS = 0x7A7030

#: The error both backends raise for a violated constraint or an append-only trigger (PostgreSQL's are
#: re-raised as a subclass of it), so callers catch one type whatever the backend.
IntegrityError = sqlite3.IntegrityError


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``TAVOLO_DATABASE`` names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


class Cursor(Protocol):
    """What ``Connection.execute`` returns (the subset of sqlite3's cursor the services use)."""

    @property
    def lastrowid(self) -> int | None: ...
    @property
    def rowcount(self) -> int: ...
    async def fetchone(self) -> Any: ...
    async def fetchall(self) -> Iterable[Any]: ...
    async def fetchmany(self, size: int) -> Iterable[Any]: ...
    async def close(self) -> None: ...


class Connection(Protocol):
    """The connection interface of both backends (aiosqlite's, which the PostgreSQL wrapper imitates).
    Rows support ``row["column"]``, ``row[0]`` and unpacking."""

    @property
    def in_transaction(self) -> bool: ...
    async def execute(self, sql: str, parameters: Any = ...) -> Any: ...
    async def execute_fetchall(self, sql: str, parameters: Any = ...) -> Iterable[Any]: ...
    async def executemany(self, sql: str, parameters: Iterable[Any]) -> Any: ...


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    path: Path

    def statements(self) -> list[str]:
        return split_sql(self.path.read_text(encoding="utf-8"), source=self.path.name)


def split_sql(script: str, *, source: str = "<sql>") -> list[str]:
    """Split a script into complete statements.

    We cannot use ``executescript`` because Python's sqlite3 commits any open transaction before running
    it, which would break "one migration = one transaction". ``sqlite3.complete_statement`` understands
    string literals and ``CREATE TRIGGER ... BEGIN ...; END;`` bodies, so we accumulate text up to each
    ``;`` until it reports a complete statement. The last statement's ``;`` may be omitted.
    """
    statements: list[str] = []
    buf = ""
    for piece in script.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            stmt = buf.strip()
            if _SQL_COMMENTS.sub("", stmt).strip().strip(";").strip():
                statements.append(stmt)
            buf = ""
    # split() appended a ';' after the last piece; whatever is left must be comments/whitespace only.
    leftover = _SQL_COMMENTS.sub("", buf[:-1] if buf.endswith(";") else buf).strip()
    if leftover:
        raise MigrationError(f"{source}: unterminated statement: {leftover[:60]!r}")
    for stmt in statements:
        if _TX_CONTROL.match(_SQL_COMMENTS.sub("", stmt).strip()):
            raise MigrationError(f"{source}: migrations must not control transactions: {stmt[:60]!r}")
    return statements


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations in ``directory``, sorted by version. Other files (README, etc.) are ignored."""
    found: dict[int, Migration] = {}
    if not directory.is_dir():
        raise MigrationError(f"migrations folder not found: {directory}")
    for path in directory.iterdir():
        m = _MIGRATION_FILE.match(path.name)
        if not m or not path.is_file():
            continue
        version = int(m.group(1))
        if version in found:
            other = found[version].path.name
            raise MigrationError(f"duplicate migration version {version}: {other}, {path.name}")
        found[version] = Migration(version, m.group(2), path)
    return [found[v] for v in sorted(found)]


class DatabaseBase:
    """What both backends share: the shard filter, ``open``, the context manager, the current task's transaction
    and the reads built on ``fetchall``. :class:`bot.storage.db.Database` (SQLite) and
    :class:`bot.storage.postgres.PostgresDatabase` implement the rest."""

    #: "sqlite" or "postgres": for the few queries that must be written per backend (JSON paths).
    dialect = ""
    #: ``(shard_count, shard_ids)`` when this process runs only some of the bot's shards: startup then resumes
    #: only the tables and tournaments of guilds on those shards (see :meth:`shard_condition`).
    shards: tuple[int, tuple[int, ...]] | None = None

    def shard_condition(self, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
        """SQL (`` AND …``) keeping rows whose guild lives on this process's shards — Discord's rule,
        ``(guild_id >> 22) % shard_count`` — and its parameters; empty when the process runs every shard."""
        if self.shards is None:
            return "", ()
        count, ids = self.shards
        return f" AND (({column} >> 22) % ?) IN ({','.join('?' * len(ids))})", (count, *ids)

    def shard_of(self, guild_id: int) -> bool:
        """Whether ``guild_id`` belongs to this process (the same predicate as :meth:`shard_condition`)."""
        return self.shards is None or (guild_id >> 22) % self.shards[0] in self.shards[1]

    path: str
    _tx_marker: object | None

    # -- lifecycle -------------------------------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        migrations_dir: Path | None = None,
        busy_timeout_ms: int = 5000,
        cache_mib: int = 32,
    ) -> Self:
        """Open (creating parent folders), configure and migrate a database."""
        db = cls(path, migrations_dir=migrations_dir, busy_timeout_ms=busy_timeout_ms, cache_mib=cache_mib)
        await db.connect()
        return db

    async def connect(self) -> Self:
        raise NotImplementedError

    async def close(self, *, timeout: float = 10.0) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return await self.connect()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def in_transaction(self) -> bool:
        """Whether the *current task* is inside the open :meth:`transaction` of this database (tasks
        spawned inside it count as inside while it is open)."""
        marker = self._tx_marker
        return marker is not None and marker in _ACTIVE_TX.get()

    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Any = ()) -> Any:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def applied_migrations(self) -> list[tuple[int, str]]:
        rows = await self.fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
        return [(int(r["version"]), str(r["name"])) for r in rows]

"""``tavolo db copy --from SRC --to DST``: move a whole Tavolo database between backends (SQLite ⇄ PostgreSQL).

Both ends are opened like the bot opens them (so both are migrated to this version's schema first), then every
table of every migration is copied in foreign-key order inside one transaction on the target: either the whole
copy lands or nothing does. The target must be empty (no row in any table); a non-empty one is refused before
anything is written. Afterwards the copy is verified: the row count of every table, and every balance (each
guild, season, currency and player's sum of entries, humans and computers) read from both ends, as well as the
maintained ``ledger_totals`` and the trigger-kept ``ledger_hours`` (not copied: the copied entries fill it) against
the entries. Identity counters of the target are moved past the copied ids.

Exit codes: 0 copied and verified, 1 verification failed (the target holds the copy; inspect it), 2 refused
(bad arguments, non-empty target, unreadable source).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.storage.db import Database, is_postgres_url

__all__ = ["copy_database", "main"]

BATCH = 5000
_BALANCES = (
    "SELECT guild_id, season_id, currency, is_bot, user_id, SUM(amount), COUNT(*) FROM entries"
    " GROUP BY guild_id, season_id, currency, is_bot, user_id"
)
_TOTALS_CHECK = (
    "SELECT guild_id, season_id, currency, COALESCE(game, ''), user_id, SUM(amount), SUM(played), SUM(won)"
    " FROM entries WHERE is_bot = 0 GROUP BY guild_id, season_id, currency, COALESCE(game, ''), user_id"
)
_TOTALS = "SELECT guild_id, season_id, currency, game, user_id, total, games, wins FROM ledger_totals"
#: Tables a trigger fills as their source rows are copied (migration 011: ``ledger_hours`` from ``entries``): not
#: copied themselves (the rows would exist twice), checked against their source instead.
DERIVED = ("ledger_hours",)
_HOURS_CHECK = (
    "SELECT guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13), SUM(amount),"
    " COUNT(*) FROM entries WHERE is_bot = 0 AND amount <> 0"
    " GROUP BY guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13)"
)
_HOURS = "SELECT guild_id, currency, user_id, season_id, game, hour, total, entries FROM ledger_hours"


class CopyError(Exception):
    """The copy was refused or failed verification; the message says why."""


async def _tables(db: Database) -> dict[str, list[str]]:
    """Every table (but schema_migrations) with its columns, in an order where referenced tables come first."""
    deps: dict[str, set[str]] = {}
    columns: dict[str, list[str]] = {}
    if db.dialect == "postgres":
        for r in await db.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " ORDER BY table_name, ordinal_position"
        ):
            columns.setdefault(str(r[0]), []).append(str(r[1]))
        for r in await db.fetchall(
            "SELECT tc.table_name, ccu.table_name FROM information_schema.table_constraints tc"
            " JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name"
            " WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()"
        ):
            deps.setdefault(str(r[0]), set()).add(str(r[1]))
    else:
        names = [
            str(r[0])
            for r in await db.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        for name in names:
            columns[name] = [str(r[1]) for r in await db.fetchall(f"PRAGMA table_info({name})")]
            deps[name] = {str(r[2]) for r in await db.fetchall(f"PRAGMA foreign_key_list({name})")}
    columns.pop("schema_migrations", None)
    ordered: list[str] = []

    def visit(name: str, path: tuple[str, ...] = ()) -> None:
        if name in ordered or name not in columns or name in path:
            return
        for dep in sorted(deps.get(name, ())):
            visit(dep, (*path, name))
        ordered.append(name)

    for name in sorted(columns):
        visit(name)
    return {name: columns[name] for name in ordered}


async def _count(db: Database, table: str) -> int:
    row = await db.fetchone(f"SELECT COUNT(*) FROM {table}")
    return int(row[0]) if row else 0


async def copy_database(source: str, target: str, *, log: Any = print) -> dict[str, int]:
    """Copy ``source`` into the empty ``target``; returns the rows copied per table. Raises :class:`CopyError`."""
    if not is_postgres_url(source) and not Path(source).is_file():
        raise CopyError(f"no database at {source}")
    src = await Database.open(source)
    try:
        dst = await Database.open(target)
        try:
            return await _copy(src, dst, log)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Database, dst: Database, log: Any) -> dict[str, int]:
    src_tables, dst_tables = await _tables(src), await _tables(dst)
    missing = sorted(set(src_tables) - set(dst_tables))
    if missing:
        raise CopyError(f"the target has no table {', '.join(missing)} (is it this version's schema?)")
    busy = [t for t in dst_tables if await _count(dst, t)]
    if busy:
        raise CopyError(f"the target is not empty ({', '.join(busy)} hold rows); copy only into an empty database")
    copied: dict[str, int] = {}
    async with dst.transaction() as tx:
        for table, cols in src_tables.items():
            if table in DERIVED:
                continue
            cols = [c for c in cols if c in dst_tables[table]]
            n = 0
            # One read of the source in one snapshot, streamed in batches (a million entries never sit in memory
            # twice); COPY into PostgreSQL, executemany into SQLite.
            async with src.reader() as rconn:
                cur = await rconn.execute(f"SELECT {', '.join(cols)} FROM {table}")
                while batch := [tuple(r) for r in await cur.fetchmany(BATCH)]:
                    if dst.dialect == "postgres":
                        await tx.raw.copy_records_to_table(table, records=batch, columns=cols)  # type: ignore[attr-defined]
                    else:
                        marks = ", ".join("?" * len(cols))
                        await tx.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", batch)
                    n += len(batch)
                await cur.close()
            copied[table] = n
            log(f"copied {table}: {n:,} rows")
        if dst.dialect == "postgres":
            # Copied rows carry their ids; the identity must continue after them, not hand them out again.
            for table in sorted(set(dst.identity_tables) & set(src_tables)):  # type: ignore[attr-defined]
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE((SELECT MAX(id) FROM {table}), 0)"
                    f" + 1, false)"
                )
    await _verify(src, dst, copied, log)
    return copied


async def _verify(src: Database, dst: Database, copied: dict[str, int], log: Any) -> None:
    problems = []
    for table, n in copied.items():
        s, d = await _count(src, table), await _count(dst, table)
        if not s == d == n:
            problems.append(f"{table}: source {s:,} rows, target {d:,}, copied {n:,}")
    if "entries" in copied:
        s_bal = sorted(tuple(r) for r in await src.fetchall(_BALANCES))
        d_bal = sorted(tuple(r) for r in await dst.fetchall(_BALANCES))
        if s_bal != d_bal:
            problems.append("balances differ between source and target")
        else:
            log(f"verified {len(d_bal):,} balances")
        if "ledger_totals" in copied:
            check = sorted(tuple(r) for r in await dst.fetchall(_TOTALS_CHECK))
            if check != sorted(tuple(r) for r in await dst.fetchall(_TOTALS)):
                problems.append("ledger_totals of the target do not match its entries")
        if "ledger_hours" in await _tables(dst):
            check = sorted(tuple(r) for r in await dst.fetchall(_HOURS_CHECK))
            if check != sorted(tuple(r) for r in await dst.fetchall(_HOURS)):
                problems.append("ledger_hours of the target do not match its entries")
    if problems:
        raise CopyError("verification failed: " + "; ".join(problems))


def main(argv: Sequence[str]) -> int:
    """``tavolo db copy --from SRC --to DST`` (``argv`` starts with ``db``)."""
    ap = argparse.ArgumentParser(prog="tavolo db", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    cp = sub.add_parser("copy", help="copy a whole database into an empty one (SQLite path or postgresql:// URL)")
    cp.add_argument("--from", dest="source", required=True, help="e.g. data/tavolo.db")
    cp.add_argument("--to", dest="target", required=True, help="e.g. postgresql://tavolo@localhost/tavolo")
    args = ap.parse_args(list(argv[1:]))
    try:
        copied = asyncio.run(copy_database(args.source, args.target))
    except CopyError as exc:
        print(f"tavolo db copy: {exc}", file=sys.stderr)
        return 1 if str(exc).startswith("verification") else 2
    except (OSError, RuntimeError) as exc:
        print(f"tavolo db copy: {exc}", file=sys.stderr)
        return 2
    print(f"done: {sum(copied.values()):,} rows in {len(copied)} tables, counts and balances verified")
    return 0

"""Ledger benchmark (a script, not a test): fill a temporary database, then time the hot paths.

    python bench/ledger_bench.py [--entries 1000000] [--settles 2000] [--repeat 50] [--db PATH] [--analyze]

1. Bulk-fills ``--entries`` entries (4 guilds, one holding half the rows; 2 seasons each; 4 games;
   4 seats per settlement, sometimes a computer; ``stake`` + ``point`` per seat = 8 entries per settlement).
   Rows are laid out by the ledger's own validation (``prepare_booking``) but inserted with
   ``executemany`` in large transactions (secondary indexes dropped during the load and rebuilt from the
   schema after), because going through ``settle`` one by one is what step 2 measures and would take
   minutes.
2. Settlement throughput through ``Ledger.settle`` (one transaction each, sequential and concurrent).
3. Median / p95 latency of ``leaderboard`` (several shapes) and ``balance``/``history`` on the big guild.
4. Ratings (``bot/ratings.py``): the first full ``Ratings.sync`` over every settlement, an incremental sync
   of newly booked ones, and the latency of the leaderboard by rating and of ``profile`` (skip: --no-ratings).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from bot.ledger import Ledger, SeatRef
from bot.ledger.service import _INSERT_ENTRY, prepare_booking
from bot.ratings import Ratings
from bot.storage.db import Database

GAMES = ("mediatore", "mighty", "minchiate", "wizard")
GUILD_WEIGHTS = {1: 0.5, 2: 0.2, 3: 0.2, 4: 0.1}
USERS_PER_GUILD = 400
SEATS = 4
CREATED_AT = "2026-01-01T00:00:00.000+00:00"
_INSERT_SETTLEMENT_WITH_ID = (
    "INSERT INTO settlements (id, key, guild_id, season_id, game, table_id, hand_index, created_at,"
    " summary_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _random_settlement(rng: random.Random, guild: int, n: int) -> dict[str, Any]:
    users = rng.sample(range(1, USERS_PER_GUILD + 1), SEATS)
    seats = [SeatRef(guild * 100_000 + u, f"user{u}") for u in users]
    if rng.random() < 0.25:
        seats[rng.randrange(SEATS)] = SeatRef(None, "Robot")
    stake = [rng.randint(-10, 10) for _ in range(SEATS - 1)]
    stake.append(-sum(stake))
    points = [rng.randint(0, 30) for _ in range(SEATS)]
    return {
        "key": f"bench:{n}",
        "guild_id": guild,
        "game": rng.choice(GAMES),
        "table_id": n // 10,
        "hand_index": n % 10,
        "seats": seats,
        "amounts": {"stake": stake, "point": points},
        "summary": {"contract": rng.randint(1, 13)},
    }


_ENTRY_COLUMNS = (
    "settlement_id", "guild_id", "season_id", "user_id", "is_bot", "player_name", "seat", "game", "currency",
    "amount", "won", "kind", "played", "created_at",
)  # fmt: skip
_SETTLEMENT_COLUMNS = (
    "id", "key", "guild_id", "season_id", "game", "table_id", "hand_index", "created_at", "summary_json",
)  # fmt: skip
_BACKFILL_TOTALS = (
    "INSERT INTO ledger_totals (guild_id, season_id, currency, game, user_id, total, games, wins)"
    " SELECT guild_id, season_id, currency, COALESCE(game, ''), user_id, SUM(amount), SUM(played), SUM(won)"
    " FROM entries WHERE is_bot = 0 GROUP BY guild_id, season_id, currency, COALESCE(game, ''), user_id"
)


async def _secondary_indexes(db: Database) -> list[tuple[str, str]]:
    """The droppable indexes of the ledger tables with their definitions (constraint indexes stay)."""
    if db.dialect == "postgres":
        rows = await db.fetchall(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('entries', 'settlements')"
            " AND indexname NOT IN (SELECT conname FROM pg_constraint)"
        )
    else:
        rows = await db.fetchall(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            " AND tbl_name IN ('entries', 'settlements')"
        )
    return [(str(r[0]), str(r[1])) for r in rows]


async def fill(db: Database, entries: int, rng: random.Random) -> int:
    """Insert about ``entries`` entries (and their ledger_totals); returns the number of settlements."""
    n_settlements = entries // (SEATS * 2)
    guilds = list(GUILD_WEIGHTS)
    weights = [GUILD_WEIGHTS[g] for g in guilds]
    async with db.transaction() as tx:
        season_ids: dict[tuple[int, int], int] = {}
        for g in guilds:
            for number in (1, 2):
                closed = CREATED_AT if number == 1 else None
                cur = await tx.execute(
                    "INSERT INTO seasons (guild_id, number, started_at, closed_at) VALUES (?, ?, ?, ?)",
                    (g, number, CREATED_AT, closed),
                )
                assert cur.lastrowid is not None
                season_ids[g, number] = cur.lastrowid
    # Bulk-load practice: drop the secondary indexes, insert, then rebuild them (a sort per index instead
    # of a million random b-tree inserts). The definitions are read back from the schema, so the rebuilt
    # indexes are exactly the migrations'.
    index_rows = await _secondary_indexes(db)
    async with db.transaction() as tx:
        for name, _sql in index_rows:
            await tx.execute(f"DROP INDEX {name}")

    async def insert(settlements: list[tuple[Any, ...]], rows: list[tuple[Any, ...]]) -> None:
        async with db.transaction() as tx:
            if db.dialect == "postgres":  # COPY: PostgreSQL's bulk path
                raw = tx.raw  # type: ignore[attr-defined]
                await raw.copy_records_to_table("settlements", records=settlements, columns=_SETTLEMENT_COLUMNS)
                await raw.copy_records_to_table("entries", records=rows, columns=_ENTRY_COLUMNS)
            else:
                await tx.executemany(_INSERT_SETTLEMENT_WITH_ID, settlements)
                await tx.executemany(_INSERT_ENTRY, rows)

    batch = 10_000  # settlements per transaction
    pending: asyncio.Task[None] | None = None
    for start in range(0, n_settlements, batch):
        settlements: list[tuple[Any, ...]] = []
        rows: list[tuple[Any, ...]] = []
        for n in range(start, min(start + batch, n_settlements)):
            guild = rng.choices(guilds, weights)[0]
            b = prepare_booking(**_random_settlement(rng, guild, n))
            season = season_ids[guild, 1 if n < n_settlements // 2 else 2]
            sid = n + 1  # explicit ids: lets us build the entries without a round trip per settlement
            settlements.append(
                (sid, b.key, b.guild_id, season, b.game, b.table_id, b.hand_index, CREATED_AT, b.summary_json)
            )
            rows.extend(b.entry_params(sid, season, CREATED_AT))
        # Pipeline: the database inserts batch k (aiosqlite's thread / the server) while we build batch k+1.
        if pending is not None:
            await pending
        pending = asyncio.create_task(insert(settlements, rows))
    if pending is not None:
        await pending
    async with db.transaction() as tx:
        for _name, sql in index_rows:
            await tx.execute(sql)
        await tx.execute(_BACKFILL_TOTALS)
        if db.dialect == "postgres":  # explicit ids: move the identity past them
            await tx.execute(
                "SELECT setval(pg_get_serial_sequence('settlements', 'id'), (SELECT MAX(id) FROM settlements))"
            )
    if db.dialect == "postgres":
        # What autovacuum does shortly after a bulk load: statistics and the visibility map (index-only scans).
        async with db._require_pool().acquire() as raw:  # type: ignore[attr-defined]
            await raw.execute("VACUUM ANALYZE")
    return n_settlements


async def timed(fn: Callable[[], Awaitable[object]], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return statistics.median(times), p95


async def bench_ratings(
    db: Database, ledger: Ledger, rng: random.Random, g: int, users: list[int], next_n: int, repeat: int
) -> None:
    ratings = Ratings(db)
    row = await db.fetchone("SELECT COUNT(*) FROM settlements")
    n = row[0] if row else 0
    t0 = time.perf_counter()
    applied = await ratings.sync()
    dt = time.perf_counter() - t0
    print(f"ratings full sync: {applied:,} of {n:,} settlements in {dt:.1f} s = {applied / dt:,.0f} settlements/s")
    for i in range(500):
        await ledger.settle(**_random_settlement(rng, g, next_n + i))
    t0 = time.perf_counter()
    applied = await ratings.sync()
    dt = time.perf_counter() - t0
    print(f"ratings incremental sync: {applied} new settlements in {dt * 1000:.0f} ms")
    t0 = time.perf_counter()
    assert await ratings.sync() == 0
    print(f"ratings sync with nothing new: {(time.perf_counter() - t0) * 1000:.2f} ms")
    cases: list[tuple[str, Callable[[], Awaitable[object]], int]] = [
        ("leaderboard by rating, wizard", lambda: ratings.leaderboard(g, "wizard"), repeat),
        ("profile (4 games, contracts, bids)", lambda: ratings.profile(g, rng.choice(users)), repeat),
    ]
    for label, fn, rep in cases:
        med, p95 = await timed(fn, rep)
        print(f"{label:<38} median {med:8.2f} ms   p95 {p95:8.2f} ms   (n={rep})")


async def run_backend(
    args: argparse.Namespace, backend: str, target: str | Path, results: dict[str, dict[str, str]]
) -> None:
    rng = random.Random(args.seed)
    out = results.setdefault(backend, {})

    def note(label: str, value: str) -> None:
        out[label] = value
        print(f"[{backend}] {label}: {value}", flush=True)

    db = await Database.open(target, cache_mib=args.cache_mib)
    ledger = Ledger(db)
    try:
        t0 = time.perf_counter()
        n = await fill(db, args.entries, rng)
        fill_s = time.perf_counter() - t0
        if args.analyze and db.dialect == "sqlite":
            # What `PRAGMA optimize` (run by Database.close) eventually does on a long-lived database.
            async with db.transaction() as tx:
                await tx.execute("ANALYZE")
        row = await db.fetchone("SELECT COUNT(*) FROM entries")
        total = row[0] if row else 0
        note("fill", f"{total:,} entries / {n:,} settlements in {fill_s:.1f} s")

        # -- settle throughput ---------------------------------------------------------------------------
        base = n + 1
        calls = [_random_settlement(rng, 1, base + i) for i in range(args.settles)]
        t0 = time.perf_counter()
        for c in calls:
            await ledger.settle(**c)
        dt = time.perf_counter() - t0
        note("settle sequential", f"{args.settles / dt:,.0f} settlements/s")
        calls = [_random_settlement(rng, 1, base + args.settles + i) for i in range(args.settles)]
        t0 = time.perf_counter()
        results_ = await asyncio.gather(*(ledger.settle(**c) for c in calls))
        dt = time.perf_counter() - t0
        assert all(results_)
        note("settle concurrent (gather)", f"{args.settles / dt:,.0f} settlements/s")
        t0 = time.perf_counter()
        dup = await asyncio.gather(*(ledger.settle(**c) for c in calls[:500]))
        dt = time.perf_counter() - t0
        assert not any(dup)
        note("settle retry of booked keys", f"{500 / dt:,.0f} /s")

        # -- queries on the big guild --------------------------------------------------------------------
        g = 1
        row = await db.fetchone("SELECT COUNT(*) FROM entries WHERE guild_id = ?", (g,))
        note(f"guild {g} entries", f"{row[0] if row else 0:,}")
        users = [g * 100_000 + u for u in range(1, USERS_PER_GUILD + 1)]
        cases: list[tuple[str, Callable[[], Awaitable[object]]]] = [
            ("leaderboard stake, current season", lambda: ledger.leaderboard(g)),
            ("leaderboard stake, game=wizard", lambda: ledger.leaderboard(g, game="wizard")),
            ("leaderboard point by wins, wizard", lambda: ledger.leaderboard(g, "wizard", "point", by="wins")),
            ("leaderboard stake, all seasons", lambda: ledger.leaderboard(g, season="all")),
            ("balance (all currencies, current)", lambda: ledger.balance(g, rng.choice(users))),
            ("balance stake, all seasons", lambda: ledger.balance(g, rng.choice(users), "stake", "all")),
            ("history (10 rows)", lambda: ledger.history(g, rng.choice(users))),
        ]
        for label, fn in cases:
            repeat = args.repeat if label.startswith("leaderboard") else args.repeat * 10
            med, p95 = await timed(fn, repeat)
            note(label, f"median {med:.2f} ms, p95 {p95:.2f} ms")
        if not args.no_ratings:
            await bench_ratings(db, ledger, rng, g, users, base + 2 * args.settles, args.repeat)
        if db.dialect == "postgres":
            row = await db.fetchone("SELECT pg_database_size(current_database())")
            note("database size", f"{(row[0] if row else 0) / 1e6:,.0f} MB")
        else:
            note("database size", f"{Path(target).stat().st_size / 1e6:,.0f} MB")
    finally:
        await db.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=1_000_000)
    ap.add_argument("--settles", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--backends", default="sqlite,postgres", help="comma-separated: sqlite, postgres")
    ap.add_argument("--db", type=Path, help="SQLite file (default: a temporary one, deleted afterwards)")
    ap.add_argument("--pg-url", help="an empty PostgreSQL database (default: a throw-away local server)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache-mib", type=int, default=32, help="SQLite page cache per connection (Database default)")
    ap.add_argument("--analyze", action="store_true", help="SQLite: run ANALYZE after filling (planner statistics)")
    ap.add_argument("--no-ratings", action="store_true", help="skip the ratings part")
    args = ap.parse_args()
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    results: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends:
            if backend == "sqlite":
                await run_backend(args, backend, args.db or Path(tmp) / "bench.db", results)
            elif backend == "postgres" and args.pg_url:
                await run_backend(args, backend, args.pg_url, results)
            elif backend == "postgres":
                sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
                from pgserver import PgServer  # the tests' throw-away server (Debian's postgresql package)

                with PgServer() as server:
                    await run_backend(args, backend, server.create_database("bench"), results)
            else:
                raise SystemExit(f"unknown backend {backend!r}")
    labels = list(dict.fromkeys(k for r in results.values() for k in r))
    print("\n| measurement | " + " | ".join(backends) + " |\n|---|" + "---|" * len(backends))
    for label in labels:
        print(f"| {label} | " + " | ".join(results.get(b, {}).get(label, "") for b in backends) + " |")


if __name__ == "__main__":
    asyncio.run(main())

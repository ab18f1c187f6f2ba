"""`/ledger chart` benchmark (a script, not a test): how long a chart of a long ledger takes, data and picture.

    python bench/ledger_chart.py [--entries 100000] [--repeat 7] [--db PATH]

Books ``--entries`` stake entries through ``Ledger.book`` (one guild, 12 players, 4 seats a hand, a hand every
15 minutes: 10^5 entries span about 260 days), then times, ``--repeat`` times, what the command does on a cache
miss: the top of the leaderboard, the running balances of the viewer and the top five from ``ledger_hours``
(:func:`bot.ledger.chart.load_chart`) and the picture (:func:`bot.ledger.chart_render.render_chart`). Prints
the medians; the budget is 0.5 s for the whole. Also prints the first chart of a fresh process (matplotlib's
import and font cache), which a long-running bot pays once.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from bot.ledger import Ledger, SeatRef
from bot.storage.db import Database

GUILD = 1
PLAYERS = 12
SEATS = 4
BATCH = 1000


async def fill(db: Database, entries: int, rng: random.Random) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    clock = {"now": start}
    ledger = Ledger(db, clock=lambda: clock["now"])
    hands = entries // SEATS
    for first in range(0, hands, BATCH):
        async with db.transaction() as conn:
            for n in range(first, min(hands, first + BATCH)):
                clock["now"] = start + timedelta(minutes=15 * n)
                users = rng.sample(range(1, PLAYERS + 1), SEATS)
                stake = [rng.randint(-10, 10) for _ in range(SEATS - 1)]
                stake.append(-sum(stake))
                await ledger.book(
                    conn, key=f"bench:{n}", guild_id=GUILD, game="mighty", table_id=n // 10, hand_index=n % 10,
                    seats=[SeatRef(u, f"Player {u}") for u in users], amounts={"stake": stake},
                )  # fmt: skip


async def chart_once(ledger: Ledger) -> tuple[float, float, int]:
    from bot.ledger.chart import load_chart
    from bot.ledger.chart_render import render_chart

    t0 = time.perf_counter()
    top = await ledger.leaderboard(GUILD, currency="stake", season="all", limit=5)
    users = [1, *(r.user_id for r in top)]
    data = await load_chart(ledger, GUILD, users, currency="stake", season="all")
    t1 = time.perf_counter()
    legend = [f"{s.name} {s.final:+d}" for s in data.series]
    png = render_chart(data, locale="en", title="Running balance", legend=legend)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, len(png)


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--db")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or str(Path(tmp) / "chart.sqlite3")
        db = await Database.open(path)
        try:
            t = time.perf_counter()
            await fill(db, args.entries, random.Random(25))
            print(f"filled {args.entries} entries in {time.perf_counter() - t:.1f} s")
            ledger = Ledger(db)
            rows = await db.fetchall("SELECT COUNT(*) FROM ledger_hours WHERE guild_id = ?", (GUILD,))
            print(f"ledger_hours rows: {rows[0][0]}")
            t = time.perf_counter()
            await chart_once(ledger)
            print(f"first chart (matplotlib import, font cache): {time.perf_counter() - t:.3f} s")
            runs = [await chart_once(ledger) for _ in range(args.repeat)]
            data_s = statistics.median(r[0] for r in runs)
            draw_s = statistics.median(r[1] for r in runs)
            total = statistics.median(r[0] + r[1] for r in runs)
            print(
                f"chart of {args.entries} entries, median of {args.repeat}: data {data_s * 1000:.0f} ms,"
                f" picture {draw_s * 1000:.0f} ms, total {total * 1000:.0f} ms ({runs[-1][2]} bytes PNG)"
            )
            print("budget 500 ms:", "OK" if total <= 0.5 else "OVER")
        finally:
            await db.close()


if __name__ == "__main__":
    asyncio.run(main())

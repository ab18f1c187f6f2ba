"""Tables through the fake Discord: throughput, click acknowledgement latency, Discord requests per card.

The real bot (in this process) plays N concurrent Wizard tables against the local fake Discord used by
the tests; two clicking users and two computer players per table, `rounds` 1-3.

Usage: python bench/tables_fake_discord.py [--tables 1 4 16] [--interval 1.0] [--text-only]
Prints, per N: wall time, actions applied per second, ack latency p50/p99 (dispatch -> first
interaction callback), Discord REST requests per card played (all requests during play / cards), and with
card pictures (the default) the pictures uploaded per card and those drawn (the rest came from the cache).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from e2e.driver import Player, game_over, play_until, start_bot, stop_bot  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402


async def run(n_tables: int, interval: float, images: bool) -> None:
    fake = await FakeDiscord().start()
    fake.enforce_ack_deadline = False  # measure, don't fail
    guild = fake.add_guild("Bench")
    with tempfile.TemporaryDirectory() as tmp:
        bot, task = await start_bot(fake, Path(tmp) / "bench.db", guild.id, edit_interval=interval, images=images)
        tables = []
        for i in range(n_tables):
            channel = fake.add_channel(guild, f"t{i}")
            a, b = fake.add_user(f"a{i}"), fake.add_user(f"b{i}")
            await (await a.slash(channel, "wizard new", rounds="1-3")).reply()
            lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
            await (await b.click(lobby, label="Join")).ack()
            await (await a.click(lobby, label="Add computer")).ack()
            await (await a.click(lobby, label="Add computer")).ack()
            tables.append((channel, lobby, [Player(fake, u, random.Random(u.id)) for u in (a, b)]))
        first_request = len(fake.requests)
        acks_before = set(fake.ack_latencies)
        start = time.perf_counter()
        for _, lobby, players in tables:
            await (await players[0].user.click(lobby, label="Start")).ack()
        await asyncio.gather(
            *(
                play_until(fake, players, lambda ch=ch: game_over(fake, ch), max_clicks=10_000)
                for ch, _, players in tables
            )
        )
        wall = time.perf_counter() - start
        requests = len(fake.requests) - first_request
        uploads = sum(
            len([a for a in (r.json or {}).get("attachments") or [] if "filename" in a])
            for r in fake.requests[first_request:]
            if isinstance(r.json, dict)
        )
        cog: Any = bot.get_cog("Tables")
        assert bot.db is not None
        (actions,) = await bot.db.fetchone("SELECT COUNT(*) FROM table_actions")  # type: ignore[misc]
        (cards,) = await bot.db.fetchone(  # type: ignore[misc]
            "SELECT COUNT(*) FROM table_actions WHERE action LIKE '%\"play\"%'"
        )
        lat = sorted(v for k, v in fake.ack_latencies.items() if k not in acks_before)
        p50 = statistics.median(lat) * 1000
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
        print(
            f"tables={n_tables:3d}  wall={wall:6.2f}s  actions={actions:5d}  {actions / wall:7.1f} actions/s  "
            f"acks={len(lat):4d} p50={p50:6.1f}ms p99={p99:6.1f}ms  "
            f"requests/card={requests / max(cards, 1):5.2f} (429s: {fake.rate_limited})"
            + (f"  uploads/card={uploads / max(cards, 1):4.2f} drawn={cog.pictures.rendered}" if images else "")
        )
        await stop_bot(bot, task)
    await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, nargs="*", default=[1, 4, 16])
    parser.add_argument("--interval", type=float, default=1.0, help="min seconds between edits of one message")
    parser.add_argument("--text-only", action="store_true", help="no card pictures (the messages before them)")
    args = parser.parse_args()
    for n in args.tables:
        asyncio.run(run(n, args.interval, not args.text_only))


if __name__ == "__main__":
    main()

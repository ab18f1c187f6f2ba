"""Tables through the fake Discord: throughput, click acknowledgement latency, Discord requests per card.

The real bot (in this process) plays N concurrent tables against the local fake Discord used by the tests, with
Discord's rate limits enforced (global 50/s, per route as on Discord; ``--no-limits`` turns them off); two
clicking users per table and computers in the other seats. Wizard tables play rounds 1-3; ``--mix`` opens the
four games in turn (Mediatore and Mighty one hand, Minchiate one deal). The users wait on the fake's events for
their own table (its channel, their DMs and ephemerals), so a thousand idle users cost nothing; ``--think MIN,MAX``
makes them take that many seconds per move, like people.

Usage: python bench/tables_fake_discord.py [--tables 1 16 64 100] [--think 1,3] [--mix] [--interval 1.0]
    [--text-only] [--no-limits [--unplanned]] [--routes]
Prints, per N: wall time, actions applied per second, ack latency p50/p99 (dispatch -> first interaction
callback), Discord requests per card played: all of them, the rate-limited ones (all but interaction callbacks
and their webhooks) and the callbacks; the peak rate of rate-limited requests over any second; 429s; with
pictures the pictures uploaded per card; ``--routes`` adds the requests per card by kind (channel and DM sends and
edits, callbacks, interaction webhooks...).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from e2e.driver import Player, game_over, play_until, start_bot, stop_bot  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402

try:
    from fakediscord.rest import outside_global_limit
except ImportError:  # an older checkout (before the fake had Discord's limits), for "before" numbers

    def outside_global_limit(path: str) -> bool:
        return path.startswith("/interactions/") or path.startswith("/webhooks/")


#: (options of ``/<game> new``, computers to add) for a short game of 2 humans
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "wizard": ({"rounds": "1-3"}, 2),
    "mediatore": ({"hands": 1}, 2),
    "mighty": ({"hands": 1}, 3),
    "minchiate": ({"deals_per_game": 1}, 2),
}


async def run(n_tables: int, args: argparse.Namespace) -> None:
    fake = await FakeDiscord().start()
    fake.enforce_ack_deadline = False  # measure, don't fail
    limits = None
    if not args.no_limits and hasattr(fake, "discord_limits"):
        limits = fake.discord_limits(50)
    guild = fake.add_guild("Bench")
    games = sorted(GAMES) if args.mix else ["wizard"]
    with tempfile.TemporaryDirectory() as tmp:
        bot, task = await start_bot(
            fake, Path(tmp) / "bench.db", guild.id, edit_interval=args.interval, images=not args.text_only
        )
        if args.unplanned and hasattr(bot, "requests"):
            bot.requests.global_limit = 1_000_000  # no budget of its own either: as the bot before the scheduler
        tables = []
        for i in range(n_tables):
            game = games[i % len(games)]
            options, computers = GAMES[game]
            channel = fake.add_channel(guild, f"t{i}")
            a, b = fake.add_user(f"a{i}"), fake.add_user(f"b{i}")
            await (await a.slash(channel, f"{game} new", **options)).reply()
            lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
            await (await b.click(lobby, label="Join")).ack()
            for _ in range(computers):
                await (await a.click(lobby, label="Add computer")).ack()
            watch = [channel.id, a.id, b.id, a.dm_channel.id, b.dm_channel.id]
            tables.append((channel, lobby, [Player(fake, u, random.Random(u.id)) for u in (a, b)], watch))
        await asyncio.sleep(1.0)  # the lobby's edits settle, so the play starts with the request budget full
        first_request = len(fake.requests)
        acks_before = set(fake.ack_latencies)
        limited_before = fake.rate_limited
        start = time.perf_counter()
        for _, lobby, players, _ in tables:
            await (await players[0].user.click(lobby, label="Start")).ack()
        await asyncio.gather(
            *(
                play_until(
                    fake,
                    players,
                    lambda ch=ch: game_over(fake, ch),
                    max_clicks=10_000,
                    watch=watch,
                    think=args.think,
                    timeout=120,
                )
                for ch, _, players, watch in tables
            )
        )
        wall = time.perf_counter() - start
        played = fake.requests[first_request:]
        callbacks = [r for r in played if outside_global_limit(r.path)]
        limited = [r for r in played if not outside_global_limit(r.path)]
        peak = _peak_per_second([r.at for r in limited])
        uploads = sum(
            len([a for a in (r.json or {}).get("attachments") or [] if "filename" in a])
            for r in played
            if isinstance(r.json, dict)
        )
        assert bot.db is not None
        (actions,) = await bot.db.fetchone("SELECT COUNT(*) FROM table_actions")  # type: ignore[misc]
        (cards,) = await bot.db.fetchone(  # type: ignore[misc]
            "SELECT COUNT(*) FROM table_actions WHERE action LIKE '%\"play\"%'"
        )
        lat = sorted(v for k, v in fake.ack_latencies.items() if k not in acks_before)
        p50 = statistics.median(lat) * 1000
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
        per = max(cards, 1)
        refused = f" {limits.refused}" if limits is not None and limits.refused else ""
        print(
            f"tables={n_tables:3d}{' mix' if args.mix else ''}  wall={wall:6.2f}s  actions={actions:5d}  "
            f"{actions / wall:6.1f} actions/s  acks={len(lat):5d} p50={p50:6.1f}ms p99={p99:6.1f}ms  "
            f"requests/card={len(played) / per:4.2f} (rate-limited {len(limited) / per:4.2f}, "
            f"callbacks {len(callbacks) / per:4.2f})  peak={peak}/s  429s={fake.rate_limited - limited_before}"
            f"{refused}" + ("" if args.text_only else f"  uploads/card={uploads / per:4.2f}"),
            flush=True,
        )
        if args.routes:
            kinds = _by_kind(fake, played)
            print("    per card: " + "  ".join(f"{k} {n / per:4.2f}" for k, n in kinds.most_common()), flush=True)
        await stop_bot(bot, task)
    await fake.stop()


_MESSAGE = re.compile(r"^/channels/(?P<channel>\d+)/messages(?P<one>/\d+)?$")


def _by_kind(fake: FakeDiscord, played: list[Any]) -> Counter[str]:
    """The requests by what they did: table (channel) message edits, DM edits, sends, interaction callbacks..."""
    out: Counter[str] = Counter()
    for r in played:
        m = _MESSAGE.match(r.path)
        if m is not None:
            try:
                where = "dm" if fake.channel(int(m["channel"])).is_dm else "channel"
            except KeyError:
                where = "channel"
            what = {"POST": "send", "PATCH": "edit", "DELETE": "delete"}.get(r.method, r.method.lower())
            out[f"{where}-{what}"] += 1
        elif r.path.startswith("/interactions/"):
            out["callback"] += 1
        elif r.path.startswith("/webhooks/"):
            out[f"webhook-{r.method.lower()}"] += 1
        elif r.path == "/users/@me/channels":
            out["open-dm"] += 1
        else:
            out[f"{r.method} other"] += 1
    return out


def _peak_per_second(times: list[float]) -> int:
    """The most requests in any one-second window."""
    times.sort()
    best, lo = 0, 0
    for hi, t in enumerate(times):
        while t - times[lo] >= 1.0:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="*", default=[1, 16, 64, 100])
    parser.add_argument("--interval", type=float, default=1.0, help="min seconds between edits of one message")
    parser.add_argument("--text-only", action="store_true", help="no card pictures (the messages before them)")
    parser.add_argument("--think", type=_pair, default=None, metavar="MIN,MAX", help="seconds a user takes per move")
    parser.add_argument("--mix", action="store_true", help="the four games in turn instead of Wizard only")
    parser.add_argument("--no-limits", action="store_true", help="do not enforce Discord's rate limits")
    parser.add_argument("--routes", action="store_true", help="also print the requests per card by kind")
    parser.add_argument(
        "--unplanned", action="store_true", help="with --no-limits: the bot's scheduler keeps no global budget either"
    )
    args = parser.parse_args()
    for n in args.tables:
        asyncio.run(run(n, args))


def _pair(text: str) -> tuple[float, float]:
    lo, _, hi = text.partition(",")
    return float(lo), float(hi or lo)


if __name__ == "__main__":
    main()

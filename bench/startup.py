"""Start-up benchmark: card sprite preparation cold vs cached, and start-to-first-ack of a restarted bot.

1. Sprites, each in a fresh Python process pinned to one core: every deck drawn into an empty sprite cache
   (cold), then every deck loaded from that cache (cached), as a start after an update of the card art and an
   ordinary start do. Also the cache's size on disk.
2. A real bot process (``python -m bot``) against the fake Discord with a game open: killed, started again
   pinned to one core; as soon as it is connected a player clicks **My hand** (a picture) and then
   moves. Reported: start to connected, start to the first acknowledgement, that click's ack latency, the
   slowest ack of the first 10 s, and when the first hand picture arrived — cold (empty sprite cache) and
   cached.

    .venv/bin/python bench/startup.py [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from e2e.driver import Player, game_over, table_message  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.process import BotProcess  # noqa: E402

CORE = max(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None

_SPRITES = """
import sys, time
from pathlib import Path
from bot.images import sprites, warmup
sprites.use_disk_cache(Path(sys.argv[1]))
t = time.perf_counter()
warmup.prepare()
print(time.perf_counter() - t)
"""


def _pinned() -> list[str]:
    return ["taskset", "-c", str(CORE)] if CORE is not None and _has("taskset") else []


def _has(tool: str) -> bool:
    return any((Path(d) / tool).exists() for d in os.environ.get("PATH", "").split(os.pathsep))


def sprites_once(directory: Path) -> float:
    out = subprocess.run(
        [*_pinned(), sys.executable, "-c", _SPRITES, str(directory)], cwd=ROOT, capture_output=True, text=True
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return float(out.stdout.strip().splitlines()[-1])


def bench_sprites(runs: int) -> None:
    cold, cached, size = [], [], 0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            cold.append(sprites_once(Path(tmp)))
            cached.append(sprites_once(Path(tmp)))
            size = sum(f.stat().st_size for f in Path(tmp).rglob("*") if f.is_file())
    print(f"sprite preparation, all decks and sizes, one core (median of {runs}):")
    print(f"  cold (drawn, then stored): {statistics.median(cold):6.2f} s   (runs: {_list(cold)})")
    print(f"  cached (loaded):           {statistics.median(cached):6.2f} s   (runs: {_list(cached)})")
    print(f"  sprite cache on disk:      {size / 1e6:6.1f} MB")


def _list(xs: list[float]) -> str:
    return ", ".join(f"{x:.2f}" for x in xs)


async def restart_once(cold: bool) -> dict[str, float]:
    fake = await FakeDiscord().start()
    fake.enforce_ack_deadline = False  # measure, don't fail
    bots: list[BotProcess] = []  # stopped in any case: a failed run must not leave a bot process behind
    try:
        guild = fake.add_guild("Bench")
        channel = fake.add_channel(guild, "cards")
        alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol", dms_closed=True)
        with tempfile.TemporaryDirectory() as tmp:
            env = {
                "TAVOLO_DATABASE": str(Path(tmp) / "t.db"),
                "TAVOLO_DEV_GUILD": str(guild.id),
                "TAVOLO_IMAGES": "on",
                "TAVOLO_SPRITE_CACHE": str(Path(tmp) / "sprites"),
            }
            first = BotProcess(fake, env=env)
            bots.append(first)
            await first.start()
            await fake.wait_for_commands("wizard", "table")
            await (await alice.slash(channel, "wizard new", rounds="6-9")).reply()
            lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
            for u in (bob, carol):
                await (await u.click(lobby, label="Join")).ack()
            await (await alice.click(lobby, label="Start")).ack()
            table = await fake.wait_for(lambda: table_message(fake, channel), timeout=180)
            await fake.wait_for(lambda: all(u.dm_messages() for u in (alice, bob)), timeout=180)
            if not cold:  # the first process prepares every deck into the cache the second one finds
                await fake.wait_for(lambda: any("card sprites" in ln for ln in first.lines), timeout=300)
            await first.kill()
            if cold:
                env["TAVOLO_SPRITE_CACHE"] = str(Path(tmp) / "sprites-empty")

            second = BotProcess(fake, env=env)
            bots.append(second)
            before = fake.gateway.identify_count
            await second.start(wait_ready=False)
            started = time.monotonic()
            if CORE is not None and second.pid is not None:
                os.sched_setaffinity(second.pid, {CORE})
            await fake.wait_for(lambda: fake.gateway.identify_count > before and fake.gateway.connected, timeout=60)
            connected = time.monotonic()
            n0 = len(fake.world.interactions)
            hand = await carol.click(table, label="My hand")
            await hand.ack(timeout=30)
            first_ack = hand.record.acked_at
            shown: list[float] = []  # when that hand arrives with its picture (after a deferral, later)
            pictured = asyncio.create_task(hand.reply(timeout=120))
            pictured.add_done_callback(lambda _: shown.append(time.monotonic()))
            players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, bob))]
            while time.monotonic() - connected < 10 and not game_over(fake, channel):
                actor = next((p for p in players if p.can_act()), None)
                h = await (actor.act() if actor is not None else carol.click(table, label="My hand"))
                await h.ack(timeout=30)
            assert (await pictured).attachments
            picture = shown[0]
            records = list(fake.world.interactions.values())[n0:]
            await second.stop()
            assert first_ack is not None and hand.record.latency is not None
            return {
                "connected": connected - started,
                "first_ack": first_ack - started,
                "first_latency": hand.record.latency,
                "max_latency": max(r.latency or 0.0 for r in records),
                "clicks": len(records),
                "picture": picture - started,
            }
    finally:
        for bot in bots:
            if bot.pid is not None and bot.returncode is None:
                await bot.kill()
        await fake.stop()


def bench_restart(runs: int) -> None:
    for cold in (True, False):
        results = [asyncio.run(restart_once(cold)) for _ in range(runs)]

        def med(key: str, results: list[dict[str, float]] = results) -> str:
            return f"{statistics.median(r[key] for r in results):.2f}"

        label = "cold (empty sprite cache)" if cold else "cached sprites"
        print(f"restart on one core, {label} (median of {runs}):")
        print(f"  start -> connected {med('connected')} s; start -> first ack {med('first_ack')} s")
        print(f"  first click's ack {med('first_latency')} s; slowest ack in the first 10 s {med('max_latency')} s")
        print(f"  ({med('clicks')} clicks); start -> first hand picture shown {med('picture')} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", choices=("sprites", "restart"))
    args = ap.parse_args()
    if args.only != "restart":
        bench_sprites(args.runs)
    if args.only != "sprites":
        bench_restart(args.runs)


if __name__ == "__main__":
    main()

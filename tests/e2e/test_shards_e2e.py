"""Two bot processes share the shards of one bot and one PostgreSQL database (``TAVOLO_SHARD_COUNT=2``,
``TAVOLO_SHARD_IDS=0`` / ``1``), as in docs/operating.md ("PostgreSQL and shards").

Each process gets only its guild's events from the fake gateway; both play a game to the end and each
settlement is booked once. Then one process is killed (SIGKILL) mid-game while the other plays on; restarted,
it resumes only its own shard's table (its log names the tables it took over) and finishes it.

The humans' DMs are closed, so they play from "My hand" in the guild channel: Discord delivers every DM
interaction to shard 0, and a process cannot act on another shard's table (see docs/operating.md).
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.process import BotProcess
from fakediscord.users import FakeUser

from bot.storage.db import Database

from .driver import Player, play_until

SHARDS = 2


def _env(pg_url: str, shard: int) -> dict[str, str]:
    return {
        "TAVOLO_DATABASE": pg_url,
        "TAVOLO_SHARD_COUNT": str(SHARDS),
        "TAVOLO_SHARD_IDS": str(shard),
        "TAVOLO_LOG_LEVEL": "INFO",
        "TAVOLO_IMAGES": "off",
    }


def _games_over(fake: FakeDiscord, channel: st.Channel) -> int:
    return sum("game over" in m.text() for m in fake.channel_messages(channel))


async def _open_table(fake: FakeDiscord, host: FakeUser, channel: st.Channel) -> Player:
    """A Wizard table of one human and two computers (two short hands), started; the host holds its hand."""
    await (await host.slash(channel, "wizard new", rounds="1,2", stake_per_point=1)).reply()
    lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Start" for b in m.buttons()))
    for _ in range(2):
        await (await host.click(lobby, label="Add computer")).ack()
    await fake.wait_for(lambda: "Computer 2" in fake.message(lobby.id).text())
    await (await host.click(lobby, label="Start")).ack()
    return await _hand(fake, host, channel)


def _table_message(fake: FakeDiscord, channel: st.Channel) -> st.Message | None:
    """The newest message with a **My hand** button (the running table's)."""
    found = [m for m in fake.channel_messages(channel) if any(b["label"] == "My hand" for b in m.buttons())]
    return found[-1] if found else None


async def _hand(fake: FakeDiscord, user: FakeUser, channel: st.Channel) -> Player:
    msg = await fake.wait_for(lambda: _table_message(fake, channel), description="the running table's message")
    await (await user.click(msg, label="My hand")).reply()
    return Player(fake, user, random.Random(user.id))


async def _ledger(pg_url: str) -> dict[int, list[tuple[str, int, int]]]:
    """Per guild: (key, entries, stake sum) of each settlement, in booking order."""
    db = await Database.open(pg_url)
    try:
        rows = await db.fetchall(
            "SELECT s.guild_id, s.key, COUNT(e.id), SUM(CASE WHEN e.currency = 'stake' THEN e.amount ELSE 0 END)"
            " FROM settlements s JOIN entries e ON e.settlement_id = s.id"
            " GROUP BY s.id, s.guild_id, s.key ORDER BY s.id"
        )
    finally:
        await db.close()
    out: dict[int, list[tuple[str, int, int]]] = {}
    for guild_id, key, entries, stake in rows:
        out.setdefault(int(guild_id), []).append((str(key), int(entries), int(stake)))
    return out


def _restored(process: BotProcess) -> list[int]:
    (line,) = [ln for ln in process.lines if "restored" in ln and "open table(s)" in ln]
    assert f"of shards {process.shards()[0][0]}" in line, line
    return [int(x) for x in re.findall(r"\d+", line.rsplit(":", 1)[1])]


async def test_two_processes_two_shards_one_database(fake_discord: FakeDiscord, pg_url: str) -> None:
    fake = fake_discord
    fake.gateway.shard_count = SHARDS
    guilds = [fake.add_guild(f"on shard {i}", shard=(i, SHARDS)) for i in range(SHARDS)]
    channels = [fake.add_channel(g, "cards") for g in guilds]
    hosts = [fake.add_user(f"host{i}", dms_closed=True) for i in range(SHARDS)]
    await (await Database.open(pg_url)).close()  # migrate once, before two processes race to
    procs = list(await asyncio.gather(*(BotProcess(fake, env=_env(pg_url, i)).start() for i in range(SHARDS))))
    try:
        # Each process was sent only its own guild.
        for i in range(SHARDS):
            session = fake.gateway.live[(i, SHARDS)]
            assert session.owns(guilds[i].id) and not session.owns(guilds[1 - i].id)
        await fake.wait_for_commands("wizard", "table")

        # 1. A game to the end on each shard, both at once.
        players = list(await asyncio.gather(*(_open_table(fake, hosts[i], channels[i]) for i in range(SHARDS))))
        await play_until(fake, players, lambda: all(_games_over(fake, ch) == 1 for ch in channels))
        booked = await _ledger(pg_url)
        for g in guilds:
            ((_key, entries, stake),) = booked[g.id]  # booked once, by the guild's own process
            assert entries == 3 * 2 and stake == 0  # three seats, stake and point; zero-sum

        # 2. A second game on each; shard 1's process dies mid-game while shard 0's plays on.
        players = list(await asyncio.gather(*(_open_table(fake, hosts[i], channels[i]) for i in range(SHARDS))))
        # one click: the round-1 bid (round 1 then plays itself: one card each). The table is surely still
        # running at the kill: round 2 needs the human's bid, never forced. (After two clicks, a deal whose
        # round-2 cards are both forced could end the game before the kill.)
        await play_until(fake, [players[1]], lambda: False, stop_after=1)
        assert await procs[1].kill() != 0
        killed = procs[1]
        survivor = asyncio.create_task(
            play_until(fake, [players[0]], lambda: _games_over(fake, channels[0]) == 2, timeout=20)
        )
        procs[1] = await BotProcess(fake, env=_env(pg_url, 1)).start()
        await fake.wait_for(lambda: any("open table(s)" in ln for ln in procs[1].lines), description="the restore")
        assert await survivor > 0  # shard 0 played its whole game meanwhile, whatever shard 1 was doing

        # The restarted process took over its own open table only.
        db = await Database.open(pg_url)
        try:
            rows = await db.fetchall("SELECT id, guild_id, status FROM game_tables ORDER BY id")
        finally:
            await db.close()
        tables: dict[int, Any] = {int(r[0]): (int(r[1]), str(r[2])) for r in rows}
        running = [t for t, (g, status) in tables.items() if g == guilds[1].id and status == "running"]
        assert len(running) == 1, (tables, killed.output, procs[1].output)
        open_on_1 = running[0]
        assert _restored(procs[1]) == [open_on_1]
        assert all(g == guilds[0].id or t == open_on_1 or s == "finished" for t, (g, s) in tables.items())

        # It finishes its table from the same table message; the player opens their hand again.
        players[1] = await _hand(fake, hosts[1], channels[1])
        await play_until(fake, [players[1]], lambda: _games_over(fake, channels[1]) == 2)
        booked = await _ledger(pg_url)
        for g in guilds:
            assert len(booked[g.id]) == 2 and len({k for k, _, _ in booked[g.id]}) == 2
            assert all(entries == 6 and stake == 0 for _, entries, stake in booked[g.id])
        assert not fake.late_acks
        fake.assert_clean()
    finally:
        for p in procs:
            if p.returncode is None:
                assert await p.stop() == 0
    # Shard 0's process started with nothing open and never took over a table of shard 1's guild.
    assert "restored 0 open table(s) of shards 0: -" in procs[0].output
    for p in (*procs, killed):
        assert "Traceback" not in p.output and " ERROR " not in p.output, p.output


async def test_dm_clicks_reach_the_process_holding_the_table(fake_discord: FakeDiscord, pg_url: str) -> None:
    """Players with open DMs play from their hand DMs; every DM click reaches shard 0's process, which passes
    those of shard 1's table on (bot/transport/forwarding.py). Both games end, each booked once."""
    fake = fake_discord
    fake.gateway.shard_count = SHARDS
    guilds = [fake.add_guild(f"on shard {i}", shard=(i, SHARDS)) for i in range(SHARDS)]
    channels = [fake.add_channel(g, "cards") for g in guilds]
    hosts = [fake.add_user(f"host{i}") for i in range(SHARDS)]
    await (await Database.open(pg_url)).close()
    procs = list(await asyncio.gather(*(BotProcess(fake, env=_env(pg_url, i)).start() for i in range(SHARDS))))
    try:
        await fake.wait_for_commands("wizard", "table")
        players = [Player(fake, h, random.Random(h.id)) for h in hosts]
        for host, channel in zip(hosts, channels, strict=True):
            await (await host.slash(channel, "wizard new", rounds="1,2", stake_per_point=1)).reply()
            lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Start" for b in m.buttons()))
            for _ in range(2):
                await (await host.click(lobby, label="Add computer")).ack()
            await fake.wait_for(lambda lobby=lobby: "Computer 2" in fake.message(lobby.id).text())
            await (await host.click(lobby, label="Start")).ack()
        await fake.wait_for(lambda: all(p.panel() is not None for p in players), description="the hand DMs")
        assert all(p.user.dm_messages() for p in players)  # they play from DMs, not from the channel
        await play_until(fake, players, lambda: all(_games_over(fake, ch) == 1 for ch in channels))
        booked = await _ledger(pg_url)
        for g in guilds:
            ((_key, entries, stake),) = booked[g.id]
            assert entries == 6 and stake == 0
        assert not fake.late_acks
        fake.assert_clean()
    finally:
        for p in procs:
            assert await p.stop() == 0
    for p in procs:
        assert "Traceback" not in p.output and " ERROR " not in p.output, p.output

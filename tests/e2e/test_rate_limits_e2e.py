"""Tables of all four games played at once with Discord's rate limits enforced by the fake (global 50/s, the
per-route limits and their headers): the bot plans its requests and never meets a single 429."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord

from .driver import Player, game_over, play_until, quiesce, start_bot, stop_bot

#: (options of ``/<game> new``, computers to add) for a short game of 2 humans
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "wizard": ({"rounds": "1-2"}, 2),
    "mediatore": ({"hands": 1}, 2),
    "mighty": ({"hands": 1}, 3),
    "minchiate": ({"deals_per_game": 1}, 2),
}


async def test_four_games_at_once_without_a_429(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    limits = fake.discord_limits(50)
    assert limits is not None
    guild = fake.add_guild("Friends")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id, edit_interval=0.25, images=True)
    try:
        tables = []
        for i, game in enumerate(sorted(GAMES)):
            options, computers = GAMES[game]
            channel = fake.add_channel(guild, game)
            host, guest = fake.add_user(f"host{i}"), fake.add_user(f"guest{i}")
            await (await host.slash(channel, f"{game} new", **options)).reply()
            lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
            await (await guest.click(lobby, label="Join")).ack()
            for _ in range(computers):
                await (await host.click(lobby, label="Add computer")).ack()
            await (await host.click(lobby, label="Start")).ack()
            watch = [channel.id, host.id, guest.id, host.dm_channel.id, guest.dm_channel.id]
            players = [Player(fake, u, random.Random(u.id)) for u in (host, guest)]
            tables.append((channel, players, watch))
        await asyncio.gather(
            *(
                play_until(fake, players, lambda ch=ch: game_over(fake, ch), watch=watch, timeout=60)
                for ch, players, watch in tables
            )
        )
        await quiesce(bot)
        assert limits.refused == {}, limits.refused
        assert fake.rate_limited == 0
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)

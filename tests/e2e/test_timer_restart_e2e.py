"""A turn timer survives a restart of the bot: the deadline is stored with the table, so after the restart the turn
keeps the time it had left (the computer takes over at the original deadline, not a whole timer later)."""

from __future__ import annotations

import random
from pathlib import Path

from fakediscord import FakeDiscord

from .driver import Player, quiesce, start_bot, stop_bot


async def test_the_turn_deadline_stands_after_a_restart(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    db = tmp_path / "t.db"
    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="3-5", turn_timer=600)).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        for _ in range(2):
            await (await alice.click(lobby, label="Add computer")).ack()
        await (await alice.click(lobby, label="Start")).ack()
        assert bot.tables is not None
        table = next(iter(bot.tables.tables.values()))
        player = Player(fake, alice, random.Random(alice.id))
        await fake.wait_for(lambda: player.can_act() or None)
        await quiesce(bot)
        deadline, version = table.deadline, table.version
        assert deadline is not None
    finally:
        await stop_bot(bot, task)

    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        assert bot.tables is not None
        await quiesce(bot)
        table = bot.tables.get(table.id)
        assert table.version == version and table.deadline == deadline  # not re-armed with a fresh 600 s
        assert await bot.tables.tick(deadline - 1) == []
        assert await bot.tables.tick(deadline + 1) == [table.id]
        await fake.wait_for_message(channel, lambda m: "ran out of time" in m.text() and "alice" in m.text())
        await fake.wait_for(lambda: table.version > version)  # the computer played for her
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)

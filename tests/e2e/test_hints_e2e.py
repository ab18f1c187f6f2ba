"""Hints at a Discord table: the ``hints`` option puts a Hint button in the player's own controls, the answer is
private, the table message says hints are on, and the table's hand record names who asked where."""

from __future__ import annotations

import random
from pathlib import Path

from fakediscord import FakeDiscord

from bot.records.show import hints_asked
from bot.tables.hand_records import record_of

from .driver import Player, start_bot, stop_bot, table_message


async def test_a_hint_is_private_and_recorded(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        h = await alice.slash(channel, "wizard new", rounds="3", hints=True)
        await h.reply()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Start" for b in m.buttons()))
        assert "hints=True" in lobby.text()
        for _ in range(2):
            await (await alice.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda: "Computer 2" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()
        table_msg = await fake.wait_for(lambda: table_message(fake, channel))
        await fake.wait_for(lambda: "Hints are on" in fake.message(table_msg.id).text())

        def hint_button() -> object | None:
            dms = alice.dm_messages()
            if not dms:
                return None
            return dms[-1] if any(b.get("label") == "💡 Hint" for b in dms[-1].buttons()) else None

        dm = await fake.wait_for(hint_button)
        answer = await (await alice.click(dm, label="💡 Hint")).reply()
        assert answer.text().startswith("💡") and "simulated deal" in answer.text()
        assert answer.ephemeral and answer.ephemeral_for == alice.id  # only alice sees it
        assert all("💡 " not in m.text() or "Hints are on" in m.text() for m in fake.channel_messages(channel))

        table = next(iter(bot.tables.tables.values()))  # type: ignore[union-attr]
        assert [s for _v, s in table.hints_asked] == [0]
        version = table.hints_asked[0][0]
        assert "Hints" not in record_of(table).tags  # the record names a hint with the action it came before
        await (await Player(fake, alice, random.Random(1)).act()).ack()
        await fake.wait_for(lambda: table.version > version)
        rec = record_of(table)
        assert rec.tags["Hints"] == f"1@{version + 1}"
        assert hints_asked(rec.tags["Hints"]) == {version: [0]}
    finally:
        await stop_bot(bot, task)

"""Hand records through the fake Discord: ``/table replay`` leafed through with ◀ ▶ (also after a restart),
``/table export`` of a finished table and the file replayed with ``/table replay file:``."""

from __future__ import annotations

import random
from pathlib import Path

from fakediscord import FakeDiscord

from .driver import Player, game_over, play_until, start_bot, stop_bot


async def test_replay_export_and_reimport(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    db = tmp_path / "t.db"
    bot, task = await start_bot(fake, db, guild.id)
    try:
        refused = await (await alice.slash(channel, "table replay")).reply()
        assert "No table has been played" in refused.text()
        await (await alice.slash(channel, "wizard new", rounds="1-2")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        await (await bob.click(lobby, label="Join")).ack()
        await (await alice.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda: "Computer 1" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()
        players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, bob))]
        await play_until(fake, players, lambda: game_over(fake, channel))

        # the last finished hand (round 2: two tricks, so two pages), only for the one who asked
        h = await alice.slash(channel, "table replay")
        shown = await h.reply()
        assert h.ephemeral and "Hand 2" in shown.text() and "Page 1 of 2" in shown.text()
        await (await alice.click(shown, label="▶")).ack()
        assert "Page 2 of 2" in fake.message(shown.id).text()
        first = await (await alice.slash(channel, "table replay", hand=1)).reply()
        assert "Hand 1" in first.text() and "Page 1 of 1" in first.text()
        nope = await (await alice.slash(channel, "table replay", hand=3)).reply()
        assert "not finished" in nope.text()

        # export: players only, as a file that replays
        outsider = await (await carol.slash(channel, "table export")).reply()
        assert "Only the players" in outsider.text()
        exported = await (await bob.slash(channel, "table export")).reply()
        assert exported.attachments, exported.text()
        record = fake.files[str(exported.attachments[0]["id"])]
        assert record.startswith(b'[Game "wizard"]')
    finally:
        await stop_bot(bot, task)

    # after a restart the buttons of the old replay still turn its pages
    bot, task = await start_bot(fake, db, guild.id)
    try:
        await (await alice.click(fake.message(shown.id), label="◀")).ack()
        assert "Page 1 of 2" in fake.message(shown.id).text()
        again = await (await carol.slash(channel, "table replay", file=("hand.txt", record))).reply()
        assert "Wizard — record" in again.text() and "Hand 2" in again.text()
        tampered = record.replace(b"[Seed ", b"[Seed 1")
        bad = await (await carol.slash(channel, "table replay", file=("bad.txt", tampered))).reply()
        assert "not valid" in bad.text() and "line" in bad.text()
    finally:
        await stop_bot(bot, task)

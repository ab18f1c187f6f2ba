"""A table's life beyond the happy path: turn timers, taking a seat back, computer levels, 429s."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord

from .driver import Player, game_over, play_until, quiesce, start_bot, stop_bot, table_message


async def test_timeout_computer_takes_over_and_player_comes_back(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="3-5", turn_timer=30)).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        await (await bob.click(lobby, label="Join")).ack()
        # a computer of a chosen level, from the lobby's select menu
        await (await alice.select(lobby, ["easy"], placeholder="Add a computer of a chosen level…")).ack()
        await fake.wait_for(lambda: "(easy)" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()
        assert bot.tables is not None
        table = next(iter(bot.tables.tables.values()))
        assert table.turn_timeout == 30 and table.seats[2].ai_level == "easy"

        players = {u.id: Player(fake, u, random.Random(u.id)) for u in (alice, bob)}
        waiting = await fake.wait_for(lambda: next((p for p in players.values() if p.can_act()), None))
        await quiesce(bot)
        version = table.version
        # The clock runs out (the scheduler calls tick() at the deadline; here we call it directly).
        assert await bot.tables.tick(time.time() + 31) == [table.id]
        await fake.wait_for_message(channel, lambda m: "ran out of time" in m.text() and waiting.user.name in m.text())
        await fake.wait_for(lambda: table.version > version)  # the computer played for them
        seat = table.seat_of(waiting.user.id)
        assert seat is not None and table.seats[seat].away
        await quiesce(bot)
        assert any(b["label"] == "I'm back" for b in (table_message(fake, channel) or lobby).buttons())
        dm = waiting.panel()
        assert dm is not None and "computer is playing for you" in dm.text()
        back = await waiting.user.click(dm, label="I'm back")
        assert "Welcome back" in (await back.reply()).text()
        assert not table.seats[seat].away
        await play_until(fake, list(players.values()), lambda: game_over(fake, channel))
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)


async def test_halfway_through_a_turn_the_player_gets_a_reminder(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Edits of the hand DM do not notify: halfway through the timer a new DM reminds the player (deleted once the
    turn has passed); a player whose DMs are closed is mentioned in the channel instead."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob", dms_closed=True)
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="3-5", turn_timer=60)).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        await (await bob.click(lobby, label="Join")).ack()
        await (await alice.click(lobby, label="Add computer")).ack()
        await (await alice.click(lobby, label="Start")).ack()
        await fake.wait_for_message(channel, lambda m: "can't send you direct messages" in m.text())
        table_msg = await fake.wait_for(lambda: table_message(fake, channel))
        await (await bob.click(table_msg, label="My hand")).reply()
        assert bot.tables is not None
        table = next(iter(bot.tables.tables.values()))
        players = {u.id: Player(fake, u, random.Random(u.id)) for u in (alice, bob)}

        def dm_pings() -> list[Any]:
            return [m for m in alice.dm_messages() if "Your turn at table" in m.text()]

        def channel_pings() -> list[Any]:
            return [m for m in fake.channel_messages(channel) if f"<@{bob.id}>, it's your turn" in m.text()]

        reminded: set[str] = set()
        while reminded != {"alice", "bob"}:
            await quiesce(bot)
            assert table.deadline is not None and table.game is not None
            (seat,) = table.game.to_move()  # a human's turn: the computer has played
            player = next(p for p in players.values() if p.user.id == table.seats[seat].user_id)
            await fake.wait_for(lambda p=player: p.can_act() or None)  # type: ignore[misc]
            before = (len(dm_pings()), len(channel_pings()))
            await bot.tables.tick(table.deadline - 20)  # 40 of the 60 s have gone
            await bot.tables.tick(table.deadline - 10)  # once per turn
            await quiesce(bot)
            if player.user is alice:
                assert (len(dm_pings()), len(channel_pings())) == (1, before[1])
                (ping,) = dm_pings()
                assert "20 s left" in ping.text() and not ping.embeds and not ping.components
            else:
                assert (len(dm_pings()), len(channel_pings())) == (before[0], before[1] + 1)
                assert "20 s left" in channel_pings()[-1].text()
            await (await player.act()).ack()
            reminded.add(player.user.name)
            await quiesce(bot)
            assert dm_pings() == []  # the turn has passed: the reminder is deleted, the hand stays
            assert players[alice.id].panel() is not None
        await play_until(fake, list(players.values()), lambda: game_over(fake, channel))
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)


async def _alone_with_two_computers(fake: FakeDiscord, bot: Any, channel: Any, alice: Any, *, timer: int) -> Any:
    """A Wizard table of ``alice`` and two computers, started, with ``alice`` to act and her timer running."""
    await (await alice.slash(channel, "wizard new", rounds="3-5", turn_timer=timer)).reply()
    lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
    for _ in range(2):
        await (await alice.click(lobby, label="Add computer")).ack()
    await (await alice.click(lobby, label="Start")).ack()
    assert bot.tables is not None
    table = next(iter(bot.tables.tables.values()))
    player = Player(fake, alice, random.Random(alice.id))
    await fake.wait_for(lambda: player.can_act() or None)
    await quiesce(bot)
    assert table.deadline is not None
    return table, player


async def test_the_turn_deadline_stands_after_a_restart(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The deadline is stored with the table: after a restart the turn keeps the time it had left (the computer
    takes over at the original deadline, not a whole timer later)."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    db = tmp_path / "t.db"
    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        table, _ = await _alone_with_two_computers(fake, bot, channel, alice, timer=600)
        deadline, version = table.deadline, table.version
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


async def test_a_reminder_sent_before_a_restart_is_deleted_after_it(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The reminder is saved with the table: the bot stops after sending it, starts again, and the reminder still
    goes once the player has acted."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    db = tmp_path / "t.db"
    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        table, player = await _alone_with_two_computers(fake, bot, channel, alice, timer=60)
        await bot.tables.tick(table.deadline - 20)
        await quiesce(bot)
    finally:
        await stop_bot(bot, task)

    def pings() -> list[Any]:
        return [m for m in alice.dm_messages() if "Your turn at table" in m.text()]

    assert len(pings()) == 1
    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        await quiesce(bot)
        assert len(pings()) == 1  # still the player's turn: the reminder stands
        await (await player.act()).ack()
        await quiesce(bot)
        assert pings() == []
        assert bot.tables is not None
        assert not any(k.startswith("ping:") for k in next(iter(bot.tables.tables.values())).messages)
    finally:
        await stop_bot(bot, task)


async def test_game_survives_rate_limits(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Discord answers 429 to bursts it did not announce; discord.py retries and the game goes on."""
    fake = fake_discord
    fake.set_rate_limit(3, 1.0, advertise=False)
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="1-2")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        await (await bob.click(lobby, label="Join")).ack()
        await (await alice.click(lobby, label="Add computer")).ack()
        await (await alice.click(lobby, label="Add computer")).ack()
        await (await alice.click(lobby, label="Start")).ack()
        players = [Player(fake, u, random.Random(u.id)) for u in (alice, bob)]
        await play_until(fake, players, lambda: game_over(fake, channel))
        assert fake.rate_limited > 0
        assert bot.db is not None
        rows = await bot.db.fetchall("SELECT COUNT(*) FROM settlements")
        assert rows[0][0] == 1
        assert not fake.late_acks
    finally:
        await stop_bot(bot, task)


async def test_strong_computer_plays_from_a_worker_process(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="1-2")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        for _ in range(2):
            await (await alice.select(lobby, ["strong"], placeholder="Add a computer of a chosen level…")).ack()
        await fake.wait_for(lambda: fake.message(lobby.id).text().count("(strong)") == 2)
        await (await alice.click(lobby, label="Start")).ack()
        await play_until(fake, [Player(fake, alice, random.Random(5))], lambda: game_over(fake, channel))
        assert bot.agent_runner is not None and bot.agent_runner.uses_processes
        assert not fake.late_acks
    finally:
        await stop_bot(bot, task)


async def test_help_lists_every_command(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """``/help`` answers privately with how to start a table and every registered command (from the live tree)."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        reply = await (await alice.slash(channel, "help")).reply()
        assert reply.ephemeral
        text = reply.text()
        assert "**Join**" in text and "/<game> new" in text
        registered = []
        for c in fake.commands(guild):
            subs = [o for o in c.get("options") or [] if o["type"] in (1, 2)]
            registered += [f"/{c['name']} {o['name']}" for o in subs] if subs else [f"/{c['name']}"]
        assert len(registered) > 25
        assert [r for r in registered if f"`{r}`" not in text] == []
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)


async def test_play_again_opens_a_new_lobby_like_the_finished_table(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A finished table's message offers **Play again** to its players: a new lobby in the channel with the same
    options, turn timer and computers, hosted by the clicker. It works after a restart too (the finished table is
    read back from the database)."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "t.db"
    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="1", bid_mode="secret", turn_timer=45)).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        await (await alice.click(lobby, label="Add computer")).ack()
        await (await alice.select(lobby, ["easy"], placeholder="Add a computer of a chosen level…")).ack()
        await fake.wait_for(lambda: "(easy)" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()
        assert bot.tables is not None
        (old,) = bot.tables.tables.values()
        await play_until(fake, [Player(fake, alice, random.Random(1))], lambda: game_over(fake, channel))
        await quiesce(bot)
        assert old.status == "finished" and not bot.tables.tables  # finished tables leave memory
        finished = fake.message(old.messages["table"])
        assert [b["label"] for b in finished.buttons()] == ["Play again"]

        refused = await (await bob.click(finished, label="Play again")).reply()
        assert "Only the players" in refused.text() and refused.ephemeral
        reply = await (await alice.click(finished, label="Play again")).reply()
        assert reply.ephemeral and "new Wizard table" in reply.text()
        await quiesce(bot)
        (new,) = bot.tables.tables.values()
        assert new.status == "lobby" and new.host_id == alice.id and new.options == old.options
        assert new.turn_timeout == 45
        assert [(s.user_id, s.ai_level) for s in new.seats] == [(alice.id, None), (None, "normal"), (None, "easy")]
        lobby2 = fake.message(new.messages["table"])
        assert lobby2.id != finished.id and any(b["label"] == "Join" for b in lobby2.buttons())
        again = await (await alice.click(finished, label="Play again")).reply()  # one table per channel
        assert "already a table in this channel" in again.text()
        await bot.tables.cancel(new.id, alice.id)
    finally:
        await stop_bot(bot, task)

    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        assert bot.tables is not None and bot.tables.tables == {}  # nothing open: the finished table is not loaded
        reply = await (await alice.click(finished, label="Play again")).reply()
        assert "new Wizard table" in reply.text()
        await quiesce(bot)
        (t,) = bot.tables.tables.values()
        assert t.options == old.options and [s.ai_level for s in t.seats] == [None, "normal", "easy"]
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)

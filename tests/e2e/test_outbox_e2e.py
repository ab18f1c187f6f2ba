"""What players are owed survives crashes and Discord's 503s (issue #23): the real bot process (``python -m bot``)
against the fake Discord, SIGKILLed at chosen moments — a click in the middle of a hand, right after the last action
of a hand (before and after its summary reached Discord), right after the last action of the game, after the final
table render — and, separately, with Discord answering 503 to a share of requests. Turn reminders and table notices
too: killed while a passed turn's reminder is deleted, or before the host's ending of the table is told; a reminder
delete or create whose answer was lost.

Whatever happens, once the game is over, the players see exactly what a second, real and uninterrupted run of the
same game shows (the same seed, the same clicks: each player's choice depends only on what their hand message
offers): the same final table message, the same final DMs, the same channel posts, each once, in order.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.process import BotProcess
from fakediscord.rest import ApiRequest

from .driver import Player, action_components, game_over, play_until, start_bot, stop_bot, table_message
from .seeded import FAST_EDITS, Shown, StatePlayer, all_sent, finished, posts, seeded_bot, seeded_env, shown

_REFERENCE: list[Shown] = []


async def _uninterrupted(tmp_path: Path) -> Shown:
    """What a real run of the same game shows when nothing goes wrong: its own fake Discord, bot process, database
    and players (same names, same seed, same policy); once per test session."""
    if _REFERENCE:
        return _REFERENCE[0]
    fake = await FakeDiscord().start()
    try:
        guild = fake.add_guild("Friends")
        channel = fake.add_channel(guild, "cards")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        db = tmp_path / "uninterrupted.db"
        players = [StatePlayer(fake, u, random.Random(0)) for u in (alice, bob)]
        async with seeded_bot(fake, db, guild.id, edit_interval=FAST_EDITS):
            await _open_wizard(fake, channel, alice, bob)
            await play_until(fake, players, lambda: game_over(fake, channel), timeout=30)
            await all_sent(db)
            await fake.wait_for(lambda: finished(fake, channel, [alice, bob]), timeout=30)
            seen = shown(fake, channel, [alice, bob])
        assert not fake.unhandled and not fake.errors
    finally:
        await fake.stop()
    # (what is compared: the finished table, one hand message per player, the results and the game-over post)
    assert len(seen.table) == 1 and all(len(texts) == 1 for texts in seen.dms.values())
    assert len(seen.posts) == 2 and "game over" in seen.posts[-1]
    _REFERENCE.append(seen)
    return seen


async def _open_wizard(fake: FakeDiscord, channel: st.Channel, alice: Any, bob: Any) -> None:
    """Alice opens a two-hand Wizard table for herself, Bob and one computer, and starts it."""
    await fake.wait_for_commands("wizard", "table")
    await (await alice.slash(channel, "wizard new", rounds="1-2", stake_per_point=1)).reply()
    lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
    await (await bob.click(lobby, label="Join")).ack()
    await (await alice.click(lobby, label="Add computer")).ack()
    await fake.wait_for(lambda: "Computer 1" in fake.message(lobby.id).text())
    await (await alice.click(lobby, label="Start")).ack()


async def _assert_final(fake: FakeDiscord, channel: st.Channel, users: list[Any], db: Path) -> None:
    """Everything the players see equals what the uninterrupted run showed (each post once), and every owed row is
    confirmed."""
    expected = await _uninterrupted(db.parent)
    try:
        await fake.wait_for(
            lambda: shown(fake, channel, users) == expected,
            timeout=30,
            description="every message as the uninterrupted run shows it, every post once",
        )
    except TimeoutError:
        assert shown(fake, channel, users) == expected  # (pytest shows the difference)
        raise
    await all_sent(db)


def _is_callback(r: ApiRequest) -> bool:
    return r.method == "POST" and r.path.startswith("/interactions/") and r.path.endswith("/callback")


def _owed_post(r: ApiRequest, text: str = "") -> bool:
    body = r.json()
    return (
        r.method == "POST"
        and r.path.startswith("/channels/")
        and str(body.get("nonce", "")).startswith("tvo")
        and text in str(body.get("content", ""))
    )


def _final_table_edit(r: ApiRequest) -> bool:
    embeds = r.json().get("embeds") or []
    return r.method == "PATCH" and any("— finished" in str(e.get("title", "")) for e in embeds)


def _nth(predicate: Any, n: int) -> Any:
    seen = [0]

    def match(r: ApiRequest) -> bool:
        if predicate(r):
            seen[0] += 1
            return seen[0] == n
        return False

    return match


#: where the bot dies: (request predicate, killed after Discord carried the request out)
KILLS: dict[str, tuple[Any, bool]] = {
    # the third click of the game: its action committed and answered, the renders it causes not yet sent
    "mid-hand click": (_nth(_is_callback, 3), True),
    # the hand's last action committed, its summary not yet posted
    "end of a hand": (_owed_post, False),
    # the summary reached Discord, the bot died before recording it (Discord's nonce stops a second one)
    "summary posted, not recorded": (_owed_post, True),
    # the game's last action committed, the game-over post not yet made
    "end of the game": (lambda r: _owed_post(r, "game over"), False),
    # the final table message went out, the DMs and the records of it did not
    "final render": (_final_table_edit, True),
}


@pytest.mark.parametrize("moment", list(KILLS))
async def test_killed_at_a_moment_then_restarted(fake_discord: FakeDiscord, tmp_path: Path, moment: str) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "tavolo.db"
    players = [StatePlayer(fake, u, random.Random(0)) for u in (alice, bob)]

    first = await seeded_bot(fake, db, guild.id, edit_interval=FAST_EDITS).start()
    try:
        await _open_wizard(fake, channel, alice, bob)
        predicate, after = KILLS[moment]
        pid = first.pid
        assert pid is not None
        fake.kill_on(predicate, lambda: os.kill(pid, signal.SIGKILL), after=after)
        try:
            await play_until(fake, players, lambda: first.returncode is not None, timeout=30)
        except TimeoutError:
            if first.returncode is None:
                raise  # (the click being answered when the bot died is never acknowledged)
    finally:
        assert await first.kill() != 0

    second = await seeded_bot(fake, db, guild.id, edit_interval=FAST_EDITS).start()
    try:
        for p in players:
            p._clicked = None  # a click the dead process never answered may be made again
        await play_until(fake, players, lambda: game_over(fake, channel), timeout=30)
        await _assert_final(fake, channel, [alice, bob], db)
        assert not fake.unhandled and not fake.errors
        # a summary that reached Discord unrecorded is created again with its nonce: Discord returns the first
        assert fake.nonce_hits == (1 if moment == "summary posted, not recorded" else 0)
    finally:
        assert await second.stop() == 0


async def test_every_message_lands_despite_503s(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Discord answers 503 to 15 % of the bot's message requests (discord.py raises those at once) and to 5 % more
    after carrying them out: every render, post and reminder deletion is sent again until it lands, and no message
    is created twice (creates carry a nonce with ``enforce_nonce``)."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "tavolo.db"
    players = [StatePlayer(fake, u, random.Random(0)) for u in (alice, bob)]
    async with seeded_bot(fake, db, guild.id, edit_interval=FAST_EDITS) as bot:
        await _open_wizard(fake, channel, alice, bob)
        faults = fake.inject_faults(0.15, after=0.05, seed=23, interactions=False)
        await play_until(fake, players, lambda: game_over(fake, channel), timeout=30)
        await _assert_final(fake, channel, [alice, bob], db)
        assert faults.injected >= 3  # the faults did happen
        assert "503" in bot.output
        # one hand message per player: a create carried out but answered 503 was not made again
        assert all(len([m for m in u.dm_messages() if m.embeds or m.is_v2]) == 1 for u in (alice, bob))
    assert not fake.unhandled and not fake.errors


async def test_tournament_killed_between_the_draw_and_its_announcement(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Round 2 is drawn (and stored) when round 1's table ends; the bot dies before opening its thread, i.e. before
    anything was announced. The restarted bot announces the round in the channel and mentions the players in the
    table's thread, once each. Then it dies right after the tournament ended, before the podium: the next start
    posts it, once."""
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "tournament")
    users = [fake.add_user(n) for n in ("ann", "ben", "cid")]
    db = tmp_path / "tavolo.db"
    players = [Player(fake, u, random.Random(i)) for i, u in enumerate(users)]

    def round_two_thread(r: ApiRequest) -> bool:
        return r.method == "POST" and r.path.endswith("/threads") and "round 2" in str(r.json().get("name", ""))

    first = await seeded_bot(fake, db, guild.id, edit_interval=FAST_EDITS).start()
    try:
        await fake.wait_for_commands("tournament")
        create = await users[0].slash(channel, "tournament create", game="mediatore", rounds=2, hands_per_round=1)
        await create.reply()
        signup = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        for u in users[1:]:
            await (await u.click(signup, label="Join")).reply()
        pid = first.pid
        assert pid is not None
        fake.kill_on(round_two_thread, lambda: os.kill(pid, signal.SIGKILL))
        await (await users[0].click(signup, label="Start")).ack()
        try:
            await play_until(fake, players, lambda: first.returncode is not None, timeout=30, max_clicks=500)
        except TimeoutError:
            if first.returncode is None:
                raise
    finally:
        assert await first.kill() != 0
    assert not any("round 2 of 2" in text for text in posts(fake, channel))

    def threads() -> list[st.Channel]:
        return [c for c in fake.world.channels.values() if c.is_thread and c.parent_id == channel.id]

    def podium() -> bool:
        return any("final podium" in m.text() for m in fake.channel_messages(channel))

    second = await seeded_bot(fake, db, guild.id, edit_interval=FAST_EDITS).start()
    try:
        for p in players:
            p._clicked = None
        # and this one dies right after the tournament's end is stored, before its podium is posted
        pid = second.pid
        assert pid is not None
        fake.kill_on(lambda r: _owed_post(r, "final podium"), lambda: os.kill(pid, signal.SIGKILL))
        try:
            await play_until(fake, players, lambda: second.returncode is not None, timeout=30, max_clicks=500)
        except TimeoutError:
            if second.returncode is None:
                raise
        # (the standings message says "round 2 of 2" too, in its embed: only the plain posts are notices)
        notices = [text for text in posts(fake, channel) if "round 2 of 2" in text]
        assert len(notices) == 1
        (thread,) = [th for th in threads() if "round 2" in th.name]
        mentions = [m for m in fake.channel_messages(thread) if "round 2, table 1" in m.text()]
        assert len(mentions) == 1 and all(f"<@{u.id}>" in mentions[0].text() for u in users)
        assert len([text for text in posts(fake, channel) if "round 1 of 2" in text]) == 1
        assert not podium()
    finally:
        assert await second.kill() != 0

    third = await seeded_bot(fake, db, guild.id, edit_interval=FAST_EDITS).start()
    try:
        await fake.wait_for(podium, timeout=20, description="the podium, after the restart")
        assert len([text for text in posts(fake, channel) if "final podium" in text]) == 1
    finally:
        assert await third.stop() == 0


async def test_a_notice_and_a_reminders_removal_survive_a_kill(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A turn reminder whose turn has passed is deleted, and the host's ending of the table is told, even when the bot
    dies right after the action that owes them: the restarted bot deletes the reminder and posts the notice (and the
    game-over post the end owes), once each; the table message keeps no game controls."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "tavolo.db"
    players = [Player(fake, u, random.Random(30 + i)) for i, u in enumerate((alice, bob))]

    def reminders(u: Any) -> list[st.Message]:
        return [m for m in u.dm_messages() if "Your turn at table" in m.text()]

    first = await BotProcess(fake, env=seeded_env(db, guild.id)).start()
    try:
        await fake.wait_for_commands("wizard", "table")
        await (await alice.slash(channel, "wizard new", rounds="3-4", turn_timer=16)).reply()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        await (await bob.click(lobby, label="Join")).ack()
        await (await alice.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda: "Computer 1" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()
        # halfway through the 16 s turn the player to move gets a reminder
        reminded = await fake.wait_for(
            lambda: next((p for p in players if reminders(p.user)), None), timeout=20, description="a reminder"
        )
        (ping,) = reminders(reminded.user)
        pid = first.pid
        assert pid is not None
        fake.kill_on(
            lambda r: r.method == "DELETE" and r.path.endswith(f"/messages/{ping.id}"),
            lambda: os.kill(pid, signal.SIGKILL),
        )
        await fake.wait_for(reminded.can_act, timeout=10)
        await reminded.act()  # the turn passes: the reminder's removal is owed, and the bot dies sending it
        await fake.wait_for(lambda: first.returncode is not None, timeout=20, description="the bot to die")
    finally:
        await first.kill()
    assert reminders(reminded.user) == [ping]

    second = await BotProcess(fake, env=seeded_env(db, guild.id)).start()
    try:
        await fake.wait_for(lambda: not reminders(reminded.user), timeout=20, description="the reminder deleted")
        # now the host ends the table, and the bot dies before it told the channel
        pid = second.pid
        assert pid is not None
        fake.kill_on(lambda r: _owed_post(r, "ended the session"), lambda: os.kill(pid, signal.SIGKILL))
        table = await fake.wait_for(lambda: table_message(fake, channel), timeout=10)
        ask = await (await alice.click(table, label="End Wizard table")).reply()
        await (await alice.click(ask, label="Yes")).ack(timeout=10)
        await fake.wait_for(lambda: second.returncode is not None, timeout=20, description="the bot to die")
    finally:
        await second.kill()
    assert not [text for text in posts(fake, channel) if "ended the session" in text]

    third = await BotProcess(fake, env=seeded_env(db, guild.id)).start()
    try:

        def closing() -> list[str]:  # the game-over post ("no hand was completed" here)
            return [text for text in posts(fake, channel) if text.startswith("🏁")]

        await fake.wait_for(closing, timeout=20, description="the game-over post")
        assert len([text for text in posts(fake, channel) if "ended the session" in text]) == 1
        assert len(closing()) == 1
        await fake.wait_for(
            lambda: (
                all(not action_components(m) for u in (alice, bob) for m in u.dm_messages())
                and not any(b["label"] == "My hand" for b in fake.message(table.id).buttons())
            ),
            timeout=20,
            description="no game controls left",
        )
        assert not reminders(alice) and not reminders(bob)
    finally:
        assert await third.stop() == 0
    con = sqlite3.connect(db)
    try:
        owed = con.execute("SELECT kind, state FROM outbox WHERE kind IN ('note', 'unping')").fetchall()
    finally:
        con.close()
    assert ("note", "sent") in owed and ("unping", "sent") in owed and all(s == "sent" for _k, s in owed)
    assert not fake.unhandled and not fake.errors


async def _alone_with_computers(fake: FakeDiscord, channel: Any, alice: Any) -> None:
    """Alice starts a timed Wizard table (60 s turns) against two computers."""
    await (await alice.slash(channel, "wizard new", rounds="3-5", turn_timer=60)).reply()
    lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
    for _ in range(2):
        await (await alice.click(lobby, label="Add computer")).ack()
    await (await alice.click(lobby, label="Start")).ack()


async def test_a_reminder_found_gone_is_deleted_not_failed(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The reminder's delete is carried out but its answer lost (503): the Outbox sends it again, Discord answers
    404 Unknown Message, and that is the delete done — its row is marked sent, nothing is logged as an error."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await _alone_with_computers(fake, channel, alice)
        assert bot.tables is not None and bot.db is not None
        (table,) = bot.tables.tables.values()
        player = Player(fake, alice, random.Random(1))
        await fake.wait_for(lambda: player.can_act() and table.deadline is not None)
        assert table.deadline is not None
        await bot.tables.tick(table.deadline - 20)  # halfway through the turn: the reminder
        ping = await alice.wait_for_dm(lambda m: "Your turn at table" in m.text())

        def delete(r: ApiRequest) -> bool:
            return r.method == "DELETE" and r.path.endswith(f"/messages/{ping.id}")

        fake.kill_on(delete, lambda: None, after=True)  # (kills nothing: the delete is answered 503 once done)
        caplog.set_level(logging.INFO)
        await (await player.act()).ack()
        await fake.wait_for(
            lambda: any(
                m == "DELETE" and p.endswith(f"/messages/{ping.id}") and status == 404
                for m, p, status, _b in fake.rejected
            ),
            timeout=15,
            description="the delete sent again and answered 404",
        )
        assert ping.deleted
        for _ in range(200):
            rows = await bot.db.fetchall("SELECT state, last_error FROM outbox WHERE kind = 'unping'")
            if [tuple(r) for r in rows] == [("sent", None)]:
                break
            await asyncio.sleep(0.05)
        assert [tuple(r) for r in rows] == [("sent", None)]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        await stop_bot(bot, task)


async def test_a_reminder_created_unanswered_is_not_left_behind(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Discord creates the reminder but its answer is lost (503); the player moves before the retry. The retry still
    goes (with the same nonce, so Discord returns the reminder it made) and the reminder is deleted at once: no
    "your turn" DM is left for a turn that is over."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await _alone_with_computers(fake, channel, alice)
        assert bot.tables is not None
        (table,) = bot.tables.tables.values()
        player = Player(fake, alice, random.Random(1))
        await fake.wait_for(lambda: player.can_act() and table.deadline is not None)
        assert table.deadline is not None

        def reminders() -> list[st.Message]:
            return [m for m in alice.dm_messages() if "Your turn at table" in m.text()]

        def create(r: ApiRequest) -> bool:
            return r.method == "POST" and "Your turn at table" in str(r.json().get("content", ""))

        fake.kill_on(create, lambda: None, after=True)  # created, answered 503
        await bot.tables.tick(table.deadline - 20)
        await fake.wait_for(reminders)
        await (await player.act()).ack()  # before the reminder's retry (a second later)
        await fake.wait_for(lambda: fake.nonce_hits == 1, timeout=10, description="the retry, answered by its nonce")
        await fake.wait_for(lambda: not reminders(), timeout=10, description="the reminder deleted")
        assert len([m for m in fake.world.messages.values() if "Your turn at table" in m.text()]) == 1
    finally:
        await stop_bot(bot, task)

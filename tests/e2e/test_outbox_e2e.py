"""What players are owed survives crashes and Discord's 503s (issue #23): the real bot process (``python -m bot``)
against the fake Discord, SIGKILLed at chosen moments — a click in the middle of a hand, right after the last action
of a hand (before and after its summary reached Discord), right after the last action of the game, after the final
table render — and, separately, with Discord answering 503 to a share of requests.

Whatever happens, once the game is over: the channel holds exactly the posts an uninterrupted run makes (each hand's
summary and the game-over post, once each, in order — computed here from the table's stored log with the bot's own
texts), the table message and every DM show the end without live game controls.
"""

from __future__ import annotations

import asyncio
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

from bot.engine.protocol import replay
from bot.games import registry
from bot.storage.db import Database
from bot.tables import screens
from bot.tables.store import TableStore

from .driver import Player, action_components, game_over, play_until


def _env(db: Path, guild_id: int) -> dict[str, str]:
    return {
        "TAVOLO_DATABASE": str(db),
        "TAVOLO_DEV_GUILD": str(guild_id),
        "TAVOLO_LOG_LEVEL": "INFO",
        "TAVOLO_IMAGES": "off",
    }


async def _open_wizard(fake: FakeDiscord, channel: st.Channel, alice: Any, bob: Any) -> None:
    """Alice opens a two-hand Wizard table for herself, Bob and one computer, and starts it."""
    await fake.wait_for_commands("wizard", "table")
    await (await alice.slash(channel, "wizard new", rounds="1-2", stake_per_point=1)).reply()
    lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
    await (await bob.click(lobby, label="Join")).ack()
    await (await alice.click(lobby, label="Add computer")).ack()
    await fake.wait_for(lambda: "Computer 1" in fake.message(lobby.id).text())
    await (await alice.click(lobby, label="Start")).ack()


def _posts(fake: FakeDiscord, channel: st.Channel) -> list[str]:
    """The channel's plain posts (results, notices), oldest first: not the table message."""
    return [m.content for m in fake.channel_messages(channel) if m.content and not m.embeds and not m.is_v2]


async def _uninterrupted(db_path: Path) -> tuple[list[str], str, dict[int, str]]:
    """What an uninterrupted run shows for the stored table: its posts (each hand's summary, then the game-over
    post), the title of its final table message, and the final private panel's description of each human seat."""
    db = await Database.open(db_path)
    try:
        store = TableStore(db)
        (row,) = await db.fetchall("SELECT id FROM game_tables")
        t = await store.finished_table(int(row[0]))
        assert t is not None and t.status == "finished"
        log = await store.load_log(t.id)
        t.game = replay(registry.game_class(t.game_id), len(t.seats), t.options, t.seed, log)
        assert t.game.is_over
        posts = [screens.settlement_text(t, s) for s in t.game.settlements()] + [screens.final_text(t)]
        title = screens.table_screen(t).panel.title
        renderer = registry.renderer(t.game_id)
        dms = {
            int(s.user_id): renderer.private_panel(t.game.view(i), t.names).description
            for i, s in enumerate(t.seats)
            if s.user_id is not None
        }
        return posts, title, dms
    finally:
        await db.close()


async def _assert_final(fake: FakeDiscord, channel: st.Channel, users: list[Any], db: Path) -> None:
    posts, title, dms = await _uninterrupted(db)

    def final() -> bool:
        table = [m for m in fake.channel_messages(channel) if m.embeds or m.is_v2]
        return (
            _posts(fake, channel) == posts
            and len(table) == 1
            and title in table[0].text()
            and all(not m.buttons() or m.buttons()[0]["label"] == "Play again" for m in table)
            and all(
                [m for m in u.dm_messages() if m.embeds or m.is_v2]
                and all(not action_components(m) and dms[u.id] in m.text() for m in u.dm_messages() if m.embeds)
                for u in users
            )
        )

    try:
        await fake.wait_for(final, timeout=30, description="every message in its final state, every post once")
    except Exception:
        table = [m.text()[:300] for m in fake.channel_messages(channel) if m.embeds or m.is_v2]
        got = _posts(fake, channel)
        raise AssertionError(f"posts {got!r}\nexpected {posts!r}\ntable {table!r}\ntitle {title!r}") from None
    # the owed rows are all confirmed (nothing left for a later start to send again); the last confirmation is
    # written just after the last message landed, so it is polled for (the database is no fake Discord event)
    left: list[Any] = []
    for _ in range(200):
        con = sqlite3.connect(db)
        try:
            left = con.execute("SELECT key, state, last_error FROM outbox WHERE state <> 'sent'").fetchall()
        finally:
            con.close()
        if not left:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"owed messages not confirmed: {left}")


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
    players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, bob))]

    first = await BotProcess(fake, env=_env(db, guild.id)).start()
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

    second = await BotProcess(fake, env=_env(db, guild.id)).start()
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
    players = [Player(fake, u, random.Random(10 + i)) for i, u in enumerate((alice, bob))]
    async with BotProcess(fake, env=_env(db, guild.id)) as bot:
        await _open_wizard(fake, channel, alice, bob)
        faults = fake.inject_faults(0.15, after=0.05, seed=23)
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

    first = await BotProcess(fake, env=_env(db, guild.id)).start()
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
    assert not any("round 2 of 2" in text for text in _posts(fake, channel))

    def threads() -> list[st.Channel]:
        return [c for c in fake.world.channels.values() if c.is_thread and c.parent_id == channel.id]

    def podium() -> bool:
        return any("final podium" in m.text() for m in fake.channel_messages(channel))

    second = await BotProcess(fake, env=_env(db, guild.id)).start()
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
        notices = [text for text in _posts(fake, channel) if "round 2 of 2" in text]
        assert len(notices) == 1
        (thread,) = [th for th in threads() if "round 2" in th.name]
        mentions = [m for m in fake.channel_messages(thread) if "round 2, table 1" in m.text()]
        assert len(mentions) == 1 and all(f"<@{u.id}>" in mentions[0].text() for u in users)
        assert len([text for text in _posts(fake, channel) if "round 1 of 2" in text]) == 1
        assert not podium()
    finally:
        assert await second.kill() != 0

    third = await BotProcess(fake, env=_env(db, guild.id)).start()
    try:
        await fake.wait_for(podium, timeout=20, description="the podium, after the restart")
        assert len([text for text in _posts(fake, channel) if "final podium" in text]) == 1
    finally:
        assert await third.stop() == 0

"""Whole tournaments through the fake Discord: 8 users sign up with buttons, 2 rounds of Wizard on two
tables each (every table in its own thread), live standings, the podium; then ratings, profiles and the
admin ledger commands (adjust with a reason, export, season close with a confirmation). A second test runs
Mediatore with computer fill across two bot restarts (sign-up buttons, threads and standings survive).

In-process like the Wizard e2e test; the bot runs with ``cogs.tournament`` added to its cogs.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord

from bot.transport.client import COGS, TavoloBot
from bot.transport.endpoints import apply_endpoints

from .driver import Player, play_until, quiesce, settings_for, stop_bot


async def start_bot(fake: FakeDiscord, db: Path, dev_guild: int) -> tuple[TavoloBot, Any]:
    settings = settings_for(fake, db, dev_guild)
    apply_endpoints(settings.api_base, settings.gateway_url)
    cogs = COGS if "cogs.tournament" in COGS else (*COGS, "cogs.tournament")
    bot = TavoloBot(settings, edit_interval=0.05, cogs=cogs)
    task = asyncio.create_task(bot.start(settings.token))
    await fake.wait_for_commands("tournament", "leaderboard", "profile", "season", "ledger")
    await fake.wait_until_ready()
    return bot, task


async def settle(bot: TavoloBot) -> None:
    """Wait for computer moves, round changes and every pending message edit (tables and tournaments)."""
    cog: Any = bot.get_cog("Tournament")
    for _ in range(3):
        await quiesce(bot)
        await bot.tournaments.idle()  # type: ignore[attr-defined]
        await cog.outbox.drain()


async def test_eight_players_two_rounds_of_wizard(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "tournament")
    users = [fake.add_user("alice", admin=True)] + [fake.add_user(n) for n in ("bob", "carol", "dan", "eve",
                                                                               "fay", "gus", "hal")]  # fmt: skip
    alice, bob = users[0], users[1]
    bot, task = await start_bot(fake, tmp_path / "t.db", guild.id)
    try:
        opened = await (
            await alice.slash(channel, "tournament create", game="wizard", rounds=2, hands_per_round=1, stake=1)
        ).reply()
        assert opened.ephemeral and "open for sign-up" in opened.text()
        signup = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        for u in users[1:]:
            await (await u.click(signup, label="Join")).reply()
        again = await (await bob.click(signup, label="Join")).reply()
        assert "already signed up" in again.text()
        refused = await (await bob.click(signup, label="Start")).reply()
        assert "Only the host" in refused.text()
        await fake.wait_for(lambda: "Players (8)" in fake.message(signup.id).text())
        started = await alice.click(signup, label="Start")
        await started.ack()

        service: Any = bot.tournaments  # type: ignore[attr-defined]
        t = next(iter(service.tournaments.values()))
        await fake.wait_for(
            lambda: sum(tb.status == "running" for tb in bot.tables.tables.values()) == 2,  # type: ignore[union-attr]
            poll=0.05,
        )
        threads = [fake.channel(tb.channel_id) for tb in bot.tables.tables.values()]  # type: ignore[union-attr]
        assert all(th.is_thread for th in threads)
        for th in threads:  # each table's thread names its players
            await fake.wait_for_message(th, lambda m: "round 1" in m.text())

        players = [Player(fake, u, random.Random(i)) for i, u in enumerate(users)]

        def podium() -> bool:
            return any("final podium" in m.text() for m in fake.channel_messages(channel))

        clicks = await play_until(fake, players, podium, max_clicks=500)
        assert clicks >= 16  # 8 players x (1 bid + 1 card) x 2 rounds
        await settle(bot)
        assert t.status == "finished"

        # the live standings message was edited in place, never re-posted
        standings_msgs = [m for m in fake.channel_messages(channel) if "— standings" in m.text()]
        assert len(standings_msgs) == 1 and standings_msgs[0].edits
        assert "final" in standings_msgs[0].text()
        # the ledger: every player in exactly 2 settlements, stakes zero-sum per settlement
        db: Any = bot.db
        rows = await db.fetchall("SELECT user_id, SUM(played) FROM entries WHERE currency = 'point' AND is_bot = 0"
                                 " GROUP BY user_id")  # fmt: skip
        assert {int(r[0]): int(r[1]) for r in rows} == {u.id: 2 for u in users}
        assert not await db.fetchall(
            "SELECT settlement_id FROM entries WHERE currency = 'stake' GROUP BY settlement_id HAVING SUM(amount) <> 0"
        )
        standing = await (await bob.slash(channel, "tournament standings")).reply()
        assert "final" in standing.text()

        # ratings and profiles
        board = await (await bob.slash(channel, "leaderboard", game="wizard", by="rating")).reply()
        assert "rating" in board.text() and board.text().count("rated") == 8
        prof = await (await bob.slash(channel, "profile")).reply()
        assert "Bid accuracy" in prof.text() and "2 played" in prof.text()

        # admin ledger actions: adjust needs an admin; the reason is recorded and exported
        no = await (await bob.slash(channel, "ledger adjust", user=bob, currency="stake", amount=5,
                                    reason="prize")).reply()  # fmt: skip
        assert "Only server managers" in no.text()
        yes = await (await alice.slash(channel, "ledger adjust", user=bob, currency="stake", amount=5,
                                       reason="tournament prize")).reply()  # fmt: skip
        assert "tournament prize" in yes.text()
        export = await (await alice.slash(channel, "ledger export")).reply()
        assert export.attachments and export.attachments[0]["filename"].endswith(".csv")
        csv_text = await bot.ledger.export_csv(guild.id)  # type: ignore[union-attr]
        assert "tournament prize" in csv_text and str(alice.id) in csv_text
        before = await bot.ledger.balance(guild.id, bob.id)  # type: ignore[union-attr]
        confirm = await (await alice.slash(channel, "season close")).reply()
        await (await alice.click(confirm, label="Yes, close the season")).ack()
        await fake.wait_for_message(channel, lambda m: "Season 1 is closed" in m.text())
        after = await bot.ledger.balance(guild.id, bob.id)  # type: ignore[union-attr]
        assert after == {"stake": 0, "resto": 0, "point": 0}
        total = await bot.ledger.balance(guild.id, bob.id, season="all")  # type: ignore[union-attr]
        assert total == before
        fake.assert_clean()
        assert not fake.late_acks
    finally:
        await settle(bot)
        await stop_bot(bot, task)


def _club(fake: FakeDiscord) -> tuple[Any, Any, list[Any], Callable[[], list[Any]]]:
    """A server with a tournament channel and three members; ``threads()`` lists that channel's threads."""
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "tournament")
    users = [fake.add_user(n) for n in ("ann", "ben", "cid")]

    def threads() -> list[Any]:
        return [c for c in fake.world.channels.values() if c.is_thread and c.parent_id == channel.id]

    return guild, channel, users, threads


async def _mediatore_signup(fake: FakeDiscord, channel: Any, host: Any, rounds: int) -> Any:
    """``host`` opens a Mediatore tournament of one hand per round; returns its sign-up message."""
    await (await host.slash(channel, "tournament create", game="mediatore", rounds=rounds, hands_per_round=1)).reply()
    return await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))


async def test_restart_keeps_signup_buttons_threads_and_standings(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild, channel, users, threads = _club(fake)
    db = tmp_path / "t.db"

    bot, task = await start_bot(fake, db, guild.id)
    try:
        # Mediatore with 3 players: each round one table of 4, the fourth seat a computer
        signup = await _mediatore_signup(fake, channel, users[0], rounds=2)
        await (await users[1].click(signup, label="Join")).reply()
    finally:
        await settle(bot)
        await stop_bot(bot, task)

    bot, task = await start_bot(fake, db, guild.id)
    try:
        # the sign-up message of the first process still works
        for u in users[2:]:
            reply = await (await u.click(signup, label="Join")).reply(timeout=15)
            assert "signed up" in reply.text()
        await (await users[0].click(signup, label="Start")).ack()
        svc: Any = bot.tables
        table = await fake.wait_for(
            lambda: next((tb for tb in svc.tables.values() if tb.status == "running"), None), poll=0.05
        )
        assert len(threads()) == 1
        assert sum(1 for seat in table.seats if seat.is_computer) == 1
        players = [Player(fake, u, random.Random(i)) for i, u in enumerate(users)]
        await play_until(fake, players, lambda: False, stop_after=3)
        await settle(bot)
    finally:
        await settle(bot)
        await stop_bot(bot, task)
    standings_id = next(m.id for m in fake.channel_messages(channel) if "— standings" in m.text())

    bot, task = await start_bot(fake, db, guild.id)
    try:

        def podium() -> bool:
            return any("final podium" in m.text() for m in fake.channel_messages(channel))

        await play_until(fake, players, podium, max_clicks=500)
        await settle(bot)
        assert len(threads()) == 2  # round 1's thread was not opened twice; round 2 got its own
        standings = [m for m in fake.channel_messages(channel) if "— standings" in m.text()]
        assert [m.id for m in standings] == [standings_id] and "final" in standings[0].text()
        rows = await bot.db.fetchall(  # type: ignore[union-attr]
            "SELECT user_id, SUM(played) FROM entries WHERE currency = 'stake' AND is_bot = 0 GROUP BY user_id"
        )
        assert {int(r[0]): int(r[1]) for r in rows} == {u.id: 2 for u in users}
        fake.assert_clean()
    finally:
        await settle(bot)
        await stop_bot(bot, task)


async def test_restart_between_opening_a_thread_and_saving_it_reuses_the_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild, channel, users, threads = _club(fake)
    db = tmp_path / "t.db"

    bot, task = await start_bot(fake, db, guild.id)
    try:
        signup = await _mediatore_signup(fake, channel, users[0], rounds=1)
        for u in users[1:]:
            await (await u.click(signup, label="Join")).reply()
        svc: Any = bot.tournaments
        saved = svc._save_rt

        async def dies_before_saving_the_thread(rt: Any, column: str, value: int) -> None:
            if column == "thread_id":
                raise RuntimeError("the process died here")
            await saved(rt, column, value)

        svc._save_rt = dies_before_saving_the_thread
        await (await users[0].click(signup, label="Start")).ack()
        await fake.wait_for(lambda: len(threads()) == 1 or None, poll=0.05)
    finally:
        await settle(bot)
        await stop_bot(bot, task)

    bot, task = await start_bot(fake, db, guild.id)
    try:
        tables: Any = bot.tables
        table = await fake.wait_for(
            lambda: next((tb for tb in tables.tables.values() if tb.status == "running"), None), poll=0.05
        )
        await settle(bot)
        (thread,) = threads()  # the thread of the first process, not a second one
        assert table.channel_id == thread.id
    finally:
        await settle(bot)
        await stop_bot(bot, task)


async def test_commands_typed_in_a_table_thread_reach_the_channels_tournament(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """``/tournament join|leave|start`` inside a running tournament's table thread answer as in its channel."""
    fake = fake_discord
    guild, channel, users, threads = _club(fake)
    outsider = fake.add_user("dee")
    bot, task = await start_bot(fake, tmp_path / "t.db", guild.id)
    try:
        signup = await _mediatore_signup(fake, channel, users[0], rounds=2)
        for u in users[1:]:
            await (await u.click(signup, label="Join")).reply()
        await (await users[0].click(signup, label="Start")).ack()
        (thread,) = await fake.wait_for(lambda: threads() or None, poll=0.05)
        t: Any = next(iter(bot.tournaments.tournaments.values()))  # type: ignore[attr-defined]

        async def answer(user: Any, where: Any, command: str) -> str:
            return (await (await user.slash(where, command)).reply()).text()

        for user, command in ((outsider, "tournament join"), (users[0], "tournament start")):
            in_channel, in_thread = await answer(user, channel, command), await answer(user, thread, command)
            assert in_thread == in_channel, command
            assert "does not exist" not in in_thread and "no tournament" not in in_thread
        assert "already" in await answer(users[0], thread, "tournament start")
        # leave, in the thread and in the channel: each withdraws its player from this tournament
        assert await answer(users[2], thread, "tournament leave") == await answer(users[1], channel, "tournament leave")
        withdrawn = {s.user_id for s in await bot.tournaments.standings(t.id) if s.withdrawn}  # type: ignore[attr-defined]
        assert withdrawn == {users[1].id, users[2].id}
        assert "final" not in await answer(users[0], thread, "tournament standings")
        fake.assert_clean()
    finally:
        await settle(bot)
        await stop_bot(bot, task)

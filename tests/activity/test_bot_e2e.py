"""The real bot with its Activity against the fake Discord: the Entry Point command, **Open in Activity**, and a
Mighty hand played to its end by five pages while the channel's table message follows."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from pathlib import Path

from e2e.driver import quiesce, settings_for, stop_bot
from fakediscord import FakeDiscord

from bot.games import registry
from bot.transport.client import TavoloBot
from bot.transport.endpoints import apply_endpoints, reset_endpoints

from .play import play_step
from .rig import Page

GAME = next(g for g in registry.ids() if registry.game_class(g).min_seats == 5)


async def test_a_hand_played_by_five_pages_while_the_table_message_follows(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Activity e2e")
    channel = fake.add_channel(guild, "cards")
    users = [fake.add_user(f"p{i}") for i in range(5)]
    settings = dataclasses.replace(
        settings_for(fake, tmp_path / "t.db"), activity_port=0, client_secret=fake.activities.client_secret
    )
    apply_endpoints(settings.api_base, settings.gateway_url)
    bot = TavoloBot(settings, edit_interval=0.05)
    task = asyncio.create_task(bot.start(settings.token))
    pages: list[Page] = []
    try:
        await fake.wait_for_commands("table")
        await fake.wait_until_ready()
        entry = [c for c in fake.commands() if c.get("type") == 4]
        assert len(entry) == 1 and entry[0]["handler"] == 2 and entry[0]["description_localizations"]["ko"]
        server = bot.activity_server
        assert server is not None and server.port > 0

        opened = await users[0].slash(channel, f"{GAME} new", hands=1, weak_hand_misdeal=False)
        await opened.reply()
        lobby = await fake.wait_for_message(
            channel, lambda m: any(b["label"] == "Open in Activity" for b in m.buttons())
        )
        handle = await users[1].click(lobby, label="Open in Activity")
        assert await handle.ack() == 12

        instance = fake.activities.launch(channel, *users)
        for u in users:
            p = Page(server, fake, u, instance)
            pages.append(p)
            await p.login()
            await p.connect()
        (tid,) = {
            int(k)
            for k in (await pages[0].wait(lambda: next((f for f in pages[0].frames if f["t"] == "welcome"), None)))[
                "seat_of"
            ]
        }
        for p in pages:
            await p.wait(lambda p=p: tid in p.views, "the lobby")
        for p in pages[1:]:
            assert (await p.lobby(tid, "join"))["t"] == "ok"
        assert (await pages[0].lobby(tid, "start"))["t"] == "ok"

        rng = random.Random("activity-e2e")
        before = len(fake.requests)
        t = bot.tables.tables[tid]  # type: ignore[union-attr]
        plays = 0
        while t.status == "running":
            await quiesce(bot)
            for p in pages:
                await p.wait(lambda p=p: p.versions.get(tid) == t.version, "the current version")
            if await play_step(rng, pages, tid):
                plays += 1
            assert plays < 500
        await quiesce(bot)
        for p in pages:
            await p.wait(lambda p=p: p.views[tid]["status"] == "finished", "the end")
        # the channel's table message followed: it shows what the pages show
        message = next(
            m
            for m in fake.channel_messages(channel)
            if m.embeds and m.embeds[0].get("title") == pages[0].views[tid]["title"]
        )
        assert "finished" in message.embeds[0]["title"] or message.edits
        assert any("game over" in m.text() for m in fake.channel_messages(channel))
        # every player was at the page all along: no DM hand was sent or edited meanwhile (the page showed the seat),
        # so the game spent Discord requests on the channel's table message and posts only
        during = fake.requests[before:]
        dm_paths = [f"/channels/{u.dm_channel.id}/" for u in users if fake.world.dm_channels.get(u.id)]
        assert not [r for r in during if any(d in r.path for d in dm_paths)]
        assert all(not u.dm_messages() for u in users)
        per_action = len(during) / max(1, t.version)
        assert per_action < 1.5, per_action
        fake.assert_clean()
    finally:
        for p in pages:
            await p.close()
        await stop_bot(bot, task)
        reset_endpoints()


async def test_a_bot_without_the_activity_keeps_the_portals_entry_point(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Activities enabled in the Developer Portal before the bot's port is set: the sync keeps Discord's Entry Point
    (Discord refuses a bulk overwrite that drops it) and the slash commands still register."""
    fake = fake_discord
    default = fake.activities.enable(fake.world, fake.application_id)
    settings = settings_for(fake, tmp_path / "t.db")
    apply_endpoints(settings.api_base, settings.gateway_url)
    bot = TavoloBot(settings, edit_interval=0.05)
    task = asyncio.create_task(bot.start(settings.token))
    try:
        await fake.wait_for_commands("table")
        await fake.wait_until_ready()
        assert bot.activity_server is None
        entry = [c for c in fake.commands() if c.get("type") == 4]
        assert [c["id"] for c in entry] == [str(default.id)]
    finally:
        await stop_bot(bot, task)
        reset_endpoints()

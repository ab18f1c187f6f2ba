"""Several bot processes: any process signs sessions, the socket goes to the process holding the channel's guild."""

from __future__ import annotations

from fakediscord import FakeDiscord

from bot.activity.server import CLOSE_CODES

from .rig import Page, make_server, make_service


async def test_the_socket_reaches_the_process_holding_the_table(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild("on shard 1", shard=(1, 2))
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    services = [await make_service(), await make_service()]
    servers = [await make_server(fake, services[k], shards=(2, (k,))) for k in (0, 1)]
    pages: list[Page] = []
    try:
        table = await services[1].create(
            guild_id=guild.id, channel_id=channel.id, game_id="wizard", host_id=alice.id, host_name="alice"
        )
        instance = fake.activities.launch(channel, alice, bob)
        # the login goes to whichever process the proxy picks (here shard 0's): it names shard 1's socket path
        page = Page(servers[0], fake, alice, instance)
        pages.append(page)
        data = await page.login()
        assert data["ws"] == "/shard/1/api/ws"
        # shard 0's process refuses the socket clearly: it does not hold that guild's tables
        await page.connect()
        assert await page.closed_with() == CLOSE_CODES["elsewhere"]
        assert page.errors()[0]["code"] == "elsewhere"
        # shard 1's process takes the session signed by shard 0's (one client secret, one key)
        page.server = servers[1]
        page.frames.clear()
        await page.connect(page.session, path=data["ws"])
        await page.wait(lambda: table.id in page.views, "the table")
        bobs = Page(servers[1], fake, bob, instance)
        pages.append(bobs)
        await bobs.login()
        await bobs.connect(path="/shard/1/api/ws")
        await bobs.wait(lambda: table.id in bobs.views, "the table")
        assert (await bobs.lobby(table.id, "join"))["t"] == "ok"
        await page.wait(lambda: "bob" in str(page.views[table.id]["sections"]), "bob seated")
        # no path for a shard the process does not run
        async with page.http.get(servers[1].url + "/shard/0/api/ws") as resp:
            assert resp.status == 404
    finally:
        for p in pages:
            await p.close()
        for s in servers:
            await s.stop()
        for svc in services:
            await svc.db.close()

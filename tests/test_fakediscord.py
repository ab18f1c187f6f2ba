"""Smoke tests of the fake Discord, driven through the real discord.py client.

A tiny bot defined here exercises what the e2e tests rely on: login, command sync, slash
commands with subcommand groups and typed options, a persistent view (button + select),
ephemeral replies with their own buttons, deferral + followup, message edits, DMs (open and
closed), 429 handling, RESUME after a dropped connection and a bot restart against kept state.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import textwrap
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakediscord import BotProcess, Channel, FakeDiscord, Message

from bot.transport.endpoints import apply_endpoints, reset_endpoints


class TableView(discord.ui.View):
    """Persistent: survives bot restarts because every item has a custom_id and timeout=None."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="table:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        content = (interaction.message.content if interaction.message else "") + f"\njoined: {interaction.user.name}"
        await interaction.response.edit_message(content=content)

    @discord.ui.button(label="Leave", custom_id="table:leave")
    async def leave(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # type 6, then edit through the webhook
        await interaction.edit_original_response(content="table closed", view=None)

    @discord.ui.select(
        custom_id="table:bid",
        placeholder="Your bid",
        options=[discord.SelectOption(label=f"Bid {n}", value=str(n)) for n in range(4)],
    )
    async def bid(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"you bid {select.values[0]}", ephemeral=True)


class HandView(discord.ui.View):
    """A short-lived view on an ephemeral message."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Play 7♠")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        button.disabled = True
        await interaction.response.edit_message(content="played 7♠", view=self)


class NameModal(discord.ui.Modal, title="Table name"):
    name: discord.ui.TextInput = discord.ui.TextInput(label="Name", custom_id="table:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}", ephemeral=True)


class SmokeBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.dm_errors: list[discord.HTTPException] = []
        self.late_errors: list[discord.HTTPException] = []
        #: Held by /stall until the test opens it, to simulate a bot that answers too late.
        self.gate = asyncio.Event()
        self._define_commands()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before every re-IDENTIFY to respect Discord's limit; not needed here.
        return None

    async def setup_hook(self) -> None:
        self.add_view(TableView())
        await self.tree.sync()

    def _define_commands(self) -> None:
        wizard = app_commands.Group(name="wizard", description="Wizard tables")
        admin = app_commands.Group(name="admin", description="Administration")
        config = app_commands.Group(name="config", description="Settings", parent=admin)

        @wizard.command(name="new", description="Open a table")
        async def new(interaction: discord.Interaction, rounds: int, public: bool = True) -> None:
            await interaction.response.send_message(f"Wizard table, {rounds} rounds", view=TableView())

        @wizard.command(name="hand", description="Show your hand")
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Your hand: 7♠ Q♥", view=HandView(), ephemeral=True)

        @wizard.command(name="slow", description="Deferred work")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("done thinking")
            second = await interaction.followup.send("second followup", ephemeral=True, wait=True)
            await second.edit(content="second followup (edited)")

        @config.command(name="set", description="Set a value")
        async def config_set(interaction: discord.Interaction, channel: discord.TextChannel, value: str) -> None:
            await interaction.response.send_message(f"{channel.name}={value}", ephemeral=True)

        @config_set.autocomplete("value")
        async def config_values(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=v, value=v) for v in ("fast", "slow") if v.startswith(current)]

        @app_commands.command(name="dm", description="DM a user")
        async def dm(interaction: discord.Interaction, user: discord.User) -> None:
            try:
                await user.send(f"hello {user.name}")
            except discord.HTTPException as exc:
                self.dm_errors.append(exc)
                await interaction.response.send_message(f"cannot DM ({exc.code})", ephemeral=True)
            else:
                await interaction.response.send_message("sent", ephemeral=True)

        @app_commands.command(name="announce", description="Post and edit a channel message")
        async def announce(interaction: discord.Interaction, text: str, count: int = 1) -> None:
            await interaction.response.defer(ephemeral=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            sent = await asyncio.gather(*(channel.send(f"{text} #{i}") for i in range(count)))
            await sent[0].edit(content=f"{text} #0 (edited)")
            await interaction.edit_original_response(content=f"posted {count}")

        @app_commands.command(name="rename", description="Open a modal")
        async def rename(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @app_commands.command(name="stall", description="Answer only once the gate opens")
        async def stall(interaction: discord.Interaction) -> None:
            await self.gate.wait()
            try:
                await interaction.response.send_message("too late")
            except discord.HTTPException as exc:
                self.late_errors.append(exc)

        @app_commands.command(name="upload", description="Send a file")
        async def upload(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("scores", file=discord.File(io.BytesIO(b"a,b\n1,2\n"), "s.csv"))

        @app_commands.command(name="tourney", description="Start tournament threads")
        async def tourney(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Tournament!")
            message = await interaction.original_response()
            thread = await message.create_thread(name="Round 1")
            await thread.send("Round 1 starts")
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            finals = await channel.create_thread(name="Finals", type=discord.ChannelType.public_thread)
            await finals.send("Finals soon")

        @app_commands.command(name="reset", description="Admins only")
        @app_commands.guild_only()
        @app_commands.default_permissions(manage_guild=True)
        async def reset(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("reset done", ephemeral=True)

        for command in (wizard, admin, dm, announce, rename, stall, upload, tourney, reset):
            self.tree.add_command(command)


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord) -> AsyncIterator[SmokeBot]:
    """Runs a SmokeBot in this event loop until the block exits."""
    apply_endpoints(fake.api_base, fake.gateway_url)
    bot = SmokeBot()
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_for(lambda: fake.gateway.connected or task.done(), description="the bot to connect")
        if task.done():
            task.result()  # re-raises the startup error
        # "connected" means GUILD_CREATE was sent; on_ready means the bot has cached it.
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        reset_endpoints()


@pytest.fixture
def world(fake_discord: FakeDiscord) -> FakeDiscord:
    guild = fake_discord.add_guild("Tavolo test")
    fake_discord.add_channel(guild, "wizard")
    return fake_discord


async def test_slash_buttons_selects_and_ephemerals(world: FakeDiscord) -> None:
    fake = world
    table = next(c for c in fake.world.channels.values() if c.name == "wizard")
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    async with running(fake):
        await fake.wait_for_commands("wizard", "admin", "dm", "announce")
        assert {"wizard", "admin", "dm", "announce"} <= {c["name"] for c in fake.commands()}

        handle = await alice.slash(table, "wizard new", rounds=3)
        message = await handle.reply()
        assert not handle.ephemeral
        assert message.content == "Wizard table, 3 rounds"
        assert [b["custom_id"] for b in message.buttons()] == ["table:join", "table:leave"]
        assert message.payload()["interaction_metadata"]["user"]["id"] == str(alice.id)
        assert fake.channel_messages(table) == [message]

        # Button -> UPDATE_MESSAGE (type 7) edits the message in place and keeps its history.
        click = await bob.click(message, label="Join")
        updated = await click.reply()
        assert click.response_type == 7
        assert updated.id == message.id and "joined: bob" in updated.content
        assert updated.edits[0].content == "Wizard table, 3 rounds"

        # Select -> ephemeral reply only bob can see.
        bid = await bob.select(message, ["2"], placeholder="Your bid")
        reply = await bid.reply()
        assert bid.ephemeral and reply.content == "you bid 2"
        assert bob.ephemerals() == [reply] and alice.ephemerals() == []
        with pytest.raises(ValueError):
            await bob.select(message, ["9"], custom_id="table:bid")

        # Ephemeral with its own (non-persistent) view; the click is routed by message id.
        hand = await (await alice.slash(table, "wizard hand")).reply()
        assert hand.ephemeral and "Q♥" in hand.text()
        assert all("Q♥" not in m.text() for m in fake.channel_messages(table))
        with pytest.raises(PermissionError):
            await bob.click(hand, label="Play 7♠")
        played = await (await alice.click(hand, label="Play 7♠")).reply()
        assert played.content == "played 7♠" and played.buttons()[0]["disabled"] is True

        # Deferral: the first followup fills the "thinking" message, later ones are new messages.
        slow = await alice.slash(table, "wizard slow")
        assert (await slow.reply()).content == "done thinking"
        followups = await slow.wait_followups(2)
        await fake.wait_for(lambda: followups[1].edits, description="the followup edit")
        assert followups[1].ephemeral and followups[1].content == "second followup (edited)"

        # Subcommand group with a channel option.
        configured = await (await alice.slash(table, "admin config set", channel=table, value="x")).reply()
        assert configured.content == "wizard=x"
        choices = await alice.autocomplete(table, "admin config set", "value", channel=table, value="f")
        assert choices == [{"name": "fast", "value": "fast"}]

        # Channel message edit through PATCH /channels/{id}/messages/{id}.
        announce = await alice.slash(table, "announce", text="hi")
        assert (await announce.reply()).content == "posted 1"
        edited = await fake.wait_for_message(table, lambda m: m.content.startswith("hi"))
        assert edited.content == "hi #0 (edited)" and len(edited.edits) == 1

        # Deferred update (type 6) followed by an edit of the original (the component's message).
        leave = await alice.click(message, custom_id="table:leave")
        closed = await leave.reply()
        assert leave.response_type == 6 and closed.id == message.id
        assert closed.content == "table closed" and closed.components == []

        # Modal round trip.
        opened = await alice.slash(table, "rename")
        assert await opened.ack() == 9 and opened.modal is not None
        submitted = await alice.submit_modal(opened, {"table:name": "Friday"})
        assert (await submitted.reply()).content == "renamed to Friday"

        # Multipart upload (payload_json + files[0]).
        uploaded = await (await alice.slash(table, "upload")).reply()
        assert uploaded.attachments[0]["filename"] == "s.csv" and uploaded.attachments[0]["size"] == 8

        # A second callback on the same interaction is refused like Discord does (40060).
        url = f"{fake.api_base}/interactions/{handle.id}/{handle.record.token}/callback"
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json={"type": 4, "data": {"content": "again"}}) as response,
        ):
            assert response.status == 400 and (await response.json())["code"] == 40060
    fake.assert_clean()
    assert max(fake.ack_latencies.values()) < 3.0


async def test_dms_open_and_closed(world: FakeDiscord) -> None:
    fake = world
    table = next(c for c in fake.world.channels.values() if c.name == "wizard")
    alice = fake.add_user("alice")
    carol = fake.add_user("carol", dms_closed=True)
    async with running(fake) as bot:
        sent = await (await alice.slash(table, "dm", user=alice)).reply()
        assert sent.content == "sent"
        assert [m.content for m in alice.dm_messages()] == ["hello alice"]

        refused = await (await alice.slash(table, "dm", user=carol)).reply()
        assert refused.content == "cannot DM (50007)"
        assert isinstance(bot.dm_errors[0], discord.Forbidden) and bot.dm_errors[0].code == 50007
        assert carol.dm_messages() == []

        # Slash commands work inside the DM with the bot too.
        in_dm = await (await alice.slash(None, "wizard new", rounds=1)).reply()
        assert in_dm.channel_id == alice.dm_channel.id
        joined = await (await alice.click(in_dm, custom_id="table:join")).reply()
        assert "joined: alice" in joined.content
    fake.assert_clean()


async def test_threads_permissions_and_member_chunking(world: FakeDiscord) -> None:
    fake = world
    table = next(c for c in fake.world.channels.values() if c.name == "wizard")
    alice = fake.add_user("alice")
    boss = fake.add_user("boss", admin=True)
    async with running(fake) as bot:
        start = await (await alice.slash(table, "tourney")).reply()
        round1 = await fake.wait_for(lambda: fake.world.channels.get(start.id), description="the thread")
        assert round1.type == 11 and round1.parent_id == table.id and round1.name == "Round 1"
        assert [m.content for m in await _thread_messages(fake, round1)] == ["Round 1 starts"]
        finals = await fake.wait_for(
            lambda: next((c for c in fake.world.channels.values() if c.name == "Finals"), None),
            description="the Finals thread",
        )
        assert [m.content for m in await _thread_messages(fake, finals)] == ["Finals soon"]
        assert bot.get_channel(finals.id) is not None  # THREAD_CREATE reached the bot's cache

        with pytest.raises(PermissionError):
            await alice.slash(table, "reset")
        with pytest.raises(PermissionError):
            await boss.slash(None, "reset")  # guild_only
        assert (await (await boss.slash(table, "reset")).reply()).content == "reset done"

    # With the members intent discord.py chunks the guild over the gateway (op 8).
    apply_endpoints(fake.api_base, fake.gateway_url)
    client = discord.Client(intents=discord.Intents(guilds=True, members=True), guild_ready_timeout=0.05)
    task = asyncio.create_task(client.start(fake.token))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        guild = client.guilds[0]
        assert {m.name for m in guild.members} >= {"alice", "boss"} and guild.chunked
    finally:
        await client.close()
        await task
        reset_endpoints()


async def _thread_messages(fake: FakeDiscord, thread: Channel) -> list[Message]:
    await fake.wait_for(lambda: fake.channel_messages(thread), description=f"a message in {thread.name}")
    return fake.channel_messages(thread)


async def test_rate_limits_are_retried_transparently(world: FakeDiscord) -> None:
    fake = world
    table = next(c for c in fake.world.channels.values() if c.name == "wizard")
    alice = fake.add_user("alice")
    async with running(fake):
        fake.set_rate_limit(2, 0.2, advertise=False)
        handle = await alice.slash(table, "announce", text="burst", count=5)
        assert (await handle.reply()).content == "posted 5"
        assert fake.rate_limited > 0
        assert sorted(m.content for m in fake.channel_messages(table)) == [
            "burst #0 (edited)",
            "burst #1",
            "burst #2",
            "burst #3",
            "burst #4",
        ]
        # Every 429 was followed by a retry: requests on the bucket = successes + 429s.
        bucket = [r for r in fake.requests if r.path.startswith(f"/channels/{table.id}/messages")]
        assert len(bucket) == 6 + fake.rate_limited


async def test_validation_errors_reach_the_bot(world: FakeDiscord) -> None:
    fake = world
    table = next(c for c in fake.world.channels.values() if c.name == "wizard")
    async with running(fake) as bot:
        channel = bot.get_channel(table.id)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as too_long:
            await channel.send("x" * 2001)
        assert too_long.value.code == 50035 and "2000" in str(too_long.value)
        with pytest.raises(discord.HTTPException) as bad_embed:
            await channel.send(embed=discord.Embed(title="t" * 257))
        assert "embeds.0.title" in str(bad_embed.value)
        # discord.py's View refuses a sixth button per row itself, so send the raw payload.
        row = {
            "type": 1,
            "components": [{"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"b{i}"} for i in range(6)],
        }
        route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=table.id)
        with pytest.raises(discord.HTTPException) as wide:
            await bot.http.request(route, json={"content": "x", "components": [row]})
        assert wide.value.code == 50035
        assert fake.channel_messages(table) == []


async def test_bad_token_is_a_login_failure(fake_discord: FakeDiscord) -> None:
    apply_endpoints(fake_discord.api_base, fake_discord.gateway_url)
    client = discord.Client(intents=discord.Intents.none())
    try:
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
    finally:
        await client.close()
        reset_endpoints()


async def test_resume_and_restart_keep_state(world: FakeDiscord) -> None:
    fake = world
    table = next(c for c in fake.world.channels.values() if c.name == "wizard")
    alice = fake.add_user("alice")
    # READY will name an unreachable resume URL: bot.transport.endpoints must keep the bot on the fake.
    fake.advertised_gateway_url = "ws://127.0.0.1:9/elsewhere"
    async with running(fake):
        message = await (await alice.slash(table, "wizard new", rounds=2)).reply()
        await fake.gateway.drop()
        # Sent while the bot is disconnected: replayed on RESUME.
        pending = await alice.click(message, label="Join")
        await fake.wait_for(lambda: fake.gateway.resume_count == 1, description="a RESUME")
        assert "joined: alice" in (await pending.reply()).content

        # An expired session: RESUME gets INVALID_SESSION and discord.py identifies afresh.
        await fake.gateway.invalidate()
        await fake.wait_for(lambda: fake.gateway.identify_count == 2 and fake.gateway.connected)

    # A brand-new process would do the same: identify again and find its persistent view.
    async with running(fake):
        assert fake.gateway.identify_count == 3
        again = await (await alice.click(message, label="Join")).reply()
        assert again.content.count("joined: alice") == 2
    fake.assert_clean()


async def test_late_acknowledgement_is_flagged_and_refused(world: FakeDiscord) -> None:
    fake = world
    fake.ack_deadline = 0.2  # Discord's 3 s, shortened to keep the test fast
    table = next(c for c in fake.world.channels.values() if c.name == "wizard")
    alice = fake.add_user("alice")
    async with running(fake) as bot:
        handle = await alice.slash(table, "stall")
        await fake.wait_for(lambda: fake.late_acks, description="the deadline to pass")
        bot.gate.set()
        await fake.wait_for(lambda: bot.late_errors, description="the bot's late response to fail")
        error = bot.late_errors[0]
        assert isinstance(error, discord.NotFound) and error.code == 10062
        assert fake.late_acks[0].id == handle.id and handle.response_type is None


async def test_serves_a_bot_in_another_process(world: FakeDiscord) -> None:
    fake = world
    table = next(c for c in fake.world.channels.values() if c.name == "wizard")
    # Reads the same variables as bot/config.py, which BotProcess sets from fake.env().
    script = textwrap.dedent(
        f"""
        import os, discord
        from bot.transport.endpoints import apply_endpoints

        apply_endpoints(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
        client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)

        @client.event
        async def on_ready():
            await client.get_channel({table.id}).send("hello from pid " + str(os.getpid()))

        client.run(os.environ["DISCORD_TOKEN"], log_handler=None)
        """
    )
    first = await BotProcess(fake, args=("-c", script)).start()
    message = await fake.wait_for_message(table, timeout=15)
    assert message.content == f"hello from pid {first.pid}"
    assert await first.kill() == -9  # a crash: the socket just drops

    async with BotProcess(fake, args=("-c", script)) as second:
        await fake.wait_for_message(table, lambda m: m.content.endswith(str(second.pid)), timeout=15)
        assert fake.gateway.identify_count == 2
    assert second.returncode == -15
    fake.assert_clean()


def _button(i: int, **extra: object) -> dict:
    return {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"b{i}", **extra}


def _select(options: int, **extra: object) -> dict:
    choices = [{"label": f"o{i}", "value": str(i)} for i in range(options)]
    return {"type": 3, "custom_id": "s", "options": choices, **extra}


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"content": "x" * 2001}, "content"),
        ({"embeds": [{"title": "t"}] * 11}, "embeds"),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title"),
        ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embeds.0.fields"),
        ({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, "embeds.0.fields.0.name"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embeds.0.fields.0.value"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "embeds"),
        ({"components": [{"type": 1, "components": [_button(0)]}] * 6}, "components"),
        ({"components": [{"type": 1, "components": [_button(i) for i in range(6)]}]}, "components.0.components"),
        ({"components": [{"type": 1, "components": [_select(2), _button(1)]}]}, "components.0.components"),
        ({"components": [{"type": 1, "components": [_select(0)]}]}, "components.0.components.0.options"),
        ({"components": [{"type": 1, "components": [_select(26)]}]}, "components.0.components.0.options"),
        ({"components": [{"type": 1, "components": [_select(3, min_values=3, max_values=2)]}]}, "min_values"),
        ({"components": [{"type": 1, "components": [_select(3, max_values=4)]}]}, "max_values"),
        ({"components": [{"type": 1, "components": [_button(0, custom_id="c" * 101)]}]}, "custom_id"),
        ({"components": [{"type": 1, "components": [_button(0, label="l" * 81)]}]}, "label"),
    ],
)
def test_message_validation_matches_discord_limits(body: dict, path: str) -> None:
    from fakediscord.validation import validate_message

    errors = validate_message(body)
    assert errors, f"{path} should have been rejected"
    assert any(".".join(map(str, p)).startswith(path) or path in ".".join(map(str, p)) for p, _, _ in errors.items)
    assert errors.body()["code"] == 50035


def test_message_validation_accepts_the_limits() -> None:
    from fakediscord.validation import validate_message

    rows = [{"type": 1, "components": [_button(r * 5 + i) for i in range(5)]} for r in range(4)]
    rows.append({"type": 1, "components": [_select(25, max_values=25)]})
    embed = {"title": "t" * 256, "description": "d" * 4096, "fields": [{"name": "n", "value": "v" * 60}] * 25}
    assert not validate_message({"content": "x" * 2000, "embeds": [embed], "components": rows})


# -- shards -------------------------------------------------------------------------------------------------


async def _identify(
    fake: FakeDiscord, session: aiohttp.ClientSession, shard: list[int] | None
) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(fake.gateway_url + "?v=10&encoding=json")
    hello = await ws.receive_json(timeout=5)
    assert hello["op"] == 10
    data: dict = {"token": fake.token, "intents": int(discord.Intents.default().value), "properties": {}}
    if shard is not None:
        data["shard"] = shard
    await ws.send_json({"op": 2, "d": data})
    return ws


async def _events_until_ack(ws: aiohttp.ClientWebSocketResponse) -> list[tuple[str, dict]]:
    """The dispatches queued on ``ws`` so far: a heartbeat's ACK is queued after them (frames keep their order)."""
    await ws.send_json({"op": 1, "d": None})
    events = []
    while (frame := await ws.receive_json(timeout=5))["op"] != 11:
        if frame["op"] == 0:
            events.append((frame["t"], frame["d"]))
    return events


def _guild_ids(events: list[tuple[str, dict]], name: str) -> list[int]:
    return [int(d["id"] if name.startswith("GUILD_") else d["guild_id"]) for t, d in events if t == name]


async def test_shards_get_only_their_guilds_and_dms_go_to_shard_0(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.gateway.shard_count = 2
    guilds = [fake.add_guild(f"guild on shard {i}", shard=(i, 2)) for i in (0, 1, 0, 1)]
    assert [(g.id >> 22) % 2 for g in guilds] == [0, 1, 0, 1]
    assert sorted(fake.world.ids.next() > g.id for g in guilds) == [True] * 4  # ids still increase
    alice = fake.add_user("alice")
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
        async with http.get(fake.api_base + "/gateway/bot") as response:
            assert (await response.json())["shards"] == 2
        ws = [await _identify(fake, http, [i, 2]) for i in (0, 1)]
        await fake.wait_for(lambda: fake.gateway.shard_connected((0, 2)) and fake.gateway.shard_connected((1, 2)))
        first = [await _events_until_ack(w) for w in ws]
        for i in (0, 1):
            ready = next(d for t, d in first[i] if t == "READY")
            assert ready["shard"] == [i, 2]
            mine = [g.id for g in guilds if (g.id >> 22) % 2 == i]
            assert [int(g["id"]) for g in ready["guilds"]] == mine
            assert _guild_ids(first[i], "GUILD_CREATE") == mine

        # Guild events follow the guild's shard; a DM and its interaction go to shard 0.
        channels = [fake.add_channel(g, "cards") for g in guilds[:2]]
        for ch in channels:
            fake._new_message(ch, alice.user, {"content": "hello"})
        fake._new_message(alice.dm_channel, alice.user, {"content": "psst"})
        fake._dispatch_interaction(alice, channels[1], 3, {"custom_id": "x", "component_type": 2})
        fake._dispatch_interaction(alice, alice.dm_channel, 3, {"custom_id": "y", "component_type": 2})
        later = [await _events_until_ack(w) for w in ws]
        assert _guild_ids(later[0], "CHANNEL_CREATE") == [guilds[0].id]
        assert _guild_ids(later[1], "CHANNEL_CREATE") == [guilds[1].id]
        dm_id = str(alice.dm_channel.id)
        assert [d["channel_id"] for t, d in later[0] if t == "MESSAGE_CREATE"] == [str(channels[0].id), dm_id]
        assert [d.get("guild_id") for t, d in later[1] if t == "MESSAGE_CREATE"] == [str(guilds[1].id)]
        assert [d["data"]["custom_id"] for t, d in later[0] if t == "INTERACTION_CREATE"] == ["y"]
        assert [d["data"]["custom_id"] for t, d in later[1] if t == "INTERACTION_CREATE"] == ["x"]

        # A guild added later reaches its shard only; a shard outside the count is refused.
        late = fake.add_guild("late", shard=(1, 2))
        assert [(_guild_ids(await _events_until_ack(w), "GUILD_CREATE")) for w in ws] == [[], [late.id]]
        bad = await _identify(fake, http, [2, 2])
        closed = await bad.receive(timeout=5)
        assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4010
        for w in ws:
            await w.close()
    fake.assert_clean()


async def test_two_sharded_clients_at_once(fake_discord: FakeDiscord) -> None:
    """Two discord.py clients, one shard each (what two bot processes do), and one running both shards as
    /gateway/bot recommends."""
    fake = fake_discord
    fake.gateway.shard_count = 2
    guilds = [fake.add_guild(f"g{i}", shard=(i, 2)) for i in (0, 1)]
    channels = [fake.add_channel(g, "cards") for g in guilds]
    alice = fake.add_user("alice")
    apply_endpoints(fake.api_base, fake.gateway_url)
    heard: list[list[tuple[int, str]]] = [[], []]

    def client(shard_ids: list[int] | None, log: list[tuple[int, str]]) -> discord.AutoShardedClient:
        kwargs = {} if shard_ids is None else {"shard_ids": shard_ids, "shard_count": 2}
        c = discord.AutoShardedClient(intents=discord.Intents.default(), guild_ready_timeout=0.05, **kwargs)

        @c.event
        async def on_message(message: discord.Message) -> None:
            log.append((message.guild.id if message.guild else 0, str(message.guild.shard_id) if message.guild else ""))
            fake.notify()

        return c

    clients = [client([i], heard[i]) for i in (0, 1)]
    tasks = [asyncio.create_task(c.start(fake.token)) for c in clients]
    try:
        for c in clients:
            await asyncio.wait_for(c.wait_until_ready(), 10)
        assert [[g.id for g in c.guilds] for c in clients] == [[guilds[0].id], [guilds[1].id]]
        for ch in channels:
            fake._new_message(ch, alice.user, {"content": "hi"})
        await fake.wait_for(lambda: all(heard), description="a message on each client")
        assert heard == [[(guilds[0].id, "0")], [(guilds[1].id, "1")]]
    finally:
        for c in clients:
            await c.close()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t

    both: list[tuple[int, str]] = []
    whole = client(None, both)
    task = asyncio.create_task(whole.start(fake.token))
    try:
        await asyncio.wait_for(whole.wait_until_ready(), 10)
        assert whole.shard_count == 2 and sorted(whole.shards) == [0, 1]
        assert sorted(g.id for g in whole.guilds) == sorted(g.id for g in guilds)
        for ch in channels:
            fake._new_message(ch, alice.user, {"content": "hi"})
        await fake.wait_for(lambda: len(both) == 2, description="both messages")
        assert sorted(both) == sorted([(guilds[0].id, "0"), (guilds[1].id, "1")])
    finally:
        await whole.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        reset_endpoints()
    fake.assert_clean()

"""A local fake Discord for end-to-end tests of the real, unmodified discord.py client.

Modules: ``server`` (``FakeDiscord``, the entry point), ``rest`` (the ``/api/v10`` routes),
``gateway`` (the websocket), ``users`` (simulated humans), ``state`` (the data and its JSON
payloads), ``validation`` (Discord's message limits), ``process`` (run ``python -m bot``).

Typical e2e test (the ``fake_discord`` fixture in ``tests/conftest.py`` starts and stops it)::

    guild = fake.add_guild("Tavolo test")
    table = fake.add_channel(guild, "wizard")
    alice, bob = fake.add_user("alice"), fake.add_user("bob", dms_closed=True)
    async with BotProcess(fake, env={"TAVOLO_DATABASE": str(tmp_path / "t.db")}):
        handle = await alice.slash(table, "wizard new", rounds="1-3")
        setup = await handle.reply()                  # waits; .ephemeral tells how it was sent
        post = await fake.wait_for_message(table, lambda m: m.buttons())
        await (await bob.click(post, label="Join")).reply()
        hand = await bob.wait_for_ephemeral(lambda m: "Play" in m.text())
    fake.assert_clean()                               # no unknown routes, errors or late acks

In-process instead of a subprocess: ``bot.transport.endpoints.apply_endpoints(fake.api_base,
fake.gateway_url)``, start the bot with ``fake.token``, ``reset_endpoints()`` afterwards.

Reading: ``fake.channel_messages(ch)``, ``user.dm_messages()``, ``user.ephemerals()``; each
``Message`` has ``content``, ``embeds``, ``components``, ``buttons()``, ``selects()``, ``text()``
and ``edits`` (earlier versions, oldest first). Waiting: ``fake.wait_for(predicate)`` re-checks on
every state change. Metrics: ``fake.requests``, ``fake.rate_limited``, ``fake.ack_latencies``,
``fake.late_acks``. Faults: ``fake.set_rate_limit(...)``, ``fake.gateway.drop()``, ``fake.gateway.refuse(n)``,
``fake.gateway.invalidate()``, ``fake.add_user(name, dms_closed=True)``, ``BotProcess.kill()``.

Shards: ``fake.gateway.shard_count = 2`` (what ``/gateway/bot`` recommends), ``fake.add_guild(name, shard=(1, 2))``
for a guild on a given shard; each shard's live session (``fake.gateway.live[(shard_id, count)]``) gets only
its guilds' events, DMs go to shard 0, and ``BotProcess`` with ``TAVOLO_SHARD_COUNT``/``TAVOLO_SHARD_IDS`` waits
for its own shards to connect.
"""

from .process import BotProcess
from .server import FakeDiscord, RecordedRequest
from .state import Channel, Guild, InteractionRecord, Message, Revision, User
from .users import FakeUser, InteractionHandle

__all__ = [
    "BotProcess",
    "Channel",
    "FakeDiscord",
    "FakeUser",
    "Guild",
    "InteractionHandle",
    "InteractionRecord",
    "Message",
    "RecordedRequest",
    "Revision",
    "User",
]

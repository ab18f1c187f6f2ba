"""bot.transport.forwarding: which DM interactions are passed on, and who takes them over (no database, no Discord)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bot.transport.forwarding import CHANNEL, InteractionForwarder, decode, encode, table_of


def _click(custom_id: str, *, guild_id: str | None = None, type_: int = 3) -> dict[str, Any]:
    data: dict[str, Any] = {"type": type_, "id": "1", "data": {"custom_id": custom_id, "component_type": 2}}
    if guild_id is not None:
        data["guild_id"] = guild_id
    return data


def test_only_dm_table_controls_name_a_table() -> None:
    assert table_of(_click("tb:42:act:3:x")) == 42
    assert table_of(_click("ts:7:pick:0:")) == 7
    assert table_of(_click("tb:42:act:3:x", guild_id="5")) is None  # guild events reach their own shard
    assert table_of(_click("rec:42:page")) is None
    assert table_of(_click("tb:42:act:3:x", type_=2)) is None  # a slash command
    big = {**_click("tb:1:act:0:"), "message": {"content": "x" * 20_000}}
    assert decode(encode(big)) == big and len(encode(big)) < 1000


class Bus:
    """Two processes' LISTEN/NOTIFY in memory."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[str], None]] = []
        self.sent: list[str] = []

    async def listen(self, channel: str, callback: Callable[[str], None]) -> Callable[[], Awaitable[None]]:
        assert channel == CHANNEL
        self.listeners.append(callback)

        async def stop() -> None:
            self.listeners.remove(callback)

        return stop

    async def notify(self, channel: str, payload: str) -> None:
        self.sent.append(payload)
        for cb in list(self.listeners):
            cb(payload)


async def test_a_dm_click_is_handled_by_the_process_holding_the_table() -> None:
    bus = Bus()
    handled: dict[str, list[Any]] = {"shard0": [], "shard1": []}
    held = {"shard0": {1}, "shard1": {2}}
    statuses = {1: "running", 2: "running", 3: "finished"}
    forwarders = {}
    for name in ("shard0", "shard1"):
        parsers = {"INTERACTION_CREATE": handled[name].append}

        async def status(table_id: int) -> str | None:
            return statuses.get(table_id)

        fw = InteractionForwarder(
            parsers,
            holds=lambda t, name=name: t in held[name],  # type: ignore[misc]
            status=status,
            listen=bus.listen,
            notify=bus.notify,
        )
        await fw.start()
        forwarders[name] = (fw, parsers)
    fw0, parse0 = forwarders["shard0"]
    fw1, _ = forwarders["shard1"]
    # Discord gives every DM to shard 0.
    for click in (_click("tb:1:act:0:"), _click("tb:2:act:0:"), _click("tb:3:act:0:"), _click("tb:9:act:0:")):
        parse0["INTERACTION_CREATE"](click)
    parse0["INTERACTION_CREATE"](_click("tb:2:act:0:", guild_id="5"))  # a guild click stays where it arrived
    await asyncio.gather(*fw0._tasks)
    ids = {name: [(d["data"]["custom_id"], "guild_id" in d) for d in got] for name, got in handled.items()}
    # shard 0: its own table, the guild click, and the closed and unknown tables (the usual answer, locally)
    assert sorted(ids["shard0"]) == [("tb:1:act:0:", False), ("tb:2:act:0:", True), ("tb:3:act:0:", False),
                                     ("tb:9:act:0:", False)]  # fmt: skip
    assert ids["shard1"] == [("tb:2:act:0:", False)]  # table 2's DM click, by its holder
    assert (fw0.forwarded, fw1.received, len(bus.sent)) == (1, 1, 1)
    for fw, _ in forwarders.values():
        await fw.stop()
    assert not bus.listeners

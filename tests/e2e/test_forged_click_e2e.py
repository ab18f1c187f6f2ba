"""A forged Discord button (a modified client's custom id: the action's JSON with a key of its own) is refused at
the current version and at an older one, and the table's action log never holds it (issue 37, every front-end)."""

from __future__ import annotations

import json
from pathlib import Path

from fakediscord import FakeDiscord

from .driver import ACTION_ID, action_components, start_bot, stop_bot, table_message


async def test_a_forged_button_is_refused_and_never_logged(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="3")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Start" for b in m.buttons()))
        for _ in range(2):
            await (await alice.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda: "Computer 2" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()
        await fake.wait_for(lambda: table_message(fake, channel))

        def her_buttons() -> list[dict[str, object]] | None:
            dms = alice.dm_messages()
            comps = action_components(dms[-1]) if dms else []
            buttons = [c for c in comps if c.get("type") == 2 and ":act:" in str(c["custom_id"])]
            return buttons if any("{" in str(b["custom_id"]) for b in buttons) else None

        buttons = await fake.wait_for(her_buttons)
        panel = alice.dm_messages()[-1]
        button = next(b for b in buttons if "{" in str(b["custom_id"]))
        m = ACTION_ID.match(str(button["custom_id"]))
        assert m is not None
        tid, ver = int(m["tid"]), int(m["ver"])
        action = json.loads(str(button["custom_id"])[m.end() :])
        forged = json.dumps({**action, "zz_forged": "marker"}, separators=(",", ":"), sort_keys=True)
        table = bot.tables.tables[tid]  # type: ignore[union-attr]
        assert table.version == ver
        for version in sorted({ver, max(ver - 1, 0)}):
            data = {"custom_id": f"tb:{tid}:act:{version}:{forged}", "component_type": 2}
            answer = await alice._component(panel, data).reply()
            assert answer.ephemeral and answer.text()
        assert table.version == ver
        stored = await bot.tables.store.load_log(tid)  # type: ignore[union-attr]
        assert "zz_forged" not in json.dumps([table.log, stored])
        # the real button still works, and what is logged is the engine's own action
        await (await alice.click(panel, custom_id=str(button["custom_id"]))).ack()
        await fake.wait_for(lambda: table.version > ver)
        assert table.log[ver] == (0, action)
    finally:
        await stop_bot(bot, task)

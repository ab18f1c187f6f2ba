"""A hand edit drawn before a click must not outlast the click's response (the stall of mixed benchmark runs).

Under a short request budget, an edit of a player's hand can be drawn (the state before their click) and then wait
for a slot, while the click's response, which no limit holds back, shows the state after the click. If that edit
lands last, the player's message goes back to the old state. Nothing would correct it when the table then waits
for someone else: the bot counts the newer state as shown, so the player kept choices they had already used (or,
the other way round, no choices on their turn) until something else changed their hand - a scripted user waiting
for its choices timed out. Here the waiting edit is held at the bot's request scheduler, deterministically.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord

from .driver import Player, action_components, play_until, quiesce, start_bot, stop_bot, version_of


async def test_an_edit_drawn_before_a_click_never_outlasts_the_response(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="2-3")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        await (await bob.click(lobby, label="Join")).ack()
        for _ in range(2):
            await (await alice.click(lobby, label="Add computer")).ack()
        await (await alice.click(lobby, label="Start")).ack()
        assert bot.tables is not None
        table = next(iter(bot.tables.tables.values()))
        sa, sb = table.seat_of(alice.id), table.seat_of(bob.id)
        assert sa is not None and sb is not None
        players = [Player(fake, u, random.Random(u.id)) for u in (alice, bob)]

        def alice_then_bob() -> bool:
            """Alice has her choices, and whatever she does, Bob moves next (the table then waits for him)."""
            game = table.game
            if game is None or game.to_move() != (sa,) or not players[0].can_act():
                return False
            for action in game.legal_actions(sa):
                after = game.clone()
                after.apply(sa, action)
                if after.to_move() != (sb,):
                    return False
            return True

        await play_until(fake, players, alice_then_bob)
        await quiesce(bot)
        assert alice_then_bob()

        # hold every edit of Alice's DM at the scheduler, as a short budget would
        scheduler: Any = bot.requests
        original = scheduler.acquire
        release, held = asyncio.Event(), asyncio.Event()
        dm_channel = str(alice.dm_channel.id)

        async def acquire(route: str, major: str = "", *, exempt: bool = False) -> None:
            if route.startswith("PATCH ") and dm_channel in major and not release.is_set():
                held.set()
                await release.wait()
            await original(route, major, exempt=exempt)

        scheduler.acquire = acquire
        cog: Any = bot.get_cog("Tables")
        # an edit of Alice's hand drawn now, before her click (as a change of her view would draw it)
        cog.frontend.redraw_seat(table, sa, in_dm=True)
        await asyncio.wait_for(held.wait(), 10)

        before = table.version
        handle = await players[0].act()
        await handle.ack()  # the response: her hand after the click, without choices (Bob is to move)
        assert table.version == before + 1 and table.game is not None and table.game.to_move() == (sb,)
        release.set()  # the old edit lands now, after the response
        await quiesce(bot)

        panel = players[0].panel()
        assert panel is not None
        # her message shows the table as it is: no choices left over from before her click
        # her message shows the table as it is: her bid made (she may still take it back: Wizard's rule W-3), none
        # of the choices she had before her click
        assert players[0].choices() == []
        assert {version_of(panel)} <= {-1, table.version}, [c["custom_id"] for c in action_components(panel)]
        assert players[1].can_act()  # and Bob has his
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)

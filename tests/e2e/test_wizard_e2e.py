"""Wizard end to end: the real discord.py bot against the fake Discord, driven by clicking users.

In-process, so the tests can also look inside the bot to check invariants at every step (privacy of
channel messages, the ledger) while every decision still travels as a Discord interaction.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from fakediscord import FakeDiscord

from bot.games.wizard.engine import WizardGame
from bot.render.cards import wizard_label

from .driver import (
    Player,
    action_components,
    game_over,
    play_until,
    quiesce,
    start_bot,
    stop_bot,
    table_message,
)


def hidden_suit_cards(game: WizardGame) -> set[str]:
    """Cards in any hand right now that are not (also) shown publicly, e.g. from an earlier trick."""
    public = json.dumps(game.public_view())
    hidden: set[str] = set()
    for seat in range(game.num_seats):
        for card in game.view(seat)["hand"]:
            if card[:3] not in ("WIZ", "JES") and f'"{card}"' not in public:
                hidden.add(card)
    return hidden


async def test_full_wizard_game_with_closed_dms(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    carol = fake.add_user("carol", dms_closed=True)
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        h = await alice.slash(channel, "wizard new", rounds="1-3", stake_per_point=1)
        opened = await h.reply()
        assert h.ephemeral and "table is open" in opened.text()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        for user in (bob, carol):
            await (await user.click(lobby, label="Join")).ack()
        # only the host may start or add computers
        refused = await bob.click(lobby, label="Start")
        assert "Only the host" in (await refused.reply()).text()
        await (await alice.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda: "Computer 1" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()

        # Carol cannot get DMs: she is told in the channel and opens her hand with "My hand".
        await fake.wait_for_message(channel, lambda m: "can't send you direct messages" in m.text())
        table_msg = await fake.wait_for(lambda: table_message(fake, channel))
        await (await carol.click(table_msg, label="My hand")).reply()
        assert carol.ephemerals()

        svc = bot.tables
        assert svc is not None
        table = next(iter(svc.tables.values()))

        async def check_privacy() -> None:
            # Compare what is on screen with the state it was rendered from: wait for renders first.
            await quiesce(bot)
            game = table.game
            if not isinstance(game, WizardGame) or table.status != "running":
                return
            hidden = hidden_suit_cards(game)
            texts = "\n".join(m.text() for m in fake.channel_messages(channel))
            for card in hidden:
                assert wizard_label(card) not in texts, f"hidden card {card} shown in the channel"
            for seat, s in enumerate(table.seats):  # a DM shows no other seat's hidden card
                user = fake.users.get(s.user_id or -1)
                if user is None or not user.dm_messages():
                    continue
                dm = user.dm_messages()[-1].text()
                for card in hidden - set(game.view(seat)["hand"]):
                    assert wizard_label(card) not in dm, f"{card} of another seat in {user.name}'s DM"

        players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, bob, carol))]
        clicks = await play_until(fake, players, lambda: game_over(fake, channel), check=check_privacy)
        assert clicks > 0
        assert players[2].clicks > 0  # Carol really played through the ephemeral fallback

        # the ledger: one settlement, points = final totals, stakes zero-sum, exactly once
        rows = await bot.db.fetchall("SELECT user_id, currency, amount FROM entries ORDER BY id")  # type: ignore[union-attr]
        assert len(rows) == 8
        assert sum(r[2] for r in rows if r[1] == "stake") == 0
        res = table.game.result()  # type: ignore[union-attr]
        assert [r[2] for r in rows if r[1] == "point"] == list(res.totals)

        # the ledger commands read it back
        bal = await (await alice.slash(channel, "ledger balance")).reply()
        alice_seat = table.seat_of(alice.id)
        assert f"{res.totals[alice_seat]}" in bal.text() or "point" in bal.text()
        board = await (await bob.slash(channel, "leaderboard", game="wizard")).reply()
        assert "Wizard leaderboard" in board.text() and not board.flags & 64
        fake.assert_clean()
        assert not fake.late_acks
    finally:
        await stop_bot(bot, task)


async def test_stale_and_foreign_clicks_change_nothing(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob, mallory = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("mallory")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="2")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        await (await bob.click(lobby, label="Join")).ack()
        await (await alice.click(lobby, label="Add computer")).ack()
        await (await alice.click(lobby, label="Start")).ack()
        table = next(iter(bot.tables.tables.values()))  # type: ignore[union-attr]
        players = {u.id: Player(fake, u, random.Random(u.id)) for u in (alice, bob)}
        actor = await fake.wait_for(lambda: next((p for p in players.values() if p.can_act()), None))
        panel = actor.panel()
        assert panel is not None
        before = table.version
        # Mallory is not seated: pressing "My hand" on the table message tells her so, privately.
        table_msg = await fake.wait_for(lambda: table_message(fake, channel))
        reply = await (await mallory.click(table_msg, label="My hand")).reply()
        assert "not playing" in reply.text()
        # the player acts, then their Discord client sends the same (now stale) click again
        old = action_components(panel)[0]
        data = {"custom_id": old["custom_id"], "component_type": old["type"]}
        if old["type"] == 3:
            data["values"] = [old["options"][0]["value"]]
        first = await actor.act()
        await first.ack()
        await quiesce(bot)
        after = table.version
        log_len = len(table.log)
        again = actor.user._component(panel, data)  # replays the old custom_id, as a lagging client does
        reply = await again.reply()
        assert reply.flags & 64 and ("out of date" in reply.text() or "not your turn" in reply.text())
        await quiesce(bot)
        assert table.version == after and len(table.log) == log_len and after >= before + 1
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)

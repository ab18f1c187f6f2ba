"""Kill the bot process mid-game (SIGKILL), start it again, finish the game on the same messages.

This runs Tavolo exactly as an operator does (``python -m bot`` configured by environment variables)
against the fake Discord. After the restart, the buttons of the messages sent before the crash must
still work, and the ledger must hold exactly what a replay of the table's action log produces.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.process import BotProcess

from bot.engine.protocol import replay
from bot.games.wizard.engine import WizardGame

from .driver import Player, game_over, play_until


def _env(db: Path, guild_id: int) -> dict[str, str]:
    return {"TAVOLO_DATABASE": str(db), "TAVOLO_DEV_GUILD": str(guild_id), "TAVOLO_LOG_LEVEL": "INFO"}


async def test_killed_mid_game_then_restarted(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "tavolo.db"

    first = await BotProcess(fake, env=_env(db, guild.id)).start()
    try:
        await fake.wait_for_commands("wizard", "table")
        await (await alice.slash(channel, "wizard new", rounds="1-3", stake_per_point=2)).reply()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        await (await bob.click(lobby, label="Join")).ack()
        for _ in range(2):
            await (await alice.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda: "Computer 2" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()
        players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, bob))]
        await play_until(fake, players, lambda: game_over(fake, channel), stop_after=4)
    finally:
        assert await first.kill() != 0  # SIGKILL: no shutdown code ran

    dm_before = {p.user.name: p.panel() for p in players}
    second = await BotProcess(fake, env=_env(db, guild.id)).start()
    try:
        # Play on with the very messages sent before the crash (same message ids, same custom_ids).
        await play_until(fake, players, lambda: game_over(fake, channel))
        for p in players:
            panel = p.panel()
            before = dm_before[p.user.name]
            assert panel is not None and before is not None and panel.id == before.id
        assert not fake.late_acks
        fake.assert_clean()
    finally:
        assert await second.stop() == 0  # SIGTERM: a clean shutdown

    # The ledger holds exactly the settlement a replay of the persisted log produces, once.
    con = sqlite3.connect(db)
    try:
        tid, options, seed, seats, status = con.execute(
            "SELECT id, options_json, seed, seats_json, status FROM game_tables"
        ).fetchone()
        assert status == "finished"
        log = [
            (s, json.loads(a))
            for s, a in con.execute("SELECT seat, action FROM table_actions WHERE table_id = ? ORDER BY seq", (tid,))
        ]
        game = replay(WizardGame, len(json.loads(seats)), json.loads(options), seed, log)
        assert game.is_over
        (settlement,) = game.settlements()
        assert con.execute("SELECT COUNT(*) FROM settlements").fetchone()[0] == 1
        for currency in ("point", "stake"):
            booked = [
                a for (a,) in con.execute("SELECT amount FROM entries WHERE currency = ? ORDER BY seat", (currency,))
            ]
            assert booked == list(settlement.amounts[currency])
        assert sum(settlement.amounts["stake"]) == 0
    finally:
        con.close()

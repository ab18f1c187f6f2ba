"""Configured roles: the organiser role may run tournaments, the ledger admin role may adjust the ledger;
members without them (and without Manage Server) are refused, privately."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord

from .driver import start_bot, stop_bot


async def test_organiser_and_admin_roles(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "tournaments")
    boss = fake.add_user("boss", admin=True)
    olga, pat = fake.add_user("olga"), fake.add_user("pat")
    role = fake.add_role(guild, "Organisers")
    fake.give_role(guild, olga, role)
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        ledger_cog: Any = bot.get_cog("Ledger")
        await ledger_cog.settings.set(guild.id, boss.id, organiser_role_id=role, admin_role_id=role)

        refused = await pat.slash(channel, "tournament create", game="wizard", rounds=1)
        assert "Only organisers" in (await refused.reply()).text() and refused.ephemeral
        allowed = await olga.slash(channel, "tournament create", game="wizard", rounds=1)
        await allowed.reply()
        await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))

        no = await pat.slash(channel, "ledger adjust", user=olga, currency="stake", amount=5, reason="prize")
        assert "Only server managers or the ledger admin role" in (await no.reply()).text()
        yes = await olga.slash(channel, "ledger adjust", user=pat, currency="stake", amount=5, reason="prize")
        assert "Recorded entry" in (await yes.reply()).text()
        assert bot.ledger is not None
        assert (await bot.ledger.balance(guild.id, pat.id))["stake"] == 5
        assert (await bot.ledger.balance(guild.id, olga.id))["stake"] == 0
    finally:
        await stop_bot(bot, task)

"""Mediatore at a channel table: ``/mediatore new`` and ``/mediatore rules`` (play goes through cogs.tables)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ._game import send_rules, tables_cog


class MediatoreCog(commands.Cog, name="Mediatore"):
    mediatore = app_commands.Group(
        name="mediatore",
        description="Mediatore: the Italian 4-player game with a hidden called partner",
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @mediatore.command(name="new", description="Open a Mediatore table in this channel (4 players)")
    @app_commands.describe(
        stake="Value of one stake unit; every payment is multiplied by it (default 1)",
        signals="Allow the trick leader's Knock / Fly / Stroke signals (default on)",
        hands="Hands to play; 0 = until the host ends the session (default 0)",
        show_history="Show every trick of the hand, not only the last one (default off)",
        turn_timer="Seconds before the computer plays for an absent player (default 90)",
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        stake: app_commands.Range[int, 1, 1_000_000] | None = None,
        signals: bool | None = None,
        hands: app_commands.Range[int, 0, 1000] | None = None,
        show_history: bool | None = None,
        turn_timer: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        options = {"stake": stake, "signals": signals, "hands": hands, "show_history": show_history}
        await tables_cog(self.bot).open_table(interaction, "mediatore", options, turn_timer)

    @mediatore.command(name="rules", description="A short summary of Mediatore's rules")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, "mediatore")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MediatoreCog(bot))

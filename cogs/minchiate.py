"""Minchiate at a channel table: ``/minchiate new``, ``/minchiate swap`` and ``/minchiate rules``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ._game import send_rules, tables_cog


class MinchiateCog(commands.Cog, name="Minchiate"):
    minchiate = app_commands.Group(
        name="minchiate",
        description="Minchiate: Florentine tarot for two partnerships, settled in resti",
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @minchiate.command(name="new", description="Open a Minchiate table in this channel (4 players, 2 teams)")
    @app_commands.describe(
        deals_per_game="1 deal (default) or 4 (every seat deals once)",
        stake_per_resto="Stake units per resto (default 0: resti only)",
        manual_cut="The cutter chooses how deep to cut (default: automatic)",
        turn_timer="Seconds before the computer plays for an absent player (default 90)",
    )
    @app_commands.choices(deals_per_game=[app_commands.Choice(name=str(n), value=n) for n in (1, 4)])
    async def new(
        self,
        interaction: discord.Interaction[Any],
        deals_per_game: int | None = None,
        stake_per_resto: app_commands.Range[int, 0, 1_000_000] | None = None,
        manual_cut: bool | None = None,
        turn_timer: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        options = {"deals_per_game": deals_per_game, "stake_per_resto": stake_per_resto, "manual_cut": manual_cut}
        await tables_cog(self.bot).open_table(interaction, "minchiate", options, turn_timer)

    @minchiate.command(name="swap", description="Host, before the start: swap two seats (teams are seats 1+3 v 2+4)")
    @app_commands.describe(first="A seat number (1-4)", second="Another seat number (1-4)")
    async def swap(
        self,
        interaction: discord.Interaction[Any],
        first: app_commands.Range[int, 1, 4],
        second: app_commands.Range[int, 1, 4],
    ) -> None:
        cog = tables_cog(self.bot)
        t = cog.service.in_channel(interaction.channel_id or 0)
        if t is None or t.game_id != "minchiate":
            await interaction.response.send_message("There is no Minchiate lobby in this channel.", ephemeral=True)
            return
        await cog.service.swap_seats(t.id, interaction.user.id, first - 1, second - 1)
        await interaction.response.send_message(f"Seats {first} and {second} swapped.", ephemeral=True)

    @minchiate.command(name="rules", description="A short summary of Minchiate's rules")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, "minchiate")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MinchiateCog(bot))

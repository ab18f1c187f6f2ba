"""Wizard at a channel table: ``/wizard new`` and ``/wizard rules`` (play goes through cogs.tables)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ._game import parse_rounds, send_rules, tables_cog


class WizardCog(commands.Cog, name="Wizard"):
    wizard = app_commands.Group(
        name="wizard", description="Wizard: bid the exact number of tricks you will take (3-6 players)", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @wizard.command(name="new", description="Open a Wizard table in this channel")
    @app_commands.describe(
        rounds="Hand sizes to play: all (default), a range like 1-5, or a list like 1,2,3",
        bid_mode="open: bids public at once (default); simultaneous: revealed together; secret: until round end",
        bid_restriction="Hook rule: the dealer may not make the bids add up to the number of tricks",
        first_round_blind="Round 1: see everyone's card but your own",
        wizard_turned="When a Wizard is turned: the dealer chooses trump (default), or no trump",
        stake_per_point="Settle pairwise score differences at this many stake units per point (default 0)",
        turn_timer="Seconds before the computer plays for an absent player (default 90)",
    )
    @app_commands.choices(
        bid_mode=[app_commands.Choice(name=m, value=m) for m in ("open", "simultaneous", "secret")],
        wizard_turned=[
            app_commands.Choice(name="dealer chooses trump", value="dealer_chooses"),
            app_commands.Choice(name="no trump", value="no_trump"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        rounds: str | None = None,
        bid_mode: str | None = None,
        bid_restriction: bool | None = None,
        first_round_blind: bool | None = None,
        wizard_turned: str | None = None,
        stake_per_point: app_commands.Range[int, 0, 1000] | None = None,
        turn_timer: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        try:
            parsed_rounds = parse_rounds(rounds)
        except ValueError as e:
            await interaction.response.send_message(str(e), ephemeral=True)
            return
        options = {
            "rounds": parsed_rounds,
            "bid_mode": bid_mode,
            "bid_restriction": bid_restriction,
            "first_round_blind": first_round_blind,
            "wizard_turned": wizard_turned,
            "stake_per_point": stake_per_point,
        }
        await tables_cog(self.bot).open_table(interaction, "wizard", options, turn_timer)

    @wizard.command(name="rules", description="A short summary of Wizard's rules")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, "wizard")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WizardCog(bot))

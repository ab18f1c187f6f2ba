"""Mighty at a channel table: ``/mighty new`` and ``/mighty rules`` (play goes through cogs.tables)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ._game import send_rules, tables_cog


class MightyCog(commands.Cog, name="Mighty"):
    mighty = app_commands.Group(
        name="mighty", description="Mighty: the Korean 5-player game with a hidden friend", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @mighty.command(name="new", description="Open a Mighty table in this channel (5 players)")
    @app_commands.describe(
        stake="Stake unit; every payment is multiplied by it (default 1)",
        hands="Hands to play; 0 = until the host ends the session (default 0)",
        kitty_face_up="Show the kitty to everybody before the declarer takes it (default on)",
        weak_hand_misdeal="A player with a very weak hand may claim a misdeal (default on)",
        first_trick_friend="The declarer may call 'whoever wins trick 1' as friend (default on)",
        no_friend="The declarer may announce playing alone for double (default on)",
        mighty_saves_joker="Joker call: a holder of Joker and Mighty may play the Mighty instead (default off)",
        show_history="Show every trick of the hand, not only the last one (default off)",
        show_captured="Show each player's captured point cards (default on)",
        turn_timer="Seconds before the computer plays for an absent player (default 90)",
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        stake: app_commands.Range[int, 1, 1_000_000] | None = None,
        hands: app_commands.Range[int, 0, 10_000] | None = None,
        kitty_face_up: bool | None = None,
        weak_hand_misdeal: bool | None = None,
        first_trick_friend: bool | None = None,
        no_friend: bool | None = None,
        mighty_saves_joker: bool | None = None,
        show_history: bool | None = None,
        show_captured: bool | None = None,
        turn_timer: app_commands.Range[int, 15, 3600] | None = None,
    ) -> None:
        options = {
            "stake": stake,
            "hands": hands,
            "kitty_face_up": kitty_face_up,
            "weak_hand_misdeal": weak_hand_misdeal,
            "first_trick_friend": first_trick_friend,
            "no_friend": no_friend,
            "mighty_saves_joker": mighty_saves_joker,
            "show_history": show_history,
            "show_captured": show_captured,
        }
        await tables_cog(self.bot).open_table(interaction, "mighty", options, turn_timer)

    @mighty.command(name="rules", description="A short summary of Mighty's rules")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, "mighty")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MightyCog(bot))

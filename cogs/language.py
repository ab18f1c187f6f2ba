"""``/tavolo language``: the language of a player's own messages (hands, DMs, private replies), or automatic —
their Discord client's language. How a message picks its language is :mod:`cogs._locale`'s."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from . import _groups
from ._locale import LANGUAGE_CHOICES, set_reader_language

__all__ = ["LanguageCog"]


class LanguageCog(commands.Cog, name="Language"):
    tavolo_group = _groups.tavolo_group()

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        _groups.join_groups(self, self.bot.tree)

    async def cog_unload(self) -> None:
        _groups.leave_groups(self, getattr(self.bot, "tree", None))

    @tavolo_group.command(name="language", description="The language of your own messages: hands, DMs, replies")
    @app_commands.describe(language="One of Tavolo's languages, or automatic: your Discord client's language")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]) -> None:
        note = await set_reader_language(self.bot, interaction, language.value)
        await interaction.response.send_message(note, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LanguageCog(bot))

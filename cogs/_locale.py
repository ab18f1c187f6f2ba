"""Which language a message is written in: a user's own messages follow them, a channel's follow its server."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import normalize

__all__ = ["channel_locale", "reader_locale"]


async def reader_locale(bot: Any, interaction: discord.Interaction[Any]) -> str:
    """The locale of a private reply (ephemeral or DM) to the user of ``interaction``."""
    return normalize(interaction.locale)


async def channel_locale(bot: Any, guild_id: int | None, interaction: discord.Interaction[Any] | None = None) -> str:
    """The locale of a message in a channel of ``guild_id`` (seen by everyone there)."""
    if interaction is not None and interaction.guild_locale is not None:
        return normalize(interaction.guild_locale)
    return normalize(None)

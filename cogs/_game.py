"""Bits every game cog shares: finding the tables cog, the rules reply, parsing list options."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import registry
from bot.i18n import _, using
from bot.tables import screens
from bot.tables.model import MAX_TIMEOUT, MIN_TIMEOUT

from ._locale import reader_locale

#: the ``turn_timer`` / ``seconds`` option of every command that sets a turn timer
TurnTimer = app_commands.Range[int, MIN_TIMEOUT, MAX_TIMEOUT]
TURN_TIMER_HELP = f"Seconds before the computer plays for an absent player ({MIN_TIMEOUT}-{MAX_TIMEOUT})"


def tables_cog(bot: commands.Bot) -> Any:
    cog = bot.get_cog("Tables")
    if cog is None:  # pragma: no cover - cogs.tables is always loaded first
        raise RuntimeError("the Tables cog is not loaded")
    return cog


async def game_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """The registered games whose title or id starts with what was typed (a ``game:`` option's suggestions:
    choices fixed at import time would miss games registered later)."""
    typed = current.strip().lower()
    return [
        app_commands.Choice(name=s.title, value=s.id)
        for s in registry.specs()
        if s.id.startswith(typed) or s.title.lower().startswith(typed)
    ][:25]


async def send_rules(interaction: discord.Interaction[Any], game_id: str) -> None:
    spec = registry.get(game_id)
    with using(await reader_locale(interaction.client, interaction)):
        text = spec.renderer.rules_text()
        title = _("{game} — rules", game=screens.game_title(game_id))
    embed = discord.Embed(title=title, description=text[:4096], colour=0x95A5A6)
    await interaction.response.send_message(embed=embed, ephemeral=True)


def parse_rounds(text: str | None) -> str | list[int] | None:
    """``"all"`` / ``"1-5"`` / ``"1,2,3,5"`` -> ``"all"`` or a list of hand sizes; ``None`` if not given.

    Raises ``ValueError`` with a user-facing message on anything else.
    """
    if text is None or not text.strip():
        return None
    text = text.strip().lower()
    if text == "all":
        return "all"
    out: list[int] = []
    try:
        for part in text.replace(" ", "").split(","):
            if "-" in part:
                a, b = (int(x) for x in part.split("-", 1))
                out.extend(range(a, b + 1))
            else:
                out.append(int(part))
    except ValueError:
        raise ValueError("rounds must be `all`, a range like `1-5`, or a list like `1,2,3`.") from None
    return out


def manages_or_has_role(interaction: discord.Interaction[Any], role_id: int | None) -> bool:
    """Server managers always pass; otherwise the member must hold ``role_id`` (a configured role)."""
    perms = interaction.permissions
    if perms is not None and perms.manage_guild:
        return True
    if interaction.guild_id is None or role_id is None:
        return False
    return role_id in {r.id for r in getattr(interaction.user, "roles", [])}


async def reply_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)

"""Which language a message is written in: a user's own messages follow them, a channel's follow its server.

A private message (DM, ephemeral reply) is in the reader's ``/tavolo language`` choice, else their Discord
client's language (``interaction.locale``, remembered for the DMs sent without an interaction). A channel message
is in the managers' ``/tavolo config language:``, else the server's Discord language (``guild_locale`` /
``guild.preferred_locale``, remembered too). Anything Tavolo does not speak is English.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.i18n import N_, SOURCE, SUPPORTED, _, normalize, using
from bot.preferences import Preferences

__all__ = [
    "AUTOMATIC",
    "LANGUAGE_CHOICES",
    "channel_locale",
    "guild_locale",
    "reader_locale",
    "remember",
    "set_channel_language",
    "set_reader_language",
    "user_locale",
]

log = logging.getLogger(__name__)

AUTOMATIC = "auto"
#: each language under its own name (a reader looking for theirs finds it whatever the client shows)
NATIVE = {"en": "English", "it": "Italiano", "ko": "한국어", "pl": "Polski", "ru": "Русский"}
LANGUAGE_CHOICES = [
    app_commands.Choice(name="Automatic", value=AUTOMATIC),
    *(app_commands.Choice(name=NATIVE[code], value=code) for code in SUPPORTED),
]
_FOLLOW_CLIENT = N_("Your messages now follow your Discord language ({language}).")
_FOLLOW_SERVER = N_("This server's channel messages now follow its Discord language ({language}).")


def _preferences(bot: Any) -> Preferences | None:
    # the helpers also serve bots built without preferences (unit tests' stand-ins): they then follow Discord
    services = getattr(bot, "services", None)
    return getattr(services, "preferences", None)


def _seen(locale: object) -> str | None:
    """A Discord locale as Tavolo speaks it (unsupported: English), ``None`` when the interaction had none."""
    return None if locale is None else normalize(locale)


async def remember(bot: Any, interaction: discord.Interaction[Any]) -> None:
    """Note the client language of the user and the server's language (sent with every interaction), for
    the messages that go out later without one."""
    prefs = _preferences(bot)
    if prefs is None:
        return
    try:
        client = _seen(interaction.locale)
        if client is not None:
            await prefs.saw_user_locale(interaction.user.id, client)
        server = _seen(interaction.guild_locale) if interaction.guild_id is not None else None
        if server is not None and interaction.guild_id is not None:
            await prefs.saw_guild_locale(interaction.guild_id, server)
    except Exception:  # a failed write must not fail the click: the language is only a default
        log.exception("could not remember the locales of interaction %s", interaction.id)


async def reader_locale(bot: Any, interaction: discord.Interaction[Any]) -> str:
    """The locale of a private reply (ephemeral or DM) to the user of ``interaction``."""
    await remember(bot, interaction)
    prefs = _preferences(bot)
    if prefs is not None:
        chosen = (await prefs.user_languages(interaction.user.id)).chosen
        if chosen is not None:
            return chosen
    return normalize(interaction.locale)


async def user_locale(bot: Any, user_id: int) -> str:
    """The locale of a message to ``user_id`` sent without an interaction (a DM after another player's move)."""
    prefs = _preferences(bot)
    if prefs is None:
        return SOURCE
    return normalize((await prefs.user_languages(user_id)).effective)


async def channel_locale(bot: Any, guild_id: int | None, interaction: discord.Interaction[Any] | None = None) -> str:
    """The locale of a message in a channel of ``guild_id`` (seen by everyone there)."""
    prefs = _preferences(bot)
    if interaction is not None:
        await remember(bot, interaction)
    if guild_id is None:
        return SOURCE
    if prefs is not None:
        langs = await prefs.guild_languages(guild_id)
        if langs.chosen is not None:
            return langs.chosen
    if interaction is not None and interaction.guild_locale is not None:
        return normalize(interaction.guild_locale)
    guild = bot.get_guild(guild_id) if hasattr(bot, "get_guild") else None
    if guild is not None:
        # the gateway's guild (kept current by GUILD_UPDATE) is fresher than what was stored
        return normalize(guild.preferred_locale)
    if prefs is not None:
        return normalize((await prefs.guild_languages(guild_id)).seen)
    return SOURCE


async def guild_locale(bot: Any, guild_id: int | None) -> str:
    """The locale of a channel message sent without an interaction (the table message, a summary)."""
    return await channel_locale(bot, guild_id)


def _refresh(bot: Any, method: str, key: int) -> None:
    """Let the tables cog re-render what the change touches (its next update would, but a player should not
    wait for a move to see their new language)."""
    cog = bot.get_cog("Tables") if hasattr(bot, "get_cog") else None
    fn = getattr(cog, method, None)
    if fn is not None:
        fn(key)


def _language_name(code: str) -> str:
    return NATIVE.get(code, code)


async def set_reader_language(bot: Any, interaction: discord.Interaction[Any], choice: str) -> str:
    """``/tavolo language``: store the user's choice (``AUTOMATIC``: follow the client); the confirmation, in the
    new language."""
    prefs = _preferences(bot)
    await remember(bot, interaction)
    code = None if choice == AUTOMATIC else normalize(choice)
    if prefs is not None:
        await prefs.set_user_locale(interaction.user.id, code)
    _refresh(bot, "relocalise_user", interaction.user.id)
    locale = await reader_locale(bot, interaction)
    with using(locale):
        if code is None:
            return _(_FOLLOW_CLIENT, language=_language_name(locale))
        return _("Your messages are now in {language}.", language=_language_name(code))


async def set_channel_language(bot: Any, interaction: discord.Interaction[Any], choice: str) -> str:
    """``/tavolo config language:``: store the server's choice (``AUTOMATIC``: follow the server); the
    confirmation, in the manager's language."""
    assert interaction.guild_id is not None
    prefs = _preferences(bot)
    code = None if choice == AUTOMATIC else normalize(choice)
    if prefs is not None:
        await prefs.set_guild_locale(interaction.guild_id, interaction.user.id, code)
    _refresh(bot, "relocalise_guild", interaction.guild_id)
    channel = await channel_locale(bot, interaction.guild_id, interaction)
    with using(await reader_locale(bot, interaction)):
        if code is None:
            return _(_FOLLOW_SERVER, language=_language_name(channel))
        return _("This server's channel messages are now in {language}.", language=_language_name(code))

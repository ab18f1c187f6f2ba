"""Slash commands in the user's language: a discord.py ``Translator`` reading the Tavolo catalogue.

discord.py wraps every command, group, option and choice name and description in a ``locale_str`` and asks the
tree's translator for each of Discord's locales when it syncs; :class:`TavoloTranslator` answers from the ``.po``
files under a ``msgctxt`` per kind of string (``command-name``, ``command-description``, ``option-name``,
``option-description``, ``choice-name``). A translated name that breaks Discord's rules (lowercase, at most 32
letters, digits, ``-`` or ``_``) is dropped, so that locale falls back to the English name instead of the sync
failing. The module also lists every such string for ``python -m bot.i18n extract``.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import SOURCE, _p, normalize, using
from bot.i18n.catalog import Extra
from bot.i18n.names import valid_name

#: the catalogue's ``msgctxt`` of each place a command string appears
CONTEXTS: dict[Where, str] = {
    Where.command_name: "command-name",
    Where.group_name: "command-name",
    Where.command_description: "command-description",
    Where.group_description: "command-description",
    Where.parameter_name: "option-name",
    Where.parameter_description: "option-description",
    Where.choice_name: "choice-name",
}
NAME_CONTEXTS = ("command-name", "option-name")
DESCRIPTION_MAX = 100
CHOICE_NAME_MAX = 100


def valid(context: str, text: str) -> bool:
    """Whether Discord accepts ``text`` where ``context`` puts it."""
    if context in NAME_CONTEXTS:
        return valid_name(text)
    limit = CHOICE_NAME_MAX if context == "choice-name" else DESCRIPTION_MAX
    return 0 < len(text) <= limit


def translate(message: str, context: str, locale: str) -> str | None:
    """``message`` in ``locale`` (a Tavolo locale), or ``None`` when it is English, untranslated or invalid."""
    if locale == SOURCE:
        return None
    with using(locale):
        text = _p(context, message)
    if text == message or not valid(context, text):
        return None
    return text


class TavoloTranslator(app_commands.Translator):
    """Command names, descriptions, options and choices from the catalogue, for it, ko, pl and ru."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        where = CONTEXTS.get(context.location)
        # only Discord's own code of a supported language: "en-GB" or "pt-BR" must not get another language
        if where is None or normalize(locale) != locale.value.split("-")[0]:
            return None
        return translate(string.message, where, normalize(locale))


class _Recorder(app_commands.Translator):
    """Notes every string discord.py would have translated (the extraction's and the tests' view of the tree)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[tuple[str, str], str] = {}

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        where = CONTEXTS.get(context.location)
        if where is not None:
            self.seen.setdefault((string.message, where), _location(context.data))
        return None


def _location(data: Any) -> str:
    command = getattr(data, "command", data)
    return "/" + str(getattr(command, "qualified_name", "") or getattr(data, "name", "?"))


async def command_strings(tree: app_commands.CommandTree[Any]) -> list[Extra]:
    """Every name and description of the tree's commands, as discord.py hands them to a translator at sync."""
    recorder = _Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return [Extra(msgid, where, loc) for (msgid, where), loc in recorder.seen.items()]


async def payloads(tree: app_commands.CommandTree[Any], translator: app_commands.Translator) -> list[dict[str, Any]]:
    """What ``tree.sync()`` would send with ``translator``."""
    return [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]

"""Slash commands are localised: the translator fills name and description localisations for it, ko, pl, ru from the
catalogue, every localisation obeys Discord's rules, and the bot's sync sends them (through the fake Discord)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from fakediscord import FakeDiscord

from bot.i18n import _p, using
from bot.transport.client import offline_bot
from cogs._translator import CONTEXTS, TavoloTranslator, payloads, translate, valid

LOCALES = ("it", "ko", "pl", "ru")


def _walk(node: dict[str, Any], level: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option of a payload, with the path of its parent (names are unique per parent)."""
    yield level, node
    for opt in node.get("options") or []:
        yield from _walk(opt, f"{level}/{node['name']}")


@pytest.fixture(scope="module")
def synced() -> list[dict[str, Any]]:
    import asyncio

    async def build() -> list[dict[str, Any]]:
        async with offline_bot() as bot:
            return await payloads(bot.tree, TavoloTranslator())

    return asyncio.run(build())


def test_payload_carries_localisations(synced: list[dict[str, Any]]) -> None:
    table = next(c for c in synced if c["name"] == "table")
    for loc in LOCALES:
        assert table["name_localizations"].get(loc), loc
        assert table["description_localizations"].get(loc), loc
    for _, node in (pair for c in synced for pair in _walk(c)):
        if "description" in node:  # commands and options (choices have none)
            for loc in LOCALES:
                assert node["description_localizations"].get(loc), f"{node['name']} has no {loc} description"
        for choice in node.get("choices") or []:
            for loc in LOCALES:
                if loc not in choice.get("name_localizations", {}):  # only where the language says it the same
                    with using(loc):
                        assert _p("choice-name", choice["name"]) == choice["name"], f"{choice['name']} not in {loc}"
    # English clients see the source texts: no en-US / en-GB localisation, and none for languages we lack
    assert not {"en-US", "en-GB", "de", "pt-BR"} & set(table["name_localizations"])


def test_localisations_obey_discords_rules(synced: list[dict[str, Any]]) -> None:
    for loc in LOCALES:
        names: Counter[tuple[str, str]] = Counter()
        for parent, node in (pair for c in synced for pair in _walk(c)):
            name = node.get("name_localizations", {}).get(loc, node["name"])
            if "type" in node:
                names[(parent, name)] += 1
            if "name_localizations" in node and loc in node["name_localizations"] and "description" in node:
                assert valid("command-name", name), f"{loc}: bad name {name!r}"
            desc = node.get("description_localizations", {}).get(loc)
            assert desc is None or 0 < len(desc) <= 100, f"{loc}: {desc!r}"
        clashes = [k for k, n in names.items() if n > 1]
        assert not clashes, f"{loc}: two commands or options share a name: {clashes}"


def test_invalid_translations_fall_back_to_english() -> None:
    assert valid("command-name", "стол") and valid("command-name", "테이블") and valid("option-name", "turn_timer")
    assert not valid("command-name", "Stół") and not valid("command-name", "two words")
    assert not valid("command-name", "x" * 33) and not valid("command-description", "d" * 101)
    assert translate("table", "command-name", "en") is None  # English: the name itself
    assert translate("no such command", "command-name", "ru") is None  # not in the catalogue
    assert translate("table", "command-name", "ru") == "стол"


async def test_translator_answers_by_discord_locale() -> None:
    from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

    tr = TavoloTranslator()
    ctx = TranslationContext(TranslationContextLocation.command_name, None)
    assert await tr.translate(locale_str("table"), discord.Locale.polish, ctx) == "stół"
    assert await tr.translate(locale_str("table"), discord.Locale.korean, ctx) == "테이블"
    assert await tr.translate(locale_str("table"), discord.Locale.british_english, ctx) is None
    assert await tr.translate(locale_str("table"), discord.Locale.brazil_portuguese, ctx) is None


async def test_sync_sends_localisations(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The bot installs the translator in setup_hook: what Discord receives has the localisations."""
    from e2e.driver import start_bot, stop_bot

    bot, task = await start_bot(fake_discord, tmp_path / "t.db")
    try:
        data = {c.data["name"]: c.data for c in fake_discord.world.commands.values()}
        for loc in LOCALES:
            assert data["table"]["name_localizations"][loc]
            assert data["mighty"]["description_localizations"][loc]
        assert data["mighty"]["name_localizations"]["ko"] == "마이티"
    finally:
        await stop_bot(bot, task)


@pytest.mark.parametrize("locale", LOCALES)
def test_catalogue_command_strings_are_valid(locale: str) -> None:
    """A translation Discord would refuse is caught here, not silently replaced by English at sync."""
    from bot.i18n import catalog, po_path

    bad = [
        f"{m.context}: {m.string!r}"
        for m in catalog.read(po_path(locale), locale)
        if m.context in CONTEXTS.values() and not valid(m.context, m.string)
    ]
    assert not bad, "\n".join(bad)

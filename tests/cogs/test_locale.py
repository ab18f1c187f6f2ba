"""The language a message is written in: the rules of cogs/_locale.py and the stored preferences behind them.

A private message: the reader's explicit ``/tavolo language`` choice, else their client's language (remembered for
DMs sent without an interaction). A channel message: ``/tavolo config language:``, else the server's language.
Anything Tavolo does not speak is English. The stored choices survive a restart (both database backends).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from bot.preferences import Preferences
from bot.storage.db import Database
from cogs._locale import (
    AUTOMATIC,
    channel_locale,
    guild_locale,
    reader_locale,
    remember,
    set_channel_language,
    set_reader_language,
    user_locale,
)

GUILD = 77


@dataclass
class FakeBot:
    """What the helpers read of a bot: its services' preferences and the gateway's guilds."""

    preferences: Preferences | None
    guild_locales: dict[int, str] = field(default_factory=dict)
    services: Any = None

    def __post_init__(self) -> None:
        self.services = SimpleNamespace(preferences=self.preferences)

    def get_guild(self, guild_id: int) -> Any:
        loc = self.guild_locales.get(guild_id)
        return None if loc is None else SimpleNamespace(id=guild_id, preferred_locale=loc)

    def get_cog(self, name: str) -> Any:
        return None


def interaction(user_id: int, locale: str | None, guild_locale: str | None = None, guild_id: int | None = GUILD) -> Any:
    return SimpleNamespace(
        id=1, user=SimpleNamespace(id=user_id), locale=locale, guild_locale=guild_locale, guild_id=guild_id
    )


@pytest.fixture
async def db(tmp_path: Any) -> Any:
    database = await Database.open(tmp_path / "t.db")
    try:
        yield database
    finally:
        await database.close()


async def test_a_private_reply_follows_the_client_unless_the_reader_chose(db: Database) -> None:
    bot = FakeBot(Preferences(db))
    assert await reader_locale(bot, interaction(1, "ko")) == "ko"
    assert await reader_locale(bot, interaction(1, "pt-BR")) == "en"  # unsupported: English
    assert await reader_locale(bot, interaction(1, "ru")) == "ru"
    await set_reader_language(bot, interaction(1, "ru"), "pl")
    assert await reader_locale(bot, interaction(1, "ko")) == "pl"  # the explicit choice wins over the client
    await set_reader_language(bot, interaction(1, "ko"), AUTOMATIC)
    assert await reader_locale(bot, interaction(1, "it")) == "it"  # automatic: the client again


async def test_a_dm_without_interaction_uses_the_last_seen_client_or_the_choice(db: Database) -> None:
    bot = FakeBot(Preferences(db))
    assert await user_locale(bot, 5) == "en"  # never seen: English
    await remember(bot, interaction(5, "ko"))
    assert await user_locale(bot, 5) == "ko"
    await remember(bot, interaction(5, "ru"))
    assert await user_locale(bot, 5) == "ru"  # automatic keeps the latest client language
    await set_reader_language(bot, interaction(5, "ru"), "it")
    await remember(bot, interaction(5, "ko"))
    assert await user_locale(bot, 5) == "it"  # a client change does not override the choice


async def test_the_confirmation_is_in_the_new_language(db: Database) -> None:
    bot = FakeBot(Preferences(db))
    text = await set_reader_language(bot, interaction(9, "en-US"), "ko")
    assert "한국어" in text and "now" not in text
    text = await set_reader_language(bot, interaction(9, "ru"), AUTOMATIC)
    assert "Русский" in text and "Discord" in text


async def test_a_channel_follows_the_config_else_the_server(db: Database) -> None:
    bot = FakeBot(Preferences(db), guild_locales={GUILD: "it"})
    assert await guild_locale(bot, GUILD) == "it"  # the server's Discord language
    assert await channel_locale(bot, GUILD, interaction(1, "ko", "pl")) == "pl"  # the interaction's is fresher
    assert await guild_locale(bot, None) == "en"  # no server (a DM)
    bot.guild_locales[GUILD] = "de"
    assert await guild_locale(bot, GUILD) == "en"  # unsupported: English
    await set_channel_language(bot, interaction(1, "ko", "de"), "ru")
    assert await guild_locale(bot, GUILD) == "ru"  # the managers' choice wins over the server's
    assert await channel_locale(bot, GUILD, interaction(1, "ko", "it")) == "ru"
    await set_channel_language(bot, interaction(1, "ko", "it"), AUTOMATIC)
    bot.guild_locales[GUILD] = "it"
    assert await guild_locale(bot, GUILD) == "it"


async def test_a_server_out_of_the_gateway_cache_uses_the_last_seen_language(db: Database) -> None:
    bot = FakeBot(Preferences(db))  # get_guild knows no guild (e.g. another shard's)
    assert await guild_locale(bot, GUILD) == "en"
    await remember(bot, interaction(1, "en-US", "ko"))
    assert await guild_locale(bot, GUILD) == "ko"


async def test_without_preferences_discord_decides() -> None:
    bot = FakeBot(None, guild_locales={GUILD: "pl"})
    assert await reader_locale(bot, interaction(1, "ru")) == "ru"
    assert await user_locale(bot, 1) == "en"
    assert await guild_locale(bot, GUILD) == "pl"


async def test_preferences_survive_a_restart(db_target: str) -> None:
    db = await Database.open(db_target)
    try:
        prefs = Preferences(db)
        await prefs.set_user_locale(1, "ko")
        await prefs.saw_user_locale(1, "ru")
        await prefs.saw_user_locale(2, "pl")
        await prefs.set_images(2, False)
        await prefs.set_guild_locale(GUILD, 1, "it")
        await prefs.saw_guild_locale(GUILD, "ru")
        await prefs.saw_guild_locale(GUILD + 1, "pl")
    finally:
        await db.close()
    db = await Database.open(db_target)
    try:
        prefs = Preferences(db)
        one, two = await prefs.user_languages(1), await prefs.user_languages(2)
        assert (one.chosen, one.seen, one.effective) == ("ko", "ru", "ko")
        assert (two.chosen, two.seen, two.effective) == (None, "pl", "pl")
        assert await prefs.images(2) is False  # the languages did not touch the pictures choice
        g = await prefs.guild_languages(GUILD)
        assert (g.chosen, g.seen) == ("it", "ru")
        assert (await prefs.guild_languages(GUILD + 1)).effective == "pl"
        await prefs.set_user_locale(1, None)
        assert (await prefs.user_languages(1)).effective == "ru"
        with pytest.raises(ValueError):
            await prefs.set_user_locale(1, "de")
    finally:
        await db.close()


async def test_a_users_choice_made_in_another_process_reaches_this_one(db_target: str) -> None:
    """A player of servers on two shards: the process that did not take their ``/tavolo language`` reads it
    again once its cached row is older than USER_TTL (a server's rows have one writer and are not re-read)."""
    from bot.preferences import USER_TTL

    db = await Database.open(db_target)
    try:
        now = [0.0]
        here, there = Preferences(db, clock=lambda: now[0]), Preferences(db)
        assert (await here.user_languages(1)).effective is None
        assert await here.images(1) is None
        await there.set_user_locale(1, "ko")
        await there.set_images(1, False)
        now[0] += USER_TTL / 2
        assert (await here.user_languages(1)).effective is None  # still the cached row
        now[0] += USER_TTL
        assert (await here.user_languages(1)).effective == "ko"
        assert await here.images(1) is False
    finally:
        await db.close()


async def test_an_outbox_render_is_in_the_language_of_its_reader_at_render_time() -> None:
    """A DM's render runs later than it was scheduled (coalesced): it reads its reader's language when it runs,
    and never inherits the language of the click that happened to schedule it."""
    from bot.i18n import current, using
    from cogs._outbox import Outbox

    outbox = Outbox(0.0)
    reader = {"locale": "ko"}
    seen: list[tuple[str, str]] = []

    async def render() -> None:
        inherited = current()
        with using(reader["locale"]):
            seen.append((inherited, current()))

    with using("ru"):  # the click of a Russian player schedules the DM of a Korean one
        outbox.schedule("dm", render)
    reader["locale"] = "pl"  # the reader changes language before the edit goes out
    await outbox.drain()
    assert seen == [("en", "pl")]


async def test_help_in_every_language_within_discords_limits() -> None:
    from bot.i18n import SUPPORTED, using
    from bot.transport.client import offline_bot
    from cogs.help import help_embed

    async with offline_bot() as bot:
        for loc in SUPPORTED:
            with using(loc):
                embed = help_embed(bot.tree)
            assert len(embed) <= 6000 and len(embed.fields) <= 25
            assert all(len(f.value or "") <= 1024 for f in embed.fields)
            names = [f.name for f in embed.fields]
            if loc == "en":
                assert "At a table" in names and "**Join**" in (embed.description or "")
            else:
                assert "At a table" not in names and "**Join**" not in (embed.description or ""), loc
                assert "/tavolo language" not in "\n".join(f.value or "" for f in embed.fields), loc  # localised

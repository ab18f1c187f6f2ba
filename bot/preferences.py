"""Per-user and per-server preferences: card pictures (``user_settings.images``, migration 006) and languages (008).

Discord-free. ``None`` means "not chosen": the server's setting (or the default) applies. Read on every render of a
player's hand or a table message, so each row is kept in memory once read. A server's rows have one writer (the
process whose shard holds the server); a user's rows may be written by any process (a player of servers on several
shards), so a user's cached row is read again after :data:`USER_TTL` seconds: a language or picture choice made
through another process reaches this one's DMs within that time.

A language is stored twice: the explicit choice (``/tavolo language``, ``/tavolo config language:``) and the Discord
language last seen (a client's ``interaction.locale``, a server's preferred locale), so a message sent without an
interaction (a DM after another player's move) still knows its reader's language.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import SUPPORTED
from bot.storage.db import Database

__all__ = ["USER_TTL", "Languages", "Preferences"]

#: seconds a user's cached preferences are trusted before they are read again (other processes may write them)
USER_TTL = 60.0

_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"


@dataclass(slots=True)
class Languages:
    """One user's (or server's) stored languages: ``chosen`` wins; ``seen`` is Discord's, last observed."""

    chosen: str | None = None
    seen: str | None = None

    @property
    def effective(self) -> str | None:
        return self.chosen or self.seen


def _checked(locale: str | None) -> str | None:
    if locale is not None and locale not in SUPPORTED:
        raise ValueError(f"unsupported locale {locale!r}")
    return locale


class Preferences:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self.clock = clock
        self._images: dict[int, bool | None] = {}
        self._users: dict[int, Languages] = {}
        self._guilds: dict[int, Languages] = {}
        self._read_at: dict[int, float] = {}  # user id -> when its row was last read

    async def _upsert(self, table: str, key: str, key_value: int, **columns: object) -> None:
        """Write ``columns`` of one settings row, creating it if needed (names are this module's constants)."""
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in range(len(columns) + 1))
        updates = ", ".join(f"{c} = excluded.{c}" for c in columns)
        async with self.db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO {table} ({key}, {names}) VALUES ({marks}) ON CONFLICT ({key}) DO UPDATE SET"
                f" {updates}, updated_at = {_NOW}",
                (key_value, *columns.values()),
            )

    def _fresh(self, user_id: int) -> bool:
        """Whether the user's cached row may be used; a stale one is forgotten (read again on next use)."""
        read_at = self._read_at.get(user_id)
        if read_at is not None and self.clock() - read_at < USER_TTL:
            return True
        self._images.pop(user_id, None)
        self._users.pop(user_id, None)
        self._read_at[user_id] = self.clock()
        return False

    async def images(self, user_id: int) -> bool | None:
        """The user's choice for card pictures, ``None`` when they made none."""
        if self._fresh(user_id) and user_id in self._images:
            return self._images[user_id]
        row = await self.db.fetchone("SELECT images FROM user_settings WHERE user_id = ?", (user_id,))
        value = None if row is None or row[0] is None else bool(row[0])
        self._images[user_id] = value
        return value

    async def set_images(self, user_id: int, on: bool | None) -> None:
        """Set (or with ``None`` forget) the user's choice."""
        await self._upsert("user_settings", "user_id", user_id, images=None if on is None else int(on))
        self._images[user_id] = on

    # -- a user's language ------------------------------------------------------------------------------------
    async def user_languages(self, user_id: int) -> Languages:
        if not self._fresh(user_id) or user_id not in self._users:
            row = await self.db.fetchone(
                "SELECT locale, client_locale FROM user_settings WHERE user_id = ?", (user_id,)
            )
            self._users[user_id] = Languages(*row) if row is not None else Languages()
        return self._users[user_id]

    def cached_user_locale(self, user_id: int) -> str | None:
        """The user's language if it was read already (for synchronous callers; ``None``: unknown or not set)."""
        langs = self._users.get(user_id)
        return langs.effective if langs is not None else None

    async def set_user_locale(self, user_id: int, locale: str | None) -> None:
        """The user's explicit language, or ``None``: follow their Discord client."""
        langs = await self.user_languages(user_id)
        await self._upsert("user_settings", "user_id", user_id, locale=_checked(locale))
        langs.chosen = locale

    async def saw_user_locale(self, user_id: int, locale: str) -> None:
        """Remember the client language of the user's latest interaction (written only when it changed)."""
        langs = await self.user_languages(user_id)
        if langs.seen == locale:
            return
        await self._upsert("user_settings", "user_id", user_id, client_locale=_checked(locale))
        langs.seen = locale

    # -- a server's language ----------------------------------------------------------------------------------
    async def guild_languages(self, guild_id: int) -> Languages:
        if guild_id not in self._guilds:
            row = await self.db.fetchone(
                "SELECT locale, preferred_locale FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            self._guilds[guild_id] = Languages(*row) if row is not None else Languages()
        return self._guilds[guild_id]

    async def set_guild_locale(self, guild_id: int, actor_id: int, locale: str | None) -> None:
        """The managers' language for the server's channels, or ``None``: follow the server's Discord language."""
        langs = await self.guild_languages(guild_id)
        await self._upsert("guild_settings", "guild_id", guild_id, locale=_checked(locale), updated_by=actor_id)
        langs.chosen = locale

    async def saw_guild_locale(self, guild_id: int, locale: str) -> None:
        """Remember the server's Discord language (written only when it changed)."""
        langs = await self.guild_languages(guild_id)
        if langs.seen == locale:
            return
        await self._upsert("guild_settings", "guild_id", guild_id, preferred_locale=_checked(locale))
        langs.seen = locale

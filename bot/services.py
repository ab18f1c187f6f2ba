"""The services one bot process runs, built together in one place (``TavoloBot.setup_hook``) and handed to the
cogs, which only adapt Discord to them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.images import ImageCache
from bot.ledger import Ledger
from bot.ledger.money import MoneySettings
from bot.preferences import Preferences
from bot.ratings import Ratings
from bot.storage.db import Database
from bot.tables.service import TableService
from bot.tournaments import GuildSettings, TournamentService


@dataclass(slots=True)
class Services:
    db: Database
    ledger: Ledger
    ratings: Ratings
    guild_settings: GuildSettings
    tables: TableService
    tournaments: TournamentService
    #: the least time between two edits of one Discord message (seconds)
    edit_interval: float = 1.0
    #: per-user preferences (card pictures on or off)
    preferences: Preferences | None = None
    #: the rendered card pictures, by content (shared by every table of the process)
    pictures: ImageCache | None = None
    #: whether messages show card pictures where neither the server nor the player chose (the tests' text-only
    #: e2e scenarios read embeds and turn it off)
    images_default: bool = True
    #: the servers' money values (``/tavolo config``), one cache for every cog that shows or sets them
    money: MoneySettings | None = None

    def __post_init__(self) -> None:
        if self.money is None:
            self.money = MoneySettings(self.db)


def services_of(bot: Any) -> Services:
    """The services of a started bot (a cog's ``setup`` reads them from here)."""
    services = getattr(bot, "services", None)
    if not isinstance(services, Services):
        raise RuntimeError("the bot's services are not built yet (cogs load in setup_hook)")
    return services

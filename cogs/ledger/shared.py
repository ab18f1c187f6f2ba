"""What the ledger's cogs share: a base cog (the ledger, the settings, the money values), the options' choices,
mentions and dates as Discord shows them, amounts with their money value, who counts as a ledger admin, and the
private replies (a refusal, a short catalogue notice).

Used by :mod:`cogs.ledger` (balances, history, export, adjustments; payments), :mod:`cogs.standings`,
:mod:`cogs.seasons` and :mod:`cogs.server_config`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import registry
from bot.i18n import _, _p, num, tenths, using
from bot.ledger import Ledger, LedgerRefusal, SeasonSpec
from bot.ledger.money import MoneySettings, MoneyValue
from bot.ledger.texts import amount_text, units_text
from bot.render.errors import error_text
from bot.tournaments import GuildSettings

from .. import _groups
from .._game import manages_or_has_role
from .._locale import reader_locale

__all__ = [
    "CURRENCY_CHOICES",
    "SEASON_CHOICES",
    "MoneyCog",
    "date_tag",
    "dec",
    "fmt_amounts",
    "game_name",
    "is_admin",
    "mention",
    "parse_season",
    "pct",
    "private",
    "refuse",
    "relative_tag",
    "season_autocomplete",
    "unit_values",
    "with_money",
]

CURRENCY_CHOICES = [app_commands.Choice(name=c, value=c) for c in ("stake", "resto", "point")]
SEASON_CHOICES = [
    app_commands.Choice(name="current season", value="current"),
    app_commands.Choice(name="all seasons", value="all"),
]


def fmt_amounts(amounts: dict[str, int]) -> str:
    parts = [amount_text(v, cur, sign_points=True) for cur, v in amounts.items() if v or cur != "point"]
    return ", ".join(parts) or num(0)


def game_name(game_id: str) -> str:
    return _p("game", registry.title(game_id)) if registry.exists(game_id) else game_id


def mention(user_id: int) -> str:
    """A mention (outside the ``_()`` call: the extractor skips f-strings among its arguments)."""
    return f"<@{user_id}>"


def date_tag(when: datetime) -> str:
    """A date Discord shows in each reader's own format."""
    return f"<t:{int(when.timestamp())}:d>"


def relative_tag(when: datetime) -> str:
    """A moment Discord shows relative to each reader's clock ("in 23 hours")."""
    return f"<t:{int(when.timestamp())}:R>"


def dec(x: float) -> str:
    """A rating figure with one decimal (always: ``21.0``, not ``21``), in the locale's digits."""
    return tenths(x)


def pct(x: float) -> str:
    return num(round(x * 100))


def with_money(text: str, amount: int, currency: str, money: MoneyValue) -> str:
    """``text`` followed by what ``amount`` units are worth, when the server set a value."""
    worth = money.text(amount, currency)
    return _("{units} ({money})", units=text, money=worth) if worth is not None else text


def unit_values(money: MoneyValue) -> str:
    """``1 stake = 1,50 €; 1 point = 0,01 €`` in the current locale, or that no value is set."""
    parts = [
        _("{unit} = {money}", unit=units_text(1, cur), money=money.text(1, cur))
        for cur in ("stake", "resto", "point")
        if money.of(1, cur) is not None
    ]
    return "; ".join(parts) if parts else _("not set (units only)")


def parse_season(text: str) -> SeasonSpec:
    """``current``, ``all`` or a season number, as typed (anything else: the ledger refuses it with a reason)."""
    text = (text or "current").strip().lower()
    if text.isdigit():
        return int(text)
    return text  # type: ignore[return-value]


async def season_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    # the seasons come from the ledger the ledger cog reads (none while it is not loaded: the fixed choices only)
    cog = interaction.client.get_cog("Ledger") if hasattr(interaction.client, "get_cog") else None
    ledger = getattr(cog, "ledger", None)
    numbers: list[int] = []
    if ledger is not None and interaction.guild_id is not None:
        numbers = [s.number for s in await ledger.seasons(interaction.guild_id)]
    with using(interaction.locale):
        options = [(_("current season"), "current"), (_("all seasons"), "all")]
        options += [(_("season {n}", n=n), str(n)) for n in reversed(numbers)]
    return [app_commands.Choice(name=n, value=v) for n, v in options if current.lower() in n.lower()][:25]


async def is_admin(settings: GuildSettings, interaction: discord.Interaction[Any]) -> bool:
    """A ledger admin: Manage Server, or the server's configured admin role."""
    if interaction.guild_id is None:
        return False
    cfg = await settings.get(interaction.guild_id)
    return manages_or_has_role(interaction, cfg.admin_role_id)


async def refuse(bot: Any, interaction: discord.Interaction[Any], err: LedgerRefusal) -> None:
    """The ledger's refusal, privately, in the reader's language."""
    with using(await reader_locale(bot, interaction)):
        text = error_text(err)
    await interaction.response.send_message(text, ephemeral=True)


async def private(bot: Any, interaction: discord.Interaction[Any], msgid: str, **params: Any) -> None:
    """A short private reply from the catalogue, in the reader's language."""
    with using(await reader_locale(bot, interaction)):
        text = _(msgid, **params)
    await interaction.response.send_message(text, ephemeral=True)


class MoneyCog(commands.Cog):
    """What the cogs that show amounts of money share: the ledger, the server settings, the process's one cache of
    money values, and their subcommands joined to the shared ``/ledger`` group while loaded."""

    def __init__(
        self,
        bot: commands.Bot,
        ledger: Ledger,
        settings: GuildSettings | None = None,
        money: MoneySettings | None = None,
    ) -> None:
        self.bot = bot
        self.ledger = ledger
        self.settings = settings or GuildSettings(ledger.db)
        self._money = money

    @property
    def money(self) -> MoneySettings:
        """The server's money values (one cache for the process when the services hand one over)."""
        if self._money is None:
            self._money = MoneySettings(self.ledger.db)
        return self._money

    async def cog_load(self) -> None:
        _groups.join_groups(self, self.bot.tree)

    async def cog_unload(self) -> None:
        _groups.leave_groups(self, getattr(self.bot, "tree", None))

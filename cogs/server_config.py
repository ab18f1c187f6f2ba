"""``/tavolo config``: a server manager's settings — the tournament organiser and ledger admin roles, card
pictures, the language of the server's channel messages and what the ledger's units are worth in money.

The money values are the process's one :class:`~bot.ledger.money.MoneySettings` (the ledger's cogs and the table
summaries read the same cache, so a change shows at once everywhere).
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, _, _p, using
from bot.ledger import LedgerRefusal
from bot.ledger.money import MoneySettings
from bot.services import services_of
from bot.storage.db import Database
from bot.tournaments import GuildSettings

from . import _groups
from ._locale import LANGUAGE_CHOICES, reader_locale, set_channel_language
from .ledger.shared import private, refuse, unit_values

__all__ = ["ServerConfigCog"]


class ServerConfigCog(commands.Cog, name="Server config"):
    tavolo_group = _groups.tavolo_group()

    def __init__(
        self,
        bot: commands.Bot,
        db: Database,
        settings: GuildSettings | None = None,
        money: MoneySettings | None = None,
    ) -> None:
        self.bot = bot
        self.settings = settings or GuildSettings(db)
        self.money = money or MoneySettings(db)

    async def cog_load(self) -> None:
        _groups.join_groups(self, self.bot.tree)

    async def cog_unload(self) -> None:
        _groups.leave_groups(self, getattr(self.bot, "tree", None))

    @tavolo_group.command(name="config", description="Server managers: organiser and ledger admin roles, card pictures")
    @app_commands.describe(
        organiser_role="May create/start/cancel tournaments", admin_role="May adjust the ledger and close seasons",
        clear="Remove both roles first",
        images="Card pictures in table messages and hands (off: text-only messages; players may choose their own)",
        language="The language of this server's channel messages (automatic: the server's Discord language)",
        money_currency="The money the ledger's units are worth: an ISO 4217 code (EUR, USD, KRW…)",
        stake_value="What one stake is worth in that money (e.g. 1.50; 0 removes it)",
        resto_value="What one resto is worth in that money (e.g. 0.50; 0 removes it)",
        point_value="What one point is worth in that money (e.g. 0.01; 0 removes it)",
    )  # fmt: skip
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    async def config(
        self,
        interaction: discord.Interaction[Any],
        organiser_role: discord.Role | None = None,
        admin_role: discord.Role | None = None,
        clear: bool = False,
        images: Literal["on", "off"] | None = None,
        language: app_commands.Choice[str] | None = None,
        money_currency: app_commands.Range[str, 3, 3] | None = None,
        stake_value: app_commands.Range[str, 1, 20] | None = None,
        resto_value: app_commands.Range[str, 1, 20] | None = None,
        point_value: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        perms = interaction.permissions
        if not perms.manage_guild:
            await private(self.bot, interaction, N_("Only server managers can change the settings."))
            return
        values = {u: v for u, v in (("stake", stake_value), ("resto", resto_value), ("point", point_value)) if v}
        if money_currency is not None or values:
            try:  # first: a refused value changes none of the other settings
                money = await self.money.set(
                    interaction.guild_id, interaction.user.id, currency=money_currency, values=values
                )
            except LedgerRefusal as e:
                await refuse(self.bot, interaction, e)
                return
        else:
            money = await self.money.get(interaction.guild_id)
        if images is not None:
            await self.settings.set_images(interaction.guild_id, interaction.user.id, images == "on")
        language_note = await set_channel_language(self.bot, interaction, language.value) if language else None
        cfg = await self.settings.set(
            interaction.guild_id,
            interaction.user.id,
            organiser_role_id=organiser_role.id if organiser_role else None,
            admin_role_id=admin_role.id if admin_role else None,
            clear=clear,
        )
        with using(await reader_locale(self.bot, interaction)):
            org = f"<@&{cfg.organiser_role_id}>" if cfg.organiser_role_id else _("anyone may host")
            adm = f"<@&{cfg.admin_role_id}>" if cfg.admin_role_id else _("Manage Server only")
            pics = _("text only") if cfg.images is False else _p("pictures", "on")
            text = _("Tournament organisers: {org}. Ledger admins: {adm}. Card pictures: {pics}.", org=org, adm=adm,
                     pics=pics)  # fmt: skip
            text += "\n" + _("Money value: {values}.", values=unit_values(money))
        await interaction.response.send_message(text, ephemeral=True)
        if language_note is not None:
            await interaction.followup.send(language_note, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    s = services_of(bot)
    await bot.add_cog(ServerConfigCog(bot, s.db, s.guild_settings, s.money))

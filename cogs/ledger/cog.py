"""``/ledger balance``, ``history``, ``export`` and ``adjust``: what the ledger holds, read back, and an admin's
correction entry.

Tables book settlements; this cog only reads the ledger, except for an admin's adjustment, an audited entry that
is appended (never an edit or a deletion). It also holds the server's money values (``/tavolo config``) for the
table summaries, which read them through ``bot.get_cog("Ledger").money``.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.i18n import N_, _, signed, using
from bot.ledger import HistoryRow, LedgerRefusal
from bot.ledger.texts import amount_text, currency_name

from .. import _groups
from .._locale import channel_locale, reader_locale
from .shared import (
    CURRENCY_CHOICES,
    SEASON_CHOICES,
    MoneyCog,
    fmt_amounts,
    game_name,
    is_admin,
    mention,
    private,
    refuse,
    with_money,
)

__all__ = ["LedgerCog", "history_line"]


def history_line(row: HistoryRow) -> str:
    when = f"<t:{int(row.created_at.timestamp())}:d>"
    amounts = fmt_amounts(dict(row.amounts))
    if row.kind == "adjustment":
        if row.actor_id:
            return _(
                "{when} adjustment {amounts} by {who}: {reason}",
                when=when, amounts=amounts, who=mention(row.actor_id), reason=row.reason,
            )  # fmt: skip
        return _("{when} adjustment {amounts}: {reason}", when=when, amounts=amounts, reason=row.reason)
    if row.kind == "payment":
        who = mention(row.counterparty_id) if row.counterparty_id else "?"
        if sum(row.amounts.values()) > 0:  # the payer's balance went up
            line = _("{when} payment to {who}: {amounts}", when=when, who=who, amounts=amounts)
        else:
            line = _("{when} payment from {who}: {amounts}", when=when, who=who, amounts=amounts)
        return f"{line} — {row.reason}" if row.reason else line
    game = game_name(row.game) if row.game else "?"
    table = str(row.table_id)
    if row.hand_index is not None:
        return _(
            "{when} {game} table #{table} hand {hand}: {amounts}",
            when=when, game=game, table=table, hand=row.hand_index + 1, amounts=amounts,
        )  # fmt: skip
    return _("{when} {game} table #{table}: {amounts}", when=when, game=game, table=table, amounts=amounts)


class LedgerCog(MoneyCog, name="Ledger"):
    ledger_group = _groups.ledger_group()

    @ledger_group.command(name="balance", description="A player's balance in this server")
    @app_commands.describe(user="Whose balance (default: yours)", season="Current season (default) or all")
    @app_commands.choices(season=SEASON_CHOICES)
    async def balance(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None, season: str = "current"
    ) -> None:
        target = user or interaction.user
        assert interaction.guild_id is not None
        try:
            totals = await self.ledger.balance(interaction.guild_id, target.id, season=season)  # type: ignore[arg-type]
        except LedgerRefusal as e:
            await refuse(self.bot, interaction, e)
            return
        money = await self.money.get(interaction.guild_id)
        with using(await reader_locale(self.bot, interaction)):
            lines = [
                f"**{currency_name(cur)}**: " + with_money(signed(value), value, cur, money)
                for cur, value in totals.items()
            ]
            embed = discord.Embed(
                title=_("Balance of {name}", name=target.display_name), description="\n".join(lines), colour=0xF1C40F
            )
            embed.set_footer(text=_("Current season") if season == "current" else _("All seasons"))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @ledger_group.command(name="history", description="A player's last settled hands and adjustments")
    @app_commands.describe(user="Whose history (default: yours)")
    async def history(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        target = user or interaction.user
        assert interaction.guild_id is not None
        rows = await self.ledger.history(interaction.guild_id, target.id, limit=15)
        with using(await reader_locale(self.bot, interaction)):
            text = "\n".join(history_line(r) for r in rows) or _("Nothing settled yet.")
            title = _("History of {name}", name=target.display_name)
        embed = discord.Embed(title=title, description=text[:4096], colour=0xF1C40F)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @ledger_group.command(name="export", description="Server managers: download this server's ledger as CSV")
    @app_commands.default_permissions(manage_guild=True)
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        if not await is_admin(self.settings, interaction):
            await private(self.bot, interaction, N_("Only server managers can export the ledger."))
            return
        # the CSV keeps its English column keys: it is read by programs and spreadsheets, not only people
        data = await self.ledger.export_csv(interaction.guild_id)
        file = discord.File(io.BytesIO(data.encode()), filename=f"tavolo-ledger-{interaction.guild_id}.csv")
        with using(await reader_locale(self.bot, interaction)):
            text = _("The ledger of this server (one row per entry; the columns are described in the README):")
        await interaction.response.send_message(text, file=file, ephemeral=True)

    @ledger_group.command(name="adjust", description="Admins: add a correction entry (a reason is required)")
    @app_commands.describe(
        user="Whose balance", currency="Which currency", amount="Amount to add (negative to subtract)",
        reason="Why (kept in the ledger and the export)",
    )  # fmt: skip
    @app_commands.choices(currency=CURRENCY_CHOICES)
    async def adjust(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User,
        currency: str,
        amount: app_commands.Range[int, -1_000_000_000, 1_000_000_000],
        reason: app_commands.Range[str, 3, 500],
    ) -> None:
        assert interaction.guild_id is not None
        if not await is_admin(self.settings, interaction):
            await private(self.bot, interaction, N_("Only server managers or the ledger admin role can adjust."))
            return
        try:
            entry = await self.ledger.adjust(
                interaction.guild_id, user.id, currency, amount, interaction.user.id, reason, name=user.display_name
            )
        except LedgerRefusal as e:
            await refuse(self.bot, interaction, e)
            return
        with using(await channel_locale(self.bot, interaction.guild_id, interaction)):
            text = _(
                "Recorded entry #{entry}: {amount} for {user} by {admin} — {reason}",
                entry=str(entry), amount=amount_text(amount, currency, sign_points=True), user=mention(user.id),
                admin=mention(interaction.user.id), reason=reason,
            )  # fmt: skip
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

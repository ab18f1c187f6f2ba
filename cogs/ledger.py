"""Ledger commands: balances, history, settling up and payments, leaderboards (stakes, wins, rating), profiles, the
CSV export, admin adjustments, season close and the per-guild settings (``/tavolo config``: roles, pictures,
language, money value).

Tables book settlements; this cog only reads the ledger, except for audited actions that append entries (an
admin's adjustment or payment, a payment both sides agreed on) or close a season (never edits or deletes). It
also keeps the OpenSkill ratings current: after every update that booked settlements it asks
:class:`~bot.ratings.Ratings` to fold in whatever is new.

Admin = Manage Server, or the guild's configured admin role.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from datetime import datetime
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import registry
from bot.i18n import N_, _, _n, _p, num, signed, tenths, using
from bot.i18n import names as ui
from bot.images.standings import Rating, StandingRow, Standings, render_standings
from bot.ledger import HistoryRow, Ledger, LedgerRefusal, SeasonSpec
from bot.ledger.chart import ChartData, load_chart, recent_form
from bot.ledger.money import MoneySettings, MoneyValue
from bot.ledger.payments import MAX_AMOUNT, Payment, PaymentExpired, Payments
from bot.ledger.recap import Records, records, season_entries
from bot.ledger.settlement import settle
from bot.ledger.texts import amount_text, currency_name, units_text
from bot.ratings import Profile, RatingRow, Ratings
from bot.render.errors import error_text
from bot.services import services_of
from bot.tables.service import TableUpdate
from bot.tournaments import GuildSettings

from ._charts import LedgerPictures, send_picture_message
from ._game import game_autocomplete, manages_or_has_role
from ._locale import LANGUAGE_CHOICES, channel_locale, reader_locale, set_channel_language, set_reader_language
from ._pictures import Pictures

log = logging.getLogger(__name__)

#: What a game's leaderboard ranks by default: Wizard keeps scores, Minchiate resti, the others stakes.
CURRENCY_CHOICES = [app_commands.Choice(name=c, value=c) for c in ("stake", "resto", "point")]
BY_CHOICES = [
    app_commands.Choice(name="stakes / score (total)", value="total"),
    app_commands.Choice(name="rating (OpenSkill)", value="rating"),
    app_commands.Choice(name="wins", value="wins"),
    app_commands.Choice(name="games played", value="games"),
]
SEASON_CHOICES = [
    app_commands.Choice(name="current season", value="current"),
    app_commands.Choice(name="all seasons", value="all"),
]


def _fmt_amounts(amounts: dict[str, int]) -> str:
    parts = [amount_text(v, cur, sign_points=True) for cur, v in amounts.items() if v or cur != "point"]
    return ", ".join(parts) or num(0)


def _game(game_id: str) -> str:
    return _p("game", registry.title(game_id)) if registry.exists(game_id) else game_id


def _user(user_id: int) -> str:
    """A mention (outside the ``_()`` call: the extractor skips f-strings among its arguments)."""
    return f"<@{user_id}>"


def _date(when: datetime) -> str:
    """A date Discord shows in each reader's own format."""
    return f"<t:{int(when.timestamp())}:d>"


def _relative(when: datetime) -> str:
    """A moment Discord shows relative to each reader's clock ("in 23 hours")."""
    return f"<t:{int(when.timestamp())}:R>"


def _dec(x: float) -> str:
    """A rating figure with one decimal (always: ``21.0``, not ``21``), in the locale's digits."""
    return tenths(x)


def _pct(x: float) -> str:
    return num(round(x * 100))


def _history_line(row: HistoryRow) -> str:
    when = f"<t:{int(row.created_at.timestamp())}:d>"
    amounts = _fmt_amounts(dict(row.amounts))
    if row.kind == "adjustment":
        if row.actor_id:
            return _(
                "{when} adjustment {amounts} by {who}: {reason}",
                when=when, amounts=amounts, who=_user(row.actor_id), reason=row.reason,
            )  # fmt: skip
        return _("{when} adjustment {amounts}: {reason}", when=when, amounts=amounts, reason=row.reason)
    if row.kind == "payment":
        who = _user(row.counterparty_id) if row.counterparty_id else "?"
        if sum(row.amounts.values()) > 0:  # the payer's balance went up
            line = _("{when} payment to {who}: {amounts}", when=when, who=who, amounts=amounts)
        else:
            line = _("{when} payment from {who}: {amounts}", when=when, who=who, amounts=amounts)
        return f"{line} — {row.reason}" if row.reason else line
    game = _game(row.game) if row.game else "?"
    table = str(row.table_id)
    if row.hand_index is not None:
        return _(
            "{when} {game} table #{table} hand {hand}: {amounts}",
            when=when, game=game, table=table, hand=row.hand_index + 1, amounts=amounts,
        )  # fmt: skip
    return _("{when} {game} table #{table}: {amounts}", when=when, game=game, table=table, amounts=amounts)


def _with_money(text: str, amount: int, currency: str, money: MoneyValue) -> str:
    """``text`` followed by what ``amount`` units are worth, when the server set a value."""
    worth = money.text(amount, currency)
    return _("{units} ({money})", units=text, money=worth) if worth is not None else text


def _unit_values(money: MoneyValue) -> str:
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
    cog = _CONFIRM.get("cog")
    numbers: list[int] = []
    if cog is not None and interaction.guild_id is not None:
        numbers = [s.number for s in await cog.ledger.seasons(interaction.guild_id)]
    with using(interaction.locale):
        options = [(_("current season"), "current"), (_("all seasons"), "all")]
        options += [(_("season {n}", n=n), str(n)) for n in reversed(numbers)]
    return [app_commands.Choice(name=n, value=v) for n, v in options if current.lower() in n.lower()][:25]


def standings_of(
    title: str,
    users: list[int],
    names: dict[int, str],
    totals: dict[int, int],
    labels: dict[int, str],
    ratings: dict[int, RatingRow],
    form: dict[int, tuple[int, ...]],
) -> Standings:
    """The picture's rows, from the same numbers and labels as the text (in the current locale)."""
    rows = []
    for i, uid in enumerate(users):
        r = ratings.get(uid)
        rating = None
        if r is not None:
            rating = Rating(r.mu, r.sigma, _("{mu} ± {sigma}", mu=_dec(r.mu), sigma=_dec(r.sigma)))
        rows.append(StandingRow(i + 1, names.get(uid, str(uid)), totals.get(uid, 0), labels.get(uid, ""), rating,
                                form.get(uid, ())))  # fmt: skip
    return Standings(title, tuple(rows))


def record_lines(r: Records) -> list[str]:
    """The season's records as lines in the current locale (a record nobody set is left out)."""
    out = []
    if r.big_win is not None:
        out.append(_("Biggest single-hand win: {who}, {amount} ({game}, {when})", who=r.big_win.name,
                     amount=amount_text(r.big_win.amount, r.big_win.currency, sign_points=True),
                     game=_game(r.big_win.game), when=_date(r.big_win.when)))  # fmt: skip
    if r.streak is not None:
        out.append(_n("Longest winning streak: {who}, {n} win in a row ({game})",
                      "Longest winning streak: {who}, {n} wins in a row ({game})", r.streak.length,
                      who=r.streak.name, game=_game(r.streak.game)))  # fmt: skip
    if r.contracts is not None:
        out.append(_n("Most contracts made: {who}, {made} of {n} declared",
                      "Most contracts made: {who}, {made} of {n} declared", r.contracts.declared,
                      who=r.contracts.name, made=r.contracts.made))  # fmt: skip
    if r.accuracy is not None:
        out.append(_n("Best bid accuracy: {who}, {exact} of {n} round exact ({rate}%)",
                      "Best bid accuracy: {who}, {exact} of {n} rounds exact ({rate}%)", r.accuracy.rounds,
                      who=r.accuracy.name, exact=r.accuracy.exact,
                      rate=_pct(r.accuracy.exact / r.accuracy.rounds)))  # fmt: skip
    if r.most_played is not None:
        out.append(_n("Most-played game: {game}, {n} hand or game", "Most-played game: {game}, {n} hands or games",
                      r.most_played.settlements, game=_game(r.most_played.game)))  # fmt: skip
    if r.closest is not None:
        out.append(_("Closest finish: {winner} ahead of {runner} by {amount} ({game}, table #{table})",
                     winner=r.closest.winner, runner=r.closest.runner_up,
                     amount=amount_text(r.closest.margin, r.closest.currency), game=_game(r.closest.game),
                     table=str(r.closest.table_id)))  # fmt: skip
    return out or [_("No records: nothing was played this season.")]


def legend_line(name: str, final: int, currency: str) -> str:
    return _("{name}: {amount}", name=name, amount=amount_text(final, currency, sign_points=True))


def chart_text(data: ChartData) -> tuple[str, list[str]]:
    """The chart's title and its text, from the same data as the picture: each player's balance at the end."""
    what = _game(data.game) if data.game else _("all games")
    if data.season == "current":
        when = _("current season")
    elif data.season == "all":
        when = _("all seasons")
    else:
        when = _("season {n}", n=data.season)
    title = _("Running balance — {what}, {when}", what=what, when=when)
    lines = [
        _n(
            "{who}: {amount} after {n} entry",
            "{who}: {amount} after {n} entries",
            s.entries,
            who=s.name,
            amount=amount_text(s.final, data.currency, sign_points=True),
        )
        for s in data.series
    ]
    if data.empty:
        lines = [_("Nothing settled yet.")]
    return title, lines


class LedgerCog(commands.Cog, name="Ledger"):
    ledger_group = app_commands.Group(
        name="ledger", description="Stakes, resti and scores kept by Tavolo", guild_only=True
    )

    season_group = app_commands.Group(name="season", description="Ledger seasons of this server", guild_only=True)
    config_group = app_commands.Group(name="tavolo", description="Tavolo settings of this server", guild_only=True)

    def __init__(
        self,
        bot: commands.Bot,
        ledger: Ledger,
        ratings: Ratings | None = None,
        settings: GuildSettings | None = None,
        pictures: Pictures | None = None,
    ) -> None:
        self.bot = bot
        self.ledger = ledger
        self.ratings = ratings or Ratings(ledger.db)
        self.settings = settings or GuildSettings(ledger.db)
        self._payments: Payments | None = None
        self._money: MoneySettings | None = None
        self.pictures = LedgerPictures(pictures or Pictures(self.settings, None, None, default=False))
        self._sync_task: asyncio.Task[None] | None = None
        self._sync_dirty = False
        self._closed = False

    @property
    def payments(self) -> Payments:
        if self._payments is None:
            self._payments = Payments(self.ledger)
        return self._payments

    @property
    def money(self) -> MoneySettings:
        """The server's money values (made on first use: one cache per cog)."""
        if self._money is None:
            self._money = MoneySettings(self.ledger.db)
        return self._money

    async def cog_load(self) -> None:
        _CONFIRM["cog"] = self
        self.bot.add_dynamic_items(SeasonCloseButton, PaymentButton)
        tables = getattr(self.bot, "tables", None)
        if tables is not None:
            tables.listeners.append(self.on_table_update)
        self.schedule_sync()  # catch up with settlements booked while the bot was down

    async def cog_unload(self) -> None:
        tables = getattr(self.bot, "tables", None)
        if tables is not None and self.on_table_update in tables.listeners:
            tables.listeners.remove(self.on_table_update)
        # the bot closes the database right after unloading the cogs: a rating pass still running finishes first
        # (it is short, and a pass cut off would only be redone), and none starts after this
        self._closed = True
        self._sync_dirty = False
        task = self._sync_task
        if task is not None and not task.done():
            await asyncio.gather(task, return_exceptions=True)

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
            await self._refuse(interaction, e)
            return
        money = await self.money.get(interaction.guild_id)
        with using(await reader_locale(self.bot, interaction)):
            lines = [
                f"**{currency_name(cur)}**: " + _with_money(signed(value), value, cur, money)
                for cur, value in totals.items()
            ]
            embed = discord.Embed(
                title=_("Balance of {name}", name=target.display_name), description="\n".join(lines), colour=0xF1C40F
            )
            embed.set_footer(text=_("Current season") if season == "current" else _("All seasons"))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _refuse(self, interaction: discord.Interaction[Any], err: LedgerRefusal) -> None:
        """The ledger's refusal, privately, in the reader's language."""
        with using(await reader_locale(self.bot, interaction)):
            text = error_text(err)
        await interaction.response.send_message(text, ephemeral=True)

    async def _private(self, interaction: discord.Interaction[Any], msgid: str, **params: Any) -> None:
        """A short private reply from the catalogue, in the reader's language."""
        with using(await reader_locale(self.bot, interaction)):
            text = _(msgid, **params)
        await interaction.response.send_message(text, ephemeral=True)

    @ledger_group.command(name="history", description="A player's last settled hands and adjustments")
    @app_commands.describe(user="Whose history (default: yours)")
    async def history(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        target = user or interaction.user
        assert interaction.guild_id is not None
        rows = await self.ledger.history(interaction.guild_id, target.id, limit=15)
        with using(await reader_locale(self.bot, interaction)):
            text = "\n".join(_history_line(r) for r in rows) or _("Nothing settled yet.")
            title = _("History of {name}", name=target.display_name)
        embed = discord.Embed(title=title, description=text[:4096], colour=0xF1C40F)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ============================================================== settling up and payments
    async def _name(self, guild: discord.Guild | None, guild_id: int, user_id: int) -> str:
        """A player's display name: the member's, else the name they last played under, else a mention."""
        member = guild.get_member(user_id) if guild is not None else None
        if member is not None:
            return member.display_name
        return await self.ledger.player_name(guild_id, user_id) or _user(user_id)

    @ledger_group.command(name="settle", description="Who pays whom: the fewest payments that clear the balances")
    @app_commands.describe(currency="Which currency (default: stakes)", season="Current season (default) or a number")
    @app_commands.choices(currency=CURRENCY_CHOICES)
    async def settle_up(
        self, interaction: discord.Interaction[Any], currency: str = "stake", season: str = "current"
    ) -> None:
        assert interaction.guild_id is not None
        spec: Any = int(season) if season.strip().isdigit() else season.strip().lower()
        try:
            balances = await self.ledger.balances(interaction.guild_id, currency, season=spec)
        except LedgerRefusal as e:
            await self._refuse(interaction, e)
            return
        # (up to 0.2 s of CPU for twenty players: off the event loop)
        result = await asyncio.to_thread(settle, balances)
        money = await self.money.get(interaction.guild_id)
        names = {u: await self._name(interaction.guild, interaction.guild_id, u) for u in balances}
        with using(await reader_locale(self.bot, interaction)):
            lines = [
                _(
                    "**{payer}** → **{payee}** {amount}",
                    payer=names[t.payer],
                    payee=names[t.payee],
                    amount=_with_money(units_text(t.amount, currency), t.amount, currency, money),
                )
                for t in result.transfers
            ]
            if result.unmatched:
                left = _with_money(units_text(abs(result.unmatched), currency), abs(result.unmatched), currency, money)
                lines.append(
                    _("Owed to players by nobody here (won from computer players or adjustments): {units}", units=left)
                    if result.unmatched > 0
                    else _(
                        "Owed by players to nobody here (lost to computer players or adjustments): {units}", units=left
                    )
                )
            if not result.transfers:
                lines.insert(0, _("Nothing to settle: nobody owes anybody here."))
            if not result.exact:
                # past the exact limit the greedy answered (bot/ledger/settlement.py): the title's promise is off
                lines.append(_("With this many players owing or owed, these payments clear every balance but may "
                               "not be the fewest."))  # fmt: skip
            text = "\n".join(lines)
            title = _("Settling up: {currency}", currency=currency_name(currency))
            footer = _(
                "A payment made? Record it with `{command}`; the other player confirms it.",
                command=ui.command("ledger paid"),
            )
        embed = discord.Embed(title=title, description=text[:4096], colour=0xF1C40F)
        embed.set_footer(text=footer)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @ledger_group.command(name="paid", description="Record a payment between you and another player (they confirm)")
    @app_commands.describe(
        user="Who you paid, or who paid you", amount="How many units", currency="Which currency (default: stakes)"
    )
    @app_commands.choices(currency=CURRENCY_CHOICES)
    async def paid(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User,
        amount: app_commands.Range[int, 1, MAX_AMOUNT],
        currency: str = "stake",
    ) -> None:
        assert interaction.guild_id is not None
        try:
            p = await self.payments.propose(
                interaction.guild_id, interaction.user.id, user.id, amount, currency, other_is_bot=user.bot
            )
        except LedgerRefusal as e:
            await self._refuse(interaction, e)
            return
        text, view = await self._proposal(interaction, p)
        await interaction.response.send_message(
            text, view=view, allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.confirmer_id)])
        )

    async def _proposal(self, interaction: discord.Interaction[Any], p: Payment) -> tuple[str, discord.ui.View]:
        """The public proposal with its two persistent buttons, in the channel's language."""
        assert interaction.guild_id is not None
        money = await self.money.get(interaction.guild_id)
        with using(await channel_locale(self.bot, interaction.guild_id, interaction)):
            text = _(
                "💸 {proposer}: {payer} paid {payee} {amount}. {confirmer}, is that right? (until {deadline})",
                proposer=_user(p.proposer_id), payer=_user(p.payer_id), payee=_user(p.payee_id),
                amount=_with_money(units_text(p.amount, p.currency), p.amount, p.currency, money),
                confirmer=_user(p.confirmer_id), deadline=_relative(p.expires_at),
            )  # fmt: skip
            view = discord.ui.View(timeout=None)
            view.add_item(PaymentButton.make(p.id, "ok"))
            view.add_item(PaymentButton.make(p.id, "no"))
        return text, view

    async def _settled_text(self, guild_id: int, p: Payment, interaction: discord.Interaction[Any]) -> str:
        money = await self.money.get(guild_id)
        with using(await channel_locale(self.bot, guild_id, interaction)):
            amount = _with_money(units_text(p.amount, p.currency), p.amount, p.currency, money)
            if p.state == "confirmed":
                return _("✅ {payer} paid {payee} {amount} (confirmed by {who}).", payer=_user(p.payer_id),
                         payee=_user(p.payee_id), amount=amount, who=_user(p.decided_by or 0))  # fmt: skip
            if p.state == "declined":
                return _("❌ {who} declined: {payer} paid {payee} {amount}. Nothing was recorded.",
                         who=_user(p.decided_by or 0), payer=_user(p.payer_id), payee=_user(p.payee_id),
                         amount=amount)  # fmt: skip
            return _("⌛ Expired: {payer} paid {payee} {amount}. Nothing was recorded.", payer=_user(p.payer_id),
                     payee=_user(p.payee_id), amount=amount)  # fmt: skip

    async def answer_payment(self, interaction: discord.Interaction[Any], payment_id: int, action: str) -> None:
        """A click on a proposal's *confirm* or *decline*."""
        if interaction.guild_id is None:
            return
        guild_id = interaction.guild_id
        try:
            if action == "ok":
                p = await self.payments.get(payment_id)
                names = {}
                if p is not None:
                    names = {u: await self._name(interaction.guild, guild_id, u) for u in (p.payer_id, p.payee_id)}
                done = await self.payments.confirm(payment_id, interaction.user.id, guild_id=guild_id, names=names)
                if not done.booked:
                    await self._private(interaction, N_("This payment is already confirmed and recorded."))
                    return
                result = done.payment
            else:
                result = await self.payments.decline(payment_id, interaction.user.id, guild_id=guild_id)
        except LedgerRefusal as e:
            await self._refuse(interaction, e)
            if isinstance(e, PaymentExpired):  # the proposal is closed now: say so on the message too
                stale = await self.payments.get(payment_id)
                if stale is not None and interaction.message is not None:
                    await interaction.message.edit(
                        content=await self._settled_text(guild_id, stale, interaction), view=None,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )  # fmt: skip
            return
        await interaction.response.edit_message(
            content=await self._settled_text(guild_id, result, interaction), view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )  # fmt: skip

    @ledger_group.command(name="payment", description="Admins: record a payment between two players, with a reason")
    @app_commands.describe(
        payer="Who paid", payee="Who was paid", amount="How many units",
        reason="Why (kept in the ledger and the export)", currency="Which currency (default: stakes)",
    )  # fmt: skip
    @app_commands.choices(currency=CURRENCY_CHOICES)
    async def record_payment(
        self,
        interaction: discord.Interaction[Any],
        payer: discord.User,
        payee: discord.User,
        amount: app_commands.Range[int, 1, MAX_AMOUNT],
        reason: app_commands.Range[str, 3, 500],
        currency: str = "stake",
    ) -> None:
        assert interaction.guild_id is not None
        if not await self.is_admin(interaction):
            await self._private(interaction, N_("Only server managers or the ledger admin role can do that."))
            return
        try:
            p = await self.payments.record(
                interaction.guild_id, interaction.user.id, (payer.id, payer.display_name),
                (payee.id, payee.display_name), amount, reason, currency, bot_involved=payer.bot or payee.bot,
            )  # fmt: skip
        except LedgerRefusal as e:
            await self._refuse(interaction, e)
            return
        money = await self.money.get(interaction.guild_id)
        with using(await channel_locale(self.bot, interaction.guild_id, interaction)):
            text = _(
                "Recorded payment #{id}: {payer} paid {payee} {amount}, by {admin} — {reason}",
                id=str(p.id), payer=_user(payer.id), payee=_user(payee.id),
                amount=_with_money(units_text(amount, currency), amount, currency, money),
                admin=_user(interaction.user.id), reason=reason,
            )  # fmt: skip
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @ledger_group.command(name="export", description="Server managers: download this server's ledger as CSV")
    @app_commands.default_permissions(manage_guild=True)
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        if not await self.is_admin(interaction):
            await self._private(interaction, N_("Only server managers can export the ledger."))
            return
        # the CSV keeps its English column keys: it is read by programs and spreadsheets, not only people
        data = await self.ledger.export_csv(interaction.guild_id)
        file = discord.File(io.BytesIO(data.encode()), filename=f"tavolo-ledger-{interaction.guild_id}.csv")
        with using(await reader_locale(self.bot, interaction)):
            text = _("The ledger of this server (one row per entry; the columns are described in the README):")
        await interaction.response.send_message(text, file=file, ephemeral=True)

    @app_commands.command(name="leaderboard", description="The best players of a game in this server")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game",
        by="Rank by stakes/score total (default), rating, wins or games played",
        season="Current season (default) or all (ratings span all seasons)",
    )
    @app_commands.choices(by=BY_CHOICES, season=SEASON_CHOICES)
    @app_commands.autocomplete(game=game_autocomplete)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: str, by: str = "total", season: str = "current"
    ) -> None:
        assert interaction.guild_id is not None
        if by in ("stakes", "stake"):
            by = "total"
        if not registry.exists(game):
            names = ", ".join(f"`{g}`" for g in registry.ids())
            await self._private(interaction, N_("Unknown game `{game}`; try {names}."), game=game, names=names)
            return
        spec = registry.get(game)
        medals = {0: "🥇", 1: "🥈", 2: "🥉"}
        if by == "rating":
            await self.ratings.sync()  # fold in anything booked since the last update
            rated = await self.ratings.leaderboard(interaction.guild_id, game, limit=10)
            rows = []
        else:
            rated = []
            try:
                rows = await self.ledger.leaderboard(
                    interaction.guild_id,
                    game=game,
                    currency=spec.currency,
                    season=season,  # type: ignore[arg-type]
                    by=by,
                    limit=10,
                )
            except LedgerRefusal as e:
                await self._refuse(interaction, e)
                return
        guild_id = interaction.guild_id
        show = await self.pictures.for_guild(guild_id)
        users = [r.user_id for r in rated] or [r.user_id for r in rows]
        form = await recent_form(self.ledger, guild_id, users, currency=spec.currency, game=game) if show else {}
        ratings = {r.user_id: r for r in rated}
        if show and by != "rating":
            for r in rows:
                got = await self.ratings.get(guild_id, game, r.user_id)
                if got is not None:
                    ratings[r.user_id] = got
        names = {r.user_id: r.name or str(r.user_id) for r in [*rated, *rows]}
        totals = {r.user_id: r.total for r in rows}
        # a public reply: the channel's language
        with using(await channel_locale(self.bot, guild_id, interaction)) as code:
            if by == "rating":
                lines = [
                    _(
                        "{rank} {who} — rating {ordinal} (μ {mu}, σ {sigma}) · {wins} · {rated}",
                        rank=medals.get(i, f"{i + 1}."),
                        who=_user(r.user_id),
                        ordinal=_dec(r.ordinal),
                        mu=_dec(r.mu),
                        sigma=_dec(r.sigma),
                        wins=_n("{n} win", "{n} wins", r.wins),
                        rated=_n("{n} rated", "{n} rated", r.games),
                    )
                    for i, r in enumerate(rated)
                ]
                title = _("{game} leaderboard — rating", game=_game(game))
                labels = {r.user_id: _("rating {ordinal}", ordinal=_dec(r.ordinal)) for r in rated}
            else:
                lines = [
                    _(
                        "{rank} {who} — {total} · {wins} · {played}",
                        rank=medals.get(i, f"{i + 1}."),
                        who=_user(r.user_id),
                        total=amount_text(r.total, spec.currency, sign_points=True),
                        wins=_n("{n} win", "{n} wins", r.wins),
                        played=_n("{n} played", "{n} played", r.games),
                    )
                    for i, r in enumerate(rows)
                ]
                title = _("{game} leaderboard", game=_game(game))
                labels = {r.user_id: amount_text(r.total, spec.currency, sign_points=True) for r in rows}
            empty = _("Nobody has finished a game yet.")
            board = standings_of(title, users, names, totals, labels, ratings, form)
            alt = _("Standings: ranks, names, totals, ratings and recent form")
        if show and board.rows:
            picture = await self.pictures.png("standings", (code, board.key()), lambda: render_standings(board))
            await send_picture_message(interaction.response.send_message, title, lines, picture=picture, alt=alt)
            return
        embed = discord.Embed(title=title, description="\n".join(lines) or empty, colour=0xF1C40F)
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    # ============================================================== profiles
    @app_commands.command(name="profile", description="A player's games, win rate, contracts and ratings here")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose profile (default: yours)")
    async def profile(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        target = user or interaction.user
        assert interaction.guild_id is not None
        await self.ratings.sync()
        prof = await self.ratings.profile(interaction.guild_id, target.id)
        with using(await reader_locale(self.bot, interaction)):
            embed = discord.Embed(title=_("Profile of {name}", name=target.display_name), colour=0xF1C40F)
            for field_name, value in profile_fields(prof):
                embed.add_field(name=field_name, value=value[:1024], inline=False)
            if not prof.games:
                embed.description = _("No finished games in this server yet.")
            else:
                embed.description = _n(
                    "{n} settled hand or game in this server (all seasons).",
                    "{n} settled hands or games in this server (all seasons).",
                    prof.played,
                )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ============================================================== admin: adjustments, seasons, roles
    async def is_admin(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.guild_id is None:
            return False
        cfg = await self.settings.get(interaction.guild_id)
        return manages_or_has_role(interaction, cfg.admin_role_id)

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
        if not await self.is_admin(interaction):
            await self._private(interaction, N_("Only server managers or the ledger admin role can adjust."))
            return
        try:
            entry = await self.ledger.adjust(
                interaction.guild_id, user.id, currency, amount, interaction.user.id, reason, name=user.display_name
            )
        except LedgerRefusal as e:
            await self._refuse(interaction, e)
            return
        with using(await channel_locale(self.bot, interaction.guild_id, interaction)):
            text = _(
                "Recorded entry #{entry}: {amount} for {user} by {admin} — {reason}",
                entry=str(entry), amount=amount_text(amount, currency, sign_points=True), user=_user(user.id),
                admin=_user(interaction.user.id), reason=reason,
            )  # fmt: skip
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @season_group.command(name="close", description="Admins: archive this season's balances and start a new one")
    async def season_close(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        if not await self.is_admin(interaction):
            await self._private(interaction, N_("Only server managers or the ledger admin role can do that."))
            return
        current = await self.ledger.current_season(interaction.guild_id)
        number = current.number if current else 1
        with using(await reader_locale(self.bot, interaction)):
            view = discord.ui.View(timeout=None)
            view.add_item(SeasonCloseButton.make(interaction.guild_id))
            text = _(
                "Close season {n}? Balances start again at zero in season {next}; all history stays (see `{balance}`).",
                balance=ui.command("ledger balance", season=ui.choice("all seasons")),
                n=number,
                next=number + 1,
            )
        await interaction.response.send_message(text, view=view, ephemeral=True)

    async def confirm_season_close(self, interaction: discord.Interaction[Any], guild_id: int) -> None:
        if interaction.guild_id != guild_id or not await self.is_admin(interaction):
            await self._private(interaction, N_("Only server managers or the ledger admin role can do that."))
            return
        new = await self.ledger.close_season(guild_id, interaction.user.id)
        with using(await reader_locale(self.bot, interaction)):
            done = _("Season {n} closed.", n=new.number - 1)
        await interaction.response.edit_message(content=done, view=None)
        assert interaction.channel_id is not None
        # the announcement is the channel's: its language, not the admin's
        with using(await channel_locale(self.bot, guild_id, interaction)):
            text = _(
                "📅 Season {n} is closed (by {admin}); season {next} starts now.",
                n=new.number - 1,
                admin=_user(interaction.user.id),
                next=new.number,
            )
        await self.bot.get_partial_messageable(interaction.channel_id).send(
            text, allowed_mentions=discord.AllowedMentions.none()
        )
        # the season's recap: its table and records, one post in the channel's language
        try:
            await self.post_recap(guild_id, new.number - 1, interaction)
        except Exception:
            log.exception("season recap failed")  # the season is closed either way; /season recap posts it again

    @season_group.command(name="info", description="The seasons of this server")
    async def season_info(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        seasons = await self.ledger.seasons(interaction.guild_id)
        with using(await reader_locale(self.bot, interaction)):
            lines = [
                _(
                    "Season {n}: {start} → {end}",
                    n=s.number,
                    start=_date(s.started_at),
                    end=_date(s.closed_at) if s.closed_at else _("now"),
                )
                for s in seasons
            ]
            text = "\n".join(lines) or _("Season 1 starts with the first game.")
        await interaction.response.send_message(text, ephemeral=True)

    @config_group.command(name="config", description="Server managers: organiser and ledger admin roles, card pictures")
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
            await self._private(interaction, N_("Only server managers can change the settings."))
            return
        values = {u: v for u, v in (("stake", stake_value), ("resto", resto_value), ("point", point_value)) if v}
        if money_currency is not None or values:
            try:  # first: a refused value changes none of the other settings
                money = await self.money.set(
                    interaction.guild_id, interaction.user.id, currency=money_currency, values=values
                )
            except LedgerRefusal as e:
                await self._refuse(interaction, e)
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
            text += "\n" + _("Money value: {values}.", values=_unit_values(money))
        await interaction.response.send_message(text, ephemeral=True)
        if language_note is not None:
            await interaction.followup.send(language_note, ephemeral=True)

    @config_group.command(name="language", description="The language of your own messages: hands, DMs, replies")
    @app_commands.describe(language="One of Tavolo's languages, or automatic: your Discord client's language")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]) -> None:
        note = await set_reader_language(self.bot, interaction, language.value)
        await interaction.response.send_message(note, ephemeral=True)

    # ============================================================== ratings upkeep
    async def on_table_update(self, u: TableUpdate) -> None:
        if u.settlements:
            self.schedule_sync()

    def schedule_sync(self) -> None:
        """Fold new settlements into the ratings soon; bursts of hands become one pass."""
        if self._closed:
            return  # shutting down: the next start folds these settlements in
        self._sync_dirty = True
        if self._sync_task is None or self._sync_task.done():
            self._sync_task = asyncio.create_task(self._sync_loop(), name="ratings-sync")

    async def _sync_loop(self) -> None:
        while self._sync_dirty:
            self._sync_dirty = False
            try:
                await self.ratings.sync()
            except Exception:
                log.exception("rating update failed")

    # ============================================================== season recap
    @season_group.command(name="recap", description="A season's table and records (default: the last closed one)")
    @app_commands.describe(season="Season number (default: the last closed season, else the current one)")
    async def season_recap(self, interaction: discord.Interaction[Any], season: int | None = None) -> None:
        assert interaction.guild_id is not None
        seasons = await self.ledger.seasons(interaction.guild_id)
        if season is None:
            closed = [s.number for s in seasons if not s.is_open]
            season = closed[-1] if closed else (seasons[-1].number if seasons else 1)
        if season not in {s.number for s in seasons}:
            await self._private(interaction, N_("This server has no season {n}."), n=season)
            return
        await interaction.response.defer(thinking=True)
        await self.post_recap(interaction.guild_id, season, interaction, send=interaction.followup.send)

    async def post_recap(
        self,
        guild_id: int,
        number: int,
        interaction: discord.Interaction[Any],
        send: Any = None,
    ) -> None:
        """Post season ``number``'s recap in the interaction's channel (or through ``send``)."""
        board = await self.ledger.leaderboard(guild_id, currency="stake", season=number, limit=10)
        entries = await season_entries(self.ledger, guild_id, number)
        specs = list(registry.specs())
        found = records(
            entries,
            currency_of={sp.id: sp.currency for sp in specs},
            contract_paths={sp.id: sp.profile.contract_paths for sp in specs if sp.profile.contract_paths},
            bid_games=[sp.id for sp in specs if sp.profile.bid_accuracy],
        )
        show = await self.pictures.for_guild(guild_id)
        users = [r.user_id for r in board]
        form = await recent_form(self.ledger, guild_id, users, currency="stake") if show else {}
        with using(await channel_locale(self.bot, guild_id, interaction)) as code:
            title = _("Season {n} recap", n=number)
            labels = {r.user_id: amount_text(r.total, "stake", sign_points=True) for r in board}
            names = {r.user_id: r.name or str(r.user_id) for r in board}
            table = standings_of(title, users, names, {r.user_id: r.total for r in board}, labels, {}, form)
            lines = [
                _("{rank} {who} — {total} · {wins} · {played}", rank=str(i + 1) + ".", who=_user(r.user_id),
                  total=labels[r.user_id], wins=_n("{n} win", "{n} wins", r.wins),
                  played=_n("{n} played", "{n} played", r.games))
                for i, r in enumerate(board)
            ] or [_("Nobody has finished a game yet.")]  # fmt: skip
            lines += ["", "**" + _("Records") + "**", *record_lines(found)]
            alt = _("Season table: ranks, names, totals and recent form")  # (a recap has no ratings)
        picture = None
        if show and table.rows:
            picture = await self.pictures.png("recap", (code, table.key()), lambda: render_standings(table))
        if send is None:
            assert interaction.channel_id is not None
            send = self.bot.get_partial_messageable(interaction.channel_id).send
        await send_picture_message(send, title, lines, picture=picture, alt=alt)

    # ============================================================== charts
    @ledger_group.command(name="chart", description="Running balances over time: yours and the top players, or one")
    @app_commands.describe(
        user="Only this player (default: you and the top players)",
        game="Only this game (default: all games, in stakes)",
        season="current (default), all, or a season number",
    )
    @app_commands.autocomplete(game=game_autocomplete, season=season_autocomplete)
    async def chart(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: str | None = None,
        season: str = "current",
    ) -> None:
        assert interaction.guild_id is not None
        guild_id = interaction.guild_id
        if game is not None and not registry.exists(game):
            names = ", ".join(f"`{g}`" for g in registry.ids())
            await self._private(interaction, N_("Unknown game `{game}`; try {names}."), game=game, names=names)
            return
        currency = registry.get(game).currency if game is not None else "stake"
        spec = parse_season(season)
        names = {interaction.user.id: interaction.user.display_name}
        if user is not None:
            users = [user.id]
            names[user.id] = user.display_name
        else:
            try:
                top = await self.ledger.leaderboard(guild_id, game=game, currency=currency, season=spec, limit=5)
            except LedgerRefusal as e:
                await self._refuse(interaction, e)
                return
            users = [interaction.user.id, *(r.user_id for r in top)]
        try:
            data = await load_chart(
                self.ledger, guild_id, users, currency=currency, game=game, season=spec, names=names
            )
        except LedgerRefusal as e:
            await self._refuse(interaction, e)
            return
        # drawing may take longer than Discord's 3 s to answer (matplotlib's first import): answer now, post after
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await reader_locale(self.bot, interaction)
        with using(locale) as code:
            title, lines = chart_text(data)
            legend = [legend_line(s.name, s.final, data.currency) for s in data.series]
            alt = _("Running balances over time")
        picture = None
        if not data.empty and await self.pictures.for_user(guild_id, interaction.user.id):
            from bot.ledger.chart_render import render_chart  # matplotlib loads on the first chart, not at start

            picture = await self.pictures.png(
                "chart", (code, title, *legend, data.key()),
                lambda: render_chart(data, locale=code, title=title, legend=legend),
            )  # fmt: skip
        await send_picture_message(interaction.followup.send, title, lines, picture=picture, alt=alt, ephemeral=True)


_CONFIRM: dict[str, LedgerCog] = {}


class SeasonCloseButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tv:season:close:(?P<g>\d+)"):
    """The confirmation of ``/season close`` (a persistent custom id, so it works after a restart)."""

    def __init__(self, item: discord.ui.Button[Any], guild_id: int) -> None:
        super().__init__(item)
        self.guild_id = guild_id

    @classmethod
    def make(cls, guild_id: int) -> SeasonCloseButton:
        # (made inside the reader's locale: the label is theirs)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_("Yes, close the season"), style=discord.ButtonStyle.danger, custom_id=f"tv:season:close:{guild_id}"
        )
        return cls(button, guild_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeasonCloseButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["g"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _CONFIRM.get("cog")
        if cog is None:
            with using(interaction.locale):  # (no cog: no stored preference to read)
                text = _("Tavolo is starting up; try again.")
            await interaction.response.send_message(text, ephemeral=True)
            return
        await cog.confirm_season_close(interaction, self.guild_id)


class PaymentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tv:pay:(?P<a>ok|no):(?P<p>\d+)"):
    """*Confirm* / *decline* on a payment proposal (a persistent custom id: it works after a restart; the proposal
    and its deadline are in the database)."""

    def __init__(self, item: discord.ui.Button[Any], payment_id: int, action: str) -> None:
        super().__init__(item)
        self.payment_id = payment_id
        self.action = action

    @classmethod
    def make(cls, payment_id: int, action: str) -> PaymentButton:
        # (made inside the channel's locale: the labels are the channel's)
        if action == "ok":
            label, style = _("Confirm"), discord.ButtonStyle.success
        else:
            label, style = _("Decline"), discord.ButtonStyle.secondary
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=f"tv:pay:{action}:{payment_id}"
        )
        return cls(button, payment_id, action)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PaymentButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["p"]), match["a"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _CONFIRM.get("cog")
        if cog is None:
            with using(interaction.locale):
                text = _("Tavolo is starting up; try again.")
            await interaction.response.send_message(text, ephemeral=True)
            return
        await cog.answer_payment(interaction, self.payment_id, self.action)


def _contract_word(word: str) -> str:
    # the games' profile facts name what a declarer declares: a contract (Mediatore) or a bid (Mighty)
    return _p("profile", "bid") if word == "bid" else _p("profile", "contract")


def profile_fields(prof: Profile) -> list[tuple[str, str]]:
    """One embed field per game of a profile, in the current locale."""
    out = []
    for game, g in prof.games.items():
        facts = registry.get(game).profile if registry.exists(game) else None
        played, won = _n("{n} played", "{n} played", g.games), _n("{n} won", "{n} won", g.wins)
        if g.currency != "point":
            total = amount_text(g.total, g.currency, sign_points=True)
            line = _("{played} · {won} ({rate}%) · total {total}", played=played, won=won, rate=_pct(g.win_rate),
                     total=total)  # fmt: skip
        else:
            total = _n("{n} point in all", "{n} points in all", g.total)
            line = _("{played} · {won} ({rate}%) · {total}", played=played, won=won, rate=_pct(g.win_rate),
                     total=total)  # fmt: skip
        lines = [line]
        if g.rating is not None:
            lines.append(
                _(
                    "Rating {ordinal} (μ {mu}, σ {sigma})",
                    ordinal=_dec(g.rating.ordinal),
                    mu=_dec(g.rating.mu),
                    sigma=_dec(g.rating.sigma),
                )
            )
        if g.contracts:
            label = _contract_word(facts.contract_word if facts is not None else "contract")
            parts = [
                _(
                    "{label} {contract}: {made}/{n} made ({rate}%)",
                    label=label,
                    contract=c,
                    made=made,
                    n=n,
                    rate=_pct(made / n),
                )
                for c, (made, n) in sorted(g.contracts.items())
            ]
            lines.append(_("Declared: {parts}", parts="; ".join(parts)))
        if g.rounds:
            lines.append(
                _n(
                    "Bid accuracy: {exact}/{n} round exact ({rate}%)",
                    "Bid accuracy: {exact}/{n} rounds exact ({rate}%)",
                    g.rounds,
                    exact=g.exact_bids,
                    rate=_pct(g.bid_accuracy),
                )
            )
        out.append((_game(game), "\n".join(lines)))
    return out


async def setup(bot: commands.Bot) -> None:
    s = services_of(bot)
    pictures = Pictures(s.guild_settings, s.preferences, s.pictures, default=s.images_default)
    await bot.add_cog(LedgerCog(bot, s.ledger, s.ratings, s.guild_settings, pictures))

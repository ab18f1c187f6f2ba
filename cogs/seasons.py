"""``/season info``, ``close`` and ``recap``: the ledger's seasons of a server, an admin closing one (after a
confirmation button, :class:`SeasonCloseButton`) and a season's table and records.

Closing a season archives its balances and starts the next at zero; it never edits or deletes an entry. The
records are the pure :func:`bot.ledger.recap.records`; this cog words them.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import registry
from bot.i18n import N_, _, _n, using
from bot.i18n import names as ui
from bot.images.standings import render_standings
from bot.ledger import Ledger, LedgerRefusal
from bot.ledger.chart import recent_form
from bot.ledger.recap import Records, records, season_entries
from bot.ledger.texts import amount_text, units_text
from bot.services import services_of
from bot.tournaments import GuildSettings

from . import _clicks
from ._charts import LedgerPictures, send_picture_message
from ._locale import channel_locale, reader_locale
from ._pictures import Pictures
from .ledger.shared import date_tag, game_name, is_admin, mention, pct, private, refuse
from .standings import standings_of

__all__ = ["SeasonCloseButton", "SeasonsCog", "hands_and_games", "record_lines"]

log = logging.getLogger(__name__)


def hands_and_games(hands: int, games: int) -> str:
    """Settlements counted in the game's own unit: ``3 hands``, ``2 games`` (both, for a game settled either way)."""
    hand_text = _n("{n} hand", "{n} hands", hands)
    game_text = _n("{n} game", "{n} games", games)
    if hands and games:
        return _("{hands} and {games}", hands=hand_text, games=game_text)
    return hand_text if hands else game_text


def record_lines(r: Records) -> list[str]:
    """The season's records as lines in the current locale (a record nobody set is left out)."""
    out = []
    if r.big_win is not None:
        out.append(_("Biggest single-hand win: {who}, {amount} ({game}, {when})", who=r.big_win.name,
                     amount=amount_text(r.big_win.amount, r.big_win.currency, sign_points=True),
                     game=game_name(r.big_win.game), when=date_tag(r.big_win.when)))  # fmt: skip
    if r.streak is not None:
        out.append(_n("Longest winning streak: {who}, {n} win in a row ({game})",
                      "Longest winning streak: {who}, {n} wins in a row ({game})", r.streak.length,
                      who=r.streak.name, game=game_name(r.streak.game)))  # fmt: skip
    if r.contracts is not None:
        out.append(_n("Most contracts made: {who}, {made} of {n} declared",
                      "Most contracts made: {who}, {made} of {n} declared", r.contracts.declared,
                      who=r.contracts.name, made=r.contracts.made))  # fmt: skip
    if r.accuracy is not None:
        out.append(_n("Best bid accuracy: {who}, {exact} of {n} round exact ({rate}%)",
                      "Best bid accuracy: {who}, {exact} of {n} rounds exact ({rate}%)", r.accuracy.rounds,
                      who=r.accuracy.name, exact=r.accuracy.exact,
                      rate=pct(r.accuracy.exact / r.accuracy.rounds)))  # fmt: skip
    if r.most_played is not None:
        out.append(_("Most-played game: {game}, {played}", game=game_name(r.most_played.game),
                     played=hands_and_games(r.most_played.hands, r.most_played.games)))  # fmt: skip
    if r.closest is not None:
        out.append(_("Closest finish: {winner} ahead of {runner} by {amount} ({game}, table #{table})",
                     winner=r.closest.winner, runner=r.closest.runner_up,
                     amount=units_text(r.closest.margin, r.closest.currency), game=game_name(r.closest.game),
                     table=str(r.closest.table_id)))  # fmt: skip
    return out or [_("No records: nothing was played this season.")]


class SeasonsCog(commands.Cog, name="Seasons"):
    season_group = app_commands.Group(name="season", description="Ledger seasons of this server", guild_only=True)

    def __init__(
        self,
        bot: commands.Bot,
        ledger: Ledger,
        settings: GuildSettings | None = None,
        pictures: Pictures | None = None,
    ) -> None:
        self.bot = bot
        self.ledger = ledger
        self.settings = settings or GuildSettings(ledger.db)
        self.pictures = LedgerPictures(pictures or Pictures(self.settings, None, None, default=False))

    async def cog_load(self) -> None:
        _clicks.add_dynamic_items(self.bot, SeasonCloseButton)

    @season_group.command(name="info", description="The seasons of this server")
    async def season_info(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        seasons = await self.ledger.seasons(interaction.guild_id)
        with using(await reader_locale(self.bot, interaction)):
            lines = [
                _(
                    "Season {n}: {start} → {end}",
                    n=s.number,
                    start=date_tag(s.started_at),
                    end=date_tag(s.closed_at) if s.closed_at else _("now"),
                )
                for s in seasons
            ]
            text = "\n".join(lines) or _("Season 1 starts with the first game.")
        await interaction.response.send_message(text, ephemeral=True)

    @season_group.command(name="close", description="Admins: archive this season's balances and start a new one")
    async def season_close(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        if not await is_admin(self.settings, interaction):
            await private(self.bot, interaction, N_("Only server managers or the ledger admin role can do that."))
            return
        current = await self.ledger.current_season(interaction.guild_id)
        number = current.number if current else 1
        with using(await reader_locale(self.bot, interaction)):
            view = discord.ui.View(timeout=None)
            view.add_item(SeasonCloseButton.make(interaction.guild_id, number))
            text = _(
                "Close season {n}? Balances start again at zero in season {next}; all history stays (see `{balance}`).",
                balance=ui.command("ledger balance", season=ui.choice("all seasons")),
                n=number,
                next=number + 1,
            )
        await interaction.response.send_message(text, view=view, ephemeral=True)

    async def confirm_season_close(
        self, interaction: discord.Interaction[Any], guild_id: int, number: int | None = None
    ) -> None:
        """The click on *Yes, close the season* (``number``: the season it asked about; ``None`` on a button made
        before buttons named their season)."""
        if interaction.guild_id != guild_id or not await is_admin(self.settings, interaction):
            await private(self.bot, interaction, N_("Only server managers or the ledger admin role can do that."))
            return
        try:
            new = await self.ledger.close_season(guild_id, interaction.user.id, number)
        except LedgerRefusal as e:  # already closed: a second click, or another admin's
            await refuse(self.bot, interaction, e)
            return
        with using(await reader_locale(self.bot, interaction)):
            done = _("Season {n} closed.", n=new.number - 1)
        await interaction.response.edit_message(content=done, view=None)
        assert interaction.channel_id is not None
        # the announcement is the channel's: its language, not the admin's
        with using(await channel_locale(self.bot, guild_id, interaction)):
            text = _(
                "📅 Season {n} is closed (by {admin}); season {next} starts now.",
                n=new.number - 1,
                admin=mention(interaction.user.id),
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

    @season_group.command(name="recap", description="A season's table and records (default: the last closed one)")
    @app_commands.describe(season="Season number (default: the last closed season, else the current one)")
    async def season_recap(self, interaction: discord.Interaction[Any], season: int | None = None) -> None:
        assert interaction.guild_id is not None
        seasons = await self.ledger.seasons(interaction.guild_id)
        if season is None:
            closed = [s.number for s in seasons if not s.is_open]
            season = closed[-1] if closed else (seasons[-1].number if seasons else 1)
        if season not in {s.number for s in seasons}:
            await private(self.bot, interaction, N_("This server has no season {n}."), n=season)
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
                _("{rank} {who} — {total} · {wins} · {played}", rank=str(i + 1) + ".", who=mention(r.user_id),
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


class SeasonCloseButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tv:season:close:(?P<g>\d+)(?::(?P<n>\d+))?"
):
    """The confirmation of ``/season close`` (a persistent custom id, so it works after a restart). It names the
    season it closes (``tv:season:close:<guild>:<season>``): a second click closes nothing more. A button made
    before that (``tv:season:close:<guild>``) still closes the open season — unless the click comes late."""

    def __init__(self, item: discord.ui.Button[Any], guild_id: int, number: int | None = None) -> None:
        super().__init__(item)
        self.guild_id = guild_id
        self.number = number

    @classmethod
    def make(cls, guild_id: int, number: int) -> SeasonCloseButton:
        # (made inside the reader's locale: the label is theirs)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_("Yes, close the season"),
            style=discord.ButtonStyle.danger,
            custom_id=f"tv:season:close:{guild_id}:{number}",
        )
        return cls(button, guild_id, number)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeasonCloseButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["g"]), int(match["n"]) if match["n"] else None)

    @_clicks.answers_every_click
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Seasons")
        if not isinstance(cog, SeasonsCog):
            with using(interaction.locale):  # (no cog: no stored preference to read)
                text = _("Tavolo is starting up; try again.")
            await interaction.response.send_message(text, ephemeral=True)
            return
        if self.number is None and _clicks.is_late(interaction, self.custom_id):
            return  # an old button clicked after its answer: the season it meant is unknown (the wrapper says so)
        await cog.confirm_season_close(interaction, self.guild_id, self.number)


async def setup(bot: commands.Bot) -> None:
    s = services_of(bot)
    pictures = Pictures(s.guild_settings, s.preferences, s.pictures, default=s.images_default)
    await bot.add_cog(SeasonsCog(bot, s.ledger, s.guild_settings, pictures))

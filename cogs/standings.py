"""``/leaderboard``, ``/profile`` and ``/ledger chart``: how the players of a server stand — ranked by stakes or
score, rating, wins or games; one player's games, contracts and ratings; running balances over time.

Pictures (the standings, the chart) are drawn from the same data as the text beside them
(:mod:`cogs._charts`). This cog also keeps the OpenSkill ratings current: after every table update that booked
settlements it asks :class:`~bot.ratings.Ratings` to fold in whatever is new.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import registry
from bot.i18n import N_, _, _n, _p, using
from bot.images.standings import Rating, StandingRow, Standings, render_standings
from bot.images.text import name_label
from bot.ledger import Ledger, LedgerRefusal
from bot.ledger.chart import ChartData, load_chart, recent_form
from bot.ledger.texts import amount_text
from bot.ratings import Profile, RatingRow, Ratings
from bot.services import services_of
from bot.tables.service import TableUpdate
from bot.tournaments import GuildSettings

from . import _groups
from ._charts import LedgerPictures, send_picture_message
from ._game import game_autocomplete
from ._locale import channel_locale, reader_locale
from ._pictures import Pictures
from .ledger.shared import (
    SEASON_CHOICES,
    dec,
    game_name,
    mention,
    parse_season,
    pct,
    private,
    refuse,
    season_autocomplete,
)

__all__ = ["StandingsCog", "chart_text", "legend_line", "profile_fields", "standings_of"]

log = logging.getLogger(__name__)

BY_CHOICES = [
    app_commands.Choice(name="stakes / score (total)", value="total"),
    app_commands.Choice(name="rating (OpenSkill)", value="rating"),
    app_commands.Choice(name="wins", value="wins"),
    app_commands.Choice(name="games played", value="games"),
]


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
            rating = Rating(r.mu, r.sigma, _("{mu} ± {sigma}", mu=dec(r.mu), sigma=dec(r.sigma)))
        rows.append(StandingRow(i + 1, names.get(uid, str(uid)), totals.get(uid, 0), labels.get(uid, ""), rating,
                                form.get(uid, ())))  # fmt: skip
    return Standings(title, tuple(rows))


def legend_line(name: str, final: int, currency: str) -> str:
    return _("{name}: {amount}", name=name, amount=amount_text(final, currency, sign_points=True))


def chart_legend(data: ChartData) -> list[str]:
    """The chart's legend in the current locale: each player as every picture writes a name (``#n`` when it
    cannot be drawn, n the line's number) and the final balance."""
    return [legend_line(name_label(s.name, i + 1), s.final, data.currency) for i, s in enumerate(data.series)]


def chart_text(data: ChartData) -> tuple[str, list[str]]:
    """The chart's title and its text, from the same data as the picture: each player's balance at the end."""
    what = game_name(data.game) if data.game else _("all games")
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
            line = _("{played} · {won} ({rate}%) · total {total}", played=played, won=won, rate=pct(g.win_rate),
                     total=total)  # fmt: skip
        else:
            total = _n("{n} point in all", "{n} points in all", g.total)
            line = _("{played} · {won} ({rate}%) · {total}", played=played, won=won, rate=pct(g.win_rate),
                     total=total)  # fmt: skip
        lines = [line]
        if g.rating is not None:
            lines.append(
                _(
                    "Rating {ordinal} (μ {mu}, σ {sigma})",
                    ordinal=dec(g.rating.ordinal),
                    mu=dec(g.rating.mu),
                    sigma=dec(g.rating.sigma),
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
                    rate=pct(made / n),
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
                    rate=pct(g.bid_accuracy),
                )
            )
        out.append((game_name(game), "\n".join(lines)))
    return out


class StandingsCog(commands.Cog, name="Standings"):
    ledger_group = _groups.ledger_group()

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
        self.pictures = LedgerPictures(pictures or Pictures(self.settings, None, None, default=False))
        self._sync_task: asyncio.Task[None] | None = None
        self._sync_dirty = False
        self._closed = False

    async def cog_load(self) -> None:
        _groups.join_groups(self, self.bot.tree)
        tables = getattr(self.bot, "tables", None)
        if tables is not None:
            tables.listeners.append(self.on_table_update)
        self.schedule_sync()  # catch up with settlements booked while the bot was down

    async def cog_unload(self) -> None:
        _groups.leave_groups(self, getattr(self.bot, "tree", None))
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

    # ============================================================== leaderboard
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
            await private(self.bot, interaction, N_("Unknown game `{game}`; try {names}."), game=game, names=names)
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
                await refuse(self.bot, interaction, e)
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
                        who=mention(r.user_id),
                        ordinal=dec(r.ordinal),
                        mu=dec(r.mu),
                        sigma=dec(r.sigma),
                        wins=_n("{n} win", "{n} wins", r.wins),
                        rated=_n("{n} rated", "{n} rated", r.games),
                    )
                    for i, r in enumerate(rated)
                ]
                title = _("{game} leaderboard — rating", game=game_name(game))
                labels = {r.user_id: _("rating {ordinal}", ordinal=dec(r.ordinal)) for r in rated}
            else:
                lines = [
                    _(
                        "{rank} {who} — {total} · {wins} · {played}",
                        rank=medals.get(i, f"{i + 1}."),
                        who=mention(r.user_id),
                        total=amount_text(r.total, spec.currency, sign_points=True),
                        wins=_n("{n} win", "{n} wins", r.wins),
                        played=_n("{n} played", "{n} played", r.games),
                    )
                    for i, r in enumerate(rows)
                ]
                title = _("{game} leaderboard", game=game_name(game))
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
                # (each game's field counts what it settles, hands or whole games: no total can name one unit)
                embed.description = _("All seasons in this server.")
        await interaction.response.send_message(embed=embed, ephemeral=True)

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
            await private(self.bot, interaction, N_("Unknown game `{game}`; try {names}."), game=game, names=names)
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
                await refuse(self.bot, interaction, e)
                return
            users = [interaction.user.id, *(r.user_id for r in top)]
        try:
            data = await load_chart(
                self.ledger, guild_id, users, currency=currency, game=game, season=spec, names=names
            )
        except LedgerRefusal as e:
            await refuse(self.bot, interaction, e)
            return
        # drawing may take longer than Discord's 3 s to answer (matplotlib's first import): answer now, post after
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await reader_locale(self.bot, interaction)
        with using(locale) as code:
            title, lines = chart_text(data)
            legend = chart_legend(data)
            alt = _("Running balances over time")
        picture = None
        if not data.empty and await self.pictures.for_user(guild_id, interaction.user.id):
            from bot.ledger.chart_render import render_chart  # matplotlib loads on the first chart, not at start

            picture = await self.pictures.png(
                "chart", (code, title, *legend, data.key()),
                lambda: render_chart(data, locale=code, title=title, legend=legend),
            )  # fmt: skip
        await send_picture_message(interaction.followup.send, title, lines, picture=picture, alt=alt, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    s = services_of(bot)
    pictures = Pictures(s.guild_settings, s.preferences, s.pictures, default=s.images_default)
    await bot.add_cog(StandingsCog(bot, s.ledger, s.ratings, s.guild_settings, pictures))

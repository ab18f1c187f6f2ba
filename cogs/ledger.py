"""Ledger commands: balances, history, leaderboards (stakes, wins, rating), profiles, the CSV export, admin
adjustments, season close and the per-guild roles (``/tavolo config``).

Tables book settlements; this cog only reads the ledger, except for two audited admin actions that append
entries or close a season (never edits or deletes). It also keeps the OpenSkill ratings current: after every
update that booked settlements it asks :class:`~bot.ratings.Ratings` to fold in whatever is new.

Admin = Manage Server, or the guild's configured admin role.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import registry
from bot.ledger import HistoryRow, Ledger
from bot.ratings import Profile, Ratings
from bot.services import services_of
from bot.tables.service import TableUpdate
from bot.tournaments import GuildSettings

from ._game import game_autocomplete, manages_or_has_role
from ._locale import LANGUAGE_CHOICES, set_channel_language, set_reader_language

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
    parts = [f"{v:+d} {cur}" for cur, v in amounts.items() if v or cur != "point"]
    return ", ".join(parts) or "0"


def _history_line(row: HistoryRow) -> str:
    when = f"<t:{int(row.created_at.timestamp())}:d>"
    if row.kind == "adjustment":
        who = f" by <@{row.actor_id}>" if row.actor_id else ""
        return f"{when} adjustment {_fmt_amounts(dict(row.amounts))}{who}: {row.reason}"
    title = registry.title(row.game) if row.game else "?"
    hand = f" hand {row.hand_index + 1}" if row.hand_index is not None else ""
    return f"{when} {title} table #{row.table_id}{hand}: {_fmt_amounts(dict(row.amounts))}"


class LedgerCog(commands.Cog, name="Ledger"):
    ledger_group = app_commands.Group(
        name="ledger", description="Stakes, resti and scores kept by Tavolo", guild_only=True
    )

    season_group = app_commands.Group(name="season", description="Ledger seasons of this server", guild_only=True)
    config_group = app_commands.Group(name="tavolo", description="Tavolo settings of this server", guild_only=True)

    def __init__(
        self, bot: commands.Bot, ledger: Ledger, ratings: Ratings | None = None, settings: GuildSettings | None = None
    ) -> None:
        self.bot = bot
        self.ledger = ledger
        self.ratings = ratings or Ratings(ledger.db)
        self.settings = settings or GuildSettings(ledger.db)
        self._sync_task: asyncio.Task[None] | None = None
        self._sync_dirty = False
        self._closed = False

    async def cog_load(self) -> None:
        _CONFIRM["cog"] = self
        self.bot.add_dynamic_items(SeasonCloseButton)
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
        totals = await self.ledger.balance(interaction.guild_id, target.id, season=season)  # type: ignore[arg-type]
        lines = [f"**{cur}**: {value:+d}" for cur, value in totals.items()]
        embed = discord.Embed(title=f"Balance of {target.display_name}", description="\n".join(lines), colour=0xF1C40F)
        embed.set_footer(text="Current season" if season == "current" else "All seasons")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @ledger_group.command(name="history", description="A player's last settled hands and adjustments")
    @app_commands.describe(user="Whose history (default: yours)")
    async def history(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        target = user or interaction.user
        assert interaction.guild_id is not None
        rows = await self.ledger.history(interaction.guild_id, target.id, limit=15)
        text = "\n".join(_history_line(r) for r in rows) or "Nothing settled yet."
        embed = discord.Embed(title=f"History of {target.display_name}", description=text[:4096], colour=0xF1C40F)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @ledger_group.command(name="export", description="Server managers: download this server's ledger as CSV")
    @app_commands.default_permissions(manage_guild=True)
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        if not await self.is_admin(interaction):
            await interaction.response.send_message("Only server managers can export the ledger.", ephemeral=True)
            return
        data = await self.ledger.export_csv(interaction.guild_id)
        file = discord.File(io.BytesIO(data.encode()), filename=f"tavolo-ledger-{interaction.guild_id}.csv")
        await interaction.response.send_message("The ledger of this server:", file=file, ephemeral=True)

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
            await interaction.response.send_message(f"Unknown game `{game}`; try {names}.", ephemeral=True)
            return
        spec = registry.get(game)
        medals = {0: "🥇", 1: "🥈", 2: "🥉"}
        if by == "rating":
            await self.ratings.sync()  # fold in anything booked since the last update
            rated = await self.ratings.leaderboard(interaction.guild_id, game, limit=10)
            lines = [
                f"{medals.get(i, f'{i + 1}.')} <@{r.user_id}> — rating {r.ordinal:.1f} (μ {r.mu:.1f}, σ {r.sigma:.1f})"
                f" · {r.wins} wins · {r.games} rated"
                for i, r in enumerate(rated)
            ]
            title = f"{spec.title} leaderboard — rating"
        else:
            currency = spec.currency
            rows = await self.ledger.leaderboard(
                interaction.guild_id,
                game=game,
                currency=currency,
                season=season,  # type: ignore[arg-type]
                by=by,
                limit=10,
            )
            lines = [
                f"{medals.get(i, f'{i + 1}.')} <@{r.user_id}> — {r.total:+d} {currency}"
                f" · {r.wins} wins · {r.games} played"
                for i, r in enumerate(rows)
            ]
            title = f"{spec.title} leaderboard"
        embed = discord.Embed(
            title=title, description="\n".join(lines) or "Nobody has finished a game yet.", colour=0xF1C40F
        )
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
        embed = discord.Embed(title=f"Profile of {target.display_name}", colour=0xF1C40F)
        for field_name, value in profile_fields(prof):
            embed.add_field(name=field_name, value=value[:1024], inline=False)
        if not prof.games:
            embed.description = "No finished games in this server yet."
        else:
            embed.description = f"{prof.played} settled hands/games in this server (all seasons)."
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
            await interaction.response.send_message("Only server managers or the ledger admin role can adjust.",
                                                    ephemeral=True)  # fmt: skip
            return
        try:
            entry = await self.ledger.adjust(
                interaction.guild_id, user.id, currency, amount, interaction.user.id, reason, name=user.display_name
            )
        except ValueError as e:
            await interaction.response.send_message(str(e), ephemeral=True)
            return
        await interaction.response.send_message(
            f"Recorded entry #{entry}: {amount:+d} {currency} for <@{user.id}> by <@{interaction.user.id}> — {reason}",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @season_group.command(name="close", description="Admins: archive this season's balances and start a new one")
    async def season_close(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        if not await self.is_admin(interaction):
            await interaction.response.send_message("Only server managers or the ledger admin role can do that.",
                                                    ephemeral=True)  # fmt: skip
            return
        current = await self.ledger.current_season(interaction.guild_id)
        number = current.number if current else 1
        view = discord.ui.View(timeout=None)
        view.add_item(SeasonCloseButton.make(interaction.guild_id))
        await interaction.response.send_message(
            f"Close season {number}? Balances start again at zero in season {number + 1}; all history stays "
            "(see `/ledger balance season:all`).",
            view=view,
            ephemeral=True,
        )

    async def confirm_season_close(self, interaction: discord.Interaction[Any], guild_id: int) -> None:
        if interaction.guild_id != guild_id or not await self.is_admin(interaction):
            await interaction.response.send_message("Only server managers or the ledger admin role can do that.",
                                                    ephemeral=True)  # fmt: skip
            return
        new = await self.ledger.close_season(guild_id, interaction.user.id)
        await interaction.response.edit_message(content=f"Season {new.number - 1} closed.", view=None)
        assert interaction.channel_id is not None
        await self.bot.get_partial_messageable(interaction.channel_id).send(
            f"📅 Season {new.number - 1} is closed (by <@{interaction.user.id}>); season {new.number} starts now.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @season_group.command(name="info", description="The seasons of this server")
    async def season_info(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        seasons = await self.ledger.seasons(interaction.guild_id)
        lines = [
            f"Season {s.number}: <t:{int(s.started_at.timestamp())}:d> → "
            + (f"<t:{int(s.closed_at.timestamp())}:d>" if s.closed_at else "now")
            for s in seasons
        ]
        await interaction.response.send_message("\n".join(lines) or "Season 1 starts with the first game.",
                                                ephemeral=True)  # fmt: skip

    @config_group.command(name="config", description="Server managers: organiser and ledger admin roles, card pictures")
    @app_commands.describe(
        organiser_role="May create/start/cancel tournaments", admin_role="May adjust the ledger and close seasons",
        clear="Remove both roles first",
        images="Card pictures in table messages and hands (off: text-only messages; players may choose their own)",
        language="The language of this server's channel messages (automatic: the server's Discord language)",
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
    ) -> None:
        assert interaction.guild_id is not None
        perms = interaction.permissions
        if not perms.manage_guild:
            await interaction.response.send_message("Only server managers can change the settings.", ephemeral=True)
            return
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
        org = f"<@&{cfg.organiser_role_id}>" if cfg.organiser_role_id else "anyone may host"
        adm = f"<@&{cfg.admin_role_id}>" if cfg.admin_role_id else "Manage Server only"
        pics = "text only" if cfg.images is False else "on"
        await interaction.response.send_message(f"Tournament organisers: {org}. Ledger admins: {adm}. "
                                                f"Card pictures: {pics}.", ephemeral=True)  # fmt: skip
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


_CONFIRM: dict[str, LedgerCog] = {}


class SeasonCloseButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tv:season:close:(?P<g>\d+)"):
    """The confirmation of ``/season close`` (a persistent custom id, so it works after a restart)."""

    def __init__(self, item: discord.ui.Button[Any], guild_id: int) -> None:
        super().__init__(item)
        self.guild_id = guild_id

    @classmethod
    def make(cls, guild_id: int) -> SeasonCloseButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Yes, close the season", style=discord.ButtonStyle.danger, custom_id=f"tv:season:close:{guild_id}"
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
            await interaction.response.send_message("Tavolo is starting up; try again.", ephemeral=True)
            return
        await cog.confirm_season_close(interaction, self.guild_id)


def profile_fields(prof: Profile) -> list[tuple[str, str]]:
    out = []
    for game, g in prof.games.items():
        title = registry.title(game)
        facts = registry.get(game).profile if registry.exists(game) else None
        lines = [
            f"{g.games} played · {g.wins} won ({g.win_rate:.0%}) · total {g.total:+d} {g.currency}"
            if g.currency != "point"
            else f"{g.games} played · {g.wins} won ({g.win_rate:.0%}) · {g.total} points in all"
        ]
        if g.rating is not None:
            lines.append(f"Rating {g.rating.ordinal:.1f} (μ {g.rating.mu:.1f}, σ {g.rating.sigma:.1f})")
        if g.contracts:
            label = facts.contract_word if facts is not None else "contract"
            parts = [f"{label} {c}: {made}/{n} made ({made / n:.0%})" for c, (made, n) in sorted(g.contracts.items())]
            lines.append("Declared: " + "; ".join(parts))
        if g.rounds:
            lines.append(f"Bid accuracy: {g.exact_bids}/{g.rounds} rounds exact ({g.bid_accuracy:.0%})")
        out.append((title, "\n".join(lines)))
    return out


async def setup(bot: commands.Bot) -> None:
    s = services_of(bot)
    await bot.add_cog(LedgerCog(bot, s.ledger, s.ratings, s.guild_settings))

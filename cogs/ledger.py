"""Ledger commands: balances, history, leaderboards and the CSV export (reads only; tables book)."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.registry import GAMES
from bot.ledger import HistoryRow, Ledger

#: What a game's leaderboard ranks by default: Wizard keeps scores, Minchiate resti, the others stakes.
DEFAULT_CURRENCY = {"wizard": "point", "minchiate": "resto", "mediatore": "stake", "mighty": "stake"}
GAME_CHOICES = [app_commands.Choice(name=e.title, value=gid) for gid, e in GAMES.items()]
CURRENCY_CHOICES = [app_commands.Choice(name=c, value=c) for c in ("stake", "resto", "point")]
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
    title = GAMES[row.game].title if row.game in GAMES else (row.game or "?")
    hand = f" hand {row.hand_index + 1}" if row.hand_index is not None else ""
    return f"{when} {title} table #{row.table_id}{hand}: {_fmt_amounts(dict(row.amounts))}"


class LedgerCog(commands.Cog, name="Ledger"):
    ledger_group = app_commands.Group(
        name="ledger", description="Stakes, resti and scores kept by Tavolo", guild_only=True
    )

    def __init__(self, bot: commands.Bot, ledger: Ledger) -> None:
        self.bot = bot
        self.ledger = ledger

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
        embed = discord.Embed(
            title=f"Balance of {target.display_name}", description="\n".join(lines), colour=0xF1C40F
        )
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
        perms = interaction.permissions
        if not perms.manage_guild:
            await interaction.response.send_message("Only server managers can export the ledger.", ephemeral=True)
            return
        data = await self.ledger.export_csv(interaction.guild_id)
        file = discord.File(io.BytesIO(data.encode()), filename=f"tavolo-ledger-{interaction.guild_id}.csv")
        await interaction.response.send_message("The ledger of this server:", file=file, ephemeral=True)

    @app_commands.command(name="leaderboard", description="The best players of a game in this server")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game", by="Rank by total (default), wins or games played", season="Current season (default) or all"
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        by=[app_commands.Choice(name=b, value=b) for b in ("total", "wins", "games")],
        season=SEASON_CHOICES,
    )
    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: str, by: str = "total", season: str = "current"
    ) -> None:
        assert interaction.guild_id is not None
        currency = DEFAULT_CURRENCY.get(game, "stake")
        rows = await self.ledger.leaderboard(
            interaction.guild_id, game=game, currency=currency, season=season, by=by, limit=10  # type: ignore[arg-type]
        )
        medals = {0: "🥇", 1: "🥈", 2: "🥉"}
        lines = [
            f"{medals.get(i, f'{i + 1}.')} <@{r.user_id}> — {r.total:+d} {currency} · {r.wins} wins · {r.games} played"
            for i, r in enumerate(rows)
        ]
        embed = discord.Embed(
            title=f"{GAMES[game].title} leaderboard",
            description="\n".join(lines) or "Nobody has finished a game yet.",
            colour=0xF1C40F,
        )
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    ledger: Ledger = bot.ledger  # type: ignore[attr-defined]
    await bot.add_cog(LedgerCog(bot, ledger))

"""``/help``: how to start a table, and every slash command with its description (read from the live command tree,
so the list never goes stale)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import registry
from bot.i18n import N_, _, _p, current, using
from bot.i18n import names as ui

from ._locale import reader_locale
from ._translator import translate

#: the help embed's sections after "Games" (every registered game), in order: (title, top-level command names);
#: anything else goes under "More"
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("At a table"), ("table",)),
    (N_("Accounts and ratings"), ("ledger", "leaderboard", "profile", "season", "tavolo")),
    (N_("Tournaments"), ("tournament",)),
)

INTRO = N_(
    "Open a table in a channel with `{new}` (games: {games}). Players click **{join}**, the host may"
    " **{add}** for empty seats, then **{start}**. Your hand and choices come by DM; if your DMs are closed, click"
    " **{hand}** on the table message. Each game's rules: `{rules}`."
)


def _local(text: str, context: str) -> str:
    """A command's name or description as the reader's client shows it (the sync's localisation)."""
    return translate(text, context, current()) or text


def _name(qualified: str) -> str:
    return " ".join(_local(part, "command-name") for part in qualified.split())


def command_lines(tree: app_commands.CommandTree[Any]) -> dict[str, list[str]]:
    """``/command — description`` lines per top-level command name (a group lists its subcommands)."""
    out: dict[str, list[str]] = {}
    for cmd in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(cmd, app_commands.Group):
            subs = sorted(cmd.walk_commands(), key=lambda c: c.qualified_name)
            out[cmd.name] = [
                f"`/{_name(c.qualified_name)}` — {_local(c.description, 'command-description')}"
                for c in subs
                if isinstance(c, app_commands.Command)
            ]
        elif isinstance(cmd, app_commands.Command):
            out[cmd.name] = [f"`/{_name(cmd.name)}` — {_local(cmd.description, 'command-description')}"]
    return out


def help_embed(tree: app_commands.CommandTree[Any]) -> discord.Embed:
    """The help, in the current locale."""
    lines = command_lines(tree)
    # i18n: stands for a game's command (mediatore, mighty…) in "/<game> new"
    game = "<" + _p("placeholder", "game") + ">"
    new, rules = f"/{game} {_name('new')}", f"/{game} {_name('rules')}"
    intro = _(
        INTRO,
        new=new,
        rules=rules,
        games=", ".join(f"`{_name(g)}`" for g in registry.ids()),
        join=ui.label(ui.JOIN),
        add=ui.label(ui.ADD_COMPUTER),
        start=ui.label(ui.START),
        hand=ui.label(ui.MY_HAND),
    )
    embed = discord.Embed(title=_("Tavolo — help"), description=intro, colour=0x95A5A6)
    sections = ((N_("Games"), tuple(registry.ids())), *SECTIONS)
    known = {n for _title, ns in sections for n in ns}
    for msgid, names in (*sections, (N_("More"), tuple(sorted(set(lines) - known)))):
        title = _(msgid)
        body = [line for n in names if n in lines for line in lines[n]]
        # a field holds at most 1,024 characters: split long sections over several fields
        chunk: list[str] = []
        part = 0
        for line in [*body, None]:
            if line is None or sum(len(x) + 1 for x in chunk) + len(line) > 1024:
                if chunk:
                    embed.add_field(
                        name=title if part == 0 else _("{title} (cont.)", title=title),
                        value="\n".join(chunk),
                        inline=False,
                    )
                    part += 1
                chunk = []
            if line is not None:
                chunk.append(line[:1024])
    return embed


class HelpCog(commands.Cog, name="Help"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to play with Tavolo, and every command")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        with using(await reader_locale(self.bot, interaction)):
            embed = help_embed(self.bot.tree)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))

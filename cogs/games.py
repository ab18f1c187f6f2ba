"""One cog per registered game, generated from its :class:`~bot.games.spec.GameSpec`.

Each game gets the ``/<id>`` group: ``new`` (its options generated from the engine's ``option_specs``: type,
range, choices and description written once, in the engine), ``rules`` and, for partnership games, ``swap``.
Play itself goes through :mod:`cogs.tables`. Nothing here knows a particular game.
"""

from __future__ import annotations

import inspect
import types
from typing import Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.protocol import OptionSpec
from bot.games import registry
from bot.games.spec import GameSpec

from ._game import TURN_TIMER_HELP, TurnTimer, send_rules, tables_cog

OPEN_RECORDS_HELP = "Anyone may replay every hand with all its cards once it is over (default off)"


def _annotation(o: OptionSpec) -> Any:
    """The slash-command type of an engine option: bool, a choice, a ranged integer or free text."""
    if isinstance(o.default, bool):
        return bool
    if o.choices is not None:
        return type(o.choices[0])
    if isinstance(o.default, int):
        return app_commands.Range[int, o.lo, o.hi]
    return str  # free text: the engine's normalize_options parses it (e.g. Wizard's "1-5")


def _choices(o: OptionSpec) -> list[app_commands.Choice[Any]] | None:
    if isinstance(o.default, bool) or o.choices is None:
        return None
    labels = o.labels or tuple(str(c) for c in o.choices)
    return [app_commands.Choice(name=label, value=value) for label, value in zip(labels, o.choices, strict=True)]


def _new_command(game: GameSpec, bot: commands.Bot) -> app_commands.Command[Any, ..., None]:
    options = [o for o in game.option_specs if o.command]

    async def new(interaction: discord.Interaction[Any], **values: Any) -> None:
        timer = values.pop("turn_timer", None)
        open_records = bool(values.pop("open_records", None))
        await tables_cog(bot).open_table(interaction, game.id, values, timer, open_records=open_records)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [
        inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Optional[_annotation(o)])  # noqa: UP045 - a runtime value
        for o in options
    ]
    params.append(
        inspect.Parameter("turn_timer", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Optional[TurnTimer])  # noqa: UP045
    )
    # a table option, not the game's: anyone may replay every finished hand with all its cards
    params.append(
        inspect.Parameter("open_records", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Optional[bool])  # noqa: UP045
    )
    new.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    descriptions = {o.name: o.help[:100] for o in options if o.help}
    app_commands.describe(turn_timer=TURN_TIMER_HELP, open_records=OPEN_RECORDS_HELP, **descriptions)(new)
    choices = {o.name: c for o in options if (c := _choices(o)) is not None}
    if choices:
        app_commands.choices(**choices)(new)
    seats = game.seats_text()
    return app_commands.Command(
        name="new", description=f"Open a {game.title} table in this channel ({seats} players)", callback=new
    )


def _rules_command(game: GameSpec) -> app_commands.Command[Any, ..., None]:
    async def rules(interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, game.id)

    return app_commands.Command(name="rules", description=f"A short summary of {game.title}'s rules", callback=rules)


def _swap_command(game: GameSpec, bot: commands.Bot) -> app_commands.Command[Any, ..., None]:
    seat = app_commands.Range[int, 1, game.max_seats]

    async def swap(interaction: discord.Interaction[Any], first: int, second: int) -> None:
        await tables_cog(bot).swap_seats(interaction, game.id, first - 1, second - 1)

    swap.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter("first", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=seat),
            inspect.Parameter("second", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=seat),
        ]
    )
    n = game.max_seats
    app_commands.describe(first=f"A seat number (1-{n})", second=f"Another seat number (1-{n})")(swap)
    return app_commands.Command(
        name="swap",
        description="Host, before the start: swap two seats (teams are seats 1+3 v 2+4)",
        callback=swap,
    )


class GameCog(commands.Cog):
    """The slash commands of one game (a subclass per game is made by :func:`cog_for`)."""

    spec: GameSpec

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.group = app_commands.Group(name=self.spec.id, description=self.spec.description, guild_only=True)
        self.group.add_command(_new_command(self.spec, bot))
        if self.spec.partnerships:
            self.group.add_command(_swap_command(self.spec, bot))
        self.group.add_command(_rules_command(self.spec))

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)


def cog_for(game: GameSpec) -> type[GameCog]:
    """A ``GameCog`` subclass named after the game (cog names must be unique)."""
    return types.new_class(
        f"{game.title.replace(' ', '')}Cog",
        (GameCog,),
        {"name": game.title},
        lambda ns: ns.update(spec=game),
    )


async def setup(bot: commands.Bot) -> None:
    for game in registry.specs():
        await bot.add_cog(cog_for(game)(bot))

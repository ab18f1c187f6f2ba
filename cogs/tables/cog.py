"""The tables cog: the table commands and every click on a table's components, for all four games.

It carries requests to the table service (``/table`` commands, the buttons and menus of the table message, DMs
and ephemeral hands, routed by a dispatch table of operations) and answers them; what the tables show is the
Discord-messages front-end's (:mod:`cogs.tables.frontend`), which this cog starts and hands the answer of a
carried-out click. Game cogs only add their ``/<game> new`` and ``/<game> rules`` commands and call
:meth:`TablesCog.open_table`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.errors import IllegalAction
from bot.engine.protocol import Action
from bot.games import registry
from bot.i18n import N_, _, _n, using
from bot.i18n import names as ui
from bot.records.show import hint_text
from bot.render.errors import error_text
from bot.services import services_of
from bot.tables import screens
from bot.tables.model import Table
from bot.tables.service import StaleAction, TableError, TableService

from .. import _components as comp
from .._components import TableButton, TableSelect, decode_action
from .._game import TURN_TIMER_HELP, TurnTimer, reply_privately
from .._locale import reader_locale, remember
from .._outbox import tolerate_lost_callback_answers
from .._pictures import Pictures
from .frontend import DiscordFrontend

log = logging.getLogger(__name__)

STALE = N_("That choice is out of date; use the latest message.")
UNAVAILABLE = N_("That choice is not available.")
NOT_PLAYING = N_("You are not playing at this table.")
HOST_ONLY = N_("Only the host (or a server manager) can do that.")
WELCOME_BACK = N_("Welcome back: your seat is yours again.")


@dataclass(slots=True)
class Click:
    """One click on a table component, as routed by its custom id."""

    interaction: discord.Interaction[Any]
    tid: int
    op: str
    ver: int
    arg: str
    values: list[str]

    @property
    def uid(self) -> int:
        return self.interaction.user.id


class TablesCog(commands.Cog, name="Tables"):
    table = app_commands.Group(name="table", description="The card table in this channel", guild_only=True)

    def __init__(
        self,
        bot: commands.Bot,
        service: TableService,
        *,
        edit_interval: float = 1.0,
        pictures: Pictures | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.pictures = pictures if pictures is not None else Pictures(None, None, None, default=False)
        #: everything the tables send to Discord
        self.frontend = DiscordFrontend(bot, service, edit_interval=edit_interval, pictures=self.pictures)
        self._picks: dict[tuple[int, int, int], dict[str, list[str]]] = {}  # (table, user, ver) -> combo picks
        self._handlers: dict[str, Callable[[Click], Awaitable[None]]] = {
            "join": self._join,
            "leave": self._leave,
            "leaveyes": self._leave_confirmed,
            "bot": self._add_computer,
            "addbot": self._add_computer,
            "unbot": self._remove_computer,
            "start": self._start,
            "cancel": self._ask_close,
            "end": self._ask_close,
            "cancelyes": self._cancel_confirmed,
            "endyes": self._end_confirmed,
            "again": self._again,
            "vote": self._vote,
            "back": self._back,
            "hint": self._hint,
            "activity": self._open_activity,
            "hand": self._hand,
            "act": self._choice,
            "pick": self._choice,
            "field": self._field,
            "ok": self._confirm_combo,
        }

    async def cog_load(self) -> None:
        comp.set_handler(self.on_component)
        self.bot.add_dynamic_items(TableButton, TableSelect)
        self.frontend.start()

    async def cog_unload(self) -> None:
        await self.frontend.close()

    # ============================================================== opening a table (called by game cogs)
    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        game_id: str,
        options: dict[str, Any],
        turn_timer: int | None,
        *,
        open_records: bool = False,
    ) -> None:
        locale = await reader_locale(self.bot, interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            with using(locale):
                await interaction.response.send_message(_("Tables live in server channels."), ephemeral=True)
            return
        try:
            t = await self.service.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                game_id=game_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                options=options,
                turn_timeout=turn_timer,
                open_records=open_records,
            )
        except TableError as e:
            with using(locale):
                await interaction.response.send_message(error_text(e, game_id), ephemeral=True)
            return
        with using(locale):
            text = _(
                "Your {game} table is open. Players click **{join}** on the table message; you click **{start}**"
                " when the seats are filled.",
                game=screens.game_title(game_id),
                join=ui.label(ui.JOIN),
                start=ui.label(ui.START),
            )
        await interaction.response.send_message(text, ephemeral=True)
        await self.frontend.render_table(t)

    async def show_table(self, t: Table) -> None:
        """Post (or refresh) the table message of a table created elsewhere (e.g. by a tournament)."""
        self.frontend.show_table(t)

    def relocalise_user(self, user_id: int) -> None:
        """The user chose another language: their hands are sent again, in it."""
        self.frontend.relocalise_user(user_id)

    def relocalise_guild(self, guild_id: int) -> None:
        """The server's language changed: its table messages show it from their next render (now)."""
        self.frontend.relocalise_guild(guild_id)

    async def restore(self) -> None:
        """After a restart: every open table drawn again, and what the players are still owed delivered."""
        await self.frontend.restore()

    # ============================================================== clicks
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer clicks whose component is no longer on the message (a client showing an old version).

        discord.py routes a ``DynamicItem`` only if the message still holds that custom_id, and would
        otherwise leave the click unanswered ("This interaction failed"); here it gets the usual reply.
        """
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        cid = str(data.get("custom_id", ""))
        m = _ROUTE.fullmatch(cid)
        if m is None:
            return
        if interaction.message is not None and cid in _custom_ids(interaction.message.components):
            return  # the DynamicItem on the message handles it
        values = [str(v) for v in data.get("values", [])]
        await self.on_component(interaction, int(m["tid"]), m["op"], int(m["ver"]), m["arg"], values)

    async def on_component(
        self, interaction: discord.Interaction[Any], tid: int, op: str, ver: int, arg: str, values: list[str]
    ) -> None:
        handler = self._handlers.get(op)
        await remember(self.bot, interaction)  # before the click's update renders anything for this user
        # the handlers' replies are private: made in the clicker's language (renders of others' messages set theirs)
        with using(await reader_locale(self.bot, interaction)):
            try:
                if handler is None:
                    raise TableError(N_("Unknown control."))
                await handler(Click(interaction, tid, op, ver, arg, values))
            except TableError as e:
                await reply_privately(interaction, self._refusal(e, tid))

    def _refusal(self, err: BaseException, tid: int | None = None) -> str:
        """A refusal as text in the current locale (the engine's codes need the game that raised them)."""
        t = self.service.tables.get(tid) if tid is not None else None
        return error_text(err, t.game_id if t is not None else None)

    # one handler per operation of a custom id (``tb:<table>:<op>:...``); see ``_handlers``
    async def _join(self, c: Click) -> None:
        await self.service.join(c.tid, c.uid, c.interaction.user.display_name)
        await c.interaction.response.defer()

    async def _leave(self, c: Click) -> None:
        if self.service.get(c.tid).status == "running":
            await c.interaction.response.send_message(
                _(
                    "Leave the game? The computer will play your seat (you can come back with **{back}**).",
                    back=ui.label(ui.BACK),
                ),
                view=_confirm(c.tid, "leaveyes", _("Yes, leave")),
                ephemeral=True,
            )
            return
        await self.service.leave(c.tid, c.uid)
        await c.interaction.response.defer()

    async def _leave_confirmed(self, c: Click) -> None:
        await self.service.leave(c.tid, c.uid)
        await c.interaction.response.edit_message(content=_("You left; the computer plays your seat."), view=None)

    async def _add_computer(self, c: Click) -> None:
        level = (c.values[0] if c.values else None) if c.op == "addbot" else None
        await self.service.add_computer(c.tid, c.uid, level)
        await c.interaction.response.defer()

    async def _remove_computer(self, c: Click) -> None:
        await self.service.remove_computer(c.tid, c.uid)
        await c.interaction.response.defer()

    async def _start(self, c: Click) -> None:
        await c.interaction.response.defer()
        await self.service.start(c.tid, c.uid)

    async def _ask_close(self, c: Click) -> None:
        t = self.service.get(c.tid)
        if c.uid != t.host_id and not _is_admin(c.interaction):
            raise TableError(HOST_ONLY)
        if c.op == "cancel":
            question = _("Really cancel this table?")
        else:
            question = _("Really end this table now (an unfinished hand is not scored)?")
        await c.interaction.response.send_message(
            question, view=_confirm(c.tid, c.op + "yes", _("Yes")), ephemeral=True
        )

    async def _cancel_confirmed(self, c: Click) -> None:
        await self.service.cancel(c.tid, c.uid, is_admin=_is_admin(c.interaction))
        await c.interaction.response.edit_message(content=_("Table cancelled."), view=None)

    async def _end_confirmed(self, c: Click) -> None:
        if self.service.get(c.tid).status == "lobby":
            await self.service.cancel(c.tid, c.uid, is_admin=_is_admin(c.interaction))
        else:
            await self.service.end(c.tid, c.uid, is_admin=_is_admin(c.interaction))
        await c.interaction.response.edit_message(content=_("Table ended."), view=None)

    async def _again(self, c: Click) -> None:
        new = await self.service.rematch(c.tid, c.uid, c.interaction.user.display_name)
        await c.interaction.response.send_message(
            _(
                "A new {game} table is open below, with the same options and computers. The others click **{join}**;"
                " you click **{start}**.",
                game=screens.game_title(new.game_id),
                join=ui.label(ui.JOIN),
                start=ui.label(ui.START),
            ),
            ephemeral=True,
        )

    async def _vote(self, c: Click) -> None:
        votes, humans = await self.service.vote_stop(c.tid, c.uid)
        text = _("Your vote is counted ({votes}/{humans}).", votes=votes, humans=humans)
        await c.interaction.response.send_message(text, ephemeral=True)

    async def _back(self, c: Click) -> None:
        await self.service.reclaim(c.tid, c.uid)
        await c.interaction.response.send_message(_(WELCOME_BACK), ephemeral=True)

    async def _open_activity(self, c: Click) -> None:
        """**Open in Activity**: Discord opens the Activity (bot/activity) in this channel for the clicker."""
        await c.interaction.response.launch_activity()

    async def _hint(self, c: Click) -> None:
        """The strong computer's suggestion for the clicking player's seat, privately (``hints`` tables)."""
        # a search takes a moment: acknowledge first (an interaction must be answered within 3 s)
        await c.interaction.response.defer(ephemeral=True, thinking=True)
        t, seat, found = await self.service.hint(c.tid, c.uid)
        assert t.game is not None
        # (on_component set the clicker's language; the panel gives the choices' own labels)
        panel = registry.renderer(t.game_id).private_panel(t.game.view(seat), t.names)
        await c.interaction.edit_original_response(content=hint_text(t.game_id, found, panel))

    async def _hand(self, c: Click) -> None:
        await self._show_hand(c.interaction, c.tid)

    async def _choice(self, c: Click) -> None:
        """A button (``act``) or select option (``pick``) that carries one action."""
        t = self.service.get(c.tid)
        seat = t.seat_of(c.uid)
        raw = c.values[0] if c.op == "pick" and c.values else c.arg
        try:
            action = decode_action(raw, lambda: screens.legal_at(t, seat, c.ver))
        except IllegalAction:
            raise StaleAction(STALE) from None
        if action is None or seat is None:
            raise TableError(UNAVAILABLE)
        await self._act(c.interaction, t, action, c.ver)

    async def _field(self, c: Click) -> None:
        """One multi-pick menu of a combination (e.g. the cards to discard); Confirm sends them together."""
        t = self.service.get(c.tid)
        fields = screens.combo_fields(t, t.seat_of(c.uid))
        if fields is None:
            raise StaleAction(STALE)
        offered = {card for f in fields if f["key"] == c.arg for card in f.get("from", [])}
        # a value that was never offered (a modified client) is refused now, not when Confirm fails
        if not c.values or not set(c.values) <= offered:
            raise TableError(UNAVAILABLE)
        self._picks.setdefault((c.tid, c.uid, c.ver), {})[c.arg] = c.values
        await c.interaction.response.defer()

    async def _confirm_combo(self, c: Click) -> None:
        t = self.service.get(c.tid)
        picks = self._picks.get((c.tid, c.uid, c.ver), {})
        base = decode_action(c.arg, lambda: [])
        if base is None:
            raise TableError(UNAVAILABLE)
        fields = screens.combo_fields(t, t.seat_of(c.uid))
        if fields is None:
            if t.seat_of(c.uid) is None or t.game is None:
                raise TableError(NOT_PLAYING)
            raise StaleAction(STALE)
        if any(f["key"] not in picks for f in fields):
            raise TableError(N_("Pick the cards in every menu first, then Confirm."))
        action = dict(base)
        for f in fields:
            vals = picks[f["key"]]
            action[f["key"]] = vals[0] if f["count"] == 1 else sorted(vals)
        await self._act(c.interaction, t, action, c.ver)
        self._picks.pop((c.tid, c.uid, c.ver), None)

    async def _act(self, interaction: discord.Interaction[Any], t: Table, action: Action, ver: int) -> None:
        uid = interaction.user.id
        seat = t.seat_of(uid)
        try:
            with self.frontend.answering(t.id, seat):
                await self.service.act(t.id, uid, action, ver)
        except TableError as e:
            await reply_privately(interaction, self._refusal(e, t.id))
            if seat is not None and t.game is not None:
                self.frontend.redraw_seat(t, seat, in_dm=interaction.guild_id is None)
            return
        if seat is None or t.game is None:
            await interaction.response.defer()
            return
        await self.frontend.answer_click(interaction, t, seat)

    async def _show_hand(self, interaction: discord.Interaction[Any], tid: int) -> None:
        await remember(self.bot, interaction)  # the hand is rendered in the language of this very client
        t = self.service.get(tid)
        seat = t.seat_of(interaction.user.id)
        if seat is None or t.game is None:
            raise TableError(NOT_PLAYING)
        await self.frontend.show_hand(interaction, t, seat)

    # ============================================================== /table commands
    def _here(self, interaction: discord.Interaction[Any]) -> Table:
        t = self.service.in_channel(interaction.channel_id or 0)
        if t is None:
            raise TableError(N_("There is no open table in this channel."))
        return t

    async def swap_seats(self, interaction: discord.Interaction[Any], game_id: str, a: int, b: int) -> None:
        """``/<game> swap``: exchange two lobby seats (partnership games)."""
        t = self.service.in_channel(interaction.channel_id or 0)
        with using(await reader_locale(self.bot, interaction)):
            if t is None or t.game_id != game_id:
                text = _("There is no {game} lobby in this channel.", game=screens.game_title(game_id))
                await interaction.response.send_message(text, ephemeral=True)
                return
            await self.service.swap_seats(t.id, interaction.user.id, a, b)
            text = _("Seats {a} and {b} swapped.", a=a + 1, b=b + 1)
        await interaction.response.send_message(text, ephemeral=True)

    @table.command(name="status", description="Show the table in this channel again (re-posts its message)")
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        t = self._here(interaction)
        with using(await reader_locale(self.bot, interaction)):
            await interaction.response.send_message(_("Here is the table."), ephemeral=True)
        await self.frontend.repost_table(t)

    @table.command(name="hand", description="Show your hand and choices (only you can see it)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self._show_hand(interaction, self._here(interaction).id)

    @table.command(name="images", description="Card pictures in your hands and DMs, or as the server says")
    @app_commands.describe(mode="Pictures with the text, text only, or the server's setting")
    async def images(self, interaction: discord.Interaction[Any], mode: Literal["on", "off", "server"]) -> None:
        if self.pictures.preferences is None:
            raise TableError(N_("Preferences are not available."))
        await self.pictures.preferences.set_images(interaction.user.id, None if mode == "server" else mode == "on")
        with using(await reader_locale(self.bot, interaction)):
            text = {
                "on": _("Card pictures on for your hands, from your next update."),
                "off": _("Text only for your hands, from your next update."),
                "server": _("Card pictures as this server is set for your hands, from your next update."),
            }[mode]
        await interaction.response.send_message(text, ephemeral=True)

    @table.command(name="back", description="Take your seat back from the computer")
    async def back(self, interaction: discord.Interaction[Any]) -> None:
        await self.service.reclaim(self._here(interaction).id, interaction.user.id)
        with using(await reader_locale(self.bot, interaction)):
            await interaction.response.send_message(_(WELCOME_BACK), ephemeral=True)

    @table.command(name="timer", description="Host: set the turn timer of this table")
    @app_commands.describe(seconds=TURN_TIMER_HELP)
    async def timer(self, interaction: discord.Interaction[Any], seconds: TurnTimer) -> None:
        t = self._here(interaction)
        if interaction.user.id != t.host_id and not _is_admin(interaction):
            raise TableError(N_("Only the host can change the timer."))
        await self.service.set_timeout(t.id, seconds)
        with using(await reader_locale(self.bot, interaction)):
            text = _n("Turn timer set to {n} second.", "Turn timer set to {n} seconds.", seconds)
        await interaction.response.send_message(text, ephemeral=True)

    @table.command(name="end", description="Host: end or cancel the table in this channel")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        t = self._here(interaction)
        if interaction.user.id != t.host_id and not _is_admin(interaction):
            raise TableError(HOST_ONLY)
        with using(await reader_locale(self.bot, interaction)):
            await interaction.response.send_message(
                _("Really end this table? An unfinished hand is not scored."),
                view=_confirm(t.id, "endyes", _("Yes, end it")),
                ephemeral=True,
            )


# ==================================================================== helpers
_ROUTE = re.compile(r"t[bs]:(?P<tid>\d+):(?P<op>[a-z]+):(?P<ver>\d+):(?P<arg>.*)")


def _custom_ids(components: list[Any]) -> set[str]:
    out: set[str] = set()
    for c in components:
        cid = getattr(c, "custom_id", None)
        if cid:
            out.add(cid)
        out |= _custom_ids(list(getattr(c, "children", []) or []))
        accessory = getattr(c, "accessory", None)
        if accessory is not None:
            out |= _custom_ids([accessory])
    return out


def _confirm(tid: int, op: str, label: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton.make(tid, op, label, style=discord.ButtonStyle.danger))
    return view


def _is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


async def setup(bot: commands.Bot) -> None:
    tolerate_lost_callback_answers()  # a click answered although Discord's reply to it got lost (a 5xx) is answered
    s = services_of(bot)
    pictures = Pictures(s.guild_settings, s.preferences, s.pictures, default=s.images_default)
    await bot.add_cog(TablesCog(bot, s.tables, edit_interval=s.edit_interval, pictures=pictures))

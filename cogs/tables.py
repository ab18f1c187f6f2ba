"""The shared table cog: renders every table and routes every table click, for all four games.

Game cogs only add their ``/<game> new`` and ``/<game> rules`` commands and call :meth:`TablesCog.open_table`.
Rendering goes through views only: the channel's table message from ``game.public_view()``, each
player's DM (or ephemeral fallback) from ``game.view(seat)``. Edits are coalesced per message so bursts
of computer moves never exceed Discord's per-channel limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import requests
from bot.engine.errors import IllegalAction
from bot.engine.protocol import Action
from bot.games import registry
from bot.i18n import N_, _, _n, using
from bot.i18n import names as ui
from bot.images.scene import HandScene, RevealScene, Scene, TableScene
from bot.ledger.money import MoneyValue
from bot.outbox import Owed, backoff
from bot.records.show import hint_text
from bot.render.errors import error_text
from bot.services import services_of
from bot.tables import screens
from bot.tables.model import Table
from bot.tables.service import StaleAction, TableError, TableService, TableUpdate, owed_key

from . import _components as comp
from ._components import TableButton, TableSelect, decode_action, embed_of, view_of
from ._game import TURN_TIMER_HELP, TurnTimer, reply_privately
from ._layout import Message, embed_message, layout_message
from ._locale import guild_locale, reader_locale, remember, user_locale
from ._outbox import Outbox, retry_after, send_owed, transient
from ._pictures import Pictures, in_time

log = logging.getLogger(__name__)

EPHEMERAL_TTL = 14 * 60  # interaction tokens last 15 minutes; stop editing a fallback hand just before
STALE = N_("That choice is out of date; use the latest message.")
UNAVAILABLE = N_("That choice is not available.")
NOT_PLAYING = N_("You are not playing at this table.")
HOST_ONLY = N_("Only the host (or a server manager) can do that.")
WELCOME_BACK = N_("Welcome back: your seat is yours again.")

#: the table message's buttons: operation -> (label msgid, style, row); "end" names the game
BUTTONS: dict[str, tuple[str, discord.ButtonStyle, int | None]] = {
    "join": (ui.JOIN, discord.ButtonStyle.success, 0),
    "leave": (ui.LEAVE, discord.ButtonStyle.secondary, 0),
    "bot": (ui.ADD_COMPUTER, discord.ButtonStyle.secondary, 0),
    "unbot": (N_("Remove computer"), discord.ButtonStyle.secondary, 0),
    "start": (ui.START, discord.ButtonStyle.primary, 1),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger, 1),
    "hand": (ui.MY_HAND, discord.ButtonStyle.primary, None),
    "back": (ui.BACK, discord.ButtonStyle.secondary, None),
    "vote": (ui.VOTE, discord.ButtonStyle.secondary, None),
    "end": (N_("End {title} table"), discord.ButtonStyle.danger, None),
    "again": (N_("Play again"), discord.ButtonStyle.success, None),
    "activity": (ui.OPEN_ACTIVITY, discord.ButtonStyle.primary, None),
}


@dataclass(slots=True)
class Post:
    """A channel post waiting its turn: its text (written in the channel's language when it was queued), the
    end-of-hand picture, and the outbox key when the players are owed it (sent once, marked sent)."""

    text: str
    reveal: RevealScene | None = None
    guild_id: int | None = None
    key: str | None = None


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
        self.outbox = Outbox(edit_interval)
        self.pictures = pictures if pictures is not None else Pictures(None, None, None, default=False)
        self._rendered: dict[Any, str] = {}  # message key -> hash of what it shows now
        self._attached: dict[Any, str | None] = {}  # message key -> the picture file it carries now
        self._v2: dict[Any, bool] = {}  # message key -> it is a Components V2 message
        self._picks: dict[tuple[int, int, int], dict[str, list[str]]] = {}  # (table, user, ver) -> combo picks
        self._ephemeral: dict[tuple[int, int], tuple[discord.Interaction[Any], float]] = {}
        self._dm_failed: set[tuple[int, int]] = set()
        #: (table, seat) -> digest of what the seat's private message must show (see _seat_digest)
        self._seat_seen: dict[tuple[int, int], str] = {}
        #: (table, seat) of clicks being answered: the response carries that seat's new hand
        self._responding: set[tuple[int, int]] = set()
        self._edits: dict[tuple[Any, ...], int] = {}  # private message key -> edits sent by the Outbox
        #: channel posts (results, notices) in order, sent by one task per channel so no update waits for them
        self._posts: dict[int, deque[Post]] = {}
        self._posters: dict[int, asyncio.Task[None]] = {}
        #: closed tables whose final renders are being confirmed (their outbox row is marked sent once they land)
        self._confirming: dict[int, asyncio.Task[None]] = {}
        #: message key -> the nonce of its create while that create is being retried (see _create)
        self._nonces: dict[tuple[Any, ...], str] = {}
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
            "hand": self._hand,
            "act": self._choice,
            "pick": self._choice,
            "field": self._field,
            "ok": self._confirm_combo,
            "activity": self._open_activity,
        }

    async def cog_load(self) -> None:
        comp.set_handler(self.on_component)
        self.bot.add_dynamic_items(TableButton, TableSelect)
        self.service.listeners.append(self.on_update)

    async def cog_unload(self) -> None:
        if self.on_update in self.service.listeners:
            self.service.listeners.remove(self.on_update)
        # nothing may reach Discord or the database once the bot is closing (bot/client.py closes both after this)
        for task in self._confirming.values():
            task.cancel()
        await self.outbox.close()
        for task in self._posters.values():
            task.cancel()
        await asyncio.gather(*self._posters.values(), *self._confirming.values(), return_exceptions=True)

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
        await self._render_table_message(t)

    async def show_table(self, t: Table) -> None:
        """Post (or refresh) the table message of a table created elsewhere (e.g. by a tournament)."""
        self._schedule_table(t)

    def _schedule_table(self, t: Table) -> None:
        # the public message is what a player waits on least: under a short request budget it merges more changes
        self.outbox.schedule(("table", t.id), functools.partial(self._render_table_message, t), tolerance=requests.LAZY)

    # ============================================================== service notifications
    async def on_update(self, u: TableUpdate) -> None:
        t = u.table
        if u.kind == "reminder":
            # through the outbox: a slow or rate-limited send must not hold up the timer of other tables
            for seat in u.remind:
                self.outbox.schedule(("ping", t.id, seat), functools.partial(self._remind, t, seat, u.seconds_left))
            return
        self._clear_pings(t)
        self._schedule_table(t)
        if u.kind in ("started", "action", "seats", "finished", "cancelled") and t.game is not None:
            for seat, s in enumerate(t.seats):
                if s.user_id is None:
                    continue
                if u.kind == "action" and u.actor_seat == seat and (t.id, seat) in self._responding:
                    # the click being answered: its response shows this seat's new hand
                    self._seat_seen[(t.id, seat)] = self._seat_digest(t, seat)
                    continue
                self._schedule_private(t, seat, only_if_changed=u.kind == "action")
        if not t.is_open:
            self._confirm_final(t)
        if not (u.settlements or u.notices or (u.kind == "finished" and t.game is not None)):
            return
        money = await self._money(t.guild_id)
        with using(await guild_locale(self.bot, t.guild_id)):  # posts are made now, in the channel's language
            for i, settled in enumerate(u.settlements):
                # the reveal is drawn from the view right after the hand, before the table moves on; the text says
                # it all
                reveal = screens.reveal_scene(t) if i == len(u.settlements) - 1 else None
                text = screens.settlement_text(t, settled, money)
                key = owed_key(t.id, "hand", settled.index)
                self._queue_post(t.channel_id, text, reveal=reveal, guild_id=t.guild_id, key=key)
            for notice in u.notices:
                self._queue_post(t.channel_id, notice.text())
            if u.kind == "finished" and t.game is not None:
                self._queue_post(t.channel_id, screens.final_text(t, money), key=owed_key(t.id, "over"))

    async def _money(self, guild_id: int) -> MoneyValue | None:
        """The server's money value (``/tavolo config``), from the ledger cog's settings (one cache for both), or
        ``None`` when none is set or the ledger cog is not loaded."""
        ledger_cog: Any = self.bot.get_cog("Ledger")
        if ledger_cog is None or not hasattr(ledger_cog, "money"):
            return None
        try:
            value: MoneyValue = await ledger_cog.money.get(guild_id)
        except Exception:  # the summary goes out in units rather than not at all
            log.exception("money value of guild %s could not be read", guild_id)
            return None
        return value if value.currency is not None and value.values else None

    def _seat_digest(self, t: Table, seat: int) -> str:
        """What must be up to date in a seat's private message: its private view (what differs from the public
        view: the hand, the prompt, a secret role), its legal choices and the state they are bound to, whether the
        computer plays it, whether the table runs. A card played by another seat changes none of these unless it
        changes this seat's choices, so it edits no DM; the public part of the DM (the trick, the scores) catches up
        with the next change that matters."""
        game = t.game
        if game is None:
            return ""
        view, public = game.view(seat), game.public_view()
        private = {k: v for k, v in view.items() if public.get(k, _ABSENT) != v}
        legal = game.legal_actions(seat) if seat in game.to_move() else []
        forced = self.service.forced_action(t, seat)
        # choices encoded as an index are bound to the version they were rendered at: while the seat has
        # choices, every new version re-renders them (others rarely act meanwhile: simultaneous phases only)
        # the reader's language (as last read): a changed language re-renders the DM like a changed hand
        lang = self._cached_locale(t.seats[seat].user_id)
        parts = (t.status, t.seats[seat].away, forced, private, legal, t.version if legal else None, lang)
        return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()

    def _schedule_private(self, t: Table, seat: int, *, only_if_changed: bool = False) -> None:
        user_id = t.seats[seat].user_id
        if user_id is None:
            return
        digest = self._seat_digest(t, seat)
        if only_if_changed and self._seat_seen.get((t.id, seat)) == digest:
            return
        self._seat_seen[(t.id, seat)] = digest
        # a player who must act now waits on this message: it goes before everything else
        moving = screens.is_moving(t, seat)
        tolerance = requests.URGENT if moving else requests.NORMAL
        # a change of a game's course that gives the seat no turn (a new hand, an off-turn choice gone) waits an edit
        # interval, so that the seat's turn, often right behind it, goes out in the same edit
        defer = only_if_changed and not moving
        if (t.id, seat) in self._dm_failed or t.messages.get(f"dmx:{seat}"):
            if (t.id, user_id) in self._ephemeral:
                render = functools.partial(self._render_ephemeral, t, seat)
                self.outbox.schedule(("eph", t.id, seat), render, tolerance=tolerance, defer=defer)
            return
        render = functools.partial(self._render_dm, t, seat)
        self.outbox.schedule(("dm", t.id, seat), render, tolerance=tolerance, defer=defer)

    async def _remind(self, t: Table, seat: int, seconds_left: int) -> None:
        """A new message (edits do not notify): the seat's turn is half gone. By DM, or in the channel with a
        mention when the player's DMs are closed."""
        user_id = t.seats[seat].user_id
        if user_id is None or not screens.is_moving(t, seat):
            return  # the turn passed before the reminder went out
        ch_id = t.messages.get(f"dmch:{seat}")
        if (t.id, seat) in self._dm_failed or t.messages.get(f"dmx:{seat}") or ch_id is None:
            with using(await guild_locale(self.bot, t.guild_id)):
                text = _(
                    "⏳ {mention}, it's your turn: about {seconds} s left before the computer plays for you.",
                    mention=_mention(user_id),
                    seconds=seconds_left,
                )
            await self._post(t.channel_id, text)
            return
        with using(await user_locale(self.bot, user_id)):
            text = _(
                "⏳ Your turn at table #{table} ({channel}): about {seconds} s left before the computer plays for you.",
                table=str(t.id),
                channel=_channel_mention(t.channel_id),
                seconds=seconds_left,
            )
        try:
            channel = self.bot.get_partial_messageable(ch_id, type=discord.ChannelType.private)
            msg = await channel.send(text)
        except discord.HTTPException:
            log.warning("could not remind seat %s of table %s", seat, t.id)
            return
        # saved with the table (key ``ping:<seat>``, in the DM channel ``dmch:<seat>``), so a reminder sent just
        # before a restart is still deleted once the turn passes
        await self.service.set_message(t.id, f"ping:{seat}", msg.id)
        if not screens.is_moving(t, seat):
            self._clear_pings(t)  # the player acted while it was being sent

    def _clear_pings(self, t: Table) -> None:
        """Delete the reminders of seats whose turn has passed (the DM keeps only the hand message)."""
        for seat in range(len(t.seats)):
            mid, ch_id = t.messages.get(f"ping:{seat}"), t.messages.get(f"dmch:{seat}")
            if mid is None or screens.is_moving(t, seat):
                continue
            self.outbox.schedule(("unping", t.id, seat, mid), functools.partial(self._unping, t, seat, ch_id, mid))

    async def _unping(self, t: Table, seat: int, ch_id: int | None, message_id: int) -> None:
        current = t.messages.get(f"ping:{seat}")
        if current is None:
            return  # deleted already (an earlier update came first)
        if ch_id is not None:
            channel = self.bot.get_partial_messageable(ch_id, type=discord.ChannelType.private)
            # already gone, or the DM channel closed: nothing to tidy; a server error or the network raises, and the
            # Outbox sends the delete again
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await channel.get_partial_message(message_id).delete()
        if current == message_id:  # not yet replaced by the reminder of a later turn
            await self.service.set_message(t.id, f"ping:{seat}", None)

    async def _post(
        self, channel_id: int, text: str, reveal: RevealScene | None = None, guild_id: int | None = None
    ) -> None:
        await self._deliver(channel_id, Post(text, reveal, guild_id))

    async def _deliver(self, channel_id: int, post: Post) -> None:
        """Send one post, again and again while Discord answers 5xx or the network fails (the backoff of an owed
        post is stored with it); a 4xx that cannot succeed is given up, recorded on the owed row."""
        owed: Owed | None = None
        store = self.service.outbox
        if post.key is not None:
            owed = await store.get(post.key)
            if owed is None or owed.state != "pending":
                return  # sent already (exactly once), or given up
            # a retry time stored by an earlier run stands (the posts behind it in this channel wait with it)
            await asyncio.sleep(max(0.0, owed.next_attempt_at - store.clock()))
        failures = 0
        while True:
            try:
                file = None
                if post.reveal is not None and await self.pictures.for_guild(post.guild_id):
                    file = await self.pictures.file(post.reveal, self.pictures.filename("reveal", post.reveal))
                if owed is None:
                    await self.bot.get_partial_messageable(channel_id).send(
                        post.text[:2000], **({"file": file} if file is not None else {})
                    )
                    return
                message_id = await send_owed(self.bot, channel_id, owed.nonce, post.text, file=file)
                await store.sent(owed.id, message_id)
                return
            except Exception as err:
                if not transient(err):
                    if owed is not None:
                        await store.dropped(owed.id, f"{type(err).__name__}: {err}")
                    log.error("post to channel %s refused, given up: %s", channel_id, err)
                    return
                failures += 1
                if owed is not None:
                    wait = await store.retry_later(owed, f"{type(err).__name__}: {err}", retry_after(err))
                    wait -= store.clock()
                else:
                    wait = backoff(failures, retry_after(err))
                log.warning("post to channel %s failed (%s); again in %.1f s", channel_id, err, wait)
                await asyncio.sleep(max(0.0, wait))

    def _queue_post(
        self,
        channel_id: int,
        text: str,
        *,
        reveal: RevealScene | None = None,
        guild_id: int | None = None,
        key: str | None = None,
    ) -> None:
        """Post in the background, in order per channel: the click whose action ended a hand is answered
        without waiting for the results to go out (they may wait for the request budget). ``reveal``: the
        end-of-hand picture attached to the post (when the server shows pictures). ``key``: the outbox row of an
        owed post (see :mod:`bot.outbox`)."""
        self._posts.setdefault(channel_id, deque()).append(Post(text, reveal, guild_id, key))
        task = self._posters.get(channel_id)
        if task is None or task.done():
            self._posters[channel_id] = asyncio.create_task(self._drain_posts(channel_id), name=f"posts-{channel_id}")

    async def _drain_posts(self, channel_id: int) -> None:
        queue = self._posts[channel_id]
        while queue:
            post = queue.popleft()
            try:
                await self._deliver(channel_id, post)
            except Exception:
                # (the database, or a bug): the owed row stays pending and the next start delivers it
                log.exception("post to channel %s failed", channel_id)
        self._posts.pop(channel_id, None)
        self._posters.pop(channel_id, None)

    # ============================================================== the final renders of a closed table
    def _confirm_final(self, t: Table) -> None:
        """Once the closed table's message, its DMs and the removal of its reminders have landed (retries
        included), mark its owed ``render`` row sent; until then a restart renders them again."""
        task = self._confirming.get(t.id)
        if task is None or task.done():
            self._confirming[t.id] = asyncio.create_task(self._confirm(t), name=f"confirm-{t.id}")

    async def _confirm(self, t: Table) -> None:
        try:
            keys: list[Any] = [("table", t.id)]
            for seat in range(len(t.seats)):
                keys += [("dm", t.id, seat), ("eph", t.id, seat)]
                mid = t.messages.get(f"ping:{seat}")
                if mid is not None:
                    keys.append(("unping", t.id, seat, mid))
            await self.outbox.settle(keys)
            row = await self.service.outbox.get(owed_key(t.id, "render"))
            if row is None or row.state != "pending":
                return
            refused = [k for k in keys if self.outbox.failed(k)]
            if refused:
                await self.service.outbox.dropped(row.id, f"refused by Discord: {refused}")
            else:
                await self.service.outbox.sent(row.id)
        except Exception:
            log.exception("the final renders of table %s could not be confirmed; the next start renders them", t.id)
        finally:
            self._confirming.pop(t.id, None)

    async def drain_posts(self) -> None:
        while any(not t.done() for t in self._posters.values()):
            await asyncio.gather(*self._posters.values(), return_exceptions=True)

    # ============================================================== the public table message
    async def _table_message(self, t: Table) -> tuple[Message, TableScene | None]:
        """The table message from the public view, in the channel's language (see :meth:`_table_message_in`)."""
        with using(await guild_locale(self.bot, t.guild_id)):
            return await self._table_message_in(t)

    async def _table_message_in(self, t: Table) -> tuple[Message, TableScene | None]:
        """The table message in the current locale: a V2 layout with the table picture when pictures are on (or
        when the message is V2 already: Discord never turns a V2 message back), else today's embed."""
        screen = screens.table_screen(t)
        spec = registry.get(t.game_id)
        items: list[discord.ui.Item[Any]] = []
        ops = screen.buttons + (["activity"] if t.is_open and _activity_on(self.bot) else [])
        for op in ops:
            label, style, row = BUTTONS[op]
            text = _(label, title=screens.game_title(t.game_id)) if "{title}" in label else _(label)
            items.append(TableButton.make(t.id, op, text, style=style, row=row))
        if len(screen.levels) > 1:
            options = [
                (_("Add a computer: {level}", level=screens.level_name(lvl)), lvl, screens.LEVEL_HELP.get(lvl))
                for lvl in screen.levels
            ]
            placeholder = _("Add a computer of a chosen level…")
            items.append(TableSelect.make(t.id, "addbot", 0, "", placeholder, options, row=2))
        key = ("table", t.id)
        picture = screen.picture if await self.pictures.for_guild(t.guild_id) else None
        if picture is None and not self._is_v2(t, key):
            view: discord.ui.View | None = None
            if items:
                view = discord.ui.View(timeout=None)
                for item in items:
                    view.add_item(item)
            return embed_message(embed_of(screen.panel, spec.colour), view), None
        name = self.pictures.filename("table", picture) if picture is not None else None
        msg = layout_message(screen.panel, spec.colour, _rows_of(items), picture=name, alt=f"{screen.panel.title}")
        return msg, picture

    async def _render_table_message(self, t: Table) -> None:
        msg, picture = await self._table_message(t)
        key = ("table", t.id)
        if self._rendered.get(key) == _short(msg.digest):
            return
        channel = self.bot.get_partial_messageable(t.channel_id)
        mid = t.messages.get("table")
        if mid is not None:
            try:
                await channel.get_partial_message(mid).edit(**await self._edit_kw(key, msg, picture))
                await self._sent(t, key, msg)
                return
            except discord.NotFound:
                pass  # deleted by someone: post a fresh one
        self._attached.pop(key, None)
        sent_id = await self._create(key, t.channel_id, await self._send_kw(key, msg, picture))
        await self._sent(t, key, msg)
        await self.service.set_message(t.id, "table", sent_id)

    async def _create(self, key: tuple[Any, ...], channel_id: int, kw: dict[str, Any]) -> int:
        """Create the message under ``key`` (the table message, a DM hand) with a nonce that stays the same while
        the create is retried, and ``enforce_nonce``: a create Discord carried out although it answered 5xx is
        returned on the retry instead of a second message with live controls."""
        nonce = self._nonces.setdefault(key, f"tvc{secrets.randbits(64)}"[:25])
        message_id = await send_owed(self.bot, channel_id, nonce, **kw)
        self._nonces.pop(key, None)
        return message_id

    # ============================================================== how a message is sent
    def _is_v2(self, t: Table, key: tuple[Any, ...]) -> bool:
        """Whether the message under ``key`` is a V2 message (remembered with the table across restarts)."""
        if key in self._v2:
            return self._v2[key]
        name = _persisted(key)
        return bool(name and t.messages.get(f"v2:{name}"))

    async def _sent(self, t: Table, key: tuple[Any, ...], msg: Message) -> None:
        self._rendered[key] = _short(msg.digest)
        self._attached[key] = msg.picture
        self._v2[key] = msg.v2
        name = _persisted(key)
        if name is not None:
            # saved with the table's next save (no write of its own): after a restart, restore() skips it
            t.messages[f"h:{name}"] = int(_short(msg.digest), 16)
        if name is not None and bool(t.messages.get(f"v2:{name}")) != msg.v2:
            await self.service.set_message(t.id, f"v2:{name}", 1 if msg.v2 else None)

    def _learn(self, key: tuple[Any, ...], message: discord.Message | None) -> None:
        """What a clicked message carries, read from the message itself (exact, also after a restart)."""
        if message is None:
            return
        self._v2[key] = message.flags.components_v2
        self._attached[key] = message.attachments[0].filename if message.attachments else None

    async def _files(self, key: tuple[Any, ...], msg: Message, picture: Scene | None) -> list[discord.File] | None:
        """The attachments an edit sends: ``None`` keeps the message's (the picture did not change), ``[]``
        removes them, a new picture replaces them. A picture is uploaded only when it changed."""
        current = self._attached.get(key, _UNKNOWN)
        if msg.picture is None or picture is None:
            return None if current is None or not msg.v2 else []
        if current == msg.picture:
            return None
        return [await self.pictures.file(picture, msg.picture)]

    async def _edit_kw(self, key: tuple[Any, ...], msg: Message, picture: Scene | None) -> dict[str, Any]:
        if not msg.v2:
            return {"content": None, "embed": msg.embed, "view": msg.view}
        kw: dict[str, Any] = {"content": None, "embed": None, "view": msg.view}
        files = await self._files(key, msg, picture)
        if files is not None:
            kw["attachments"] = files
        return kw

    async def _send_kw(self, key: tuple[Any, ...], msg: Message, picture: Scene | None) -> dict[str, Any]:
        """``send`` takes no ``view=None``; pass the arguments only when there is something to pass."""
        kw: dict[str, Any] = {}
        if msg.embed is not None:
            kw["embed"] = msg.embed
        if msg.view is not None:
            kw["view"] = msg.view
        if msg.picture is not None and picture is not None:
            kw["file"] = await self.pictures.file(picture, msg.picture)
        return kw

    # ============================================================== private panels
    async def _private(self, t: Table, seat: int, key: tuple[Any, ...]) -> tuple[Message, HandScene | None]:
        """A seat's hand in its player's language, rendered when it is sent (an Outbox edit runs later than it was
        scheduled: the language is the one of that moment)."""
        user_id = t.seats[seat].user_id
        locale = await user_locale(self.bot, user_id) if user_id is not None else "en"
        with using(locale):
            return await self._private_in(t, seat, key)

    async def _private_in(self, t: Table, seat: int, key: tuple[Any, ...]) -> tuple[Message, HandScene | None]:
        """A seat's hand from its own view only: V2 with the hand picture when the player's pictures are on."""
        screen = screens.seat_screen(t, seat, self.service.forced_action(t, seat))
        spec = registry.get(t.game_id)
        author = _(
            "{game} — table #{table} — seat {seat}", game=screens.game_title(t.game_id), table=str(t.id), seat=seat + 1
        )

        def extra() -> list[discord.ui.Item[Any]]:
            if screen.hint:
                return [TableButton.make(t.id, "hint", "💡 " + ui.label(ui.HINT), style=discord.ButtonStyle.secondary)]
            if not screen.away:
                return []
            return [TableButton.make(t.id, "back", ui.label(ui.BACK), style=discord.ButtonStyle.primary)]

        user_id = t.seats[seat].user_id
        on = user_id is not None and await self.pictures.for_user(t.guild_id, user_id)
        picture = screen.picture if on else None
        if picture is None and not self._is_v2(t, key):
            view = view_of(screen.panel, t.id, t.version, screen.legal, extra()) if screen.live else None
            embed = embed_of(screen.panel, spec.colour)
            embed.set_author(name=author)
            return embed_message(embed, view), None
        rows = comp.control_rows(screen.panel, t.id, t.version, screen.legal, extra()) if screen.live else []
        name = self.pictures.filename("hand", picture) if picture is not None else None
        alt = ""
        if picture is not None:
            alt = _("Your hand: {cards}", cards=", ".join(spec.renderer.card_label(c) for c in picture.cards_shown))
        return layout_message(screen.panel, spec.colour, rows, picture=name, author=author, alt=alt), picture

    async def _render_dm(self, t: Table, seat: int) -> None:
        user_id = t.seats[seat].user_id
        if user_id is None or t.game is None or (t.id, seat) in self._dm_failed:
            return
        key = ("dm", t.id, seat)
        msg, picture = await self._private(t, seat, key)
        if self._rendered.get(key) == _short(msg.digest):
            return
        try:
            ch_id = t.messages.get(f"dmch:{seat}")
            if ch_id is None:
                dm = await self.bot.create_dm(discord.Object(user_id))
                ch_id = dm.id
                await self.service.set_message(t.id, f"dmch:{seat}", ch_id)
            channel = self.bot.get_partial_messageable(ch_id, type=discord.ChannelType.private)
            mid = t.messages.get(f"dm:{seat}")
            if mid is not None:
                try:
                    kw = await self._edit_kw(key, msg, picture)
                    kw.pop("content")  # a hand message never had content; leave it out as before
                    self._edits[key] = self._edits.get(key, 0) + 1
                    await channel.get_partial_message(mid).edit(**kw)
                    await self._sent(t, key, msg)
                    return
                except discord.NotFound:
                    pass
            self._attached.pop(key, None)
            sent_id = await self._create(key, ch_id, await self._send_kw(key, msg, picture))
            await self._sent(t, key, msg)
            await self.service.set_message(t.id, f"dm:{seat}", sent_id)
        except discord.Forbidden:
            # DMs closed (50007) or blocked: never drop the player, point them at the ephemeral fallback.
            self._dm_failed.add((t.id, seat))
            await self.service.set_message(t.id, f"dmx:{seat}", 1)
            with using(await guild_locale(self.bot, t.guild_id)):
                text = _(
                    "{mention}, I can't send you direct messages. Click **{button}** on the table message to see your"
                    " cards and play.",
                    mention=_mention(user_id),
                    button=_("My hand"),
                )
            await self._post(t.channel_id, text)

    async def _render_ephemeral(self, t: Table, seat: int) -> None:
        user_id = t.seats[seat].user_id
        if user_id is None:
            return
        entry = self._ephemeral.get((t.id, user_id))
        if entry is None:
            return
        interaction, since = entry
        if time.monotonic() - since > EPHEMERAL_TTL:
            self._ephemeral.pop((t.id, user_id), None)
            return
        key = ("eph", t.id, seat)
        msg, picture = await self._private(t, seat, key)
        if self._rendered.get(key) == _short(msg.digest):
            return
        try:
            kw = await self._edit_kw(key, msg, picture)
            kw.pop("content")
            self._edits[key] = self._edits.get(key, 0) + 1
            await interaction.edit_original_response(**kw)
            await self._sent(t, key, msg)
        except discord.HTTPException:
            self._ephemeral.pop((t.id, user_id), None)

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

    def _cached_locale(self, user_id: int | None) -> str | None:
        prefs = self.pictures.preferences
        return prefs.cached_user_locale(user_id) if prefs is not None and user_id is not None else None

    def relocalise_user(self, user_id: int) -> None:
        """The user chose another language: send their hands again (in it) at every table they sit at."""
        for t in list(self.service.tables.values()):
            if t.game is None:
                continue
            for seat, s in enumerate(t.seats):
                if s.user_id == user_id:
                    self._schedule_private(t, seat)

    def relocalise_guild(self, guild_id: int) -> None:
        """The server's language changed: its table messages show it from their next render (now)."""
        for t in list(self.service.tables.values()):
            if t.guild_id == guild_id:
                self._schedule_table(t)

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

    async def _hint(self, c: Click) -> None:
        """The strong computer's suggestion for the clicking player's seat, privately (``hints`` tables)."""
        # a search takes a moment: acknowledge first (an interaction must be answered within 3 s)
        await c.interaction.response.defer(ephemeral=True, thinking=True)
        t, seat, found = await self.service.hint(c.tid, c.uid)
        assert t.game is not None
        # (on_component set the clicker's language; the panel gives the choices' own labels)
        panel = registry.renderer(t.game_id).private_panel(t.game.view(seat), t.names)
        await c.interaction.edit_original_response(content=hint_text(t.game_id, found, panel))

    async def _open_activity(self, c: Click) -> None:
        """**Open in Activity**: Discord opens the Activity (bot/activity) in this channel for the clicker."""
        await c.interaction.response.launch_activity()

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
        responding = (t.id, seat if seat is not None else -1)
        self._responding.add(responding)
        try:
            await self.service.act(t.id, uid, action, ver)
        except TableError as e:
            self._responding.discard(responding)
            await reply_privately(interaction, self._refusal(e, t.id))
            if seat is not None and t.game is not None:
                # the clicked message was out of date: send the hand again even if this process believes it is
                # shown, so the player's message changes and shows what they may do now
                in_dm = interaction.guild_id is None
                self._rendered.pop(("dm", t.id, seat) if in_dm else ("eph", t.id, seat), None)
                self._schedule_private(t, seat)
            return
        finally:
            self._responding.discard(responding)
        if seat is None or t.game is None:
            await interaction.response.defer()
            return
        # Answer the click by updating the very message clicked: one request acknowledges and re-renders (and
        # carries the new hand picture, when it changed).
        in_dm = interaction.guild_id is None
        key = ("dm", t.id, seat) if in_dm else ("eph", t.id, seat)
        self._learn(key, interaction.message)
        built_at, edits_before = t.version, self._edits.get(key, 0)
        # what the response shows (its screen is drawn before _private first awaits): the edits that follow compare
        # with it, so a move of the others that leaves this seat's hand and choices alone edits nothing
        self._seat_seen[(t.id, seat)] = self._seat_digest(t, seat)
        msg, picture = await self._private(t, seat, key)
        self._rendered[key] = _short(msg.digest)  # claimed now: a render scheduled meanwhile finds nothing to do
        kw, deferred = await in_time(interaction, self._edit_kw(key, msg, picture))  # (a slow picture: ack first)
        kw.pop("content")
        try:
            if deferred:
                await interaction.edit_original_response(**kw)
            else:
                await interaction.response.edit_message(**kw)
        except discord.HTTPException:
            # the response did not land (a 5xx, the token expired): the message still shows the state before the
            # click, so it is no longer counted as shown and an edit brings it up to date
            self._rendered.pop(key, None)
            self._schedule_private(t, seat)
            raise
        await self._sent(t, key, msg)
        if self._edits.get(key, 0) != edits_before or self.outbox.rendering(key):
            # an edit of this message went out while this response was on its way (for a later state: a computer's
            # move), or one drawn before the click is still on its way (waiting for the request budget): either may
            # land after the response, so send the latest state again once it has, or the seat could keep a hand
            # without the choices of its new turn (its digest already counts that state as shown)
            self._rendered.pop(key, None)
            self._schedule_private(t, seat)
        elif t.version != built_at:
            # the table moved on meanwhile: an edit if this seat's hand or choices changed since
            self._schedule_private(t, seat, only_if_changed=True)
        if not in_dm:  # only now: an edit of the original response before the response itself fails
            self._ephemeral[(t.id, uid)] = (interaction, time.monotonic())

    async def _show_hand(self, interaction: discord.Interaction[Any], tid: int) -> None:
        await remember(self.bot, interaction)  # the hand below is rendered in the language of this very client
        t = self.service.get(tid)
        seat = t.seat_of(interaction.user.id)
        if seat is None or t.game is None:
            raise TableError(NOT_PLAYING)
        key = ("eph", t.id, seat)
        self._v2.pop(key, None)  # a new message: its form is chosen afresh
        self._attached.pop(key, None)
        msg, picture = await self._private(t, seat, key)
        self._rendered[key] = _short(msg.digest)
        kw, deferred = await in_time(interaction, self._send_kw(key, msg, picture), ephemeral=True)
        if deferred:
            files = [kw.pop("file")] if "file" in kw else []
            await interaction.edit_original_response(**kw, attachments=files)
        else:
            await interaction.response.send_message(**kw, ephemeral=True)
        await self._sent(t, key, msg)
        self._ephemeral[(t.id, interaction.user.id)] = (interaction, time.monotonic())

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
        old = t.messages.get("table")
        await self.service.set_message(t.id, "table", None)
        for known in (self._rendered, self._attached, self._v2):
            known.pop(("table", t.id), None)
        await self.service.set_message(t.id, "v2:table", None)  # a new message: its form is chosen afresh
        await self._render_table_message(t)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(t.channel_id).get_partial_message(old).delete()

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

    # ============================================================== restart
    async def restore(self) -> None:
        """Re-render every open table after a restart (controls are persistent; this refreshes them), and deliver
        what the players are still owed (:meth:`deliver_owed`)."""
        for t in list(self.service.tables.values()):
            self._restore_table(t)
        await self.deliver_owed()

    async def deliver_owed(self) -> None:
        """Deliver the outbox rows a previous run left pending, in the order they were owed: hand summaries and
        game-over posts, drawn again from the table replayed to the moment that owed them; and the final state
        of every table that closed without its final renders confirmed (its message without game controls, DMs
        that show the end, reminders deleted)."""
        for row in await self.service.outbox.pending(kinds=("hand", "over", "render")):
            if row.table_id is None:
                continue
            try:
                if row.kind == "render":
                    t = await self.service.table_at(row.table_id)
                    if t is None:
                        await self.service.outbox.dropped(row.id, "no such table")
                        continue
                    self._restore_table(t)
                    self._confirm_final(t)
                    continue
                t = await self.service.table_at(row.table_id, row.payload.get("version"))
                if t is None or t.game is None or row.channel_id is None:
                    await self.service.outbox.dropped(row.id, "no such table or game")
                    continue
                money = await self._money(t.guild_id)
                with using(await guild_locale(self.bot, t.guild_id)):
                    if row.kind == "over":
                        text, reveal = screens.final_text(t, money), None
                    else:
                        settled = next(s for s in t.game.settlements() if s.index == row.payload["index"])
                        text = screens.settlement_text(t, settled, money)
                        reveal = screens.reveal_scene(t) if row.payload.get("last", True) else None
                self._queue_post(row.channel_id, text, reveal=reveal, guild_id=t.guild_id, key=row.key)
            except Exception:
                log.exception("owed message %s could not be prepared; it stays pending", row.key)

    def _restore_table(self, t: Table) -> None:
        """Render a table whose messages may be stale (after a restart) to its true state."""
        # what the messages showed when the table was last saved: an unchanged message is not edited again
        # (its channel's rate-limit window may still be full from just before the restart)
        for key in (("table", t.id), *(("dm", t.id, seat) for seat in range(len(t.seats)))):
            shown = t.messages.get(f"h:{_persisted(key)}")
            if shown is not None:
                self._rendered.setdefault(key, f"{shown:024x}")
        self._schedule_table(t)
        self._clear_pings(t)  # reminders of turns that ended while the bot was away (e.g. a cancelled table)
        if t.game is not None:
            for seat, s in enumerate(t.seats):
                if s.user_id is not None and not t.messages.get(f"dmx:{seat}"):
                    self._schedule_private(t, seat)


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


_UNKNOWN = "?"  # what a message carries when this process has not sent it (e.g. after a restart)
_ABSENT = object()


def _short(digest: str) -> str:
    """The part of a message digest kept with the table (an int in its message map)."""
    return digest[:24]


def _persisted(key: tuple[Any, ...]) -> str | None:
    """The name under which a message's form is saved with the table: its table message and DMs (an
    ephemeral hand lives 15 minutes and never outlives the process)."""
    if key[0] == "table":
        return "table"
    if key[0] == "dm":
        return f"dm:{key[2]}"
    return None


def _rows_of(items: list[discord.ui.Item[Any]]) -> list[list[discord.ui.Item[Any]]]:
    """Table buttons in their legacy rows (``row=None``: the first row with room, as discord.py places them)."""
    rows: list[list[discord.ui.Item[Any]]] = []
    placed: dict[int, list[discord.ui.Item[Any]]] = {}
    for item in items:
        if item.row is not None:
            placed.setdefault(item.row, []).append(item)
    for r in sorted(placed):
        rows.append(placed[r])
    for item in items:
        if item.row is None:
            if not rows or len(rows[-1]) >= 5 or any(isinstance(i, TableSelect) for i in rows[-1]):
                rows.append([])
            rows[-1].append(item)
    return rows


def _mention(user_id: int) -> str:
    return f"<@{user_id}>"


def _channel_mention(channel_id: int) -> str:
    return f"<#{channel_id}>"


def _confirm(tid: int, op: str, label: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton.make(tid, op, label, style=discord.ButtonStyle.danger))
    return view


def _activity_on(bot: Any) -> bool:
    """The bot serves the Activity (``TAVOLO_ACTIVITY_PORT``): table messages offer **Open in Activity**."""
    return getattr(getattr(bot, "settings", None), "activity_port", None) is not None


def _is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


async def setup(bot: commands.Bot) -> None:
    s = services_of(bot)
    pictures = Pictures(s.guild_settings, s.preferences, s.pictures, default=s.images_default)
    await bot.add_cog(TablesCog(bot, s.tables, edit_interval=s.edit_interval, pictures=pictures))

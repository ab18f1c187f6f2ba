"""The Discord-messages front-end of the tables: everything a table sends to Discord.

The channel's table message is drawn from the public screen only, each player's DM (or, when their DMs are closed,
an ephemeral hand) from that seat's screen only (:mod:`bot.tables.screens`); the channel's posts (hand results,
notices, the game's end), the turn reminders, and the owed messages a restart delivers. Edits are coalesced per
message (:class:`~cogs._outbox.Outbox`), so bursts of computer moves never exceed Discord's per-channel limits.
It hears of the tables through :class:`bot.tables.frontends.Frontend`; the clicks are the cog's
(:mod:`cogs.tables.cog`), which hands this front-end only the answer to a click.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.games import registry
from bot.i18n import N_, _, using
from bot.i18n import names as ui
from bot.images.scene import HandScene, RevealScene, Scene, TableScene
from bot.ledger.money import MoneyValue
from bot.outbox import Owed, backoff
from bot.tables import screens
from bot.tables.frontends import Notice, TableUpdate, Unping, audience, seats_watched_elsewhere
from bot.tables.model import Table
from bot.tables.service import TableService, owed_key
from bot.transport import requests

from .. import _components as comp
from .._components import TableButton, TableSelect, embed_of, view_of
from .._layout import Message, embed_message, layout_message
from .._locale import guild_locale, user_locale
from .._outbox import Outbox, retry_after, send_owed, transient
from .._pictures import Pictures, in_time

log = logging.getLogger(__name__)

EPHEMERAL_TTL = 14 * 60  # interaction tokens last 15 minutes; stop editing a fallback hand just before

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


class DiscordFrontend:
    """The tables as Discord messages (see the module docstring); one per bot process."""

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
        #: private message key -> the answers to clicks under way for it (see :meth:`_answer`)
        self._answers: dict[tuple[Any, ...], set[asyncio.Future[None]]] = {}

    def start(self) -> None:
        """Show the service's tables from now on."""
        self.service.add_frontend(self)

    async def close(self) -> None:
        """Stop: nothing may reach Discord or the database once the bot is closing (bot/transport/client.py closes both
        after this)."""
        self.service.remove_frontend(self)
        for task in self._confirming.values():
            task.cancel()
        await self.outbox.close()
        for task in self._posters.values():
            task.cancel()
        await asyncio.gather(*self._posters.values(), *self._confirming.values(), return_exceptions=True)

    # ============================================================== service notifications
    async def update(self, u: TableUpdate) -> None:
        """The :class:`~bot.tables.frontends.Frontend` interface: schedule what the update touches (its audience),
        and queue the posts it brings, written now (in the channel's language, from the table as it is now)."""
        t = u.table
        who = audience(u)
        self._unping(t.id, u.unpings)
        for seat in who.remind:
            # through the outbox: a slow or rate-limited send must not hold up the timer of other tables
            remind = functools.partial(self._remind, t, seat, u.seconds_left, t.version)
            self.outbox.schedule(("ping", t.id, seat), remind)
        if not who.public:
            return
        self.show_table(t)
        for seat in who.seats:
            if who.only_if_changed and u.actor_seat == seat and (t.id, seat) in self._responding:
                # the click being answered: its response shows this seat's new hand
                self._seat_seen[(t.id, seat)] = self._seat_digest(t, seat)
                continue
            self._schedule_private(t, seat, only_if_changed=who.only_if_changed)
        if not t.is_open:
            self._confirm_final(t)
        if not who.posts:
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
                self._queue_post(t.channel_id, notice.text(), key=notice.key)
            if u.kind == "finished" and t.game is not None:
                self._queue_post(t.channel_id, screens.final_text(t, money), key=owed_key(t.id, "over"))

    def show_table(self, t: Table) -> None:
        """Draw the table message again (soon: edits are coalesced), e.g. for a table created elsewhere."""
        # the public message is what a player waits on least: under a short request budget it merges more changes
        self.outbox.schedule(("table", t.id), functools.partial(self.render_table, t), tolerance=requests.LAZY)

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
        if (t.is_open or t.messages.get(f"dm:{seat}") is None) and seat in seats_watched_elsewhere(
            self.service.frontends, t.id, self
        ):
            # the player is at the table in the Activity now: its page shows this seat, the DM waits (a DM sent before
            # still gets the end: no live controls may stay on it; none is opened just to show the end)
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

    async def _remind(self, t: Table, seat: int, seconds_left: int, version: int) -> None:
        """A new message (edits do not notify): the seat's turn is half gone. By DM, or in the channel with a
        mention when the player's DMs are closed."""
        user_id = t.seats[seat].user_id
        # the turn passed before the reminder went out: no reminder — unless an earlier attempt may have landed
        # unanswered (a 503 after Discord created it): that one is fetched by its nonce, and deleted at once
        pending = ("ping", t.id, seat) in self._nonces
        acted = any(s == seat for s, _a in t.log[version:])  # (its turn again is another turn)
        if user_id is None or not (pending or (screens.is_moving(t, seat) and not acted)):
            return
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
            # a 5xx raises and the Outbox sends it again (while the turn lasts); the nonce makes a retry of a create
            # Discord carried out return that reminder instead of a second one
            message_id = await self._create(("ping", t.id, seat), ch_id, {"content": text})
        except discord.HTTPException as err:
            if transient(err):
                raise
            self._nonces.pop(("ping", t.id, seat), None)  # refused for good: nothing was created
            log.warning("could not remind seat %s of table %s: %s", seat, t.id, err)
            return
        # saved with the table (key ``ping:<seat>``, in the DM channel ``dmch:<seat>``), so a reminder sent just
        # before a restart is still deleted once the turn passes; owed at once if the player acted meanwhile
        self._unping(t.id, await self.service.reminder_sent(t, seat, message_id, version))

    def _unping(self, table_id: int, unpings: list[Unping]) -> None:
        """Delete reminders whose turn has passed (the DM keeps only the hand message): owed rows, each deleted until
        it is gone (a 5xx again after a backoff) and then marked sent."""
        for u in unpings:
            self.outbox.schedule(("unping", table_id, u.seat, u.message_id), functools.partial(self._delete_ping, u))

    async def _delete_ping(self, u: Unping) -> None:
        store = self.service.outbox
        row = await store.get(u.key)
        if row is None or row.state != "pending":
            return  # deleted already
        if u.channel_id is not None:
            channel = self.bot.get_partial_messageable(u.channel_id, type=discord.ChannelType.private)
            try:
                await channel.get_partial_message(u.message_id).delete()
            except discord.NotFound:
                pass  # already gone (deleted by the player, or by a delete whose answer was lost): done
            except discord.Forbidden as err:
                await store.dropped(row.id, f"{type(err).__name__}: {err}")  # the DM channel is closed to us
                return
        await store.sent(row.id)

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
            while True:
                await self.outbox.settle(keys)
                # an answer to a click still under way may land after the final edit (its retry after a 503): its
                # follow-up edit, scheduled before it ends, brings the message back to the end (see answer_click)
                answers = [f for k in keys for f in self._answers.get(k, ())]
                if not answers:
                    break
                await asyncio.wait(answers)
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

    async def render_table(self, t: Table) -> None:
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

    # ============================================================== answering a click (the cog carries it out)
    @contextlib.contextmanager
    def answering(self, table_id: int, seat: int | None) -> Iterator[None]:
        """While a click of ``seat`` is being carried out: its own update draws nothing for that seat (the click's
        response will show it, see :meth:`answer_click`)."""
        responding = (table_id, seat if seat is not None else -1)
        self._responding.add(responding)
        try:
            yield
        finally:
            self._responding.discard(responding)

    def redraw_seat(self, t: Table, seat: int, *, in_dm: bool) -> None:
        """Send the seat's hand again even if this process believes it is shown (a click on an out-of-date
        message was refused: the player's message must change to show what they may do now)."""
        self._rendered.pop(("dm", t.id, seat) if in_dm else ("eph", t.id, seat), None)
        self._schedule_private(t, seat)

    @contextlib.contextmanager
    def _answer(self, key: tuple[Any, ...]) -> Iterator[None]:
        """While a click's answer to the private message ``key`` is under way. A deferred answer is an edit that
        discord.py sends again after a 503, so it can land after an edit the Outbox sent meanwhile; the final
        renders of a table are confirmed only once no answer is under way (see :meth:`_confirm`)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._answers.setdefault(key, set()).add(done)
        try:
            yield
        finally:
            answers = self._answers.get(key, set())
            answers.discard(done)
            if not answers:
                self._answers.pop(key, None)
            done.set_result(None)

    async def answer_click(self, interaction: discord.Interaction[Any], t: Table, seat: int) -> None:
        """Answer a carried-out click by updating the very message clicked: one request acknowledges and re-renders
        (and carries the new hand picture, when it changed)."""
        key = ("dm", t.id, seat) if interaction.guild_id is None else ("eph", t.id, seat)
        with self._answer(key):
            await self._answer_click(interaction, t, seat, key)

    async def _answer_click(
        self, interaction: discord.Interaction[Any], t: Table, seat: int, key: tuple[Any, ...]
    ) -> None:
        uid = interaction.user.id
        in_dm = interaction.guild_id is None
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

    async def show_hand(self, interaction: discord.Interaction[Any], t: Table, seat: int) -> None:
        """The seat's hand as the answer to ``interaction``, seen by its player only (kept up to date for 14 minutes:
        the fallback of a player whose DMs are closed)."""
        key = ("eph", t.id, seat)
        with self._answer(key):
            await self._show_hand(interaction, t, seat, key)

    async def _show_hand(
        self, interaction: discord.Interaction[Any], t: Table, seat: int, key: tuple[Any, ...]
    ) -> None:
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

    async def repost_table(self, t: Table) -> None:
        """Post the table message afresh (the old one deleted): ``/table status``."""
        old = t.messages.get("table")
        await self.service.set_message(t.id, "table", None)
        for known in (self._rendered, self._attached, self._v2):
            known.pop(("table", t.id), None)
        await self.service.set_message(t.id, "v2:table", None)  # a new message: its form is chosen afresh
        await self.render_table(t)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(t.channel_id).get_partial_message(old).delete()

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
                self.show_table(t)

    # ============================================================== restart
    async def restore(self) -> None:
        """Re-render every open table after a restart (controls are persistent; this refreshes them), and deliver
        what the players are still owed (:meth:`deliver_owed`)."""
        for t in list(self.service.tables.values()):
            self._restore_table(t)
            # reminders of turns that ended while the bot was away, saved by a version without owed deletions
            self._unping(t.id, await self.service.tidy_reminders(t.id))
        await self.deliver_owed()

    async def deliver_owed(self) -> None:
        """Deliver the outbox rows a previous run left pending, in the order they were owed: hand summaries and
        game-over posts, drawn again from the table replayed to the moment that owed them; the table's notices;
        the deletion of reminders whose turn passed; and the final state of every table that closed without its
        final renders confirmed (its message without game controls, DMs that show the end)."""
        for row in await self.service.outbox.pending(kinds=("hand", "note", "over", "render", "unping")):
            if row.table_id is None:
                continue
            try:
                if row.kind == "unping":
                    seat, mid = int(row.payload["seat"]), int(row.payload["message"])
                    self._unping(row.table_id, [Unping(row.key, seat, row.channel_id, mid)])
                    continue
                if row.kind == "note":
                    if row.channel_id is None:
                        continue
                    notice = Notice(str(row.payload["msgid"]), **row.payload.get("params", {}))
                    with using(await guild_locale(self.bot, row.guild_id)):
                        self._queue_post(row.channel_id, notice.text(), guild_id=row.guild_id, key=row.key)
                    continue
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
        self.show_table(t)
        if t.game is not None:
            for seat, s in enumerate(t.seats):
                if s.user_id is not None and not t.messages.get(f"dmx:{seat}"):
                    self._schedule_private(t, seat)


# ==================================================================== helpers
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


def _activity_on(bot: Any) -> bool:
    """The bot serves the Activity (``TAVOLO_ACTIVITY_PORT``): table messages offer **Open in Activity**."""
    return getattr(getattr(bot, "settings", None), "activity_port", None) is not None


def _mention(user_id: int) -> str:
    return f"<@{user_id}>"


def _channel_mention(channel_id: int) -> str:
    return f"<#{channel_id}>"

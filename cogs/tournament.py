"""Tournament commands: ``/tournament create|join|leave|withdraw|start|standings|rules|cancel``.

A thin adapter over :class:`~bot.tournaments.TournamentService`: the sign-up message (Join / Leave / Start
buttons, persistent ``tt:<id>:<op>`` custom ids so they work after a restart), the live standings message
edited in place, one public thread per table (the table itself is rendered by the Tables cog via
``show_table``), and the final podium. Who may control a tournament: its host, anyone with Manage Server,
and members holding the guild's organiser role (``/tavolo config``).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import registry
from bot.i18n import N_, SUPPORTED, _, _n, _p, tenths, using
from bot.i18n import names as ui
from bot.images.standings import Rating, StandingRow, Standings, render_standings
from bot.ledger.chart import recent_form
from bot.ledger.texts import amount_text
from bot.ratings import Ratings
from bot.render.errors import error_text
from bot.services import services_of
from bot.tables.service import TableError
from bot.tournaments import (
    RULES_TEXT,
    GuildSettings,
    RoundTable,
    Standing,
    Tournament,
    TournamentError,
    TournamentService,
    TournamentUpdate,
)

from . import _clicks
from ._charts import LedgerPictures, picture_layout, send_picture_message
from ._game import TURN_TIMER_HELP, TurnTimer, game_autocomplete, manages_or_has_role, parse_rounds, reply_privately
from ._locale import channel_locale, reader_locale
from ._outbox import Outbox, retry_after, send_owed, transient
from ._pictures import Pictures

log = logging.getLogger(__name__)

FILL_CHOICES = [
    app_commands.Choice(name="computer players fill the empty seats", value="computer"),
    app_commands.Choice(name="byes: players left over sit the round out", value="bye"),
]
COLOUR = 0xE67E22
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}

_handler: dict[str, Any] = {}


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tt:(?P<tid>\d+):(?P<op>[a-z]+)"):
    """A sign-up button whose custom id routes the click after a restart."""

    def __init__(self, item: discord.ui.Button[Any], tid: int, op: str) -> None:
        super().__init__(item)
        self.tid, self.op = tid, op

    @classmethod
    def make(cls, tid: int, op: str, label: str, style: discord.ButtonStyle) -> TournamentButton:
        return cls(discord.ui.Button(label=label, style=style, custom_id=f"tt:{tid}:{op}"), tid, op)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["tid"]), match["op"])

    @_clicks.answers_every_click
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        fn = _handler.get("fn")
        if fn is None:
            with using(interaction.locale):  # (no cog yet: no stored preference to read)
                text = _("Tavolo is starting up; try again in a moment.")
            await interaction.response.send_message(text, ephemeral=True)
            return
        await fn(interaction, self.tid, self.op)


#: ``messages`` key naming the standings message that is a V2 layout: Discord refuses an embed on such a message,
#: so it must stay V2 even when pictures are turned off later, also after a restart (hence stored, not in memory)
V2_STANDINGS = "standings_v2"


def _is_v2_standings(t: Tournament) -> bool:
    mid = t.messages.get("standings")
    return mid is not None and t.messages.get(V2_STANDINGS) == mid


def standings_lines(t: Tournament, rows: list[Standing], limit: int = 25) -> list[str]:
    """The ranked players, one line each, in the current locale."""
    primary = registry.currency(t.game)
    lines = []
    for s in rows[:limit]:
        extra = [
            _n("{n} table win", "{n} table wins", s.tables_won),
            _n("{n} hand won", "{n} hands won", s.hands_won),
        ]
        if primary != "stake" and s.totals.get("stake"):
            extra.insert(0, amount_text(s.totals["stake"], "stake"))
        if s.byes:
            extra.append(_n("{n} bye", "{n} byes", s.byes))
        flags = (" 🤖" if s.afk else "") + (" " + _("(withdrawn)") if s.withdrawn else "")
        rank = MEDALS.get(s.rank, f"{s.rank}.")
        lines.append(f"{rank} **{s.name}**{flags} — {amount_text(s.score, primary)} · " + " · ".join(extra))
    if len(rows) > limit:
        lines.append(_n("… and {n} more", "… and {n} more", len(rows) - limit))
    return lines


class TournamentCog(commands.Cog, name="Tournament"):
    group = app_commands.Group(name="tournament", description="Tournaments over several tables and rounds",
                               guild_only=True)  # fmt: skip

    def __init__(self, bot: commands.Bot, service: TournamentService, settings: GuildSettings,
                 *, edit_interval: float = 1.0, pictures: Pictures | None = None,
                 ratings: Ratings | None = None) -> None:  # fmt: skip
        self.bot = bot
        self.service = service
        self.settings = settings
        # standings pictures: off unless the bot passes its picture settings (then the server's choice decides)
        self.pictures = LedgerPictures(pictures) if pictures is not None else None
        self.ratings = ratings
        self.outbox = Outbox(edit_interval)
        self._delivering: dict[int, asyncio.Lock] = {}  # tournament id -> one delivery of its owed notices at a time
        self._loader: asyncio.Task[None] | None = None
        service.channel_factory = self._open_thread

    async def cog_load(self) -> None:
        _handler["fn"] = self.on_button
        _clicks.add_dynamic_items(self.bot, TournamentButton)
        self.service.listeners.append(self.on_update)
        if self.service._on_table not in self.service.tables.listeners:  # re-added after a cog reload
            self.service.tables.listeners.append(self.service._on_table)
        # Tables are restored after the cogs load (setup_hook); tournaments resume once the bot is ready.
        self._loader = asyncio.create_task(self._load(), name="tournaments-load")

    async def cog_unload(self) -> None:
        if self.on_update in self.service.listeners:
            self.service.listeners.remove(self.on_update)
        if self.service._on_table in self.service.tables.listeners:
            self.service.tables.listeners.remove(self.service._on_table)
        if self._loader is not None:
            self._loader.cancel()

    async def _load(self) -> None:
        await self.bot.wait_until_ready()
        restored = await self.service.load()
        for t in restored:
            self._schedule_signup(t)
            if t.status == "running":
                self._schedule_standings(t)
        log.info("restored %d open tournament(s)", len(restored))
        for t in await self.service.owing_ended():  # ended, but the podium or a notice never went out
            self._schedule_standings(t)
            await self._deliver_owed(t)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:  # type: ignore[override]
        await self._loaded()  # slash commands too: nothing answers from a half-restored state
        return True

    # ============================================================== permissions
    async def _can_manage(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.guild_id is None:
            return False
        cfg = await self.settings.get(interaction.guild_id)
        return manages_or_has_role(interaction, cfg.organiser_role_id)

    @staticmethod
    def _channels(interaction: discord.Interaction[Any]) -> list[int]:
        """Where a command was typed, then (inside a table thread) the thread's parent channel: the one place
        every command looks for its tournament, so they all answer the same in a thread as in the channel."""
        ids = [interaction.channel_id or 0]
        parent = getattr(interaction.channel, "parent_id", None)
        if parent:
            ids.append(int(parent))
        return ids

    def _resolve(self, interaction: discord.Interaction[Any]) -> Tournament | None:
        """The open tournament of the command's channel (or of the thread's parent channel)."""
        # (commands call it after _loaded(): see interaction_check)
        for cid in self._channels(interaction):
            t = self.service.in_channel(cid)
            if t is not None:
                return t
        return None

    async def _resolve_latest(self, interaction: discord.Interaction[Any]) -> Tournament | None:
        """Like :meth:`_resolve`, else the last tournament held there (standings after the end)."""
        t = self._resolve(interaction)
        if t is not None:
            return t
        for cid in self._channels(interaction):
            t = await self.service.latest(cid)
            if t is not None:
                return t
        return None

    def _here(self, interaction: discord.Interaction[Any]) -> Tournament:
        t = self._resolve(interaction)
        if t is None:
            raise TournamentError(N_("There is no tournament in this channel."))
        return t

    def _here_id(self, interaction: discord.Interaction[Any]) -> int:
        t = self._resolve(interaction)
        return t.id if t is not None else 0  # 0: the service answers "does not exist"

    # ============================================================== Discord side effects
    async def _open_thread(self, t: Tournament, rt: RoundTable, names: list[str]) -> int:
        channel: Any = self.bot.get_channel(t.channel_id) or await self.bot.fetch_channel(t.channel_id)
        with using(await channel_locale(self.bot, t.guild_id)):
            name = thread_name(t.id, rt.round, rt.table_no)
        # A restart between creating the thread and saving its id would otherwise open a second, empty one: the
        # name is unique to this tournament table (in whichever language the server had then), and active threads
        # are in the cache from GUILD_CREATE.
        known = thread_names(t.id, rt.round, rt.table_no)
        existing = next((th for th in getattr(channel, "threads", ()) if th.name in known), None)
        if existing is not None:
            return int(existing.id)
        thread = await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        return int(thread.id)

    async def on_update(self, u: TournamentUpdate) -> None:
        t = u.tournament
        if u.kind in ("signup", "started", "cancelled"):
            self._schedule_signup(t)
        if u.kind in ("round", "table", "standings", "finished", "cancelled", "started", "withdrew"):
            self._schedule_standings(t)
        if u.kind in ("round", "resumed", "finished", "cancelled", "withdrew"):
            await self._deliver_owed(t)  # what the change owes (written with it): notices, announcements, podium
        if u.kind == "round":
            tables_cog: Any = self.bot.get_cog("Tables")
            for rt in u.tables:
                if tables_cog is not None and rt.table_id is not None and rt.table_id in self.service.tables.tables:
                    await tables_cog.show_table(self.service.tables.tables[rt.table_id])

    async def _send_podium(self, t: Tournament, nonce: str) -> int:
        """Post the final podium (owed: created with ``nonce``), with the standings picture when the server shows
        pictures; returns the message id."""
        rows = await self.service.standings(t.id)
        podium = [s for s in rows if s.rank <= 3]
        with using(await channel_locale(self.bot, t.guild_id)) as code:
            lines = standings_lines(t, podium, limit=10)
            head = _("🏆 **{title} — final podium**", title=t.display_title())
            board = await self._board(t, podium, _("🏆 {title} — final podium", title=t.display_title()))
            alt = _("Standings: ranks, names, totals, ratings and recent form")
        if board is not None and self.pictures is not None:
            picture = await self.pictures.png("podium", (code, board.key()), lambda: render_standings(board))
            msg = picture_layout(board.title, lines, picture=picture[0] if picture else None, alt=alt)
            file = discord.File(io.BytesIO(picture[1]), filename=picture[0]) if picture else None
            return await send_owed(self.bot, t.channel_id, nonce, None, file=file, view=msg.view)
        return await send_owed(self.bot, t.channel_id, nonce, head + "\n" + "\n".join(lines))

    async def _deliver_owed(self, t: Tournament) -> None:
        """Send the round notices the tournament owes (:meth:`TournamentService._owe_round`), in order, each once:
        created with its nonce, marked sent when Discord accepted it, retried on a 5xx or a network error, given up
        (and recorded) on a 4xx that cannot succeed. One delivery at a time per tournament."""
        async with self._delivering.setdefault(t.id, asyncio.Lock()):
            store = self.service.outbox
            for row in await store.pending(tournament_id=t.id):
                # a retry time stored by an earlier run stands
                await asyncio.sleep(max(0.0, row.next_attempt_at - store.clock()))
                while True:
                    try:
                        if row.kind == "podium":
                            await store.sent(row.id, await self._send_podium(t, row.nonce))
                            break
                        with using(await channel_locale(self.bot, t.guild_id)):
                            where = await self.service.owed_text(t, row.kind, row.payload)
                        if where is None or where[0] is None:
                            break  # its thread is not open yet: the next update (or start) sends it
                        mentions = discord.AllowedMentions(users=True) if row.kind == "seats" else None
                        mid = await send_owed(self.bot, where[0], row.nonce, where[1], allowed_mentions=mentions)
                        await store.sent(row.id, mid)
                        break
                    except Exception as err:
                        if not transient(err):
                            await store.dropped(row.id, f"{type(err).__name__}: {err}")
                            log.error("owed tournament message %s refused, given up: %s", row.key, err)
                            break
                        wait = await store.retry_later(row, f"{type(err).__name__}: {err}", retry_after(err))
                        log.warning("owed tournament message %s failed (%s); again", row.key, err)
                        await asyncio.sleep(max(0.0, wait - store.clock()))

    async def _board(
        self, t: Tournament, rows: list[Standing], title: str, *, show: bool | None = None
    ) -> Standings | None:
        """The standings picture's data (in the current locale), ``None`` when the server shows no pictures: the
        same rows, scores and words as :func:`standings_lines`, plus each player's rating and recent form."""
        if self.pictures is None or not rows:
            return None
        if not (show if show is not None else await self.pictures.for_guild(t.guild_id)):
            return None
        primary = registry.currency(t.game)
        humans = [s.user_id for s in rows if s.user_id]
        ledger = self.ratings.ledger if self.ratings is not None else None
        form = await recent_form(ledger, t.guild_id, humans, currency=primary, game=t.game) if ledger else {}
        out = []
        for s in rows[:20]:
            rating = None
            got = await self.ratings.get(t.guild_id, t.game, s.user_id) if self.ratings and s.user_id else None
            if got is not None:
                label = _("{mu} ± {sigma}", mu=tenths(got.mu), sigma=tenths(got.sigma))
                rating = Rating(got.mu, got.sigma, label)
            extra = _n("{n} table win", "{n} table wins", s.tables_won)
            out.append(StandingRow(s.rank, s.name, s.score, amount_text(s.score, primary), rating,
                                   form.get(s.user_id, ()), extra))  # fmt: skip
        return Standings(title, tuple(out))

    # ------------------------------------------------------------------ the sign-up message
    def _schedule_signup(self, t: Tournament) -> None:
        self.outbox.schedule(("signup", t.id), lambda: self._render_signup(t))

    async def _signup_embed(self, t: Tournament) -> tuple[discord.Embed, discord.ui.View | None]:
        """The sign-up message (a channel message: call inside the channel's locale)."""
        players = await self.service.players(t.id)
        # options as typed in /tournament create (name=value): data, not words
        opts = ", ".join(f"{k}={v}" for k, v in sorted(t.options.items())) or _("defaults")
        if t.hands_per_round == 0:
            hands = _("full game per table")
        else:
            hands = _n("{n} hand per table", "{n} hands per table", t.hands_per_round)
        fill = _("computers") if t.fill == "computer" else _("byes")
        desc = (
            _(
                "Host: {host} · {rounds} · {hands} · fill: {fill} · options: {options}",
                host="<@" + str(t.host_id) + ">",
                rounds=_n("{n} round", "{n} rounds", t.rounds),
                hands=hands,
                fill=fill,
                options=opts,
            )
            + "\n"
            + _(
                "Click **{join}** to play. The host (or an organiser) clicks **{start}**. `{rules}` explains "
                "the draw and the standings.",
                join=ui.label(ui.JOIN),
                start=ui.label(ui.START),
                rules=ui.command("tournament rules"),
            )
        )
        embed = discord.Embed(title=_("🏆 {title} — sign-up", title=t.display_title()), description=desc, colour=COLOUR)
        names = "\n".join(f"{i}. {p.name}" for i, p in enumerate(players, start=1)) or "—"
        embed.add_field(name=_("Players ({n})", n=len(players)), value=names[:1024], inline=False)
        if t.status != "signup":
            state = _("sign-up closed") if t.status != "cancelled" else _p("tournament", "cancelled")
            embed.title = _("🏆 {title} — {state}", title=t.display_title(), state=state)
            return embed, None
        view = discord.ui.View(timeout=None)
        view.add_item(TournamentButton.make(t.id, "join", ui.label(ui.JOIN), discord.ButtonStyle.success))
        view.add_item(TournamentButton.make(t.id, "leave", ui.label(ui.LEAVE), discord.ButtonStyle.secondary))
        view.add_item(TournamentButton.make(t.id, "start", ui.label(ui.START), discord.ButtonStyle.primary))
        return embed, view

    async def _render_signup(self, t: Tournament) -> None:
        with using(await channel_locale(self.bot, t.guild_id)):
            embed, view = await self._signup_embed(t)
        await self._put(t, "signup", embed, view)

    async def _put(self, t: Tournament, key: str, embed: discord.Embed, view: discord.ui.View | None) -> None:
        channel = self.bot.get_partial_messageable(t.channel_id)
        mid = t.messages.get(key)
        if mid is not None:
            try:
                await channel.get_partial_message(mid).edit(embed=embed, view=view)
                return
            except discord.NotFound:
                pass  # deleted: post a fresh one
        msg = await channel.send(embed=embed, view=view) if view is not None else await channel.send(embed=embed)
        t.messages[key] = msg.id
        await self.service.set_message(t.id, key, msg.id)

    # ------------------------------------------------------------------ the live standings message
    def _schedule_standings(self, t: Tournament) -> None:
        self.outbox.schedule(("standings", t.id), lambda: self._render_standings(t))

    async def _standings_embed(self, t: Tournament) -> discord.Embed:
        """The standings (call inside the locale of whoever reads them: the channel, or a private reply)."""
        rows = await self.service.standings(t.id)
        if t.status == "running":
            state = _("round {round} of {rounds}", round=t.current_round, rounds=t.rounds)
        elif t.status == "finished":
            state = _p("standings", "final")
        elif t.status == "cancelled":
            state = _p("tournament", "cancelled")
        else:
            state = _("sign-up")
        embed = discord.Embed(
            title=_("📊 {title} — standings ({state})", title=t.display_title(), state=state),
            description="\n".join(standings_lines(t, rows))[:4096] or _("No results yet."),
            colour=COLOUR,
        )
        if t.status == "running":
            tables = await self.service.round_tables(t.id, t.current_round)
            done = sum(1 for rt in tables if rt.status in ("finished", "cancelled"))
            embed.set_footer(
                text=_n(
                    "Round {round}: {done}/{n} table finished",
                    "Round {round}: {done}/{n} tables finished",
                    len(tables),
                    round=t.current_round,
                    done=done,
                )
            )
        return embed

    async def _render_standings(self, t: Tournament) -> None:
        if t.status == "signup":
            return
        with using(await channel_locale(self.bot, t.guild_id)) as code:
            embed = await self._standings_embed(t)
            rows = await self.service.standings(t.id)
            board = await self._board(t, rows, embed.title or "")
            alt = _("Standings: ranks, names, totals, ratings and recent form")
        lines = (embed.description or "").split("\n")
        footer = embed.footer.text or ""
        if board is None or self.pictures is None:
            if not _is_v2_standings(t):
                await self._put(t, "standings", embed, None)
                return
            # a V2 message stays V2 (Discord refuses embeds on it): the same text, no picture
            await self._put_layout(
                t, picture_layout(embed.title or "", lines, picture=None, alt="", footer=footer), None
            )
            return
        # the same text as the embed, in a V2 layout under the picture
        name, data = await self.pictures.png("standings", (code, board.key()), lambda: render_standings(board))
        msg = picture_layout(board.title, lines, picture=name, alt=alt, footer=footer)
        await self._put_layout(t, msg, (name, data))

    async def _put_layout(self, t: Tournament, msg: Any, picture: tuple[str, bytes] | None) -> None:
        """Edit (or post) the standings message as a V2 layout; ``picture`` replaces its attachment (None: none)."""
        channel = self.bot.get_partial_messageable(t.channel_id)
        mid = t.messages.get("standings")

        def files() -> list[discord.File]:
            return [discord.File(io.BytesIO(picture[1]), filename=picture[0])] if picture else []

        if mid is not None:
            try:
                await channel.get_partial_message(mid).edit(
                    content=None, embed=None, view=msg.view, attachments=files()
                )
                if not _is_v2_standings(t):
                    await self.service.set_message(t.id, V2_STANDINGS, mid)
                return
            except discord.NotFound:
                pass  # deleted: post a fresh one
        kw: dict[str, Any] = {"file": files()[0]} if picture else {}
        sent = await channel.send(view=msg.view, **kw)
        t.messages["standings"] = sent.id
        await self.service.set_message(t.id, "standings", sent.id)
        await self.service.set_message(t.id, V2_STANDINGS, sent.id)

    # ============================================================== buttons
    async def _loaded(self) -> None:
        """Clicks that arrive right after a restart wait for the tournaments to be restored."""
        if self._loader is not None and not self._loader.done():
            await asyncio.shield(self._loader)

    async def on_button(self, interaction: discord.Interaction[Any], tid: int, op: str) -> None:
        await self._loaded()
        locale = await reader_locale(self.bot, interaction)
        try:
            if op == "join":
                await self.service.join(tid, interaction.user.id, interaction.user.display_name)
                with using(locale):
                    text = _("You are signed up. Good luck!")
                await interaction.response.send_message(text, ephemeral=True)
            elif op == "leave":
                t = self.service.get(tid)
                await self.service.leave(tid, interaction.user.id)
                with using(locale):
                    text = (
                        _("You left the sign-up list.")
                        if t.status == "signup"
                        else _("You withdrew from the tournament.")
                    )
                await interaction.response.send_message(text, ephemeral=True)
            elif op == "start":
                await interaction.response.defer(ephemeral=True, thinking=True)
                await self.service.start(tid, interaction.user.id, can_manage=await self._can_manage(interaction))
                with using(locale):
                    text = _("The tournament has started: round 1 is drawn.")
                await interaction.followup.send(text, ephemeral=True)
            else:
                raise TournamentError(N_("Unknown control."))
        except (TournamentError, TableError) as e:
            await self._refuse(interaction, e, locale)

    async def _refuse(self, interaction: discord.Interaction[Any], err: Exception, locale: str | None = None) -> None:
        """A refusal of the services, privately, in the reader's language."""
        with using(locale or await reader_locale(self.bot, interaction)):
            text = error_text(err)
        await reply_privately(interaction, text)

    async def _say(self, interaction: discord.Interaction[Any], msgid: str, **params: Any) -> None:
        """A private reply from the catalogue, in the reader's language."""
        with using(await reader_locale(self.bot, interaction)):
            text = _(msgid, **params)
        await reply_privately(interaction, text)

    # ============================================================== commands
    @group.command(name="create", description="Open a tournament in this channel (sign-up with buttons)")
    @app_commands.describe(
        game="Which game",
        rounds="Number of rounds (every round draws new tables)",
        hands_per_round="Hands per table and round (Minchiate: 1 or 4 deals; Wizard: rounds 1..k, 0 = full game)",
        stake="Stake per unit (Mediatore/Mighty stake, Wizard per point, Minchiate per resto)",
        fill="Who takes the seats left over: computers (default) or byes",
        wizard_rounds="Wizard only: the hand sizes to play, e.g. 1-5 or 1,3,5 (overrides hands_per_round)",
        open_records="Anyone may replay every hand with all its cards once it is over (default off)",
        turn_timer=TURN_TIMER_HELP,
    )
    @app_commands.choices(fill=FILL_CHOICES)
    @app_commands.autocomplete(game=game_autocomplete)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        rounds: app_commands.Range[int, 1, 50],
        hands_per_round: app_commands.Range[int, 0, 1000] | None = None,
        stake: app_commands.Range[int, 0, 1_000_000] | None = None,
        fill: str = "computer",
        wizard_rounds: str | None = None,
        open_records: bool | None = None,
        turn_timer: TurnTimer | None = None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if getattr(interaction.channel, "parent_id", None) is not None:
            await self._say(interaction, N_("Open tournaments in a text channel (tables get threads of it)."))
            return
        cfg = await self.settings.get(interaction.guild_id)
        if cfg.organiser_role_id is not None and not await self._can_manage(interaction):
            await self._say(interaction, N_("Only organisers can open tournaments on this server."))
            return
        try:
            parsed = parse_rounds(wizard_rounds)
        except ValueError:  # (parse_rounds says it in English: ours is the catalogue's)
            await self._say(interaction, N_("`wizard_rounds` is `all`, a range like `1-5`, or a list like `1,2,3`."))
            return
        try:
            t = await self.service.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                game=game,
                rounds=rounds,
                hands_per_round=hands_per_round,
                stake=stake,
                fill=fill,
                wizard_rounds=parsed if isinstance(parsed, list) else None,
                open_records=bool(open_records),
                turn_timeout=turn_timer,
            )
        except TournamentError as e:
            await self._refuse(interaction, e)
            return
        with using(await reader_locale(self.bot, interaction)):
            text = _(
                "{title} is open for sign-up (you are on the list). Click **{start}** when everyone has joined.",
                title=t.display_title(),
                start=ui.label(ui.START),
            )
        await interaction.response.send_message(text, ephemeral=True)
        self._schedule_signup(t)  # (the service's "signup" update scheduled it too: the outbox coalesces)

    @group.command(name="join", description="Sign up for the tournament in this channel")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self.on_button(interaction, self._here_id(interaction), "join")

    @group.command(name="leave", description="Leave the sign-up list (or withdraw once it runs)")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.on_button(interaction, self._here_id(interaction), "leave")

    @group.command(name="start", description="Host/organiser: close sign-up and draw round 1")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self.on_button(interaction, self._here_id(interaction), "start")

    @group.command(name="withdraw", description="Leave a running tournament for good (the computer ends your table)")
    async def withdraw(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.service.withdraw(self._here(interaction).id, interaction.user.id)
        except (TournamentError, TableError) as e:
            await self._refuse(interaction, e)
            return
        with using(await reader_locale(self.bot, interaction)):
            text = _("You withdrew. Your results so far stay in the standings.")
        await interaction.response.send_message(text, ephemeral=True)

    @group.command(name="standings", description="The standings of the tournament in this channel")
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        t = await self._resolve_latest(interaction)
        if t is None:
            await self._say(interaction, N_("There has been no tournament in this channel."))
            return
        show = self.pictures is not None and await self.pictures.for_user(t.guild_id, interaction.user.id)
        with using(await reader_locale(self.bot, interaction)) as code:
            embed = await self._standings_embed(t)
            board = await self._board(t, await self.service.standings(t.id), embed.title or "", show=show)
            alt = _("Standings: ranks, names, totals, ratings and recent form")
        if board is None or self.pictures is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        picture = await self.pictures.png("standings", (code, board.key()), lambda: render_standings(board))
        lines = (embed.description or "").split("\n")
        await send_picture_message(interaction.followup.send, board.title, lines, picture=picture, alt=alt,
                                   footer=embed.footer.text or "", ephemeral=True)  # fmt: skip

    @group.command(name="rules", description="How tournaments draw tables and rank players")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        with using(await reader_locale(self.bot, interaction)):
            embed = discord.Embed(
                title=_("🏆 Tournament rules"),
                description=_(RULES_TEXT, withdraw=ui.command("tournament withdraw"))[:4096],
                colour=COLOUR,
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="cancel", description="Host/organiser: cancel the tournament in this channel")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        try:
            t = self._here(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.service.cancel(t.id, interaction.user.id, can_manage=await self._can_manage(interaction))
        except (TournamentError, TableError) as e:
            await self._refuse(interaction, e)
            return
        with using(await reader_locale(self.bot, interaction)):
            text = _("Tournament cancelled.")
        await interaction.followup.send(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    s = services_of(bot)
    pictures = Pictures(s.guild_settings, s.preferences, s.pictures, default=s.images_default)
    await bot.add_cog(TournamentCog(bot, s.tournaments, s.guild_settings, edit_interval=s.edit_interval,
                                    pictures=pictures, ratings=s.ratings))  # fmt: skip


def thread_name(tournament_id: int, round_no: int, table_no: int) -> str:
    """A tournament table's thread name in the current locale (ids as text: no "T1,234" in a name)."""
    return _("T{id} · round {round} · table {table}", id=str(tournament_id), round=str(round_no), table=str(table_no))


def thread_names(tournament_id: int, round_no: int, table_no: int) -> set[str]:
    """The thread's name in every language: the one it was opened under, whatever the server's language now."""
    names = set()
    for locale in SUPPORTED:
        with using(locale):
            names.add(thread_name(tournament_id, round_no, table_no))
    return names

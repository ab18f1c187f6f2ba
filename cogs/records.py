"""Hand records in Discord: ``/table replay [hand] [file]`` and ``/table export [hand]``.

A thin adapter: the pages come from :mod:`bot.tables.hand_records` (a finished hand's saved log only, public
information plus the viewer's own cards), the file format from :mod:`bot.records`. Replays are private
(ephemeral) and leafed through with ◀ ▶ and a page menu whose custom ids (``rp:``/``rq:``) carry the table,
hand and page, so they keep working after a restart. A replay of an attached file is kept in memory only.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import registry
from bot.i18n import N_, _, _p, using
from bot.i18n import names as ui
from bot.records import RecordError, format_record, parse_record
from bot.records.pages import ReplayPage, finished_hands, replay_pages
from bot.records.replay import replay
from bot.render.errors import error_text
from bot.services import services_of
from bot.tables.hand_records import hands_over, pages_of, record_of
from bot.tables.model import Table
from bot.tables.service import TableError, TableService

from . import _clicks
from ._game import reply_privately
from ._locale import reader_locale

MAX_RECORD_BYTES = 512 * 1024
FILES_KEPT = 64
EMBED_BUDGET = 5800  # Discord allows 6,000 characters per embed in all


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rp:(?P<src>[tf]\w+):(?P<hand>\d+):(?P<page>\d+):(?P<way>[pn])",
):
    def __init__(self, item: discord.ui.Button[Any], src: str, hand: int, page: int) -> None:
        super().__init__(item)
        self.src, self.hand, self.page = src, hand, page

    @classmethod
    def make(cls, src: str, hand: int, page: int, way: str, disabled: bool) -> ReplayButton:
        """``way``: "p" (◀, the previous page) or "n" (▶, the next one); ``page`` is the page it opens."""
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="◀" if way == "p" else "▶",
            custom_id=f"rp:{src}:{hand}:{max(0, page)}:{way}",
            disabled=disabled,
            style=discord.ButtonStyle.secondary,
        )
        return cls(button, src, hand, page)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match["src"], int(match["hand"]), int(match["page"]))

    @_clicks.answers_every_click
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).turn_page(interaction, self.src, self.hand, self.page)


class ReplaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"rq:(?P<src>[tf]\w+):(?P<hand>\d+)"):
    def __init__(self, item: discord.ui.Select[Any], src: str, hand: int) -> None:
        super().__init__(item)
        self.src, self.hand = src, hand

    @classmethod
    def make(cls, src: str, hand: int, pages: list[ReplayPage], current: int) -> ReplaySelect:
        options = [
            discord.SelectOption(label=p.title[:100], value=str(i), default=i == current) for i, p in enumerate(pages)
        ][:25]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"rq:{src}:{hand}", placeholder=_("Jump to a trick…"), options=options
        )
        return cls(select, src, hand)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplaySelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, match["src"], int(match["hand"]))

    @_clicks.answers_every_click
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        page = int(self.item.values[0]) if self.item.values else 0
        await _cog(interaction).turn_page(interaction, self.src, self.hand, page)


def _cog(interaction: discord.Interaction[Any]) -> RecordsCog:
    cog = interaction.client.get_cog("Records")  # type: ignore[attr-defined]
    assert isinstance(cog, RecordsCog)
    return cog


class RecordsCog(commands.Cog, name="Records"):
    def __init__(self, bot: commands.Bot, service: TableService) -> None:
        self.bot = bot
        self.service = service
        #: attached record files replayed since the start, by content digest (kept in memory only)
        self._files: OrderedDict[str, Any] = OrderedDict()
        self._commands = [self._replay_command(), self._export_command()]

    async def cog_load(self) -> None:
        _clicks.add_dynamic_items(self.bot, ReplayButton, ReplaySelect)
        group = self.bot.tree.get_command("table")
        assert isinstance(group, app_commands.Group), "cogs.tables loads first"
        for cmd in self._commands:
            group.add_command(cmd, override=True)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("table")
        if isinstance(group, app_commands.Group):
            for cmd in self._commands:
                group.remove_command(cmd.name)

    # ============================================================== commands
    def _replay_command(self) -> app_commands.Command[Any, ..., None]:
        @app_commands.describe(
            hand="Which hand (1 = the first; default: the last finished one)",
            file="A hand record file to replay instead (an exported hand, or a `tavolo play` record)",
        )
        async def replay_cmd(
            interaction: discord.Interaction[Any],
            hand: app_commands.Range[int, 1, 100_000] | None = None,
            file: discord.Attachment | None = None,
        ) -> None:
            try:
                if file is not None:
                    await self._replay_file(interaction, file, hand)
                    return
                t = await self._table_here(interaction)
                over = hands_over(t)
                if not over:
                    raise TableError(N_("No hand of this table is finished yet."))
                h = over[-1] if hand is None else hand - 1
                if h not in over:
                    raise TableError(
                        N_("Hand {n} is not finished (finished: {hands})."), n=h + 1, hands=_hand_list(over)
                    )
                await self._show(interaction, f"t{t.id}", t, h, 0, new=True)
            except TableError as e:
                await self._refuse(interaction, e)

        return app_commands.Command(
            name="replay", description="Go through a finished hand trick by trick (only for you)", callback=replay_cmd
        )

    def _export_command(self) -> app_commands.Command[Any, ..., None]:
        @app_commands.describe(hand="Which hand (1 = the first; default: the whole table)")
        async def export_cmd(
            interaction: discord.Interaction[Any], hand: app_commands.Range[int, 1, 100_000] | None = None
        ) -> None:
            try:
                t = await self._table_here(interaction)
                if t.is_open:
                    # the record holds the seed, which deals every hand: it would show cards still in play
                    raise TableError(
                        N_("A table can be exported once it is over (the record reveals every card dealt).")
                    )
                if not t.open_records and t.seat_of(interaction.user.id) is None and not _manages(interaction):
                    raise TableError(N_("Only the players of that table can export it."))
                h = None if hand is None else hand - 1
                if h is not None and h not in hands_over(t):
                    raise TableError(N_("That table has no finished hand {n}."), n=hand)
            except TableError as e:
                await self._refuse(interaction, e)
                return
            # the record file is a format (English keywords, like the CSV export): only the message is translated
            text = format_record(record_of(t, h))
            name = f"tavolo-{t.game_id}-table{t.id}" + (f"-hand{hand}" if hand else "") + ".txt"
            with using(await reader_locale(self.bot, interaction)):
                game = _p("game", registry.title(t.game_id))
                if hand:
                    reply = _(
                        "The record of {game} table #{table}, hand {n}. "
                        "Replay it with `{replay}` or `tavolo replay FILE`.",
                        replay=ui.command("table replay", file=""),
                        game=game,
                        table=str(t.id),
                        n=hand,
                    )
                else:
                    reply = _(
                        "The record of {game} table #{table}. Replay it with `{replay}` or `tavolo replay FILE`.",
                        replay=ui.command("table replay", file=""),
                        game=game,
                        table=str(t.id),
                    )
            await interaction.response.send_message(
                reply, file=discord.File(io.BytesIO(text.encode()), filename=name), ephemeral=True
            )

        return app_commands.Command(
            name="export", description="The hand record of this channel's last table as a file", callback=export_cmd
        )

    async def _table_here(self, interaction: discord.Interaction[Any]) -> Table:
        t = await self.service.latest_in_channel(interaction.channel_id or 0)
        if t is None:
            raise TableError(N_("No table has been played in this channel yet."))
        return t

    async def _refuse(self, interaction: discord.Interaction[Any], err: TableError) -> None:
        """A refusal, privately, in the reader's language."""
        with using(await reader_locale(self.bot, interaction)):
            text = error_text(err)
        await reply_privately(interaction, text)

    # ============================================================== pages
    async def turn_page(self, interaction: discord.Interaction[Any], src: str, hand: int, page: int) -> None:
        try:
            if src.startswith("f"):
                record = self._files.get(src[1:])
                if record is None:
                    raise TableError(
                        N_("That replay came from a file; attach it again with `{replay}`."),
                        replay=lambda: ui.command("table replay", file=""),
                    )
                await self._show_record(interaction, src, record, hand, page, new=False)
                return
            t = await self.service.table_with_log(int(src[1:]))
            if t is None:
                raise TableError(N_("That table no longer exists."))
            await self._show(interaction, src, t, hand, page, new=False)
        except TableError as e:
            await self._refuse(interaction, e)

    async def _show(
        self, interaction: discord.Interaction[Any], src: str, t: Table, hand: int, page: int, *, new: bool
    ) -> None:
        with using(await reader_locale(self.bot, interaction)):
            pages = pages_of(t, hand, t.seat_of(interaction.user.id))
            title = _("{game} — table #{table}", game=_p("game", registry.title(t.game_id)), table=str(t.id))
        await self._send(interaction, src, title, t.game_id, pages, hand, page, new=new)

    async def _show_record(
        self, interaction: discord.Interaction[Any], src: str, record: Any, hand: int, page: int, *, new: bool
    ) -> None:
        with using(await reader_locale(self.bot, interaction)):
            pages = replay_pages(record, hand)
            title = _("{game} — record", game=_p("game", registry.title(record.game)))
        await self._send(interaction, src, title, record.game, pages, hand, page, new=new)

    async def _send(
        self,
        interaction: discord.Interaction[Any],
        src: str,
        title: str,
        game_id: str,
        pages: list[ReplayPage],
        hand: int,
        page: int,
        *,
        new: bool,
    ) -> None:
        page = max(0, min(page, len(pages) - 1))
        with using(await reader_locale(self.bot, interaction)):
            embed = _page_embed(title, pages[page], page, len(pages), registry.get(game_id).colour)
            view = discord.ui.View(timeout=None)
            view.add_item(ReplayButton.make(src, hand, page - 1, "p", disabled=page == 0))
            view.add_item(ReplayButton.make(src, hand, page + 1, "n", disabled=page >= len(pages) - 1))
            if len(pages) > 1:
                view.add_item(ReplaySelect.make(src, hand, pages, page))
        if new:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        else:
            await interaction.response.edit_message(embed=embed, view=view)

    async def _replay_file(
        self, interaction: discord.Interaction[Any], file: discord.Attachment, hand: int | None
    ) -> None:
        if file.size > MAX_RECORD_BYTES:
            raise TableError(N_("That file is too big for a hand record."))
        raw = await file.read()
        try:
            record = parse_record(raw.decode("utf-8"))
            done = replay(record, states="none")  # validated here; its pages replay the hand they show
        except UnicodeDecodeError:
            raise TableError(N_("That file is not a text file.")) from None
        except RecordError as e:
            # worded when the reply is made, in the reader's locale (the file's own tokens stay as written)
            raise TableError(N_("That record is not valid: {reason}."), reason=e.text) from None
        over = finished_hands(done)
        if record.hand is not None and record.hand not in over:
            over = sorted({*over, record.hand})  # a record cut at one hand (``/table export hand:``)
        if not over:
            raise TableError(N_("That record holds no finished hand."))
        default = record.hand if record.hand is not None and record.hand in over else over[-1]
        h = default if hand is None else hand - 1
        if h not in over:
            raise TableError(
                N_("That record has no finished hand {n} (finished: {hands})."), n=h + 1, hands=_hand_list(over)
            )
        key = hashlib.blake2b(raw, digest_size=8).hexdigest()
        self._files[key] = record
        self._files.move_to_end(key)
        while len(self._files) > FILES_KEPT:
            self._files.popitem(last=False)
        await self._show_record(interaction, f"f{key}", record, h, 0, new=True)


def _hand_list(hands: list[int]) -> Callable[[], str]:
    """The finished hands' numbers (a lazy parameter: "none" is a word of the reader's language)."""
    return lambda: ", ".join(str(h + 1) for h in hands) or _p("hands", "none")


def _manages(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


def _page_embed(title: str, page: ReplayPage, index: int, count: int, colour: int) -> discord.Embed:
    """One page within Discord's embed limits (6,000 characters in all, 1,024 a field, 25 fields); call inside the
    reader's locale."""
    embed = discord.Embed(title=f"{title} — {page.title}"[:256], colour=colour)
    budget = EMBED_BUDGET - len(embed.title or "")
    desc = "\n".join(page.lines)[:2000] or "—"
    embed.description = desc
    budget -= len(desc)
    fields: list[tuple[str, str]] = []
    if page.hands:
        fields.append((_("Hands at the deal"), "\n".join(f"{n}: {c}" for n, c in page.hands)))
    fields += [(s.name, s.value) for s in page.public.sections]
    if page.own is not None:  # what only the viewer saw: their private sections
        public = {(s.name, s.value) for s in page.public.sections}
        fields += [(s.name, s.value) for s in page.own.sections if (s.name, s.value) not in public]
    for name, value in fields[:24]:
        name, value = (name or "\u200b")[:256], (value or "—")[:1024]
        if len(name) + len(value) > budget:
            break
        embed.add_field(name=name, value=value, inline=False)
        budget -= len(name) + len(value)
    embed.set_footer(
        text=_("Page {page} of {count} · only public cards and your own are shown", page=index + 1, count=count)
    )
    return embed


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RecordsCog(bot, services_of(bot).tables))

"""Turn Discord-free :class:`~bot.render.base.Panel` objects into embeds and persistent components.

Every component is a ``DynamicItem`` whose ``custom_id`` carries what is needed to route a click after
a restart: ``tb:<table>:<op>:<version>:<arg>`` for buttons and ``ts:<table>:<op>:<version>:<arg>`` for
selects. Action choices carry the action itself as compact JSON (or ``#<n>``, its index in the seat's
legal actions at that version, when the JSON would not fit in Discord's 100 characters).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.engine.protocol import Action
from bot.i18n import _, using
from bot.render.base import Control, Panel

from ._locale import reader_locale

CUSTOM_ID_MAX = 100
VALUE_MAX = 100

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

Handler = Callable[[discord.Interaction[Any], int, str, int, str, list[str]], Any]
_handler: dict[str, Handler] = {}


def set_handler(fn: Handler) -> None:
    """The tables cog registers the one function every table click is routed to."""
    _handler["fn"] = fn


async def _dispatch(
    interaction: discord.Interaction[Any], tid: int, op: str, ver: int, arg: str, values: list[str]
) -> None:
    fn = _handler.get("fn")
    if fn is None:
        with using(await reader_locale(interaction.client, interaction)):
            text = _("Tavolo is starting up; try again in a moment.")
        await interaction.response.send_message(text, ephemeral=True)
        return
    await fn(interaction, tid, op, ver, arg, values)


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tb:(?P<tid>\d+):(?P<op>[a-z]+):(?P<ver>\d+):(?P<arg>.*)",
):
    def __init__(self, item: discord.ui.Button[Any], tid: int, op: str, ver: int, arg: str) -> None:
        super().__init__(item)
        self.tid, self.op, self.ver, self.arg = tid, op, ver, arg

    @classmethod
    def make(
        cls,
        tid: int,
        op: str,
        label: str,
        *,
        ver: int = 0,
        arg: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        disabled: bool = False,
    ) -> TableButton:
        cid = f"tb:{tid}:{op}:{ver}:{arg}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80], style=style, custom_id=cid, row=row, disabled=disabled
        )
        return cls(button, tid, op, ver, arg)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["tid"]), match["op"], int(match["ver"]), match["arg"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.tid, self.op, self.ver, self.arg, [])


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ts:(?P<tid>\d+):(?P<op>[a-z]+):(?P<ver>\d+):(?P<arg>.*)",
):
    def __init__(self, item: discord.ui.Select[Any], tid: int, op: str, ver: int, arg: str) -> None:
        super().__init__(item)
        self.tid, self.op, self.ver, self.arg = tid, op, ver, arg

    @classmethod
    def make(
        cls,
        tid: int,
        op: str,
        ver: int,
        arg: str,
        placeholder: str,
        options: Sequence[tuple[str, str, str | None]],
        *,
        count: int = 1,
        row: int | None = None,
    ) -> TableSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ts:{tid}:{op}:{ver}:{arg}",
            placeholder=placeholder[:150] or None,
            min_values=count,
            max_values=count,
            options=[
                discord.SelectOption(label=label[:100], value=value, description=(desc or None) and desc[:100])
                for label, value, desc in options
            ],
            row=row,
        )
        return cls(select, tid, op, ver, arg)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, int(match["tid"]), match["op"], int(match["ver"]), match["arg"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.tid, self.op, self.ver, self.arg, list(self.item.values))


# ---------------------------------------------------------------------------------------------------- encoding
def encode_action(action: Action, legal: Sequence[Action], budget: int) -> str:
    """Compact JSON of ``action``, or ``#n`` (its index in ``legal``) when the JSON is too long."""
    text = json.dumps(action, separators=(",", ":"), sort_keys=True)
    if len(text) <= budget:
        return text
    for i, a in enumerate(legal):
        if a == action:
            return f"#{i}"
    raise ValueError(f"action too long for a custom_id and not in the legal list: {text}")


def decode_action(arg: str, legal_at: Callable[[], Sequence[Action]]) -> Action | None:
    if arg.startswith("#"):
        legal = legal_at()
        i = int(arg[1:])
        return dict(legal[i]) if 0 <= i < len(legal) else None
    try:
        value = json.loads(arg)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# ---------------------------------------------------------------------------------------------------- panels
def embed_of(panel: Panel, colour: int) -> discord.Embed:
    embed = discord.Embed(title=panel.title[:256], description=panel.description[:4096] or None, colour=colour)
    for s in panel.sections[:25]:
        embed.add_field(name=s.name[:256] or "\u200b", value=s.value[:1024] or "—", inline=s.inline)
    if panel.footer:
        embed.set_footer(text=panel.footer[:2048])
    return embed


def view_of(
    panel: Panel, tid: int, ver: int, legal: Sequence[Action], extra: Sequence[discord.ui.Item[Any]] = ()
) -> discord.ui.View | None:
    """Components for a seat's panel; ``extra`` items (already built) go in the last free row."""
    view = discord.ui.View(timeout=None)
    for r, items in enumerate(control_rows(panel, tid, ver, legal, extra)):
        for item in items:
            item.row = r
            view.add_item(item)
    return view if view.children else None


def control_rows(
    panel: Panel, tid: int, ver: int, legal: Sequence[Action], extra: Sequence[discord.ui.Item[Any]] = ()
) -> list[list[discord.ui.Item[Any]]]:
    """A seat's controls as at most 5 rows of items (a select alone in its row, at most 5 buttons in one); the
    same rows become a legacy view's rows or a layout's action rows. ``extra`` items go in the last free row."""
    rows: list[list[discord.ui.Item[Any]]] = []
    for control in panel.controls:
        _add_control(rows, control, tid, ver, legal)
        if len(rows) >= 5:
            break
    del rows[5:]
    if extra and len(rows) < 5:
        rows.append(list(extra)[:5])
    return rows


def _add_control(
    rows: list[list[discord.ui.Item[Any]]], c: Control, tid: int, ver: int, legal: Sequence[Action]
) -> None:
    prefix = len(f"tb:{tid}:act:{ver}:")
    if c.kind == "buttons":
        for i, ch in enumerate(c.choices[:25]):
            if i % 5 == 0:
                if len(rows) >= 5:
                    break
                rows.append([])
            arg = encode_action(ch.action, legal, CUSTOM_ID_MAX - prefix)
            rows[-1].append(TableButton.make(tid, "act", ch.label, ver=ver, arg=arg, style=STYLES[ch.style]))
        return
    if c.kind == "select":
        opts = [(ch.label, encode_action(ch.action, legal, VALUE_MAX), ch.description) for ch in c.choices[:25]]
        # the row index names the select (its custom id must be unique on the message), as it always has
        rows.append([TableSelect.make(tid, "pick", ver, str(len(rows)), c.placeholder or _("Choose…"), opts)])
        return
    # combo: one exact-count select per field, then a Confirm button carrying the fixed part of the action
    for f in c.fields:
        if len(rows) > 3:
            break
        opts = [(label, value, None) for label, value in f.options[:25]]
        count = min(f.count, len(opts))
        rows.append([TableSelect.make(tid, "field", ver, f.key, f.placeholder, opts, count=count)])
    base = encode_action(c.base_action or {}, legal, CUSTOM_ID_MAX - len(f"tb:{tid}:ok:{ver}:"))
    rows.append([TableButton.make(tid, "ok", _("Confirm"), ver=ver, arg=base, style=discord.ButtonStyle.success)])

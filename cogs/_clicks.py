"""Every click on a persistent button or menu gets an answer — also a late one.

discord.py hands a click to a ``DynamicItem`` only while the message still holds that custom id. A lagging
client (or a double click) can send a click on a component the bot has already removed — the proposal answered,
the confirmation done, the page turned — and discord.py then drops it: the user sees "This interaction failed".
:func:`add_dynamic_items` registers the items as discord.py does *and* routes such late clicks to the same item's
callback, which answers from the state of things (e.g. "This payment is already confirmed and recorded.").

:func:`answers_every_click` wraps a callback so that no click goes unanswered even when the callback returns
without answering or fails: the clicker then reads, privately, that the question is no longer open, or that
something went wrong. (The table components have their own late route:
:meth:`cogs.tables.cog.TablesCog.on_interaction`.)
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import discord

from bot.i18n import N_, _, using
from bot.transport import interaction_log

from ._locale import reader_locale

__all__ = ["NO_LONGER_OPEN", "add_dynamic_items", "answers_every_click", "custom_ids", "is_late"]

log = logging.getLogger(__name__)

NO_LONGER_OPEN = N_("This was already answered: it is no longer open.")
SOMETHING_WENT_WRONG = N_("Something went wrong; nothing was changed.")

Item = type[discord.ui.DynamicItem[Any]]
#: the items each bot routes late clicks to (a bot of the tests' may come and go: weak keys)
_ROUTED: WeakKeyDictionary[Any, list[Item]] = WeakKeyDictionary()

F = TypeVar("F", bound=Callable[..., Awaitable[None]])


def custom_ids(components: list[Any]) -> set[str]:
    """Every custom id on a message's components (action rows, V2 containers and sections included)."""
    out: set[str] = set()
    for c in components:
        cid = getattr(c, "custom_id", None)
        if cid:
            out.add(cid)
        out |= custom_ids(list(getattr(c, "children", []) or []))
        accessory = getattr(c, "accessory", None)
        if accessory is not None:
            out |= custom_ids([accessory])
    return out


def is_late(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether this click's component is no longer on its message (its question was answered meanwhile)."""
    message = interaction.message
    return message is not None and custom_id not in custom_ids(list(message.components))


async def _say(interaction: discord.Interaction[Any], msgid: str) -> None:
    """A private answer from the catalogue, whether or not the click was acknowledged already."""
    with using(await reader_locale(interaction.client, interaction)):
        text = _(msgid)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as e:
        if not interaction_log.is_expired(e):
            raise
        log.info("could not answer %s: the interaction %s", interaction_log.describe(interaction),
                 interaction_log.reason(e))  # fmt: skip


def answers_every_click(callback: F) -> F:
    """Wrap an item's ``callback``: if it returns without answering, the clicker reads :data:`NO_LONGER_OPEN`; if
    it fails, the error is logged and the clicker reads that nothing was changed (instead of a failed click)."""

    @functools.wraps(callback)
    async def wrapper(self: Any, interaction: discord.Interaction[Any], *args: Any, **kwargs: Any) -> None:
        try:
            await callback(self, interaction, *args, **kwargs)
        except Exception:
            log.exception("click on %s failed", getattr(self, "custom_id", "?"))
            if not interaction.response.is_done():
                await _say(interaction, SOMETHING_WENT_WRONG)
            return
        if not interaction.response.is_done():
            await _say(interaction, NO_LONGER_OPEN)

    return wrapper  # type: ignore[return-value]


def add_dynamic_items(bot: Any, *items: Item) -> None:
    """``bot.add_dynamic_items(*items)``, and a route for the clicks discord.py drops (see the module docstring)."""
    bot.add_dynamic_items(*items)
    routed = _ROUTED.get(bot)
    if routed is None:
        routed = _ROUTED[bot] = []

        async def on_interaction(interaction: discord.Interaction[Any]) -> None:
            await _route_late(routed, interaction)

        bot.add_listener(on_interaction, "on_interaction")
    routed.extend(i for i in items if i not in routed)


async def _route_late(items: list[Item], interaction: discord.Interaction[Any]) -> None:
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    cid = str(data.get("custom_id", ""))
    if not is_late(interaction, cid):
        return  # on the message: discord.py routes it to the item itself
    for factory in items:
        match = factory.__discord_ui_compiled_template__.fullmatch(cid)
        if match is not None:
            break
    else:
        return  # not one of ours
    # the component is gone from the message: the item is rebuilt from its custom id alone, as after a restart
    base: discord.ui.Item[Any]
    if data.get("component_type") == discord.ComponentType.button.value:
        base = discord.ui.Button(custom_id=cid)
    else:
        base = discord.ui.Select(custom_id=cid)
    try:
        item = await factory.from_custom_id(interaction, base, match)
        item._refresh_state(interaction, data)  # type: ignore[arg-type]  # (a menu's values, as discord.py does)
        await item.callback(interaction)
    except Exception:
        log.exception("late click on %s failed", cid)
    if not interaction.response.is_done():
        await _say(interaction, NO_LONGER_OPEN)

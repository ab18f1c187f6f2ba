"""Ledger pictures as Discord messages: charts, standings and recaps, rendered off the event loop and cached.

A picture is drawn from the same data object as the text beside it; the message is a Components V2 layout
(:func:`cogs._layout.layout_message`) with the picture, or the text alone when the reader (or the server, for a
public post) turned pictures off — the same settings the table pictures follow.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import Any

import discord

from bot.images.cache import content_key
from bot.render.base import Panel, Section

from ._layout import Message, layout_message
from ._pictures import Pictures

__all__ = ["LedgerPictures", "send_picture_message"]

COLOUR = 0xF1C40F


class LedgerPictures:
    """The picture settings and cache of :class:`~cogs._pictures.Pictures`, for pictures that are not scenes."""

    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures
        self.rendered = 0  # pictures drawn (cache misses), for the tests

    async def for_guild(self, guild_id: int | None) -> bool:
        return await self.pictures.for_guild(guild_id)

    async def for_user(self, guild_id: int | None, user_id: int) -> bool:
        return await self.pictures.for_user(guild_id, user_id)

    async def png(self, kind: str, key: tuple[Any, ...], render: Callable[[], bytes]) -> tuple[str, bytes]:
        """``(file name, PNG)``: equal content, equal name and one drawing (in a worker thread: matplotlib and
        Pillow take 0.05-0.3 s, the event loop keeps answering meanwhile)."""
        name = f"{kind}-{content_key(kind, *key)[:24]}.png"
        cache = self.pictures.cache
        data = cache.get(name)
        if data is None:
            data = await asyncio.to_thread(render)
            cache.put(name, data)
            self.rendered += 1
        return name, data


def picture_layout(title: str, lines: list[str], *, picture: str | None, alt: str, footer: str = "") -> Message:
    """The V2 message: title, the picture, the same facts as text (screen readers, pictures off)."""
    panel = Panel(title=title, sections=[Section(" ", "\n".join(lines))], footer=footer)
    return layout_message(panel, COLOUR, [], picture=picture, alt=alt)


async def send_picture_message(
    send: Callable[..., Any],
    title: str,
    lines: list[str],
    *,
    picture: tuple[str, bytes] | None,
    alt: str,
    footer: str = "",
    **kw: Any,
) -> Any:
    """Send through ``send`` (``interaction.response.send_message``, ``channel.send``…): the V2 layout with the
    picture attached, or, without a picture, the same layout text only."""
    msg = picture_layout(title, lines, picture=picture[0] if picture else None, alt=alt, footer=footer)
    if picture is not None:
        kw["file"] = discord.File(io.BytesIO(picture[1]), filename=picture[0])
    return await send(view=msg.view, allowed_mentions=discord.AllowedMentions.none(), **kw)

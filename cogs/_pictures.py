"""Which messages show card pictures, and the pictures as files: rendered once per content, off the event loop.

A player's own messages (DM, ephemeral hand) follow their ``/table images`` choice, else the server's
``/tavolo config images:``, else the process default; the table message, seen by everyone, follows the server.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.images import ImageCache
from bot.images.scene import Scene, scene_key
from bot.preferences import Preferences
from bot.tournaments import GuildSettings


class Pictures:
    def __init__(
        self,
        guild_settings: GuildSettings | None,
        preferences: Preferences | None,
        cache: ImageCache | None,
        *,
        default: bool = True,
    ) -> None:
        self.guild_settings = guild_settings
        self.preferences = preferences
        self.cache = cache if cache is not None else ImageCache()
        self.default = default
        self.rendered = 0  # pictures drawn (cache misses), for the benchmark

    async def for_guild(self, guild_id: int | None) -> bool:
        if guild_id is not None and self.guild_settings is not None:
            chosen = await self.guild_settings.images(guild_id)
            if chosen is not None:
                return chosen
        return self.default

    async def for_user(self, guild_id: int | None, user_id: int) -> bool:
        if self.preferences is not None:
            chosen = await self.preferences.images(user_id)
            if chosen is not None:
                return chosen
        return await self.for_guild(guild_id)

    @staticmethod
    def filename(kind: str, scene: Scene) -> str:
        """The attachment's name: equal pictures, equal names (so an unchanged picture is never sent again)."""
        return f"{kind}-{scene_key(scene)}.png"

    async def file(self, scene: Scene, filename: str) -> discord.File:
        data = self.cache.get(filename)
        if data is None:
            # drawing takes 5-30 ms of Pillow work: a worker thread keeps the event loop answering clicks
            data = await asyncio.to_thread(scene.render, None)
            self.cache.put(filename, data)
            self.rendered += 1
        return discord.File(io.BytesIO(data), filename=filename)


#: How long a response may take to draw before the interaction is acknowledged first: Discord allows 3 s from
#: the click, and a click can reach the bot late (gateway, a busy event loop).
ACK_PATIENCE = 1.0

T = TypeVar("T")


async def in_time(
    interaction: discord.Interaction[Any],
    build: Awaitable[T],
    *,
    ephemeral: bool = False,
    patience: float | None = None,
) -> tuple[T, bool]:
    """``build`` (what a response carries, its picture included), and whether the interaction had to be
    acknowledged (deferred) first because drawing took longer than ``patience`` seconds — card sprites still being
    prepared just after a start, a busy host. A deferred response is then sent with ``edit_original_response``."""
    task = asyncio.ensure_future(build)
    try:
        return await asyncio.wait_for(asyncio.shield(task), ACK_PATIENCE if patience is None else patience), False
    except TimeoutError:
        if ephemeral:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        return await task, True

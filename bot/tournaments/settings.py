"""Per-guild settings: the roles that may organise tournaments and administer the ledger, and card pictures.

Kept tiny on purpose: two optional role ids and one switch per guild. Discord-free; the cogs check a member's roles.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.db import Database

__all__ = ["GuildConfig", "GuildSettings"]


@dataclass(frozen=True, slots=True)
class GuildConfig:
    guild_id: int
    organiser_role_id: int | None = None
    admin_role_id: int | None = None
    #: card pictures in this server's table messages and hands (``/tavolo config images:``); ``None``: not chosen
    images: bool | None = None


class GuildSettings:
    def __init__(self, db: Database) -> None:
        self.db = db
        # every table render asks for the images switch: read each guild once, then keep it (written only here)
        self._images: dict[int, bool | None] = {}

    async def get(self, guild_id: int) -> GuildConfig:
        row = await self.db.fetchone(
            "SELECT organiser_role_id, admin_role_id, images FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return GuildConfig(guild_id)
        return GuildConfig(guild_id, row[0], row[1], None if row[2] is None else bool(row[2]))

    async def images(self, guild_id: int) -> bool | None:
        """Whether this guild shows card pictures, ``None`` when its managers did not choose (cached)."""
        if guild_id not in self._images:
            self._images[guild_id] = (await self.get(guild_id)).images
        return self._images[guild_id]

    async def set_images(self, guild_id: int, actor_id: int, on: bool) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, images, updated_by) VALUES (?,?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET images = excluded.images, updated_by = excluded.updated_by,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
                (guild_id, int(on), actor_id),
            )
        self._images[guild_id] = on

    async def set(
        self,
        guild_id: int,
        actor_id: int,
        *,
        organiser_role_id: int | None = None,
        admin_role_id: int | None = None,
        clear: bool = False,
    ) -> GuildConfig:
        """Set the given roles (``None`` keeps the current one); ``clear`` removes both first."""
        stored = await self.get(guild_id)
        current = GuildConfig(guild_id, images=stored.images) if clear else stored
        org = organiser_role_id if organiser_role_id is not None else current.organiser_role_id
        adm = admin_role_id if admin_role_id is not None else current.admin_role_id
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, organiser_role_id, admin_role_id, updated_by) VALUES (?,?,?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET organiser_role_id = excluded.organiser_role_id,"
                " admin_role_id = excluded.admin_role_id, updated_by = excluded.updated_by,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
                (guild_id, org, adm, actor_id),
            )
        return GuildConfig(guild_id, org, adm, current.images)

"""Per-guild settings: the roles that may organise tournaments and administer the ledger.

Kept tiny on purpose: two optional role ids per guild. Discord-free; the cogs check a member's roles.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.db import Database

__all__ = ["GuildConfig", "GuildSettings"]


@dataclass(frozen=True, slots=True)
class GuildConfig:
    guild_id: int
    organiser_role_id: int | None = None
    admin_role_id: int | None = None


class GuildSettings:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, guild_id: int) -> GuildConfig:
        row = await self.db.fetchone(
            "SELECT organiser_role_id, admin_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return GuildConfig(guild_id)
        return GuildConfig(guild_id, row[0], row[1])

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
        current = GuildConfig(guild_id) if clear else await self.get(guild_id)
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
        return GuildConfig(guild_id, org, adm)

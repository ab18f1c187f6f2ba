"""Per-user preferences (``user_settings``, migration 006): whether a player's own messages show card pictures.

Discord-free. ``None`` means the user has not chosen: the server's setting applies. Read on every render of a
player's hand, so each user's row is read once and then kept in memory (this process is its only writer).
"""

from __future__ import annotations

from bot.db import Database

__all__ = ["Preferences"]


class Preferences:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._images: dict[int, bool | None] = {}

    async def images(self, user_id: int) -> bool | None:
        """The user's choice for card pictures, ``None`` when they made none."""
        if user_id in self._images:
            return self._images[user_id]
        row = await self.db.fetchone("SELECT images FROM user_settings WHERE user_id = ?", (user_id,))
        value = None if row is None or row[0] is None else bool(row[0])
        self._images[user_id] = value
        return value

    async def set_images(self, user_id: int, on: bool | None) -> None:
        """Set (or with ``None`` forget) the user's choice."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO user_settings (user_id, images) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " images = excluded.images, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
                (user_id, None if on is None else int(on)),
            )
        self._images[user_id] = on

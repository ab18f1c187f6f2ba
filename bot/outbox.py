"""The durable outbox: the messages players are owed, stored with the action that owes them.

An action that ends a hand, a game or a tournament round writes one row per owed message (:meth:`OutboxStore.add`,
inside the action's own transaction), so a crash can never keep the result and lose its announcement. The cogs
deliver the rows after the commit and mark them ``sent`` (or ``dropped`` with the reason when Discord refuses them
for good); a restart delivers every row still ``pending``. Rows hold a re-render instruction (a kind and its
parameters), not text: the text is written in the reader's language when it is sent.

Exactly once: a row's ``key`` is unique (writing the same owed message twice is a no-op), it is marked sent right
after Discord accepted it, and the create carries the row's nonce with ``enforce_nonce`` so a retry within Discord's
few-minute window — the only gap between "accepted" and "marked" — returns the first message instead of a second.

Retries are data: a failed attempt moves ``next_attempt_at`` (:func:`backoff`), so a restart keeps the schedule.
Discord-free; the cogs decide which errors are worth a retry.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.storage.db import Connection, Database

__all__ = ["OutboxStore", "Owed", "backoff", "nonce_of"]

_COLUMNS = (
    "id, key, guild_id, table_id, tournament_id, kind, channel_id, user_id, payload_json, state, attempts,"
    " next_attempt_at, last_error, message_id"
)
_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ','now')"
#: the longest wait between two attempts of one row (seconds)
MAX_BACKOFF = 60.0


@dataclass(slots=True)
class Owed:
    """One owed message (a row of ``outbox``)."""

    id: int
    key: str
    guild_id: int
    kind: str
    table_id: int | None = None
    tournament_id: int | None = None
    channel_id: int | None = None
    user_id: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    state: str = "pending"
    attempts: int = 0
    next_attempt_at: float = 0.0
    last_error: str | None = None
    message_id: int | None = None

    @property
    def nonce(self) -> str:
        return nonce_of(self.id)


def nonce_of(row_id: int) -> str:
    """The Discord message nonce of an outbox row (at most 25 characters; unique per database)."""
    return f"tvo{row_id}"


def backoff(attempts: int, retry_after: float | None = None) -> float:
    """Seconds to wait before attempt ``attempts + 1``: 1, 2, 4 … up to :data:`MAX_BACKOFF`, and never less than
    what Discord asked for (``Retry-After``)."""
    wait = min(MAX_BACKOFF, 2.0 ** max(0, attempts - 1))
    return max(wait, retry_after or 0.0)


def _owed(r: Any) -> Owed:
    return Owed(
        id=int(r["id"]),
        key=str(r["key"]),
        guild_id=int(r["guild_id"]),
        kind=str(r["kind"]),
        table_id=None if r["table_id"] is None else int(r["table_id"]),
        tournament_id=None if r["tournament_id"] is None else int(r["tournament_id"]),
        channel_id=None if r["channel_id"] is None else int(r["channel_id"]),
        user_id=None if r["user_id"] is None else int(r["user_id"]),
        payload=json.loads(r["payload_json"]),
        state=str(r["state"]),
        attempts=int(r["attempts"]),
        next_attempt_at=float(r["next_attempt_at"]),
        last_error=r["last_error"],
        message_id=None if r["message_id"] is None else int(r["message_id"]),
    )


class OutboxStore:
    """SQL for the ``outbox`` table over one :class:`~bot.storage.db.Database`."""

    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        #: wall clock (epoch seconds): next_attempt_at must mean the same after a restart
        self.clock = clock

    async def add(
        self,
        conn: Connection,
        key: str,
        kind: str,
        *,
        guild_id: int,
        table_id: int | None = None,
        tournament_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        payload: dict[str, Any] | None = None,
    ) -> None:
        """Record an owed message inside the caller's transaction; a key already recorded is left as it is."""
        await conn.execute(
            "INSERT OR IGNORE INTO outbox (key, guild_id, table_id, tournament_id, kind, channel_id, user_id,"
            " payload_json, next_attempt_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                key,
                guild_id,
                table_id,
                tournament_id,
                kind,
                channel_id,
                user_id,
                json.dumps(payload or {}, separators=(",", ":"), sort_keys=True),
                self.clock(),
            ),
        )

    async def pending(
        self,
        *,
        kinds: Iterable[str] | None = None,
        table_id: int | None = None,
        tournament_id: int | None = None,
    ) -> list[Owed]:
        """Pending rows (due or not) in the order they were owed, only those of this process's shards."""
        where = ["state = 'pending'"]
        params: list[Any] = []
        if kinds is not None:
            kinds = list(kinds)
            where.append(f"kind IN ({','.join('?' * len(kinds))})")
            params += kinds
        if table_id is not None:
            where.append("table_id = ?")
            params.append(table_id)
        if tournament_id is not None:
            where.append("tournament_id = ?")
            params.append(tournament_id)
        shard_sql, shard_params = self.db.shard_condition()
        sql = f"SELECT {_COLUMNS} FROM outbox WHERE {' AND '.join(where)}{shard_sql} ORDER BY id"
        rows = await self.db.fetchall(sql, (*params, *shard_params))
        return [_owed(r) for r in rows]

    async def get(self, key: str) -> Owed | None:
        row = await self.db.fetchone(f"SELECT {_COLUMNS} FROM outbox WHERE key = ?", (key,))
        return None if row is None else _owed(row)

    async def sent(self, row_id: int, message_id: int | None = None) -> None:
        """Discord accepted it: never send it again."""
        await self._write(
            f"UPDATE outbox SET state = 'sent', message_id = ?, done_at = {_NOW} WHERE id = ? AND state = 'pending'",
            (message_id, row_id),
        )

    async def dropped(self, row_id: int, error: str) -> None:
        """Discord refused it for good (unknown message, missing access, DMs closed): kept with the reason."""
        await self._write(
            f"UPDATE outbox SET state = 'dropped', last_error = ?, attempts = attempts + 1, done_at = {_NOW}"
            " WHERE id = ? AND state = 'pending'",
            (error[:500], row_id),
        )

    async def retry_later(self, owed: Owed, error: str, retry_after: float | None = None) -> float:
        """A failed attempt that may succeed later: the next attempt's time (stored) after a backoff."""
        owed.attempts += 1
        owed.next_attempt_at = self.clock() + backoff(owed.attempts, retry_after)
        owed.last_error = error[:500]
        await self._write(
            "UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ? AND state = 'pending'",
            (owed.attempts, owed.next_attempt_at, owed.last_error, owed.id),
        )
        return owed.next_attempt_at

    async def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(sql, args)

"""The tables' persistence: every SQL statement on ``game_tables`` and ``table_actions`` lives here.

A table is stored as its recipe (options, seed, seats, action log) plus message ids, a little session state and
its turn timer (a wall-clock deadline and the reminder flag); the game itself is never stored, the service rebuilds
it by replay. The service keeps all the logic and calls this store; methods that take ``conn`` write inside the
caller's transaction (so an action, its settlement and the table row commit together), the others open their own.
"""

from __future__ import annotations

import json
from typing import Any

from bot.engine.protocol import Action
from bot.storage.db import Connection, Database

from .model import Seat, Status, Table

_COLUMNS = (
    "id, guild_id, channel_id, game, host_id, options_json, seed, status, seats_json, turn_timeout, messages_json,"
    " tournament_id, state_json, deadline, reminded"
)
_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ','now')"


def _table_of(r: Any) -> Table:
    t = Table(
        id=int(r["id"]),
        guild_id=int(r["guild_id"]),
        channel_id=int(r["channel_id"]),
        game_id=str(r["game"]),
        host_id=int(r["host_id"]),
        options=json.loads(r["options_json"]),
        seed=int(r["seed"]),
        status=r["status"],
        seats=[Seat.from_json(s) for s in json.loads(r["seats_json"])],
        turn_timeout=int(r["turn_timeout"]),
        messages=json.loads(r["messages_json"]),
        tournament_id=r["tournament_id"],
    )
    t.load_state(json.loads(r["state_json"]))
    t.deadline = None if r["deadline"] is None else float(r["deadline"])
    t.reminded = bool(r["reminded"])
    return t


def _action_text(action: Action) -> str:
    return json.dumps(action, separators=(",", ":"))


class TableStore:
    """SQL for tables over one :class:`~bot.storage.db.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def insert(self, t: Table) -> int:
        """Store a new table (a lobby); returns its id."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "INSERT INTO game_tables (guild_id, channel_id, game, host_id, options_json, seed, status,"
                " seats_json, turn_timeout, messages_json, tournament_id) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    t.guild_id,
                    t.channel_id,
                    t.game_id,
                    t.host_id,
                    json.dumps(t.options),
                    t.seed,
                    t.status,
                    json.dumps([s.to_json() for s in t.seats]),
                    t.turn_timeout,
                    json.dumps(t.messages),
                    t.tournament_id,
                ),
            )
            return int(cur.lastrowid or 0)

    async def save(self, t: Table, conn: Connection | None = None) -> None:
        """Write the table's mutable fields (status, seats, host, messages, session state, timer)."""
        sql = (
            "UPDATE game_tables SET status=?, seats_json=?, host_id=?, messages_json=?, state_json=?, deadline=?,"
            f" reminded=?, updated_at={_NOW} WHERE id=?"
        )
        args = (
            t.status,
            json.dumps([s.to_json() for s in t.seats]),
            t.host_id,
            json.dumps(t.messages),
            json.dumps(t.state_json()),
            t.deadline,
            int(t.reminded),
            t.id,
        )
        await self._write(sql, args, conn)

    async def append_action(
        self, conn: Connection, table_id: int, seq: int, seat: int, action: Action, actor: int | None
    ) -> None:
        """Append one action to a table's log, inside the caller's transaction (with its settlements)."""
        await conn.execute(
            "INSERT INTO table_actions (table_id, seq, seat, action, actor_id) VALUES (?,?,?,?,?)",
            (table_id, seq, seat, _action_text(action), actor),
        )

    async def set_messages(self, table_id: int, messages: dict[str, int], conn: Connection | None = None) -> None:
        await self._write(
            "UPDATE game_tables SET messages_json = ? WHERE id = ?", (json.dumps(messages), table_id), conn
        )

    async def set_timeout(self, table_id: int, seconds: int, deadline: float | None) -> None:
        """A new turn timer length, and the running turn's deadline moved with it."""
        await self._write(
            "UPDATE game_tables SET turn_timeout = ?, deadline = ? WHERE id = ?", (seconds, deadline, table_id)
        )

    async def set_timer(
        self, table_id: int, deadline: float | None, reminded: bool, conn: Connection | None = None
    ) -> None:
        """The running turn's deadline (epoch seconds; None = no timer) and whether it was reminded."""
        await self._write(
            "UPDATE game_tables SET deadline = ?, reminded = ? WHERE id = ?", (deadline, int(reminded), table_id), conn
        )

    async def load_open(self, conn: Connection | None = None) -> list[Table]:
        """Every lobby and running table, oldest first, each with its action log (no game: the caller replays)."""
        # With several bot processes, each resumes only the tables of guilds on its own shards.
        shard_sql, shard_params = self.db.shard_condition()
        sql = f"SELECT {_COLUMNS} FROM game_tables WHERE status IN ('lobby','running'){shard_sql} ORDER BY id"
        if conn is None:
            async with self.db.reader() as c:
                return await self._load_open(c, sql, shard_params)
        return await self._load_open(conn, sql, shard_params)

    async def _load_open(self, conn: Connection, sql: str, params: tuple[int, ...] = ()) -> list[Table]:
        tables = [_table_of(r) for r in await conn.execute_fetchall(sql, params)]
        for t in tables:
            t.log = await self._log(conn, t.id)
        return tables

    async def load_log(self, table_id: int) -> list[tuple[int, Action]]:
        """A table's actions in order, as ``(seat, action)``."""
        async with self.db.reader() as conn:
            return await self._log(conn, table_id)

    @staticmethod
    async def _log(conn: Connection, table_id: int) -> list[tuple[int, Action]]:
        rows = await conn.execute_fetchall(
            "SELECT seat, action FROM table_actions WHERE table_id = ? ORDER BY seq", (table_id,)
        )
        return [(int(seat), json.loads(a)) for seat, a in rows]

    async def finished_table(self, table_id: int) -> Table | None:
        """The stored table **Play again** starts from (closed tables are not kept in memory across a restart),
        whatever its status — the caller decides whether it may be played again; None if there is no such table.
        Without its log: a rematch needs only the recipe's options, seats and timer."""
        row = await self.db.fetchone(f"SELECT {_COLUMNS} FROM game_tables WHERE id = ?", (table_id,))
        return None if row is None else _table_of(row)

    async def status(self, table_id: int) -> Status | None:
        """The stored status of a table (``lobby``, ``running``, ``finished``, ``cancelled``), None if unknown."""
        row = await self.db.fetchone("SELECT status FROM game_tables WHERE id = ?", (table_id,))
        return None if row is None else row["status"]

    async def latest_in_channel(self, channel_id: int) -> int | None:
        """The id of the newest table of a channel that got past its lobby (None: no such table)."""
        row = await self.db.fetchone(
            "SELECT id FROM game_tables WHERE channel_id = ? AND status IN ('running', 'finished', 'cancelled')"
            " AND EXISTS (SELECT 1 FROM table_actions a WHERE a.table_id = game_tables.id) ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else int(row[0])

    async def _write(self, sql: str, args: tuple[Any, ...], conn: Connection | None = None) -> None:
        if conn is not None:
            await conn.execute(sql, args)
            return
        async with self.db.transaction() as c:
            await c.execute(sql, args)


__all__ = ["TableStore"]

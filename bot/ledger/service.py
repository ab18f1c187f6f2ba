"""The ledger service: the only code that reads or writes the ledger tables.

It owns the tables of ``bot/migrations/001_ledger.sql``: ``seasons``, ``settlements`` and ``entries``. No
other module queries them; the services built on the ledger read through typed methods here instead:
the ratings fold (:meth:`Ledger.settlements_after`, :meth:`Ledger.settlements_of_guild`,
:meth:`Ledger.entries_of`), tournament standings (:meth:`Ledger.table_totals`) and profiles
(:meth:`Ledger.game_totals`, :meth:`Ledger.contract_stats`, :meth:`Ledger.bid_accuracy`,
:meth:`Ledger.player_name`). Their own tables (``ratings``/``rating_applied``, ``tournament_*``) are theirs.

The ledger is append-only (the migration enforces it with triggers). Booking a settlement inserts one
``settlements`` row and one ``entries`` row per seat per currency; an admin correction is one more entry;
closing a season opens the next. ``ledger_totals`` (migration 007) holds each player's sums per season, game
and currency, updated in the same transaction as the entries, so balances and leaderboards read O(players)
rows; histories read the entries. Every read is filtered by guild, so guilds never see each other's data
(only the ratings fold walks every guild's settlements, and each row it gets names its guild).

Conventions:

* **Idempotency.** Every settlement has a ``key``; a table's units are keyed by :func:`settlement_key`
  (``table:<id>:unit:<index>``, the only convention). Booking an existing key does nothing and returns
  ``False``, so the table service may retry (and re-book on every restart) freely. Reusing a key for a
  different guild/game/table/hand raises :class:`KeyConflict` instead of silently dropping a hand.
* **Atomicity.** :meth:`Ledger.book` runs inside the caller's ``db.transaction()`` (the table service
  appends the action and books the hand in one transaction); :meth:`Ledger.settle` opens its own.
  Reads called inside a transaction see its uncommitted writes (:meth:`Database.reader`).
* **Computer players** get ``user_id = 0, is_bot = 1`` and their name, so each unit's entries stay
  zero-sum; balances and leaderboards exclude them.
* **Zero entries are kept** for every seat and currency: they make "games played" a simple count.
* **Games and wins.** A user *played* every settlement they sat in (once, even if they held two seats).
  They *won* it when their amount in that currency (summed over their seats) is > 0 — except for
  ``point`` when the summary has ``ranks`` (one 1-based rank per seat, as in ``GameResult.ranks``): then
  a win is rank 1 (ties share it). Both flags are computed when booking and stored on the user's first
  seat's entries (``entries.played`` / ``entries.won``), so leaderboards are plain sums.
* **Seasons.** A guild's current season is its open one, created lazily (number 1) by the first write.
  ``season`` arguments take ``"current"``, ``"all"`` or a season *number*. Reads never create seasons.
* **Times** are stored as ISO-8601 UTC text and returned as aware :class:`~datetime.datetime`.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.engine.protocol import CURRENCIES, ZERO_SUM_CURRENCIES
from bot.i18n import N_, N_n
from bot.storage.db import LOCK_SETTLEMENTS, Connection, Database

from .models import (
    BOOKABLE_KINDS,
    BidAccuracy,
    ContractStat,
    GameTotals,
    HistoryRow,
    KeyConflict,
    LeaderboardRow,
    LedgerRefusal,
    Season,
    SeasonSpec,
    SeatRef,
    SettlementEntry,
    SettlementRow,
    TableSeatTotal,
    UnknownSeason,
    ZeroSumError,
)

__all__ = ["Ledger", "settlement_key"]

LEADERBOARD_ORDERS = ("total", "wins", "games")
MAX_PAGE = 100
# Above this many seasons, reads name the guild's seasons by a subquery instead of an IN list of bound ids.
MAX_UNION_SEASONS = 200
MAX_REASON = 500
# Characters that make spreadsheet apps treat a CSV cell as a formula (CSV injection).
_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
# SQLite's default cap on bound variables is 999 on old builds: stay well under it per IN (...) list.
_IN_CHUNK = 500


def settlement_key(table_id: int | str, index: int) -> str:
    """The idempotency key of unit ``index`` (a hand or a game) of a table: ``"table:<id>:unit:<index>"``.

    The one key convention. Existing databases hold these keys and the table service re-books every unit
    when it replays a table at startup, so the format must never change: a new one would book every
    replayed unit a second time."""
    return f"table:{table_id}:unit:{index}"


def _now_text(dt: datetime) -> str:
    return dt.astimezone(UTC).isoformat(timespec="milliseconds")


def _parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_id(name: str, value: object) -> int:
    if not _is_int(value) or value <= 0:  # type: ignore[operator]
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value  # type: ignore[return-value]


def _check_currency(currency: str) -> str:
    if currency not in CURRENCIES:
        raise LedgerRefusal(
            N_("Unknown currency `{currency}` (known: {known})."), currency=currency, known=", ".join(CURRENCIES)
        )
    return currency


@dataclass(frozen=True, slots=True)
class _Booking:
    """A validated settlement, ready to insert (shared by :meth:`Ledger.book` and the benchmark)."""

    key: str
    guild_id: int
    game: str
    table_id: int | str | None
    hand_index: int | None
    summary_json: str
    kind: str
    # (seat, user_id, is_bot, name, currency, amount, played, won) — seat-major, in CURRENCIES order.
    rows: tuple[tuple[int, int, int, str, str, int, int, int], ...]

    def totals(self) -> list[tuple[str, int, int, int, int]]:
        """The ``ledger_totals`` increments of this settlement, ``(currency, user, total, games, wins)``: one per
        (currency, human user), in key order (so concurrent bookings lock the rows in the same order and cannot
        deadlock each other)."""
        sums: dict[tuple[str, int], list[int]] = {}
        for _seat, uid, bot, _name, cur, amt, played, won in self.rows:
            if bot:
                continue
            acc = sums.setdefault((cur, uid), [0, 0, 0])
            acc[0] += amt
            acc[1] += played
            acc[2] += won
        return [(cur, uid, t, g, w) for (cur, uid), (t, g, w) in sorted(sums.items())]

    def totals_params(self, season_id: int) -> list[tuple[Any, ...]]:
        return [(self.guild_id, season_id, cur, self.game, uid, t, g, w) for cur, uid, t, g, w in self.totals()]

    def pg_settle_params(self, now: str) -> tuple[Any, ...]:
        """The parameters of :data:`_PG_SETTLE`: the settlement, then its entries and totals as column arrays."""
        seat, uid, bot, name, cur, amt, played, won = _columns(self.rows, 8)
        t_cur, t_uid, t_total, t_games, t_wins = _columns(self.totals(), 5)
        return (
            self.key, self.game, self.table_id, self.hand_index, now, self.summary_json, self.guild_id, self.kind,
            uid, bot, name, seat, cur, amt, won, played, t_cur, t_uid, t_total, t_games, t_wins,
        )  # fmt: skip

    def entry_params(self, settlement_id: int, season_id: int, created_at: str) -> list[tuple[Any, ...]]:
        return [
            (
                settlement_id,
                self.guild_id,
                season_id,
                uid,
                bot,
                name,
                seat,
                self.game,
                cur,
                amt,
                won,
                self.kind,
                played,
                created_at,
            )
            for seat, uid, bot, name, cur, amt, played, won in self.rows
        ]


def _columns(rows: Sequence[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """Rows as ``width`` column lists (empty lists for no rows)."""
    return [[row[i] for row in rows] for i in range(width)]


def prepare_booking(
    *,
    key: str,
    guild_id: int,
    game: str,
    table_id: int | str | None,
    hand_index: int | None,
    seats: Sequence[SeatRef],
    amounts: Mapping[str, Sequence[int]],
    summary: Mapping[str, Any] | None = None,
    kind: str = "hand",
) -> _Booking:
    """Validate a settlement (raises ``ValueError``/``ZeroSumError``; ``TypeError`` for a summary that is
    not JSON-serialisable) and lay out its entries."""
    if not isinstance(key, str) or not key.strip():
        raise ValueError("settlement key must be a non-empty string")
    _check_id("guild_id", guild_id)
    if not isinstance(game, str) or not game:
        raise ValueError("game must be a non-empty string")
    if kind not in BOOKABLE_KINDS:
        raise ValueError(f"kind must be one of {BOOKABLE_KINDS} (adjustments go through Ledger.adjust)")
    if hand_index is not None and not _is_int(hand_index):
        raise ValueError("hand_index must be an int or None")
    if not seats:
        raise ValueError("a settlement needs at least one seat")
    if not amounts:
        raise ValueError("a settlement needs at least one currency")
    for s in seats:
        if s.user_id is not None:
            _check_id("seat user_id", s.user_id)
    summary = dict(summary or {})
    summary_json = json.dumps(summary, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    n = len(seats)
    checked: dict[str, tuple[int, ...]] = {}
    for cur, vals in amounts.items():
        _check_currency(cur)
        vals = tuple(vals)
        if len(vals) != n:
            raise ValueError(f"{cur}: {len(vals)} amounts for {n} seats")
        if not all(_is_int(v) for v in vals):
            raise ValueError(f"{cur}: amounts must be integers, got {vals!r}")
        if cur in ZERO_SUM_CURRENCIES and sum(vals) != 0:
            raise ZeroSumError(f"{cur} amounts {vals} do not sum to zero")
        checked[cur] = vals

    ranks = summary.get("ranks")
    if (
        "point" in checked
        and ranks is not None
        and (not isinstance(ranks, list | tuple) or len(ranks) != n or not all(_is_int(r) for r in ranks))
    ):
        raise ValueError(f"summary['ranks'] must hold one integer rank per seat, got {ranks!r}")

    # A player is a human user id, or each computer seat on its own. A user holding several seats (a
    # debugging table, say) played the unit once, and won it on their combined result.
    player = [("seat", i) if ref.user_id is None else ("user", ref.user_id) for i, ref in enumerate(seats)]
    seats_of: dict[tuple[str, int], list[int]] = {}
    for seat, p in enumerate(player):
        seats_of.setdefault(p, []).append(seat)

    def won(p: tuple[str, int], cur: str) -> bool:
        if cur == "point" and ranks is not None:
            return any(ranks[i] == 1 for i in seats_of[p])
        return sum(checked[cur][i] for i in seats_of[p]) > 0

    rows: list[tuple[int, int, int, str, str, int, int, int]] = []
    for seat, ref in enumerate(seats):
        uid, bot = (0, 1) if ref.user_id is None else (ref.user_id, 0)
        first = seats_of[player[seat]][0] == seat
        for cur in CURRENCIES:  # fixed order: exports and histories read the same way every time
            if cur not in checked:
                continue
            flag = first and won(player[seat], cur)
            rows.append((seat, uid, bot, str(ref.name), cur, checked[cur][seat], int(first), int(flag)))
    return _Booking(key, guild_id, game, table_id, hand_index, summary_json, kind, tuple(rows))


# The season is looked up in the same statement (one round trip); no row back means either the key is booked
# already (ON CONFLICT) or the guild has no open season yet — _insert tells the two apart.
_INSERT_SETTLEMENT = (
    "INSERT INTO settlements (key, guild_id, season_id, game, table_id, hand_index, created_at, summary_json)"
    " SELECT ?, guild_id, id, ?, ?, ?, ?, ? FROM seasons WHERE guild_id = ? AND closed_at IS NULL"
    " ON CONFLICT (key) DO NOTHING RETURNING id, season_id"
)
# PostgreSQL: the same, first taking the settlements lock for the rest of the transaction (a join with a row
# that takes it, so no round trip of its own; the id is drawn after it). Settlement ids then follow commit
# order across processes as they do with SQLite's single writer, which the ratings fold relies on: it reads
# the settlements above the last one it applied, so a lower id committed later would be skipped for ever.
_INSERT_SETTLEMENT_PG = _INSERT_SETTLEMENT.replace(
    " FROM seasons WHERE",
    f" FROM seasons, (SELECT pg_advisory_xact_lock({LOCK_SETTLEMENTS})) AS settlements_lock WHERE",
)
_ENTRY_COLUMNS = (
    "INSERT INTO entries (settlement_id, guild_id, season_id, user_id, is_bot, player_name, seat, game,"
    " currency, amount, won, kind, played, created_at) VALUES "
)
_ENTRY_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_INSERT_ENTRY = _ENTRY_COLUMNS + _ENTRY_VALUES
_TOTALS_COLUMNS = "INSERT INTO ledger_totals (guild_id, season_id, currency, game, user_id, total, games, wins) VALUES "
_TOTALS_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?)"
_TOTALS_UPSERT = (
    " ON CONFLICT (guild_id, season_id, currency, game, user_id) DO UPDATE SET total = ledger_totals.total"
    " + excluded.total, games = ledger_totals.games + excluded.games, wins = ledger_totals.wins + excluded.wins"
)


# PostgreSQL: a whole settlement in one statement (one round trip, one transaction): the settlement row, its
# entries and its totals as data-modifying CTEs; entries and totals arrive as column arrays, so the text is
# the same for any number of seats (one prepared statement). No row back: the key is booked already or the
# guild has no open season yet — the full path (Ledger._insert) sorts that out.
_PG_SETTLE = (
    "WITH s AS (" + _INSERT_SETTLEMENT_PG + "),"
    " e AS (INSERT INTO entries (settlement_id, guild_id, season_id, user_id, is_bot, player_name, seat, game,"
    " currency, amount, won, kind, played, created_at)"
    " SELECT s.id, s.guild_id, s.season_id, r.user_id, r.is_bot, r.player_name, r.seat, s.game, r.currency,"
    " r.amount, r.won, ?, r.played, s.created_at FROM s, unnest(?::bigint[], ?::bigint[], ?::text[], ?::bigint[],"
    " ?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) WITH ORDINALITY"
    " AS r(user_id, is_bot, player_name, seat, currency, amount, won, played, n) ORDER BY r.n),"
    " t AS (INSERT INTO ledger_totals (guild_id, season_id, currency, game, user_id, total, games, wins)"
    " SELECT s.guild_id, s.season_id, u.currency, s.game, u.user_id, u.total, u.games, u.wins"
    " FROM s, unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[]) WITH ORDINALITY"
    " AS u(currency, user_id, total, games, wins, n) ORDER BY u.n" + _TOTALS_UPSERT + ")"
    " SELECT id FROM s"
).replace("RETURNING id, season_id", "RETURNING id, season_id, guild_id, game, created_at")


def _sqlite_settle(b: _Booking, now: str) -> Callable[[Any], bool]:
    """SQLite: the settlement's three statements, run in one hop on the writer's thread
    (:meth:`Database.transaction_sync`). False: nothing booked, for the full path to decide."""

    def run(raw: Any) -> bool:
        rows = raw.execute(_INSERT_SETTLEMENT, (b.key, b.game, b.table_id, b.hand_index, now, b.summary_json,
                                                b.guild_id)).fetchall()  # fmt: skip
        if not rows:
            return False
        settlement_id, season_id = int(rows[0][0]), int(rows[0][1])
        raw.execute(*_multi_row(_ENTRY_COLUMNS, _ENTRY_VALUES, b.entry_params(settlement_id, season_id, now)))
        totals = b.totals_params(season_id)
        if totals:
            raw.execute(*_multi_row(_TOTALS_COLUMNS, _TOTALS_VALUES, totals, _TOTALS_UPSERT))
        return True

    return run


def _multi_row(head: str, values: str, rows: Sequence[tuple[Any, ...]], tail: str = "") -> tuple[str, list[Any]]:
    """One INSERT for many rows: one round trip (PostgreSQL) or one statement (SQLite) instead of one per row."""
    return head + ", ".join([values] * len(rows)) + tail, [v for row in rows for v in row]


async def add_totals(conn: Connection, rows: Sequence[tuple[Any, ...]]) -> None:
    """Add ``(guild, season, currency, game, user, total, games, wins)`` increments to ``ledger_totals``."""
    if rows:
        await conn.execute(*_multi_row(_TOTALS_COLUMNS, _TOTALS_VALUES, rows, _TOTALS_UPSERT))


def _season_from_row(row: Any) -> Season:
    return Season(
        id=row["id"],
        guild_id=row["guild_id"],
        number=row["number"],
        started_at=_parse_time(row["started_at"]),
        closed_at=_parse_time(row["closed_at"]) if row["closed_at"] else None,
        closed_by=row["closed_by"],
    )


def _csv_cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(_FORMULA_PREFIXES):
        return "'" + value
    return value


class Ledger:
    """The ledger API. All methods are coroutines; see the module docstring for the conventions."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        # Injectable so tests can control timestamps; must return an aware datetime.
        self._clock = clock or (lambda: datetime.now(UTC))

    # -- seasons ---------------------------------------------------------------------------------------
    async def current_season(self, guild_id: int) -> Season | None:
        row = await self.db.fetchone("SELECT * FROM seasons WHERE guild_id = ? AND closed_at IS NULL", (guild_id,))
        return _season_from_row(row) if row else None

    async def seasons(self, guild_id: int) -> list[Season]:
        rows = await self.db.fetchall("SELECT * FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,))
        return [_season_from_row(r) for r in rows]

    async def close_season(self, guild_id: int, actor_id: int, number: int | None = None) -> Season:
        """Close the guild's current season (creating season 1 first if there is none) and open the next.
        Returns the new, open season. History is untouched; balances are per season.

        ``number``: close that season only — refused when it is no longer the open one (a second click on the
        same confirmation must not close the next season too). The same refusal when two closes race."""
        _check_id("guild_id", guild_id)
        _check_id("actor_id", actor_id)
        async with self.db.transaction() as conn:
            now = _now_text(self._clock())
            current = await self._open_season_id(conn, guild_id, now)
            found = list(await conn.execute_fetchall("SELECT number FROM seasons WHERE id = ?", (current,)))
            open_number = int(found[0][0])
            if number is not None and number != open_number:
                raise LedgerRefusal(N_("Season {n} is already closed."), n=number)
            # closed_at IS NULL: under PostgreSQL a close racing this one may have closed the row meanwhile
            closed = list(
                await conn.execute_fetchall(
                    "UPDATE seasons SET closed_at = ?, closed_by = ? WHERE id = ? AND closed_at IS NULL RETURNING id",
                    (now, actor_id, current),
                )
            )
            if not closed:
                raise LedgerRefusal(N_("Season {n} is already closed."), n=open_number)
            new_id = await self._open_season_id(conn, guild_id, now)
            rows = await conn.execute_fetchall("SELECT * FROM seasons WHERE id = ?", (new_id,))
        return _season_from_row(next(iter(rows)))

    async def _open_season_id(self, conn: Connection, guild_id: int, now: str) -> int:
        """The open season's id, creating the next one if none is open. Must run in a write transaction."""
        cur = await conn.execute("SELECT id FROM seasons WHERE guild_id = ? AND closed_at IS NULL", (guild_id,))
        row = await cur.fetchone()
        if row is not None:
            return int(row[0])
        # ON CONFLICT: another process may open the guild's season at the same moment (PostgreSQL); then its
        # season is the open one, read back below once its transaction has committed.
        cur = await conn.execute(
            "INSERT INTO seasons (guild_id, number, started_at)"
            " SELECT ?, COALESCE(MAX(number), 0) + 1, ? FROM seasons WHERE guild_id = ?"
            " ON CONFLICT DO NOTHING RETURNING id",
            (guild_id, now, guild_id),
        )
        row = await cur.fetchone()
        await cur.close()
        if row is None:
            cur = await conn.execute("SELECT id FROM seasons WHERE guild_id = ? AND closed_at IS NULL", (guild_id,))
            row = await cur.fetchone()
            await cur.close()
        assert row is not None
        return int(row[0])

    async def _season_ids(self, conn: Connection, guild_id: int, season: SeasonSpec) -> list[int]:
        """Resolve a season spec to season ids (empty when the guild has no current season yet)."""
        params: tuple[int | str, ...]
        if season == "current":
            sql, params = "SELECT id FROM seasons WHERE guild_id = ? AND closed_at IS NULL", (guild_id,)
        elif season == "all":
            sql, params = "SELECT id FROM seasons WHERE guild_id = ?", (guild_id,)
        elif _is_int(season):
            sql, params = "SELECT id FROM seasons WHERE guild_id = ? AND number = ?", (guild_id, season)
        else:
            raise LedgerRefusal(N_("A season is `current`, `all` or a season number, not `{season}`."), season=season)
        ids = [int(r[0]) for r in await conn.execute_fetchall(sql, params)]
        if not ids and _is_int(season):
            raise UnknownSeason(N_("This server has no season {n}."), n=season)
        return ids

    # -- writing ---------------------------------------------------------------------------------------
    async def book(
        self,
        conn: Connection,
        *,
        key: str,
        guild_id: int,
        game: str,
        table_id: int | str | None,
        hand_index: int | None,
        seats: Sequence[SeatRef],
        amounts: Mapping[str, Sequence[int]],
        summary: Mapping[str, Any] | None = None,
        kind: str = "hand",
    ) -> bool:
        """Book a settlement inside the caller's ``db.transaction()`` (does not commit).

        Returns ``True`` if booked, ``False`` if ``key`` was already booked (same guild/game/table/hand).
        Raises ``ValueError`` (:class:`ZeroSumError` for stake/resto not summing to zero) for bad input,
        :class:`KeyConflict` if ``key`` belongs to a different settlement.
        """
        booking = prepare_booking(
            key=key, guild_id=guild_id, game=game, table_id=table_id, hand_index=hand_index,
            seats=seats, amounts=amounts, summary=summary, kind=kind,
        )  # fmt: skip
        return await self._insert(conn, booking)

    async def _insert(self, conn: Connection, b: _Booking) -> bool:
        """Book ``b``: the settlement (season looked up in the same statement), its entries in one multi-row
        INSERT and its totals in one upsert — three statements, however many seats. Several processes may
        book at once (PostgreSQL): the unique key decides which one books, the other sees the booked row."""
        if not self.db.is_writer(conn):
            raise RuntimeError("Ledger.book() must be called inside `async with db.transaction() as conn`")
        now = _now_text(self._clock())
        params = (b.key, b.game, b.table_id, b.hand_index, now, b.summary_json, b.guild_id)
        insert = _INSERT_SETTLEMENT_PG if self.db.dialect == "postgres" else _INSERT_SETTLEMENT
        rows = list(await conn.execute_fetchall(insert, params))
        if not rows:
            existing = await self._existing(conn, b.key)
            if existing is not None:
                same = (
                    existing["guild_id"] == b.guild_id
                    and existing["game"] == b.game
                    and str(existing["table_id"]) == str(b.table_id)
                    and existing["hand_index"] == b.hand_index
                )
                if not same:
                    raise KeyConflict(f"settlement key {b.key!r} is already used by another settlement")
                return False
            await self._open_season_id(conn, b.guild_id, now)  # the guild's first booking: open season 1
            rows = list(await conn.execute_fetchall(insert, params))
            if not rows:  # booked by another process between the two statements
                return False
        settlement_id, season_id = int(rows[0][0]), int(rows[0][1])
        await conn.execute(*_multi_row(_ENTRY_COLUMNS, _ENTRY_VALUES, b.entry_params(settlement_id, season_id, now)))
        await add_totals(conn, b.totals_params(season_id))
        return True

    @staticmethod
    async def _existing(conn: Connection, key: str) -> Any:
        cur = await conn.execute("SELECT guild_id, game, table_id, hand_index FROM settlements WHERE key = ?", (key,))
        row = await cur.fetchone()
        await cur.close()
        return row

    async def settle(
        self,
        *,
        key: str,
        guild_id: int,
        game: str,
        table_id: int | str | None,
        hand_index: int | None,
        seats: Sequence[SeatRef],
        amounts: Mapping[str, Sequence[int]],
        summary: Mapping[str, Any] | None = None,
        kind: str = "hand",
    ) -> bool:
        """:meth:`book` in a transaction of its own.

        The usual case (a new key, the guild's season open) is one round trip to PostgreSQL or one hop to SQLite's
        writer thread; a key booked already or a guild's first settlement take the full path of :meth:`book`."""
        # Validate before taking the write lock: bad input should not queue behind other writers.
        booking = prepare_booking(
            key=key, guild_id=guild_id, game=game, table_id=table_id, hand_index=hand_index,
            seats=seats, amounts=amounts, summary=summary, kind=kind,
        )  # fmt: skip
        now = _now_text(self._clock())
        if self.db.dialect == "postgres":
            booked = bool(await self.db.write_statement(_PG_SETTLE, booking.pg_settle_params(now)))
        else:
            booked = await self.db.transaction_sync(_sqlite_settle(booking, now))
        if booked:
            return True
        async with self.db.transaction() as conn:
            return await self._insert(conn, booking)

    async def adjust(
        self,
        guild_id: int,
        user_id: int,
        currency: str,
        amount: int,
        actor_id: int,
        reason: str,
        *,
        name: str | None = None,
    ) -> int:
        """Record an admin adjustment in the current season (a new entry; nothing is edited or deleted).
        Returns the entry id. ``reason`` is required (audit trail)."""
        _check_id("guild_id", guild_id)
        _check_id("user_id", user_id)
        _check_id("actor_id", actor_id)
        _check_currency(currency)
        if not _is_int(amount) or amount == 0:
            raise LedgerRefusal(N_("An adjustment is a whole amount other than zero."))
        if not isinstance(reason, str) or not reason.strip():
            raise LedgerRefusal(N_("An adjustment needs a reason."))
        reason = reason.strip()
        if len(reason) > MAX_REASON:
            raise LedgerRefusal(
                N_n("The reason is longer than {n} character.", "The reason is longer than {n} characters."),
                n=MAX_REASON,
            )
        async with self.db.transaction() as conn:
            now = _now_text(self._clock())
            season_id = await self._open_season_id(conn, guild_id, now)
            rows = list(
                await conn.execute_fetchall(
                    "INSERT INTO entries (settlement_id, guild_id, season_id, user_id, is_bot, player_name,"
                    " currency, amount, kind, actor_id, reason, created_at)"
                    " VALUES (NULL, ?, ?, ?, 0, ?, ?, ?, 'adjustment', ?, ?, ?) RETURNING id",
                    (guild_id, season_id, user_id, name, currency, amount, actor_id, reason, now),
                )
            )
            await add_totals(conn, [(guild_id, season_id, currency, "", user_id, amount, 0, 0)])
        return int(rows[0][0])

    async def book_payment(
        self,
        conn: Connection,
        *,
        payment_id: int,
        guild_id: int,
        season_id: int,
        currency: str,
        payer: tuple[int, str | None],
        payee: tuple[int, str | None],
        amount: int,
        actor_id: int,
        reason: str | None = None,
    ) -> bool:
        """Book payment ``payment_id`` inside the caller's ``db.transaction()``: one ``payment`` entry per side
        (payer ``+amount``, payee ``-amount``) in ``season_id``, and their totals. ``payer``/``payee`` are
        ``(user id, name)``.

        The payment id is the idempotency key (a unique index on ``(payment_id, user_id)``): booking it again
        inserts nothing and returns ``False``, so a double click, a second process or a retry books it once."""
        if not self.db.is_writer(conn):
            raise RuntimeError("Ledger.book_payment() must be called inside `async with db.transaction() as conn`")
        _check_id("payment_id", payment_id)
        _check_id("actor_id", actor_id)
        _check_currency(currency)
        if not _is_int(amount) or amount <= 0:
            raise ValueError(f"a payment is a positive amount, got {amount!r}")
        (payer_id, payer_name), (payee_id, payee_name) = payer, payee
        _check_id("payer", payer_id)
        _check_id("payee", payee_id)
        if payer_id == payee_id:
            raise ValueError("a payment needs two different players")
        now = _now_text(self._clock())
        side = "(NULL, ?, ?, ?, 0, ?, ?, ?, 'payment', ?, ?, ?, ?)"
        params = [
            (guild_id, season_id, uid, name, currency, amt, actor_id, reason, now, payment_id)
            for uid, name, amt in ((payer_id, payer_name, amount), (payee_id, payee_name, -amount))
        ]
        rows = list(
            await conn.execute_fetchall(
                "INSERT INTO entries (settlement_id, guild_id, season_id, user_id, is_bot, player_name, currency,"
                f" amount, kind, actor_id, reason, created_at, payment_id) VALUES {side}, {side}"
                " ON CONFLICT DO NOTHING RETURNING id",
                (*params[0], *params[1]),
            )
        )
        if not rows:
            return False
        if len(rows) != 2:  # one side booked before and not the other: impossible, both go in one statement
            raise RuntimeError(f"payment {payment_id} was half booked")
        # (currency, user) order, as every totals upsert, so concurrent writers lock rows in one order
        await add_totals(
            conn,
            sorted(
                [(guild_id, season_id, currency, "", payer_id, amount, 0, 0),
                 (guild_id, season_id, currency, "", payee_id, -amount, 0, 0)],
                key=lambda r: r[4],
            ),
        )  # fmt: skip
        return True

    @staticmethod
    async def season_balance(conn: Connection, guild_id: int, season_id: int, user_id: int, currency: str) -> int:
        """A user's balance in one season and currency, read on ``conn`` (inside a transaction: its own writes
        included), for checks that must not race with the write that follows."""
        rows = list(
            await conn.execute_fetchall(
                "SELECT COALESCE(SUM(total), 0) FROM ledger_totals"
                " WHERE guild_id = ? AND user_id = ? AND currency = ? AND season_id = ?",
                (guild_id, user_id, currency, season_id),
            )
        )
        return int(rows[0][0])

    async def balances(self, guild_id: int, currency: str, season: SeasonSpec = "current") -> dict[int, int]:
        """Every human's open balance in ``currency`` (zeros left out), ``{user id: total}``: what
        ``/ledger settle`` turns into transfers. O(players) rows of ``ledger_totals``."""
        _check_currency(currency)
        async with self.db.reader() as conn:
            season_ids = await self._season_ids(conn, guild_id, season)
            if not season_ids:
                return {}
            seasons_sql, season_params = _season_filter(guild_id, season_ids)
            rows = await conn.execute_fetchall(
                "SELECT user_id, SUM(total) FROM ledger_totals"
                f" WHERE guild_id = ? AND season_id {seasons_sql} AND currency = ? GROUP BY user_id",
                (guild_id, *season_params, currency),
            )
        return {int(uid): int(total) for uid, total in rows if int(total)}

    # -- reading ---------------------------------------------------------------------------------------
    async def balance(
        self,
        guild_id: int,
        user_id: int,
        currency: str | None = None,
        season: SeasonSpec = "current",
    ) -> dict[str, int]:
        """The user's totals: ``{currency: total}`` for every currency (zeros included), or only for
        ``currency`` if given."""
        currencies = (_check_currency(currency),) if currency is not None else CURRENCIES
        result = dict.fromkeys(currencies, 0)
        async with self.db.reader() as conn:
            season_ids = await self._season_ids(conn, guild_id, season)
            if not season_ids:
                return result
            seasons_sql, season_params = _season_filter(guild_id, season_ids)
            # Currencies spelled out (never "any"): each currency is then one seek in ledger_totals_user.
            cur_marks = ",".join("?" * len(currencies))
            rows = await conn.execute_fetchall(
                "SELECT currency, SUM(total) FROM ledger_totals"
                f" WHERE guild_id = ? AND user_id = ? AND currency IN ({cur_marks}) AND season_id {seasons_sql}"
                " GROUP BY currency",
                (guild_id, user_id, *currencies, *season_params),
            )
        for cur_name, total in rows:
            result[cur_name] = int(total)
        return result

    async def history(
        self, guild_id: int, user_id: int, limit: int = 10, before_id: int | None = None
    ) -> list[HistoryRow]:
        """The user's settlements and adjustments in this guild, newest first, ``limit`` per page.
        For the next page pass ``before_id=rows[-1].id``."""
        if not _is_int(limit) or limit < 1:
            raise ValueError("limit must be a positive integer")
        limit = min(limit, MAX_PAGE)
        cursor_id = before_id if before_id is not None else (1 << 63) - 1
        # Walk the user's entries newest first. A settlement's entries for one user are contiguous in id
        # order (booked in one transaction), so consecutive entries with the same settlement_id form one
        # line; we read until limit + 1 lines have started so the limit-th one is known to be complete.
        groups: list[list[Any]] = []
        chunk = max(32, (limit + 1) * len(CURRENCIES))
        async with self.db.reader() as conn:
            while len(groups) <= limit:
                rows = await conn.execute_fetchall(
                    "SELECT id, settlement_id, season_id, seat, game, currency, amount, kind, actor_id,"
                    " reason, created_at, payment_id FROM entries"
                    " WHERE guild_id = ? AND user_id = ? AND is_bot = 0 AND id < ? ORDER BY id DESC LIMIT ?",
                    (guild_id, user_id, cursor_id, chunk),
                )
                rows = list(rows)
                for r in rows:
                    last = groups[-1][-1] if groups else None
                    if (
                        last is not None
                        and r["settlement_id"] is not None
                        and (r["settlement_id"] == last["settlement_id"])
                    ):
                        groups[-1].append(r)
                    else:
                        groups.append([r])
                if len(rows) < chunk:
                    break
                cursor_id = rows[-1]["id"]
            groups = groups[:limit]
            sids = sorted({g[0]["settlement_id"] for g in groups if g[0]["settlement_id"] is not None})
            settlements: dict[int, Any] = {}
            if sids:
                marks = ",".join("?" * len(sids))
                for r in await conn.execute_fetchall(
                    "SELECT id, key, table_id, hand_index, summary_json FROM settlements"
                    f" WHERE id IN ({marks}) AND guild_id = ?",
                    (*sids, guild_id),
                ):
                    settlements[r["id"]] = r
            season_numbers = {
                int(r[0]): int(r[1])
                for r in await conn.execute_fetchall("SELECT id, number FROM seasons WHERE guild_id = ?", (guild_id,))
            }
            # a payment's other side: the other entry of the same payment
            pids = sorted({g[0]["payment_id"] for g in groups if g[0]["payment_id"] is not None})
            others: dict[int, int] = {}
            for i in range(0, len(pids), _IN_CHUNK):
                part = pids[i : i + _IN_CHUNK]
                for pid, uid in await conn.execute_fetchall(
                    f"SELECT payment_id, user_id FROM entries WHERE payment_id IN ({','.join('?' * len(part))})"
                    " AND guild_id = ? AND user_id <> ?",
                    (*part, guild_id, user_id),
                ):
                    others[int(pid)] = int(uid)
        return [self._history_row(g, settlements, season_numbers, others) for g in groups]

    @staticmethod
    def _history_row(
        group: list[Any],
        settlements: Mapping[int, Any],
        season_numbers: Mapping[int, int],
        others: Mapping[int, int],
    ) -> HistoryRow:
        amounts: dict[str, int] = {}
        for r in group:
            amounts[r["currency"]] = amounts.get(r["currency"], 0) + int(r["amount"])
        first = min(group, key=lambda r: r["id"])
        st = settlements.get(first["settlement_id"]) if first["settlement_id"] is not None else None
        return HistoryRow(
            id=first["id"],
            kind=first["kind"],
            season_number=season_numbers.get(first["season_id"], 0),
            amounts=amounts,
            created_at=_parse_time(first["created_at"]),
            settlement_id=first["settlement_id"],
            key=st["key"] if st else None,
            game=first["game"],
            table_id=st["table_id"] if st else None,
            hand_index=st["hand_index"] if st else None,
            seat=min((r["seat"] for r in group if r["seat"] is not None), default=None),
            summary=json.loads(st["summary_json"]) if st else {},
            actor_id=first["actor_id"],
            reason=first["reason"],
            payment_id=first["payment_id"],
            counterparty_id=others.get(first["payment_id"]) if first["payment_id"] is not None else None,
        )

    async def leaderboard(
        self,
        guild_id: int,
        game: str | None = None,
        currency: str = "stake",
        season: SeasonSpec = "current",
        by: str = "total",
        limit: int = 10,
    ) -> list[LeaderboardRow]:
        """Top humans of the guild in ``currency`` (optionally for one ``game``), ordered by ``by``
        (``total``, ``wins`` or ``games``; ties broken by total, then user id).

        Without a game filter, totals include adjustments (so they match :meth:`balance`); ``games`` and
        ``wins`` only ever count settlements.
        """
        _check_currency(currency)
        if by not in LEADERBOARD_ORDERS:
            raise LedgerRefusal(
                N_("A leaderboard ranks by one of {orders}."), orders=", ".join(f"`{o}`" for o in LEADERBOARD_ORDERS)
            )
        if not _is_int(limit) or limit < 1:
            raise ValueError("limit must be a positive integer")
        limit = min(limit, MAX_PAGE)
        async with self.db.reader() as conn:
            season_ids = await self._season_ids(conn, guild_id, season)
            if not season_ids:
                return []
            game_filter = " AND game = ?" if game is not None else ""
            seasons_sql, season_params = _season_filter(guild_id, season_ids)
            # O(players): ledger_totals holds one row per player (and game) of the season, whatever the
            # ledger's length; without a game filter the rows of every game (and adjustments, game '') add up.
            sql = (
                "SELECT user_id, SUM(total) AS total, SUM(games) AS games, SUM(wins) AS wins FROM ledger_totals"
                f" WHERE guild_id = ? AND season_id {seasons_sql} AND currency = ?{game_filter}"
                f" GROUP BY user_id ORDER BY {by} DESC, total DESC, user_id LIMIT ?"
            )
            params: tuple[Any, ...] = (guild_id, *season_params, currency, *((game,) if game else ()), limit)
            rows = await conn.execute_fetchall(sql, params)
            result = []
            for r in rows:
                name = await _player_name(conn, guild_id, r["user_id"])
                result.append(LeaderboardRow(int(r["user_id"]), name, int(r["total"]), int(r["games"]), int(r["wins"])))
        return result

    async def player_name(self, guild_id: int, user_id: int) -> str | None:
        """The name the user last played (or was adjusted) under in this guild, ``None`` if never."""
        async with self.db.reader() as conn:
            return await _player_name(conn, guild_id, user_id)

    # -- reads for the services built on the ledger (ratings, tournaments, profiles) -------------------
    async def settlements_after(self, settlement_id: int, limit: int) -> list[SettlementRow]:
        """Settlements of *every* guild with an id above ``settlement_id``, oldest first, at most ``limit``.

        For folds that must see settlements in booking order (ids follow commit order: one writer). Each
        row names its guild; callers keep guilds apart."""
        if not _is_int(limit) or limit < 1:
            raise ValueError("limit must be a positive integer")
        return await self._settlements("WHERE id > ? ORDER BY id LIMIT ?", (settlement_id, limit))

    async def settlements_of_guild(self, guild_id: int, upto: int) -> list[SettlementRow]:
        """The guild's settlements with an id up to ``upto`` (inclusive), oldest first."""
        return await self._settlements("WHERE guild_id = ? AND id <= ? ORDER BY id", (guild_id, upto))

    async def _settlements(self, where: str, params: tuple[Any, ...]) -> list[SettlementRow]:
        async with self.db.reader() as conn:
            rows = await conn.execute_fetchall(
                "SELECT id, key, guild_id, season_id, game, table_id, hand_index, summary_json FROM settlements "
                + where,
                params,
            )
        return [
            SettlementRow(int(r[0]), str(r[1]), int(r[2]), int(r[3]), str(r[4]), r[5], r[6], json.loads(r[7]))
            for r in rows
        ]

    async def entries_of(self, settlement_ids: Iterable[int]) -> list[SettlementEntry]:
        """Every entry of the given settlements, ordered by settlement id, seat, entry id."""
        ids = sorted(set(settlement_ids))
        if not ids:
            return []
        sql = "SELECT settlement_id, seat, user_id, is_bot, currency, amount FROM entries WHERE settlement_id"
        order = " ORDER BY settlement_id, seat, id"
        out: list[SettlementEntry] = []
        async with self.db.reader() as conn:
            if ids[-1] - ids[0] < 2 * len(ids):
                # Nearly contiguous (a batch of consecutive settlements, the usual case): one index range
                # read beats a long IN list; the few settlements in the gaps are filtered out here.
                wanted = set(ids)
                rows = await conn.execute_fetchall(sql + " BETWEEN ? AND ?" + order, (ids[0], ids[-1]))
                out = [_settlement_entry(r) for r in rows if r[0] in wanted]
            else:
                for i in range(0, len(ids), _IN_CHUNK):  # chunks in id order keep the result ordered
                    part = ids[i : i + _IN_CHUNK]
                    rows = await conn.execute_fetchall(sql + f" IN ({','.join('?' * len(part))})" + order, part)
                    out.extend(_settlement_entry(r) for r in rows)
        return out

    async def table_totals(self, guild_id: int, table_ids: Iterable[int]) -> list[TableSeatTotal]:
        """Per table of the guild, seat and currency (all seasons): the summed amounts and wins, computer
        seats included (a table's winner is decided against them too)."""
        ids = sorted(set(table_ids))
        out: list[TableSeatTotal] = []
        async with self.db.reader() as conn:
            for i in range(0, len(ids), _IN_CHUNK):
                part = ids[i : i + _IN_CHUNK]
                # A seat keeps its player for the whole table, so grouping by user splits nothing.
                rows = await conn.execute_fetchall(
                    "SELECT s.table_id, e.seat, e.user_id, e.is_bot, e.currency, SUM(e.amount), SUM(e.won)"
                    " FROM settlements s JOIN entries e ON e.settlement_id = s.id"
                    f" WHERE s.guild_id = ? AND s.table_id IN ({','.join('?' * len(part))})"
                    " GROUP BY s.table_id, e.seat, e.user_id, e.is_bot, e.currency"
                    " ORDER BY s.table_id, e.seat, e.currency",
                    (guild_id, *part),
                )
                out.extend(
                    TableSeatTotal(int(t), int(seat), int(uid), bool(bot), str(cur), int(amount), int(won))
                    for t, seat, uid, bot, cur, amount, won in rows
                )
        return out

    async def game_totals(self, guild_id: int, user_id: int, game: str, currency: str) -> GameTotals:
        """The user's settlements played and won in ``game`` and ``currency``, and their summed amount,
        over all seasons (adjustments excluded: they belong to no game)."""
        _check_currency(currency)
        async with self.db.reader() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT COALESCE(SUM(games), 0), COALESCE(SUM(wins), 0), COALESCE(SUM(total), 0)"
                    " FROM ledger_totals WHERE guild_id = ? AND user_id = ? AND currency = ? AND game = ?",
                    (guild_id, user_id, currency, game),
                )
            )
        played, won, total = (int(x) for x in rows[0])
        return GameTotals(played, won, total)

    async def contract_stats(
        self, guild_id: int, user_id: int, game: str, currency: str, declarer_path: str, contract_path: str
    ) -> list[ContractStat]:
        """Per contract, the hands of ``game`` the user declared and how many were made (all seasons).

        The paths are JSON paths into the summaries (the game's spec knows them): ``declarer_path`` holds
        the declaring seat, ``contract_path`` the contract; ``$.made`` says whether it was made. Ordered by
        contract."""
        _check_currency(currency)
        join = (
            " FROM settlements s JOIN entries e ON e.settlement_id = s.id"
            " WHERE e.guild_id = ? AND e.user_id = ? AND e.game = ? AND e.currency = ? AND e.is_bot = 0"
        )
        if self.db.dialect == "postgres":
            # jsonb paths instead of JSON1's; a JSON boolean counts 1/0 as SQLite's json_extract makes it.
            sql = (
                "SELECT s.summary_json::jsonb #>> ?::text[],"
                " SUM(CASE s.summary_json::jsonb ->> 'made' WHEN 'true' THEN 1 WHEN 'false' THEN 0"
                " ELSE (s.summary_json::jsonb ->> 'made')::numeric END), COUNT(*)"
                + join
                + " AND s.summary_json::jsonb #> ?::text[] = to_jsonb(e.seat) GROUP BY 1 ORDER BY 1"
            )
            params: tuple[Any, ...] = (_pg_path(contract_path), guild_id, user_id, game, currency)
            params += (_pg_path(declarer_path),)
        else:
            sql = (
                "SELECT json_extract(s.summary_json, ?), SUM(json_extract(s.summary_json, '$.made')), COUNT(*)"
                + join
                + " AND json_extract(s.summary_json, ?) = e.seat GROUP BY 1 ORDER BY 1"
            )
            params = (contract_path, guild_id, user_id, game, currency, declarer_path)
        async with self.db.reader() as conn:
            rows = await conn.execute_fetchall(sql, params)
        return [ContractStat(str(contract), int(made or 0), int(count)) for contract, made, count in rows]

    async def bid_accuracy(self, guild_id: int, user_id: int, game: str, currency: str) -> BidAccuracy:
        """The user's exact bids and rounds in ``game`` (all seasons), from summaries carrying
        ``exact_bids`` (per seat) and ``rounds``."""
        _check_currency(currency)
        if self.db.dialect == "postgres":
            sums = (
                "SELECT COALESCE(SUM((s.summary_json::jsonb -> 'exact_bids' ->> e.seat::int)::numeric), 0),"
                " COALESCE(SUM((s.summary_json::jsonb ->> 'rounds')::numeric), 0)"
            )
        else:
            sums = (
                "SELECT COALESCE(SUM(json_extract(s.summary_json, '$.exact_bids[' || e.seat || ']')), 0),"
                " COALESCE(SUM(json_extract(s.summary_json, '$.rounds')), 0)"
            )
        async with self.db.reader() as conn:
            rows = list(
                await conn.execute_fetchall(
                    sums + " FROM settlements s JOIN entries e ON e.settlement_id = s.id"
                    " WHERE e.guild_id = ? AND e.user_id = ? AND e.game = ? AND e.currency = ? AND e.is_bot = 0",
                    (guild_id, user_id, game, currency),
                )
            )
        return BidAccuracy(int(rows[0][0]), int(rows[0][1]))

    # -- export ----------------------------------------------------------------------------------------
    EXPORT_COLUMNS = (
        "entry_id", "created_at", "season", "settlement_key", "game", "table_id", "hand_index", "kind",
        "user_id", "is_bot", "player_name", "seat", "currency", "amount", "played", "won", "actor_id", "reason",
        "payment_id",
    )  # fmt: skip

    async def export_csv(self, guild_id: int, *, season: SeasonSpec = "all") -> str:
        """Every entry of the guild (optionally of one season) as CSV, one row per entry, oldest first.
        Text cells that a spreadsheet would run as a formula are prefixed with ``'``.

        About 100 bytes per entry: a busy server's full export can exceed Discord's upload limit, hence
        the season filter."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.EXPORT_COLUMNS)
        async with self.db.reader() as conn:
            season_filter = ""
            params: tuple[int, ...] = ()
            if season != "all":
                season_ids = await self._season_ids(conn, guild_id, season)
                if not season_ids:
                    return out.getvalue()
                season_filter = f" AND e.season_id IN ({','.join('?' * len(season_ids))})"
                params = tuple(season_ids)
            cur = await conn.execute(
                "SELECT e.id, e.created_at, se.number, st.key, e.game, st.table_id, st.hand_index, e.kind,"
                " e.user_id, e.is_bot, e.player_name, e.seat, e.currency, e.amount, e.played, e.won, e.actor_id,"
                " e.reason, e.payment_id FROM entries e JOIN seasons se ON se.id = e.season_id"
                f" LEFT JOIN settlements st ON st.id = e.settlement_id WHERE e.guild_id = ?{season_filter}"
                " ORDER BY e.id",
                (guild_id, *params),
            )
            try:
                while batch := await cur.fetchmany(5000):
                    writer.writerows(_export_rows(batch))
            finally:
                await cur.close()
        return out.getvalue()


def _season_filter(guild_id: int, season_ids: Sequence[int]) -> tuple[str, tuple[int, ...]]:
    """``season_id`` condition for resolved seasons: an IN list, or for very many seasons the guild's seasons
    as a subquery (bound-variable limits)."""
    if len(season_ids) > MAX_UNION_SEASONS:
        return "IN (SELECT id FROM seasons WHERE guild_id = ?)", (guild_id,)
    return f"IN ({','.join('?' * len(season_ids))})", tuple(season_ids)


def _pg_path(path: str) -> list[str]:
    """A JSON1 path (``$.a.b[2]``) as a PostgreSQL text[] path (``{a,b,2}``)."""
    if not path.startswith("$"):
        raise ValueError(f"not a JSON path: {path!r}")
    return [p for p in path[1:].replace("[", ".").replace("]", "").split(".") if p]


def _export_rows(batch: Iterable[Any]) -> Iterable[list[object]]:
    for row in batch:
        yield [_csv_cell(v) for v in row]


async def _player_name(conn: Connection, guild_id: int, user_id: int) -> str | None:
    rows = await conn.execute_fetchall(
        "SELECT player_name FROM entries WHERE guild_id = ? AND user_id = ?"
        " AND player_name IS NOT NULL ORDER BY id DESC LIMIT 1",
        (guild_id, user_id),
    )
    return next((str(r[0]) for r in rows), None)


def _settlement_entry(r: Any) -> SettlementEntry:
    return SettlementEntry(int(r[0]), int(r[1]), int(r[2]), bool(r[3]), str(r[4]), int(r[5]))

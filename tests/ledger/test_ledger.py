"""bot.ledger: booking (idempotent, atomic, zero-sum), seasons, adjustments, queries, export, isolation."""

from __future__ import annotations

import asyncio
import csv
import io
import sqlite3
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.ledger import (
    KeyConflict,
    Ledger,
    LedgerRefusal,
    SeatRef,
    UnknownSeason,
    ZeroSumError,
    settlement_key,
)
from bot.storage.db import Database

G1, G2 = 1001, 2002
ALICE, BOB, CARLA = 11, 22, 33
ADMIN = 99
SEATS = [SeatRef(ALICE, "Alice"), SeatRef(BOB, "Bob"), SeatRef(None, "Robot")]


class Clock:
    """A controllable clock: each call advances one second, so times are distinct and ordered."""

    def __init__(self) -> None:
        self.t = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.t += timedelta(seconds=1)
        return self.t


@pytest.fixture(params=["memory", "file", "postgres"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "postgres":
        target: str | Path = request.getfixturevalue("pg_url")
    else:
        target = ":memory:" if request.param == "memory" else tmp_path / "l.db"
    database = await Database.open(target)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def ledger(db: Database) -> Ledger:
    return Ledger(db, clock=Clock())


def hand(
    key: str = "table:1:0",
    *,
    guild_id: int = G1,
    game: str = "wizard",
    table_id: int | str | None = 1,
    hand_index: int | None = 0,
    seats: list[SeatRef] | None = None,
    amounts: dict[str, list[int]] | None = None,
    summary: dict[str, Any] | None = None,
    kind: str = "hand",
) -> dict[str, Any]:
    return {
        "key": key,
        "guild_id": guild_id,
        "game": game,
        "table_id": table_id,
        "hand_index": hand_index,
        "seats": SEATS if seats is None else seats,
        "amounts": {"stake": [5, -2, -3]} if amounts is None else amounts,
        "summary": summary or {},
        "kind": kind,
    }


async def count(db: Database, table: str) -> int:
    row = await db.fetchone(f"SELECT COUNT(*) FROM {table}")
    assert row is not None
    return int(row[0])


# -- booking -----------------------------------------------------------------------------------------------
async def test_book_writes_settlement_and_entries_per_seat_and_currency(ledger: Ledger, db: Database) -> None:
    amounts = {"stake": [5, -2, -3], "point": [0, 12, 3]}
    assert await ledger.settle(**hand(amounts=amounts, summary={"contract": "3♠"}))
    assert await count(db, "settlements") == 1
    rows = await db.fetchall("SELECT * FROM entries ORDER BY id")
    assert len(rows) == 6  # 3 seats x 2 currencies, zero amounts kept
    bots = [r for r in rows if r["is_bot"]]
    assert {(r["user_id"], r["player_name"]) for r in bots} == {(0, "Robot")}
    assert sum(r["amount"] for r in rows if r["currency"] == "stake") == 0  # zero-sum incl. the bot
    assert {r["kind"] for r in rows} == {"hand"}
    st = await db.fetchone("SELECT * FROM settlements")
    assert st is not None and st["summary_json"] == '{"contract":"3♠"}' and st["table_id"] == 1


async def test_book_is_idempotent_under_retries(ledger: Ledger, db: Database) -> None:
    assert await ledger.settle(**hand()) is True
    for _ in range(3):
        assert await ledger.settle(**hand()) is False
    async with db.transaction() as conn:
        assert await ledger.book(conn, **hand()) is False
    assert await count(db, "settlements") == 1
    assert await count(db, "entries") == 3
    assert (await ledger.balance(G1, ALICE))["stake"] == 5


async def test_concurrent_same_key_books_once(ledger: Ledger, db: Database) -> None:
    results = await asyncio.gather(*(ledger.settle(**hand()) for _ in range(20)))
    assert sorted(results) == [False] * 19 + [True]
    assert await count(db, "entries") == 3


async def test_concurrent_different_tables_all_book(ledger: Ledger, db: Database) -> None:
    calls = [ledger.settle(**hand(settlement_key(t, i), table_id=t, hand_index=i)) for t in range(10) for i in range(5)]
    assert all(await asyncio.gather(*calls))
    assert await count(db, "settlements") == 50
    assert await count(db, "entries") == 150
    assert (await ledger.balance(G1, ALICE))["stake"] == 250
    assert await count(db, "seasons") == 1  # lazily created once, not once per racer


async def test_key_reused_for_another_settlement_is_refused(ledger: Ledger) -> None:
    await ledger.settle(**hand("k"))
    with pytest.raises(KeyConflict):
        await ledger.settle(**hand("k", guild_id=G2))  # another guild must never be silently dropped
    with pytest.raises(KeyConflict):
        await ledger.settle(**hand("k", hand_index=1))
    assert await ledger.balance(G2, ALICE) == {"stake": 0, "resto": 0, "point": 0}


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"amounts": {"stake": [5, -2, -2]}}, ZeroSumError),
        ({"amounts": {"resto": [1, 0, 0]}}, ZeroSumError),
        ({"amounts": {"stake": [5, -5]}}, ValueError),
        ({"amounts": {"chips": [0, 0, 0]}}, ValueError),
        ({"amounts": {"stake": [True, False, -1]}}, ValueError),
        ({"amounts": {"stake": [1.5, -1.5, 0]}}, ValueError),
        ({"amounts": {}}, ValueError),
        ({"seats": []}, ValueError),
        ({"seats": [SeatRef(-1, "x"), SeatRef(1, "y"), SeatRef(2, "z")]}, ValueError),
        ({"key": " "}, ValueError),
        ({"guild_id": 0}, ValueError),
        ({"game": ""}, ValueError),
        ({"kind": "adjustment"}, ValueError),
        ({"amounts": {"point": [1, 2, 3]}, "summary": {"ranks": [1, 2]}}, ValueError),
        ({"summary": {"bad": object()}}, TypeError),
    ],
)
async def test_invalid_settlements_are_refused_and_book_nothing(
    ledger: Ledger, db: Database, changes: dict[str, Any], error: type[Exception]
) -> None:
    args = hand()
    args.update(changes)
    with pytest.raises(error):
        await ledger.settle(**args)
    async with db.transaction() as conn:
        with pytest.raises(error):
            await ledger.book(conn, **args)
    assert await count(db, "settlements") == 0
    assert await count(db, "entries") == 0


async def test_points_need_not_sum_to_zero(ledger: Ledger) -> None:
    assert await ledger.settle(**hand(amounts={"point": [3, 3, 3]}))


async def test_book_requires_a_transaction(ledger: Ledger, db: Database) -> None:
    with pytest.raises(RuntimeError, match="transaction"):
        await ledger.book(db.conn, **hand())


async def test_book_shares_the_callers_transaction(ledger: Ledger, db: Database) -> None:
    """The table service appends an action and books the hand atomically."""
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS actions_t (x INTEGER)")
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO actions_t VALUES (1)")
        assert await ledger.book(conn, **hand())
        # Reads inside the transaction see its own writes.
        assert (await ledger.balance(G1, ALICE))["stake"] == 5
    assert await count(db, "actions_t") == 1
    assert await count(db, "entries") == 3


async def test_exception_inside_transaction_books_nothing(ledger: Ledger, db: Database) -> None:
    with pytest.raises(RuntimeError, match="crash"):
        async with db.transaction() as conn:
            assert await ledger.book(conn, **hand())
            assert await ledger.book(conn, **hand("table:1:1", hand_index=1))
            raise RuntimeError("crash after booking")
    assert await count(db, "settlements") == 0
    assert await count(db, "entries") == 0
    assert await count(db, "seasons") == 0  # the lazily created season went too
    assert await ledger.settle(**hand())  # and the retry books it
    assert await count(db, "entries") == 3


def test_settlement_key_is_the_table_services_form() -> None:
    # Existing databases hold these keys: re-booking a replayed unit must find them.
    assert settlement_key(7, 4) == "table:7:unit:4"
    assert settlement_key("abc", 0) == "table:abc:unit:0"


async def test_ledger_is_append_only(ledger: Ledger, db: Database) -> None:
    await ledger.settle(**hand())
    await ledger.adjust(G1, ALICE, "stake", 5, ADMIN, "fix")
    for sql in (
        "UPDATE entries SET amount = 100",
        "DELETE FROM entries",
        "UPDATE settlements SET key = 'x'",
        "DELETE FROM settlements",
        "DELETE FROM seasons",
        "UPDATE seasons SET number = 5",
    ):
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as conn:
                await conn.execute(sql)
    assert await count(db, "entries") == 4


# -- seasons -----------------------------------------------------------------------------------------------
async def test_seasons_are_lazy_and_close_opens_the_next(ledger: Ledger) -> None:
    assert await ledger.current_season(G1) is None
    assert await ledger.balance(G1, ALICE) == {"stake": 0, "resto": 0, "point": 0}
    assert await ledger.leaderboard(G1) == []
    assert await ledger.current_season(G1) is None  # reads never create seasons

    await ledger.settle(**hand("a"))
    s1 = await ledger.current_season(G1)
    assert s1 is not None and s1.number == 1 and s1.is_open

    s2 = await ledger.close_season(G1, ADMIN)
    assert s2.number == 2 and s2.is_open
    seasons = await ledger.seasons(G1)
    assert [s.number for s in seasons] == [1, 2]
    assert seasons[0].closed_by == ADMIN and seasons[0].closed_at is not None

    await ledger.settle(**hand("b", hand_index=1, amounts={"stake": [-1, 1, 0]}))
    assert (await ledger.balance(G1, ALICE))["stake"] == -1
    assert (await ledger.balance(G1, ALICE, season=1))["stake"] == 5
    assert (await ledger.balance(G1, ALICE, season=2))["stake"] == -1
    assert (await ledger.balance(G1, ALICE, season="all"))["stake"] == 4
    with pytest.raises(UnknownSeason):
        await ledger.balance(G1, ALICE, season=3)
    assert [r.user_id for r in await ledger.leaderboard(G1, season=1)] == [ALICE, BOB]
    assert [(r.user_id, r.total) for r in await ledger.leaderboard(G1)] == [(BOB, 1), (ALICE, -1)]
    assert len(await ledger.history(G1, ALICE)) == 2  # history spans seasons
    assert [h.season_number for h in await ledger.history(G1, ALICE)] == [2, 1]


async def test_close_season_without_any_season(ledger: Ledger) -> None:
    s = await ledger.close_season(G1, ADMIN)
    assert s.number == 2
    assert [x.is_open for x in await ledger.seasons(G1)] == [False, True]


async def test_closing_a_named_season_twice_closes_it_once(ledger: Ledger) -> None:
    """A second click on one confirmation (it names season 1) is refused: season 2 stays open."""
    await ledger.settle(**hand("a"))
    assert (await ledger.close_season(G1, ADMIN, 1)).number == 2
    with pytest.raises(LedgerRefusal) as refused:
        await ledger.close_season(G1, ADMIN, 1)
    assert refused.value.params == {"n": 1} and "already closed" in str(refused.value)
    assert [(s.number, s.is_open) for s in await ledger.seasons(G1)] == [(1, False), (2, True)]
    first, second = await asyncio.gather(
        ledger.close_season(G1, ADMIN, 2), ledger.close_season(G1, ADMIN, 2), return_exceptions=True
    )
    assert sorted(type(r).__name__ for r in (first, second)) == ["LedgerRefusal", "Season"]  # two racing clicks
    assert [(s.number, s.is_open) for s in await ledger.seasons(G1)] == [(1, False), (2, False), (3, True)]
    assert (await ledger.close_season(G1, ADMIN)).number == 4  # no number: the open season, as before


# -- adjustments -------------------------------------------------------------------------------------------
async def test_adjust_adds_an_entry(ledger: Ledger, db: Database) -> None:
    await ledger.settle(**hand())
    entry_id = await ledger.adjust(G1, ALICE, "stake", -3, ADMIN, "  refund of a disputed hand ", name="Alice")
    assert (await ledger.balance(G1, ALICE))["stake"] == 2
    row = await db.fetchone("SELECT * FROM entries WHERE id = ?", (entry_id,))
    assert row is not None
    assert (row["kind"], row["actor_id"], row["reason"], row["settlement_id"]) == (
        "adjustment",
        ADMIN,
        "refund of a disputed hand",
        None,
    )
    top = await ledger.history(G1, ALICE, limit=1)
    assert top[0].kind == "adjustment" and top[0].amounts == {"stake": -3} and top[0].actor_id == ADMIN


@pytest.mark.parametrize(
    "args",
    [
        (G1, ALICE, "stake", 5, ADMIN, ""),
        (G1, ALICE, "stake", 5, ADMIN, "   "),
        (G1, ALICE, "stake", 0, ADMIN, "why"),
        (G1, ALICE, "gold", 5, ADMIN, "why"),
        (G1, 0, "stake", 5, ADMIN, "why"),
        (G1, ALICE, "stake", 5, ADMIN, "x" * 501),
    ],
)
async def test_adjust_validation(ledger: Ledger, db: Database, args: tuple[Any, ...]) -> None:
    with pytest.raises(ValueError):
        await ledger.adjust(*args)
    assert await count(db, "entries") == 0


# -- balance / history / leaderboard -----------------------------------------------------------------------
async def test_balance_per_currency_and_bots_excluded(ledger: Ledger) -> None:
    await ledger.settle(**hand(amounts={"stake": [5, -2, -3], "resto": [-1, 2, -1], "point": [1, 2, 3]}))
    assert await ledger.balance(G1, ALICE) == {"stake": 5, "resto": -1, "point": 1}
    assert await ledger.balance(G1, BOB, "resto") == {"resto": 2}
    assert await ledger.balance(G1, 0) == {"stake": 0, "resto": 0, "point": 0}  # bots have no balance
    with pytest.raises(ValueError):
        await ledger.balance(G1, ALICE, "gold")
    with pytest.raises(ValueError):
        await ledger.balance(G1, ALICE, season="last")  # type: ignore[arg-type]


async def test_history_pages_newest_first(ledger: Ledger) -> None:
    for i in range(25):
        amounts = {"stake": [i, -i, 0], "point": [i, 0, 0]}
        await ledger.settle(**hand(f"t:{i}", hand_index=i, amounts=amounts, summary={"i": i}))
        if i % 10 == 0:
            await ledger.adjust(G1, ALICE, "resto", 1, ADMIN, f"bonus {i}")
    seen: list[Any] = []
    before: int | None = None
    while True:
        page = await ledger.history(G1, ALICE, limit=7, before_id=before)
        if not page:
            break
        assert len(page) <= 7
        seen.extend(page)
        before = page[-1].id
    assert len(seen) == 28
    assert [r.id for r in seen] == sorted((r.id for r in seen), reverse=True)
    hands = [r for r in seen if r.kind == "hand"]
    assert [r.hand_index for r in hands] == list(range(24, -1, -1))
    h = hands[0]
    assert h.amounts == {"stake": 24, "point": 24} and h.summary == {"i": 24}
    assert (h.game, h.table_id, h.key, h.seat, h.season_number) == ("wizard", 1, "t:24", 0, 1)
    assert h.created_at.tzinfo is not None
    adjustments = [r for r in seen if r.kind == "adjustment"]
    assert [r.reason for r in adjustments] == ["bonus 20", "bonus 10", "bonus 0"]
    assert await ledger.history(G1, CARLA) == []
    with pytest.raises(ValueError):
        await ledger.history(G1, ALICE, limit=0)


async def test_history_groups_a_user_holding_two_seats(ledger: Ledger) -> None:
    seats = [SeatRef(ALICE, "Alice"), SeatRef(BOB, "Bob"), SeatRef(ALICE, "Alice")]
    await ledger.settle(**hand(seats=seats, amounts={"stake": [3, -4, 1]}))
    (row,) = await ledger.history(G1, ALICE)
    assert row.amounts == {"stake": 4} and row.seat == 0
    (lb,) = [r for r in await ledger.leaderboard(G1) if r.user_id == ALICE]
    assert (lb.total, lb.games, lb.wins) == (4, 1, 1)


async def test_games_and_wins_count_players_not_seats(ledger: Ledger, db: Database) -> None:
    # Alice wins seat 0 but loses more on seat 2: she played once and lost.
    seats = [SeatRef(ALICE, "Alice"), SeatRef(BOB, "Bob"), SeatRef(ALICE, "Alice"), SeatRef(None, "Robot")]
    await ledger.settle(**hand(seats=seats, amounts={"stake": [3, 2, -5, 0], "point": [1, 0, 0, 9]}))
    lb = {r.user_id: r for r in await ledger.leaderboard(G1)}
    assert (lb[ALICE].total, lb[ALICE].games, lb[ALICE].wins) == (-2, 1, 0)
    assert (lb[BOB].total, lb[BOB].games, lb[BOB].wins) == (2, 1, 1)
    rows = await db.fetchall("SELECT seat, currency, played, won FROM entries ORDER BY id")
    assert [tuple(r) for r in rows] == [
        (0, "stake", 1, 0),
        (0, "point", 1, 1),
        (1, "stake", 1, 1),
        (1, "point", 1, 0),
        (2, "stake", 0, 0),  # Alice's second seat: not a second game
        (2, "point", 0, 0),
        (3, "stake", 1, 0),  # each computer seat is a player of its own
        (3, "point", 1, 1),
    ]


async def test_leaderboard_totals_wins_games(ledger: Ledger) -> None:
    # Alice wins 2 of 3 wizard hands; Bob wins 1 and a mighty hand; Carla plays mighty only.
    await ledger.settle(**hand("w0", hand_index=0, amounts={"stake": [5, -2, -3]}))
    await ledger.settle(**hand("w1", hand_index=1, amounts={"stake": [1, -1, 0]}))
    await ledger.settle(**hand("w2", hand_index=2, amounts={"stake": [-4, 6, -2]}))
    mighty = [SeatRef(BOB, "Bob"), SeatRef(CARLA, "Carla"), SeatRef(None, "Robot")]
    await ledger.settle(**hand("m0", game="mighty", table_id=2, seats=mighty, amounts={"stake": [3, 0, -3]}))
    await ledger.adjust(G1, CARLA, "stake", 10, ADMIN, "prize")

    lb = await ledger.leaderboard(G1)
    assert [(r.user_id, r.name, r.total, r.games, r.wins) for r in lb] == [
        (CARLA, "Carla", 10, 1, 0),  # adjustment counts in the total, not as a game
        (BOB, "Bob", 6, 4, 2),
        (ALICE, "Alice", 2, 3, 2),
    ]
    assert 0 not in {r.user_id for r in lb}
    wiz = await ledger.leaderboard(G1, game="wizard")
    assert [(r.user_id, r.total, r.games, r.wins) for r in wiz] == [(BOB, 3, 3, 1), (ALICE, 2, 3, 2)]
    assert [r.user_id for r in await ledger.leaderboard(G1, game="wizard", by="wins")] == [ALICE, BOB]
    assert [r.user_id for r in await ledger.leaderboard(G1, by="games")] == [BOB, ALICE, CARLA]
    assert [r.user_id for r in await ledger.leaderboard(G1, limit=1)] == [CARLA]
    assert await ledger.leaderboard(G1, game="minchiate") == []
    assert await ledger.leaderboard(G1, currency="resto") == []
    with pytest.raises(ValueError):
        await ledger.leaderboard(G1, by="luck")
    with pytest.raises(ValueError):
        await ledger.leaderboard(G1, currency="gold")


async def test_point_wins_use_ranks_when_present(ledger: Ledger) -> None:
    # With ranks: the winner is rank 1 even with fewer points this unit (e.g. lowest-score-wins games).
    await ledger.settle(**hand("g0", amounts={"point": [10, 30, 0]}, summary={"ranks": [1, 2, 3]}, kind="game"))
    # Ties share rank 1.
    await ledger.settle(**hand("g1", hand_index=1, amounts={"point": [5, 5, 0]}, summary={"ranks": [1, 1, 3]}))
    # Without ranks: amount > 0.
    await ledger.settle(**hand("g2", hand_index=2, amounts={"point": [0, 7, 0]}))
    by_user = {r.user_id: r for r in await ledger.leaderboard(G1, currency="point", by="wins")}
    assert (by_user[ALICE].wins, by_user[BOB].wins) == (2, 2)
    assert (by_user[ALICE].total, by_user[BOB].total) == (15, 42)
    assert by_user[ALICE].games == 3


async def test_leaderboard_name_is_the_latest(ledger: Ledger) -> None:
    await ledger.settle(**hand("a"))
    renamed = [SeatRef(ALICE, "Alice2"), SeatRef(BOB, "Bob"), SeatRef(None, "Robot")]
    await ledger.settle(**hand("b", hand_index=1, seats=renamed))
    assert {r.user_id: r.name for r in await ledger.leaderboard(G1)}[ALICE] == "Alice2"


# -- export ------------------------------------------------------------------------------------------------
async def test_export_csv(ledger: Ledger) -> None:
    evil = [SeatRef(ALICE, '=HYPERLINK("x")'), SeatRef(BOB, "Bob"), SeatRef(None, "Robot")]
    await ledger.settle(**hand(seats=evil, amounts={"stake": [5, -2, -3], "point": [1, 0, 0]}))
    await ledger.adjust(G1, BOB, "stake", -7, ADMIN, "+cheating")
    await ledger.settle(**hand("other", guild_id=G2))
    rows = list(csv.DictReader(io.StringIO(await ledger.export_csv(G1))))
    assert len(rows) == 7
    assert tuple(rows[0]) == Ledger.EXPORT_COLUMNS
    assert rows[0]["player_name"] == '\'=HYPERLINK("x")'  # neutralised formula
    assert rows[0]["settlement_key"] == "table:1:0" and rows[0]["season"] == "1"
    assert {r["amount"] for r in rows if r["player_name"] == "Robot"} == {"-3", "0"}
    assert rows[-1]["kind"] == "adjustment" and rows[-1]["reason"] == "'+cheating"
    assert rows[-1]["amount"] == "-7"  # numbers are never altered
    assert [int(r["entry_id"]) for r in rows] == sorted(int(r["entry_id"]) for r in rows)
    assert (await ledger.export_csv(3003)).strip() == ",".join(Ledger.EXPORT_COLUMNS)
    await ledger.close_season(G1, ADMIN)
    await ledger.settle(**hand("s2"))
    assert len(list(csv.DictReader(io.StringIO(await ledger.export_csv(G1))))) == 10
    assert len(list(csv.DictReader(io.StringIO(await ledger.export_csv(G1, season="current"))))) == 3
    assert len(list(csv.DictReader(io.StringIO(await ledger.export_csv(G1, season=1))))) == 7
    assert (await ledger.export_csv(3003, season="current")).strip() == ",".join(Ledger.EXPORT_COLUMNS)


# -- isolation ---------------------------------------------------------------------------------------------
async def test_guilds_never_see_each_other(ledger: Ledger) -> None:
    await ledger.settle(**hand("g1:0", guild_id=G1))
    await ledger.settle(**hand("g2:0", guild_id=G2, amounts={"stake": [-8, 8, 0]}))
    await ledger.adjust(G2, ALICE, "point", 3, ADMIN, "g2 only")
    await ledger.close_season(G2, ADMIN)

    assert (await ledger.balance(G1, ALICE))["stake"] == 5
    assert (await ledger.balance(G1, ALICE, season="all")) == {"stake": 5, "resto": 0, "point": 0}
    assert (await ledger.balance(G2, ALICE, season=1)) == {"stake": -8, "resto": 0, "point": 3}
    assert [h.key for h in await ledger.history(G1, ALICE)] == ["g1:0"]
    assert [h.key for h in await ledger.history(G2, ALICE)] == [None, "g2:0"]
    assert [(r.user_id, r.total) for r in await ledger.leaderboard(G1)] == [(ALICE, 5), (BOB, -2)]
    assert [(r.user_id, r.total) for r in await ledger.leaderboard(G2, season=1)] == [(BOB, 8), (ALICE, -8)]
    assert [s.number for s in await ledger.seasons(G1)] == [1]
    s1 = await ledger.current_season(G1)
    assert s1 is not None and s1.number == 1
    with pytest.raises(UnknownSeason):
        await ledger.leaderboard(G1, season=2)
    assert "g2:0" not in await ledger.export_csv(G1)
    assert "g1:0" not in await ledger.export_csv(G2)


async def test_timestamps_come_from_the_clock(db: Database) -> None:
    fixed = datetime(2030, 5, 6, 7, 8, 9, tzinfo=UTC)
    clock: Callable[[], datetime] = lambda: fixed  # noqa: E731
    ledger = Ledger(db, clock=clock)
    await ledger.settle(**hand())
    (row,) = await ledger.history(G1, ALICE)
    assert row.created_at == fixed


async def test_leaderboard_across_seasons(ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    for season in range(3):
        for i in range(season + 1):
            won = [3, -3, 0] if i % 2 == 0 else [-1, 1, 0]
            await ledger.settle(**hand(f"s{season}:{i}", table_id=season, hand_index=i, amounts={"stake": won}))
        await ledger.adjust(G1, CARLA, "stake", 1, ADMIN, "season bonus")
        await ledger.close_season(G1, ADMIN)

    def shape(rows: list[Any]) -> list[tuple[int, int, int, int]]:
        return [(r.user_id, r.total, r.games, r.wins) for r in rows]

    # seasons: 1 hand (A wins), 2 hands (A, B), 3 hands (A, B, A) -> A: 4 wins of 6, B: 2 wins.
    expected = [(ALICE, 10, 6, 4), (CARLA, 3, 0, 0), (BOB, -10, 6, 2)]
    assert shape(await ledger.leaderboard(G1, season="all")) == expected
    assert shape(await ledger.leaderboard(G1, season=2)) == [(ALICE, 2, 2, 1), (CARLA, 1, 0, 0), (BOB, -2, 2, 1)]
    assert await ledger.leaderboard(G1) == []  # the new season 4 is empty
    # The single-query path used for very many seasons gives the same answer.
    monkeypatch.setattr("bot.ledger.service.MAX_UNION_SEASONS", 1)
    assert shape(await ledger.leaderboard(G1, season="all")) == expected
    for by in ("wins", "games"):
        monkeypatch.setattr("bot.ledger.service.MAX_UNION_SEASONS", 1)
        slow = await ledger.leaderboard(G1, season="all", by=by)
        monkeypatch.setattr("bot.ledger.service.MAX_UNION_SEASONS", 200)
        assert slow == await ledger.leaderboard(G1, season="all", by=by)
    assert (await ledger.balance(G1, ALICE, season="all"))["stake"] == 10


async def test_hot_queries_use_covering_indexes() -> None:
    """Balances and leaderboards read ledger_totals by its keys (O(players), see bench/ledger_bench.py), never
    a scan of the entries."""
    db = await Database.open(":memory:")
    try:
        ledger = Ledger(db)
        await ledger.settle(**hand())
        await ledger.close_season(G1, ADMIN)
        await ledger.settle(**hand("b", hand_index=1))
        seen: list[str] = []
        await db.conn.set_trace_callback(seen.append)
        await ledger.balance(G1, ALICE)
        await ledger.balance(G1, ALICE, "stake", season="all")
        await ledger.leaderboard(G1)
        await ledger.leaderboard(G1, game="wizard", season="all")
        await db.conn.set_trace_callback(None)  # type: ignore[arg-type]  # sqlite3 accepts None; stubs do not
        hot = [sql for sql in seen if "SUM(total)" in sql]
        assert len(hot) == 4
        for sql in hot:
            plan = " | ".join(r[3] for r in await db.fetchall("EXPLAIN QUERY PLAN " + sql))
            assert "SEARCH ledger_totals USING" in plan, (sql, plan)
            assert "entries" not in plan, (sql, plan)
    finally:
        await db.close()

"""bot.ledger: the typed reads other services use (ratings fold, tournament standings, profiles).

One fixture ledger: guild G1 plays over two seasons, guild G2 books a table with the *same* table id and the
same users, so every read is checked to keep servers apart.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games import registry
from bot.ledger import (
    BidAccuracy,
    ContractStat,
    GameTotals,
    Ledger,
    SeatRef,
    SettlementEntry,
    TableSeatTotal,
    settlement_key,
)
from bot.storage.db import Database

G1, G2, EMPTY = 1001, 2002, 3003
ALICE, BOB, CARLA, DAN = 11, 22, 33, 44
ADMIN = 99
DECLARER, CONTRACT = registry.get("mighty").profile.contract_paths or ("", "")


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
    return Ledger(db)


def _mighty_seats(names: str = "") -> list[SeatRef]:
    return [
        SeatRef(ALICE, f"Alice{names}"),
        SeatRef(BOB, "Bob"),
        SeatRef(CARLA, "Carla"),
        SeatRef(DAN, "Dan"),
        SeatRef(None, "Robot"),
    ]


async def _mighty(ledger: Ledger, guild: int, table: int, i: int, decl: int, bid: int, made: bool, **kw: Any) -> None:
    sign = 1 if made else -1
    pay = [4 * sign if s == decl else -sign for s in range(5)]
    await ledger.settle(
        key=f"g{guild}:" + settlement_key(table, i), guild_id=guild, game="mighty", table_id=table, hand_index=i,
        seats=kw.get("seats", _mighty_seats()), amounts={"stake": pay},
        summary={"declarer": decl, "friend": None, "made": made, "bid": bid},
    )  # fmt: skip


async def _wizard(ledger: Ledger, guild: int, table: int, points: list[int], exact: list[int], rounds: int) -> None:
    ranks = [1 + sum(1 for o in points if o > p) for p in points]
    await ledger.settle(
        key=f"g{guild}:" + settlement_key(table, 0), guild_id=guild, game="wizard", table_id=table, hand_index=0,
        seats=[SeatRef(ALICE, "Alice"), SeatRef(BOB, "Bob"), SeatRef(None, "Robot")],
        amounts={"point": points}, summary={"ranks": ranks, "exact_bids": exact, "rounds": rounds}, kind="game",
    )  # fmt: skip


@pytest.fixture
async def booked(ledger: Ledger) -> Ledger:
    """G1 season 1: mighty table 2 hand 0 (Alice declares 14, made), wizard table 1; G2: mighty table 2 (the
    same id) hand 0 (Alice declares 16, made); G1 season 2: table 2 hands 1 (Alice 14, failed), 2 (Bob 15,
    made); then an adjustment naming Alice anew in G1."""
    await _mighty(ledger, G1, 2, 0, 0, 14, True)  # settlement 1
    await _wizard(ledger, G1, 1, [50, 20, -10], [3, 1, 0], 4)  # 2
    await _mighty(ledger, G2, 2, 0, 0, 16, True, seats=_mighty_seats(" (G2)"))  # 3
    await ledger.close_season(G1, ADMIN)
    await _mighty(ledger, G1, 2, 1, 0, 14, False)  # 4
    await _mighty(ledger, G1, 2, 2, 1, 15, True)  # 5
    await ledger.adjust(G1, ALICE, "stake", 100, ADMIN, "prize", name="Alice the Great")
    return ledger


# -- an empty guild ---------------------------------------------------------------------------------------
async def test_reads_of_an_empty_ledger(ledger: Ledger) -> None:
    assert await ledger.settlements_after(0, 10) == []
    assert await ledger.settlements_of_guild(G1, 1 << 62) == []
    assert await ledger.entries_of([]) == []
    assert await ledger.entries_of([1, 2, 50]) == []
    assert await ledger.table_totals(G1, [1, 2]) == []
    assert await ledger.table_totals(G1, []) == []
    assert await ledger.player_name(G1, ALICE) is None
    assert await ledger.game_totals(G1, ALICE, "mighty", "stake") == GameTotals(0, 0, 0)
    assert await ledger.contract_stats(G1, ALICE, "mighty", "stake", DECLARER, CONTRACT) == []
    assert await ledger.bid_accuracy(G1, ALICE, "wizard", "point") == BidAccuracy(0, 0)
    assert await ledger.seasons(G1) == []  # reads never create seasons


async def test_a_guild_without_bookings_sees_nothing_of_the_others(booked: Ledger) -> None:
    assert await booked.settlements_of_guild(EMPTY, 1 << 62) == []
    assert await booked.table_totals(EMPTY, [1, 2]) == []
    assert await booked.player_name(EMPTY, ALICE) is None
    assert await booked.game_totals(EMPTY, ALICE, "mighty", "stake") == GameTotals(0, 0, 0)
    assert await booked.contract_stats(EMPTY, ALICE, "mighty", "stake", DECLARER, CONTRACT) == []
    assert await booked.bid_accuracy(EMPTY, ALICE, "wizard", "point") == BidAccuracy(0, 0)


# -- the ratings fold -------------------------------------------------------------------------------------
async def test_settlements_after_walks_every_guild_in_id_order(booked: Ledger) -> None:
    rows = await booked.settlements_after(0, 100)
    assert [(r.id, r.guild_id, r.game, r.hand_index) for r in rows] == [
        (1, G1, "mighty", 0),
        (2, G1, "wizard", 0),
        (3, G2, "mighty", 0),
        (4, G1, "mighty", 1),
        (5, G1, "mighty", 2),
    ]
    assert rows[0].key == f"g{G1}:table:2:unit:0" and rows[0].table_id == 2
    assert rows[1].summary == {"ranks": [1, 2, 3], "exact_bids": [3, 1, 0], "rounds": 4}  # parsed JSON
    assert rows[0].season_id != rows[3].season_id  # G1 closed a season in between
    assert [r.id for r in await booked.settlements_after(2, 2)] == [3, 4]  # cursor and limit
    assert await booked.settlements_after(5, 10) == []
    with pytest.raises(ValueError):
        await booked.settlements_after(0, 0)


async def test_settlements_of_guild_stops_at_upto(booked: Ledger) -> None:
    assert [r.id for r in await booked.settlements_of_guild(G1, 1 << 62)] == [1, 2, 4, 5]
    assert [r.id for r in await booked.settlements_of_guild(G1, 4)] == [1, 2, 4]  # inclusive
    assert [r.id for r in await booked.settlements_of_guild(G2, 1 << 62)] == [3]


async def test_entries_of_contiguous_and_sparse_batches(booked: Ledger, db: Database) -> None:
    everything = await booked.entries_of([1, 2, 3, 4, 5])
    assert len(everything) == 5 + 3 + 5 + 5 + 5  # one per seat and currency; never the adjustment
    assert everything[:2] == [
        SettlementEntry(1, 0, ALICE, False, "stake", 4),
        SettlementEntry(1, 1, BOB, False, "stake", -1),
    ]
    assert everything[4] == SettlementEntry(1, 4, 0, True, "stake", -1)  # computers are user 0
    assert [e.settlement_id for e in everything] == sorted(e.settlement_id for e in everything)
    # Nearly contiguous (range read, the gap filtered out) and sparse (IN list): the same rows as SQL gives.
    for ids in ([1, 2, 4, 5], [5, 1], [2]):
        got = await booked.entries_of(ids)
        marks = ",".join("?" * len(ids))
        want = await db.fetchall(
            "SELECT settlement_id, seat, user_id, is_bot, currency, amount FROM entries"
            f" WHERE settlement_id IN ({marks}) ORDER BY settlement_id, seat, id",
            ids,
        )
        assert [(e.settlement_id, e.seat, e.user_id, int(e.is_bot), e.currency, e.amount) for e in got] == [
            tuple(r) for r in want
        ]
    assert {e.settlement_id for e in await booked.entries_of(iter([4, 4, 3]))} == {3, 4}  # any iterable


# -- tournament standings ---------------------------------------------------------------------------------
async def test_table_totals_sum_a_table_across_seasons_within_its_guild(booked: Ledger) -> None:
    rows = await booked.table_totals(G1, [2])
    assert rows == [
        TableSeatTotal(2, 0, ALICE, False, "stake", 4 - 4 - 1, 1),
        TableSeatTotal(2, 1, BOB, False, "stake", -1 + 1 + 4, 2),
        TableSeatTotal(2, 2, CARLA, False, "stake", -1 + 1 - 1, 1),
        TableSeatTotal(2, 3, DAN, False, "stake", -1, 1),
        TableSeatTotal(2, 4, 0, True, "stake", -1, 1),
    ]
    # G2's table 2 is another table: its hand is not in G1's totals, and G1's are not in G2's.
    assert [(r.seat, r.amount, r.wins) for r in await booked.table_totals(G2, [2])][:2] == [(0, 4, 1), (1, -1, 0)]
    both = await booked.table_totals(G1, [1, 2, 77])
    assert [(r.table_id, r.seat, r.currency) for r in both][:3] == [(1, 0, "point"), (1, 1, "point"), (1, 2, "point")]
    assert both[0].amount == 50 and both[0].wins == 1 and both[1].wins == 0
    assert len(both) == 3 + 5


# -- profiles ---------------------------------------------------------------------------------------------
async def test_player_name_is_the_latest_in_that_guild(booked: Ledger) -> None:
    assert await booked.player_name(G1, ALICE) == "Alice the Great"  # the adjustment came last
    assert await booked.player_name(G2, ALICE) == "Alice (G2)"
    assert await booked.player_name(G1, BOB) == "Bob"
    assert await booked.player_name(G1, 0) == "Robot"


async def test_game_totals_span_seasons_and_leave_out_adjustments(booked: Ledger) -> None:
    assert await booked.game_totals(G1, ALICE, "mighty", "stake") == GameTotals(3, 1, 4 - 4 - 1)
    assert await booked.game_totals(G1, BOB, "mighty", "stake") == GameTotals(3, 2, 4)
    assert await booked.game_totals(G2, ALICE, "mighty", "stake") == GameTotals(1, 1, 4)
    assert await booked.game_totals(G1, ALICE, "wizard", "point") == GameTotals(1, 1, 50)
    assert await booked.game_totals(G1, ALICE, "wizard", "stake") == GameTotals(0, 0, 0)
    assert await booked.balance(G1, ALICE, "stake", "all") == {"stake": 100 - 1}  # the adjustment is a balance
    with pytest.raises(ValueError):
        await booked.game_totals(G1, ALICE, "mighty", "gold")


async def test_contract_stats_count_only_the_users_declarations_in_the_guild(booked: Ledger) -> None:
    assert await booked.contract_stats(G1, ALICE, "mighty", "stake", DECLARER, CONTRACT) == [ContractStat("14", 1, 2)]
    assert await booked.contract_stats(G1, BOB, "mighty", "stake", DECLARER, CONTRACT) == [ContractStat("15", 1, 1)]
    assert await booked.contract_stats(G1, CARLA, "mighty", "stake", DECLARER, CONTRACT) == []
    assert await booked.contract_stats(G2, ALICE, "mighty", "stake", DECLARER, CONTRACT) == [ContractStat("16", 1, 1)]


async def test_bid_accuracy_reads_the_users_seat(booked: Ledger) -> None:
    await _wizard(booked, G1, 9, [0, 30, 10], [1, 4, 2], 5)  # a second game, Bob ahead
    assert await booked.bid_accuracy(G1, ALICE, "wizard", "point") == BidAccuracy(3 + 1, 4 + 5)
    assert await booked.bid_accuracy(G1, BOB, "wizard", "point") == BidAccuracy(1 + 4, 4 + 5)
    assert await booked.bid_accuracy(G2, ALICE, "wizard", "point") == BidAccuracy(0, 0)

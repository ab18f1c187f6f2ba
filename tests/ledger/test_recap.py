"""Season records (bot/ledger/recap.py) from hand-written ledgers, and read back from a real booked season."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.ledger import Ledger, SeatRef
from bot.ledger.recap import (
    Accuracy,
    BigWin,
    Closest,
    Contracts,
    MostPlayed,
    RecapEntry,
    Streak,
    json_path,
    records,
    season_entries,
)
from bot.storage.db import Database

T0 = datetime(2026, 5, 1, tzinfo=UTC)
NAMES = {1: "Anna", 2: "Marco", 3: "Luca"}
CURRENCY_OF = {"mighty": "stake", "mediatore": "stake", "wizard": "point"}
PATHS = {"mighty": ("$.declarer", "$.bid"), "mediatore": ("$.bidder", "$.contract")}


def hand(
    sid: int, game: str, amounts: dict[int, int], *, table: int = 1, summary: dict[str, Any] | None = None,
    currency: str = "stake", won: set[int] | None = None,
) -> list[RecapEntry]:  # fmt: skip
    """One settlement: seat i = the i-th user of ``amounts``; a win is a positive amount unless ``won`` says."""
    out = []
    for seat, (uid, amount) in enumerate(amounts.items()):
        w = (uid in won) if won is not None else amount > 0
        out.append(RecapEntry(sid, game, table, T0 + timedelta(hours=sid), uid, NAMES[uid], seat, currency, amount,
                              True, w, summary or {}))  # fmt: skip
    return out


def test_biggest_win_streak_contracts_most_played_and_closest() -> None:
    entries = [
        *hand(1, "mighty", {1: 5, 2: -3, 3: -2}, table=1, summary={"declarer": 0, "made": True}),
        *hand(2, "mighty", {1: 4, 2: -2, 3: -2}, table=1, summary={"declarer": 0, "made": True}),
        *hand(3, "mighty", {1: -6, 2: 9, 3: -3}, table=1, summary={"declarer": 1, "made": True}),
        *hand(4, "mighty", {1: 2, 2: -1, 3: -1}, table=1, summary={"declarer": 2, "made": False}),
        *hand(5, "mediatore", {1: -1, 2: -1, 3: 2}, table=2, summary={"bidder": 2, "made": True}),
        *hand(6, "mediatore", {1: -4, 2: -4, 3: 8}, table=2, summary={"bidder": 2, "made": True}),
    ]
    r = records(entries, currency_of=CURRENCY_OF, contract_paths=PATHS, bid_games=("wizard",))
    assert r.big_win == BigWin(2, "Marco", 9, "stake", "mighty", T0 + timedelta(hours=3))
    # Anna won 1, 2 (streak 2), lost 3, won 4; Luca won 5 and 6 (streak 2, later): the first streak stands
    assert r.streak == Streak(1, "Anna", 2, "mighty")
    # Anna made 2 of 2, Luca 2 of 3 (hand 4 declared but lost; 5 and 6 made): equal made, fewer declared wins
    assert r.contracts == Contracts(1, "Anna", 2, 2)
    assert r.most_played == MostPlayed("mighty", 4)
    # table 1: Anna 5, Marco 3 -> margin 2; table 2: Luca 10, Anna -5 -> margin 15
    assert r.closest == Closest("mighty", 1, "Anna", "Marco", 2, "stake")
    assert r.accuracy is None  # no Wizard played


def test_bid_accuracy_needs_enough_rounds_and_compares_exactly() -> None:
    wiz = [
        # 10 rounds: Anna 7 exact, Marco 6; then 3 more rounds where Marco is perfect and Anna is not there
        *hand(1, "wizard", {1: 120, 2: 80}, currency="point", summary={"exact_bids": [7, 6], "rounds": 10}),
        *hand(2, "wizard", {2: 60, 3: 10}, currency="point", summary={"exact_bids": [3, 0], "rounds": 3}),
    ]
    r = records(wiz, currency_of=CURRENCY_OF, contract_paths=PATHS, bid_games=("wizard",))
    # Anna 7/10 = 0.7 vs Marco 9/13 = 0.692...; Luca has 3 rounds only
    assert r.accuracy == Accuracy(1, "Anna", 7, 10)
    assert r.big_win is None  # points are no stakes
    assert r.most_played == MostPlayed("wizard", 2)


def test_empty_season_has_no_records_and_ties_keep_the_first() -> None:
    assert records([], currency_of=CURRENCY_OF, contract_paths=PATHS, bid_games=()) == records(
        [], currency_of={}, contract_paths={}, bid_games=()
    )
    tie = [*hand(1, "mighty", {1: 5, 2: -5}), *hand(2, "mighty", {1: -5, 2: 5}, table=2)]
    r = records(tie, currency_of=CURRENCY_OF, contract_paths=PATHS, bid_games=())
    assert r.big_win is not None and r.big_win.user_id == 1  # the same win, earlier
    assert r.closest is not None and r.closest.table_id == 1


def test_json_path() -> None:
    doc = {"a": {"b": [1, {"c": 4}]}, "declarer": 0}
    assert json_path(doc, "$.a.b[1].c") == 4
    assert json_path(doc, "$.declarer") == 0
    assert json_path(doc, "$.a.x") is None and json_path(doc, "$.a.b[9]") is None
    with pytest.raises(ValueError):
        json_path(doc, "a.b")


@pytest.fixture
async def db(db_target: str) -> AsyncIterator[Database]:
    database = await Database.open(db_target)
    try:
        yield database
    finally:
        await database.close()


async def test_season_entries_read_back_the_booked_season(db: Database) -> None:
    ledger = Ledger(db)
    seats = [SeatRef(1, "Anna"), SeatRef(2, "Marco"), SeatRef(None, "Robot")]
    for i, stake in enumerate(([5, -3, -2], [-1, 4, -3])):
        await ledger.settle(key=f"k{i}", guild_id=7, game="mighty", table_id=1, hand_index=i, seats=seats,
                            amounts={"stake": stake}, summary={"declarer": i, "made": True})  # fmt: skip
    await ledger.adjust(7, 1, "stake", 50, 99, "not a hand")
    await ledger.close_season(7, 99)
    await ledger.settle(key="later", guild_id=7, game="mighty", table_id=2, hand_index=0, seats=seats,
                        amounts={"stake": [9, -9, 0]})  # fmt: skip
    rows = await season_entries(ledger, 7, 1)
    assert [(e.settlement_id, e.user_id, e.amount) for e in rows] == [(1, 1, 5), (1, 2, -3), (2, 1, -1), (2, 2, 4)]
    r = records(rows, currency_of=CURRENCY_OF, contract_paths=PATHS, bid_games=())
    assert r.big_win is not None and (r.big_win.name, r.big_win.amount) == ("Anna", 5)
    assert r.contracts == Contracts(1, "Anna", 1, 1)  # tie 1/1 each: the smaller user id
    assert [e.hand_index for e in rows] == [0, 0, 1, 1]
    assert r.most_played is not None and (r.most_played.hands, r.most_played.games) == (2, 0)  # counted in hands

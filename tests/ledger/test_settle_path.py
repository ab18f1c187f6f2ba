"""Ledger.settle's fast path: one hop (SQLite) / one statement (PostgreSQL) per new settlement, still atomic."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.ledger import KeyConflict, Ledger, SeatRef
from bot.ledger import service as ledger_service
from bot.storage.db import Database, IntegrityError

SEATS = [SeatRef(11, "Alice"), SeatRef(22, "Bob"), SeatRef(None, "Robot")]


@pytest.fixture(params=["file", "postgres"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    target = request.getfixturevalue("pg_url") if request.param == "postgres" else tmp_path / "l.db"
    database = await Database.open(target)
    try:
        yield database
    finally:
        await database.close()


def _hand(i: int, **kw: Any) -> dict[str, Any]:
    return {
        "key": f"table:1:unit:{i}", "guild_id": 5, "game": "wizard", "table_id": 1, "hand_index": i,
        "seats": SEATS, "amounts": {"stake": [3, -1, -2], "point": [10, 0, 4]}, **kw,
    }  # fmt: skip


class Spy:
    """Counts the database's write entry points (the fast path must use one call and no transaction)."""

    def __init__(self, db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        for name in ("transaction", "transaction_sync", "write_statement"):
            original = getattr(db, name)

            def spy(*a: Any, _name: str = name, _original: Any = original, **kw: Any) -> Any:
                self.calls.append(_name)
                return _original(*a, **kw)

            monkeypatch.setattr(db, name, spy)


async def _counts(db: Database) -> tuple[int, int, int]:
    row = await db.fetchone(
        "SELECT (SELECT COUNT(*) FROM settlements), (SELECT COUNT(*) FROM entries),"
        " (SELECT COALESCE(SUM(total), 0) FROM ledger_totals WHERE currency = 'stake')"
    )
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])


async def test_a_new_settlement_is_one_call(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = Ledger(db)
    assert await ledger.settle(**_hand(0))  # the guild's first: opens season 1 on the full path
    spy = Spy(db, monkeypatch)
    assert await ledger.settle(**_hand(1))
    fast = "write_statement" if db.dialect == "postgres" else "transaction_sync"
    assert spy.calls == [fast]
    assert await _counts(db) == (2, 12, 2 * (3 - 1))  # the robot's -2 is not in anyone's totals
    entries = await db.fetchall(
        "SELECT seat, user_id, is_bot, player_name, currency, amount, played, won FROM entries"
        " WHERE settlement_id = (SELECT id FROM settlements WHERE key = ?) ORDER BY id",
        ("table:1:unit:1",),
    )
    assert [tuple(r) for r in entries] == [
        (0, 11, 0, "Alice", "stake", 3, 1, 1), (0, 11, 0, "Alice", "point", 10, 1, 1),
        (1, 22, 0, "Bob", "stake", -1, 1, 0), (1, 22, 0, "Bob", "point", 0, 1, 0),
        (2, 0, 1, "Robot", "stake", -2, 1, 0), (2, 0, 1, "Robot", "point", 4, 1, 1),
    ]  # fmt: skip

    # Re-settling books nothing; the same key for another hand is refused.
    assert not await ledger.settle(**_hand(1))
    with pytest.raises(KeyConflict):
        await ledger.settle(**_hand(1, hand_index=7))
    assert await _counts(db) == (2, 12, 4)


async def test_a_failing_settlement_leaves_nothing(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = Ledger(db)
    assert await ledger.settle(**_hand(0))
    before = await _counts(db)
    # An entry the schema refuses, after the settlement row was inserted in the same transaction.
    original = ledger_service._Booking.entry_params

    def bad_entries(self: Any, *a: Any) -> list[tuple[Any, ...]]:
        rows = original(self, *a)
        return [*rows[:-1], (*rows[-1][:8], "bogus", *rows[-1][9:])]

    def bad_pg_params(self: Any, now: str) -> tuple[Any, ...]:
        params = list(original_pg(self, now))
        params[12] = [*params[12][:-1], "bogus"]  # the entries' currency column
        return tuple(params)

    original_pg = ledger_service._Booking.pg_settle_params
    monkeypatch.setattr(ledger_service._Booking, "entry_params", bad_entries)
    monkeypatch.setattr(ledger_service._Booking, "pg_settle_params", bad_pg_params)
    with pytest.raises(IntegrityError):
        await ledger.settle(**_hand(1))
    assert await _counts(db) == before
    monkeypatch.undo()
    assert await ledger.settle(**_hand(1))  # the key was not taken by the failed attempt
    assert (await _counts(db))[0] == 2

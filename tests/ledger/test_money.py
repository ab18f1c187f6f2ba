"""bot.ledger.money: per-server unit values (exact decimals, ISO 4217, Babel per locale), and migration 010 on a
ledger that already has entries."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path

import pytest

from bot.i18n import using
from bot.ledger import Ledger, SeatRef
from bot.ledger.money import MoneyRefusal, MoneySettings, MoneyValue, parse_value
from bot.ledger.payments import Payments
from bot.storage.db import MIGRATIONS_DIR, Database

G = 5005


@pytest.fixture(params=["memory", "postgres"])
async def db(request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    target = request.getfixturevalue("pg_url") if request.param == "postgres" else ":memory:"
    database = await Database.open(target)
    try:
        yield database
    finally:
        await database.close()


def test_values_are_exact_and_fit_the_currency() -> None:
    assert parse_value("1.50", "EUR") == Decimal("1.50")
    assert parse_value("1,5", "EUR") == Decimal("1.5")
    assert parse_value("1500", "KRW") == Decimal(1500)
    assert parse_value("0.001", "BHD") == Decimal("0.001")  # three decimal places
    for text, code, reason in [
        ("1.505", "EUR", "2 decimal places"),
        ("1.5", "KRW", "0 decimal places"),
        ("abc", "EUR", "not an amount"),
        ("-1", "EUR", "more than 0"),
        ("0", "EUR", "more than 0"),
        ("1000001", "EUR", "at most"),
        ("NaN", "EUR", "more than 0"),
    ]:
        with pytest.raises(MoneyRefusal) as err:
            parse_value(text, code)
        assert reason in str(err.value)
    money = MoneyValue("EUR", {"stake": Decimal("0.10")})
    assert money.of(3, "stake") == Decimal("0.30")  # not 0.30000000000000004
    assert money.of(3, "point") is None


@pytest.mark.parametrize(
    ("locale", "eur", "krw"),
    [
        ("en", "€30.00", "₩1,500"),
        ("it", "30,00\xa0€", "1.500\xa0KRW"),  # (CLDR: Italian writes the won by its code)
        ("ko", "€30.00", "₩1,500"),
        ("pl", "30,00\xa0€", "1\xa0500\xa0KRW"),
        ("ru", "30,00\xa0€", "1\xa0500\xa0₩"),
    ],
)
def test_money_is_written_in_the_readers_locale(locale: str, eur: str, krw: str) -> None:
    with using(locale):
        assert MoneyValue("EUR", {"stake": Decimal("1.50")}).text(20, "stake") == eur
        assert MoneyValue("KRW", {"point": Decimal(15)}).text(100, "point") == krw
        assert MoneyValue().text(20, "stake") is None


async def test_settings_are_stored_per_guild(db: Database) -> None:
    money = MoneySettings(db)
    assert await money.get(G) == MoneyValue()
    with pytest.raises(MoneyRefusal, match="Choose the money currency"):
        await money.set(G, 1, values={"stake": "1.50"})
    with pytest.raises(MoneyRefusal, match="ISO 4217"):
        await money.set(G, 1, currency="EURO")
    await money.set(G, 1, currency="eur", values={"stake": "1.50", "point": "0.01"})
    with pytest.raises(MoneyRefusal, match="0 decimal places"):  # the values kept must fit a new currency
        await money.set(G, 1, currency="JPY")
    fresh = MoneySettings(db)  # another process: reads what was stored
    assert await fresh.get(G) == MoneyValue("EUR", {"stake": Decimal("1.50"), "point": Decimal("0.01")})
    await fresh.set(G, 1, values={"point": "0"})
    assert await MoneySettings(db).get(G) == MoneyValue("EUR", {"stake": Decimal("1.50")})
    assert await fresh.get(G + 1) == MoneyValue()


async def test_migration_010_keeps_an_existing_ledger(tmp_path: Path) -> None:
    """A database made before 010 (entries, adjustments, totals) migrates with every row and id kept; the
    append-only triggers and the kinds' checks hold afterwards, and payments book."""
    old = tmp_path / "migrations"
    old.mkdir()
    for f in MIGRATIONS_DIR.glob("*.sql"):
        if int(f.name[:3]) < 10:
            shutil.copy(f, old)
    path = tmp_path / "old.db"
    before = await Database.open(path, migrations_dir=old)
    seats = [SeatRef(1, "Marco"), SeatRef(2, "Anna"), SeatRef(None, "Robot")]
    try:
        ledger = Ledger(before)
        for i in range(3):
            await ledger.settle(key=f"k{i}", guild_id=G, game="wizard", table_id=1, hand_index=i, seats=seats,
                                amounts={"stake": [-5, 3, 2]})  # fmt: skip
        await ledger.adjust(G, 2, "stake", 1, 99, "fix")
        rows_before = [tuple(r) for r in await before.fetchall("SELECT * FROM entries ORDER BY id")]
    finally:
        await before.close()
    after = await Database.open(path)
    try:
        rows = [tuple(r)[:-1] for r in await after.fetchall("SELECT * FROM entries ORDER BY id")]
        assert rows == rows_before
        ledger = Ledger(after)
        assert await ledger.balances(G, "stake") == {1: -15, 2: 10}
        payments = Payments(ledger)
        p = await payments.propose(G, 1, 2, 10)
        assert (await payments.confirm(p.id, 2, guild_id=G)).booked
        assert await ledger.balances(G, "stake") == {1: -5}
        with pytest.raises(Exception, match="append-only"):
            async with after.transaction() as conn:
                await conn.execute("DELETE FROM entries WHERE kind = 'payment'")
        with pytest.raises(Exception, match="CHECK"):
            async with after.transaction() as conn:
                await conn.execute(
                    "INSERT INTO entries (guild_id, season_id, user_id, currency, amount, kind, created_at)"
                    " VALUES (?, 1, 1, 'stake', 1, 'gift', 'now')",
                    (G,),
                )
        names = {r[0] for r in await after.fetchall("SELECT name FROM sqlite_master WHERE tbl_name = 'entries'")}
        assert {"entries_history", "entries_settlement", "entries_payment", "entries_no_update"} <= names
    finally:
        await after.close()

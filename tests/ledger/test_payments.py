"""bot.ledger.payments: propose / confirm / decline / expire / admin record — one pair of entries or none, on
SQLite and PostgreSQL; the balances after always equal the sum of the entries."""

from __future__ import annotations

import asyncio
import csv
import io
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.ledger import Ledger, SeatRef
from bot.ledger.payments import MAX_AMOUNT, PaymentRefusal, Payments
from bot.ledger.settlement import settle
from bot.storage.db import Database, IntegrityError

G = 1001
MARCO, ANNA, LUCA, ADMIN, STRANGER = 11, 22, 33, 99, 44


class Clock:
    def __init__(self) -> None:
        self.t = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.t += timedelta(seconds=1)
        return self.t


@pytest.fixture(params=["file", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "p.db")


@pytest.fixture
async def db(target: str) -> AsyncIterator[Database]:
    database = await Database.open(target)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def ledger(db: Database, clock: Clock) -> Ledger:
    return Ledger(db, clock=clock)


@pytest.fixture
def payments(ledger: Ledger, clock: Clock) -> Payments:
    return Payments(ledger, clock=clock)


async def book_hands(ledger: Ledger) -> None:
    """Marco -35, Anna +20, Luca +15 in stakes (and a computer seat that keeps things honest)."""
    seats = [SeatRef(MARCO, "Marco"), SeatRef(ANNA, "Anna"), SeatRef(LUCA, "Luca"), SeatRef(None, "Robot")]
    for i, stake in enumerate(([-20, 12, 8, 0], [-15, 8, 7, 0])):
        await ledger.settle(key=f"t:1:unit:{i}", guild_id=G, game="wizard", table_id=1, hand_index=i, seats=seats,
                            amounts={"stake": stake, "point": [1, 2, 3, 4]})  # fmt: skip


async def check_totals(db: Database) -> None:
    """ledger_totals is exactly the GROUP BY of the entries, and every payment has 0 or 2 entries (confirmed: 2)."""
    check = await db.fetchall(
        "SELECT guild_id, season_id, currency, COALESCE(game, ''), user_id, SUM(amount), SUM(played), SUM(won)"
        " FROM entries WHERE is_bot = 0 GROUP BY 1, 2, 3, 4, 5"
    )
    totals = await db.fetchall(
        "SELECT guild_id, season_id, currency, game, user_id, total, games, wins FROM ledger_totals"
    )
    assert sorted(tuple(r) for r in totals) == sorted(tuple(r) for r in check)
    rows = await db.fetchall(
        "SELECT p.id, p.state, p.amount, COUNT(e.id), COALESCE(SUM(e.amount), 0) FROM payments p"
        " LEFT JOIN entries e ON e.payment_id = p.id GROUP BY p.id, p.state, p.amount"
    )
    for _pid, state, _amount, n, total in rows:
        assert (state, int(n), int(total)) in (("confirmed", 2, 0), ("pending", 0, 0), ("declined", 0, 0),
                                               ("expired", 0, 0))  # fmt: skip


async def test_proposed_by_payer_confirmed_by_payee_moves_both_balances(
    ledger: Ledger, payments: Payments, db: Database
) -> None:
    await book_hands(ledger)
    p = await payments.propose(G, MARCO, ANNA, 20)
    assert (p.payer_id, p.payee_id, p.state, p.confirmer_id) == (MARCO, ANNA, "pending", ANNA)
    assert (await ledger.balance(G, MARCO, "stake"))["stake"] == -35  # nothing booked yet
    done = await payments.confirm(p.id, ANNA, guild_id=G, names={MARCO: "Marco", ANNA: "Anna"})
    assert done.booked and done.payment.state == "confirmed" and done.payment.decided_by == ANNA
    assert await ledger.balances(G, "stake") == {MARCO: -15, LUCA: 15}
    rows = await db.fetchall("SELECT user_id, amount, kind, actor_id, player_name FROM entries WHERE payment_id = ?",
                             (p.id,))  # fmt: skip
    assert sorted(tuple(r) for r in rows) == [
        (MARCO, 20, "payment", ANNA, "Marco"),
        (ANNA, -20, "payment", ANNA, "Anna"),
    ]
    await check_totals(db)


async def test_proposed_by_payee_is_confirmed_by_payer(ledger: Ledger, payments: Payments) -> None:
    await book_hands(ledger)
    p = await payments.propose(G, LUCA, MARCO, 15)  # Luca: "Marco paid me 15"
    assert (p.payer_id, p.payee_id, p.confirmer_id) == (MARCO, LUCA, MARCO)
    with pytest.raises(PaymentRefusal, match="other player confirms"):
        await payments.confirm(p.id, LUCA, guild_id=G)  # the proposer cannot confirm their own proposal
    with pytest.raises(PaymentRefusal, match="two other players"):
        await payments.confirm(p.id, ANNA, guild_id=G)
    assert (await payments.confirm(p.id, MARCO, guild_id=G)).booked
    assert await ledger.balances(G, "stake") == {MARCO: -20, ANNA: 20}


async def test_settling_every_transfer_clears_every_balance(ledger: Ledger, payments: Payments, db: Database) -> None:
    await book_hands(ledger)
    for t in settle(await ledger.balances(G, "stake")).transfers:
        p = await payments.propose(G, t.payer, t.payee, t.amount)
        await payments.confirm(p.id, t.payee, guild_id=G)
    assert await ledger.balances(G, "stake") == {}
    assert await ledger.balance(G, MARCO) == {"stake": 0, "resto": 0, "point": 2}  # points are untouched
    await check_totals(db)


async def test_double_click_books_once(ledger: Ledger, payments: Payments, db: Database) -> None:
    await book_hands(ledger)
    p = await payments.propose(G, MARCO, ANNA, 5)
    results = await asyncio.gather(*(payments.confirm(p.id, ANNA, guild_id=G) for _ in range(5)))
    assert sorted(r.booked for r in results) == [False, False, False, False, True]
    assert (await ledger.balance(G, MARCO, "stake"))["stake"] == -30
    # a late click on a confirmed payment books nothing either
    assert not (await payments.confirm(p.id, ANNA, guild_id=G)).booked
    await check_totals(db)


async def test_booking_a_payment_twice_inserts_nothing(ledger: Ledger, payments: Payments, db: Database) -> None:
    """The entries' unique (payment_id, user_id) is the idempotency key, under the state check."""
    await book_hands(ledger)
    p = await payments.propose(G, MARCO, ANNA, 5)
    await payments.confirm(p.id, ANNA, guild_id=G)
    async with db.transaction() as conn:
        again = await ledger.book_payment(conn, payment_id=p.id, guild_id=G, season_id=p.season_id, currency="stake",
                                          payer=(MARCO, None), payee=(ANNA, None), amount=5, actor_id=ANNA)  # fmt: skip
    assert again is False
    assert len(await db.fetchall("SELECT id FROM entries WHERE payment_id = ?", (p.id,))) == 2
    await check_totals(db)


async def test_restart_between_proposal_and_confirmation(target: str, clock: Clock) -> None:
    first = await Database.open(target)
    try:
        ledger = Ledger(first, clock=clock)
        await book_hands(ledger)
        p = await Payments(ledger, clock=clock).propose(G, MARCO, ANNA, 20)
    finally:
        await first.close()
    second = await Database.open(target)  # a new process: only the stored proposal carries over
    try:
        payments = Payments(Ledger(second, clock=clock), clock=clock)
        assert (await payments.get(p.id)) == p
        assert (await payments.confirm(p.id, ANNA, guild_id=G)).booked
        assert not (await payments.confirm(p.id, ANNA, guild_id=G)).booked
        assert (await payments.ledger.balance(G, ANNA, "stake"))["stake"] == 0
        await check_totals(second)
    finally:
        await second.close()


async def test_decline_by_either_side_books_nothing(ledger: Ledger, payments: Payments, db: Database) -> None:
    await book_hands(ledger)
    p = await payments.propose(G, MARCO, ANNA, 20)
    with pytest.raises(PaymentRefusal):
        await payments.decline(p.id, STRANGER, guild_id=G)
    assert (await payments.decline(p.id, ANNA, guild_id=G)).state == "declined"
    with pytest.raises(PaymentRefusal, match="declined"):
        await payments.confirm(p.id, ANNA, guild_id=G)
    q = await payments.propose(G, MARCO, ANNA, 20)
    assert (await payments.decline(q.id, MARCO, guild_id=G)).state == "declined"  # the proposer withdraws
    assert await ledger.balances(G, "stake") == {MARCO: -35, ANNA: 20, LUCA: 15}
    await check_totals(db)


async def test_expired_proposal_is_refused_and_marked(ledger: Ledger, payments: Payments, clock: Clock) -> None:
    await book_hands(ledger)
    p = await payments.propose(G, MARCO, ANNA, 20)
    assert p.expires_at == p.created_at + payments.ttl
    assert [x.id for x in await payments.pending(G, ANNA)] == [p.id]
    clock.t += payments.ttl
    with pytest.raises(PaymentRefusal, match="expired"):
        await payments.confirm(p.id, ANNA, guild_id=G)
    stored = await payments.get(p.id)
    assert stored is not None and stored.state == "expired"  # the refusal did not roll the expiry back
    assert await payments.pending(G, ANNA) == []
    with pytest.raises(PaymentRefusal, match="expired"):
        await payments.confirm(p.id, ANNA, guild_id=G)
    assert (await ledger.balance(G, MARCO, "stake"))["stake"] == -35


async def test_bad_input_is_refused_and_books_nothing(ledger: Ledger, payments: Payments, db: Database) -> None:
    await book_hands(ledger)
    cases = [
        (dict(proposer_id=MARCO, other_id=ANNA, amount=0), "whole amount from 1"),
        (dict(proposer_id=MARCO, other_id=ANNA, amount=-5), "whole amount from 1"),
        (dict(proposer_id=MARCO, other_id=ANNA, amount=MAX_AMOUNT + 1), "whole amount from 1"),
        (dict(proposer_id=MARCO, other_id=MARCO, amount=5), "yourself"),
        (dict(proposer_id=MARCO, other_id=STRANGER, amount=5), "no balance"),
        (dict(proposer_id=STRANGER, other_id=ANNA, amount=5), "You have no balance"),
        (dict(proposer_id=ANNA, other_id=LUCA, amount=5), "Neither of you owes"),
        (dict(proposer_id=MARCO, other_id=ANNA, amount=21), "more than the payee is owed"),
        (dict(proposer_id=MARCO, other_id=ANNA, amount=5, currency="coins"), "Unknown currency"),
    ]
    for kwargs, reason in cases:
        with pytest.raises(PaymentRefusal if "currency" not in kwargs else Exception, match=reason):
            await payments.propose(G, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(PaymentRefusal, match="Bots"):
        await payments.propose(G, MARCO, 555, 5, other_is_bot=True)
    with pytest.raises(PaymentRefusal, match="Nothing is owed"):
        await payments.propose(G + 1, MARCO, ANNA, 5)
    assert await db.fetchall("SELECT id FROM payments") == []
    assert await db.fetchall("SELECT id FROM entries WHERE kind = 'payment'") == []


async def test_more_than_the_payer_owes_is_refused(ledger: Ledger, payments: Payments) -> None:
    seats = [SeatRef(MARCO, "Marco"), SeatRef(ANNA, "Anna"), SeatRef(LUCA, "Luca")]
    await ledger.settle(key="x", guild_id=G, game="wizard", table_id=2, hand_index=0, seats=seats,
                        amounts={"stake": [-5, 30, -25]})  # fmt: skip
    with pytest.raises(PaymentRefusal, match=r"more than the payer owes"):
        await payments.propose(G, MARCO, ANNA, 6)
    with pytest.raises(PaymentRefusal, match="both owe"):
        await payments.propose(G, MARCO, LUCA, 1)


async def test_balances_checked_again_at_confirmation(ledger: Ledger, payments: Payments) -> None:
    """Two proposals for all of Marco's debt to Anna: the second cannot be confirmed once the first is."""
    await book_hands(ledger)
    p1 = await payments.propose(G, MARCO, ANNA, 20)
    p2 = await payments.propose(G, ANNA, MARCO, 20)
    await payments.confirm(p1.id, ANNA, guild_id=G)
    with pytest.raises(PaymentRefusal, match="not owed"):
        await payments.confirm(p2.id, MARCO, guild_id=G)
    stored = await payments.get(p2.id)
    assert stored is not None and stored.state == "pending"  # still there to decline
    assert (await ledger.balance(G, ANNA, "stake"))["stake"] == 0


async def test_admin_records_a_payment_with_a_reason(ledger: Ledger, payments: Payments, db: Database) -> None:
    await book_hands(ledger)
    with pytest.raises(PaymentRefusal, match="reason"):
        await payments.record(G, ADMIN, (MARCO, "Marco"), (LUCA, "Luca"), 15, "  ")
    with pytest.raises(PaymentRefusal, match="two different"):
        await payments.record(G, ADMIN, (MARCO, "Marco"), (MARCO, "Marco"), 15, "cash")
    p = await payments.record(G, ADMIN, (MARCO, "Marco"), (LUCA, "Luca"), 15, "cash at the bar")
    assert (p.state, p.proposer_id, p.decided_by, p.reason) == ("confirmed", ADMIN, ADMIN, "cash at the bar")
    assert await ledger.balances(G, "stake") == {MARCO: -20, ANNA: 20}
    rows = await db.fetchall("SELECT actor_id, reason FROM entries WHERE payment_id = ?", (p.id,))
    assert {tuple(r) for r in rows} == {(ADMIN, "cash at the bar")}
    await check_totals(db)


async def test_payments_in_history_and_export(ledger: Ledger, payments: Payments) -> None:
    await book_hands(ledger)
    p = await payments.propose(G, MARCO, ANNA, 20)
    await payments.confirm(p.id, ANNA, guild_id=G)
    row = (await ledger.history(G, MARCO, limit=1))[0]
    assert (row.kind, row.amounts, row.payment_id, row.counterparty_id, row.actor_id) == (
        "payment", {"stake": 20}, p.id, ANNA, ANNA)  # fmt: skip
    assert (await ledger.history(G, ANNA, limit=1))[0].counterparty_id == MARCO
    export = list(csv.DictReader(io.StringIO(await ledger.export_csv(G))))
    paid = [r for r in export if r["kind"] == "payment"]
    assert sorted((r["user_id"], r["amount"], r["payment_id"]) for r in paid) == sorted(
        [(str(MARCO), "20", str(p.id)), (str(ANNA), "-20", str(p.id))]
    )


async def test_payment_entries_are_append_only(ledger: Ledger, payments: Payments, db: Database) -> None:
    await book_hands(ledger)
    p = await payments.propose(G, MARCO, ANNA, 20)
    await payments.confirm(p.id, ANNA, guild_id=G)
    for sql in ("UPDATE entries SET amount = 0 WHERE payment_id = ?", "DELETE FROM entries WHERE payment_id = ?"):
        with pytest.raises((IntegrityError, sqlite3.IntegrityError)):
            async with db.transaction() as conn:
                await conn.execute(sql, (p.id,))
    with pytest.raises((IntegrityError, sqlite3.IntegrityError)):  # a payment entry must name its payment
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO entries (guild_id, season_id, user_id, currency, amount, kind, actor_id, created_at)"
                " VALUES (?, ?, ?, 'stake', 1, 'payment', ?, 'now')",
                (G, p.season_id, MARCO, ANNA),
            )

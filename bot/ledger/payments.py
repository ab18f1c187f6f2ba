"""Payments between players: a debt paid outside Tavolo, recorded in the ledger once both sides agree.

One side proposes (:meth:`Payments.propose`), the other confirms (:meth:`Payments.confirm`) or either declines
(:meth:`Payments.decline`); an admin may record one directly with a reason (:meth:`Payments.record`). Only a
confirmed payment books anything: one pair of ``payment`` entries (:meth:`Ledger.book_payment`) in the same
transaction as the proposal's change of state, keyed by the proposal id, so it is booked exactly once whatever
happens (a double click, two processes, a restart between the proposal and the click).

It owns the ``payments`` table of migration 010. Rules (refused with a reason, nothing booked):

* the amount is a whole number from 1 to :data:`MAX_AMOUNT`;
* payer and payee are two different humans, both with an open balance in that currency and season;
* the payer owes (negative balance) and the payee is owed (positive), and the payment is at most what the payer
  owes and at most what the payee is owed: paying more would turn a debt into a credit (an adjustment's job);
* a proposal expires :data:`TTL` after it is made (its deadline is stored); a click after it is refused.

The balance checks are made again at confirmation, under a lock (:data:`LOCK_PAYMENTS`), since hands and other
payments may have moved the balances in between.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.i18n import N_, N_n

from .models import LedgerRefusal
from .service import MAX_REASON, Ledger, _check_currency, _now_text, _parse_time

__all__ = [
    "LOCK_PAYMENTS",
    "MAX_AMOUNT",
    "TTL",
    "Confirmation",
    "Payment",
    "PaymentExpired",
    "PaymentRefusal",
    "Payments",
]

MAX_AMOUNT = 1_000_000
#: How long a proposal waits for the other side.
TTL = timedelta(hours=24)
#: Advisory lock (PostgreSQL) held while a payment's balances are checked and booked; distinct from
#: bot.storage.db's LOCK_*.
LOCK_PAYMENTS = 0x7A7040


class PaymentRefusal(LedgerRefusal):
    """A payment refused with a reason for the user."""


class PaymentExpired(PaymentRefusal):
    """A click on a proposal past its deadline (the proposal is marked expired)."""


@dataclass(frozen=True, slots=True)
class Payment:
    id: int
    guild_id: int
    season_id: int
    currency: str
    payer_id: int
    payee_id: int
    amount: int
    proposer_id: int
    created_at: datetime
    expires_at: datetime
    state: str
    reason: str | None = None
    decided_by: int | None = None
    decided_at: datetime | None = None

    @property
    def confirmer_id(self) -> int:
        """Who must confirm: the side that did not propose (the payee when an admin proposed)."""
        return self.payee_id if self.proposer_id == self.payer_id else self.payer_id


def _payment(row: Any) -> Payment:
    return Payment(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        season_id=int(row["season_id"]),
        currency=str(row["currency"]),
        payer_id=int(row["payer_id"]),
        payee_id=int(row["payee_id"]),
        amount=int(row["amount"]),
        proposer_id=int(row["proposer_id"]),
        created_at=_parse_time(row["created_at"]),
        expires_at=_parse_time(row["expires_at"]),
        state=str(row["state"]),
        reason=row["reason"],
        decided_by=row["decided_by"],
        decided_at=_parse_time(row["decided_at"]) if row["decided_at"] else None,
    )


def _check_amount(amount: object) -> int:
    if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= MAX_AMOUNT:
        raise PaymentRefusal(N_("A payment is a whole amount from 1 to {max}."), max=MAX_AMOUNT)
    return amount


@dataclass(frozen=True, slots=True)
class Confirmation:
    """The outcome of a click on *confirm*: the payment, and whether this click booked it (``False``: it had been
    booked already, by an earlier click or another process)."""

    payment: Payment
    booked: bool


class Payments:
    """The payments service (see the module docstring)."""

    def __init__(self, ledger: Ledger, *, clock: Callable[[], datetime] | None = None, ttl: timedelta = TTL) -> None:
        self.ledger = ledger
        self.db = ledger.db
        self._clock = clock or (lambda: datetime.now(UTC))
        self.ttl = ttl

    # -- checks ----------------------------------------------------------------------------------------
    async def _open_balances(self, conn: Any, guild_id: int, season_id: int, currency: str, *users: int) -> list[int]:
        return [await Ledger.season_balance(conn, guild_id, season_id, u, currency) for u in users]

    @staticmethod
    def _check_sides(payer_balance: int, payee_balance: int, amount: int) -> None:
        if payer_balance >= 0:
            raise PaymentRefusal(N_("The payer does not owe anything in this currency."))
        if payee_balance <= 0:
            raise PaymentRefusal(N_("The payee is not owed anything in this currency."))
        if amount > -payer_balance:
            raise PaymentRefusal(N_("That is more than the payer owes ({owed})."), owed=-payer_balance)
        if amount > payee_balance:
            raise PaymentRefusal(N_("That is more than the payee is owed ({owed})."), owed=payee_balance)

    async def _season(self, conn: Any, guild_id: int) -> int:
        season = await self.ledger.current_season(guild_id)
        if season is None:
            raise PaymentRefusal(N_("Nothing is owed in this server yet."))
        return season.id

    # -- proposing -------------------------------------------------------------------------------------
    async def propose(
        self, guild_id: int, proposer_id: int, other_id: int, amount: int, currency: str = "stake",
        *, other_is_bot: bool = False,
    ) -> Payment:  # fmt: skip
        """``proposer_id`` says a payment of ``amount`` between them and ``other_id`` was made. Who paid follows
        from the balances: the one of the two who owes pays the one who is owed. The other side must confirm."""
        _check_currency(currency)
        _check_amount(amount)
        if other_id == proposer_id:
            raise PaymentRefusal(N_("You cannot pay yourself."))
        if other_is_bot:
            raise PaymentRefusal(N_("Bots have no balance to pay or be paid."))
        async with self.db.transaction() as conn:
            now = self._clock()
            await self._expire(conn, guild_id, now)
            season_id = await self._season(conn, guild_id)
            mine, theirs = await self._open_balances(conn, guild_id, season_id, currency, proposer_id, other_id)
            if theirs == 0:
                raise PaymentRefusal(N_("That player has no balance in this currency."))
            if mine == 0:
                raise PaymentRefusal(N_("You have no balance in this currency."))
            if mine < 0 < theirs:
                payer, payee = proposer_id, other_id
            elif theirs < 0 < mine:
                payer, payee = other_id, proposer_id
            elif mine < 0:
                raise PaymentRefusal(N_("You both owe: a payment goes from a player who owes to one who is owed."))
            else:
                raise PaymentRefusal(N_("Neither of you owes anything in this currency."))
            payer_balance, payee_balance = (mine, theirs) if payer == proposer_id else (theirs, mine)
            self._check_sides(payer_balance, payee_balance, amount)
            row = await self._insert(conn, guild_id, season_id, currency, payer, payee, amount, proposer_id, now)
        return row

    async def _insert(
        self, conn: Any, guild_id: int, season_id: int, currency: str, payer: int, payee: int, amount: int,
        proposer: int, now: datetime, *, reason: str | None = None, confirmed: bool = False,
    ) -> Payment:  # fmt: skip
        created = _now_text(now)
        rows = list(
            await conn.execute_fetchall(
                "INSERT INTO payments (guild_id, season_id, currency, payer_id, payee_id, amount, proposer_id,"
                " reason, created_at, expires_at, state, decided_by, decided_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    season_id,
                    currency,
                    payer,
                    payee,
                    amount,
                    proposer,
                    reason,
                    created,
                    _now_text(now + self.ttl),
                    "confirmed" if confirmed else "pending",
                    proposer if confirmed else None,
                    created if confirmed else None,
                ),
            )
        )
        return _payment(rows[0])

    async def record(
        self, guild_id: int, admin_id: int, payer: tuple[int, str | None], payee: tuple[int, str | None],
        amount: int, reason: str, currency: str = "stake", *, bot_involved: bool = False,
    ) -> Payment:  # fmt: skip
        """An admin records a payment directly (no confirmation), with a reason. The same rules as a proposal."""
        _check_currency(currency)
        _check_amount(amount)
        reason = (reason or "").strip()
        if not reason:
            raise PaymentRefusal(N_("Recording a payment needs a reason."))
        if len(reason) > MAX_REASON:
            raise PaymentRefusal(
                N_n("The reason is longer than {n} character.", "The reason is longer than {n} characters."),
                n=MAX_REASON,
            )
        if payer[0] == payee[0]:
            raise PaymentRefusal(N_("A payment needs two different players."))
        if bot_involved:
            raise PaymentRefusal(N_("Bots have no balance to pay or be paid."))
        async with self.db.transaction() as conn:
            await self.db.lock_across_processes(conn, LOCK_PAYMENTS)
            now = self._clock()
            season_id = await self._season(conn, guild_id)
            payer_balance, payee_balance = await self._open_balances(
                conn, guild_id, season_id, currency, payer[0], payee[0]
            )
            if payee_balance == 0 or payer_balance == 0:
                raise PaymentRefusal(N_("That player has no balance in this currency."))
            self._check_sides(payer_balance, payee_balance, amount)
            p = await self._insert(
                conn, guild_id, season_id, currency, payer[0], payee[0], amount, admin_id, now,
                reason=reason, confirmed=True,
            )  # fmt: skip
            await self.ledger.book_payment(
                conn, payment_id=p.id, guild_id=guild_id, season_id=season_id, currency=currency, payer=payer,
                payee=payee, amount=amount, actor_id=admin_id, reason=reason,
            )  # fmt: skip
        return p

    # -- deciding --------------------------------------------------------------------------------------
    async def get(self, payment_id: int) -> Payment | None:
        row = await self.db.fetchone("SELECT * FROM payments WHERE id = ?", (payment_id,))
        return _payment(row) if row else None

    async def confirm(
        self, payment_id: int, actor_id: int, *, guild_id: int, names: dict[int, str | None] | None = None
    ) -> Confirmation:
        """The other side confirms: the payment is booked (once). Raises :class:`PaymentRefusal` when it cannot
        be: not theirs to confirm, declined, expired (the proposal is then marked expired), or the balances no
        longer allow it (it stays pending: either side may still decline)."""
        names = names or {}
        expired = False
        async with self.db.transaction() as conn:
            await self.db.lock_across_processes(conn, LOCK_PAYMENTS)
            now = self._clock()
            p = await self._locked(conn, payment_id, guild_id)
            if p.state == "confirmed":
                return Confirmation(p, False)
            if actor_id not in (p.payer_id, p.payee_id):
                raise PaymentRefusal(N_("This payment is between two other players."))
            if p.state == "declined":
                raise PaymentRefusal(N_("This payment was declined; nothing was recorded."))
            if p.state == "expired" or now >= p.expires_at:
                expired = True
            elif actor_id != p.confirmer_id:
                raise PaymentRefusal(N_("The other player confirms this payment, not the one who proposed it."))
            else:
                payer_balance, payee_balance = await self._open_balances(
                    conn, p.guild_id, p.season_id, p.currency, p.payer_id, p.payee_id
                )
                self._check_sides(payer_balance, payee_balance, p.amount)
                decided = await self._decide(conn, p, "confirmed", actor_id, now)
                booked = await self.ledger.book_payment(
                    conn, payment_id=p.id, guild_id=p.guild_id, season_id=p.season_id, currency=p.currency,
                    payer=(p.payer_id, names.get(p.payer_id)), payee=(p.payee_id, names.get(p.payee_id)),
                    amount=p.amount, actor_id=actor_id,
                )  # fmt: skip
                return Confirmation(decided, booked)
            if p.state == "pending":
                await self._decide(conn, p, "expired", None, now)
        assert expired
        raise PaymentExpired(N_("This payment proposal has expired; nothing was recorded. Propose it again."))

    async def decline(self, payment_id: int, actor_id: int, *, guild_id: int) -> Payment:
        """Either side declines (the proposer withdraws): nothing is booked."""
        async with self.db.transaction() as conn:
            await self.db.lock_across_processes(conn, LOCK_PAYMENTS)
            now = self._clock()
            p = await self._locked(conn, payment_id, guild_id)
            if actor_id not in (p.payer_id, p.payee_id):
                raise PaymentRefusal(N_("This payment is between two other players."))
            if p.state == "confirmed":
                raise PaymentRefusal(N_("This payment is already confirmed and recorded."))
            if p.state == "declined":
                return p
            if p.state == "expired" or now >= p.expires_at:
                return p if p.state == "expired" else await self._decide(conn, p, "expired", None, now)
            return await self._decide(conn, p, "declined", actor_id, now)

    async def _locked(self, conn: Any, payment_id: int, guild_id: int) -> Payment:
        rows = list(await conn.execute_fetchall("SELECT * FROM payments WHERE id = ?", (payment_id,)))
        if not rows or int(rows[0]["guild_id"]) != guild_id:
            raise PaymentRefusal(N_("There is no such payment proposal."))
        return _payment(rows[0])

    @staticmethod
    async def _decide(conn: Any, p: Payment, state: str, actor: int | None, now: datetime) -> Payment:
        rows = list(
            await conn.execute_fetchall(
                "UPDATE payments SET state = ?, decided_by = ?, decided_at = ? WHERE id = ? AND state = 'pending'"
                " RETURNING *",
                (state, actor, _now_text(now), p.id),
            )
        )
        if not rows:  # decided meanwhile: cannot happen under the lock, and must not book
            raise RuntimeError(f"payment {p.id} was decided concurrently")
        return _payment(rows[0])

    async def _expire(self, conn: Any, guild_id: int, now: datetime) -> None:
        await conn.execute(
            "UPDATE payments SET state = 'expired', decided_at = ? WHERE guild_id = ? AND state = 'pending'"
            " AND expires_at <= ?",
            (_now_text(now), guild_id, _now_text(now)),
        )

    async def pending(self, guild_id: int, user_id: int) -> list[Payment]:
        """The user's proposals still waiting for an answer (either side), oldest first."""
        now = _now_text(self._clock())
        rows = await self.db.fetchall(
            "SELECT * FROM payments WHERE guild_id = ? AND state = 'pending' AND expires_at > ?"
            " AND (payer_id = ? OR payee_id = ?) ORDER BY id",
            (guild_id, now, user_id, user_id),
        )
        return [_payment(r) for r in rows]

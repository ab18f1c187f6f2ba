"""What one unit of the ledger is worth, per server: an ISO 4217 currency and an exact value per stake, resto and
point (``/tavolo config``). Exact decimals throughout (never floats); text formatted with Babel in the current
locale (``1,50 €``, ``₩1,500``). No value set: callers show units only.

It owns the ``guild_money`` table of migration 010.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from babel.numbers import format_currency, get_currency_precision, list_currencies

from bot.engine.protocol import CURRENCIES
from bot.i18n import N_, N_n, current
from bot.storage.db import Database

from .models import LedgerRefusal

__all__ = ["MAX_VALUE", "MoneyRefusal", "MoneySettings", "MoneyValue", "parse_value"]

#: The most one unit may be worth (in the currency's major unit): a guard against typos, not a policy.
MAX_VALUE = Decimal(1_000_000)


class MoneyRefusal(LedgerRefusal):
    """A money setting refused with a reason for the manager."""


@dataclass(frozen=True, slots=True)
class MoneyValue:
    """A server's money setting: ``currency`` (ISO 4217) and the value of one unit per ledger currency."""

    currency: str | None = None
    values: dict[str, Decimal] = field(default_factory=dict)

    def of(self, amount: int, unit: str) -> Decimal | None:
        """What ``amount`` units of ``unit`` are worth, exactly; ``None`` when no value is set."""
        value = self.values.get(unit)
        if value is None or self.currency is None:
            return None
        return value * amount

    def text(self, amount: int, unit: str) -> str | None:
        """``amount`` units as money in the current locale (``30,00 €``), ``None`` when no value is set."""
        worth = self.of(amount, unit)
        if worth is None or self.currency is None:
            return None
        return money_text(worth, self.currency)


def money_text(amount: Decimal, currency: str) -> str:
    """An amount of money in the current locale: Babel's symbol, digits and grouping (``1,50 €``, ``₩1,500``)."""
    loc = current()
    return format_currency(amount, currency, locale=loc if loc != "qps" else "en")


def is_currency(code: str) -> bool:
    return code in list_currencies()


def parse_value(text: str, currency: str) -> Decimal:
    """A unit value typed by a manager (``1.50``, ``1,5``, ``0.25``) as an exact decimal. Refused: not a number, not
    positive, more than ``MAX_VALUE``, or finer than the currency's smallest unit (``0.005 €``)."""
    raw = text.strip().replace(" ", "").replace("\u00a0", "")
    if raw.count(",") == 1 and "." not in raw:
        raw = raw.replace(",", ".")  # a decimal comma (1,50)
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise MoneyRefusal(N_("`{text}` is not an amount of money (try `1.50`)."), text=text) from None
    if not value.is_finite() or value <= 0 or value > MAX_VALUE:
        raise MoneyRefusal(N_("A unit's value is more than 0 and at most {max}."), max=int(MAX_VALUE))
    digits = get_currency_precision(currency)
    if value % Decimal(1).scaleb(-digits) != 0:
        raise MoneyRefusal(
            N_n(
                "{currency} has {n} decimal place; `{text}` has more.",
                "{currency} has {n} decimal places; `{text}` has more.",
            ),
            currency=currency,
            n=digits,
            text=text,
        )
    return value


class MoneySettings:
    """Reads and writes ``guild_money`` (cached per guild: every balance and settle reads it)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[int, MoneyValue] = {}

    async def get(self, guild_id: int) -> MoneyValue:
        if guild_id not in self._cache:
            row = await self.db.fetchone(
                "SELECT currency, stake_value, resto_value, point_value FROM guild_money WHERE guild_id = ?",
                (guild_id,),
            )
            if row is None:
                self._cache[guild_id] = MoneyValue()
            else:
                values = {cur: Decimal(v) for cur, v in zip(CURRENCIES, row[1:4], strict=True) if v is not None}
                self._cache[guild_id] = MoneyValue(row[0], values)
        return self._cache[guild_id]

    async def set(
        self, guild_id: int, actor_id: int, *, currency: str | None = None, values: dict[str, str] | None = None
    ) -> MoneyValue:
        """Set the currency and/or unit values (text as typed; ``"0"`` or ``"off"`` removes a unit's value).
        A value needs a currency (given now or set before); changing the currency keeps the values only if they
        fit its decimal places."""
        old = await self.get(guild_id)
        code = old.currency
        if currency is not None:
            code = currency.strip().upper()
            if not is_currency(code):
                raise MoneyRefusal(N_("`{code}` is not an ISO 4217 currency code (like EUR, USD, KRW)."), code=currency)
        new = dict(old.values)
        for unit, text in (values or {}).items():
            if unit not in CURRENCIES:
                raise ValueError(f"unknown unit {unit!r}")
            if text.strip().lower() in ("0", "off", "none", "-"):
                new.pop(unit, None)
                continue
            if code is None:
                raise MoneyRefusal(N_("Choose the money currency too (for example `money_currency: EUR`)."))
            new[unit] = parse_value(text, code)
        if code is not None and currency is not None:
            for value in new.values():  # the values kept must fit the new currency
                parse_value(format(value, "f"), code)
        stored = [format(new[c], "f") if c in new else None for c in CURRENCIES]
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_money (guild_id, currency, stake_value, resto_value, point_value, updated_by)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET currency = excluded.currency,"
                " stake_value = excluded.stake_value, resto_value = excluded.resto_value,"
                " point_value = excluded.point_value, updated_by = excluded.updated_by,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
                (guild_id, code, *stored, actor_id),
            )
        self._cache[guild_id] = MoneyValue(code, new)
        return self._cache[guild_id]

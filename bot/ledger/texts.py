"""Amounts of the ledger's currencies as text in the current locale (stakes and resti signed, points counted)."""

from __future__ import annotations

from bot.i18n import _n, _p, signed

__all__ = ["amount_text", "currency_name", "currency_plural", "units_text"]


def amount_text(value: int, currency: str, *, sign_points: bool = False) -> str:
    """``value`` with its unit: ``+3 stake``, ``-1 resto``, ``120 points`` (``+120 points`` with ``sign_points``:
    a change rather than a standing)."""
    if currency == "stake":
        # the form follows the size of the amount, not its sign: "-5 ставок" like "+5 ставок"
        return _n("{amount} stake", "{amount} stakes", abs(value), amount=signed(value))
    if currency == "resto":
        return _n("{amount} resto", "{amount} resti", abs(value), amount=signed(value))
    if currency == "point":
        if sign_points:
            return _n("{amount} point", "{amount} points", abs(value), amount=signed(value))
        return _n("{n} point", "{n} points", value)
    return f"{signed(value)} {currency}"


def currency_name(currency: str) -> str:
    """The name of a currency, as a balance lists it."""
    if currency == "stake":
        return _p("currency", "stake")
    if currency == "resto":
        return _p("currency", "resto")
    if currency == "point":
        return _p("currency", "point")
    return currency


def currency_plural(currency: str) -> str:
    """A currency named as what is counted in it, the plural noun of a title: "Settling up: stakes"."""
    if currency == "stake":
        return _p("currency", "stakes")
    if currency == "resto":
        return _p("currency", "resti")
    if currency == "point":
        return _p("currency", "points")
    return currency


def units_text(n: int, currency: str) -> str:
    """A count of units, unsigned, with the plural the count takes: ``1 stake``, ``20 stakes``, ``5 resti``."""
    if currency == "stake":
        return _n("{n} stake", "{n} stakes", n)
    if currency == "resto":
        return _n("{n} resto", "{n} resti", n)
    if currency == "point":
        return _n("{n} point", "{n} points", n)
    return f"{n} {currency}"

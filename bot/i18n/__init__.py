"""Tavolo's texts in the reader's language: gettext catalogues read with Babel, the locale in a context variable.

Every user-facing text goes through :func:`_` (or :func:`_n` for plurals, :func:`_p` / :func:`_np` with a
``msgctxt`` for short ambiguous words), with ``str.format`` named placeholders::

    _("{name} wins the trick.", name=who)
    _n("{n} trick", "{n} tricks", count)

The locale is not a parameter: renderers keep their signatures, and the caller chooses the language of a whole
message with ``with using("ko"): panel = renderer.public_panel(view, names)``. English is the source language
(the msgids); ``bot/locales/<lang>/LC_MESSAGES/tavolo.po`` hold the translations, read at load time with Babel
(no compiled ``.mo`` files to build). :data:`PSEUDO` (``qps``) is a generated locale for tests: every text from
the catalogue comes out accented and wrapped in ``⟦…⟧``, so a text that does not is a hard-coded string.

Integers given as placeholders are formatted for the locale (``1,000`` / ``1 000`` / ``1.000``); :func:`signed`
and :func:`num` format amounts that are assembled outside a message.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

__all__ = [
    "DOMAIN",
    "LOCALES_DIR",
    "N_",
    "PSEUDO",
    "SOURCE",
    "SUPPORTED",
    "N_n",
    "Plural",
    "_",
    "_n",
    "_np",
    "_p",
    "current",
    "english",
    "normalize",
    "num",
    "pseudo",
    "signed",
    "tenths",
    "tr",
    "translations",
    "using",
]

SOURCE = "en"
SUPPORTED = ("en", "it", "ko", "pl", "ru")
#: the pseudo-locale of the tests (never offered to users)
PSEUDO = "qps"
DOMAIN = "tavolo"
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"

_locale: ContextVar[str] = ContextVar("tavolo_locale", default=SOURCE)


def normalize(locale: object) -> str:
    """A Discord locale (``discord.Locale`` or its code: ``it``, ``ko``, ``pl``, ``ru``, ``en-US``, ``pt-BR``…)
    as one of :data:`SUPPORTED`; anything unsupported or missing is English."""
    code = str(getattr(locale, "value", locale) or "").strip().replace("_", "-").lower()
    base = code.split("-", 1)[0]
    return base if base in SUPPORTED else SOURCE


def current() -> str:
    """The locale texts are rendered in now."""
    return _locale.get()


@contextmanager
def using(locale: object) -> Iterator[str]:
    """Render in ``locale`` inside the block (a Discord locale is normalised; :data:`PSEUDO` is kept)."""
    code = PSEUDO if locale == PSEUDO else normalize(locale)
    token = _locale.set(code)
    try:
        yield code
    finally:
        _locale.reset(token)


# -- loading ---------------------------------------------------------------------------------------------------
def po_path(locale: str) -> Path:
    return LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_po(path: Path) -> gettext.GNUTranslations:
    """A ``.po`` file as gettext translations: Babel reads it and writes the ``.mo`` in memory (fuzzy entries
    are left out, as msgfmt does), so nothing has to be compiled when the catalogue changes."""
    with path.open("rb") as f:
        catalog = read_po(f)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


class _Pseudo(gettext.NullTranslations):
    """English, accented and wrapped: what the tests see as "this text came from the catalogue"."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)


@cache
def translations(locale: str) -> gettext.NullTranslations:
    """The loaded catalogue of ``locale`` (English and unknown locales: the msgids themselves)."""
    if locale == PSEUDO:
        return _Pseudo()
    path = po_path(locale)
    if locale == SOURCE or not path.exists():
        return gettext.NullTranslations()
    return load_po(path)


_ACCENTS = str.maketrans("aeiouycnAEIOUYCN", "áéíóúýçñÁÉÍÓÚÝÇÑ")
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


def pseudo(text: str) -> str:
    """``text`` accented outside its ``{placeholders}`` and wrapped in ``⟦…⟧``."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        out.append(ch if depth else ch.translate(_ACCENTS))
    return PSEUDO_OPEN + "".join(out) + PSEUDO_CLOSE


# -- numbers ---------------------------------------------------------------------------------------------------
def _number_locale() -> str:
    loc = current()
    return SOURCE if loc == PSEUDO else loc


def num(x: int | float) -> str:
    """A number in the current locale's digits grouping (``1,000``, ``1 000``, ``1.000``)."""
    return format_decimal(x, locale=_number_locale())


def tenths(x: float) -> str:
    """A figure with exactly one decimal in the current locale (``21.0``, ``21,7``): a column of ratings reads
    alike, never ``21`` beside ``21.7``."""
    return format_decimal(round(x, 1), format="#,##0.0", locale=_number_locale())


def signed(x: int) -> str:
    """An amount with its sign, like ``{:+d}``: ``+1,000``, ``-5``, ``+0``."""
    return ("+" if x >= 0 else "") + num(x)


def _args(params: dict[str, Any]) -> dict[str, Any]:
    # bool is an int: True must not become "1"
    return {k: num(v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in params.items()}


# -- lookups ---------------------------------------------------------------------------------------------------
def _(msgid: str, **params: Any) -> str:
    """``msgid`` in the current locale, its ``{placeholders}`` filled from ``params``."""
    text = translations(current()).gettext(msgid)
    return text.format(**_args(params)) if params else text


def _p(context: str, msgid: str, **params: Any) -> str:
    """Like :func:`_`, for a msgid that needs a ``msgctxt`` (short words with several meanings)."""
    text = translations(current()).pgettext(context, msgid)
    return text.format(**_args(params)) if params else text


def _n(singular: str, plural: str, n: int, **params: Any) -> str:
    """The plural form for ``n`` in the current locale (Russian and Polish have three, Korean one);
    ``{n}`` is available as a placeholder."""
    # the form follows the size: "-5 ставок" like "+5 ставок" (Python's -1 % 10 is 9, a "many" form otherwise)
    text = translations(current()).ngettext(singular, plural, abs(n))
    return text.format(**_args({"n": n, **params}))


def _np(context: str, singular: str, plural: str, n: int, **params: Any) -> str:
    text = translations(current()).npgettext(context, singular, plural, abs(n))
    return text.format(**_args({"n": n, **params}))


def N_(msgid: str) -> str:
    """Marks a msgid for extraction where it is defined (a table of names); :func:`_` translates it when used."""
    return msgid


class Plural(str):
    """A msgid marked with :func:`N_n`: the singular as a ``str`` (so it travels wherever a msgid does, in
    refusals and notices) and the English plural beside it; :func:`tr` chooses the form by the ``n`` parameter."""

    plural: str

    def __new__(cls, singular: str, plural: str) -> Plural:
        obj = super().__new__(cls, singular)
        obj.plural = plural
        return obj


def N_n(singular: str, plural: str) -> Plural:
    """Marks a plural msgid for extraction where a refusal is raised: ``TableError(N_n("… {n} seat", "… {n} seats"),
    n=3)``; the text is made later, in the reader's locale, by :func:`tr`."""
    return Plural(singular, plural)


def tr(msgid: str, **params: Any) -> str:
    """A marked msgid (:func:`N_` or :func:`N_n`) in the current locale; a plural one takes its form from ``n``."""
    if isinstance(msgid, Plural):
        rest = {k: v for k, v in params.items() if k != "n"}
        return _n(msgid, msgid.plural, params["n"], **rest)
    return _(msgid, **params) if params else _(msgid)


def english(msgid: str, **params: Any) -> str:
    """A marked msgid in English with plain ``str.format`` (for logs and ``str(err)``): numbers as digits."""
    text = msgid.plural if isinstance(msgid, Plural) and params.get("n") != 1 else msgid
    return text.format(**params) if params else text

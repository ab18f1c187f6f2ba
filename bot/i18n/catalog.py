"""The catalogue's upkeep: extract the msgids (Babel's Python extractor), update the ``.po`` files, find gaps.

Used by ``python -m bot.i18n`` (extract / check) and by the completeness tests. The slash commands' names and
descriptions are not ``_()`` calls (discord.py hands them to ``cogs._translator`` at sync time): the caller passes
them in as extra messages with their ``msgctxt``.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from . import DOMAIN, LOCALES_DIR, SOURCE, SUPPORTED, po_path

ROOT = Path(__file__).resolve().parents[2]
#: where ``_()`` calls are looked for (cogs too: their own texts will move into the catalogue)
SOURCE_DIRS = ("bot", "cogs")
#: Babel keyword specs: ``_p(context, msgid)``, ``_n(singular, plural, n)``, ``_np(context, singular, plural, n)``
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "N_": None,
    "N_n": (1, 2),
    "_n": (1, 2),
    "_p": ((1, "c"), 2),
    "_np": ((1, "c"), 2, 3),
}
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
TRANSLATED = tuple(loc for loc in SUPPORTED if loc != SOURCE)
WIDTH = 120


@dataclass(frozen=True, slots=True)
class Extra:
    """A msgid that is not a ``_()`` call (a slash command's name or description)."""

    msgid: str
    context: str
    location: str


def new_catalog(locale: str | None = None) -> Catalog:
    return Catalog(
        locale=locale,
        domain=DOMAIN,
        project="Tavolo",
        version="0.1.0",
        msgid_bugs_address="https://github.com/ (the Tavolo repository's issues)",
        copyright_holder="Tavolo contributors",
        charset="utf-8",
    )


def extract_sources(root: Path = ROOT) -> Catalog:
    """Every ``_``, ``_n``, ``_p``, ``_np`` and ``N_`` call with literal arguments in the source."""
    cat = new_catalog()
    for folder in SOURCE_DIRS:
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            for lineno, message, comments, context in extract_from_file(
                "python", str(path), keywords=KEYWORDS, comment_tags=("i18n:",), strip_comment_tags=True
            ):
                cat.add(message, locations=[(rel, lineno)], auto_comments=comments, context=context)
    return cat


def template(extras: Iterable[Extra] = (), root: Path = ROOT) -> Catalog:
    """The ``.pot``: the source's msgids plus ``extras``."""
    cat = extract_sources(root)
    for e in extras:
        cat.add(e.msgid, locations=[(e.location, 0)], context=e.context)
    return cat


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def write(cat: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, cat, width=WIDTH, ignore_obsolete=True, include_previous=False, sort_output=False)


def update(tmpl: Catalog, locales: Iterable[str] = TRANSLATED) -> list[Path]:
    """Write the template and merge it into each locale's ``.po`` (new msgids empty, gone ones dropped)."""
    write(tmpl, TEMPLATE)
    written = [TEMPLATE]
    for loc in locales:
        path = po_path(loc)
        cat = read(path, loc) if path.exists() else new_catalog(loc)
        cat.update(tmpl, update_header_comment=False)
        write(cat, path)
        written.append(path)
    return written


def fields(text: str) -> set[str]:
    """The ``str.format`` placeholders of ``text``."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _key(m: Message) -> tuple[str, str | None]:
    msgid = m.id[0] if isinstance(m.id, tuple) else m.id
    return msgid, m.context


def problems(cat: Catalog, tmpl: Catalog) -> list[str]:
    """Everything that keeps ``cat`` from being a complete translation of ``tmpl`` (empty means complete)."""
    loc = str(cat.locale) if cat.locale else "?"
    out: list[str] = []
    expected = get_plural(Locale.parse(loc)).num_plurals if cat.locale else cat.num_plurals
    if cat.num_plurals != expected:
        out.append(f"{loc}: Plural-Forms has {cat.num_plurals} forms, the language has {expected}")
    have = {_key(m): m for m in cat if m.id}
    want = {_key(m): m for m in tmpl if m.id}
    for key, src in want.items():
        where = f"{loc}: {key[0]!r}" + (f" [{key[1]}]" if key[1] else "")
        m = have.get(key)
        if m is None:
            out.append(f"{where}: missing")
            continue
        if m.fuzzy:
            out.append(f"{where}: fuzzy")
        ids = src.id if isinstance(src.id, tuple) else (src.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if isinstance(src.id, tuple) != isinstance(m.id, tuple):
            out.append(f"{where}: plural in one catalogue, not in the other")
            continue
        if isinstance(src.id, tuple) and len(strings) != cat.num_plurals:
            out.append(f"{where}: {len(strings)} plural forms, {cat.num_plurals} wanted")
        want_fields = set().union(*(fields(i) for i in ids))
        for s in strings:
            if not s or not s.strip():
                out.append(f"{where}: empty")
                continue
            try:
                got = fields(s)
            except ValueError as e:
                out.append(f"{where}: bad braces in {s!r} ({e})")
                continue
            if got != want_fields:
                out.append(f"{where}: placeholders {sorted(got)} instead of {sorted(want_fields)} in {s!r}")
    for key in have.keys() - want.keys():
        out.append(f"{loc}: {key[0]!r} is not in the template any more (run `python -m bot.i18n extract`)")
    return out


def stale_template(tmpl_now: Catalog, tmpl_file: Catalog) -> list[str]:
    """msgids the source has and the ``.pot`` file lacks, or the other way round."""
    now = {_key(m) for m in tmpl_now if m.id}
    saved = {_key(m) for m in tmpl_file if m.id}
    out = [f"not extracted yet: {k[0]!r} [{k[1]}]" for k in sorted(now - saved, key=str)]
    out += [f"no longer in the source: {k[0]!r} [{k[1]}]" for k in sorted(saved - now, key=str)]
    return out

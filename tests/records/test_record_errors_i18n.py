"""Hand-record errors in the reader's language: every reason is a catalogue msgid with data.

The raise sites are read from the source (every ``RecordError(line, N_("…"), ...)`` and
``NotationError(N_("…"), ...)``): the message must be an ``N_`` literal that the catalogue holds, given exactly
the parameters its placeholders name. Mutated and hand-broken records then fail, and their errors are worded in
the pseudo-locale (nothing may be left outside the catalogue but the file's own tokens and the error's data, as
in ``tests/i18n/test_panels.py``) and in every language within Discord's 2000 characters; ``str(err)`` stays the
English the format's documentation quotes.
"""

from __future__ import annotations

import ast
import io
import re
import string
import tokenize
from collections.abc import Iterator
from functools import cache, partial
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from i18n.test_panels import leftover

from bot.engine.notation import NotationError, Term
from bot.errors import Refusal
from bot.i18n import N_, PSEUDO, SUPPORTED, using
from bot.i18n import catalog as _catalog
from bot.records import RecordError, parse_record, replay
from bot.render.errors import error_text

from .test_fuzz import base_texts, mutated

ROOT = Path(__file__).resolve().parents[2]
MESSAGE_MAX = 2000
#: what a record error's reply is, in cogs/records.py
REPLY = N_("That record is not valid: {reason}.")
_SKIP = {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}


def _sources() -> list[Path]:
    return [
        *sorted((ROOT / "bot" / "records").glob("*.py")),
        ROOT / "bot" / "engine" / "notation.py",
        *sorted((ROOT / "bot" / "games").glob("*/notation.py")),
    ]


def _calls(path: Path) -> Iterator[tuple[str, str, set[str]]]:
    """``(where, msgid, keyword names)`` of every ``RecordError(...)`` / ``NotationError(...)`` raised in ``path``.

    Read from the tokens, not with ``ast.parse`` of the file: CPython 3.11.7's AST builder can fail ("recursion
    depth mismatch") once other tests of the session have run."""
    toks = [t for t in tokenize.generate_tokens(io.StringIO(path.read_text()).readline) if t.type not in _SKIP]
    for i, tok in enumerate(toks):
        if tok.type != tokenize.NAME or tok.string not in ("RecordError", "NotationError"):
            continue
        if toks[i + 1].string != "(" or toks[i - 1].string not in ("raise", "return"):
            continue  # a class statement, an import, an except clause, a type annotation
        depth, args, current = 0, [], []
        for t in toks[i + 1 :]:
            depth += t.string in "([{" and t.type == tokenize.OP
            depth -= t.string in ")]}" and t.type == tokenize.OP
            if depth == 0:
                break
            if depth == 1 and t.type == tokenize.OP and t.string in ",(":
                if t.string == ",":
                    args.append(current)
                current = [] if t.string == "," else current
                continue
            current.append(t)
        args.append([a for a in current if a])
        args = [a for a in args if a]
        where = f"{path.relative_to(ROOT)}:{tok.start[0]}"
        message = args[1] if tok.string == "RecordError" else args[0]
        if len(message) > 2 and message[-2].string == ",":  # a trailing comma (the formatter's, in a long call)
            message = [*message[:-2], message[-1]]
        shape = [t.string for t in message]
        # N_("…"), or N_n("…", "…") for a count (its form chosen by the ``n`` parameter)
        single = len(shape) == 4 and shape[0] == "N_" and shape[1] == "(" and shape[3] == ")"
        plural = len(shape) == 6 and shape[0] == "N_n" and shape[1] == "(" and shape[3] == "," and shape[5] == ")"
        assert single or plural, f'{where}: the message must be N_("…") or N_n("…", "…"), not {" ".join(shape)}'
        literals = [message[2], message[4]] if plural else [message[2]]
        assert all(t.type == tokenize.STRING for t in literals), f"{where}: the msgid must be a literal"
        msgid = ast.literal_eval(message[2].string)  # one string literal, not the file
        keywords = {a[0].string for a in args if len(a) > 1 and a[1].string == "="}
        if plural:  # the plural's placeholders are the singular's; ``n`` picks the form even where it is not shown
            keywords.discard("n")
        yield where, msgid, keywords


def _fields(msgid: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(msgid) if name}


@cache
def _template_ids() -> frozenset[tuple[str | None, str]]:
    cat = _catalog.read(ROOT / "bot" / "locales" / "tavolo.pot")
    return frozenset((m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in cat if m.id)


def test_every_raise_site_is_a_catalogue_msgid_with_its_placeholders() -> None:
    found = [c for f in _sources() for c in _calls(f)]
    assert len(found) >= 60, len(found)  # the scan sees the raise sites (67 today)
    for where, msgid, keywords in found:
        assert (None, msgid) in _template_ids(), f"{where}: {msgid!r} is not in the catalogue (extract)"
        assert keywords == _fields(msgid) - {"n"} or keywords == _fields(msgid), (
            f"{where}: parameters {sorted(keywords)} for {msgid!r}"
        )


# -- the texts ---------------------------------------------------------------------------------------------------
def _error(text: str) -> RecordError | None:
    try:
        replay(parse_record(text))
    except RecordError as e:
        return e
    return None


def _data(err: RecordError, text: str) -> set[str]:
    """What may be left of the worded error: the file's words and the error's own (and its causes') data."""
    out = set(re.findall(r"\w+", text))
    params = list(err.params.values())
    while params:
        v = params.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, partial):  # partial(notation_text, err): the notation error's own data
            for a in v.args:
                if isinstance(a, NotationError):
                    params.extend(p for p in a.params.values() if not isinstance(p, Term))
    return out


def _check(err: RecordError, text: str) -> None:
    if err.line < 1000:  # (the locale groups digits: English words a 4-digit line as 1,000)
        with using("en"):
            assert err.text() == str(err)
    with using(PSEUDO):
        worded = err.text()
    assert not leftover(worded, _data(err, text)), (str(err), worded)
    for loc in SUPPORTED:
        with using(loc):
            reply = error_text(Refusal(REPLY, reason=err.text))
        assert len(reply) <= MESSAGE_MAX, (loc, len(reply))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_records_are_worded_from_the_catalogue(text: str) -> None:
    err = _error(text)
    if err is not None:
        _check(err, text)


def _broken() -> Iterator[tuple[str, str]]:
    """Hand-broken records: ``(text, what str(err) says)``, one per family of errors."""
    base = base_texts()[0]  # a Wizard record
    lines = base.split("\n")
    first_action = next(i for i, ln in enumerate(lines) if re.match(r"[0-9]+:", ln))
    seat, _colon, _rest = lines[first_action].partition(":")

    def with_line(i: int, new: str) -> str:
        return "\n".join([*lines[:i], new, *lines[i + 1 :]])

    yield with_line(first_action, f"{seat}: bid x"), "a bid must be a whole number"
    yield with_line(first_action, f"{seat}: fly"), "unknown Wizard action"
    yield with_line(first_action, f"{seat}: trump Q"), "the trump suit must be one of"
    yield with_line(first_action, f"{seat}: play ZZ"), "unknown card 'ZZ'"
    yield with_line(first_action, f"{seat}: {{}}"), 'a JSON action must be an object with a "type" string'
    yield with_line(first_action, "9: bid 1"), "seat 9 does not exist"
    yield with_line(first_action, f"{seat}: bid 99"), "cannot `bid 99`"
    yield base.replace('[Seed "', '[Seed "x'), "the seed must be a whole number"
    yield base.replace('[Version "1"]', '[Version "2"]'), "unsupported record version"
    yield base.replace("== hand 1 ==", "== hand 2 =="), "this is hand 1, not hand 2"
    yield re.sub(r'\[Result "[^"]*"\]', '[Result "stake 1 2 3"]', base), "expected"
    yield base + "\n1: bid 1\n", "nothing may follow the [Result] tag"


def test_hand_broken_records_are_worded_from_the_catalogue() -> None:
    for text, says in _broken():
        err = _error(text)
        assert err is not None and says in str(err), (says, err)
        _check(err, text)
        with using("ko"):
            korean = err.text()
        assert korean != str(err) and "줄" in korean, korean


def test_the_engine_refusal_inside_is_in_the_readers_language() -> None:
    base = base_texts()[0]
    lines = base.split("\n")
    i = next(i for i, ln in enumerate(lines) if re.match(r"[0-9]+:", ln))
    seat = lines[i].partition(":")[0]
    err = _error("\n".join([*lines[:i], f"{seat}: bid 99", *lines[i + 1 :]]))
    assert err is not None
    with using("it"):
        italian = err.text()
    assert italian.startswith("riga ") and "posto" in italian and "cannot" not in italian, italian


def test_the_reply_is_worded_when_it_is_made() -> None:
    """cogs/records.py gives the reason as a callable: the same error reads in each reader's language."""
    err = _error(base_texts()[0].replace('[Version "1"]', '[Version "2"]'))
    assert err is not None
    refusal = Refusal(REPLY, reason=err.text)
    with using("pl"):
        polish = error_text(refusal)
    with using("ru"):
        russian = error_text(refusal)
    assert "wiersz" in polish and "строка" in russian, (polish, russian)
    assert str(refusal) == f"That record is not valid: {err}."

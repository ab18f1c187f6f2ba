"""Reading a hand record's text into a :class:`~bot.records.model.Record`.

Only the text is checked here (tags, hand lines, action notation, the result section); whether the actions
are legal and the declared result is right is checked by :func:`bot.records.replay.replay`. Every problem
is a :class:`RecordError` naming the 1-based line, never another exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import partial
from os import PathLike
from pathlib import Path
from typing import Any

from bot.i18n import N_, N_n, _p

from . import _games
from .format import OPTION_NAME, hand_mark
from .model import FORMAT_VERSION, RESULT_TAGS, TAG_NAME, Booked, Lines, Record, RecordError
from .notation import NotationError, notation_text, parse_action

CURRENCIES = ("stake", "resto", "point")
#: the [Result] tag's name in an amounts error, in the reader's language (a currency is shown as written)
_RESULT_TERM: Callable[[], str] = lambda: _p("record", "result")  # noqa: E731
REQUIRED = ("Game", "Version", "Players", "Seed")

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_MARK = re.compile(r"==\s*hand\s+([0-9]{1,9})\s*==", re.IGNORECASE)
_ACTION = re.compile(r"([0-9]{1,9})\s*:(.*)")
_SEED = re.compile(r"-?[0-9]{1,40}")
_POSITIVE = re.compile(r"[0-9]{1,9}")
_AMOUNT = re.compile(r"[+-]?[0-9]{1,18}")


def _unescape(raw: str, line: int) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\":
            nxt = raw[i + 1] if i + 1 < len(raw) else ""
            if nxt not in ('"', "\\"):
                raise RecordError(line, N_('in a tag value only \\" and \\\\ may follow a backslash'))
            out.append(nxt)
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def decode_option(text: str) -> Any:
    """The inverse of :func:`bot.records.format.encode_option`: JSON, else the bare text itself."""

    def no_constants(name: str) -> Any:
        raise ValueError(name)

    try:
        return json.loads(text, parse_constant=no_constants)
    except (ValueError, RecursionError):
        return text


def _amounts(text: str, n: int, line: int, what: str | Callable[[], str]) -> list[int]:
    # ``what`` is the currency as written in the file, or a worded term (the result) given as a callable
    parts = text.split()
    if len(parts) != n:
        raise RecordError(
            line,
            N_n(
                "{what}: expected {n} amount (one per seat), found {found}",
                "{what}: expected {n} amounts (one per seat), found {found}",
            ),
            what=what,
            n=n,
            found=len(parts),
        )
    for p in parts:
        if not _AMOUNT.fullmatch(p):
            raise RecordError(line, N_("{what}: {token} is not a whole number"), what=what, token=repr(p))
    return [int(p) for p in parts]


def _currency(word: str, line: int) -> str:
    if word not in CURRENCIES:
        raise RecordError(line, N_("unknown currency {token} (stake, resto or point)"), token=repr(word))
    return word


def _settlement(value: str, n: int, line: int) -> Booked:
    head, sep, rest = value.partition(":")
    if not sep or not _POSITIVE.fullmatch(head.strip()) or int(head) < 1:
        raise RecordError(line, N_('a settlement reads "N: CURRENCY AMOUNTS; ..." with N from 1'))
    amounts: dict[str, tuple[int, ...]] = {}
    for part in rest.split(";"):
        words = part.split(None, 1)
        if not words:
            raise RecordError(line, N_("empty currency in the settlement"))
        cur = _currency(words[0], line)
        if cur in amounts:
            raise RecordError(line, N_("currency {currency} appears twice"), currency=cur)
        amounts[cur] = tuple(_amounts(words[1] if len(words) > 1 else "", n, line, cur))
    return Booked(int(head) - 1, amounts)


def _result(value: str, n: int, line: int) -> tuple[str, tuple[int, ...]] | None:
    if value.strip() == "*":
        return None
    words = value.split(None, 1)
    if not words:
        raise RecordError(line, N_('the result is "*" (game not over) or "CURRENCY TOTALS"'))
    cur = _currency(words[0], line)
    return cur, tuple(_amounts(words[1] if len(words) > 1 else "", n, line, _RESULT_TERM))


class _Parser:
    def __init__(self) -> None:
        self.lines = Lines()
        self.tags: dict[str, str] = {}
        self.options: dict[str, Any] = {}
        self.header_done = False
        self.game = ""
        self.players: list[str] = []
        self.seed = 0
        self.hand: int | None = None
        self.date: str | None = None
        self.actions: list[tuple[int, Any]] = []
        self.hand_starts: dict[int, int] = {}
        self.pending_mark: tuple[int, int] | None = None  # (line, hand)
        self.last_mark = -1
        self.settlements: list[Booked] = []
        self.result: tuple[str, tuple[int, ...]] | None = None
        self.state = "header"  # -> "body" -> "result" -> "done" (after the Result tag)

    # -- header -------------------------------------------------------------------------------------------
    def header_tag(self, name: str, value: str, line: int) -> None:
        if name == "Option":
            key, sep, raw = value.partition("=")
            key = key.strip()
            if not sep or not OPTION_NAME.fullmatch(key):
                raise RecordError(line, N_('an option reads "name=value", e.g. [Option "hands=1"]'))
            if key in self.options:
                raise RecordError(line, N_("option {option} is given twice"), option=key)
            self.options[key] = decode_option(raw.strip())
            self.lines.tags[f"Option:{key}"] = line
            return
        if name in self.lines.tags:
            raise RecordError(
                line, N_("duplicate [{tag}] tag (first on line {first})"), tag=name, first=self.lines.tags[name]
            )
        self.lines.tags[name] = line
        if name == "Game":
            if value not in _games.game_ids():
                raise RecordError(
                    line,
                    N_("unknown game {game} (one of: {games})"),
                    game=repr(value),
                    games=", ".join(_games.game_ids()),
                )
            self.game = value
        elif name == "Version":
            if value != FORMAT_VERSION:
                raise RecordError(
                    line,
                    N_("unsupported record version {version} (this reader knows {known})"),
                    version=repr(value),
                    known=FORMAT_VERSION,
                )
        elif name == "Players":
            names = [p.strip() for p in value.split(";")]
            if any(not p for p in names):
                raise RecordError(line, N_('players are names separated by "; ", none empty'))
            self.players = names
        elif name == "Seed":
            if not _SEED.fullmatch(value.strip()):
                raise RecordError(line, N_("the seed must be a whole number, not {token}"), token=repr(value))
            self.seed = int(value)
        elif name == "Hand":
            if not _POSITIVE.fullmatch(value.strip()) or int(value) < 1:
                raise RecordError(line, N_("the hand must be a number from 1, not {token}"), token=repr(value))
            self.hand = int(value) - 1
        elif name == "Date":
            self.date = value
        else:
            self.tags[name] = value

    def finish_header(self, line: int) -> None:
        if self.header_done:
            return
        self.header_done = True
        for name in REQUIRED:
            if name not in self.lines.tags:
                raise RecordError(
                    line, N_('missing [{tag} "…"] tag (the header needs {tags})'), tag=name, tags=", ".join(REQUIRED)
                )
        lo, hi = _games.seat_range(self.game)
        n = len(self.players)
        if not lo <= n <= hi:
            title = _games.title(self.game)
            game = lambda: _p("game", title)  # noqa: E731 -- the title in the reader's language, at text time
            at = self.lines.tags["Players"]
            if lo == hi:
                raise RecordError(
                    at,
                    N_n("{game} needs {n} player, not {found}", "{game} needs {n} players, not {found}"),
                    game=game,
                    n=lo,
                    found=n,
                )
            raise RecordError(
                at,
                N_n("{game} needs {lo} to {n} player, not {found}", "{game} needs {lo} to {n} players, not {found}"),
                game=game,
                lo=lo,
                n=hi,
                found=n,
            )

    # -- body ---------------------------------------------------------------------------------------------
    def mark(self, hand: int, line: int) -> None:
        if hand < 1:
            raise RecordError(line, N_("hands are numbered from 1"))
        if self.pending_mark is not None:
            raise RecordError(
                line, N_("two hand lines in a row (the other on line {other})"), other=self.pending_mark[0]
            )
        if hand - 1 <= self.last_mark:
            raise RecordError(
                line,
                N_("hand {hand} comes after hand {previous}: hands must increase"),
                hand=hand,
                previous=self.last_mark + 1,
            )
        self.pending_mark = (line, hand - 1)
        self.last_mark = hand - 1

    def action(self, seat_text: str, text: str, line: int) -> None:
        seat = int(seat_text)
        n = len(self.players)
        if not 1 <= seat <= n:
            raise RecordError(
                line, N_("seat {seat} does not exist (seats 1 to {n}, in [Players] order)"), seat=seat, n=n
            )
        try:
            action = parse_action(self.game, text)
        except NotationError as e:
            # (bound now: ``e`` is unset when the except block ends, the text is made later)
            raise RecordError(line, N_("{reason}"), reason=partial(notation_text, e)) from None
        if self.pending_mark is not None:
            self.hand_starts[len(self.actions)] = self.pending_mark[1]
            self.lines.hand_marks[len(self.actions)] = self.pending_mark[0]
            self.pending_mark = None
        self.actions.append((seat - 1, action))
        self.lines.actions.append(line)

    def end_body(self, line: int) -> None:
        if self.pending_mark is not None:
            raise RecordError(self.pending_mark[0], N_("a hand line must be followed by that hand's actions"))

    # -- result -------------------------------------------------------------------------------------------
    def result_tag(self, name: str, value: str, line: int) -> None:
        n = len(self.players)
        if name == "Settlement":
            b = _settlement(value, n, line)
            if self.settlements and b.index <= self.settlements[-1].index:
                raise RecordError(line, N_("settlements must be listed in order"))
            self.settlements.append(b)
            self.lines.settlements.append(line)
        else:
            self.result = _result(value, n, line)
            self.lines.result = line
            self.state = "done"

    # -- driver -------------------------------------------------------------------------------------------
    def feed(self, raw: str, line: int) -> None:
        text = raw.strip()
        if not text or text.startswith(";"):
            return
        if self.state == "done":
            raise RecordError(line, N_("nothing may follow the [Result] tag"))
        if text.startswith("["):
            m = _TAG.fullmatch(text)
            if m is None:
                raise RecordError(line, N_('malformed tag: expected [Name "value"]'))
            name, value = m.group(1), _unescape(m.group(2), line)
            if not TAG_NAME.fullmatch(name):
                raise RecordError(line, N_("tag names start with a capital letter: {tag}"), tag=repr(name))
            if name in RESULT_TAGS:
                self.finish_header(line)
                self.end_body(line)
                self.state = "result"
                self.result_tag(name, value, line)
            elif self.state == "header":
                self.header_tag(name, value, line)
            else:
                raise RecordError(line, N_("[{tag}] belongs in the header, before the actions"), tag=name)
            return
        if self.state == "result":
            raise RecordError(line, N_("actions must come before the result section"))
        m = _MARK.fullmatch(text)
        if m is not None:
            self.finish_header(line)
            self.state = "body"
            self.mark(int(m.group(1)), line)
            return
        m = _ACTION.fullmatch(text)
        if m is not None:
            self.finish_header(line)
            self.state = "body"
            self.action(m.group(1), m.group(2), line)
            return
        raise RecordError(
            line, N_('expected a tag [Name "value"], a hand line "{mark}" or "SEAT: ACTION"'), mark=hand_mark(0)
        )

    def finish(self, last: int) -> Record:
        self.finish_header(last)
        self.end_body(last)
        if self.state != "done":
            raise RecordError(last, N_('missing [Result "…"] tag at the end ("*" while the game is not over)'))
        self.lines.end = last
        return Record(
            game=self.game,
            seed=self.seed,
            players=self.players,
            options=self.options,
            actions=self.actions,
            hand_starts=self.hand_starts,
            hand=self.hand,
            settlements=self.settlements,
            result=self.result,
            date=self.date,
            tags=self.tags,
            lines=self.lines,
        )


def parse_record(text: str) -> Record:
    """Read a record's text. Raises :class:`RecordError` (with the line) for anything malformed."""
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark some editors add
    p = _Parser()
    lines = text.split("\n")
    for i, raw in enumerate(lines, 1):
        p.feed(raw.rstrip("\r"), i)
    last = len(lines)
    while last > 1 and not lines[last - 1].strip():
        last -= 1
    return p.finish(last)


def load_record(path: str | PathLike[str]) -> Record:
    """Read a record file (UTF-8). Unreadable files raise ``OSError``; bad contents :class:`RecordError`."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(data.count(b"\n", 0, e.start) + 1, N_("the file is not UTF-8 text")) from None
    return parse_record(text)

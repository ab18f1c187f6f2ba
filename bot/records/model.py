"""What a hand record holds (``Record``), the settlements it declares (``Booked``) and ``RecordError``.

A record is exactly the recipe of a game (``options + seed + action log``, see ``bot.engine.protocol``)
plus cosmetic tags (players' names, date) and the declared outcome, which a replay checks. Seats and hands
are 0-based here, as in the engines; the text format shows them 1-based (``docs/hand-records.md``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine.protocol import Action
from bot.i18n import SOURCE, _, english, tr, using

FORMAT_VERSION = "1"
#: tags with a meaning; any other tag (a capitalised name) is kept as it is in ``Record.tags``
HEADER_TAGS = ("Game", "Version", "Date", "Players", "Seed", "Option", "Hand")
RESULT_TAGS = ("Settlement", "Result")
TAG_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*")


class RecordError(Exception):
    """A malformed or tampered record: ``line`` is the 1-based line of the text (0 when not from a text).

    The reason is a catalogue msgid (English, ``N_``-marked at the raise site) with parameters, so a reader
    gets it in their language (:meth:`text`) while ``str(err)`` and :attr:`message` stay the English the
    format's documentation quotes. Parameters are data as written in the file (tags, tokens, card ids,
    numbers); a zero-argument callable is a fragment that is itself worded (an engine's refusal, a seat),
    evaluated when the text is made so that it follows the locale of that moment.
    """

    def __init__(self, line: int, msgid: str, **params: Any) -> None:
        super().__init__(line, msgid)
        self.line = line
        self.msgid = msgid
        self.params = params

    def _resolved(self) -> dict[str, Any]:
        return {k: v() if callable(v) else v for k, v in self.params.items()}

    @property
    def message(self) -> str:
        """The reason in English, without the line (numbers as plain digits, as the format writes them)."""
        with using(SOURCE):
            return english(self.msgid, **self._resolved())

    def reason(self) -> str:
        """The reason in the current locale, without the line."""
        return tr(self.msgid, **self._resolved())

    def text(self) -> str:
        """The whole error in the current locale: ``line N: reason`` (just the reason when not from a text)."""
        reason = self.reason()
        return _("line {line}: {reason}", line=self.line, reason=reason) if self.line else reason

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True, slots=True)
class Booked:
    """One settlement as a record declares it: its index in the game and per-seat amounts per currency."""

    index: int
    amounts: Mapping[str, tuple[int, ...]]

    def same_as(self, other: Booked) -> bool:
        return self.index == other.index and dict(self.amounts) == dict(other.amounts)


@dataclass(slots=True)
class Lines:
    """Where each part of a parsed record came from (1-based line numbers), for precise replay errors."""

    tags: dict[str, int] = field(default_factory=dict)  # tag name (Option: "Option:<name>") -> line
    actions: list[int] = field(default_factory=list)  # one per action
    hand_marks: dict[int, int] = field(default_factory=dict)  # action index -> line of its `== hand N ==`
    settlements: list[int] = field(default_factory=list)  # one per declared settlement
    result: int = 0
    end: int = 0  # the last line of the text


#: the header tag listing the hints a table's players asked for: ``seat@action`` pairs (1-based), space-separated
HINTS_TAG = "Hints"


@dataclass(slots=True)
class Record:
    """A game's recipe and declared outcome.

    * ``actions``: ``(seat, action)`` pairs from the first action of the game;
    * ``hand_starts``: action index -> 0-based hand number, for every action that starts a hand;
    * ``hand``: the 0-based hand the record is about (``None`` = the whole log); the actions then end with
      that hand, and ``settlements`` are the ones booked during it;
    * ``settlements``: what the recorded actions booked (within ``hand`` if set), in order;
    * ``result``: ``(currency, totals)`` once the game is over after the last action, else ``None``;
    * ``tags``: other header tags, kept as they are (e.g. ``Table``, ``Server``).
    """

    game: str
    seed: int
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[tuple[int, Action]] = field(default_factory=list)
    hand_starts: dict[int, int] = field(default_factory=dict)
    hand: int | None = None
    settlements: list[Booked] = field(default_factory=list)
    result: tuple[str, tuple[int, ...]] | None = None
    date: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    lines: Lines | None = field(default=None, compare=False)

    @property
    def num_seats(self) -> int:
        return len(self.players)

    def line_of_action(self, i: int) -> int:
        if self.lines is None or i >= len(self.lines.actions):
            return 0
        return self.lines.actions[i]

    def line_of_tag(self, name: str) -> int:
        return self.lines.tags.get(name, 0) if self.lines is not None else 0

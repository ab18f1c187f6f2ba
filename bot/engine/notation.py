"""What every game's action notation shares (hand records): the error, number and card-id readers.

Card ids are the engines' own (``QS``, ``TD``, ``JK``, ``WIZ3``, ``3D``, ``CuK``, ``T17``, ``MATTO``): exact,
ASCII and case-sensitive, so a record never depends on how a card happens to be displayed. Each game's own
notation (``bot/games/<id>/notation.py``: ``parse(verb, args)`` and ``format_action(action)``) is built on these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from .protocol import Action


def N_(msgid: str) -> str:
    """Marks an English msgid for the catalogue. (The engine layer stays free of ``bot.i18n``: the text is
    made by ``bot.records``, which words a :class:`NotationError` in the reader's language.)"""
    return msgid


@dataclass(frozen=True, slots=True)
class Term:
    """A parameter that is itself a catalogue msgid (what a token stands for, a game's title), worded when
    the error's text is made; ``context`` is its ``msgctxt``. As a string it is the English."""

    msgid: str
    context: str | None = None

    def __str__(self) -> str:
        return self.msgid


class NotationError(ValueError):
    """An action text that is not valid notation for the game.

    Like a record error it carries an ``N_``-marked msgid and parameters rather than text: ``str(err)`` is the
    English; ``bot.records.notation.notation_text`` words it in the current locale. A :class:`Term` parameter
    is worded too; anything else is the record's own token and is shown as written.
    """

    def __init__(self, msgid: str, **params: Any) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.params = params

    def __str__(self) -> str:
        return self.msgid.format(**{k: str(v) for k, v in self.params.items()})


class Notation(Protocol):
    """A game's notation module: ``parse`` reads ``verb args...``; ``format_action`` writes it (``None``: the
    notation cannot express that action; records then hold it as JSON)."""

    def parse(self, verb: str, args: list[str]) -> Action: ...

    def format_action(self, a: Action) -> str | None: ...


_INT = re.compile(r"[0-9]{1,9}")


def int_arg(tok: str, what: str) -> int:
    # ASCII digits only: str.isdigit() and int() also accept other scripts' digits, which a record must not.
    if not _INT.fullmatch(tok):
        # i18n: {what} is what the token stands for ("a bid", "the cut"); {token} is quoted from the record
        raise NotationError(N_("{what} must be a whole number, not {token}"), what=Term(what), token=repr(tok))
    return int(tok)


def unknown_verb(game: str, verb: str, verbs: str) -> NotationError:
    """The error for a verb the game's notation does not have (``game`` is its English title)."""
    return NotationError(
        N_("unknown {game} action {verb} ({verbs})"), game=Term(game, "game"), verb=repr(verb), verbs=verbs
    )


def one_of(tok: str, allowed: tuple[str, ...], what: str) -> str:
    if tok not in allowed:
        raise NotationError(
            N_("{what} must be one of {allowed}, not {token}"),
            what=Term(what),
            allowed=", ".join(allowed),
            token=repr(tok),
        )
    return tok


def arity(args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        raise NotationError(N_("expected `{usage}`"), usage=usage)


def cards_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return " ".join(value) if len(value) > 1 else f"[{' '.join(value)}]"
    return None


class CardSyntax:
    """Card ids of one deck, read from record text."""

    def __init__(self, deck: Iterable[str], examples: str) -> None:
        self.deck = frozenset(deck)
        self.examples = examples

    def card(self, tok: str) -> str:
        if tok not in self.deck:
            raise NotationError(
                N_("unknown card {token} (cards are written as ids such as {examples})"),
                token=repr(tok),
                examples=self.examples,
            )
        return tok

    def cards(self, args: list[str], usage: str) -> str | list[str]:
        """A card field: one card alone is a single id; several cards, or cards in brackets, are a list.

        (Discord's one-card menus send a plain id where the engines' own choices hold a one-card list; the
        engines accept both, and a record keeps exactly what was sent.)
        """
        joined = " ".join(args)
        if joined.startswith("[") and joined.endswith("]"):
            inner = joined[1:-1].split()
            if not inner:
                raise NotationError(N_("expected `{usage}`: the brackets are empty"), usage=usage)
            return [self.card(c) for c in inner]
        if not args:
            raise NotationError(N_("expected `{usage}`"), usage=usage)
        if len(args) == 1:
            return self.card(args[0])
        return [self.card(c) for c in args]

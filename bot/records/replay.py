"""Replaying a record through the real engine: every action is validated, the hand lines and the declared
settlements and result are checked, and the state after every step is kept.

Also builds records from a table's log (``record_from_log``) and cuts a whole-table record down to one
hand (``cut``). Every problem is a :class:`RecordError` with the line of the text it comes from (or, for a
record not read from a text, line 0 and the action's number in the message) — never another exception.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine.protocol import Action, Game, Settlement, View
from bot.i18n import N_, SOURCE, N_n, _, _p, current

from . import _games
from .format import booked_text, hand_mark, result_text
from .model import Booked, Record, RecordError
from .notation import format_action


@dataclass(slots=True)
class Step:
    """One replayed action and the state right after it."""

    index: int  # 0-based position in the log
    line: int  # its line in the text (0 when the record was not read from a text)
    seat: int
    action: Action
    hand: int  # 0-based hand the action belongs to (the engine's hand_number before it)
    starts_hand: bool
    public: View | None  # game.public_view() after the action (None where replay(..., states=) keeps none)
    views: tuple[View, ...] | None  # game.view(seat) for every seat after it (replay(..., views=True))
    settlements: tuple[Settlement, ...]  # what this action booked


@dataclass(slots=True)
class Replayed:
    """A validated record: the final game, the state before the first action and after every step."""

    record: Record
    game: Game
    initial: View | None  # None where replay(..., states=) keeps no state before the first action
    initial_views: tuple[View, ...] | None
    steps: list[Step] = field(default_factory=list)

    @property
    def hands(self) -> list[int]:
        """The 0-based hands the record's actions belong to, in order."""
        return sorted({s.hand for s in self.steps})

    def steps_of(self, hand: int) -> list[Step]:
        return [s for s in self.steps if s.hand == hand]

    def settlements(self) -> list[Settlement]:
        """The settlements booked within the record's span (its ``hand``, or the whole log)."""
        h = self.record.hand
        return [b for s in self.steps if h is None or s.hand == h for b in s.settlements]


def _booked(s: Settlement) -> Booked:
    return Booked(s.index, {k: tuple(v) for k, v in s.amounts.items()})


def _where(record: Record, i: int) -> tuple[int, str | Callable[[], str]]:
    """The line of action ``i`` and, for a record not read from a text, a prefix naming the action."""
    line = record.line_of_action(i)
    # i18n: a prefix put before a record error's reason ("action 3: seat 2 (Ann) cannot …"); keep the final space
    return line, "" if line else lambda: _("action {n}: ", n=i + 1)


def _option_line(record: Record, err: _games.InvalidOptions) -> int:
    # InvalidOptions names the option in its parameters (``option``, or the unknown ``names``): point at its line.
    named = [err.params.get("option"), *err.params.get("names", ())]
    for name in [n for n in named if isinstance(n, str)] + re.findall(r"[A-Za-z_][A-Za-z0-9_]*", str(err)):
        line = record.line_of_tag(f"Option:{name}") if name in record.options else 0
        if line:
            return line
    return record.line_of_tag("Game")


def _new_game(record: Record) -> Game:
    try:
        cls = _games.engine_class(record.game)
    except KeyError:
        raise RecordError(record.line_of_tag("Game"), N_("unknown game {game}"), game=repr(record.game)) from None
    try:
        return cls(record.num_seats, dict(record.options), record.seed)  # type: ignore[call-arg]
    except _games.InvalidOptions as e:
        raise RecordError(_option_line(record, e), N_("invalid options: {reason}"), reason=_engine(e, record)) from None
    except Exception as e:  # a hand-written option of the wrong type may trip an engine anywhere
        raise RecordError(record.line_of_tag("Game"), N_("invalid options ({detail})"), detail=_detail(e)) from None


def _all_views(game: Game) -> tuple[View, ...]:
    return tuple(game.view(s) for s in range(game.num_seats))


#: which states a replay keeps: "all" (after every step), "none", or those of one 0-based hand (after each of
#: its steps, and the state before its first action)
States = Literal["all", "none"] | int


def _keeps(states: States, hand_before: int, hand_after: int) -> bool:
    # the state after a step is the state before the next action, which belongs to the hand the engine is in now
    if isinstance(states, int):
        return states in (hand_before, hand_after)
    return states == "all"


def replay(record: Record, *, views: bool = False, check: bool = True, states: States = "all") -> Replayed:
    """Replay ``record`` through its engine.

    With ``check`` (the default) the hand lines must sit exactly where the engine starts a hand, the
    actions must end with the ``[Hand]`` the record is about, and the declared settlements and result must
    be the replayed ones. ``views=True`` also keeps every seat's ``view()`` after every step. ``states``
    chooses the steps whose public view (and views) are kept — the others have ``None``: building a view is
    most of a replay's cost, and a page of one hand or a record's validation need few or none.
    """
    game = _new_game(record)
    keep = _keeps(states, -1, game.hand_number)
    out = Replayed(record, game, game.public_view() if keep else None, _all_views(game) if views and keep else None)
    prev_hand: int | None = None
    booked = 0
    for i, (seat, action) in enumerate(record.actions):
        line, where = _where(record, i)
        hand = game.hand_number
        starts = hand != prev_hand
        if check:
            _check_mark(record, i, hand, starts, line, where)
            if record.hand is not None and hand > record.hand:
                raise RecordError(
                    line,
                    N_("{where}the record is about hand {about} ([Hand] tag) but this action belongs to hand {hand}"),
                    where=where,
                    about=record.hand + 1,
                    hand=hand + 1,
                )
        try:
            game.apply(seat, action)
        except _games.IllegalAction as e:
            raise RecordError(
                line,
                N_("{where}{who} cannot {action}: {reason}"),
                where=where,
                who=_who(record, seat),
                action=_quote(record, action),
                reason=_engine(e, record),
            ) from None
        except Exception as e:  # a tampered action the engine does not expect (wrong JSON types, ...)
            raise RecordError(
                line,
                N_("{where}{who} cannot {action} ({detail})"),
                where=where,
                who=_who(record, seat),
                action=_quote(record, action),
                detail=_detail(e),
            ) from None
        all_settled = game.settlements()
        new = tuple(all_settled[booked:])
        booked = len(all_settled)
        keep = _keeps(states, hand, game.hand_number)
        public = game.public_view() if keep else None
        out.steps.append(
            Step(i, line, seat, action, hand, starts, public, _all_views(game) if views and keep else None, new)
        )
        prev_hand = hand
    if check:
        _check_span(out)
        _check_outcome(out)
    return out


def kept(view: View | None) -> View:
    """A state the replay kept; a programming error (the replay's ``states`` left it out) if there is none."""
    if view is None:
        raise AssertionError("the replay did not keep this state (see replay(..., states=))")
    return view


def _who(record: Record, seat: int) -> Callable[[], str]:
    name = record.players[seat] if 0 <= seat < len(record.players) else "?"
    # the player's name is the record's own (a computer's in the reader's language); "seat" is worded in the
    # reader's language when the text is made
    return lambda: _("seat {seat} ({name})", seat=seat + 1, name=_games.display_name(name))


def _engine(err: _games.IllegalAction | _games.InvalidOptions, record: Record) -> Callable[[], str]:
    """An engine's refusal inside a record error: worded by the game's own texts in the reader's locale."""
    # (English keeps str(err), what the engine's log and the format's documentation say)
    return lambda: str(err) if current() == SOURCE else _games.error_text(err, record.game)


def _detail(err: Exception) -> str:
    # an unexpected exception from an engine fed a tampered action: its own (English) text is the only detail
    return f"{type(err).__name__}: {err}"


def _quote(record: Record, action: Action) -> str:
    try:
        return f"`{format_action(record.game, action)}`"
    except ValueError:
        return repr(action)


def _check_mark(record: Record, i: int, hand: int, starts: bool, line: int, where: str) -> None:
    mark = record.hand_starts.get(i)
    mark_line = record.lines.hand_marks.get(i, line) if record.lines is not None else line
    if starts and mark is None:
        raise RecordError(
            line,
            N_("{where}hand {hand} starts here: expected `{mark}` before it"),
            where=where,
            hand=hand + 1,
            mark=hand_mark(hand),
        )
    if mark is not None and not starts:
        raise RecordError(
            mark_line, N_("{where}no new hand starts here (hand {hand} goes on)"), where=where, hand=hand + 1
        )
    if mark is not None and mark != hand:
        raise RecordError(
            mark_line, N_("{where}this is hand {hand}, not hand {mark}"), where=where, hand=hand + 1, mark=mark + 1
        )


def _check_span(out: Replayed) -> None:
    record = out.record
    if record.hand is None:
        return
    hands = out.hands
    if record.hand not in hands:
        at = record.line_of_tag("Hand")
        if not hands:
            raise RecordError(at, N_("the record is about hand {hand} but its actions are empty"), hand=record.hand + 1)
        raise RecordError(
            at,
            N_("the record is about hand {hand} but its actions end in hand {last}"),
            hand=record.hand + 1,
            last=hands[-1] + 1,
        )


def _result_line(record: Record) -> int:
    return record.lines.result if record.lines is not None else 0


def _check_outcome(out: Replayed) -> None:
    record = out.record
    actual = [_booked(s) for s in out.settlements()]
    declared = record.settlements
    lines = record.lines.settlements if record.lines is not None else []
    for j, d in enumerate(declared):
        line = lines[j] if j < len(lines) else 0
        if j >= len(actual):
            if not actual:
                raise RecordError(
                    line,
                    N_("declared settlement {declared} but the replay books no settlement"),
                    declared=booked_text(d),
                )
            raise RecordError(
                line,
                N_n(
                    "declared settlement {declared} but the replay books only {n} settlement",
                    "declared settlement {declared} but the replay books only {n} settlements",
                ),
                declared=booked_text(d),
                n=len(actual),
            )
        if not d.same_as(actual[j]):
            raise RecordError(
                line,
                N_("declared settlement {declared} but the replay gives {actual}"),
                declared=booked_text(d),
                actual=booked_text(actual[j]),
            )
    if len(actual) > len(declared):
        missing = actual[len(declared)]
        raise RecordError(
            _result_line(record),
            N_("the replay books settlement {actual}, which the record does not declare"),
            actual=booked_text(missing),
        )
    res = out.game.result()
    got = (res.currency, tuple(res.totals)) if res is not None else None
    if got != record.result:
        raise RecordError(
            _result_line(record),
            N_("declared result {declared} but the replay gives {actual}"),
            declared=repr(result_text(record.result)),
            actual=repr(result_text(got)),
        )


def record_from_log(
    game: str,
    players: list[str],
    options: Mapping[str, Any] | None,
    seed: int,
    log: Iterable[tuple[int, Action]],
    *,
    hand: int | None = None,
    date: str | None = None,
    tags: Mapping[str, str] | None = None,
) -> Record:
    """The record of a table's log (e.g. ``Table.log``), validated by a replay.

    ``hand`` (0-based) cuts it to that hand: the actions stop where the hand ends and the settlements are
    the ones booked during it. Raises :class:`RecordError` if the log is not a legal game.
    """
    rec = Record(
        game=game,
        seed=seed,
        players=list(players),
        options=dict(options or {}),
        actions=[(int(s), a) for s, a in log],
        date=date,
        tags=dict(tags or {}),
    )
    done = replay(rec, check=False, states="none")
    steps = done.steps
    if hand is not None:
        if hand not in done.hands:
            raise RecordError(
                0, N_("the log has no hand {hand} (its hands: {hands})"), hand=hand + 1, hands=_hand_list(done.hands)
            )
        steps = [s for s in steps if s.hand <= hand]
    rec.actions = rec.actions[: len(steps)]
    rec.hand = hand
    rec.hand_starts = {s.index: s.hand for s in steps if s.starts_hand}
    rec.settlements = [_booked(b) for s in steps if hand is None or s.hand == hand for b in s.settlements]
    res = done.game.result() if len(steps) == len(done.steps) else None
    rec.result = (res.currency, tuple(res.totals)) if res is not None else None
    return rec


def _hand_list(hands: list[int]) -> Callable[[], str]:
    listed = ", ".join(str(h + 1) for h in hands)
    return lambda: listed or _p("hands", "none")


def cut(record: Record, hand: int) -> Record:
    """``record`` cut down to its 0-based ``hand`` (the actions before it stay: they are the recipe)."""
    return record_from_log(
        record.game,
        record.players,
        record.options,
        record.seed,
        record.actions,
        hand=hand,
        date=record.date,
        tags=record.tags,
    )

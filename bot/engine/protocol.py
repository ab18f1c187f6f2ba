"""The protocol every game engine implements, and replay.

A game is a synchronous, deterministic state machine:

* built from ``(num_seats, options, seed)``;
* ``to_move()`` says which seats may act now (several at once in simultaneous phases);
* ``legal_actions(seat)`` lists exactly what that seat may do; ``apply(seat, action)`` does it or raises
  :class:`~bot.engine.errors.IllegalAction`;
* ``public_view()`` is everything the whole table may know; ``view(seat)`` adds only what that seat may
  know. Renderers only ever see views, which is how privacy is guaranteed by construction;
* ``settlements()`` lists the finished accounting units (a hand, a deal, a whole game) in order, each
  with per-seat amounts per currency, so the table service can book each exactly once;
* ``is_over`` / ``result()`` for the end of the whole game.

Actions are small JSON-serialisable dicts with a ``"type"`` key, e.g. ``{"type": "bid", "n": 2}`` or
``{"type": "play", "card": "QS"}``. ``replay(cls, n, options, seed, log)`` rebuilds any game exactly.

For search-based computer players: ``clone()`` is cheap, and ``determinize(seat, rng)`` returns a full
state in which every card hidden from ``seat`` has been re-dealt consistently with ``view(seat)``.

The simulation interface (searches, playouts): ``sim_legal(seat)`` lists the moves a search considers in a
compact form (a card id for a plain play, a small tuple for a play with extras, the display action otherwise)
in the order of ``legal_actions``; ``sim_apply(seat, move)`` applies one of them without re-validating it.
``sim_action`` / ``sim_move`` convert between the two forms. States made for search (``clone(for_search=True)``,
``determinize``) log no display events: nothing renders them. The defaults below fall back to the display
interface, so an engine may implement them or not; a test checks that both paths agree.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from .errors import InvalidOptions
from .seats import Direction

Action = dict[str, Any]
View = dict[str, Any]


def copy_with_lists(record: Mapping[str, Any], list_keys: Iterable[str]) -> dict[str, Any]:
    """A copy of an engine's stored record (an event, a summary) for a view: a new dict whose values under
    ``list_keys`` (where present and not ``None``) are new lists; the other values must be scalars. The engines
    name the keys rather than test every value's type: it is twice as fast, and a view copies dozens of records."""
    out = dict(record)
    for k in list_keys:
        v = record.get(k)
        if v is not None:
            out[k] = list(v)
    return out


#: a compact action of the simulation interface: a card id, a small tuple, or a display action
Move = Any

#: Currencies the ledger knows. ``stake`` and ``resto`` must sum to zero over the seats of a unit.
CURRENCIES = ("stake", "resto", "point")
ZERO_SUM_CURRENCIES = ("stake", "resto")


@dataclass(frozen=True, slots=True)
class Settlement:
    """One finished accounting unit of a game (a hand, a deal, or the whole game).

    ``index`` numbers the units of one game from 0 and is part of the ledger's idempotency key.
    ``amounts`` maps a currency to one integer per seat. ``summary`` holds public facts worth keeping
    (contract, declarer, bids, placements...) for history and statistics; it must be JSON-serialisable.
    """

    index: int
    amounts: Mapping[str, tuple[int, ...]]
    summary: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for cur, vals in self.amounts.items():
            if cur not in CURRENCIES:
                raise ValueError(f"unknown currency {cur!r}")
            if cur in ZERO_SUM_CURRENCIES and sum(vals) != 0:
                raise ValueError(f"{cur} amounts {vals} do not sum to zero")


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a whole game: final per-seat totals (in ``currency``) and 1-based ranks (ties share)."""

    currency: str
    totals: tuple[int, ...]
    ranks: tuple[int, ...]

    @classmethod
    def from_totals(cls, currency: str, totals: Iterable[int]) -> GameResult:
        t = tuple(totals)
        ranks = tuple(1 + sum(1 for o in t if o > x) for x in t)
        return cls(currency, t, ranks)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(i for i, r in enumerate(self.ranks) if r == 1)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option: its default, the allowed values (or ``None`` = any int in ``[lo, hi]``).

    Written once: the ``/<game> new`` slash-command options are generated from these (``help`` is the option's
    description, ``labels`` the names of ``choices``); ``command=False`` keeps an option engine-only."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    lo: int | None = None
    hi: int | None = None
    help: str = ""
    labels: tuple[str, ...] | None = None
    command: bool = True

    def check(self, value: Any) -> Any:
        # bool is an int subclass: without this, 1 and 0 would pass for True/False options.
        if isinstance(self.default, bool) and not isinstance(value, bool):
            raise InvalidOptions("option_bool", option=self.name)
        if self.choices is not None:
            if value not in self.choices:
                raise InvalidOptions("option_choice", option=self.name, choices=tuple(map(str, self.choices)))
            return value
        if isinstance(self.default, bool) or not isinstance(self.default, int):
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptions("option_int", option=self.name)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            if self.lo is None:
                raise InvalidOptions("option_max", option=self.name, hi=self.hi)
            if self.hi is None:
                raise InvalidOptions("option_min", option=self.name, lo=self.lo)
            raise InvalidOptions("option_range", option=self.name, lo=self.lo, hi=self.hi)
        return value


#: a table option every game offers (the rules ignore it): a **Hint** button in each player's own controls
HINTS = OptionSpec(
    "hints",
    False,
    choices=(False, True),
    help="A Hint button for every player: what the strong computer would do (default off)",
)


class Game(ABC):
    """Base class of every engine. Subclasses set the class attributes and implement the methods."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    direction: ClassVar[Direction]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: the normalised options the game was built with
    options: dict[str, Any]

    # -- options ---------------------------------------------------------------------------------
    @classmethod
    def normalize_options(cls, options: Mapping[str, Any] | None, num_seats: int) -> dict[str, Any]:
        """Fill defaults and validate; raises :class:`InvalidOptions` (a code and parameters).

        Subclasses with cross-option rules extend this (call ``super()`` first).
        """
        options = dict(options or {})
        specs = {s.name: s for s in cls.option_specs}
        unknown = set(options) - set(specs)
        if unknown:
            raise InvalidOptions("unknown_options", names=tuple(sorted(unknown)), n=len(unknown))
        if not cls.min_seats <= num_seats <= cls.max_seats:
            if cls.min_seats == cls.max_seats:
                raise InvalidOptions("seats_exact", game=cls.title, n=cls.min_seats)
            raise InvalidOptions("seats_range", game=cls.title, lo=cls.min_seats, hi=cls.max_seats)
        return {name: spec.check(options.get(name, spec.default)) for name, spec in specs.items()}

    # -- the state machine -------------------------------------------------------------------------
    @property
    @abstractmethod
    def num_seats(self) -> int: ...

    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that may act now (empty once the game is over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty if it is not their turn)."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None:
        """Apply ``action`` by ``seat`` or raise :class:`IllegalAction` and leave the state unchanged."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def public_view(self) -> View:
        """What every player and spectator may know. Must never hold a hidden card."""

    @abstractmethod
    def view(self, seat: int) -> View:
        """``public_view()`` plus what ``seat`` alone may know (hand, secret role, legal actions)."""

    @abstractmethod
    def settlements(self) -> list[Settlement]:
        """Finished accounting units so far, in order (``index`` 0, 1, ...)."""

    @abstractmethod
    def result(self) -> GameResult | None:
        """The final result once ``is_over``; ``None`` before."""

    @property
    @abstractmethod
    def hand_number(self) -> int:
        """0-based number of the hand/round/deal in progress (or the last one once over)."""

    # -- for computer players ------------------------------------------------------------------------
    @abstractmethod
    def clone(self, for_search: bool = False) -> Self:
        """An independent copy, cheap enough to call thousands of times per decision. ``for_search``: a state
        for simulation only (no display events are logged from then on; clones of it are search states too)."""

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A clone whose hidden cards (from ``seat``'s point of view) are re-dealt at random, consistently
        with everything ``view(seat)`` shows (own hand, cards played, voids revealed, exposed cards)."""

    @property
    def open_ended(self) -> bool:
        """A session with no fixed length (it ends when the players stop it): tables offer a vote to stop."""
        return False

    def sides(self) -> list[int] | None:
        """Each seat's side in the current hand (0 = the declaring side / first partnership), read from the full
        state, or ``None`` when the game has no sides or they are not settled. For searches on sampled states
        (``determinize``): on the real game it may name a hidden partner, so nothing rendered may call it."""
        return None

    def sides_public(self) -> bool:
        """Whether every seat's side in the current hand is public knowledge (a search may then solve exactly)."""
        return False

    # -- the simulation interface (overridden by engines with a faster path) --------------------------------
    def sim_legal(self, seat: int) -> list[Move]:
        """The moves a search considers for ``seat`` (no ``undo``), compact, in ``legal_actions`` order."""
        return [a for a in self.legal_actions(seat) if a.get("type") != "undo"]

    def sim_apply(self, seat: int, move: Move) -> None:
        """Apply a move of ``sim_legal(seat)`` (it may not be re-validated: pass only listed moves)."""
        self.apply(seat, self.sim_action(move))

    def sim_action(self, move: Move) -> Action:
        """The display action of a compact move."""
        return move  # type: ignore[no-any-return]

    def sim_move(self, action: Action) -> Move:
        """The compact move of a display action (of the current position)."""
        return action

    def num_settlements(self) -> int:
        """``len(self.settlements())`` without copying the list (searches test it after every move)."""
        return len(self.settlements())

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat``'s view shows in its hand."""
        return len(self.view(seat)["hand"])

    # -- conveniences -----------------------------------------------------------------------------
    def is_legal(self, seat: int, action: Action) -> bool:
        return action in self.legal_actions(seat)


class CardIdMoves(Game):
    """Compact simulation moves where a card id (a ``str``) means "play that card" and any other move is the
    display action itself. The engine provides ``_play(seat, card)``, the one code path of a card play."""

    @abstractmethod
    def _play(self, seat: int, card: str) -> None: ...

    def sim_apply(self, seat: int, move: Move) -> None:
        if type(move) is str:
            self._play(seat, move)
        else:
            self.apply(seat, move)

    def sim_action(self, move: Move) -> Action:
        return {"type": "play", "card": move} if type(move) is str else move  # type: ignore[no-any-return]

    def sim_move(self, action: Action) -> Move:
        return action["card"] if action.get("type") == "play" else action


def replay(
    cls: type[Game], num_seats: int, options: Mapping[str, Any], seed: int, log: Iterable[tuple[int, Action]]
) -> Game:
    """Rebuild a game from its recipe. Raises if any logged action is illegal (corrupt log)."""
    game = cls(num_seats, options, seed)  # type: ignore[call-arg]
    for seat, action in log:
        game.apply(seat, action)
    return game

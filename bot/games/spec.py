"""What a game is, declared once in its own package: :class:`GameSpec`.

Every game lives in one package ``bot/games/<id>/`` (engine, renderer, computer players, search adapter)
whose ``__init__`` exposes ``SPEC``. Everything outside that package — the table service, tournaments,
ratings, the ledger cog, the slash commands — reads a game's facts from its spec and never compares a game
id. Adding a game means adding a package (see "Adding a game" in docs/development.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.ai.base import Agent, AgentFactory, RandomAgent
from bot.ai.strong import GameSearch
from bot.engine.notation import Notation
from bot.engine.protocol import Action, Game, OptionSpec, Settlement, View
from bot.render.base import Panel
from bot.render.error_texts import ErrorTexts

if TYPE_CHECKING:  # the scenes are plain data; importing them at run time would load Pillow with every game
    from bot.images.scene import HandScene, RevealScene, TableScene


class Renderer(Protocol):
    """Views -> Discord-free panels and texts (a game's ``render`` module satisfies it)."""

    def public_panel(self, view: View, names: list[str]) -> Panel: ...

    def private_panel(self, view: View, names: list[str]) -> Panel: ...

    def settlement_text(self, settlement: Settlement, names: list[str]) -> str: ...

    def rules_text(self) -> str: ...

    def lobby_note(self, seats: int) -> str:
        """A line for the lobby message (e.g. who partners whom), or an empty string."""
        ...

    def card_label(self, card: str) -> str: ...

    def describe(self, action: Action, before: View) -> str | None:
        """What the table learns from a non-play action (replays), ``None``: the action's notation."""
        ...

    def after_action(self, before: View, after: View, names: list[str]) -> list[str]:
        """Public lines once an action is done (e.g. hidden bids revealed, a round's outcome)."""
        ...


class Pictures(Protocol):
    """Views -> the inputs of the card pictures (optional: a renderer without them gets text-only messages).

    Like the panels, a table picture comes from the public view only and a hand picture from that seat's view
    only, so a picture cannot show a card its message could not name.
    """

    def table_picture(self, view: View, names: list[str]) -> TableScene | None: ...

    def hand_picture(self, view: View) -> HandScene | None: ...

    def reveal_picture(self, view: View, names: list[str]) -> RevealScene | None:
        """The end-of-hand reveal (from the public view once a hand is over), or None."""
        ...


def pictures_of(renderer: Renderer) -> Pictures | None:
    """The renderer's pictures, if its game draws any (a game's ``render`` module re-exports its ``pictures``)."""
    if callable(getattr(renderer, "table_picture", None)) and callable(getattr(renderer, "hand_picture", None)):
        return renderer  # type: ignore[return-value]
    return None


#: ``(summary, number of seats) -> (teams as seat lists, their 1-based ranks)`` for the ratings: ``None`` when the
#: game's own sides do not apply to this summary (the generic rule then ranks by ``ranks`` or amounts), and no
#: teams (``([], [])``) when the settlement says nothing about who played better
Outcome = tuple[list[list[int]], list[int]]
RatingSides = Callable[[Mapping[str, Any], int], Outcome | None]


def declaring_side(summary: Mapping[str, Any], side: Sequence[int], seats: int) -> Outcome:
    """For :data:`RatingSides`: the declaring side (ranked first when the summary says it ``made`` its
    contract) against everyone else."""
    everyone = range(seats)
    mine = sorted(set(side) & set(everyone))
    others = [s for s in everyone if s not in mine]
    if not mine or not others:
        return [], []
    return [mine, others], ([1, 2] if bool(summary["made"]) else [2, 1])


@dataclass(frozen=True, slots=True)
class TournamentFormat:
    """How one tournament round maps to a table's options."""

    #: ``hands_per_round`` when the organiser gives none
    default_hands: int
    #: the table option that ``hands_per_round`` sets (``None``: ``table_options`` decides)
    option: str | None = None
    #: the smallest ``hands_per_round`` (a tournament table must end by itself)
    min_hands: int = 0
    #: the only values allowed, if restricted, and the refusal otherwise
    allowed: tuple[int, ...] | None = None
    allowed_text: str = ""
    #: ``(options, hands_per_round, seats) -> options`` when the mapping is more than one option
    table_options: Callable[[dict[str, Any], int, int], dict[str, Any]] | None = None
    #: the game takes ``/tournament create wizard_rounds:`` (an explicit list of round sizes)
    takes_round_list: bool = False

    def check(self, hands: int) -> str | None:
        """A refusal for ``hands_per_round``, or ``None`` when it is fine."""
        if hands < 0 or hands < self.min_hands:
            return "Tables of a tournament must play a fixed number of hands (at least 1)."
        if self.allowed is not None and hands not in self.allowed:
            return self.allowed_text
        return None

    def options_for(self, options: Mapping[str, Any], hands: int, seats: int) -> dict[str, Any]:
        opts = dict(options)
        if self.table_options is not None:
            return self.table_options(opts, hands, seats)
        if self.option is not None:
            opts[self.option] = hands
        return opts


@dataclass(frozen=True, slots=True)
class ProfileFacts:
    """What ``/profile`` reads from a game's settlement summaries."""

    #: JSON paths of (the declaring seat, the contract) in a summary; ``None``: the game has no contracts
    contract_paths: tuple[str, str] | None = None
    #: the word for a declared contract ("bid", "contract")
    contract_word: str = "contract"
    #: summaries carry ``exact_bids`` (per seat) and ``rounds``: a bid accuracy is shown
    bid_accuracy: bool = False


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything Tavolo needs to know about one game. Seat counts and options come from the engine class."""

    id: str
    title: str
    #: the ``/<id>`` command group's description
    description: str
    engine: type[Game]
    renderer: Renderer
    #: the table message's accent colour (0xRRGGBB)
    colour: int
    #: what the game's standings and leaderboards rank by: "stake", "resto" or "point"
    currency: str
    #: the table option a tournament's ``stake`` sets
    stake_option: str
    tournament: TournamentFormat
    #: computer-player levels, the default first
    agents: Mapping[str, AgentFactory]
    #: seats 1+3 and 2+4 play together: lobby seats can be swapped, tournaments rotate partners
    #: the action notation of hand records (``bot/games/<id>/notation.py``)
    notation: Notation | None = None
    #: the card art of the game's deck (a deck id of ``bot.images``: "french", "wizard60", "italian", "minchiate97")
    deck: str | None = None
    #: the strong level's search adapter (budgets, rewards, candidate declarations), if the game has one
    search: GameSearch | None = None
    partnerships: bool = False
    rating_sides: RatingSides | None = None
    profile: ProfileFacts = ProfileFacts()
    #: the texts of the engine's own illegal-action codes (``bot/games/<id>/errors.py``); ``None``: only the
    #: generic codes of ``bot.render.errors`` are worded
    errors: ErrorTexts | None = None

    @property
    def min_seats(self) -> int:
        return self.engine.min_seats

    @property
    def max_seats(self) -> int:
        return self.engine.max_seats

    @property
    def option_specs(self) -> Sequence[OptionSpec]:
        return self.engine.option_specs

    @property
    def levels(self) -> list[str]:
        return list(self.agents)

    def make_agent(self, level: str | None = None) -> Agent:
        """The computer player at ``level`` (default, or an unknown level: the game's first level)."""
        if not self.agents:
            return RandomAgent()
        if level is None or level not in self.agents:
            level = next(iter(self.agents))
        return self.agents[level]()

    def seats_text(self) -> str:
        lo, hi = self.min_seats, self.max_seats
        return f"{lo}" if lo == hi else f"{lo}–{hi}"

"""The words of errors, as data: :class:`ErrorTexts` (codes -> messages) and the codes every engine shares
(:data:`GENERIC`). A game's own texts (``bot/games/<id>/errors.py``) are built from it; :mod:`bot.render.errors`
picks the text of an error. Apart from it so the games' specs can hold their texts without importing the
registry that finds them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import N_, _n, _p

__all__ = ["FALLBACK", "GENERIC", "ErrorTexts", "Message"]

#: a msgid (``N_``-marked, filled with the parameters) or, for plurals, a function of the shown parameters
Message = str | Callable[[Mapping[str, Any]], str]


@dataclass(frozen=True, slots=True)
class ErrorTexts:
    """Codes -> messages, and how a parameter is shown (by its name: ``card``, ``suit``...)."""

    messages: Mapping[str, Message]
    params: Mapping[str, Callable[[Any], str]] = field(default_factory=dict)


FALLBACK = N_("That is not possible now.")


def _join(values: Iterable[Any]) -> str:
    return ", ".join(map(str, values))


GENERIC = ErrorTexts(
    messages={
        # illegal actions, in every game
        "unknown_action": N_("That is not a valid action."),
        "no_such_seat": N_("There is no such seat at this table."),
        "game_over": N_("The game is over."),
        "not_your_turn": N_("It is not your turn."),
        "not_now": FALLBACK,
        "stale": N_("That choice is out of date: use the latest message."),
        "not_in_hand": N_("You do not hold that card."),
        "unknown_card": N_("There is no such card in the pack."),
        "play_a_card": N_("Play a card."),
        "discard_not_in_hand": N_("You can only discard cards from your hand."),
        "bid_not_higher": N_("Your bid must be higher than the current one."),
        # table options (/<game> new, hand records)
        "option_bool": N_("`{option}` must be true or false."),
        "option_choice": N_("`{option}` must be one of: {choices}."),
        "option_int": N_("`{option}` must be a whole number."),
        "option_range": N_("`{option}` must be between {lo} and {hi}."),
        "option_min": N_("`{option}` must be at least {lo}."),
        "option_max": N_("`{option}` must be at most {hi}."),
        "unknown_options": lambda p: _n("Unknown option: {names}.", "Unknown options: {names}.", **p),
        "seats_exact": lambda p: _n("{game} needs exactly {n} player.", "{game} needs exactly {n} players.", **p),
        "seats_range": lambda p: _n(
            "{game} needs {lo} to {hi} player.", "{game} needs {lo} to {hi} players.", p["hi"], **p
        ),
    },
    params={
        "choices": _join,
        "names": _join,
        # engines name their game by its title, as the specs do; the catalogue has it under "game"
        "game": lambda title: _p("game", title),
    },
)

"""How a Wizard tournament round maps to a table's ``rounds`` option."""

from __future__ import annotations

from typing import Any

from .engine import WIZARD_60


def tournament_options(opts: dict[str, Any], hands: int, seats: int) -> dict[str, Any]:
    """The hand sizes 1..``hands`` (0: every round), or the organiser's ``wizard_rounds`` list, within the
    biggest hand the deck allows at ``seats`` seats."""
    biggest = len(WIZARD_60) // seats
    chosen = opts.pop("wizard_rounds", None)
    if chosen:
        sizes = [r for r in chosen if 1 <= r <= biggest]
        opts["rounds"] = sizes or "all"
    else:
        opts["rounds"] = "all" if hands == 0 else list(range(1, min(hands, biggest) + 1))
    return opts

"""What the ratings read from a Mighty settlement: the declarer and friend against the others."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.spec import Outcome, declaring_side


def rating_sides(summary: Mapping[str, Any], seats: int) -> Outcome | None:
    if "made" not in summary:
        return None
    return declaring_side(
        summary, [int(s) for s in (summary.get("declarer"), summary.get("friend")) if s is not None], seats
    )

"""What the ratings read from a Minchiate settlement: the partnerships, ranked by the deal's net resti."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.spec import Outcome


def rating_sides(summary: Mapping[str, Any], seats: int) -> Outcome | None:
    if seats != 4 or "net_A" not in summary:
        return None
    net = int(summary["net_A"])
    return [[0, 2], [1, 3]], ([1, 2] if net > 0 else [2, 1] if net < 0 else [1, 1])

"""Every persistent component answers every click: each ``DynamicItem`` of the cogs has its callback wrapped by
:func:`cogs._clicks.answers_every_click` and is registered through :func:`cogs._clicks.add_dynamic_items` (which
routes the clicks discord.py drops because the component left its message) — except the table components, whose
late clicks :meth:`cogs.tables.cog.TablesCog.on_interaction` routes itself."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parents[2]
#: the table components: their own late route, their own answers (cogs/tables/cog.py)
TABLE_ITEMS = {"TableButton", "TableSelect"}


def _dynamic_items() -> list[type]:
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    found: list[type] = []
    todo = list(discord.ui.DynamicItem.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__.startswith("cogs."):
            found.append(cls)
    return found


def test_every_persistent_item_answers_every_click() -> None:
    items = _dynamic_items()
    assert {c.__name__ for c in items} >= {"PaymentButton", "SeasonCloseButton", "TournamentButton", "ReplayButton"}
    for cls in items:
        if cls.__name__ in TABLE_ITEMS:
            continue
        assert hasattr(cls.callback, "__wrapped__"), f"{cls.__name__}.callback is not @answers_every_click"


def test_items_are_registered_with_the_late_route() -> None:
    for path in sorted((ROOT / "cogs").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        direct = re.findall(r"\bbot\.add_dynamic_items\((.*)\)", text)
        where = path.relative_to(ROOT).as_posix()
        if where in ("cogs/_clicks.py", "cogs/tables/cog.py"):
            continue
        assert not direct, f"{where} registers {direct} without the late route (use _clicks.add_dynamic_items)"

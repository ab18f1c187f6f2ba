"""A table's hands as hand records (``bot.records``): a table is ``options + seed + action log``, and so is a
record. Replay and export read a table's saved log only; a hand in progress is never touched."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.records.model import HINTS_TAG, Record
from bot.records.pages import ReplayPage, finished_hands, replay_pages
from bot.records.replay import record_from_log, replay

from .model import Table


def record_of(t: Table, hand: int | None = None) -> Record:
    """The record of the whole table, or cut at ``hand`` (0-based)."""
    date = datetime.now(UTC).date().isoformat()
    rec = record_from_log(t.game_id, t.names, t.options, t.seed, t.log, hand=hand, date=date, tags={"Table": str(t.id)})
    # hints asked before an action of this record: "seat@action", both 1-based (docs/hand-records.md)
    asked = [f"{s + 1}@{v + 1}" for v, s in t.hints_asked if v < len(rec.actions)]
    if asked:
        rec.tags[HINTS_TAG] = " ".join(asked)
    return rec


def hands_over(t: Table) -> list[int]:
    """The 0-based hands of the table that are finished (replayable)."""
    if not t.log:
        return []
    return finished_hands(replay(record_of(t), check=False, states="none"))


def pages_of(t: Table, hand: int, viewer: int | None) -> list[ReplayPage]:
    """The replay pages of a finished hand for ``viewer`` (a seat, or None for a spectator)."""
    return replay_pages(record_of(t, hand), hand, viewer=viewer, open_records=t.open_records)


__all__ = ["hands_over", "pages_of", "record_of"]

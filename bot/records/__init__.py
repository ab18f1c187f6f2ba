"""Hand records: one text format for a game's recipe (options + seed + action log) and its outcome.

``record_from_log`` builds a record from a table's log, ``format_record`` / ``parse_record`` write and read
the text (``docs/hand-records.md``), ``replay`` validates it through the engine and keeps every state, and
``cut`` keeps one hand of a whole table's record. Nothing here imports discord.
"""

from __future__ import annotations

from .format import format_record
from .model import FORMAT_VERSION, Booked, Record, RecordError
from .notation import NotationError, format_action, parse_action
from .parse import load_record, parse_record
from .replay import Replayed, Step, cut, record_from_log, replay

__all__ = [
    "FORMAT_VERSION",
    "Booked",
    "NotationError",
    "Record",
    "RecordError",
    "Replayed",
    "Step",
    "cut",
    "format_action",
    "format_record",
    "load_record",
    "parse_action",
    "parse_record",
    "record_from_log",
    "replay",
]

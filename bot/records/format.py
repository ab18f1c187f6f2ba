"""Writing a :class:`~bot.records.model.Record` as text (the format of ``docs/hand-records.md``).

The text is the canonical form: ``parse_record(format_record(r)) == r`` for every record built by
``record_from_log`` (players' names are the one exception: a ``;`` or a control character in a name is
replaced, since names are labels and not part of the game).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .model import FORMAT_VERSION, HEADER_TAGS, RESULT_TAGS, TAG_NAME, Booked, Record
from .notation import format_action

OPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def escape(value: str) -> str:
    """A tag value between double quotes: ``\\`` and ``"`` are escaped; control characters become spaces."""
    return _CONTROL.sub(" ", value).replace("\\", "\\\\").replace('"', '\\"')


def tag(name: str, value: str) -> str:
    return f'[{name} "{escape(value)}"]'


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def encode_option(value: Any) -> str:
    """An option value: JSON, except that a plain word that is not JSON is written bare (``rounds=1-5``)."""
    if (
        isinstance(value, str)
        and value
        and value == value.strip()
        and not _CONTROL.search(value)
        and '"' not in value
        and "\\" not in value
        and not _is_json(value)
    ):
        return value
    return json.dumps(value, ensure_ascii=False)


def clean_name(name: str, seat: int) -> str:
    """A player's name as the ``Players`` tag can hold it (``;`` separates names)."""
    out = _CONTROL.sub(" ", str(name)).replace(";", ",").strip()
    return out or f"Seat {seat + 1}"


def signed(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(f"{v:+d}" if v else "0" for v in values)


def amounts_text(amounts: Mapping[str, tuple[int, ...]]) -> str:
    return "; ".join(f"{cur} {signed(vals)}" for cur, vals in amounts.items())


def booked_text(b: Booked) -> str:
    return f"{b.index + 1}: {amounts_text(b.amounts)}"


def result_text(result: tuple[str, tuple[int, ...]] | None) -> str:
    return "*" if result is None else f"{result[0]} {signed(result[1])}"


def hand_mark(hand: int) -> str:
    return f"== hand {hand + 1} =="


def format_record(record: Record) -> str:
    """The record as text, ending with a newline."""
    out = [tag("Game", record.game), tag("Version", FORMAT_VERSION)]
    if record.date is not None:
        out.append(tag("Date", record.date))
    out.append(tag("Players", "; ".join(clean_name(n, i) for i, n in enumerate(record.players))))
    out.append(tag("Seed", str(record.seed)))
    for name, value in record.options.items():
        if not OPTION_NAME.fullmatch(name):
            raise ValueError(f"option name {name!r} cannot be written")
        out.append(tag("Option", f"{name}={encode_option(value)}"))
    if record.hand is not None:
        out.append(tag("Hand", str(record.hand + 1)))
    for name, value in record.tags.items():
        if not TAG_NAME.fullmatch(name) or name in HEADER_TAGS or name in RESULT_TAGS:
            raise ValueError(f"{name!r} cannot be an extra tag")
        out.append(tag(name, value))
    out.append("")
    for i, (seat, action) in enumerate(record.actions):
        if i in record.hand_starts:
            out.append(hand_mark(record.hand_starts[i]))
        out.append(f"{seat + 1}: {format_action(record.game, action)}")
    if record.actions:
        out.append("")
    out.extend(tag("Settlement", booked_text(b)) for b in record.settlements)
    out.append(tag("Result", result_text(record.result)))
    return "\n".join(out) + "\n"

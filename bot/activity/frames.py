"""The client's frames, checked against a schema before anything reads them (docs/activity-protocol.md).

A frame is at most :data:`MAX_FRAME` bytes of JSON text, an object whose ``t`` names one of the shapes below; every
key is checked (type, range, length) and unknown keys are refused, so nothing unexpected reaches the table service.
An action is a small JSON object of scalars and short lists (what a game's ``legal_actions`` hold): its content is
for the engine to judge, its shape is checked here.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["LOBBY_OPS", "MAX_FRAME", "FrameError", "parse"]

#: the largest client frame (bytes of UTF-8)
MAX_FRAME = 4096
LOBBY_OPS = ("join", "leave", "bot", "unbot", "start", "back", "hint", "cancel", "end", "vote", "again")
_MAX_ID = 2**63 - 1
_LEVEL_MAX = 16
_KEY_MAX = 32
_TEXT_MAX = 64
_LIST_MAX = 20
_ACTION_KEYS = 12


class FrameError(Exception):
    """A frame refused before it is read: ``code`` is ``too_large`` or ``bad_frame``; ``req`` when it had one."""

    def __init__(self, code: str, detail: str, req: int | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.req = req


def _int(v: Any, lo: int = 0, hi: int = _MAX_ID) -> bool:
    return type(v) is int and lo <= v <= hi


def _id(v: Any) -> bool:
    """A table id: a number or its decimal text (JavaScript loses precision past 2**53)."""
    return _int(v, 1) or (isinstance(v, str) and v.isdecimal() and 0 < len(v) <= 19 and int(v) <= _MAX_ID)


def _scalar(v: Any) -> bool:
    if isinstance(v, str):
        return len(v) <= _TEXT_MAX
    return v is None or (type(v) in (int, bool) and (type(v) is bool or abs(v) <= _MAX_ID))


def _action(v: Any) -> bool:
    if not isinstance(v, dict) or not 0 < len(v) <= _ACTION_KEYS:
        return False
    for key, value in v.items():
        if not isinstance(key, str) or not 0 < len(key) <= _KEY_MAX:
            return False
        if isinstance(value, list):
            if len(value) > _LIST_MAX or not all(_scalar(x) for x in value):
                return False
        elif not _scalar(value):
            return False
    return isinstance(v.get("type"), str)


#: each frame's keys: name -> (required, check)
_SCHEMAS: dict[str, dict[str, tuple[bool, Any]]] = {
    "hello": {
        "session": (True, lambda v: isinstance(v, str) and 0 < len(v) <= 2048),
        "known": (
            False,
            lambda v: isinstance(v, dict) and len(v) <= 16 and all(_id(k) and _int(x) for k, x in v.items()),
        ),
    },
    "act": {
        "req": (True, lambda v: _int(v, 0, 2**31)),
        "table": (True, _id),
        "version": (True, lambda v: _int(v, 0, 10**6)),
        "action": (True, _action),
    },
    "lobby": {
        "req": (True, lambda v: _int(v, 0, 2**31)),
        "table": (True, _id),
        "op": (True, lambda v: v in LOBBY_OPS),
        "level": (False, lambda v: v is None or (isinstance(v, str) and 0 < len(v) <= _LEVEL_MAX)),
    },
    "ping": {},
}


def parse(raw: str | bytes) -> dict[str, Any]:
    """The frame as a dict with ``table`` as an int, or :class:`FrameError`."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_FRAME:
        raise FrameError("too_large", f"frame of {size} bytes (at most {MAX_FRAME})")
    try:
        frame = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise FrameError("bad_frame", "not JSON") from None
    if not isinstance(frame, dict):
        raise FrameError("bad_frame", "not a JSON object")
    req = frame.get("req") if _int(frame.get("req"), 0, 2**31) else None
    kind = frame.get("t")
    schema = _SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise FrameError("bad_frame", "unknown frame type", req)
    for key in frame:
        if key != "t" and key not in schema:
            raise FrameError("bad_frame", f"unexpected key {key[:32]!r}", req)
    for key, (required, check) in schema.items():
        if key not in frame:
            if required:
                raise FrameError("bad_frame", f"missing {key!r}", req)
        elif not check(frame[key]):
            raise FrameError("bad_frame", f"bad {key!r}", req)
    if "table" in frame:
        frame["table"] = int(frame["table"])
    return frame

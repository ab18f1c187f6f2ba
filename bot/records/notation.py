"""Each game's short action notation: ``bid 14 S``, ``play QS``, ``discard 4S 7H 9C``, ``declare 0 2``.

``format_action(game_id, action)`` writes the notation; ``parse_action(game_id, text)`` reads it back and
raises :class:`NotationError` with a message for the player. Card ids are the engines' own (``QS``, ``TD``,
``JK``, ``WIZ3``, ``3D``, ``CuK``, ``T17``, ``MATTO``): exact, ASCII and case-sensitive, so a record never
depends on how a card happens to be displayed.

Round trip is guaranteed for every action dict: ``format_action`` only writes the notation when reading it
back gives the very same dict, and otherwise writes the action as a JSON object (a shape no current engine
offers as a choice, e.g. a Mighty discard of a single card id). The grammar is in
``docs/hand-records.md``.
"""

from __future__ import annotations

import json
from typing import Any

from bot.engine.notation import NotationError, Term
from bot.engine.protocol import Action
from bot.i18n import N_, _, _p, tr

from . import _games

__all__ = ["NotationError", "format_action", "notation_text", "parse_action", "same"]


def notation_text(err: NotationError) -> str:
    """A notation error in the current locale: its msgid and :class:`Term` parameters worded by the catalogue,
    the rest (the record's tokens) as written."""
    params = {
        k: (_p(v.context, v.msgid) if v.context else _(v.msgid)) if isinstance(v, Term) else v
        for k, v in err.params.items()
    }
    return tr(err.msgid, **params)


def _json_default(o: Any) -> Any:
    raise ValueError(f"an action must be JSON-serialisable, not {o!r}")


def same(a: Any, b: Any) -> bool:
    """Equal *and* of the same JSON types (``==`` alone says ``True == 1`` and ``1 == 1.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _parse_json(text: str) -> Action:
    def no_constants(name: str) -> Any:
        raise NotationError(N_("{name} is not allowed in an action"), name=name)

    try:
        value = json.loads(text, parse_constant=no_constants)
    except NotationError:
        raise
    except (ValueError, RecursionError) as e:
        raise NotationError(N_("invalid JSON action: {detail}"), detail=str(e)) from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise NotationError(N_('a JSON action must be an object with a "type" string'))
    return value


def parse_action(game_id: str, text: str) -> Action:
    """Read one action in ``game_id``'s notation (or a JSON object). Raises :class:`NotationError`."""
    text = text.strip()
    if text.startswith("{"):
        return _parse_json(text)
    parts = text.split()
    if not parts:
        raise NotationError(N_("missing action"))
    notation = _games.notation(game_id)
    if notation is None:
        raise NotationError(N_("unknown game {game}"), game=repr(game_id))
    return notation.parse(parts[0], parts[1:])


def format_action(game_id: str, action: Action) -> str:
    """``action`` in ``game_id``'s notation; JSON when the notation cannot express it exactly."""
    notation = _games.notation(game_id)
    text = notation.format_action(action) if notation is not None else None
    if text is not None and "\n" not in text and "\r" not in text:
        try:
            if same(parse_action(game_id, text), action):
                return text
        except NotationError:
            pass
    # Compact, key order kept: json.loads gives back an equal dict.
    return json.dumps(action, ensure_ascii=False, separators=(", ", ": "), default=_json_default)

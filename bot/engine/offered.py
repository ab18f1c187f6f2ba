"""What a seat is offered, and the one canonical form of an action it sends.

Engines validate an action by the fields they read and may tolerate the rest (an extra key, a ``true`` where a
number is meant, another copy of an identical card). Whatever a front-end sends — a Discord button's payload, an
Activity frame, a line typed at the terminal — is therefore never applied or stored as it came: :func:`offered`
matches it against what the seat is offered **now** and returns the engine's own object for it, or ``None``.

A seat is offered

* each action of ``legal_actions(seat)``: the canonical form is that entry (a copy);
* when its view's prompt is a combination (``{"kind": "combo", "type", "fields", "fixed"}``, e.g. the cards to
  discard), every action that is the prompt's type and fixed part plus, per field, exactly ``count`` distinct ids
  of the field's ``from`` list, and that the engine finds legal: the canonical form has exactly those keys, a
  single id as a plain string (``count`` 1), several as a list in the order of ``from``.

Nothing else is offered: an unknown key, a value of another JSON type, a card not in hand, a seat that is not to
move all give ``None``. :func:`why_not` names the reason in the engine's own words for the refusal.
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import EngineError, IllegalAction
from .protocol import Action, Game

__all__ = ["offered", "why_not"]


def offered(game: Game, seat: int, action: object) -> Action | None:
    """The canonical form of ``action`` among what ``seat`` is offered now, or ``None`` (see the module)."""
    if not isinstance(action, dict):
        return None
    prompt = game.view(seat).get("prompt")
    if isinstance(prompt, dict) and prompt.get("kind") == "combo":
        # (tried first: a combination's legal list can hold thousands of entries, in one order of the picks)
        combo = _combo(game, seat, prompt, action)
        if combo is not None:
            return combo
    for entry in game.legal_actions(seat):
        # (``==`` first, in C: most entries differ at once; the strict comparison only for a match)
        if entry == action and _same(entry, action):
            return copy.deepcopy(entry)
    return None


def why_not(game: Game, seat: int, action: object) -> EngineError:
    """Why ``action`` is not offered to ``seat``: the engine's own refusal when it has one (tried on a copy),
    else ``unknown_action`` (an action the engine would have tolerated, such as one with a key of its own)."""
    if isinstance(action, dict):
        try:
            game.clone().apply(seat, action)
        except EngineError as e:
            return e
    return IllegalAction("unknown_action")


def _combo(game: Game, seat: int, prompt: dict[str, Any], action: dict[str, Any]) -> Action | None:
    fixed = {k: v for k, v in (prompt.get("fixed") or {}).items() if v is not None}
    fields = list(prompt.get("fields") or [])
    kind = prompt.get("type")
    keys = {"type", *fixed, *(f["key"] for f in fields)}
    if set(action) != keys or not _same(action.get("type"), kind):
        return None
    if any(not _same(action[k], v) for k, v in fixed.items()):
        return None
    out: Action = {"type": kind, **copy.deepcopy(fixed)}
    for f in fields:
        order = list(f.get("from") or [])
        picked = action[f["key"]]
        count = f["count"]
        if count == 1 and type(picked) is str:
            picked = [picked]
        if type(picked) is not list or len(picked) != count or not all(type(p) is str for p in picked):
            return None
        if len(set(picked)) != count or not set(picked) <= set(order):
            return None
        chosen = set(picked)
        ordered = [c for c in order if c in chosen]
        out[f["key"]] = ordered[0] if count == 1 else ordered
    return out if game.is_legal(seat, out) else None


def _same(a: object, b: object) -> bool:
    """Equal as JSON values of the same types (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    if type(a) is not type(b):
        return isinstance(a, list | tuple) and isinstance(b, list | tuple) and _same(list(a), list(b))
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        assert isinstance(b, list | tuple)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b

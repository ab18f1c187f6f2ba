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
import re
from collections.abc import Callable
from typing import Any

from bot.engine.protocol import Action

from . import _games


class NotationError(ValueError):
    """An action text that is not valid notation for the game."""


_INT = re.compile(r"[0-9]{1,9}")

WIZARD_SUITS = ("S", "H", "D", "C")
MIGHTY_TRUMPS = ("S", "D", "H", "C", "NT")
MIGHTY_SUITS = ("S", "D", "H", "C")
MEDIATORE_CONTRACTS = ("chiamo", "mediatore", "solo", "solissimo", "arcisolissimo")
MEDIATORE_SIGNALS = ("knock", "fly", "stroke")


def _int(tok: str, what: str) -> int:
    # ASCII digits only: str.isdigit() and int() also accept other scripts' digits, which a record must not.
    if not _INT.fullmatch(tok):
        raise NotationError(f"{what} must be a whole number, not {tok!r}")
    return int(tok)


def _one_of(tok: str, allowed: tuple[str, ...], what: str) -> str:
    if tok not in allowed:
        raise NotationError(f"{what} must be one of {', '.join(allowed)}, not {tok!r}")
    return tok


def _card(game_id: str, tok: str) -> str:
    if tok not in _deck_set(game_id):
        raise NotationError(f"unknown card {tok!r} (cards are written as ids such as {_examples(game_id)})")
    return tok


_DECK_SETS: dict[str, frozenset[str]] = {}


def _deck_set(game_id: str) -> frozenset[str]:
    if game_id not in _DECK_SETS:
        _DECK_SETS[game_id] = frozenset(_games.deck(game_id))
    return _DECK_SETS[game_id]


_EXAMPLES = {
    "wizard": "QS, 10H, WIZ1, JES2",
    "mighty": "QS, TD, 3C, JK",
    "mediatore": "AD, 3C, NS, KB",
    "minchiate": "CuK, Sw10, Ba1, T17, MATTO",
}


def _examples(game_id: str) -> str:
    return _EXAMPLES.get(game_id, "QS")


def _cards(game_id: str, args: list[str], usage: str) -> str | list[str]:
    """A card field: one card alone is a single id; several cards, or cards in brackets, are a list.

    (Discord's one-card menus send a plain id where the engines' own choices hold a one-card list; the
    engines accept both, and a record keeps exactly what was sent.)
    """
    joined = " ".join(args)
    if joined.startswith("[") and joined.endswith("]"):
        inner = joined[1:-1].split()
        if not inner:
            raise NotationError(f"expected `{usage}`: the brackets are empty")
        return [_card(game_id, c) for c in inner]
    if not args:
        raise NotationError(f"expected `{usage}`")
    if len(args) == 1:
        return _card(game_id, args[0])
    return [_card(game_id, c) for c in args]


def _cards_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return " ".join(value) if len(value) > 1 else f"[{' '.join(value)}]"
    return None


def _arity(args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        raise NotationError(f"expected `{usage}`")


# -- Wizard -------------------------------------------------------------------------------------------------
def _wizard_parse(verb: str, args: list[str]) -> Action:
    if verb == "bid":
        _arity(args, 1, "bid N")
        return {"type": "bid", "n": _int(args[0], "a bid")}
    if verb == "play":
        _arity(args, 1, "play CARD")
        return {"type": "play", "card": _card("wizard", args[0])}
    if verb == "trump":
        _arity(args, 1, "trump SUIT")
        return {"type": "trump", "suit": _one_of(args[0], WIZARD_SUITS, "the trump suit")}
    if verb == "undo":
        _arity(args, 0, "undo")
        return {"type": "undo"}
    raise NotationError(f"unknown Wizard action {verb!r} (bid, play, trump, undo)")


def _wizard_format(a: Action) -> str | None:
    t = a.get("type")
    if t == "bid":
        return f"bid {a.get('n')}"
    if t == "play":
        return f"play {a.get('card')}"
    if t == "trump":
        return f"trump {a.get('suit')}"
    if t == "undo":
        return "undo"
    return None


# -- Mighty -------------------------------------------------------------------------------------------------
def _mighty_parse(verb: str, args: list[str]) -> Action:
    if verb == "bid" or verb == "contract":
        _arity(args, 2, f"{verb} N TRUMP")
        return {"type": verb, "n": _int(args[0], "the number"), "trump": _one_of(args[1], MIGHTY_TRUMPS, "the trump")}
    if verb in ("pass", "misdeal"):
        _arity(args, 0, verb)
        return {"type": verb}
    if verb == "discard":
        return {"type": "discard", "cards": _cards("mighty", args, "discard CARD CARD CARD")}
    if verb == "call":
        _arity(args, 1, "call CARD | call first-trick | call none")
        if args[0] == "first-trick":
            return {"type": "call", "kind": "first_trick"}
        if args[0] == "none":
            return {"type": "call", "kind": "none"}
        return {"type": "call", "kind": "card", "card": _card("mighty", args[0])}
    if verb == "play":
        if not 1 <= len(args) <= 2:
            raise NotationError("expected `play CARD`, `play JK SUIT` or `play CARD call`")
        out: Action = {"type": "play", "card": _card("mighty", args[0])}
        if len(args) == 2:
            if args[1] == "call":
                out["joker_call"] = True
            else:
                out["suit"] = _one_of(args[1], MIGHTY_SUITS, "the suit the Joker calls")
        return out
    raise NotationError(f"unknown Mighty action {verb!r} (bid, pass, misdeal, discard, contract, call, play)")


def _mighty_format(a: Action) -> str | None:
    t = a.get("type")
    if t in ("bid", "contract"):
        return f"{t} {a.get('n')} {a.get('trump')}"
    if t in ("pass", "misdeal"):
        return str(t)
    if t == "discard":
        cards = _cards_text(a.get("cards"))
        return None if cards is None else f"discard {cards}"
    if t == "call":
        kind = a.get("kind")
        if kind == "first_trick":
            return "call first-trick"
        if kind == "none":
            return "call none"
        return f"call {a.get('card')}"
    if t == "play":
        text = f"play {a.get('card')}"
        if "suit" in a:
            text += f" {a['suit']}"
        if "joker_call" in a:
            text += " call"
        return text
    return None


# -- Mediatore ----------------------------------------------------------------------------------------------
def _mediatore_parse(verb: str, args: list[str]) -> Action:
    if verb == "pass":
        _arity(args, 0, "pass")
        return {"type": "pass"}
    if verb == "bid":
        _arity(args, 1, "bid CONTRACT")
        return {"type": "bid", "contract": _one_of(args[0], MEDIATORE_CONTRACTS, "the contract")}
    if verb == "call":
        _arity(args, 1, "call CARD")
        return {"type": "call", "card": _card("mediatore", args[0])}
    if verb == "discard":
        usage = "discard CARD CARD CARD CARD [give CARD]"
        cards, give = args, None
        if "give" in args:
            i = args.index("give")
            cards, give = args[:i], args[i + 1 :]
        out: Action = {"type": "discard", "discard": _cards("mediatore", cards, usage)}
        if give is not None:
            out["give"] = _cards("mediatore", give, usage)
        return out
    if verb == "play":
        if not 1 <= len(args) <= 2:
            raise NotationError("expected `play CARD` or `play CARD SIGNAL`")
        out = {"type": "play", "card": _card("mediatore", args[0])}
        if len(args) == 2:
            out["signal"] = _one_of(args[1], MEDIATORE_SIGNALS, "the signal")
        return out
    raise NotationError(f"unknown Mediatore action {verb!r} (pass, bid, call, discard, play)")


def _mediatore_format(a: Action) -> str | None:
    t = a.get("type")
    if t == "pass":
        return "pass"
    if t in ("bid",):
        return f"bid {a.get('contract')}"
    if t == "call":
        return f"call {a.get('card')}"
    if t == "discard":
        cards = _cards_text(a.get("discard"))
        if cards is None:
            return None
        text = f"discard {cards}"
        if "give" in a:
            give = _cards_text(a["give"])
            if give is None:
                return None
            text += f" give {give}"
        return text
    if t == "play":
        text = f"play {a.get('card')}"
        if "signal" in a:
            text += f" {a['signal']}"
        return text
    return None


# -- Minchiate ----------------------------------------------------------------------------------------------
def _minchiate_parse(verb: str, args: list[str]) -> Action:
    if verb == "play":
        _arity(args, 1, "play CARD")
        return {"type": "play", "card": _card("minchiate", args[0])}
    if verb == "discard":
        return {"type": "discard", "cards": _cards("minchiate", args, "discard CARD [CARD ...]")}
    if verb == "declare":
        if args == ["none"]:
            return {"type": "declare", "combos": []}
        if args == ["all"]:
            return {"type": "declare", "combos": "all"}
        if not args:
            raise NotationError("expected `declare none`, `declare all` or `declare N [N ...]`")
        return {"type": "declare", "combos": [_int(x, "a combination number") for x in args]}
    if verb == "cut":
        _arity(args, 1, "cut N")
        return {"type": "cut", "k": _int(args[0], "the cut")}
    raise NotationError(f"unknown Minchiate action {verb!r} (play, discard, declare, cut)")


def _minchiate_format(a: Action) -> str | None:
    t = a.get("type")
    if t == "play":
        return f"play {a.get('card')}"
    if t == "discard":
        cards = _cards_text(a.get("cards"))
        return None if cards is None else f"discard {cards}"
    if t == "declare":
        c = a.get("combos")
        if c == "all":
            return "declare all"
        if isinstance(c, list):
            return "declare " + (" ".join(map(str, c)) if c else "none")
    if t == "cut":
        return f"cut {a.get('k')}"
    return None


_PARSERS: dict[str, Callable[[str, list[str]], Action]] = {
    "wizard": _wizard_parse,
    "mighty": _mighty_parse,
    "mediatore": _mediatore_parse,
    "minchiate": _minchiate_parse,
}
_FORMATTERS: dict[str, Callable[[Action], str | None]] = {
    "wizard": _wizard_format,
    "mighty": _mighty_format,
    "mediatore": _mediatore_format,
    "minchiate": _minchiate_format,
}


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
        raise NotationError(f"{name} is not allowed in an action")

    try:
        value = json.loads(text, parse_constant=no_constants)
    except NotationError:
        raise
    except (ValueError, RecursionError) as e:
        raise NotationError(f"invalid JSON action: {e}") from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise NotationError('a JSON action must be an object with a "type" string')
    return value


def parse_action(game_id: str, text: str) -> Action:
    """Read one action in ``game_id``'s notation (or a JSON object). Raises :class:`NotationError`."""
    text = text.strip()
    if text.startswith("{"):
        return _parse_json(text)
    parts = text.split()
    if not parts:
        raise NotationError("missing action")
    parser = _PARSERS.get(game_id)
    if parser is None:
        raise NotationError(f"unknown game {game_id!r}")
    return parser(parts[0], parts[1:])


def format_action(game_id: str, action: Action) -> str:
    """``action`` in ``game_id``'s notation; JSON when the notation cannot express it exactly."""
    text = _FORMATTERS[game_id](action)
    if text is not None and "\n" not in text and "\r" not in text:
        try:
            if same(parse_action(game_id, text), action):
                return text
        except NotationError:
            pass
    # Compact, key order kept: json.loads gives back an equal dict.
    return json.dumps(action, ensure_ascii=False, separators=(", ", ": "), default=_json_default)

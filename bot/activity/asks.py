"""A seat's choices as data with a shape, for the Activity's pickers (docs/activity-protocol.md, ``asks``).

The seat's Discord controls carry every choice it may make now, each with its label in the reader's language and
its action; Discord splits long lists into selects of 25, which means nothing to a web page. Here the choices are
put back together and sorted by what varies between them:

* ``hand``: one card of the seat's hand per action (a play, a one-card discard): the hand itself is the control;
* ``number``: one whole number (Wizard's bid), optionally with one of a few symbols (Mighty's points and trump);
* ``symbols``: one of a few short values (a trump suit);
* ``cards``: one card of a set that is not the hand (a friend or partner call): a card picker;
* ``buttons``: anything else (pass, misdeal, take back a bid, …);
* ``combo``: several cards picked together (a discard), with the fields of the seat's prompt.

Pure: the labels come from the controls, the card names from the game's renderer; nothing reads hidden state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.engine.protocol import Action
from bot.render.base import Control
from bot.render.cards import FRENCH_SUIT, french_suit_name

__all__ = ["asks_of"]

#: at most this many symbols make a row of buttons (more become a number, cards or plain buttons)
_SYMBOLS_MAX = 6
_SYMBOL_TEXT_MAX = 16


def _varying(actions: Sequence[Action]) -> list[str]:
    keys = sorted({k for a in actions for k in a})
    return [k for k in keys if len({repr(a.get(k)) for a in actions}) > 1]


def _card_of(value: Any) -> str | None:
    """The card a value names: a card id, or a list holding one."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str):
        return value[0]
    return None


def _option(choice: Any) -> dict[str, Any]:
    return {"label": choice.label, "style": choice.style, "action": choice.action}


def _symbol_label(value: str, fallback: str) -> tuple[str, str]:
    """(short text, spoken name) of a symbol: a French suit by its sign, anything else by the choice's label."""
    if value in FRENCH_SUIT:
        return FRENCH_SUIT[value], french_suit_name(value)
    return fallback, fallback


def _without_number(label: str, n: int) -> str:
    """A compound choice's words for its symbol: "Bid 14 No trump" -> "No trump" (the part after the number)."""
    before, _sep, after = label.partition(str(n))
    return (after or before).strip() or label


def asks_of(
    controls: Iterable[Control],
    hand: Sequence[str],
    card_name: Callable[[str], str],
    deck: str | None,
    combo_fields: list[dict[str, Any]] | None,
) -> list[dict[str, Any]]:
    """The seat's choices (its panel's ``controls``, split as Discord needs) as asks for the page."""
    choices = []
    combos: list[dict[str, Any]] = []
    title_of: dict[str, str] = {}
    for c in controls:
        if c.kind == "combo":
            base = dict(c.base_action or {})
            fields = []
            spec = {f["key"]: f for f in combo_fields or []}
            for f in c.fields:
                # the prompt's whole list, not the clipped menu (a select holds 25 options, a page holds a deck)
                values = list(spec[f.key]["from"]) if f.key in spec else [v for _, v in f.options]
                fields.append(
                    {
                        "key": f.key,
                        "prompt": f.placeholder,
                        "count": f.count,
                        "options": [[card_name(v), v] for v in values],
                    }
                )
            combos.append({"kind": "combo", "prompt": c.placeholder, "base": base, "fields": fields})
            continue
        for ch in c.choices:
            choices.append(ch)
            title_of.setdefault(repr(sorted(ch.action.items())), c.title or c.placeholder)
    held = set(hand)
    groups: dict[str, list[Any]] = {}
    for ch in choices:
        groups.setdefault(str(ch.action.get("type")), []).append(ch)
    out: list[dict[str, Any]] = []
    for kind, group in groups.items():
        prompt = title_of[repr(sorted(group[0].action.items()))]
        acts = [ch.action for ch in group]
        varying = _varying(acts)
        card_key = next((k for k in ("card", "cards") if k in varying), None)
        if kind == "play" or (card_key and all(_card_of(a.get(card_key)) in held for a in acts)):
            key = card_key or "card"
            if all(_card_of(a.get(key)) in held for a in acts):
                # one action per card, or several (Mighty's Joker led naming a suit, Mediatore's signals): the
                # page asks which when a card has more than one
                by_card: dict[str, list[dict[str, Any]]] = {}
                for ch in group:
                    by_card.setdefault(str(_card_of(ch.action[key])), []).append(_option(ch))
                out.append({"kind": "hand", "prompt": prompt, "cards": by_card})
                continue
        with_card = [ch for ch in group if isinstance(ch.action.get("card"), str)]
        if len(with_card) > _SYMBOLS_MAX and deck is not None:
            # one card of a set (a friend call): a card picker; the group's other actions (no card) stay buttons
            # the menus' placeholders name a suit each (Discord's 25 again): the picker's prompt is the choices'
            # own words with the card left out ("Call …", "Friend: …")
            first = with_card[0]
            named = first.label.replace(card_name(first.action["card"]), "…")
            out.append(
                {
                    "kind": "cards",
                    "prompt": named if named != first.label else prompt,
                    "deck": deck,
                    "options": [{**_option(ch), "card": ch.action["card"]} for ch in with_card],
                }
            )
            rest = [ch for ch in group if ch not in with_card]
            if rest:
                out.append({"kind": "buttons", "prompt": prompt, "options": [_option(ch) for ch in rest]})
            continue
        numbers = [k for k in varying if all(type(a.get(k)) is int for a in acts)]
        if len(varying) == 1 and numbers:
            key = numbers[0]
            out.append(
                {
                    "kind": "number",
                    "prompt": prompt,
                    "key": key,
                    "options": [{**_option(ch), "value": ch.action[key]} for ch in group],
                }
            )
            continue
        if len(varying) == 2 and len(numbers) == 1:
            num, sym = numbers[0], next(k for k in varying if k != numbers[0])
            symbols = []
            for ch in group:
                v = ch.action.get(sym)
                if isinstance(v, str) and v not in [s["value"] for s in symbols]:
                    text, name = _symbol_label(v, _without_number(ch.label, ch.action[num]))
                    symbols.append({"value": v, "text": text, "name": name})
            if len(symbols) <= _SYMBOLS_MAX:
                out.append(
                    {
                        "kind": "number",
                        "prompt": prompt,
                        "key": num,
                        "symbol_key": sym,
                        "symbols": symbols,
                        "options": [{**_option(ch), "value": ch.action[num], "symbol": ch.action[sym]} for ch in group],
                    }
                )
                continue
        if (
            len(varying) == 1
            and len(group) <= _SYMBOLS_MAX
            and all(isinstance(a.get(varying[0]), str) for a in acts)
            and all(len(ch.label) <= _SYMBOL_TEXT_MAX for ch in group)
        ):
            opts = []
            for ch in group:
                text, name = _symbol_label(ch.action[varying[0]], ch.label)
                opts.append({**_option(ch), "text": text, "name": name})
            out.append({"kind": "symbols", "prompt": prompt, "options": opts})
            continue
        out.append({"kind": "buttons", "prompt": prompt, "options": [_option(ch) for ch in group]})
    # the plain buttons of the same prompt (pass, misdeal) sit together in one row, after the pickers
    merged: list[dict[str, Any]] = []
    for ask in out:
        prev = next((m for m in merged if m["kind"] == "buttons" and m["prompt"] == ask["prompt"]), None)
        if ask["kind"] == "buttons" and prev is not None:
            prev["options"] += ask["options"]
        else:
            merged.append(ask)
    merged.sort(key=lambda a: a["kind"] == "buttons")
    return merged + combos

"""Minchiate's action notation for hand records (``docs/hand-records.md``): parse and format one action."""

from __future__ import annotations

from bot.engine.cards import MINCHIATE_97
from bot.engine.notation import N_, CardSyntax, NotationError, arity, cards_text, int_arg, unknown_verb
from bot.engine.protocol import Action

CARDS = CardSyntax(MINCHIATE_97, "CuK, Sw10, Ba1, T17, MATTO")


def parse(verb: str, args: list[str]) -> Action:
    if verb == "play":
        arity(args, 1, "play CARD")
        return {"type": "play", "card": CARDS.card(args[0])}
    if verb == "discard":
        return {"type": "discard", "cards": CARDS.cards(args, "discard CARD [CARD ...]")}
    if verb == "declare":
        if args == ["none"]:
            return {"type": "declare", "combos": []}
        if args == ["all"]:
            return {"type": "declare", "combos": "all"}
        if not args:
            raise NotationError(N_("expected `declare none`, `declare all` or `declare N [N ...]`"))
        return {"type": "declare", "combos": [int_arg(x, N_("a combination number")) for x in args]}
    if verb == "cut":
        arity(args, 1, "cut N")
        return {"type": "cut", "k": int_arg(args[0], N_("the cut"))}
    raise unknown_verb("Minchiate", verb, "play, discard, declare, cut")


def format_action(a: Action) -> str | None:
    t = a.get("type")
    if t == "play":
        return f"play {a.get('card')}"
    if t == "discard":
        cards = cards_text(a.get("cards"))
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

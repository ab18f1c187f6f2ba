"""Wizard's action notation for hand records (``docs/hand-records.md``): parse and format one action."""

from __future__ import annotations

from bot.engine.cards import WIZARD_60
from bot.engine.notation import N_, CardSyntax, arity, int_arg, one_of, unknown_verb
from bot.engine.protocol import Action

CARDS = CardSyntax(WIZARD_60, "QS, 10H, WIZ1, JES2")
SUITS = ("S", "H", "D", "C")


def parse(verb: str, args: list[str]) -> Action:
    if verb == "bid":
        arity(args, 1, "bid N")
        return {"type": "bid", "n": int_arg(args[0], N_("a bid"))}
    if verb == "play":
        arity(args, 1, "play CARD")
        return {"type": "play", "card": CARDS.card(args[0])}
    if verb == "trump":
        arity(args, 1, "trump SUIT")
        return {"type": "trump", "suit": one_of(args[0], SUITS, N_("the trump suit"))}
    if verb == "undo":
        arity(args, 0, "undo")
        return {"type": "undo"}
    raise unknown_verb("Wizard", verb, "bid, play, trump, undo")


def format_action(a: Action) -> str | None:
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

"""Mighty's action notation for hand records (``docs/hand-records.md``): parse and format one action."""

from __future__ import annotations

from bot.engine.cards import FRENCH_52_JOKER
from bot.engine.notation import N_, CardSyntax, NotationError, arity, cards_text, int_arg, one_of, unknown_verb
from bot.engine.protocol import Action

CARDS = CardSyntax(FRENCH_52_JOKER, "QS, TD, 3C, JK")
TRUMPS = ("S", "D", "H", "C", "NT")
SUITS = ("S", "D", "H", "C")


def parse(verb: str, args: list[str]) -> Action:
    if verb == "bid" or verb == "contract":
        arity(args, 2, f"{verb} N TRUMP")
        return {
            "type": verb,
            "n": int_arg(args[0], N_("the number")),
            "trump": one_of(args[1], TRUMPS, N_("the trump")),
        }
    if verb in ("pass", "misdeal"):
        arity(args, 0, verb)
        return {"type": verb}
    if verb == "discard":
        return {"type": "discard", "cards": CARDS.cards(args, "discard CARD CARD CARD")}
    if verb == "call":
        arity(args, 1, "call CARD | call first-trick | call none")
        if args[0] == "first-trick":
            return {"type": "call", "kind": "first_trick"}
        if args[0] == "none":
            return {"type": "call", "kind": "none"}
        return {"type": "call", "kind": "card", "card": CARDS.card(args[0])}
    if verb == "play":
        if not 1 <= len(args) <= 2:
            raise NotationError(N_("expected `play CARD`, `play JK SUIT` or `play CARD call`"))
        out: Action = {"type": "play", "card": CARDS.card(args[0])}
        if len(args) == 2:
            if args[1] == "call":
                out["joker_call"] = True
            else:
                out["suit"] = one_of(args[1], SUITS, N_("the suit the Joker calls"))
        return out
    raise unknown_verb("Mighty", verb, "bid, pass, misdeal, discard, contract, call, play")


def format_action(a: Action) -> str | None:
    t = a.get("type")
    if t in ("bid", "contract"):
        return f"{t} {a.get('n')} {a.get('trump')}"
    if t in ("pass", "misdeal"):
        return str(t)
    if t == "discard":
        cards = cards_text(a.get("cards"))
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

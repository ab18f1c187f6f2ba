"""Mediatore's action notation for hand records (``docs/hand-records.md``): parse and format one action."""

from __future__ import annotations

from bot.engine.cards import ITALIAN_40
from bot.engine.notation import N_, CardSyntax, NotationError, arity, cards_text, one_of, unknown_verb
from bot.engine.protocol import Action

CARDS = CardSyntax(ITALIAN_40, "AD, 3C, NS, KB")
CONTRACTS = ("chiamo", "mediatore", "solo", "solissimo", "arcisolissimo")
SIGNALS = ("knock", "fly", "stroke")


def parse(verb: str, args: list[str]) -> Action:
    if verb == "pass":
        arity(args, 0, "pass")
        return {"type": "pass"}
    if verb == "bid":
        arity(args, 1, "bid CONTRACT")
        return {"type": "bid", "contract": one_of(args[0], CONTRACTS, N_("the contract"))}
    if verb == "call":
        arity(args, 1, "call CARD")
        return {"type": "call", "card": CARDS.card(args[0])}
    if verb == "discard":
        usage = "discard CARD CARD CARD CARD [give CARD]"
        cards, give = args, None
        if "give" in args:
            i = args.index("give")
            cards, give = args[:i], args[i + 1 :]
        out: Action = {"type": "discard", "discard": CARDS.cards(cards, usage)}
        if give is not None:
            out["give"] = CARDS.cards(give, usage)
        return out
    if verb == "play":
        if not 1 <= len(args) <= 2:
            raise NotationError(N_("expected `play CARD` or `play CARD SIGNAL`"))
        out = {"type": "play", "card": CARDS.card(args[0])}
        if len(args) == 2:
            out["signal"] = one_of(args[1], SIGNALS, N_("the signal"))
        return out
    raise unknown_verb("Mediatore", verb, "pass, bid, call, discard, play")


def format_action(a: Action) -> str | None:
    t = a.get("type")
    if t == "pass":
        return "pass"
    if t in ("bid",):
        return f"bid {a.get('contract')}"
    if t == "call":
        return f"call {a.get('card')}"
    if t == "discard":
        cards = cards_text(a.get("discard"))
        if cards is None:
            return None
        text = f"discard {cards}"
        if "give" in a:
            give = cards_text(a["give"])
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

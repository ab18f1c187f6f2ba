"""Mighty rendering: the public table panel, one seat's private panel, hand summaries, rules text.

Built only from ``MightyGame.public_view()`` / ``view(seat)`` dicts and settlements (Discord-free).
"""

from __future__ import annotations

from typing import Any

from bot.engine.protocol import Action, Settlement
from bot.render.base import MAX_SELECT_OPTIONS, Choice, ComboField, Control, Panel, Section, split_choices
from bot.render.cards import FRENCH_SUIT, joined, mighty_label

# the views' pictures, offered with the panels (bot.games.spec.Pictures)
from .pictures import hand_picture as hand_picture
from .pictures import table_picture as table_picture

FIELD_MAX = 1024
DESC_MAX = 4096
_SUIT_ORDER = ("S", "H", "C", "D")


def _card(c: str) -> str:
    return mighty_label(c)


def _cards(cs: list[str]) -> str:
    return joined(mighty_label, cs)


def trump_text(trump: str) -> str:
    return "No trump" if trump == "NT" else FRENCH_SUIT[trump]


def contract_text(n: int, trump: str) -> str:
    return f"{n} {trump_text(trump)}"


def _name(names: list[str], seat: int | None) -> str:
    if seat is None or seat < 0:
        return "—"
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


def _clip(text: str, limit: int = FIELD_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _call_text(call: dict[str, Any] | None) -> str:
    if not call:
        return "not called yet"
    if call["kind"] == "card":
        return f"the holder of {_card(call['card'])}"
    if call["kind"] == "first_trick":
        return "whoever wins the first trick"
    return "no friend (playing alone)"


def _play_text(names: list[str], seat: int, card: str, joker_suit: str | None, led: bool, call: bool) -> str:
    txt = f"{_name(names, seat)}: {_card(card)}"
    if led and card == "JK" and joker_suit:
        txt += f" (calls {FRENCH_SUIT[joker_suit]})"
    if led and call:
        txt += " — **joker call!**"
    return txt


def _trick_lines(names: list[str], trick: dict[str, Any]) -> list[str]:
    out = []
    for i, (s, c) in enumerate(trick["plays"]):
        out.append(_play_text(names, s, c, trick.get("joker_suit"), i == 0, bool(trick.get("joker_call"))))
    return out


def _event_text(ev: dict[str, Any], names: list[str]) -> str | None:
    k = ev.get("kind")
    n = lambda s: _name(names, s)  # noqa: E731
    if k == "deal":
        extra = f" (redeal {ev['redeal']})" if ev.get("redeal") else ""
        return f"New deal{extra}: {n(ev['dealer'])} deals, {n(ev['opener'])} bids first."
    if k == "bid":
        return f"{n(ev['seat'])} bids {contract_text(ev['n'], ev['trump'])}."
    if k == "pass":
        return f"{n(ev['seat'])} passes."
    if k == "misdeal_claim":
        return f"{n(ev['seat'])} claims a misdeal (hand worth {ev['value']}): {_cards(ev['cards'])}."
    if k == "all_pass":
        if ev["round"] == 1:
            return "Everybody passed: second auction round."
        return "Everybody passed again: redeal."
    if k == "auction_won":
        return f"{n(ev['seat'])} wins the auction with {contract_text(ev['n'], ev['trump'])}."
    if k == "kitty":
        if ev.get("cards"):
            return f"Kitty: {_cards(ev['cards'])}."
        return "The declarer takes the kitty (face down)."
    if k == "discard":
        return f"{n(ev['seat'])} discarded 3 cards."
    if k == "contract":
        verb = "changes the contract to" if ev.get("changed") else "keeps"
        return (
            f"{n(ev['seat'])} {verb} {contract_text(ev['n'], ev['trump'])} — Mighty {_card(ev['mighty'])}, "
            f"Ripper {_card(ev['ripper'])}."
        )
    if k == "friend_call":
        return f"{n(ev['seat'])} calls as friend: {_call_text({'kind': ev['call'], 'card': ev.get('card')})}."
    if k == "play":
        txt = f"{n(ev['seat'])} plays {_card(ev['card'])}"
        if ev.get("suit"):
            txt += f" calling {FRENCH_SUIT[ev['suit']]}"
        if ev.get("joker_call"):
            txt += " with a joker call"
        return txt + "."
    if k == "trick":
        return f"Trick {ev['number']} goes to {n(ev['winner'])}."
    if k == "friend_revealed":
        if ev.get("seat") is None:
            if ev.get("card"):
                return f"The declarer played the called card {_card(ev['card'])}: no friend this hand."
            return "The declarer won the first trick: no friend this hand."
        return f"{n(ev['seat'])} is the friend!"
    if k == "hand_end":
        res = "made" if ev["made"] else "failed"
        return f"Hand over: {ev['points']} points, contract {res}."
    return None


def _summary_lines(s: dict[str, Any], names: list[str]) -> list[str]:
    n = lambda x: _name(names, x)  # noqa: E731
    lines = []
    contract = contract_text(s["bid"], s["trump"])
    orig = contract_text(s["original_bid"], s["original_trump"])
    head = f"{n(s['declarer'])} played {contract}"
    if orig != contract:
        head += f" (bid {orig})"
    lines.append(head + ".")
    if s["friend_call"] == "none":
        lines.append("Announced no friend.")
    elif s["friend"] is None:
        why = "secret solo" if s["friend_call"] == "card" else "won the first trick"
        card = f" (called {_card(s['friend_card'])})" if s.get("friend_card") else ""
        lines.append(f"No friend: {why}{card}.")
    else:
        card = f" (called {_card(s['friend_card'])})" if s.get("friend_card") else " (first trick)"
        lines.append(f"Friend: {n(s['friend'])}{card}.")
    lines.append(f"Discards: {_cards(s['discards'])} ({s['discard_points']} pts).")
    if s.get("tricks"):
        t = s["tricks"][-1]
        lines.append(f"Last trick: {_cards([c for _, c in t['plays']])} → {n(t['winner'])}.")
    result = "made" if s["made"] else "failed"
    mult = ""
    if s["multipliers"]:
        mult = " × " + " × ".join(f"2 ({m.replace('_', ' ')})" for m in s["multipliers"])
    total = f" = {s['score']}" if mult else ""
    lines.append(f"Points {s['points']} vs {s['defender_points']}: {result}. S = {s['base']}{mult}{total}.")
    pays = ", ".join(f"{n(i)} {p:+d}" for i, p in enumerate(s["payments"]))
    lines.append(f"Payments: {pays}.")
    return lines


# -- public panel -------------------------------------------------------------------------------------
def public_panel(view: dict[str, Any], names: list[str]) -> Panel:
    ph = view["phase"]
    title = f"Mighty — hand {view['hand_number'] + 1}"
    if view.get("hands_limit"):
        title += f" of {view['hands_limit']}"
    if view.get("redeal_number"):
        title += f" (redeal {view['redeal_number']})"
    turn = ", ".join(_name(names, s) for s in view["to_move"])
    decl = view.get("declarer")
    desc: list[str] = []
    if ph == "over":
        desc.append("**Game over.**")
    elif ph == "auction":
        a = view["auction"]
        desc.append(f"Dealer: {_name(names, view['dealer'])}. Auction round {a['round']}.")
        hi = a.get("high")
        desc.append(
            f"High bid: {contract_text(hi['n'], hi['trump'])} by {_name(names, hi['seat'])}."
            if hi
            else "No bid yet (minimum 13)."
        )
        desc.append(f"To bid: **{turn}**.")
    else:
        if view.get("contract"):
            c = view["contract"]
            desc.append(
                f"Contract: **{contract_text(c['n'], c['trump'])}** by {_name(names, decl)} — "
                f"Mighty {_card(view['mighty'])}, Ripper {_card(view['ripper'])}."
            )
        elif view.get("bid"):
            b = view["bid"]
            desc.append(f"{_name(names, decl)} won the auction with **{contract_text(b['n'], b['trump'])}**.")
        if ph == "discard":
            desc.append(f"{_name(names, decl)} takes the kitty and discards 3 cards.")
        elif ph == "change":
            desc.append(f"{_name(names, decl)} may change the trump or raise the contract.")
        elif ph == "call":
            desc.append(f"{_name(names, decl)} is calling a friend.")
        elif ph == "play":
            friend = "unknown"
            if view.get("friend_revealed"):
                friend = _name(names, view["friend"]) if view.get("friend") is not None else "none"
            desc.append(f"Friend: {_call_text(view.get('friend_call'))} — {friend}.")
            desc.append(f"Trick {view['trick_number']}/10 — to play: **{turn}**.")
    sections: list[Section] = []
    if ph == "auction" and view["auction"]["history"]:
        lines = []
        for h in view["auction"]["history"][-12:]:
            what = "pass" if h.get("pass") else contract_text(h["n"], h["trump"])
            lines.append(f"{_name(names, h['seat'])}: {what}")
        sections.append(Section("Auction", _clip("\n".join(lines))))
    if view.get("kitty"):
        sections.append(Section("Kitty (face up)", _cards(view["kitty"]), True))
    trick = view.get("trick")
    if trick is not None:
        sections.append(Section("Current trick", _clip("\n".join(_trick_lines(names, trick)) or "—")))
    lt = view.get("last_trick")
    if lt is not None and ph != "auction":
        body = "\n".join(_trick_lines(names, lt)) + f"\nWinner: **{_name(names, lt['winner'])}**"
        sections.append(Section(f"Last trick ({lt['number']})", _clip(body)))
    if view.get("history") and ph == "play":
        lines = [
            f"{t['number']}. {_cards([c for _, c in t['plays']])} → {_name(names, t['winner'])}"
            for t in view["history"]
        ]
        sections.append(Section("Tricks", _clip("\n".join(lines))))
    if ph == "play":
        lines = []
        for s in range(view["num_seats"]):
            tw = view["tricks_won"][s]
            line = f"{_name(names, s)}: {tw} trick{'s' if tw != 1 else ''}"
            if view.get("captured") is not None:
                line += f", {view['points_won'][s]} pts {_cards(view['captured'][s])}"
            lines.append(line)
        sections.append(Section("Captured", _clip("\n".join(lines))))
    if view.get("last_hand") and ph in ("auction", "over"):
        sections.append(Section("Last hand", _clip("\n".join(_summary_lines(view["last_hand"], names)))))
    if view.get("hands_played"):
        st = "\n".join(f"{_name(names, s)}: {t:+d}" for s, t in enumerate(view["totals"]))
        sections.append(Section("Standings", _clip(st), True))
    ev_lines = [t for t in (_event_text(e, names) for e in view.get("events", [])[-6:]) if t]
    if ev_lines:
        sections.append(Section("Recent", _clip("\n".join(ev_lines))))
    footer = f"Stake {view['stake']} · clockwise · dealer {_name(names, view['dealer'])}"
    return Panel(title=title, description=_clip("\n".join(desc), DESC_MAX), sections=sections, footer=footer)


# -- private panel ------------------------------------------------------------------------------------
def _hand_lines(hand: list[str]) -> list[str]:
    out = []
    for s in _SUIT_ORDER:
        cs = [c for c in hand if c != "JK" and c[-1] == s]
        if cs:
            out.append(f"{FRENCH_SUIT[s]} " + " ".join(_card(c) for c in cs))
    if "JK" in hand:
        out.append(_card("JK"))
    return out


def action_label(a: Action) -> str:
    t = a["type"]
    if t == "bid":
        return f"Bid {contract_text(a['n'], a['trump'])}"
    if t == "pass":
        return "Pass"
    if t == "misdeal":
        return "Claim misdeal (weak hand)"
    if t == "contract":
        return contract_text(a["n"], a["trump"])
    if t == "call":
        if a["kind"] == "card":
            return f"Friend: {_card(a['card'])}"
        return "Friend: first trick winner" if a["kind"] == "first_trick" else "No friend (alone, ×2)"
    if t == "play":
        txt = _card(a["card"])
        if a.get("suit"):
            txt += f" → {FRENCH_SUIT[a['suit']]}"
        if a.get("joker_call"):
            txt += " + joker call"
        return txt
    return str(t)


def _controls(view: dict[str, Any]) -> list[Control]:
    prompt = view.get("prompt")
    if not prompt:
        return []
    if prompt["kind"] == "combo":
        fields = [
            ComboField(
                f["key"],
                f"Choose {f['count']} cards to discard",
                [(_card(c), c) for c in f["from"]],
                f["count"],
            )
            for f in prompt["fields"]
        ]
        base = {"type": prompt["type"], **prompt["fixed"]}
        return [Control("combo", "Discard", base_action=base, fields=fields)]
    acts: list[Action] = prompt["actions"]
    ph = view["phase"]
    if ph == "auction":
        buttons = [
            Choice(action_label(a), a, "danger" if a["type"] == "misdeal" else "secondary")
            for a in acts
            if a["type"] != "bid"
        ]
        bids = [Choice(action_label(a), a) for a in acts if a["type"] == "bid"]
        return [Control("buttons", "Auction", buttons), *split_choices(bids, "Bid…", prefer_buttons=False)]
    if ph == "change":
        b = view["bid"]
        keep = [a for a in acts if a["n"] == b["n"] and a["trump"] == b["trump"]]
        rest = [Choice(f"Change to {action_label(a)}", a) for a in acts if a not in keep]
        ctl = [Control("buttons", "Contract", [Choice(f"Keep {action_label(keep[0])}", keep[0], "primary")])]
        return ctl + split_choices(rest, "Change trump / raise…", prefer_buttons=False)
    if ph == "call":
        special = [Choice(action_label(a), a) for a in acts if a["kind"] != "card"]
        cards = [a for a in acts if a["kind"] == "card"]
        order = {c: i for i, c in enumerate(_call_order(view))}
        cards.sort(key=lambda a: order.get(a["card"], 99))
        choices = [Choice(action_label(a), a) for a in cards]
        out = [Control("buttons", "Friend", special)] if special else []
        return out + split_choices(choices, "Call a card…", prefer_buttons=False)
    choices = [Choice(action_label(a), a, "primary") for a in acts]
    return split_choices(choices, "Play a card", prefer_buttons=True)


def _call_order(view: dict[str, Any]) -> list[str]:
    """Friend-call cards: Mighty, Joker, then trumps, then the other suits, high to low."""
    trump = view["contract"]["trump"] if view.get("contract") else "NT"
    suits = ([trump] if trump != "NT" else []) + [s for s in _SUIT_ORDER if s != trump]
    first = [view.get("mighty") or "AS", "JK"]
    rest = [r + s for s in suits for r in "AKQJT98765432"]
    return first + [c for c in rest if c not in first]


def private_panel(view: dict[str, Any], names: list[str]) -> Panel:
    seat = view["seat"]
    title = f"Mighty — {_name(names, seat)}'s hand"
    desc: list[str] = []
    role = view.get("role")
    if role == "declarer":
        desc.append("You are the **declarer**.")
        if view.get("secret_solo"):
            desc.append("The called card is yours: you play a **secret solo** (keep it quiet).")
    elif role == "friend":
        desc.append("**You are the friend** of the declarer. Do not reveal it!")
    elif role == "defender":
        desc.append("You are a defender.")
    ph = view["phase"]
    prompt = view.get("prompt")
    if prompt:
        what = {
            "auction": "Your turn to bid.",
            "discard": "Choose 3 cards to discard (their points count for you).",
            "change": "Keep the contract, or change trump (+2, or +1 to no trump) / raise.",
            "call": "Call your friend: a card, the first-trick winner, or no friend.",
            "play": "Your turn to play.",
        }.get(ph, "Your turn.")
        desc.append(f"**{what}**")
        if ph == "auction" and any(a["type"] == "misdeal" for a in prompt.get("actions", [])):
            desc.append(f"Your hand is worth {view.get('weak_hand_value')}: you may claim a misdeal.")
    else:
        desc.append(f"Waiting for {', '.join(_name(names, s) for s in view['to_move']) or 'nobody'}.")
    sections = [Section("Your hand", "\n".join(_hand_lines(view["hand"])) or "—")]
    if view.get("discards"):
        sections.append(Section("Your discards", _cards(view["discards"]), True))
    if view.get("kitty_private") and ph == "discard":
        sections.append(Section("Kitty", _cards(view["kitty_private"]), True))
    trick = view.get("trick")
    if trick is not None and trick["plays"]:
        sections.append(Section("Current trick", _clip("\n".join(_trick_lines(names, trick)))))
    return Panel(title=title, description="\n".join(desc), sections=sections, controls=_controls(view))


# -- settlement and rules -----------------------------------------------------------------------------
def settlement_text(settlement: Settlement, names: list[str]) -> str:
    s = dict(settlement.summary)
    head = f"**Mighty — hand {s['hand'] + 1}**"
    return _clip("\n".join([head, *_summary_lines(s, names)]), DESC_MAX)


def rules_text() -> str:
    return (
        "**Mighty** — 5 players, 53 cards (52 + Joker), clockwise. 10 cards each, 3 to the kitty.\n"
        "**Points:** every A, K, Q, J, 10 = 1 point (20 in all).\n"
        "**Auction:** bid a number 13–20 and a trump (or no trump). Each bid must be higher; at the same "
        "number no trump beats a suit. A pass is final. 20 NT ends it. Two all-pass rounds: redeal. A hand "
        "worth ≤ ½ (Joker −1, ♠A 0, A/K/Q/J +1, 10 +½) may claim a misdeal at its first turn.\n"
        "**Declarer:** takes the kitty (shown to all by default), discards 3 (their points count for the "
        "declarer), may change trump (+2, or +1 to no trump) or raise, then calls a friend: any card (its "
        "holder is the secret friend), the first-trick winner, or no friend (score ×2).\n"
        "**Special cards:** the **Mighty** (♠A; ♦A when spades are trump) beats everything and may be played "
        "any time. The **Joker** is next (not in trick 1, powerless in trick 10); when led it names a suit. "
        "The **Ripper** (♣3; ♠3 when clubs are trump) led from trick 2 may make a *joker call*: the Joker "
        "must then be played and loses its power.\n"
        "**Play:** the declarer leads trick 1 (no trump lead unless forced). Follow suit if you can; "
        "otherwise play anything. Mighty > Joker > highest trump > highest card of the led suit.\n"
        "**Scoring:** P = points taken by declarer + friend (discards included). Made: S = 2×(B−13) + (P−B); "
        "failed: S = B−P. ×2 each for no trump, announced no friend, run (P = 20), back-run (P ≤ 9). "
        "With a friend: declarer ±2S, friend ±S, defenders ∓S. Alone: declarer ±4S, others ∓S.\n"
        "The friend (else the declarer) deals next; the declarer bids first."
    )


__all__ = ["MAX_SELECT_OPTIONS", "private_panel", "public_panel", "rules_text", "settlement_text"]


def card_label(card: str) -> str:
    return mighty_label(card)


def lobby_note(seats: int) -> str:
    return ""


def describe(action: Action, before: dict[str, Any]) -> str | None:
    """What the table learns from a non-play action (replays, the terminal game); ``None``: use its notation."""
    t = action.get("type")
    if t == "pass":
        return "passes"
    if t == "bid":
        return f"bids {action.get('n')} {trump_text(str(action.get('trump')))}"
    if t == "misdeal":
        return "claims a misdeal (weak hand)"
    if t == "discard":
        return "discards 3 cards"
    if t == "contract":
        bid = before.get("bid") or {}
        what = f"{action.get('n')} {trump_text(str(action.get('trump')))}"
        same = (bid.get("n"), bid.get("trump")) == (action.get("n"), action.get("trump"))
        return f"keeps the contract {what}" if same else f"changes the contract to {what}"
    if t == "call":
        kind = action.get("kind")
        if kind == "first_trick":
            return "calls as friend: whoever wins the first trick"
        if kind == "none":
            return "plays without a friend"
        return f"calls as friend: the holder of {_card(str(action.get('card')))}"
    return None


def after_action(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    return []

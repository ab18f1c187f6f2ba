"""Mighty rendering: the public table panel, one seat's private panel, hand summaries, rules text.

Built only from ``MightyGame.public_view()`` / ``view(seat)`` dicts and settlements (Discord-free).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.protocol import Action, Settlement
from bot.i18n import _, _n, _p, signed
from bot.render.base import (
    MAX_SELECT_OPTIONS,
    Choice,
    ComboField,
    Control,
    Panel,
    SeatPlate,
    Section,
    fit,
    split_choices,
)
from bot.render.cards import FRENCH_SUIT, joined, mighty_label

# the views' pictures, offered with the panels (bot.games.spec.Pictures)
from .pictures import hand_picture as hand_picture
from .pictures import reveal_picture as reveal_picture
from .pictures import table_picture as table_picture

FIELD_MAX = 1024
DESC_MAX = 4096
_SUIT_ORDER = ("S", "H", "C", "D")


def _card(c: str) -> str:
    return mighty_label(c)


def _cards(cs: list[str]) -> str:
    return joined(mighty_label, cs)


def trump_text(trump: str) -> str:
    return _p("mighty", "No trump") if trump == "NT" else FRENCH_SUIT[trump]


def contract_text(n: int, trump: str) -> str:
    return f"{n} {trump_text(trump)}"


_MULTIPLIER = {
    "no_trump": lambda: _p("mighty multiplier", "no trump"),
    "no_friend": lambda: _p("mighty multiplier", "no friend"),
    "run": lambda: _p("mighty multiplier", "run"),
    "back_run": lambda: _p("mighty multiplier", "back run"),
}


def _multiplier(m: str) -> str:
    return _MULTIPLIER[m]() if m in _MULTIPLIER else m.replace("_", " ")


def _name(names: list[str], seat: int | None) -> str:
    if seat is None or seat < 0:
        return "—"
    return names[seat] if seat < len(names) else _("Seat {n}", n=seat + 1)


def _clip(text: str, limit: int = FIELD_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _call_text(call: dict[str, Any] | None) -> str:
    if not call:
        return _("not called yet")
    if call["kind"] == "card":
        return _("the holder of {card}", card=_card(call["card"]))
    if call["kind"] == "first_trick":
        return _("whoever wins the first trick")
    return _("no friend (playing alone)")


def _play_text(names: list[str], seat: int, card: str, joker_suit: str | None, led: bool, call: bool) -> str:
    txt = f"{_name(names, seat)}: {_card(card)}"
    if led and card == "JK" and joker_suit:
        txt += " " + _("(calls {suit})", suit=FRENCH_SUIT[joker_suit])
    if led and call:
        txt += " — " + _("**joker call!**")
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
        if ev.get("redeal"):
            return _(
                "New deal (redeal {redeal}): {dealer} deals, {opener} bids first.",
                redeal=ev["redeal"],
                dealer=n(ev["dealer"]),
                opener=n(ev["opener"]),
            )
        return _("New deal: {dealer} deals, {opener} bids first.", dealer=n(ev["dealer"]), opener=n(ev["opener"]))
    if k == "bid":
        return _("{name} bids {contract}.", name=n(ev["seat"]), contract=contract_text(ev["n"], ev["trump"]))
    if k == "pass":
        return _("{name} passes.", name=n(ev["seat"]))
    if k == "misdeal_claim":
        return _(
            "{name} claims a misdeal (hand worth {value}): {cards}.",
            name=n(ev["seat"]),
            value=ev["value"],
            cards=_cards(ev["cards"]),
        )
    if k == "all_pass":
        if ev["round"] == 1:
            return _("Everybody passed: second auction round.")
        return _("Everybody passed again: redeal.")
    if k == "auction_won":
        return _(
            "{name} wins the auction with {contract}.", name=n(ev["seat"]), contract=contract_text(ev["n"], ev["trump"])
        )
    if k == "kitty":
        if ev.get("cards"):
            return _("Kitty: {cards}.", cards=_cards(ev["cards"]))
        return _("The declarer takes the kitty (face down).")
    if k == "discard":
        return _("{name} discarded 3 cards.", name=n(ev["seat"]))
    if k == "contract":
        args = {
            "name": n(ev["seat"]),
            "contract": contract_text(ev["n"], ev["trump"]),
            "mighty": _card(ev["mighty"]),
            "ripper": _card(ev["ripper"]),
        }
        if ev.get("changed"):
            return _("{name} changes the contract to {contract} — Mighty {mighty}, Ripper {ripper}.", **args)
        return _("{name} keeps {contract} — Mighty {mighty}, Ripper {ripper}.", **args)
    if k == "friend_call":
        return _(
            "{name} calls as friend: {call}.",
            name=n(ev["seat"]),
            call=_call_text({"kind": ev["call"], "card": ev.get("card")}),
        )
    if k == "play":
        args = {"name": n(ev["seat"]), "card": _card(ev["card"])}
        if ev.get("suit"):
            args["suit"] = FRENCH_SUIT[ev["suit"]]
            if ev.get("joker_call"):
                return _("{name} plays {card} calling {suit} with a joker call.", **args)
            return _("{name} plays {card} calling {suit}.", **args)
        if ev.get("joker_call"):
            return _("{name} plays {card} with a joker call.", **args)
        return _("{name} plays {card}.", **args)
    if k == "trick":
        return _("Trick {n} goes to {name}.", n=ev["number"], name=n(ev["winner"]))
    if k == "friend_revealed":
        if ev.get("seat") is None:
            if ev.get("card"):
                return _("The declarer played the called card {card}: no friend this hand.", card=_card(ev["card"]))
            return _("The declarer won the first trick: no friend this hand.")
        return _("{name} is the friend!", name=n(ev["seat"]))
    if k == "hand_end":
        if ev["made"]:
            return _n("Hand over: {n} point, contract made.", "Hand over: {n} points, contract made.", ev["points"])
        return _n("Hand over: {n} point, contract failed.", "Hand over: {n} points, contract failed.", ev["points"])
    return None


def _summary_lines(s: dict[str, Any], names: list[str]) -> list[str]:
    n = lambda x: _name(names, x)  # noqa: E731
    lines = []
    contract = contract_text(s["bid"], s["trump"])
    orig = contract_text(s["original_bid"], s["original_trump"])
    if orig != contract:
        lines.append(_("{name} played {contract} (bid {bid}).", name=n(s["declarer"]), contract=contract, bid=orig))
    else:
        lines.append(_("{name} played {contract}.", name=n(s["declarer"]), contract=contract))
    card = _card(s["friend_card"]) if s.get("friend_card") else None
    if s["friend_call"] == "none":
        lines.append(_("Announced no friend."))
    elif s["friend"] is None:
        if s["friend_call"] == "card":
            lines.append(
                _("No friend: secret solo (called {card}).", card=card) if card else _("No friend: secret solo.")
            )
        elif card:
            lines.append(_("No friend: won the first trick (called {card}).", card=card))
        else:
            lines.append(_("No friend: won the first trick."))
    elif card:
        lines.append(_("Friend: {name} (called {card}).", name=n(s["friend"]), card=card))
    else:
        lines.append(_("Friend: {name} (first trick).", name=n(s["friend"])))
    lines.append(
        _n(
            "Discards: {cards} ({n} pt).",
            "Discards: {cards} ({n} pts).",
            s["discard_points"],
            cards=_cards(s["discards"]),
        )
    )
    if s.get("tricks"):
        t = s["tricks"][-1]
        # i18n: the hand's final (tenth) trick, in the hand's summary
        lines.append(_("Final trick: {cards} → {name}.", cards=_cards([c for _, c in t["plays"]]), name=n(t["winner"])))
    mult = ""
    if s["multipliers"]:
        mult = " × " + " × ".join(f"2 ({_multiplier(m)})" for m in s["multipliers"])
    total = f" = {s['score']}" if mult else ""
    score = f"S = {s['base']}{mult}{total}"
    args = {"points": s["points"], "defenders": s["defender_points"], "score": score}
    if s["made"]:
        lines.append(_("Points {points} vs {defenders}: made. {score}.", **args))
    else:
        lines.append(_("Points {points} vs {defenders}: failed. {score}.", **args))
    pays = ", ".join(f"{n(i)} {signed(p)}" for i, p in enumerate(s["payments"]))
    lines.append(_("Payments: {payments}.", payments=pays))
    return lines


# -- public panel -------------------------------------------------------------------------------------
def public_panel(view: dict[str, Any], names: list[str]) -> Panel:
    ph = view["phase"]
    hand = view["hand_number"] + 1
    if view.get("hands_limit"):
        title = _("Mighty — hand {n} of {total}", n=hand, total=view["hands_limit"])
    else:
        title = _("Mighty — hand {n}", n=hand)
    if view.get("redeal_number"):
        title += " " + _("(redeal {n})", n=view["redeal_number"])
    turn = ", ".join(_name(names, s) for s in view["to_move"])
    decl = view.get("declarer")
    desc: list[str] = []
    if ph == "over":
        desc.append(_("**Game over.**"))
    elif ph == "auction":
        a = view["auction"]
        desc.append(_("Dealer: {name}. Auction round {n}.", name=_name(names, view["dealer"]), n=a["round"]))
        hi = a.get("high")
        desc.append(
            _(
                "High bid: {contract} by {name}.",
                contract=contract_text(hi["n"], hi["trump"]),
                name=_name(names, hi["seat"]),
            )
            if hi
            else _("No bid yet (minimum 13).")
        )
        desc.append(_("To bid: **{names}**.", names=turn))
    else:
        if view.get("contract"):
            c = view["contract"]
            desc.append(
                _(
                    "Contract: **{contract}** by {name} — Mighty {mighty}, Ripper {ripper}.",
                    contract=contract_text(c["n"], c["trump"]),
                    name=_name(names, decl),
                    mighty=_card(view["mighty"]),
                    ripper=_card(view["ripper"]),
                )
            )
        elif view.get("bid"):
            b = view["bid"]
            desc.append(
                _(
                    "{name} won the auction with **{contract}**.",
                    name=_name(names, decl),
                    contract=contract_text(b["n"], b["trump"]),
                )
            )
        if ph == "discard":
            desc.append(_("{name} takes the kitty and discards 3 cards.", name=_name(names, decl)))
        elif ph == "change":
            desc.append(_("{name} may change the trump or raise the contract.", name=_name(names, decl)))
        elif ph == "call":
            desc.append(_("{name} is calling a friend.", name=_name(names, decl)))
        elif ph == "play":
            friend = _p("friend", "unknown")
            if view.get("friend_revealed"):
                friend = _name(names, view["friend"]) if view.get("friend") is not None else _p("friend", "none")
            desc.append(_("Friend: {call} — {friend}.", call=_call_text(view.get("friend_call")), friend=friend))
            desc.append(_("Trick {n}/10 — to play: **{names}**.", n=view["trick_number"], names=turn))
    sections: list[Section] = []
    if ph == "auction" and view["auction"]["history"]:
        lines = []
        passed = _p("auction", "pass")
        for h in view["auction"]["history"][-12:]:
            what = passed if h.get("pass") else contract_text(h["n"], h["trump"])
            lines.append(f"{_name(names, h['seat'])}: {what}")
        sections.append(Section(_("Auction"), _clip("\n".join(lines))))
    if view.get("kitty"):
        sections.append(Section(_("Kitty (face up)"), _cards(view["kitty"]), True))
    trick = view.get("trick")
    if trick is not None:
        sections.append(Section(_("Current trick"), _clip("\n".join(_trick_lines(names, trick)) or "—")))
    lt = view.get("last_trick")
    if lt is not None and ph != "auction":
        body = "\n".join(_trick_lines(names, lt)) + "\n" + _("Winner: **{name}**", name=_name(names, lt["winner"]))
        # i18n: the trick just played, with its number
        sections.append(Section(_("Previous trick ({n})", n=lt["number"]), _clip(body)))
    if view.get("history") and ph == "play":
        lines = [
            f"{t['number']}. {_cards([c for _, c in t['plays']])} → {_name(names, t['winner'])}"
            for t in view["history"]
        ]
        sections.append(Section(_("Tricks"), _clip("\n".join(lines))))
    if ph == "play":
        lines = []
        for s in range(view["num_seats"]):
            tw = view["tricks_won"][s]
            line = _n("{name}: {n} trick", "{name}: {n} tricks", tw, name=_name(names, s))
            if view.get("captured") is not None:
                line += ", " + _n(
                    "{n} pt {cards}", "{n} pts {cards}", view["points_won"][s], cards=_cards(view["captured"][s])
                )
            lines.append(line)
        sections.append(Section(_("Captured"), _clip("\n".join(lines))))
    if view.get("last_hand") and ph in ("auction", "over"):
        sections.append(Section(_("Previous hand"), _clip("\n".join(_summary_lines(view["last_hand"], names)))))
    if view.get("hands_played"):
        st = "\n".join(f"{_name(names, s)}: {signed(t)}" for s, t in enumerate(view["totals"]))
        sections.append(Section(_("Standings"), _clip(st), True))
    ev_lines = [t for t in (_event_text(e, names) for e in view.get("events", [])[-6:]) if t]
    if ev_lines:
        sections.append(Section(_("Recent"), _clip("\n".join(ev_lines))))
    footer = _("Stake {stake} · clockwise · dealer {name}", stake=view["stake"], name=_name(names, view["dealer"]))
    return fit(Panel(title=title, description=_clip("\n".join(desc), DESC_MAX), sections=sections, footer=footer))


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
        return _("Bid {contract}", contract=contract_text(a["n"], a["trump"]))
    if t == "pass":
        return _p("button", "Pass")
    if t == "misdeal":
        return _("Claim misdeal (weak hand)")
    if t == "contract":
        return contract_text(a["n"], a["trump"])
    if t == "call":
        if a["kind"] == "card":
            return _("Friend: {card}", card=_card(a["card"]))
        return _("Friend: first trick winner") if a["kind"] == "first_trick" else _("No friend (alone, ×2)")
    if t == "play":
        txt = _card(a["card"])
        if a.get("suit"):
            txt += f" → {FRENCH_SUIT[a['suit']]}"
        if a.get("joker_call"):
            txt += " + " + _("joker call")
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
                _n("Choose {n} card to discard", "Choose {n} cards to discard", f["count"]),
                [(_card(c), c) for c in f["from"]],
                f["count"],
            )
            for f in prompt["fields"]
        ]
        base = {"type": prompt["type"], **prompt["fixed"]}
        return [Control("combo", _p("button", "Discard"), base_action=base, fields=fields)]
    acts: list[Action] = prompt["actions"]
    ph = view["phase"]
    if ph == "auction":
        buttons = [
            Choice(action_label(a), a, "danger" if a["type"] == "misdeal" else "secondary")
            for a in acts
            if a["type"] != "bid"
        ]
        bids = [Choice(action_label(a), a) for a in acts if a["type"] == "bid"]
        menus = split_choices(bids, _("Bid…"), prefer_buttons=False, span=_bid_span)
        return [Control("buttons", _("Auction"), buttons), *menus]
    if ph == "change":
        b = view["bid"]
        keep = [a for a in acts if a["n"] == b["n"] and a["trump"] == b["trump"]]
        rest = [Choice(_("Change to {contract}", contract=action_label(a)), a) for a in acts if a not in keep]
        keep_choice = Choice(_("Keep {contract}", contract=action_label(keep[0])), keep[0], "primary")
        ctl = [Control("buttons", _("Contract"), [keep_choice])]
        return ctl + split_choices(rest, _("Change trump / raise…"), prefer_buttons=False, span=_bid_span)
    if ph == "call":
        special = [Choice(action_label(a), a) for a in acts if a["kind"] != "card"]
        cards = [a for a in acts if a["kind"] == "card"]
        order = {c: i for i, c in enumerate(_call_order(view))}
        cards.sort(key=lambda a: order.get(a["card"], 99))
        choices = [Choice(action_label(a), a) for a in cards]
        out = [Control("buttons", _p("placeholder", "Friend"), special)] if special else []
        return out + split_choices(choices, _("Call a card…"), prefer_buttons=False)
    choices = [Choice(action_label(a), a, "primary") for a in acts]
    return split_choices(choices, _("Play a card"), prefer_buttons=True)


def _bid_span(chunk: Sequence[Choice]) -> str:
    """A split bid menu labelled by the bids it holds: ``15–19`` (never by option positions)."""
    numbers = [int(c.action["n"]) for c in chunk]
    lo, hi = min(numbers), max(numbers)
    return str(lo) if lo == hi else f"{lo}–{hi}"


def _call_order(view: dict[str, Any]) -> list[str]:
    """Friend-call cards: Mighty, Joker, then trumps, then the other suits, high to low."""
    trump = view["contract"]["trump"] if view.get("contract") else "NT"
    suits = ([trump] if trump != "NT" else []) + [s for s in _SUIT_ORDER if s != trump]
    first = [view.get("mighty") or "AS", "JK"]
    rest = [r + s for s in suits for r in "AKQJT98765432"]
    return first + [c for c in rest if c not in first]


def private_panel(view: dict[str, Any], names: list[str]) -> Panel:
    # only this seat sees the panel (a DM, a private reply, the terminal): it speaks to its player
    title = _("Mighty — your hand")
    desc: list[str] = []
    role = view.get("role")
    if role == "declarer":
        desc.append(_("You are the **declarer**."))
        if view.get("secret_solo"):
            desc.append(_("The called card is yours: you play a **secret solo** (keep it quiet)."))
    elif role == "friend":
        desc.append(_("**You are the friend** of the declarer. Do not reveal it!"))
    elif role == "defender":
        desc.append(_p("mighty", "You are a defender."))
    ph = view["phase"]
    prompt = view.get("prompt")
    if prompt:
        what = {
            "auction": lambda: _("Your turn to bid."),
            "discard": lambda: _("Choose 3 cards to discard (their points count for you)."),
            "change": lambda: _("Keep the contract, or change trump (+2, or +1 to no trump) / raise."),
            "call": lambda: _("Call your friend: a card, the first-trick winner, or no friend."),
            "play": lambda: _("Your turn to play."),
        }.get(ph, lambda: _("Your turn."))()
        desc.append(f"**{what}**")
        if ph == "auction" and any(a["type"] == "misdeal" for a in prompt.get("actions", [])):
            desc.append(_("Your hand is worth {value}: you may claim a misdeal.", value=view.get("weak_hand_value")))
    elif view["to_move"]:
        desc.append(_("Waiting for {names}.", names=", ".join(_name(names, s) for s in view["to_move"])))
    elif ph == "over":  # (not "waiting for nobody")
        desc.append(_("**Game over.**"))
    sections = [Section(_("Your hand"), "\n".join(_hand_lines(view["hand"])) or "—")]
    if view.get("discards"):
        sections.append(Section(_("Your discards"), _cards(view["discards"]), True))
    if view.get("kitty_private") and ph == "discard":
        sections.append(Section(_("Kitty"), _cards(view["kitty_private"]), True))
    trick = view.get("trick")
    if trick is not None and trick["plays"]:
        sections.append(Section(_("Current trick"), _clip("\n".join(_trick_lines(names, trick)))))
    return fit(Panel(title=title, description="\n".join(desc), sections=sections, controls=_controls(view)))


# -- settlement and rules -----------------------------------------------------------------------------
def settlement_text(settlement: Settlement, names: list[str]) -> str:
    s = dict(settlement.summary)
    head = _("**Mighty — hand {n}**", n=s["hand"] + 1)
    return _clip("\n".join([head, *_summary_lines(s, names)]), DESC_MAX)


def rules_text() -> str:
    return "\n".join(
        [
            _("**Mighty** — 5 players, 53 cards (52 + Joker), clockwise. 10 cards each, 3 to the kitty."),
            _("**Points:** every A, K, Q, J, 10 = 1 point (20 in all)."),
            _(
                "**Auction:** bid a number 13–20 and a trump (or no trump). Each bid must be higher; at the same "
                "number no trump beats a suit. A pass is final. 20 NT ends it. Two all-pass rounds: redeal. A hand "
                "worth ≤ ½ (Joker −1, ♠A 0, A/K/Q/J +1, 10 +½) may claim a misdeal at its first turn."
            ),
            _(
                "**Declarer:** takes the kitty (shown to all by default), discards 3 (their points count for the "
                "declarer), may change trump (+2, or +1 to no trump) or raise, then calls a friend: any card (its "
                "holder is the secret friend), the first-trick winner, or no friend (score ×2)."
            ),
            _(
                "**Special cards:** the **Mighty** (♠A; ♦A when spades are trump) beats everything and may be played "
                "any time. The **Joker** is next (not in trick 1, powerless in trick 10); when led it names a suit. "
                "The **Ripper** (♣3; ♠3 when clubs are trump) led from trick 2 may make a *joker call*: the Joker "
                "must then be played and loses its power."
            ),
            _(
                "**Play:** the declarer leads trick 1 (no trump lead unless forced). Follow suit if you can; "
                "otherwise play anything. Mighty > Joker > highest trump > highest card of the led suit."
            ),
            _(
                "**Scoring:** P = points taken by declarer + friend (discards included). Made: S = 2×(B−13) + (P−B); "
                "failed: S = B−P. ×2 each for no trump, announced no friend, run (P = 20), back-run (P ≤ 9). "
                "With a friend: declarer ±2S, friend ±S, defenders ∓S. Alone: declarer ±4S, others ∓S."
            ),
            _("The friend (else the declarer) deals next; the declarer bids first."),
        ]
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
        return _("passes")
    if t == "bid":
        return _("bids {contract}", contract=contract_text(int(action.get("n") or 0), str(action.get("trump"))))
    if t == "misdeal":
        return _("claims a misdeal (weak hand)")
    if t == "discard":
        return _("discards 3 cards")
    if t == "contract":
        bid = before.get("bid") or {}
        what = f"{action.get('n')} {trump_text(str(action.get('trump')))}"
        same = (bid.get("n"), bid.get("trump")) == (action.get("n"), action.get("trump"))
        return (
            _("keeps the contract {contract}", contract=what)
            if same
            else _("changes the contract to {contract}", contract=what)
        )
    if t == "call":
        kind = action.get("kind")
        if kind == "first_trick":
            return _("calls as friend: whoever wins the first trick")
        if kind == "none":
            return _("plays without a friend")
        return _("calls as friend: the holder of {card}", card=_card(str(action.get("card"))))
    return None


def after_action(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    return []


def seat_plates(view: dict[str, Any], names: list[str]) -> list[SeatPlate]:
    """Each seat's plate from the public view: the high bid in the auction (and who passed), then the contract on
    the declarer, the friend once revealed, tricks and card points of the hand, and the total."""
    n, ph = view["num_seats"], view["phase"]
    auction = view.get("auction") or {}
    high = auction.get("high")
    decl = view.get("declarer")
    contract = view.get("contract") or view.get("bid")
    plates = []
    for s in range(n):
        bid = role = None
        if ph == "auction":
            if high and high["seat"] == s:
                bid = contract_text(high["n"], high["trump"])
        elif s == decl:
            role = _p("seat plate", "Declarer")
            bid = contract_text(contract["n"], contract["trump"]) if contract else None
        elif view.get("friend") is not None and s == view["friend"]:
            role = _p("seat plate", "Friend")
        playing = ph in ("play", "over")
        plates.append(
            SeatPlate(
                bid=bid,
                bid_label=_p("seat plate, Mighty", "Bid"),
                tricks=view["tricks_won"][s] if playing else None,
                points=view["points_won"][s] if playing else None,
                score=view["totals"][s],
                dealer=s == view.get("dealer"),
                role=role,
                passed=ph == "auction" and s in auction.get("passed", []),
            )
        )
    return plates

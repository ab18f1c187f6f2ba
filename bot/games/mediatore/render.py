"""Mediatore panels: the public table message, each seat's DM, the end-of-hand summary and the rules.

Built only from ``MediatoreGame.public_view()`` / ``view(seat)`` and settlements, so nothing hidden can
leak: the public panel shows the previous hand's result without its cards (the full reveal of §11 is the
``settlement_text`` message posted when the hand ends).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.protocol import Settlement
from bot.games.mediatore.engine import sort_key
from bot.render.base import Choice, ComboField, Control, Panel, Section, split_choices
from bot.render.cards import ITALIAN_SUIT, ITALIAN_SUIT_NAME, italian_label, italian_long, joined

# the views' pictures, offered with the panels (bot.games.spec.Pictures)
from .pictures import hand_picture as hand_picture
from .pictures import table_picture as table_picture

CONTRACT_TITLE = {
    "chiamo": "Chiamo",
    "mediatore": "Mediatore",
    "solo": "Solo",
    "solissimo": "Solissimo",
    "arcisolissimo": "Arcisolissimo",
}
SIGNAL_TITLE = {"knock": "Knock (busso)", "fly": "Fly (volo)", "stroke": "Stroke (striscio)"}
PHASE_TEXT = {
    "auction": "Auction",
    "call": "Calling a card",
    "exchange": "Exchange with the monte",
    "play": "Trick play",
    "over": "Game over",
}
FIELD_MAX = 1024
DESC_MAX = 4096


def _clip(text: str, limit: int = FIELD_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "—"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _card(c: str) -> str:
    return italian_label(c)


def _signed(x: int) -> str:
    return f"+{x}" if x > 0 else str(x)


def _plays_text(plays: list[list[Any]], names: Sequence[str], signal: str | None) -> str:
    parts = []
    for i, (s, c) in enumerate(plays):
        t = f"{_name(names, s)}: **{_card(c)}**"
        if i == 0 and signal:
            t += f" ({SIGNAL_TITLE[signal]})"
        parts.append(t)
    return "\n".join(parts) or "—"


def _contract_line(view: dict[str, Any], names: Sequence[str]) -> str:
    c = view.get("contract")
    if c is None:
        return ""
    b = view["bidder"]
    lines = [f"**{CONTRACT_TITLE[c]}** by {_name(names, b)}"]
    called = view.get("called_card")
    if called:
        lines.append(f"Called card: **{_card(called)}**")
    if c == "chiamo" and called:
        st = view.get("partner_status")
        if st == "revealed":
            lines.append(f"Partner: {_name(names, view['partner'])}")
        elif st == "none":
            lines.append(f"{_name(names, b)} plays alone")
        else:
            lines.append("Partner: secret until the called card is played")
    elif c == "mediatore" and called:
        if view.get("giver") is not None:
            lines.append(f"{_name(names, view['giver'])} handed the called card over")
        elif view.get("called_in_monte"):
            lines.append("The called card was in the monte")
    if view.get("monte_exposed"):
        lines.append(f"Monte shown: {joined(italian_label, view['monte_exposed'])}")
    if c not in ("chiamo",) and view["phase"] in ("exchange", "play"):
        lines.append(f"{_name(names, b)} plays alone against the other three")
    return "\n".join(lines)


def _event_text(ev: dict[str, Any], names: Sequence[str]) -> str | None:
    k = ev.get("kind")
    n = lambda s: _name(names, s)  # noqa: E731
    if k == "deal":
        return f"Hand {ev['hand'] + 1}: {n(ev['dealer'])} deals."
    if k == "pass":
        return f"{n(ev['seat'])} passes."
    if k == "bid":
        return f"{n(ev['seat'])} bids {CONTRACT_TITLE[ev['contract']]}."
    if k == "thrown_in":
        return "Everybody passed: the hand is thrown in."
    if k == "contract":
        return f"{n(ev['seat'])} plays {CONTRACT_TITLE[ev['contract']]}."
    if k == "call":
        return f"{n(ev['seat'])} calls {_card(ev['card'])}."
    if k == "handover":
        return f"{n(ev['seat'])} hands {_card(ev['card'])} to {n(ev['to'])}."
    if k == "monte_exposed":
        return f"Monte shown: {joined(italian_label, ev['cards'])}."
    if k == "give_back":
        return f"{n(ev['seat'])} gives a card back to {n(ev['to'])}."
    if k == "exchange":
        return f"{n(ev['seat'])} exchanged with the monte."
    if k == "play":
        sig = f" — {SIGNAL_TITLE[ev['signal']]}" if ev.get("signal") else ""
        return f"{n(ev['seat'])} plays {_card(ev['card'])}{sig}."
    if k == "partner_revealed":
        if ev.get("alone"):
            return f"{n(ev['bidder'])} played the called card: no partner this hand."
        return f"{n(ev['seat'])} played the called card: {n(ev['seat'])} is {n(ev['bidder'])}'s partner!"
    if k == "trick":
        return f"{n(ev['winner'])} wins the trick."
    if k == "hand_end":
        res = "made it" if ev["made"] else "went down"
        cap = " (capotto)" if ev["capotto"] else ""
        return f"{CONTRACT_TITLE[ev['contract']]} by {n(ev['bidder'])} {res}{cap}."
    if k == "game_over":
        return "The game is over."
    return None


def _recent_events(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Events of the current hand (plus how the previous one ended): no stale card names."""
    evs: list[dict[str, Any]] = view.get("events", [])
    start = 0
    for i in range(len(evs) - 1, -1, -1):
        if evs[i].get("kind") == "deal":
            start = i
            break
    out = [e for e in evs[:start] if e.get("kind") in ("hand_end", "thrown_in", "game_over")][-1:]
    return out + evs[start:]


def public_panel(view: dict[str, Any], names: list[str]) -> Panel:
    ph = view["phase"]
    title = f"Mediatore — hand {view['hand_number'] + 1}"
    desc = [f"Dealer: {_name(names, view['dealer'])} · play goes anticlockwise (to the right)"]
    desc.append(f"Phase: {PHASE_TEXT.get(ph, ph)}")
    if view["to_move"]:
        desc.append("To act: " + ", ".join(_name(names, s) for s in view["to_move"]))
    panel = Panel(title=title, description=_clip("\n".join(desc), DESC_MAX))
    if view["auction"]:
        bids = [f"{_name(names, s)}: {CONTRACT_TITLE[c] if c else 'pass'}" for s, c in view["auction"]]
        panel.sections.append(Section("Auction", _clip(" · ".join(bids))))
    cl = _contract_line(view, names)
    if cl:
        panel.sections.append(Section("Contract", _clip(cl)))
    if ph == "play":
        tr = view["trick"]
        panel.sections.append(
            Section(
                f"Trick {view['trick_number']} of 9",
                _clip(_plays_text(tr["plays"], names, tr["signal"])),
                True,
            )
        )
        lt = view.get("last_trick")
        if lt:
            txt = _plays_text(lt["plays"], names, lt["signal"]) + f"\nWon by **{_name(names, lt['winner'])}**"
            panel.sections.append(Section("Last trick", _clip(txt), True))
        if view.get("history"):
            # show_history option (§11.2): every completed trick of this hand, one line each.
            rows = [
                f"{i + 1}. " + " ".join(_card(c) for _, c in t["plays"]) + f" → {_name(names, t['winner'])}"
                for i, t in enumerate(view["history"])
            ]
            panel.sections.append(Section("Tricks so far", _clip("\n".join(rows))))
        won = " · ".join(f"{_name(names, s)} {view['tricks_won'][s]}" for s in range(4))
        panel.sections.append(Section("Tricks won", _clip(won)))
        if view.get("thirds_won") is not None:
            pts = " · ".join(
                f"{_name(names, s)} {view['thirds_won'][s] // 3}{_frac(view['thirds_won'][s])}" for s in range(4)
            )
            panel.sections.append(Section("Card points taken", _clip(pts)))
    totals = view["totals"]
    stand = "\n".join(f"{_name(names, s)}: {_signed(totals[s])}" for s in range(4))
    limit = view.get("hands_limit") or 0
    played = view.get("hands_played", 0)
    head = f"Standings ({played}/{limit} hands)" if limit else f"Standings ({played} hands played)"
    panel.sections.append(Section(head, _clip(stand)))
    lh = view.get("last_hand")
    if lh:
        panel.sections.append(Section("Previous hand", _clip(_short_result(lh, names))))
    lines = [t for t in (_event_text(e, names) for e in _recent_events(view)[-8:]) if t]
    if lines:
        panel.sections.append(Section("Recent", _clip("\n".join(lines))))
    if ph == "over":
        best = max(totals)
        winners = [_name(names, s) for s in range(4) if totals[s] == best]
        panel.footer = "Winner: " + ", ".join(winners)
    return panel


def _frac(thirds: int) -> str:
    return {0: "", 1: "⅓", 2: "⅔"}[thirds % 3]


def _short_result(s: dict[str, Any], names: Sequence[str]) -> str:
    res = "made it" if s["made"] else "went down"
    cap = ", capotto" if s["capotto"] else ""
    who = _name(names, s["bidder"])
    if s.get("partner") is not None:
        who += f" & {_name(names, s['partner'])}"
    pay = ", ".join(f"{_name(names, i)} {_signed(x)}" for i, x in enumerate(s["payments"]))
    return f"{CONTRACT_TITLE[s['contract']]}: {who} {res} with {s['bidder_side_points']} points{cap}.\n{pay}"


def _hand_text(hand: list[str]) -> str:
    rows = []
    for suit in "DCSB":
        cards = [c for c in hand if c[1] == suit]
        if cards:
            rows.append(f"{ITALIAN_SUIT[suit]} {ITALIAN_SUIT_NAME[suit]}: " + " ".join(_card(c) for c in cards))
    return "\n".join(rows) or "—"


def _role_text(view: dict[str, Any], names: Sequence[str]) -> str:
    role = view.get("role")
    if not role:
        return ""
    side = role.get("side")
    if side == "partner":
        return f"🤫 You hold the called card: you are **{_name(names, role['partner_of'])}'s partner**. Keep it secret!"
    if side == "bidder":
        if view.get("contract") == "chiamo":
            if role.get("alone"):
                return "The called card is in the monte: **you play alone** (nobody else knows)."
            return "You are the bidder; your partner is whoever holds the called card."
        return "You are the bidder and play alone against the other three."
    return "You are a defender."


def _action_label(a: dict[str, Any]) -> str:
    t = a["type"]
    if t == "pass":
        return "Pass"
    if t == "bid":
        return f"Bid {CONTRACT_TITLE[a['contract']]}"
    if t == "call":
        return f"Call {_card(a['card'])}"
    if t == "play":
        base = f"{_card(a['card'])}"
        if a.get("signal"):
            base += f" + {SIGNAL_TITLE[a['signal']]}"
        return base
    return t


def private_panel(view: dict[str, Any], names: list[str]) -> Panel:
    seat = view["seat"]
    panel = Panel(title=f"Mediatore — {_name(names, seat)}'s hand")
    desc = [_role_text(view, names)]
    cl = _contract_line(view, names)
    if cl:
        desc.append(cl)
    panel.sections.append(Section("Your hand", _clip(_hand_text(view["hand"]))))
    priv = view.get("private") or {}
    if priv.get("monte_seen"):
        panel.sections.append(Section("Monte (only you saw it)", joined(italian_label, priv["monte_seen"])))
    if priv.get("discards"):
        panel.sections.append(Section("Your discards (new monte)", joined(italian_label, priv["discards"])))
    if priv.get("given_back"):
        panel.sections.append(
            Section("Card you gave back", f"{_card(priv['given_back'])} to {_name(names, view.get('giver'))}")
        )
    if priv.get("received"):
        panel.sections.append(Section("Card you received", _card(priv["received"])))
    if view["phase"] == "play":
        tr = view["trick"]
        panel.sections.append(Section("Current trick", _clip(_plays_text(tr["plays"], names, tr["signal"]))))
    prompt = view.get("prompt")
    if prompt is None:
        if view["to_move"]:
            desc.append("Waiting for " + ", ".join(_name(names, s) for s in view["to_move"]) + ".")
    elif prompt["kind"] == "combo":
        fields = []
        for f in prompt["fields"]:
            opts = [(_card(c), c) for c in f["from"]]
            if f["key"] == "give":
                ph = f"Choose 1 card to give back to {_name(names, view.get('giver'))}"
            else:
                ph = f"Choose {f['count']} cards for the new monte"
            fields.append(ComboField(f["key"], ph, opts, f["count"]))
        panel.controls.append(
            Control(
                "combo",
                "Confirm the exchange",
                base_action={"type": prompt["type"], **prompt["fixed"]},
                fields=fields,
            )
        )
        desc.append("Your turn: " + " and ".join(f.placeholder.lower() for f in fields) + ".")
    else:
        actions = prompt["actions"]
        ph = view["phase"]
        if ph == "auction":
            desc.append("Your turn to bid or pass.")
            choices = [Choice(_action_label(a), a, "secondary" if a["type"] == "pass" else "primary") for a in actions]
            panel.controls += split_choices(choices, "Bid")
        elif ph == "call":
            desc.append("Name the card to call (any card not in your hand).")
            # One select per suit (at most 10 options each, 4 rows in all), high cards first.
            for suit in "DCSB":
                acts = sorted((a for a in actions if a["card"][1] == suit), key=lambda a: sort_key(a["card"]))
                if acts:
                    choices = [Choice(_action_label(a), a, description=italian_long(a["card"])) for a in acts]
                    panel.controls.append(Control("select", f"Call a {ITALIAN_SUIT_NAME[suit]} card", choices))
        else:
            ordered = sorted(actions, key=lambda a: sort_key(a["card"]))
            plain = [a for a in ordered if not a.get("signal")]
            signalled = [a for a in ordered if a.get("signal")]
            desc.append("Your turn: play a card" + (" (you may add a signal)." if signalled else "."))
            panel.controls += split_choices([Choice(_action_label(a), a, "primary") for a in plain], "Play a card")
            if signalled:
                panel.controls += split_choices(
                    [Choice(_action_label(a), a) for a in signalled],
                    "Play a card with a signal",
                    prefer_buttons=False,
                )
    panel.description = _clip("\n".join(d for d in desc if d), DESC_MAX)
    standing = view["totals"][seat]
    panel.footer = f"Your standing: {_signed(standing)}"
    return panel


def settlement_text(settlement: Settlement, names: list[str]) -> str:
    s = settlement.summary
    b = s["bidder"]
    lines = [f"**Hand {s['hand'] + 1} — {CONTRACT_TITLE[s['contract']]} by {_name(names, b)}**"]
    if s.get("called_card"):
        lines.append(f"Called card: {_card(s['called_card'])}")
    if s["contract"] == "chiamo":
        if s.get("partner") is not None:
            lines.append(f"Partner: {_name(names, s['partner'])}")
        else:
            lines.append("The called card was in the monte: the bidder played alone.")
    elif s["contract"] == "mediatore":
        if s.get("giver") is not None:
            lines.append(f"Giver: {_name(names, s['giver'])}")
        else:
            lines.append("The called card was in the monte.")
    lines.append(f"Monte dealt: {joined(italian_label, s['monte'])}")
    if s.get("discards"):
        lines.append(f"Bidder's discards: {joined(italian_label, s['discards'])}")
    if s.get("returned_card"):
        lines.append(f"Card given back: {_card(s['returned_card'])}")
    lines.append(f"Last trick (and monte): {_name(names, s['last_trick_winner'])}")
    cc = s.get("counting_cards") or {}
    if cc:
        lines.append(f"Bidder's side counting cards: {joined(italian_label, cc['bidder_side'])}")
        lines.append(f"Defenders' counting cards: {joined(italian_label, cc['defenders'])}")
    bt, dt = s["bidder_side_thirds"], s["defender_thirds"]
    lines.append(
        f"Bidder's side: {bt // 3}{_frac(bt)} → **{s['bidder_side_points']}** points · "
        f"defenders: {dt // 3}{_frac(dt)} → **{s['defender_points']}** points"
    )
    res = "✅ made" if s["made"] else "❌ went down"
    if s["capotto"]:
        res += " — capotto! (+2 on every stake)"
    lines.append(res)
    unit = s.get("stake_unit", 1)
    lines.append("Payments" + (f" (× {unit})" if unit != 1 else "") + ":")
    for i, x in enumerate(settlement.amounts["stake"]):
        lines.append(f"• {_name(names, i)}: {_signed(x)}")
    return _clip("\n".join(lines), DESC_MAX)


def rules_text() -> str:
    return (
        "**Mediatore** — 4 players, 40 Italian cards, no trumps; play goes anticlockwise (to the right).\n"
        "**Cards:** 3 > 2 > A > K > C(avallo) > J > 7 > 6 > 5 > 4 in each suit. Ace = 1 point; "
        "3, 2, K, C, J = ⅓ point; the rest 0. The last trick is worth 1 point. "
        "Points are rounded down (11 in all).\n"
        "**Deal:** 9 cards each in threes; 4 cards form the face-down *monte*. The deal moves right.\n"
        "**Auction** (from the dealer's right): pass or bid higher — Chiamo < Mediatore < Solo < "
        "Solissimo < Arcisolissimo. Passing is not final. Three passes after a bid end it "
        "(Arcisolissimo ends it at once); four passes throw the hand in.\n"
        "**Chiamo:** call a card you lack; its holder is your secret partner (revealed when it is played). "
        "You take the monte unseen and put 4 cards back. If the card was in the monte you play alone.\n"
        "**Mediatore:** call a card; its holder hands it to you. The monte is shown, you take it, put 4 "
        "cards back and give 1 card to the giver. You play alone.\n"
        "**Solo:** the monte is shown, you take it and put 4 back; alone. **Solissimo:** you may look at the "
        "monte privately; alone. **Arcisolissimo:** no monte; alone.\n"
        "**Play:** the dealer's right leads; follow suit if you can; the highest card of the led suit wins. "
        "The last trick's winners also take the monte. The bidder's side needs 6 points.\n"
        "**Signals** (leader only, if enabled): Knock = win and return this suit; Fly = that was my last "
        "card of the suit; Stroke = I hold only 1–2 low cards (7–4) of it. Fly and Stroke must be true.\n"
        "**Payments** (stake units; reversed if the bidder loses):\n"
        "• Chiamo: bidder +5, partner +3, defenders −4 each; alone: +12, defenders −4 each\n"
        "• Mediatore: giver −6, other two −8 (bidder +22); card in the monte: −8 each (+24)\n"
        "• Solo −12 each (+36) · Solissimo −16 each (+48) · Arcisolissimo −18 each (+54)\n"
        "Capotto (one side takes all 9 tricks): every individual stake +2.\n"
        "Options: `stake` (unit value), `signals` (on/off), `hands` (0 = play until the table stops), "
        "`show_history` (show older tricks and points)."
    )


def card_label(card: str) -> str:
    return italian_label(card)


def lobby_note(seats: int) -> str:
    return ""


def describe(action: dict[str, Any], before: dict[str, Any]) -> str | None:
    """What the table learns from a non-play action (replays, the terminal game); ``None``: use its notation."""
    t = action.get("type")
    if t == "pass":
        return "passes"
    if t == "bid":
        return f"bids {str(action.get('contract')).capitalize()}"
    if t == "call":
        return f"calls {_card(str(action.get('card')))}"
    if t == "discard":
        return "exchanges with the monte" + (" and gives a card back" if "give" in action else "")
    return None


def after_action(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    return []

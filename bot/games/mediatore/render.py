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
from bot.i18n import N_, _, _n, _p, num
from bot.render.base import Choice, ComboField, Control, Panel, SeatPlate, Section, fit, split_choices
from bot.render.cards import ITALIAN_SUIT, italian_label, italian_long, italian_suit_name, joined

# the views' pictures, offered with the panels (bot.games.spec.Pictures)
from .pictures import hand_picture as hand_picture
from .pictures import reveal_picture as reveal_picture
from .pictures import table_picture as table_picture

# msgids marked here, translated where they are shown (the reader's locale is only known then)
_CONTRACT = {
    "chiamo": N_("Chiamo"),
    "mediatore": N_("Mediatore"),
    "solo": N_("Solo"),
    "solissimo": N_("Solissimo"),
    "arcisolissimo": N_("Arcisolissimo"),
}
_SIGNAL = {"knock": N_("Knock (busso)"), "fly": N_("Fly (volo)"), "stroke": N_("Stroke (striscio)")}
_PHASE = {
    "auction": N_("Auction"),
    "call": N_("Calling a card"),
    "exchange": N_("Exchange with the monte"),
    "play": N_("Trick play"),
    "over": N_("Game over"),
}


def contract_title(contract: str) -> str:
    return _(_CONTRACT[contract])


def signal_title(signal: str) -> str:
    return _(_SIGNAL[signal])


def phase_text(phase: str) -> str:
    return _(_PHASE[phase]) if phase in _PHASE else phase


FIELD_MAX = 1024
DESC_MAX = 4096


def _clip(text: str, limit: int = FIELD_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "—"
    return names[seat] if 0 <= seat < len(names) else _("Seat {n}", n=seat + 1)


def _card(c: str) -> str:
    return italian_label(c)


def _signed(x: int) -> str:
    return f"+{num(x)}" if x > 0 else num(x)


def _plays_text(plays: list[list[Any]], names: Sequence[str], signal: str | None) -> str:
    parts = []
    for i, (s, c) in enumerate(plays):
        t = f"{_name(names, s)}: **{_card(c)}**"
        if i == 0 and signal:
            t += f" ({signal_title(signal)})"
        parts.append(t)
    return "\n".join(parts) or "—"


def _contract_line(view: dict[str, Any], names: Sequence[str]) -> str:
    c = view.get("contract")
    if c is None:
        return ""
    b = view["bidder"]
    lines = [_("**{contract}** by {name}", contract=contract_title(c), name=_name(names, b))]
    called = view.get("called_card")
    if called:
        lines.append(_("Called card: **{card}**", card=_card(called)))
    if c == "chiamo" and called:
        st = view.get("partner_status")
        if st == "revealed":
            lines.append(_("Partner: {name}", name=_name(names, view["partner"])))
        elif st == "none":
            lines.append(_("{name} plays alone", name=_name(names, b)))
        else:
            lines.append(_("Partner: secret until the called card is played"))
    elif c == "mediatore" and called:
        if view.get("giver") is not None:
            lines.append(_("{name} handed the called card over", name=_name(names, view["giver"])))
        elif view.get("called_in_monte"):
            lines.append(_("The called card was in the monte"))
    if view.get("monte_exposed"):
        lines.append(_("Monte shown: {cards}", cards=joined(italian_label, view["monte_exposed"])))
    if c not in ("chiamo",) and view["phase"] in ("exchange", "play"):
        lines.append(_("{name} plays alone against the other three", name=_name(names, b)))
    return "\n".join(lines)


def _event_text(ev: dict[str, Any], names: Sequence[str]) -> str | None:
    k = ev.get("kind")
    n = lambda s: _name(names, s)  # noqa: E731
    if k == "deal":
        return _("Hand {hand}: {name} deals.", hand=ev["hand"] + 1, name=n(ev["dealer"]))
    if k == "pass":
        return _("{name} passes.", name=n(ev["seat"]))
    if k == "bid":
        return _("{name} bids {contract}.", name=n(ev["seat"]), contract=contract_title(ev["contract"]))
    if k == "thrown_in":
        return _("Everybody passed: the hand is thrown in.")
    if k == "contract":
        return _("{name} plays {contract}.", name=n(ev["seat"]), contract=contract_title(ev["contract"]))
    if k == "call":
        return _("{name} calls {card}.", name=n(ev["seat"]), card=_card(ev["card"]))
    if k == "handover":
        return _("{name} hands {card} to {other}.", name=n(ev["seat"]), card=_card(ev["card"]), other=n(ev["to"]))
    if k == "monte_exposed":
        return _("Monte shown: {cards}.", cards=joined(italian_label, ev["cards"]))
    if k == "give_back":
        return _("{name} gives a card back to {other}.", name=n(ev["seat"]), other=n(ev["to"]))
    if k == "exchange":
        return _("{name} exchanged with the monte.", name=n(ev["seat"]))
    if k == "play":
        if ev.get("signal"):
            return _(
                "{name} plays {card} — {signal}.",
                name=n(ev["seat"]),
                card=_card(ev["card"]),
                signal=signal_title(ev["signal"]),
            )
        return _("{name} plays {card}.", name=n(ev["seat"]), card=_card(ev["card"]))
    if k == "partner_revealed":
        if ev.get("alone"):
            return _("{name} played the called card: no partner this hand.", name=n(ev["bidder"]))
        return _("{name} played the called card and is {bidder}'s partner!", name=n(ev["seat"]), bidder=n(ev["bidder"]))
    if k == "trick":
        return _("{name} wins the trick.", name=n(ev["winner"]))
    if k == "hand_end":
        c, who = contract_title(ev["contract"]), n(ev["bidder"])
        if ev["made"]:
            if ev["capotto"]:
                return _("{contract} by {name} made it (capotto).", contract=c, name=who)
            return _("{contract} by {name} made it.", contract=c, name=who)
        if ev["capotto"]:
            return _("{contract} by {name} went down (capotto).", contract=c, name=who)
        return _("{contract} by {name} went down.", contract=c, name=who)
    if k == "game_over":
        return _("The game is over.")
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
    title = _("Mediatore — hand {n}", n=view["hand_number"] + 1)
    desc = [_("Dealer: {name} · play goes anticlockwise (to the right)", name=_name(names, view["dealer"]))]
    desc.append(_("Phase: {phase}", phase=phase_text(ph)))
    if view["to_move"]:
        desc.append(_("To act: {names}", names=", ".join(_name(names, s) for s in view["to_move"])))
    panel = Panel(title=title, description=_clip("\n".join(desc), DESC_MAX))
    if view["auction"]:
        passed = _p("auction", "pass")
        bids = [f"{_name(names, s)}: {contract_title(c) if c else passed}" for s, c in view["auction"]]
        panel.sections.append(Section(_("Auction"), _clip(" · ".join(bids))))
    cl = _contract_line(view, names)
    if cl:
        panel.sections.append(Section(_("Contract"), _clip(cl)))
    if ph == "play":
        tr = view["trick"]
        panel.sections.append(
            Section(
                _("Trick {n} of 9", n=view["trick_number"]),
                _clip(_plays_text(tr["plays"], names, tr["signal"])),
                True,
            )
        )
        lt = view.get("last_trick")
        if lt:
            txt = (
                _plays_text(lt["plays"], names, lt["signal"])
                + "\n"
                + _("Won by **{name}**", name=_name(names, lt["winner"]))
            )
            # i18n: the trick just played (not the hand's final trick, which scores a point)
            panel.sections.append(Section(_("Previous trick"), _clip(txt), True))
        if view.get("history"):
            # show_history option (§11.2): every completed trick of this hand, one line each.
            rows = [
                f"{i + 1}. " + " ".join(_card(c) for _, c in t["plays"]) + f" → {_name(names, t['winner'])}"
                for i, t in enumerate(view["history"])
            ]
            panel.sections.append(Section(_("Tricks so far"), _clip("\n".join(rows))))
        won = " · ".join(f"{_name(names, s)} {view['tricks_won'][s]}" for s in range(4))
        panel.sections.append(Section(_("Tricks won"), _clip(won)))
        if view.get("thirds_won") is not None:
            pts = " · ".join(
                f"{_name(names, s)} {view['thirds_won'][s] // 3}{_frac(view['thirds_won'][s])}" for s in range(4)
            )
            panel.sections.append(Section(_("Card points taken"), _clip(pts)))
    totals = view["totals"]
    stand = "\n".join(f"{_name(names, s)}: {_signed(totals[s])}" for s in range(4))
    limit = view.get("hands_limit") or 0
    played = view.get("hands_played", 0)
    if limit:
        head = _n("Standings ({played}/{n} hand)", "Standings ({played}/{n} hands)", limit, played=played)
    else:
        head = _n("Standings ({n} hand played)", "Standings ({n} hands played)", played)
    panel.sections.append(Section(head, _clip(stand)))
    lh = view.get("last_hand")
    if lh:
        panel.sections.append(Section(_("Previous hand"), _clip(_short_result(lh, names))))
    lines = [t for t in (_event_text(e, names) for e in _recent_events(view)[-8:]) if t]
    if lines:
        panel.sections.append(Section(_("Recent"), _clip("\n".join(lines))))
    if ph == "over":
        best = max(totals)
        winners = [_name(names, s) for s in range(4) if totals[s] == best]
        panel.footer = _("Winner: {names}", names=", ".join(winners))
    return fit(panel)


def _frac(thirds: int) -> str:
    return {0: "", 1: "⅓", 2: "⅔"}[thirds % 3]


def _short_result(s: dict[str, Any], names: Sequence[str]) -> str:
    who = _name(names, s["bidder"])
    if s.get("partner") is not None:
        who += f" & {_name(names, s['partner'])}"
    pay = ", ".join(f"{_name(names, i)} {_signed(x)}" for i, x in enumerate(s["payments"]))
    args = {"contract": contract_title(s["contract"]), "who": who, "n": s["bidder_side_points"]}
    if s["made"]:
        if s["capotto"]:
            res = _n(
                "{contract}: {who} made it with {n} point, capotto.",
                "{contract}: {who} made it with {n} points, capotto.",
                **args,
            )
        else:
            res = _n("{contract}: {who} made it with {n} point.", "{contract}: {who} made it with {n} points.", **args)
    elif s["capotto"]:
        res = _n(
            "{contract}: {who} went down with {n} point, capotto.",
            "{contract}: {who} went down with {n} points, capotto.",
            **args,
        )
    else:
        res = _n("{contract}: {who} went down with {n} point.", "{contract}: {who} went down with {n} points.", **args)
    return f"{res}\n{pay}"


def _hand_text(hand: list[str]) -> str:
    rows = []
    for suit in "DCSB":
        cards = [c for c in hand if c[1] == suit]
        if cards:
            rows.append(f"{ITALIAN_SUIT[suit]} {italian_suit_name(suit)}: " + " ".join(_card(c) for c in cards))
    return "\n".join(rows) or "—"


def _role_text(view: dict[str, Any], names: Sequence[str]) -> str:
    role = view.get("role")
    if not role:
        return ""
    side = role.get("side")
    if side == "partner":
        return _(
            "🤫 You hold the called card: you are **{name}'s partner**. Keep it secret!",
            name=_name(names, role["partner_of"]),
        )
    if side == "bidder":
        if view.get("contract") == "chiamo":
            if role.get("alone"):
                return _("The called card is in the monte: **you play alone** (nobody else knows).")
            return _("You are the bidder; your partner is whoever holds the called card.")
        return _("You are the bidder and play alone against the other three.")
    return _("You are a defender.")


def _action_label(a: dict[str, Any]) -> str:
    t = a["type"]
    if t == "pass":
        return _p("button", "Pass")
    if t == "bid":
        return _("Bid {contract}", contract=contract_title(a["contract"]))
    if t == "call":
        return _("Call {card}", card=_card(a["card"]))
    if t == "play":
        base = f"{_card(a['card'])}"
        if a.get("signal"):
            base += f" + {signal_title(a['signal'])}"
        return base
    return t


#: the call menus' placeholders, one msgid per suit (some languages decline the suit's name)
_CALL_SUIT = {
    "D": lambda: _("Call a Denari card"),
    "C": lambda: _("Call a Coppe card"),
    "S": lambda: _("Call a Spade card"),
    "B": lambda: _("Call a Bastoni card"),
}


def private_panel(view: dict[str, Any], names: list[str]) -> Panel:
    seat = view["seat"]
    # only this seat sees the panel (a DM, a private reply, the terminal): it speaks to its player
    panel = Panel(title=_("Mediatore — your hand"))
    desc = [_role_text(view, names)]
    cl = _contract_line(view, names)
    if cl:
        desc.append(cl)
    panel.sections.append(Section(_("Your hand"), _clip(_hand_text(view["hand"]))))
    priv = view.get("private") or {}
    if priv.get("monte_seen"):
        panel.sections.append(Section(_("Monte (only you saw it)"), joined(italian_label, priv["monte_seen"])))
    if priv.get("discards"):
        panel.sections.append(Section(_("Your discards (new monte)"), joined(italian_label, priv["discards"])))
    if priv.get("given_back"):
        panel.sections.append(
            Section(
                _("Card you gave back"),
                _("{card} to {name}", card=_card(priv["given_back"]), name=_name(names, view.get("giver"))),
            )
        )
    if priv.get("received"):
        panel.sections.append(Section(_("Card you received"), _card(priv["received"])))
    if view["phase"] == "play":
        tr = view["trick"]
        panel.sections.append(Section(_("Current trick"), _clip(_plays_text(tr["plays"], names, tr["signal"]))))
    prompt = view.get("prompt")
    if prompt is None:
        if view["to_move"]:
            desc.append(_("Waiting for {names}.", names=", ".join(_name(names, s) for s in view["to_move"])))
    elif prompt["kind"] == "combo":
        fields = []
        todo = []
        for f in prompt["fields"]:
            opts = [(_card(c), c) for c in f["from"]]
            if f["key"] == "give":
                ph = _("Choose 1 card to give back to {name}", name=_name(names, view.get("giver")))
                todo.append(_("choose 1 card to give back to {name}", name=_name(names, view.get("giver"))))
            else:
                ph = _n("Choose {n} card for the new monte", "Choose {n} cards for the new monte", f["count"])
                todo.append(_n("choose {n} card for the new monte", "choose {n} cards for the new monte", f["count"]))
            fields.append(ComboField(f["key"], ph, opts, f["count"]))
        panel.controls.append(
            Control(
                "combo",
                _("Confirm the exchange"),
                base_action={"type": prompt["type"], **prompt["fixed"]},
                fields=fields,
            )
        )
        if len(todo) == 2:
            desc.append(_("Your turn: {first} and {second}.", first=todo[0], second=todo[1]))
        else:
            desc.append(_("Your turn: {what}.", what=", ".join(todo)))
    else:
        actions = prompt["actions"]
        ph = view["phase"]
        if ph == "auction":
            desc.append(_("Your turn to bid or pass."))
            choices = [Choice(_action_label(a), a, "secondary" if a["type"] == "pass" else "primary") for a in actions]
            panel.controls += split_choices(choices, _p("placeholder", "Bid"))
        elif ph == "call":
            desc.append(_("Name the card to call (any card not in your hand)."))
            # One select per suit (at most 10 options each, 4 rows in all), high cards first.
            for suit in "DCSB":
                acts = sorted((a for a in actions if a["card"][1] == suit), key=lambda a: sort_key(a["card"]))
                if acts:
                    choices = [Choice(_action_label(a), a, description=italian_long(a["card"])) for a in acts]
                    panel.controls.append(Control("select", _CALL_SUIT[suit](), choices))
        else:
            ordered = sorted(actions, key=lambda a: sort_key(a["card"]))
            plain = [a for a in ordered if not a.get("signal")]
            signalled = [a for a in ordered if a.get("signal")]
            desc.append(
                _("Your turn: play a card (you may add a signal).") if signalled else _("Your turn: play a card.")
            )
            panel.controls += split_choices([Choice(_action_label(a), a, "primary") for a in plain], _("Play a card"))
            if signalled:
                panel.controls += split_choices(
                    [Choice(_action_label(a), a) for a in signalled],
                    _("Play a card with a signal"),
                    prefer_buttons=False,
                )
    panel.description = _clip("\n".join(d for d in desc if d), DESC_MAX)
    standing = view["totals"][seat]
    panel.footer = _("Your standing: {amount}", amount=_signed(standing))
    return fit(panel)


def settlement_text(settlement: Settlement, names: list[str]) -> str:
    s = settlement.summary
    b = s["bidder"]
    lines = [
        _(
            "**Hand {n} — {contract} by {name}**",
            n=s["hand"] + 1,
            contract=contract_title(s["contract"]),
            name=_name(names, b),
        )
    ]
    if s.get("called_card"):
        lines.append(_("Called card: {card}", card=_card(s["called_card"])))
    if s["contract"] == "chiamo":
        if s.get("partner") is not None:
            lines.append(_("Partner: {name}", name=_name(names, s["partner"])))
        else:
            lines.append(_("The called card was in the monte: the bidder played alone."))
    elif s["contract"] == "mediatore":
        if s.get("giver") is not None:
            lines.append(_("Giver: {name}", name=_name(names, s["giver"])))
        else:
            lines.append(_("The called card was in the monte."))
    lines.append(_("Monte dealt: {cards}", cards=joined(italian_label, s["monte"])))
    if s.get("discards"):
        lines.append(_("Bidder's discards: {cards}", cards=joined(italian_label, s["discards"])))
    if s.get("returned_card"):
        lines.append(_("Card given back: {card}", card=_card(s["returned_card"])))
    # i18n: the hand's final (ninth) trick, worth a point and the monte — not the trick just played
    lines.append(_("Final trick (and monte): {name}", name=_name(names, s["last_trick_winner"])))
    cc = s.get("counting_cards") or {}
    if cc:
        lines.append(_("Bidder's side counting cards: {cards}", cards=joined(italian_label, cc["bidder_side"])))
        lines.append(_("Defenders' counting cards: {cards}", cards=joined(italian_label, cc["defenders"])))
    bt, dt = s["bidder_side_thirds"], s["defender_thirds"]
    taken, taken_d = f"{bt // 3}{_frac(bt)}", f"{dt // 3}{_frac(dt)}"
    lines.append(
        _(
            "Bidder's side: {taken} → {points} · defenders: {taken_d} → {points_d}",
            taken=taken,
            points=_n("**{n}** point", "**{n}** points", s["bidder_side_points"]),
            taken_d=taken_d,
            points_d=_n("**{n}** point", "**{n}** points", s["defender_points"]),
        )
    )
    res = _("✅ made") if s["made"] else _("❌ went down")
    if s["capotto"]:
        res += " — " + _("capotto! (+2 on every stake)")
    lines.append(res)
    unit = s.get("stake_unit", 1)
    lines.append(_("Payments (× {unit}):", unit=unit) if unit != 1 else _("Payments:"))
    for i, x in enumerate(settlement.amounts["stake"]):
        lines.append(f"• {_name(names, i)}: {_signed(x)}")
    return _clip("\n".join(lines), DESC_MAX)


def rules_text() -> str:
    # one msgid per paragraph: a translator sees a whole rule at once, and a change re-translates one paragraph
    return "\n".join(
        [
            _("**Mediatore** — 4 players, 40 Italian cards, no trumps; play goes anticlockwise (to the right)."),
            _(
                "**Cards:** 3 > 2 > A > K > C(avallo) > J > 7 > 6 > 5 > 4 in each suit. Ace = 1 point; "
                "3, 2, K, C, J = ⅓ point; the rest 0. The final trick is worth 1 point. "
                "Points are rounded down (11 in all)."
            ),
            _("**Deal:** 9 cards each in threes; 4 cards form the face-down *monte*. The deal moves right."),
            _(
                "**Auction** (from the dealer's right): pass or bid higher — Chiamo < Mediatore < Solo < "
                "Solissimo < Arcisolissimo. Passing is not final. Three passes after a bid end it "
                "(Arcisolissimo ends it at once); four passes throw the hand in."
            ),
            _(
                "**Chiamo:** call a card you lack; its holder is your secret partner (revealed when it is played). "
                "You take the monte unseen and put 4 cards back. If the card was in the monte you play alone."
            ),
            _(
                "**Mediatore:** call a card; its holder hands it to you. The monte is shown, you take it, put 4 "
                "cards back and give 1 card to the giver. You play alone."
            ),
            _(
                "**Solo:** the monte is shown, you take it and put 4 back; alone. **Solissimo:** you may look at the "
                "monte privately; alone. **Arcisolissimo:** no monte; alone."
            ),
            _(
                "**Play:** the dealer's right leads; follow suit if you can; the highest card of the led suit wins. "
                "The final trick's winners also take the monte. The bidder's side needs 6 points."
            ),
            _(
                "**Signals** (leader only, if enabled): Knock = win and return this suit; Fly = that was my last "
                "card of the suit; Stroke = I hold only 1–2 low cards (7–4) of it. Fly and Stroke must be true."
            ),
            _("**Payments** (stake units; reversed if the bidder loses):"),
            _("• Chiamo: bidder +5, partner +3, defenders −4 each; alone: +12, defenders −4 each"),
            _("• Mediatore: giver −6, other two −8 (bidder +22); card in the monte: −8 each (+24)"),
            _("• Solo −12 each (+36) · Solissimo −16 each (+48) · Arcisolissimo −18 each (+54)"),
            _("Capotto (one side takes all 9 tricks): every individual stake +2."),
            _(
                "Options: `stake` (unit value), `signals` (on/off), `hands` (0 = play until the table stops), "
                "`show_history` (show older tricks and points)."
            ),
        ]
    )


def card_label(card: str) -> str:
    return italian_label(card)


def lobby_note(seats: int) -> str:
    return ""


def describe(action: dict[str, Any], before: dict[str, Any]) -> str | None:
    """What the table learns from a non-play action (replays, the terminal game); ``None``: use its notation."""
    t = action.get("type")
    if t == "pass":
        return _("passes")
    if t == "bid":
        c = str(action.get("contract"))
        return _("bids {contract}", contract=contract_title(c) if c in _CONTRACT else c.capitalize())
    if t == "call":
        return _("calls {card}", card=_card(str(action.get("card"))))
    if t == "discard":
        return (
            _("exchanges with the monte and gives a card back") if "give" in action else _("exchanges with the monte")
        )
    return None


def after_action(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    return []


def seat_plates(view: dict[str, Any], names: list[str]) -> list[SeatPlate]:
    """Each seat's plate from the public view: its last bid in the auction, then the contract on the bidder, the
    partner once public, tricks of the hand and the standing."""
    n = view["num_seats"]
    said: dict[int, str] = {int(s): str(c) for s, c in view.get("auction") or []}
    bidder, partner = view.get("bidder"), view.get("partner")
    plates = []
    for s in range(n):
        bid = role = None
        if view.get("contract") is None:
            c = said.get(s)
            bid = contract_title(c) if c in _CONTRACT else None
        elif s == bidder:
            role = _p("seat plate", "Bidder")
            bid = contract_title(view["contract"]) if view["contract"] in _CONTRACT else None
        elif partner is not None and s == partner:
            role = _p("seat plate", "Partner")
        plates.append(
            SeatPlate(
                bid=bid,
                tricks=view["tricks_won"][s] if view.get("contract") is not None else None,
                score=view["totals"][s],
                dealer=s == view.get("dealer"),
                role=role,
                passed=view.get("contract") is None and said.get(s) == "pass",
            )
        )
    return plates

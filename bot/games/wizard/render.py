"""Wizard panels: the public table message, one seat's DM, the final summary and a rules digest.

Built only from ``WizardGame.public_view()`` / ``view(seat)`` dicts (never from the game object), with
card text from :mod:`bot.render.cards`.
"""

from __future__ import annotations

from typing import Any

from bot.engine.protocol import Action, Settlement
from bot.games.wizard.engine import sort_hand
from bot.i18n import _, _n, _p, signed
from bot.render.base import MAX_ROWS, Choice, Control, Panel, SeatPlate, Section, fit, split_choices
from bot.render.cards import FRENCH_SUIT, french_suit_name, joined, wizard_label

# the views' pictures, offered with the panels (bot.games.spec.Pictures)
from .pictures import hand_picture as hand_picture
from .pictures import reveal_picture as reveal_picture
from .pictures import table_picture as table_picture

FIELD_MAX = 1024
DESC_MAX = 4096
SUIT_ORDER = ("S", "H", "D", "C")


def _clip(text: str, limit: int = FIELD_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("Seat {n}", n=seat + 1)


def _card(c: str) -> str:
    return wizard_label(c)


def _trump_line(view: dict[str, Any], names: list[str]) -> str:
    ind = view["indicator"]
    trump = view["trump"]
    dealer = _name(names, view["dealer"])
    if ind is None:
        return _("Trump: **none** (every card is dealt in this round)")
    shown = _card(ind)
    if view["trump_pending"]:
        return _("Turned: {card} — **{name}** chooses the trump suit", card=shown, name=dealer)
    if trump is None:
        if ind.startswith("JES"):
            return _("Turned: {card} — **no trump** (a Jester was turned)", card=shown)
        # the table's wizard_turned=no_trump option (the official rule lets the dealer choose)
        return _("Turned: {card} — **no trump** (a turned Wizard means no trump at this table)", card=shown)
    suit = f"{FRENCH_SUIT[trump]} {french_suit_name(trump)}"
    if ind.startswith("WIZ"):
        return _("Turned: {card} — {name} chose **{suit}** as trump", card=shown, name=dealer, suit=suit)
    return _("Trump: **{suit}** (turned {card})", suit=suit, card=shown)


def _bid_text(view: dict[str, Any], seat: int) -> str:
    b = view["bids"][seat]
    if b is not None:
        return str(b)
    return "✓" if view["has_bid"][seat] else "…"


def _turn_line(view: dict[str, Any], names: list[str]) -> str:
    ph = view["phase"]
    who = ", ".join(_name(names, s) for s in view["to_move"])
    if ph == "over":
        return _("**Game over.**")
    if ph == "trump":
        return _("Waiting for **{names}** to choose trump.", names=who)
    if ph == "bid":
        if view["bid_mode"] == "open":
            return _("**{names}** to bid.", names=who)
        return _("Waiting for bids from: **{names}**.", names=who)
    return _("**{names}** to play.", names=who)


def _seat_lines(view: dict[str, Any], names: list[str]) -> str:
    lines = []
    turn = set(view["to_move"])
    for s in range(view["num_seats"]):
        mark = "▶ " if s in turn else ""
        dealer = " 🂠" if s == view["dealer"] else ""
        lines.append(
            mark
            + _(
                "**{name}**{dealer} — bid {bid} · tricks {tricks} · cards {cards} · total {total}",
                name=_name(names, s),
                dealer=dealer,
                bid=_bid_text(view, s),
                tricks=view["tricks"][s],
                cards=view["hand_counts"][s],
                total=view["totals"][s],
            )
        )
    return _clip("\n".join(lines))


def _bids_summary(view: dict[str, Any]) -> str | None:
    total = view["bids_total"]
    if total is None or not all(b is not None for b in view["bids"]):
        if view["bid_mode"] == "secret" and view["phase"] == "play":
            return _("Bids are secret until the end of the round.")
        return None
    r = view["hand_size"]
    if total == r:
        return _n(
            "Bids total **{total}** for {n} trick (exactly the number of tricks).",
            "Bids total **{total}** for {n} tricks (exactly the number of tricks).",
            r,
            total=total,
        )
    if total > r:
        return _n(
            "Bids total **{total}** for {n} trick (over by {diff}).",
            "Bids total **{total}** for {n} tricks (over by {diff}).",
            r,
            total=total,
            diff=total - r,
        )
    return _n(
        "Bids total **{total}** for {n} trick (under by {diff}).",
        "Bids total **{total}** for {n} tricks (under by {diff}).",
        r,
        total=total,
        diff=r - total,
    )


def _trick_text(plays: list[list[Any]], names: list[str]) -> str:
    return " · ".join(f"{_name(names, s)}: {_card(c)}" for s, c in plays) or "—"


def _event_text(ev: dict[str, Any], names: list[str]) -> str | None:
    k = ev["kind"]
    if k == "bid":
        if "n" in ev:
            return _("{name} bid {n}.", name=_name(names, ev["seat"]), n=ev["n"])
        return _("{name} has bid.", name=_name(names, ev["seat"]))
    if k == "undo":
        return _("{name} took back their bid.", name=_name(names, ev["seat"]))
    if k == "trump_chosen":
        return _("{name} chose {suit} as trump.", name=_name(names, ev["seat"]), suit=FRENCH_SUIT[ev["suit"]])
    if k == "trick":
        return _("{name} won a trick.", name=_name(names, ev["winner"]))
    if k == "bids_complete":
        return _("All bids are in.")
    return None


def _score_sheet(view: dict[str, Any], names: list[str]) -> str:
    hist = view["history"]
    lines = []
    start = max(0, len(hist) - 8)
    for i in range(start, len(hist)):
        row = " / ".join(signed(x) for x in hist[i])
        lines.append(_("R{round} ({size}): {row}", round=i + 1, size=view["round_log"][i]["hand_size"], row=row))
    head = " / ".join(_name(names, s) for s in range(view["num_seats"]))  # whole names: a cut one lost its number
    return _clip(head + "\n" + "\n".join(lines)) if lines else "—"


def public_panel(view: dict[str, Any], names: list[str]) -> Panel:
    """The table message, from the public view only."""
    r = view["hand_size"]
    title = "🧙 " + _n(
        "Wizard — round {round}/{total} · {n} card",
        "Wizard — round {round}/{total} · {n} cards",
        r,
        round=view["round"],
        total=view["rounds_total"],
    )
    desc = [
        _trump_line(view, names),
        _("Dealer: **{name}**", name=_name(names, view["dealer"])),
        _turn_line(view, names),
    ]
    if view["forbidden_bid"] is not None:
        desc.append(
            _(
                "(No-even-total rule: {name} may not bid {n}.)",
                name=_name(names, view["to_move"][0]),
                n=view["forbidden_bid"],
            )
        )
    bs = _bids_summary(view)
    if bs:
        desc.append(bs)
    if view["blind_round"] and view["phase"] != "over":
        desc.append(_("👁️ Blind round: everyone sees the others' cards but not their own."))
    sections = [Section(_("Players"), _seat_lines(view, names))]
    if view["phase"] == "play" or view["trick"]["plays"]:
        lead = view["lead_suit"]
        if lead:
            head = _("Current trick (led: {suit})", suit=FRENCH_SUIT[lead])
        elif view["trick_free"]:
            head = _("Current trick (free: a Wizard leads)")
        else:
            head = _("Current trick")
        sections.append(Section(head, _clip(_trick_text(view["trick"]["plays"], names))))
    lt = view["last_trick"]
    if lt:
        sections.append(
            Section(
                _("Previous trick — won by {name}", name=_name(names, lt["winner"])),
                _clip(_trick_text(lt["plays"], names)),
            )
        )
    elif view["round_log"]:
        prev = view["round_log"][-1]
        lt = prev["last_trick"]
        res = ", ".join(
            f"{_name(names, s)} {prev['tricks'][s]}/{prev['bids'][s]} ({signed(prev['scores'][s])})"
            for s in range(view["num_seats"])
        )
        final = _(
            "Final trick, won by {name}: {cards}",
            name=_name(names, lt["winner"]),
            cards=_trick_text(lt["plays"], names),
        )
        sections.append(Section(_("Round {n} result (tricks/bid)", n=prev["round"]), _clip(f"{res}\n{final}")))
    if view["history"]:
        sections.append(Section(_("Score sheet (last rounds)"), _score_sheet(view, names)))
    cur = view["round"]
    recent = [t for e in view["events"] if e.get("round") == cur and (t := _event_text(e, names))]
    if recent:
        sections.append(Section(_("Recent"), _clip("\n".join(recent[-5:]))))
    if view["phase"] == "over":
        ranks = view["ranks"]
        order = sorted(range(view["num_seats"]), key=lambda s: (ranks[s], s))
        sections.append(
            Section(
                _("Final standings"),
                _clip("\n".join(f"{ranks[s]}. {_name(names, s)} — {view['totals'][s]}" for s in order)),
            )
        )
    return fit(Panel(title=title, description=_clip("\n".join(desc), DESC_MAX), sections=sections[:25]))


def _hand_text(hand: list[str]) -> str:
    wiz = [c for c in hand if c.startswith("WIZ")]
    jes = [c for c in hand if c.startswith("JES")]
    lines = []
    if wiz:
        lines.append(f"{wizard_label(wiz[0])} ×{len(wiz)}")
    for s in SUIT_ORDER:
        cards = [c for c in hand if not c.startswith(("WIZ", "JES")) and c[-1] == s]
        if cards:
            lines.append(f"{FRENCH_SUIT[s]} " + joined(wizard_label, cards))
    if jes:
        lines.append(f"{wizard_label(jes[0])} ×{len(jes)}")
    return "\n".join(lines) or "—"


def _choice_for(action: Action, view: dict[str, Any]) -> Choice:
    t = action["type"]
    if t == "play":
        if view.get("hand_hidden"):
            return Choice(_("Play your hidden card"), action, "primary")
        return Choice(_card(action["card"]), action, "primary")
    if t == "bid":
        return Choice(_("Bid {n}", n=action["n"]), action, "primary")
    if t == "trump":
        s = action["suit"]
        return Choice(f"{FRENCH_SUIT[s]} {french_suit_name(s)}", action, "primary")
    return Choice(_("↩️ Take back my bid"), action, "danger")


def _controls(view: dict[str, Any]) -> list[Control]:
    prompt = view.get("prompt")
    if not prompt:
        return []
    acts = list(prompt["actions"])
    cards = [a["card"] for a in acts if a["type"] == "play"]
    if len(cards) == len(acts):  # show playable cards in hand order (Wizards, ♠ ♥ ♦ ♣, Jesters)
        pos = {c: i for i, c in enumerate(sort_hand(cards))}
        acts.sort(key=lambda a: pos[a["card"]])
    main = [_choice_for(a, view) for a in acts if a["type"] != "undo"]
    undo = [_choice_for(a, view) for a in acts if a["type"] == "undo"]
    kinds = {a["type"] for a in acts if a["type"] != "undo"}
    ph = {
        "play": _("Play a card"),
        "bid": _("How many tricks will you take?"),
        "trump": _("Choose the trump suit"),
    }
    placeholder = ph.get(next(iter(kinds)), _("Choose")) if kinds else _("Choose")
    out: list[Control] = []
    if main:
        rows_left = MAX_ROWS - (1 if undo else 0)
        prefer = -(-len(main) // 5) <= rows_left and len(main) <= 20
        out.extend(split_choices(main, placeholder, prefer_buttons=prefer))
    if undo:
        out.append(Control("buttons", _("Undo"), undo))
    return out


def private_panel(view: dict[str, Any], names: list[str]) -> Panel:
    """One seat's DM: hand, bid progress, and the controls for what the seat may do now."""
    seat = view["seat"]
    title = "🧙 " + _("Wizard — your hand (round {round}/{total})", round=view["round"], total=view["rounds_total"])
    desc = [_trump_line(view, names)]
    bid = view["bids"][seat]
    tricks = view["tricks"][seat]
    if bid is not None:
        need = bid - tricks
        if need > 0:
            state = _("need {n} more", n=need)
        elif need == 0:
            state = _("on target — avoid more tricks")
        else:
            state = _("{n} over your bid", n=-need)
        desc.append(_("Your bid: **{bid}** · tricks won: **{tricks}** ({state})", bid=bid, tricks=tricks, state=state))
    if view["phase"] == "play" and view["to_move"] == [seat]:
        lead = view["lead_suit"]
        if lead:
            desc.append(
                _(
                    "**Your turn to play.** Follow {suit} if you can (Wizards and Jesters are always allowed).",
                    suit=FRENCH_SUIT[lead],
                )
            )
        else:
            desc.append(_("**Your turn to play.**"))
    elif view["phase"] == "bid" and seat in view["to_move"]:
        if view["hand_size"] == 1:  # one card: not "how many of the 1 tricks"
            desc.append(_("**Your bid:** will you take this round's only trick (1) or not (0)?"))
        else:
            desc.append(
                _n(
                    "**Your bid:** how many of the {n} tricks will you take exactly?",
                    "**Your bid:** how many of the {n} tricks will you take exactly?",
                    view["hand_size"],
                )
            )
        if view["forbidden_bid"] is not None:
            desc.append(
                _(
                    "The bids may not add up to {size}: you cannot bid {n}.",
                    size=view["hand_size"],
                    n=view["forbidden_bid"],
                )
            )
    elif view["phase"] == "trump" and seat in view["to_move"]:
        desc.append(_("**A Wizard was turned:** choose the trump suit."))
    elif view["phase"] == "over":
        desc.append(_("Game over. Your total: **{total}**.", total=view["totals"][seat]))
    sections = []
    if view.get("hand_hidden"):
        fore = view.get("foreheads") or []
        seen = "\n".join(f"{_name(names, s)}: {_card(c)}" for s, c in enumerate(fore) if c) or "—"
        sections.append(Section(_("Your card"), _("🙈 hidden — it is on your forehead!")))
        sections.append(Section(_("The others' cards"), _clip(seen)))
    else:
        sections.append(Section(_("Your hand ({n})", n=len(view["hand"])), _clip(_hand_text(view["hand"]))))
    if view["trick"]["plays"]:
        sections.append(Section(_("Current trick"), _clip(_trick_text(view["trick"]["plays"], names))))
    return fit(
        Panel(
            title=title,
            description=_clip("\n".join(desc), DESC_MAX),
            sections=sections,
            controls=_controls(view),
            footer=_("Total: {total}", total=view["totals"][seat]),
        )
    )


def settlement_text(settlement: Settlement, names: list[str]) -> str:
    """The end-of-game summary (Wizard books one settlement for the whole game)."""
    s = settlement.summary
    totals = list(settlement.amounts["point"])
    ranks = s.get("ranks") or [1 + sum(1 for o in totals if o > x) for x in totals]
    rounds = s.get("rounds_played", 0)
    exact = s.get("exact_bids") or [0] * len(totals)
    stake = settlement.amounts.get("stake")
    order = sorted(range(len(totals)), key=lambda i: (ranks[i], i))
    lines = [
        "🧙 " + _n("**Wizard — final scores** after {n} round", "**Wizard — final scores** after {n} rounds", rounds)
    ]
    for i in order:
        medal = "🏆 " if ranks[i] == 1 else ""
        line = f"{ranks[i]}. {medal}" + _(
            "**{name}** — {points} · exact bids {exact}/{rounds}",
            name=_name(names, i),
            points=_n("{n} point", "{n} points", totals[i]),
            exact=exact[i],
            rounds=rounds,
        )
        if stake is not None:
            line += " · " + _("stake {amount}", amount=signed(stake[i]))
        lines.append(line)
    return _clip("\n".join(lines), 2000)


def rules_text() -> str:
    return "\n".join(
        [
            _(
                "**Wizard** — 3 to 6 players, each for themselves, 60 cards: four suits 2…A plus 4 Wizards 🧙 "
                "and 4 Jesters 🃏."
            ),
            _(
                "**Rounds.** Round 1 deals 1 card each, round 2 two cards, … until the deck runs out "
                "(20 rounds with 3 players, 15 with 4, 12 with 5, 10 with 6). The deal moves to the left."
            ),
            _(
                "**Trump.** The next card of the deck is turned: its suit is trump. A Jester means no trump; a "
                "Wizard lets the dealer pick a suit after looking at their hand. The last round has no trump."
            ),
            _(
                "**Bidding.** Starting left of the dealer, everyone says how many tricks they will take *exactly* "
                "(0 up to the number of cards). The totals may be anything."
            ),
            _(
                "**Play.** The player left of the dealer leads. Follow the suit led if you can — but a Wizard or "
                "a Jester may always be played. A Wizard led frees the trick: anybody may play anything. A Jester "
                "led lets the next non-Jester card decide the suit (a Wizard then frees the trick)."
            ),
            _(
                "**Who wins.** The first Wizard; else the highest trump; else the highest card of the led suit. "
                "If only Jesters are played, the first Jester wins. The winner leads next."
            ),
            _(
                "**Scoring.** Exact bid: 20 + 10 per trick taken. Missed: −10 per trick over or under. "
                "Highest total after the last round wins (ties share the win)."
            ),
            _(
                "**Table options.** `bid_restriction`: the bids may not add up to the hand size (binds the dealer). "
                "`bid_mode`: open, simultaneous (revealed together) or secret (revealed after the round). "
                "`first_round_blind`: in round 1 you see everyone's card but your own. `rounds`: play only some "
                "hand sizes, e.g. 1-5. `wizard_turned`: dealer chooses trump, or no trump. "
                "`stake_per_point`: settle the point differences pairwise."
            ),
        ]
    )


def card_label(card: str) -> str:
    return wizard_label(card)


def seat_plates(view: dict[str, Any], names: list[str]) -> list[SeatPlate]:
    """Each seat's plate from the public view: its bid (``?`` while secret), tricks of this round and total."""
    plates = []
    for s in range(view["num_seats"]):
        b = view["bids"][s]
        bid = str(b) if b is not None else ("?" if view["has_bid"][s] else None)
        playing = view["phase"] == "play" or any(view["has_bid"])
        plates.append(
            SeatPlate(
                bid=bid,
                bid_label=_p("seat plate, Wizard", "Bid"),
                tricks=view["tricks"][s] if playing else None,
                score=view["totals"][s],
                dealer=s == view["dealer"],
            )
        )
    return plates


def lobby_note(seats: int) -> str:
    return ""


def describe(action: Action, before: dict[str, Any]) -> str | None:
    """What the table learns from a non-play action (replays, the terminal game); ``None``: use its notation."""
    t = action.get("type")
    if t == "bid":
        return _("bids {n}", n=action.get("n")) if before.get("bid_mode") == "open" else _("bids (hidden)")
    if t == "undo":
        return _("takes back their bid")
    if t == "trump":
        return _("chooses trump {suit}", suit=FRENCH_SUIT.get(str(action.get("suit")), action.get("suit")))
    return None


def after_action(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    """Lines the table sees once an action is done: hidden bids revealed when all are in, each round's outcome
    (Wizard books one settlement for the whole game)."""
    out: list[str] = []
    if before.get("bid_mode") != "open" and before.get("phase") == "bid" and after.get("phase") == "play":
        bids = after.get("bids") or []
        if bids and all(b is not None for b in bids):
            out.append(_("Bids: {bids}", bids=", ".join(f"{_name(names, s)} {b}" for s, b in enumerate(bids))))
    log_before, log_after = before.get("round_log") or [], after.get("round_log") or []
    if len(log_after) > len(log_before):
        r = log_after[-1]
        cells = [
            _("{name} bid {bid} took {took} ({score})", name=_name(names, s), bid=b, took=k, score=signed(sc))
            for s, (b, k, sc) in enumerate(zip(r["bids"], r["tricks"], r["scores"], strict=False))
        ]
        out.append(_("Round {n} over: {cells}", n=r["round"], cells=", ".join(cells)))
    return out

"""Wizard panels: the public table message, one seat's DM, the final summary and a rules digest.

Built only from ``WizardGame.public_view()`` / ``view(seat)`` dicts (never from the game object), with
card text from :mod:`bot.render.cards`.
"""

from __future__ import annotations

from typing import Any

from bot.engine.protocol import Action, Settlement
from bot.games.wizard.engine import sort_hand
from bot.render.base import MAX_ROWS, Choice, Control, Panel, Section, split_choices
from bot.render.cards import FRENCH_SUIT, FRENCH_SUIT_NAME, joined, wizard_label

# the views' pictures, offered with the panels (bot.games.spec.Pictures)
from .pictures import hand_picture as hand_picture
from .pictures import table_picture as table_picture

FIELD_MAX = 1024
DESC_MAX = 4096
SUIT_ORDER = ("S", "H", "D", "C")


def _clip(text: str, limit: int = FIELD_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _card(c: str) -> str:
    return wizard_label(c)


def _trump_line(view: dict[str, Any], names: list[str]) -> str:
    ind = view["indicator"]
    trump = view["trump"]
    dealer = _name(names, view["dealer"])
    if ind is None:
        return "Trump: **none** (every card is dealt in this round)"
    shown = _card(ind)
    if view["trump_pending"]:
        return f"Turned: {shown} — **{dealer}** chooses the trump suit"
    if trump is None:
        why = "a Jester was turned" if ind.startswith("JES") else "a Wizard was turned (house rule)"
        return f"Turned: {shown} — **no trump** ({why})"
    if ind.startswith("WIZ"):
        return f"Turned: {shown} — {dealer} chose **{FRENCH_SUIT[trump]} {FRENCH_SUIT_NAME[trump]}** as trump"
    return f"Trump: **{FRENCH_SUIT[trump]} {FRENCH_SUIT_NAME[trump]}** (turned {shown})"


def _bid_text(view: dict[str, Any], seat: int) -> str:
    b = view["bids"][seat]
    if b is not None:
        return str(b)
    return "✓" if view["has_bid"][seat] else "…"


def _turn_line(view: dict[str, Any], names: list[str]) -> str:
    ph = view["phase"]
    who = ", ".join(_name(names, s) for s in view["to_move"])
    if ph == "over":
        return "**Game over.**"
    if ph == "trump":
        return f"Waiting for **{who}** to choose trump."
    if ph == "bid":
        if view["bid_mode"] == "open":
            return f"**{who}** to bid."
        return f"Waiting for bids from: **{who}**."
    return f"**{who}** to play."


def _seat_lines(view: dict[str, Any], names: list[str]) -> str:
    lines = []
    turn = set(view["to_move"])
    for s in range(view["num_seats"]):
        mark = "▶ " if s in turn else ""
        dealer = " 🂠" if s == view["dealer"] else ""
        lines.append(
            f"{mark}**{_name(names, s)}**{dealer} — bid {_bid_text(view, s)} · tricks {view['tricks'][s]}"
            f" · cards {view['hand_counts'][s]} · total {view['totals'][s]}"
        )
    return _clip("\n".join(lines))


def _bids_summary(view: dict[str, Any]) -> str | None:
    total = view["bids_total"]
    if total is None or not all(b is not None for b in view["bids"]):
        if view["bid_mode"] == "secret" and view["phase"] == "play":
            return "Bids are secret until the end of the round."
        return None
    r = view["hand_size"]
    if total == r:
        rel = "exactly the number of tricks"
    elif total > r:
        rel = f"over by {total - r}"
    else:
        rel = f"under by {r - total}"
    return f"Bids total **{total}** for {r} trick{'s' if r != 1 else ''} ({rel})."


def _trick_text(plays: list[list[Any]], names: list[str]) -> str:
    return " · ".join(f"{_name(names, s)}: {_card(c)}" for s, c in plays) or "—"


def _event_text(ev: dict[str, Any], names: list[str]) -> str | None:
    k = ev["kind"]
    if k == "bid":
        if "n" in ev:
            return f"{_name(names, ev['seat'])} bid {ev['n']}."
        return f"{_name(names, ev['seat'])} has bid."
    if k == "undo":
        return f"{_name(names, ev['seat'])} took back their bid."
    if k == "trump_chosen":
        return f"{_name(names, ev['seat'])} chose {FRENCH_SUIT[ev['suit']]} as trump."
    if k == "trick":
        return f"{_name(names, ev['winner'])} won a trick."
    if k == "bids_complete":
        return "All bids are in."
    return None


def _score_sheet(view: dict[str, Any], names: list[str]) -> str:
    hist = view["history"]
    lines = []
    start = max(0, len(hist) - 8)
    for i in range(start, len(hist)):
        row = " / ".join(f"{x:+d}" for x in hist[i])
        lines.append(f"R{i + 1} ({view['round_log'][i]['hand_size']}): {row}")
    head = " / ".join(_name(names, s)[:12] for s in range(view["num_seats"]))
    return _clip(head + "\n" + "\n".join(lines)) if lines else "—"


def public_panel(view: dict[str, Any], names: list[str]) -> Panel:
    """The table message, from the public view only."""
    r = view["hand_size"]
    title = f"🧙 Wizard — round {view['round']}/{view['rounds_total']} · {r} card{'s' if r != 1 else ''}"
    desc = [_trump_line(view, names), f"Dealer: **{_name(names, view['dealer'])}**", _turn_line(view, names)]
    if view["forbidden_bid"] is not None:
        desc.append(f"(No-even-total rule: {_name(names, view['to_move'][0])} may not bid {view['forbidden_bid']}.)")
    bs = _bids_summary(view)
    if bs:
        desc.append(bs)
    if view["blind_round"] and view["phase"] != "over":
        desc.append("👁️ Blind round: everyone sees the others' cards but not their own.")
    sections = [Section("Players", _seat_lines(view, names))]
    if view["phase"] == "play" or view["trick"]["plays"]:
        lead = view["lead_suit"]
        extra = f" (led: {FRENCH_SUIT[lead]})" if lead else (" (free: a Wizard leads)" if view["trick_free"] else "")
        sections.append(Section("Current trick" + extra, _clip(_trick_text(view["trick"]["plays"], names))))
    lt = view["last_trick"]
    if lt:
        sections.append(
            Section(f"Last trick — won by {_name(names, lt['winner'])}", _clip(_trick_text(lt["plays"], names)))
        )
    elif view["round_log"]:
        prev = view["round_log"][-1]
        lt = prev["last_trick"]
        res = ", ".join(
            f"{_name(names, s)} {prev['tricks'][s]}/{prev['bids'][s]} ({prev['scores'][s]:+d})"
            for s in range(view["num_seats"])
        )
        sections.append(
            Section(
                f"Round {prev['round']} result (tricks/bid)",
                _clip(f"{res}\nFinal trick, won by {_name(names, lt['winner'])}: " + _trick_text(lt["plays"], names)),
            )
        )
    if view["history"]:
        sections.append(Section("Score sheet (last rounds)", _score_sheet(view, names)))
    cur = view["round"]
    recent = [t for e in view["events"] if e.get("round") == cur and (t := _event_text(e, names))]
    if recent:
        sections.append(Section("Recent", _clip("\n".join(recent[-5:]))))
    if view["phase"] == "over":
        ranks = view["ranks"]
        order = sorted(range(view["num_seats"]), key=lambda s: (ranks[s], s))
        sections.append(
            Section(
                "Final standings",
                _clip("\n".join(f"{ranks[s]}. {_name(names, s)} — {view['totals'][s]}" for s in order)),
            )
        )
    return Panel(title=title, description=_clip("\n".join(desc), DESC_MAX), sections=sections[:25])


def _hand_text(hand: list[str]) -> str:
    wiz = [c for c in hand if c.startswith("WIZ")]
    jes = [c for c in hand if c.startswith("JES")]
    lines = []
    if wiz:
        lines.append(f"🧙 Wizard ×{len(wiz)}")
    for s in SUIT_ORDER:
        cards = [c for c in hand if not c.startswith(("WIZ", "JES")) and c[-1] == s]
        if cards:
            lines.append(f"{FRENCH_SUIT[s]} " + joined(wizard_label, cards))
    if jes:
        lines.append(f"🃏 Jester ×{len(jes)}")
    return "\n".join(lines) or "—"


def _choice_for(action: Action, view: dict[str, Any]) -> Choice:
    t = action["type"]
    if t == "play":
        if view.get("hand_hidden"):
            return Choice("Play your hidden card", action, "primary")
        return Choice(_card(action["card"]), action, "primary")
    if t == "bid":
        return Choice(f"Bid {action['n']}", action, "primary")
    if t == "trump":
        s = action["suit"]
        return Choice(f"{FRENCH_SUIT[s]} {FRENCH_SUIT_NAME[s]}", action, "primary")
    return Choice("↩️ Take back my bid", action, "danger")


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
    ph = {"play": "Play a card", "bid": "How many tricks will you take?", "trump": "Choose the trump suit"}
    placeholder = ph.get(next(iter(kinds)), "Choose") if kinds else "Choose"
    out: list[Control] = []
    if main:
        rows_left = MAX_ROWS - (1 if undo else 0)
        prefer = -(-len(main) // 5) <= rows_left and len(main) <= 20
        out.extend(split_choices(main, placeholder, prefer_buttons=prefer))
    if undo:
        out.append(Control("buttons", "Undo", undo))
    return out


def private_panel(view: dict[str, Any], names: list[str]) -> Panel:
    """One seat's DM: hand, bid progress, and the controls for what the seat may do now."""
    seat = view["seat"]
    title = f"🧙 Wizard — your hand (round {view['round']}/{view['rounds_total']})"
    desc = [_trump_line(view, names)]
    bid = view["bids"][seat]
    tricks = view["tricks"][seat]
    if bid is not None:
        need = bid - tricks
        if need > 0:
            state = f"need {need} more"
        elif need == 0:
            state = "on target — avoid more tricks"
        else:
            state = f"{-need} over your bid"
        desc.append(f"Your bid: **{bid}** · tricks won: **{tricks}** ({state})")
    if view["phase"] == "play" and view["to_move"] == [seat]:
        lead = view["lead_suit"]
        desc.append(
            "**Your turn to play.**"
            + (f" Follow {FRENCH_SUIT[lead]} if you can (Wizards and Jesters are always allowed)." if lead else "")
        )
    elif view["phase"] == "bid" and seat in view["to_move"]:
        desc.append(f"**Your bid:** how many of the {view['hand_size']} tricks will you take exactly?")
        if view["forbidden_bid"] is not None:
            desc.append(f"The bids may not add up to {view['hand_size']}: you cannot bid {view['forbidden_bid']}.")
    elif view["phase"] == "trump" and seat in view["to_move"]:
        desc.append("**A Wizard was turned:** choose the trump suit.")
    elif view["phase"] == "over":
        desc.append(f"Game over. Your total: **{view['totals'][seat]}**.")
    sections = []
    if view.get("hand_hidden"):
        fore = view.get("foreheads") or []
        seen = "\n".join(f"{_name(names, s)}: {_card(c)}" for s, c in enumerate(fore) if c) or "—"
        sections.append(Section("Your card", "🙈 hidden — it is on your forehead!"))
        sections.append(Section("The others' cards", _clip(seen)))
    else:
        sections.append(Section(f"Your hand ({len(view['hand'])})", _clip(_hand_text(view["hand"]))))
    if view["trick"]["plays"]:
        sections.append(Section("Current trick", _clip(_trick_text(view["trick"]["plays"], names))))
    return Panel(
        title=title,
        description=_clip("\n".join(desc), DESC_MAX),
        sections=sections,
        controls=_controls(view),
        footer=f"Total: {view['totals'][seat]}",
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
    lines = [f"🧙 **Wizard — final scores** after {rounds} round{'s' if rounds != 1 else ''}"]
    for i in order:
        medal = "🏆 " if ranks[i] == 1 else ""
        line = f"{ranks[i]}. {medal}**{_name(names, i)}** — {totals[i]} points · exact bids {exact[i]}/{rounds}"
        if stake is not None:
            line += f" · stake {stake[i]:+d}"
        lines.append(line)
    return _clip("\n".join(lines), 2000)


def rules_text() -> str:
    return (
        "**Wizard** — 3 to 6 players, each for themselves, 60 cards: four suits 2…A plus 4 Wizards 🧙 "
        "and 4 Jesters 🃏.\n"
        "**Rounds.** Round 1 deals 1 card each, round 2 two cards, … until the deck runs out "
        "(20 rounds with 3 players, 15 with 4, 12 with 5, 10 with 6). The deal moves to the left.\n"
        "**Trump.** The next card of the deck is turned: its suit is trump. A Jester means no trump; a "
        "Wizard lets the dealer pick a suit after looking at their hand. The last round has no trump.\n"
        "**Bidding.** Starting left of the dealer, everyone says how many tricks they will take *exactly* "
        "(0 up to the number of cards). The totals may be anything.\n"
        "**Play.** The player left of the dealer leads. Follow the suit led if you can — but a Wizard or "
        "a Jester may always be played. A Wizard led frees the trick: anybody may play anything. A Jester "
        "led lets the next non-Jester card decide the suit (a Wizard then frees the trick).\n"
        "**Who wins.** The first Wizard; else the highest trump; else the highest card of the led suit. "
        "If only Jesters are played, the first Jester wins. The winner leads next.\n"
        "**Scoring.** Exact bid: 20 + 10 per trick taken. Missed: −10 per trick over or under. "
        "Highest total after the last round wins (ties share the win).\n"
        "**Table options.** `bid_restriction`: the bids may not add up to the hand size (binds the dealer). "
        "`bid_mode`: open, simultaneous (revealed together) or secret (revealed after the round). "
        "`first_round_blind`: in round 1 you see everyone's card but your own. `rounds`: play only some "
        "hand sizes, e.g. 1-5. `wizard_turned`: dealer chooses trump, or no trump. "
        "`stake_per_point`: settle the point differences pairwise."
    )


def card_label(card: str) -> str:
    return wizard_label(card)


def lobby_note(seats: int) -> str:
    return ""


def describe(action: Action, before: dict[str, Any]) -> str | None:
    """What the table learns from a non-play action (replays, the terminal game); ``None``: use its notation."""
    t = action.get("type")
    if t == "bid":
        return f"bids {action.get('n')}" if before.get("bid_mode") == "open" else "bids (hidden)"
    if t == "undo":
        return "takes back their bid"
    if t == "trump":
        return f"chooses trump {FRENCH_SUIT.get(str(action.get('suit')), action.get('suit'))}"
    return None


def after_action(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    """Lines the table sees once an action is done: hidden bids revealed when all are in, each round's outcome
    (Wizard books one settlement for the whole game)."""
    out: list[str] = []
    if before.get("bid_mode") != "open" and before.get("phase") == "bid" and after.get("phase") == "play":
        bids = after.get("bids") or []
        if bids and all(b is not None for b in bids):
            out.append("Bids: " + ", ".join(f"{_name(names, s)} {b}" for s, b in enumerate(bids)))
    log_before, log_after = before.get("round_log") or [], after.get("round_log") or []
    if len(log_after) > len(log_before):
        r = log_after[-1]
        cells = [
            f"{_name(names, s)} bid {b} took {k} ({sc:+d})"
            for s, (b, k, sc) in enumerate(zip(r["bids"], r["tricks"], r["scores"], strict=False))
        ]
        out.append(f"Round {r['round']} over: " + ", ".join(cells))
    return out

"""Minchiate panels: the public table message, one seat's DM, the deal summary and the rules text.

Built only from engine views (and a Settlement for the summary); no Discord imports.
"""

from __future__ import annotations

from typing import Any

from bot.engine.protocol import Settlement
from bot.games.minchiate.rules import SUIT
from bot.i18n import N_, _, _n, _p, signed
from bot.i18n import names as ui
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
from bot.render.cards import joined, minchiate_label, minchiate_long

# the views' pictures, offered with the panels (bot.games.spec.Pictures)
from .pictures import hand_picture as hand_picture
from .pictures import reveal_picture as reveal_picture
from .pictures import table_picture as table_picture

FIELD_MAX = 1024
LABEL_MAX = 80
DESC_MAX = 100
# msgids marked here, translated when shown (the reader's locale is only known then)
SUIT_TITLES = (
    ("T", N_("Trumps")),
    ("M", N_("Matto")),
    ("Co", N_("Coins 🪙")),
    ("Cu", N_("Cups 🏆")),
    ("Sw", N_("Swords ⚔️")),
    ("Ba", N_("Batons 🪵")),
)
PHASE_TEXT = {
    "cut": N_("Waiting for the cut"),
    "discard": N_("Discarding"),
    "declare": N_("Declaring combinations"),
    "play": N_("Trick play"),
    "done": N_("Game over"),
}
_REASON = {
    "robbing": N_("robbing"),
    "exposed card": N_("exposed card"),
    "declaration": N_("declaration"),
    "end of deal": N_("end of deal"),
}


def combo_name(combo: dict[str, Any]) -> str:
    """A combination's name in the reader's language (the cards stay symbols)."""
    cards = [str(c) for c in combo["cards"]]
    t = combo["type"]
    if t == "RUN":
        return _("Run {first}–{last}", first=cards[0], last=cards[-1])
    if t == "UTM":
        return "T1+T40+" + _("Matto")
    if t in ("UTV", "DEC"):
        return "+".join(cards)
    return _n("{n} King", "{n} Kings", len(cards))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("Seat {n}", n=seat + 1)


def _team_names(names: list[str], team: str) -> str:
    a, b = (0, 2) if team == "A" else (1, 3)
    return _("{first} & {second}", first=_name(names, a), second=_name(names, b))


def _plays(plays: list[list[Any]], names: list[str]) -> str:
    return ", ".join(f"{_name(names, int(s))}: {minchiate_label(c)}" for s, c in plays) or "—"


def _event_line(ev: dict[str, Any], names: list[str]) -> str:
    team = ev.get("team", "?")
    reason = ev.get("reason", "")
    reason = _(_REASON[reason]) if reason in _REASON else reason
    who = f" ({_name(names, int(ev['seat']))})" if "seat" in ev else ""
    detail = ""
    if ev.get("cards"):
        detail = " " + joined(minchiate_label, ev["cards"])
    if "combos" in ev:
        detail = " " + ", ".join(f"{combo_name(c)} {c['value']}" for c in ev["combos"])
        if ev.get("matto_bonus"):
            detail += " (+" + _("Matto") + ")"
    if "trick" in ev:
        reason = _("trick {n}", n=ev["trick"])
    line = _("{team} {points} {reason}", team=team, points=signed(ev.get("points", 0)), reason=reason) + who + detail
    if "resti" in ev:
        line += " → " + _("resti A {a} / B {b}", a=ev["resti"][0], b=ev["resti"][1])
    return line


def _lines_within(lines: list[str], limit: int = FIELD_MAX) -> str:
    """The last lines that fit in ``limit`` characters."""
    out: list[str] = []
    size = 0
    for line in reversed(lines):
        line = _clip(line, 200)
        if size + len(line) + 1 > limit - 2:
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(reversed(out)) or "—"


def _diff_text(diff: int) -> str:
    if diff > 0:
        return _("A leads by {n}", n=diff)
    if diff < 0:
        return _("B leads by {n}", n=-diff)
    return _("level")


def public_panel(view: dict[str, Any], names: list[str]) -> Panel:
    ph = view["phase"]
    turn = ", ".join(_name(names, s) for s in view["to_move"])
    phase = _(PHASE_TEXT[ph]) if ph in PHASE_TEXT else ph
    desc = _("{phase} — waiting for {names}", phase=phase, names=turn) if turn else phase
    desc += "\n" + _(
        "Dealer: {dealer} · cutter: {cutter}", dealer=_name(names, view["dealer"]), cutter=_name(names, view["cutter"])
    )
    sections: list[Section] = []
    r = view["resti"]
    score = [
        _n("Team A ({names}): {n} resto", "Team A ({names}): {n} resti", r[0], names=_team_names(names, "A")),
        _n("Team B ({names}): {n} resto", "Team B ({names}): {n} resti", r[1], names=_team_names(names, "B")),
        _("Running difference: {diff}", diff=_diff_text(view["diff"])),
    ]
    if view["deals_per_game"] > 1:
        score.append(_("Game totals: A {a} · B {b}", a=signed(view["totals"][0]), b=signed(view["totals"][1])))
    sections.append(Section(_("Score"), "\n".join(score)))
    deal_lines = []
    if view["cut"] is not None:
        deal_lines.append(
            _(
                "Cut at {n}; cutter robbed: {cards}",
                n=view["cut"],
                cards=joined(minchiate_label, view["robbed_by_cutter"]),
            )
        )
        exposed = [f"{_name(names, s)} {minchiate_label(c)}" for s, c in enumerate(view["exposed"]) if c]
        deal_lines.append(_("Exposed: {cards}", cards=", ".join(exposed)))
        stop = view["robbing_stop"]
        robbed = joined(minchiate_label, view["robbed_by_dealer"])
        if stop:
            deal_lines.append(_("Dealer robbed: {cards} (stopped at {card})", cards=robbed, card=minchiate_label(stop)))
        else:
            deal_lines.append(_("Dealer robbed: {cards}", cards=robbed))
        if view["taken_by_dealer"]:
            deal_lines.append(_("Dealer took: {cards}", cards=joined(minchiate_label, view["taken_by_dealer"])))
        if view["discards_pending"]:
            pending = ", ".join(f"{_name(names, int(s))} {n}" for s, n in view["discards_pending"].items())
            deal_lines.append(_("To discard: {pending}", pending=pending))
        if view["fola"] is not None:
            deal_lines.append(_("Fola: {cards}", cards=joined(minchiate_label, view["fola"])))
        sections.append(Section(_("The deal"), _lines_within(deal_lines)))
    decl = []
    for s, combos in enumerate(view["declared"]):
        if combos:
            decl.append(f"{_name(names, s)}: " + ", ".join(f"{combo_name(c)} ({c['value']})" for c in combos))
    if decl:
        sections.append(Section(_("Declarations"), _lines_within(decl)))
    if view["trick"] is not None:
        sections.append(Section(_("Trick {n}", n=view["tricks_played"] + 1), _plays(view["trick"]["plays"], names)))
    lt = view["last_trick"]
    if lt:
        sections.append(
            Section(
                # i18n: the trick just played (not the deal's final trick, which scores 10)
                _("Previous trick"),
                _("{plays} — won by {name}", plays=_plays(lt["plays"], names), name=_name(names, lt["winner"])),
            )
        )
    if ph in ("play", "done") or view["tricks_played"]:
        piles = view["piles"]
        tw = view["tricks_won"]
        captured = [
            _n("A: {n} card", "A: {n} cards", piles[0])
            + " "
            + _n("({n} trick)", "({n} tricks)", tw[0] + tw[2])
            + " · "
            + _n("B: {n} card", "B: {n} cards", piles[1])
            + " "
            + _n("({n} trick)", "({n} tricks)", tw[1] + tw[3])
        ]
        if view["matto_debt"]:
            captured.append(_("Matto debt: team {team} owes one card", team=view["matto_debt"]))
        sections.append(Section(_("Captured"), "\n".join(captured)))
    if view["score_events"]:
        sections.append(Section(_("Scoring"), _lines_within([_event_line(e, names) for e in view["score_events"]])))
    last = view.get("last_deal")
    if last:
        w = last["winner"]
        resti = _("Resti A {a} · B {b}", a=last["resti"]["A"], b=last["resti"]["B"])
        outcome = _("team {team} wins {n}", team=w, n=abs(last["net_A"])) if w else _("tie")
        sections.append(Section(_("Deal {n} result", n=last["deal"] + 1), f"{resti} → {outcome}"))
    footer = _("Team A: seats 1 & 3 · Team B: seats 2 & 4 · play goes anticlockwise (to the right)")
    title = _("Minchiate — deal {n}/{total}", n=view["hand_number"] + 1, total=view["deals_per_game"])
    return fit(Panel(title, _clip(desc, 4000), sections[:25], [], footer))


def lobby_note(seats: int) -> str:
    """Shown under the lobby's options: who partners whom (the seat order decides the teams)."""
    return _(
        "Teams: seats 1 + 3 (team A) v seats 2 + 4 (team B); partners sit opposite. "
        "The host can move players with `{swap}` before the start.",
        swap=ui.command("minchiate swap"),
    )


def _hand_sections(hand: list[str]) -> list[Section]:
    out = []
    for key, title in SUIT_TITLES:
        cards = [c for c in hand if SUIT[c] == key]
        if cards:
            out.append(Section(f"{_(title)} ({len(cards)})", _clip(joined(minchiate_label, cards), FIELD_MAX), True))
    return out


def _declare_label(action: dict[str, Any], combos: list[dict[str, Any]]) -> tuple[str, str]:
    idx = action["combos"]
    if not combos:
        return _("Nothing to declare — continue"), ""
    total = sum(int(combos[i]["value"]) for i in idx)
    names = ", ".join(combo_name(combos[i]) for i in idx)
    if len(idx) == len(combos):
        return _clip(_n("Declare all ({n} pt)", "Declare all ({n} pts)", total), LABEL_MAX), _clip(names, DESC_MAX)
    if not idx:
        return _("Declare nothing"), ""
    return _clip(_("Declare {names} ({n})", names=names, n=total), LABEL_MAX), _clip(names, DESC_MAX)


def private_panel(view: dict[str, Any], names: list[str]) -> Panel:
    seat = view["seat"]
    hand = view["hand"]
    sections = _hand_sections(hand)
    if view.get("my_discards"):
        sections.append(Section(_("Your discards"), joined(minchiate_label, view["my_discards"])))
    if view.get("fola_seen") is not None and view.get("fola_seen"):
        sections.append(Section(_("Fola (only you see it)"), joined(minchiate_label, view["fola_seen"])))
    combos = view.get("combos") or []
    if combos:
        sections.append(
            Section(
                _("Your combinations"),
                _lines_within(
                    [f"{combo_name(c)}: {joined(minchiate_label, c['cards'])} = {c['value']}" for c in combos]
                ),
            )
        )
    prompt = view.get("prompt")
    controls: list[Control] = []
    desc = _(
        "You are {name}, team {team} (partner: {partner}).",
        name=_name(names, seat),
        team=view["team"],
        partner=_name(names, (seat + 2) % 4),
    )
    if prompt is None:
        desc += "\n" + _("Nothing to do right now.")
    elif view["phase"] == "play":
        desc += "\n" + _("Your turn: play a card (only legal cards are offered).")
        choices = [
            Choice(minchiate_label(a["card"]), a, description=minchiate_long(a["card"])) for a in prompt["actions"]
        ]
        controls = split_choices(choices, _("Play a card"), prefer_buttons=False)
    elif view["phase"] == "discard":
        need = prompt["need"]
        desc += "\n" + _n(
            "Discard {n} card: zero-point cards only, never trump 29.",
            "Discard {n} cards: zero-point cards only, never trump 29.",
            need,
        )
        if prompt["kind"] == "combo":
            f = prompt["fields"][0]
            opts = [(minchiate_label(c), c) for c in f["from"]][:MAX_SELECT_OPTIONS]
            controls = [
                Control(
                    "combo",
                    _("Discard {n}", n=need),
                    base_action={"type": "discard"},
                    fields=[
                        ComboField(
                            "cards",
                            _n("Choose {n} card to discard", "Choose {n} cards to discard", need),
                            opts,
                            f["count"],
                        )
                    ],
                )
            ]
        else:
            desc += " " + _("(Too many cards for one menu: discard one at a time for now.)")
            choices = [
                Choice(minchiate_label(a["cards"][0]), a, description=minchiate_long(a["cards"][0]))
                for a in prompt["actions"]
            ]
            controls = split_choices(choices, _("Discard one card"), prefer_buttons=False)[:4]
    elif view["phase"] == "declare":
        desc += "\n" + _("Declare your combinations (default: all).")
        choices = []
        for i, a in enumerate(prompt["actions"]):
            lbl, d = _declare_label(a, combos)
            choices.append(Choice(lbl, a, "success" if i == 0 else "secondary", d or None))
        controls = split_choices(choices, _("Declare"), prefer_buttons=len(choices) <= 10)
    elif view["phase"] == "cut":
        desc += "\n" + _("Cut the pack: choose how many cards to lift.")
        choices = [Choice(_n("Cut {n} card", "Cut {n} cards", a["k"]), a) for a in prompt["actions"]]
        controls = split_choices(choices, _("Cut depth"), prefer_buttons=False)[:5]
    return fit(Panel(_("Minchiate — your hand ({n})", n=len(hand)), _clip(desc, 4000), sections[:25], controls))


def settlement_text(settlement: Settlement, names: list[str]) -> str:
    s = settlement.summary
    lines = [_("**Minchiate — deal {n}**", n=int(s.get("deal", settlement.index)) + 1)]
    for ev in s.get("events", []):
        if ev.get("reason") == "end of deal":
            continue
        lines.append(_event_line(ev, names))
    end = s.get("end", {})
    for t in ("A", "B"):
        e = end.get(t)
        if e:
            lines.append(
                # i18n: "final trick" is the deal's 21st trick, worth 10 points
                _(
                    "End {team}: cards {cards} + combinations {combos} + extra cards {extra}"
                    " + final trick {last} = {total}",
                    team=t,
                    cards=e["cards"],
                    combos=e["combinations"],
                    extra=e["card_count"],
                    last=e["last_trick"],
                    total=e["total"],
                )
            )
    r = s.get("resti", {})
    lines.append(
        _(
            "Final difference {diff} (A − B); resti A {a} · B {b}",
            diff=signed(s.get("final_diff", 0)),
            a=r.get("A", 0),
            b=r.get("B", 0),
        )
    )
    w = s.get("winner")
    net = abs(int(s.get("net_A", 0)))
    if w:
        lines.append(
            _n(
                "Team {team} ({names}) wins {n} resto",
                "Team {team} ({names}) wins {n} resti",
                net,
                team=w,
                names=_team_names(names, w),
            )
        )
    else:
        lines.append(_("Tie: no resti change hands."))
    stake = settlement.amounts.get("stake")
    if stake:
        lines.append(
            _("Stakes: {amounts}", amounts=", ".join(f"{_name(names, i)} {signed(v)}" for i, v in enumerate(stake)))
        )
    text = "\n".join(lines)
    if len(text) > 4000:
        head, tail = lines[:1], lines[-4:]
        text = "\n".join([*head, _lines_within(lines[1:-4], 4000 - 600), *tail])
    return text


def rules_text() -> str:
    return "\n".join(
        [
            _("**Minchiate (Florentine tarot, 97 cards)** — 4 players, partners opposite, play anticlockwise."),
            _(
                "**Cards.** Trumps T40 (high) … T1, the Matto (excuse), four suits with K > Q > C > F above the "
                "pips; in Coins/Cups the Ace is the highest pip and 10 the lowest, in Swords/Batons 10 is highest."
            ),
            _(
                "**Points.** T36–T40: 10 each; T28, T30–T35, T20, T13, T10, T1, the Matto and the Kings: 5 each; "
                "T2–T5: 3 each (142 in total). T29 is worth 5 inside a combination."
            ),
            _(
                "**Deal.** The cutter robs up to 13 robbable cards (counting cards and trumps above 20) from the "
                "cut, scoring them at once. Everyone gets 10 + 11 cards; each 21st card is shown and scores at once. "
                "The rest is the Fola: the dealer robs from it (scoring), then takes its counting cards and T29. "
                "Cutter and dealer discard back to 21 (zero-point cards only, never T29)."
            ),
            _(
                "**Declarations.** Runs of 3+ trumps within 1–5 or 28–40 (merged), T1+T40+Matto, T1+T13+T28, "
                "T10+T20+T30 or T20+T30+T40 (all four = 25), 3 or 4 Kings. A combination is worth its cards; "
                "the Matto adds 5 to every other combination. Then the Fola is shown."
            ),
            _(
                "**Play.** 21 tricks. Follow suit, else trump, else anything. The first time a suit is led, after "
                "a trump has been played to it, a later player holding that King must play it. The Matto may be "
                "played instead of following; it never wins, stays with its team, and one card is owed for it if "
                "the opponents won that trick (the Matto itself if its team took no trick)."
            ),
            _(
                "**Scoring.** Capturing opponents' counting cards scores at once. Every 60 points of lead converts "
                "to a resto during play. At the end each team counts its pile: card points, combinations, +1 per "
                "card over 42, +10 for the final trick; the net difference gives 1 resto per started 60. "
                "Most net resti wins."
            ),
        ]
    )


def card_label(card: str) -> str:
    return minchiate_label(card)


def describe(action: dict[str, Any], before: dict[str, Any]) -> str | None:
    """What the table learns from a non-play action (replays, the terminal game); ``None``: use its notation."""
    t = action.get("type")
    if t == "discard":
        n = len(action.get("cards") or []) if isinstance(action.get("cards"), list) else 1
        return _n("discards {n} card", "discards {n} cards", n)
    if t == "declare":
        return _("makes their declaration")
    if t == "cut":
        return _("cuts the pack at {k}", k=action.get("k"))
    return None


def after_action(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    return []


def seat_plates(view: dict[str, Any], names: list[str]) -> list[SeatPlate]:
    """Each seat's plate from the public view: its team, tricks of the deal and its total."""
    team_of = {int(s): key for key, seats in (view.get("teams") or {}).items() for s in seats}
    return [
        SeatPlate(
            tricks=view["tricks_won"][s] if view["phase"] in ("play", "done", "over") else None,
            score=view["totals"][s],
            dealer=s == view.get("dealer"),
            role=_p("seat plate", "Team {team}", team=team_of[s]) if s in team_of else None,
        )
        for s in range(view["num_seats"])
    ]

"""Minchiate panels: the public table message, one seat's DM, the deal summary and the rules text.

Built only from engine views (and a Settlement for the summary); no Discord imports.
"""

from __future__ import annotations

from typing import Any

from bot.engine.protocol import Settlement
from bot.games.minchiate.rules import SUIT, combo_name
from bot.render.base import (
    MAX_SELECT_OPTIONS,
    Choice,
    ComboField,
    Control,
    Panel,
    Section,
    split_choices,
)
from bot.render.cards import joined, minchiate_label, minchiate_long

# the views' pictures, offered with the panels (bot.games.spec.Pictures)
from .pictures import hand_picture as hand_picture
from .pictures import table_picture as table_picture

FIELD_MAX = 1024
LABEL_MAX = 80
DESC_MAX = 100
SUIT_TITLES = (
    ("T", "Trumps"),
    ("M", "Matto"),
    ("Co", "Coins 🪙"),
    ("Cu", "Cups 🏆"),
    ("Sw", "Swords ⚔️"),
    ("Ba", "Batons 🪵"),
)
PHASE_TEXT = {
    "cut": "Waiting for the cut",
    "discard": "Discarding",
    "declare": "Declaring combinations",
    "play": "Trick play",
    "done": "Game over",
}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"


def _team_names(names: list[str], team: str) -> str:
    a, b = (0, 2) if team == "A" else (1, 3)
    return f"{_name(names, a)} & {_name(names, b)}"


def _plays(plays: list[list[Any]], names: list[str]) -> str:
    return ", ".join(f"{_name(names, int(s))}: {minchiate_label(c)}" for s, c in plays) or "—"


def _event_line(ev: dict[str, Any], names: list[str]) -> str:
    team = ev.get("team", "?")
    reason = ev.get("reason", "")
    who = f" ({_name(names, int(ev['seat']))})" if "seat" in ev else ""
    detail = ""
    if ev.get("cards"):
        detail = " " + joined(minchiate_label, ev["cards"])
    if "combos" in ev:
        detail = " " + ", ".join(f"{combo_name(c)} {c['value']}" for c in ev["combos"])
        if ev.get("matto_bonus"):
            detail += " (+Matto)"
    if "trick" in ev:
        reason = f"trick {ev['trick']}"
    line = f"{team} +{ev.get('points', 0)} {reason}{who}{detail}"
    if "resti" in ev:
        line += f" → resti A {ev['resti'][0]} / B {ev['resti'][1]}"
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
        return f"A leads by {diff}"
    if diff < 0:
        return f"B leads by {-diff}"
    return "level"


def public_panel(view: dict[str, Any], names: list[str]) -> Panel:
    deal = f"deal {view['hand_number'] + 1}/{view['deals_per_game']}"
    ph = view["phase"]
    turn = ", ".join(_name(names, s) for s in view["to_move"])
    desc = f"{PHASE_TEXT.get(ph, ph)}" + (f" — waiting for {turn}" if turn else "")
    desc += f"\nDealer: {_name(names, view['dealer'])} · cutter: {_name(names, view['cutter'])}"
    sections: list[Section] = []
    r = view["resti"]
    sections.append(
        Section(
            "Score",
            f"Team A ({_team_names(names, 'A')}): {r[0]} resti\n"
            f"Team B ({_team_names(names, 'B')}): {r[1]} resti\n"
            f"Running difference: {_diff_text(view['diff'])}"
            + (
                f"\nGame totals: A {view['totals'][0]:+d} · B {view['totals'][1]:+d}"
                if view["deals_per_game"] > 1
                else ""
            ),
        )
    )
    deal_lines = []
    if view["cut"] is not None:
        deal_lines.append(f"Cut at {view['cut']}; cutter robbed: {joined(minchiate_label, view['robbed_by_cutter'])}")
        exposed = [f"{_name(names, s)} {minchiate_label(c)}" for s, c in enumerate(view["exposed"]) if c]
        deal_lines.append("Exposed: " + ", ".join(exposed))
        stop = view["robbing_stop"]
        deal_lines.append(
            f"Dealer robbed: {joined(minchiate_label, view['robbed_by_dealer'])}"
            + (f" (stopped at {minchiate_label(stop)})" if stop else "")
        )
        if view["taken_by_dealer"]:
            deal_lines.append(f"Dealer took: {joined(minchiate_label, view['taken_by_dealer'])}")
        if view["discards_pending"]:
            deal_lines.append(
                "To discard: " + ", ".join(f"{_name(names, int(s))} {n}" for s, n in view["discards_pending"].items())
            )
        if view["fola"] is not None:
            deal_lines.append(f"Fola: {joined(minchiate_label, view['fola'])}")
        sections.append(Section("The deal", _lines_within(deal_lines)))
    decl = []
    for s, combos in enumerate(view["declared"]):
        if combos:
            decl.append(f"{_name(names, s)}: " + ", ".join(f"{combo_name(c)} ({c['value']})" for c in combos))
    if decl:
        sections.append(Section("Declarations", _lines_within(decl)))
    if view["trick"] is not None:
        sections.append(Section(f"Trick {view['tricks_played'] + 1}", _plays(view["trick"]["plays"], names)))
    lt = view["last_trick"]
    if lt:
        sections.append(Section("Last trick", f"{_plays(lt['plays'], names)} — won by {_name(names, lt['winner'])}"))
    if ph in ("play", "done") or view["tricks_played"]:
        piles = view["piles"]
        tw = view["tricks_won"]
        sections.append(
            Section(
                "Captured",
                f"A: {piles[0]} cards ({tw[0] + tw[2]} tricks) · B: {piles[1]} cards ({tw[1] + tw[3]} tricks)"
                + (f"\nMatto debt: team {view['matto_debt']} owes one card" if view["matto_debt"] else ""),
            )
        )
    if view["score_events"]:
        sections.append(Section("Scoring", _lines_within([_event_line(e, names) for e in view["score_events"]])))
    last = view.get("last_deal")
    if last:
        w = last["winner"]
        sections.append(
            Section(
                f"Deal {last['deal'] + 1} result",
                f"Resti A {last['resti']['A']} · B {last['resti']['B']} → "
                + (f"team {w} wins {abs(last['net_A'])}" if w else "tie"),
            )
        )
    footer = "Team A: seats 1 & 3 · Team B: seats 2 & 4 · play goes anticlockwise (to the right)"
    return Panel(f"Minchiate — {deal}", _clip(desc, 4000), sections[:25], [], footer)


def lobby_note(seats: int) -> str:
    """Shown under the lobby's options: who partners whom (the seat order decides the teams)."""
    return (
        "Teams: seats 1 + 3 (team A) v seats 2 + 4 (team B); partners sit opposite. "
        "The host can move players with /minchiate swap before the start."
    )


def _hand_sections(hand: list[str]) -> list[Section]:
    out = []
    for key, title in SUIT_TITLES:
        cards = [c for c in hand if SUIT[c] == key]
        if cards:
            out.append(Section(f"{title} ({len(cards)})", _clip(joined(minchiate_label, cards), FIELD_MAX), True))
    return out


def _declare_label(action: dict[str, Any], combos: list[dict[str, Any]]) -> tuple[str, str]:
    idx = action["combos"]
    if not combos:
        return "Nothing to declare — continue", ""
    total = sum(int(combos[i]["value"]) for i in idx)
    names = ", ".join(combo_name(combos[i]) for i in idx)
    if len(idx) == len(combos):
        return _clip(f"Declare all ({total} pts)", LABEL_MAX), _clip(names, DESC_MAX)
    if not idx:
        return "Declare nothing", ""
    return _clip(f"Declare {names} ({total})", LABEL_MAX), _clip(names, DESC_MAX)


def private_panel(view: dict[str, Any], names: list[str]) -> Panel:
    seat = view["seat"]
    hand = view["hand"]
    sections = _hand_sections(hand)
    if view.get("my_discards"):
        sections.append(Section("Your discards", joined(minchiate_label, view["my_discards"])))
    if view.get("fola_seen") is not None and view.get("fola_seen"):
        sections.append(Section("Fola (only you see it)", joined(minchiate_label, view["fola_seen"])))
    combos = view.get("combos") or []
    if combos:
        sections.append(
            Section(
                "Your combinations",
                _lines_within(
                    [f"{combo_name(c)}: {joined(minchiate_label, c['cards'])} = {c['value']}" for c in combos]
                ),
            )
        )
    prompt = view.get("prompt")
    controls: list[Control] = []
    desc = f"You are {_name(names, seat)}, team {view['team']} (partner: {_name(names, (seat + 2) % 4)})."
    if prompt is None:
        desc += "\nNothing to do right now."
    elif view["phase"] == "play":
        desc += "\nYour turn: play a card (only legal cards are offered)."
        choices = [
            Choice(minchiate_label(a["card"]), a, description=minchiate_long(a["card"])) for a in prompt["actions"]
        ]
        controls = split_choices(choices, "Play a card", prefer_buttons=False)
    elif view["phase"] == "discard":
        need = prompt["need"]
        desc += f"\nDiscard {need} card(s): zero-point cards only, never trump 29."
        if prompt["kind"] == "combo":
            f = prompt["fields"][0]
            opts = [(minchiate_label(c), c) for c in f["from"]][:MAX_SELECT_OPTIONS]
            controls = [
                Control(
                    "combo",
                    f"Discard {need}",
                    base_action={"type": "discard"},
                    fields=[ComboField("cards", f"Choose {need} card(s) to discard", opts, f["count"])],
                )
            ]
        else:
            desc += " (Too many cards for one menu: discard one at a time for now.)"
            choices = [
                Choice(minchiate_label(a["cards"][0]), a, description=minchiate_long(a["cards"][0]))
                for a in prompt["actions"]
            ]
            controls = split_choices(choices, "Discard one card", prefer_buttons=False)[:4]
    elif view["phase"] == "declare":
        desc += "\nDeclare your combinations (default: all)."
        choices = []
        for i, a in enumerate(prompt["actions"]):
            lbl, d = _declare_label(a, combos)
            choices.append(Choice(lbl, a, "success" if i == 0 else "secondary", d or None))
        controls = split_choices(choices, "Declare", prefer_buttons=len(choices) <= 10)
    elif view["phase"] == "cut":
        desc += "\nCut the pack: choose how many cards to lift."
        choices = [Choice(f"Cut {a['k']} cards", a) for a in prompt["actions"]]
        controls = split_choices(choices, "Cut depth", prefer_buttons=False)[:5]
    return Panel(f"Minchiate — your hand ({len(hand)})", _clip(desc, 4000), sections[:25], controls)


def settlement_text(settlement: Settlement, names: list[str]) -> str:
    s = settlement.summary
    lines = [f"**Minchiate — deal {int(s.get('deal', settlement.index)) + 1}**"]
    for ev in s.get("events", []):
        if ev.get("reason") == "end of deal":
            continue
        lines.append(_event_line(ev, names))
    end = s.get("end", {})
    for t in ("A", "B"):
        e = end.get(t)
        if e:
            lines.append(
                f"End {t}: cards {e['cards']} + combinations {e['combinations']}"
                f" + extra cards {e['card_count']} + last trick {e['last_trick']} = {e['total']}"
            )
    r = s.get("resti", {})
    lines.append(f"Final difference {s.get('final_diff', 0):+d} (A − B); resti A {r.get('A', 0)} · B {r.get('B', 0)}")
    w = s.get("winner")
    net = abs(int(s.get("net_A", 0)))
    if w:
        lines.append(f"Team {w} ({_team_names(names, w)}) wins {net} " + ("resto" if net == 1 else "resti"))
    else:
        lines.append("Tie: no resti change hands.")
    stake = settlement.amounts.get("stake")
    if stake:
        lines.append("Stakes: " + ", ".join(f"{_name(names, i)} {v:+d}" for i, v in enumerate(stake)))
    text = "\n".join(lines)
    if len(text) > 4000:
        head, tail = lines[:1], lines[-4:]
        text = "\n".join([*head, _lines_within(lines[1:-4], 4000 - 600), *tail])
    return text


def rules_text() -> str:
    return "\n".join(
        [
            "**Minchiate (Florentine tarot, 97 cards)** — 4 players, partners opposite, play anticlockwise.",
            "**Cards.** Trumps T40 (high) … T1, the Matto (excuse), four suits with K > Q > C > F above the "
            "pips; in Coins/Cups the Ace is the highest pip and 10 the lowest, "
            "in Swords/Batons 10 is highest.",
            "**Points.** T36–T40: 10 each; T28, T30–T35, T20, T13, T10, T1, the Matto and the Kings: 5 each; "
            "T2–T5: 3 each (142 in total). T29 is worth 5 inside a combination.",
            "**Deal.** The cutter robs up to 13 robbable cards (counting cards and trumps above 20) from the "
            "cut, scoring them at once. Everyone gets 10 + 11 cards; each 21st card is shown "
            "and scores at once. "
            "The rest is the Fola: the dealer robs from it (scoring), then takes its counting cards and T29. "
            "Cutter and dealer discard back to 21 (zero-point cards only, never T29).",
            "**Declarations.** Runs of 3+ trumps within 1–5 or 28–40 (merged), T1+T40+Matto, T1+T13+T28, "
            "T10+T20+T30 or T20+T30+T40 (all four = 25), 3 or 4 Kings. A combination is worth its cards; "
            "the Matto adds 5 to every other combination. Then the Fola is shown.",
            "**Play.** 21 tricks. Follow suit, else trump, else anything. "
            "The first time a suit is led, after "
            "a trump has been played to it, a later player holding that King must play it. The Matto may be "
            "played instead of following; it never wins, stays with its team, and one card is owed for it if "
            "the opponents won that trick (the Matto itself if its team took no trick).",
            "**Scoring.** Capturing opponents' counting cards scores at once. "
            "Every 60 points of lead converts "
            "to a resto during play. At the end each team counts its pile: card points, combinations, +1 per "
            "card over 42, +10 for the last trick; the net difference gives 1 resto per started 60. "
            "Most net resti wins.",
        ]
    )


def card_label(card: str) -> str:
    return minchiate_label(card)


def describe(action: dict[str, Any], before: dict[str, Any]) -> str | None:
    """What the table learns from a non-play action (replays, the terminal game); ``None``: use its notation."""
    t = action.get("type")
    if t == "discard":
        n = len(action.get("cards") or []) if isinstance(action.get("cards"), list) else 1
        return f"discards {n} card{'s' if n != 1 else ''}"
    if t == "declare":
        return "makes their declaration"
    if t == "cut":
        return f"cuts the pack at {action.get('k')}"
    return None


def after_action(before: dict[str, Any], after: dict[str, Any], names: list[str]) -> list[str]:
    return []

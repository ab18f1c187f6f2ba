"""Plain-text output for the terminal: panels as text, and a game told action by action, trick by trick.

Only public information is told: what every player at the table saw (a Mighty discard is "discards 3
cards", a secret Wizard bid "bids"), the public panel at the start of each hand, and the renderers'
settlement texts. The same :class:`Narrator` tells a replayed record and the computers' moves in
``tavolo play``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from bot.engine.protocol import Action, Settlement, View
from bot.i18n import _, _n

from . import _games
from .model import HINTS_TAG
from .notation import format_action
from .replay import Replayed, kept


def plain(text: str) -> str:
    """Discord markdown to plain text (the renderers only use bold)."""
    return text.replace("**", "")


def panel_lines(panel: _games.Panel) -> list[str]:
    """A renderer's panel as text lines: title, description, sections (indented) and footer."""
    out = [f"=== {plain(panel.title)} ==="]
    if panel.description:
        out.extend(plain(panel.description).splitlines())
    for s in panel.sections:
        out.append(f"{plain(s.name)}:")
        out.extend("  " + ln for ln in plain(s.value).splitlines())
    if panel.footer:
        out.append(f"({plain(panel.footer)})")
    return out


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("Seat {n}", n=seat + 1)


def _card(game_id: str, card: Any) -> str:
    try:
        return _games.card_label(game_id, str(card))
    except (KeyError, IndexError):
        return str(card)


def _suit(game_id: str, suit: Any) -> str:
    return _games.suit_label(game_id, str(suit))


def play_text(game_id: str, action: Action) -> str:
    """A played card as the table sees it, with what goes with it (a Joker's suit, a signal)."""
    text = _card(game_id, action.get("card"))
    if action.get("suit"):
        text += " " + _("calling {suit}", suit=_suit(game_id, action["suit"]))
    if action.get("joker_call"):
        text += " " + _("with a joker call")
    if action.get("signal"):
        text += f" ({action['signal']})"
    return text


def public_text(game_id: str, action: Action, before: View) -> str:
    """What the table learns from a (non-play) action, without anything private (the game's renderer says)."""
    if action.get("type") == "pass":
        return _("passes")
    text = _games.renderer(game_id).describe(action, before)
    return text if text is not None else format_action(game_id, action)


def _same_plays(a: Any, plays: list[list[Any]]) -> bool:
    return isinstance(a, list) and [list(p) for p in a if isinstance(p, (list, tuple))] == plays


def _find_winner(obj: Any, plays: list[list[Any]], depth: int = 0) -> int | None:
    """The winner of ``plays`` as some public trick record in ``obj`` states it (views differ per game)."""
    if depth > 4:
        return None
    if isinstance(obj, dict):
        if _same_plays(obj.get("plays"), plays) and isinstance(obj.get("winner"), int):
            return int(obj["winner"])
        items = list(obj.values())
    elif isinstance(obj, list):
        cards = [c for _, c in plays]
        # Mediatore keeps finished tricks as [leader, cards, winner, signal]
        if len(obj) >= 3 and obj[0] == plays[0][0] and obj[1] == cards and isinstance(obj[2], int):
            return int(obj[2])
        items = obj
    else:
        return None
    for v in items:
        if isinstance(v, (dict, list)):
            w = _find_winner(v, plays, depth + 1)
            if w is not None:
                return w
    return None


class Narrator:
    """Turns steps of a game into text lines, keeping the trick in progress."""

    def __init__(self, game_id: str, names: Sequence[str]) -> None:
        self.game_id = game_id
        self.names = list(names)
        self.trick: list[list[Any]] = []
        self.texts: list[str] = []
        self.trick_no = 0

    def hand_start(self, hand: int, before: View) -> list[str]:
        self.trick, self.texts, self.trick_no = [], [], 0
        lines = ["", "== " + _("Hand {n}", n=hand + 1) + " =="]
        lines.extend(panel_lines(_games.public_panel(self.game_id, before, self.names)))
        return lines

    def step(self, seat: int, action: Action, before: View, after: View, settled: Sequence[Settlement]) -> list[str]:
        who = _name(self.names, seat)
        out: list[str] = []
        if action.get("type") == "play":
            self.trick.append([seat, action.get("card")])
            self.texts.append(f"{who} {play_text(self.game_id, action)}")
            if len(self.trick) >= len(self.names):
                self.trick_no += 1
                w = _find_winner(after, self.trick)
                won = f" → {_name(self.names, w)}" if w is not None else ""
                out.append(_("Trick {n}: {plays}", n=self.trick_no, plays=" · ".join(self.texts)) + won)
                self.trick, self.texts = [], []
        else:
            out.append(f"{who}: {public_text(self.game_id, action, before)}")
        out.extend(_games.renderer(self.game_id).after_action(before, after, self.names))
        for s in settled:
            out.append("")
            out.extend(plain(_games.settlement_text(self.game_id, s, self.names)).splitlines())
        return out

    def unfinished(self) -> list[str]:
        if not self.trick:
            return []
        return [_("Trick {n} (unfinished): {plays}", n=self.trick_no + 1, plays=" · ".join(self.texts))]


def result_lines(game_id: str, replayed: Replayed, names: Sequence[str]) -> list[str]:
    res = replayed.game.result()
    if res is None:
        return ["", _("The game is not over (result *).")]
    order = sorted(range(len(res.totals)), key=lambda s: (res.ranks[s], s))
    # the unit is a noun with its plural form after each amount ("+3 stakes", "-1 resto"), never a bare id
    cells = [f"{res.ranks[s]}. {_name(names, s)} {_games.amount_text(res.totals[s], res.currency)}" for s in order]
    return ["", _("Final result: {cells}", cells=", ".join(cells))]


def replay_text(replayed: Replayed, hand: int | None = None) -> Iterator[str]:
    """The replayed game told hand by hand (only ``hand``, 0-based, if given; else the record's ``[Hand]``)."""
    rec = replayed.record
    names = [_games.display_name(n) for n in rec.players]
    hand = rec.hand if hand is None else hand
    yield _n(
        "{game} — {n} player: {names}",
        "{game} — {n} players: {names}",
        len(names),
        game=_games.title(rec.game),
        names=", ".join(names),
    )
    opts = ", ".join(f"{k}={v}" for k, v in rec.options.items()) or _("defaults")
    if rec.date:
        yield _("Seed {seed}; options: {options}; played {date}", seed=str(rec.seed), options=opts, date=rec.date)
    else:
        yield _("Seed {seed}; options: {options}", seed=str(rec.seed), options=opts)
    if hand is not None and hand > 0:
        yield _("(Hands 1 to {n} are replayed but not shown.)", n=hand)
    narrator = Narrator(rec.game, names)
    before = kept(replayed.initial)
    asked = hints_asked(rec.tags.get(HINTS_TAG, ""))
    for i, step in enumerate(replayed.steps):
        if hand is not None and step.hand != hand:
            before = kept(step.public)
            continue
        if step.starts_hand:
            yield from narrator.hand_start(step.hand, before)
        for seat in asked.get(i, ()):
            yield _("💡 {name} asked for a hint.", name=_name(names, seat))
        after = kept(step.public)
        yield from narrator.step(step.seat, step.action, before, after, step.settlements)
        before = after
    yield from narrator.unfinished()
    yield from result_lines(rec.game, replayed, names)


def hints_asked(tag: str) -> dict[int, list[int]]:
    """A ``[Hints "2@18 3@41"]`` tag as {0-based action index: [0-based seats]} (malformed pairs are skipped:
    the tag is a note, not part of the game)."""
    out: dict[int, list[int]] = {}
    for pair in tag.split():
        seat, _sep, action = pair.partition("@")
        if seat.isdigit() and action.isdigit() and int(seat) > 0 and int(action) > 0:
            out.setdefault(int(action) - 1, []).append(int(seat) - 1)
    return out


def action_label(game_id: str, action: Action, panel: _games.Panel | None = None) -> str:
    """An action as its own seat would name it: a card with what goes with it, the panel's label of a choice, or
    the cards of a combination (a discard, a monte exchange); else the record notation."""
    if action.get("type") == "play" and "card" in action:
        return play_text(game_id, action)
    for ctl in panel.controls if panel is not None else ():
        for ch in ctl.choices:
            if ch.action == action:
                return plain(ch.label)
    cards = [v for v in action.values() if isinstance(v, list)]
    if cards and all(isinstance(c, str) for c in cards[0]):
        return ", ".join(_card(game_id, c) for c in cards[0])
    return format_action(game_id, action)


def hint_text(game_id: str, hint: Any, panel: _games.Panel | None = None) -> str:
    """A :class:`bot.ai.hints.Hint` in one line: what the strong player would do, and how it fared."""
    what = action_label(game_id, hint.action, panel)
    if hint.forced:
        return _("💡 {action} (your only choice).", action=what)
    line = _n(
        "💡 {action}: it went well in {good} of {n} simulated deal.",
        "💡 {action}: it went well in {good} of {n} simulated deals.",
        hint.samples,
        action=what,
        good=hint.good,
    )
    if hint.alternative is not None:
        line += " " + _(
            "(The normal player's choice, {alternative}: {good}.)",
            alternative=action_label(game_id, hint.alternative, panel),
            good=hint.alternative_good,
        )
    return line

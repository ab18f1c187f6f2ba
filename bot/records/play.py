"""``tavolo play``: one seat of a game in the terminal against computer players, saved as a hand record.

The same engines, computer players and screens as the Discord bot (the terminal is a front-end of the table,
:class:`TerminalFrontend`): at each decision the public and the seat's screen are printed as text, then the
seat's choices as numbered lines (``  1) Pass``) and the prompt ``> ``. A number or a choice's name (a card id
such as ``QS``, its label ``Q♠``, ``pass``, ``bid 2``) picks it, case-insensitively; anything else is refused
with a message and asked again. Card combinations (discards) are picked one or more cards at a time. Computer
seats draw their randomness from the game's seed (as the table service does), so a game with the same seed and
answers replays exactly.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.protocol import Action, Game

from . import _games
from ._games import Seat, Table, TableUpdate, audience, seat_screen, table_screen
from .notation import format_action
from .show import Narrator, hint_text, panel_lines, plain, play_text

PROMPT = "> "
_PLAYER = 1  # the player's user id at the terminal's table (any id: only the seat matters)
_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "\ufe0f": ""}


def norm(text: str) -> str:
    """Lower case, French suit symbols as letters, no spaces: ``Q ♠`` -> ``qs``."""
    out = unicodedata.normalize("NFKC", text).casefold()
    for sym, letter in _SYMBOLS.items():
        out = out.replace(sym, letter)
    return re.sub(r"\s+", "", out)


def alnum(text: str) -> str:
    """Only letters and digits of :func:`norm` (``🧙 Wizard`` -> ``wizard``)."""
    return "".join(ch for ch in norm(text) if ch.isalnum())


@dataclass(slots=True)
class Option:
    """One numbered line of a prompt: an action, or a combination to build (``combo``)."""

    label: str
    action: Action | None = None
    combo: Any = None  # the renderer's Control of kind "combo", when this option builds a combination
    group: str = ""
    exact: set[str] = field(default_factory=set)  # names that pick it
    loose: set[str] = field(default_factory=set)  # weaker names (a card id shared by several choices)


def _action_keys(game_id: str, action: Action) -> tuple[set[str], set[str]]:
    exact: set[str] = set()
    loose: set[str] = set()
    text = format_action(game_id, action)
    if not text.startswith("{"):
        exact.add(norm(text))
        _, _, args = text.partition(" ")
        if args:
            exact.add(norm(args))
    card = action.get("card")
    if isinstance(card, str):
        loose.add(norm(card))
        try:
            label = _games.card_label(game_id, card)
        except (KeyError, IndexError):
            label = card
        loose.update({norm(label), alnum(label)})
    return {k for k in exact if k}, {k for k in loose if k}


def _label_keys(label: str) -> set[str]:
    keys = {norm(label), alnum(label)}
    _, sep, rest = label.partition(":")
    if sep:
        keys.add(norm(rest))
    return {k for k in keys if k}


def options_for(game_id: str, panel: _games.Panel, legal: list[Action]) -> list[Option]:
    """The seat's choices, as the private panel offers them (or the legal actions, if it shows none)."""
    out: list[Option] = []
    for ctl in panel.controls:
        if ctl.kind == "combo":
            opt = Option(f"{plain(ctl.placeholder)}: choose the cards", combo=ctl, group=plain(ctl.placeholder))
            opt.exact = {norm(ctl.placeholder)}
            out.append(opt)
            continue
        for ch in ctl.choices:
            label = plain(ch.label) + (f" — {plain(ch.description)}" if ch.description else "")
            exact, loose = _action_keys(game_id, ch.action)
            out.append(Option(label, ch.action, None, plain(ctl.placeholder), exact | _label_keys(ch.label), loose))
    if not out:
        for a in legal:
            exact, loose = _action_keys(game_id, a)
            out.append(Option(format_action(game_id, a), a, exact=exact, loose=loose))
    return out


def match(text: str, options: Sequence[Option]) -> tuple[int | None, str]:
    """The index of the option ``text`` names, or ``None`` and why not."""
    t = text.strip()
    n = len(options)
    if not t:
        return None, f"Type a number from 1 to {n}, or a card or choice name (? for a hint)."
    if re.fullmatch(r"[0-9]+", t):
        i = int(t)
        if 1 <= i <= n:
            return i - 1, ""
        return None, f"There is no choice {t}: type a number from 1 to {n}, or a card or choice name."
    key, key2 = norm(t), alnum(t)
    for level in ("exact", "loose"):
        hits = [i for i, o in enumerate(options) if key in getattr(o, level) or (key2 and key2 in getattr(o, level))]
        if len(hits) == 1:
            return hits[0], ""
        if len(hits) > 1:
            nums = ", ".join(str(i + 1) for i in hits[:8])
            return None, f"{t!r} matches several choices ({nums}): type the number of the one you mean."
    return None, f"{t!r} is not one of the choices: type a number from 1 to {n}, or a card or choice name."


class Quit(Exception):
    """The player closed the input (EOF) or pressed Ctrl-C."""


def forced_card(game: Game, seat: int) -> Action | None:
    """The card played for ``seat`` at once, as at the Discord tables: its only legal action, when that is a card."""
    legal = game.legal_actions(seat)
    return legal[0] if len(legal) == 1 and legal[0].get("type") == "play" else None


def alone_to_move(game: Game, seat: int) -> bool:
    """Whether ``seat`` is to move and nobody else is (the computers move first: the player is asked only then)."""
    to_move = game.to_move()
    return seat in to_move and all(s == seat for s in to_move)


class TerminalFrontend:
    """The terminal as a front-end of a table (:class:`bot.tables.frontends.Frontend`): one player's screen.

    It narrates every change from the public views (each hand's start, every action and what it settled) and, when
    it is its player's turn, shows the public screen and the seat's screen (:mod:`bot.tables.screens`): the seat's
    view only. It reads nothing: the player's answers are :class:`TerminalGame`'s.
    """

    def __init__(self, game_id: str, seat: int, names: list[str], write: Callable[[str], None]) -> None:
        self.seat = seat
        self.write = write
        self.narrator = Narrator(game_id, names)
        self._public: dict[str, Any] | None = None  # the public view the last update left
        self._hand: int | None = None
        self._public_shown_at = -1  # the table's version when the public screen was last printed

    def _out(self, lines: Sequence[str]) -> None:
        for ln in lines:
            self.write(ln)

    def update(self, u: TableUpdate) -> None:
        t = u.table
        game = t.game
        if game is None:
            return
        after = game.public_view()
        if u.kind in ("action", "finished") and u.actor_seat is not None and self._public is not None:
            seat, action = t.log[-1]
            self._out(self.narrator.step(seat, action, self._public, after, u.settlements))
        self._public = after
        if game.is_over:
            return
        if game.hand_number != self._hand:
            self._hand = game.hand_number
            self._out(self.narrator.hand_start(game.hand_number, after))
            self._public_shown_at = t.version
        if self.seat in audience(u).seats and alone_to_move(game, self.seat):
            self._show_turn(t)

    def _show_turn(self, t: Table) -> None:
        assert t.game is not None
        forced = forced_card(t.game, self.seat)
        if forced is not None:
            # named only if the seat's view shows it (Wizard's blind round hides a player's own card from them)
            shown = forced.get("card") in (t.game.view(self.seat).get("hand") or [])
            self.write(f"(Your only playable card: {play_text(t.game_id, forced) if shown else 'played for you'})")
            return
        if self._public_shown_at != t.version:  # not twice in a row (a hand's start shows it too)
            self._out(["", *panel_lines(table_screen(t).panel)])
            self._public_shown_at = t.version
        self._out(["", *panel_lines(seat_screen(t, self.seat, None).panel)])


class TerminalGame:
    """One game: a human at ``seat``, computers elsewhere. ``write`` and ``read`` are the terminal: the game shows
    itself through a :class:`TerminalFrontend` and reads the player's answers here."""

    def __init__(
        self,
        game_id: str,
        *,
        num_seats: int,
        seat: int,
        level: str | None,
        seed: int,
        options: dict[str, Any],
        names: list[str],
        write: Callable[[str], None] = print,
        read: Callable[[str], str] = input,
        hints: bool = False,
    ) -> None:
        self.game_id = game_id
        self.seat = seat
        self.seed = seed
        self.options = options
        self.names = names
        self.write = write
        self.read = read
        self.game: Game = _games.engine_class(game_id)(num_seats, options, seed)  # type: ignore[call-arg]
        self.agents = {s: _games.make_agent(game_id, level) for s in range(num_seats) if s != seat}
        #: show the strong player's hint before each decision (``?`` at the prompt asks for it anyway)
        self.hints = hints
        self._adviser: _games.Agent | None = None
        self.log: list[tuple[int, Action]] = []
        #: the game as a table (what the screens are drawn from): the player at ``seat``, computers elsewhere
        seats = [Seat(_PLAYER if s == seat else None, names[s], None if s == seat else level) for s in range(num_seats)]
        self.table = Table(0, 0, 0, game_id, _PLAYER, options, seed, "running", seats, 0, log=self.log, game=self.game)
        self.frontends: list[TerminalFrontend] = [TerminalFrontend(game_id, seat, names, write)]

    def _notify(self, update: TableUpdate) -> None:
        for frontend in self.frontends:
            frontend.update(update)

    def _input(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except (EOFError, KeyboardInterrupt) as e:
            raise Quit(type(e).__name__) from None

    def run(self) -> None:
        """Play until the game is over. Raises :class:`Quit` if the player leaves."""
        game, t = self.game, self.table
        self._notify(TableUpdate(t, "started"))
        while not game.is_over:
            to_move = game.to_move()
            computers = [s for s in to_move if s != self.seat]
            if computers:
                seat = computers[0]
                # The table service's seeding: reproducible per (seed, position in the log, seat).
                rng = _games.rng(self.seed, "ai", len(self.log), seat)
                action = self.agents[seat].choose(game.clone(), seat, rng)
            elif self.seat in to_move:
                seat = self.seat
                action = self._human_action()
            else:  # nobody may act although the game goes on: an engine bug, not the player's
                raise RuntimeError("no seat may act")
            booked = len(game.settlements())
            game.apply(seat, action)
            self.log.append((seat, action))
            if game.is_over:
                t.status = "finished"
            kind = "finished" if game.is_over else "action"
            self._notify(TableUpdate(t, kind, list(game.settlements()[booked:]), actor_seat=seat))

    def _human_action(self) -> Action:
        """The player's answer to the seat's screen (which the front-end has shown)."""
        game = self.game
        gid = self.game_id
        forced = forced_card(game, self.seat)
        if forced is not None:
            return forced
        legal = game.legal_actions(self.seat)
        panel = seat_screen(self.table, self.seat, None).panel
        options = options_for(gid, panel, legal)
        if self.hints:
            self.write(self._hint(panel))
        while True:
            self._list(options)
            while True:
                answer = self._input(PROMPT)
                if answer.strip() == "?":
                    self.write(self._hint(panel))
                    continue
                i, why = match(answer, options)
                if i is not None:
                    break
                self.write(why)
            opt = options[i]
            action = opt.action if opt.combo is None else self._combo(opt.combo)
            if action is None:
                continue
            # the table service's gate: only what the seat is offered, in the engine's own form (checked before
            # anything touches the real game)
            canonical = _games.offered(game, self.seat, action)
            if canonical is None:
                self.write(f"Not allowed: {_games.error_text(_games.why_not(game, self.seat, action), gid)}")
                continue
            return canonical

    def _hint(self, panel: _games.Panel) -> str:
        """What the strong player would do in this seat, searched on the seat's view only (see ``bot.ai.hints``),
        seeded by the game's seed and the position, so the same position always gets the same hint."""
        if self._adviser is None:
            self._adviser = _games.make_agent(self.game_id, "strong")
        found = _games.hint(
            self.game, self.seat, self._adviser, _games.rng(self.seed, "hint", len(self.log)).getrandbits(64)
        )
        return hint_text(self.game_id, found, panel)

    def _list(self, options: Sequence[Option]) -> None:
        self.write("")
        self.write("Your choices:")
        group = None
        for i, o in enumerate(options, 1):
            if o.group and o.group != group and len({x.group for x in options}) > 1:
                self.write(f"{o.group}:")
            group = o.group
            self.write(f"  {i}) {o.label}")

    def _combo(self, ctl: Any) -> Action | None:
        """Build a combination action (e.g. the cards to discard), one or more picks per line."""
        action: Action = dict(ctl.base_action or {})
        for f in ctl.fields:
            left = list(f.options)  # (label, value)
            picked: list[str] = []
            while len(picked) < f.count:
                opts = []
                for label, value in left:
                    o = Option(plain(label), {"value": value})
                    o.exact = {norm(value), norm(label), alnum(label)}
                    opts.append(o)
                self.write("")
                self.write(f"{plain(f.placeholder)} — {len(picked)} of {f.count} chosen:")
                for i, o in enumerate(opts, 1):
                    self.write(f"  {i}) {o.label}")
                tokens = [t for t in re.split(r"[\s,]+", self._input(PROMPT).strip()) if t]
                chosen: list[int] = []
                error = "" if tokens else "Type the numbers or names of the cards."
                for tok in tokens:
                    i, why = match(tok, opts)
                    if i is None:
                        error = why
                        break
                    if i not in chosen:
                        chosen.append(i)
                if not error and len(picked) + len(chosen) > f.count:
                    error = f"Choose {f.count - len(picked)} more, not {len(chosen)}."
                if error:
                    self.write(error)
                    continue
                picked.extend(left[i][1] for i in chosen)
                left = [x for j, x in enumerate(left) if j not in chosen]
            action[f.key] = picked if f.count > 1 else picked[0]
        return action

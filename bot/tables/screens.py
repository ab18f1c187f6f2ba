"""What each message of a table shows, decided once and Discord-free: the cog only turns these into components.

The table message is built from the public view only (:func:`table_screen`), a seat's private message from
that seat's view only (:func:`seat_screen`), and so is each one's picture (a scene: the renderer's input); the
rules that decide which controls a message offers (who may act, a forced card needs no button, an away player
gets *I'm back*, an open-ended session a vote) live here or in the service, never in the cog.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.protocol import Action, GameResult
from bot.games import registry
from bot.games.spec import pictures_of
from bot.i18n import N_, _, _p
from bot.i18n import names as ui
from bot.images.scene import HandScene, RevealScene, TableScene
from bot.ledger.money import MoneyValue
from bot.ledger.texts import amount_text
from bot.render.base import Panel, SeatPlate, Section, fit
from bot.render.errors import error_text

from .model import Table

_LEVEL_HELP = {
    "easy": N_("simple greedy play"),
    "normal": N_("sound heuristic play (default)"),
    "strong": N_("searches sampled deals (ISMCTS)"),
}
_LEVEL_NAME = {
    "easy": lambda: _p("computer level", "easy"),
    "normal": lambda: _p("computer level", "normal"),
    "strong": lambda: _p("computer level", "strong"),
}


class _Translated(Mapping[str, str]):
    """A table of msgids read in the current locale at each lookup (a plain dict would freeze one language)."""

    def __init__(self, msgids: Mapping[str, str]) -> None:
        self._msgids = msgids

    def __getitem__(self, key: str) -> str:
        return _(self._msgids[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._msgids)

    def __len__(self) -> int:
        return len(self._msgids)


#: what a computer level means, for the lobby's "Add a computer of a chosen level" menu
LEVEL_HELP: Mapping[str, str] = _Translated(_LEVEL_HELP)


def level_name(level: str) -> str:
    """A computer level's name in the reader's language (``easy``, ``normal``, ``strong``)."""
    return _LEVEL_NAME[level]() if level in _LEVEL_NAME else level


def game_title(game_id: str) -> str:
    """The game's title in the reader's language (the titles are extracted from the specs, ``msgctxt`` "game")."""
    return _p("game", registry.title(game_id))


@dataclass(slots=True)
class TableScreen:
    """The channel's table message: a panel and the table-level buttons it offers (by operation name)."""

    panel: Panel
    #: "join", "leave", "bot", "unbot", "start", "cancel" (lobby); "hand", "back", "vote", "end" (running);
    #: "again" (finished)
    buttons: list[str] = field(default_factory=list)
    #: the lobby's computer levels (a select when there is more than one)
    levels: list[str] = field(default_factory=list)
    #: what the table picture shows (``None``: no picture, e.g. the lobby or a game without pictures)
    picture: TableScene | None = None
    #: what each seat's plate shows (a front-end that draws its own table: the Activity), from the public view
    plates: list[SeatPlate] = field(default_factory=list)


@dataclass(slots=True)
class SeatScreen:
    """One seat's private message: its panel, the legal actions its controls encode, and its buttons."""

    panel: Panel
    legal: list[Action]
    #: the table is running: controls are live (a closed table's message shows no controls)
    live: bool
    #: the computer plays this seat: the message offers *I'm back*
    away: bool
    #: the seat's hand as a picture (``None``: no picture)
    picture: HandScene | None = None
    #: offer the **Hint** button (the table's ``hints`` option, the seat to move with a real choice)
    hint: bool = False


def _title(t: Table) -> str:
    return game_title(t.game_id)


def table_screen(t: Table) -> TableScreen:
    if t.status == "lobby" or t.game is None:
        return _lobby_screen(t)
    game = t.game
    public = game.public_view()
    panel = registry.renderer(t.game_id).public_panel(public, t.names)
    pictures = pictures_of(registry.renderer(t.game_id))
    picture = pictures.table_picture(public, t.names) if pictures is not None else None
    away = [s.name for s in t.seats if s.away]
    if away:
        playing = _("🤖 playing for: {names}", names=", ".join(away))
        panel.footer = (panel.footer + "\n" if panel.footer else "") + playing
    if t.options.get("hints") and t.status == "running":
        # everyone at the table knows that anyone may ask the computer (the lobby shows hints=True too)
        note = _(
            "💡 Hints are on: each player may ask what the strong computer would do (**{hint}**).",
            hint=ui.label(ui.HINT),
        )
        panel.footer = (panel.footer + "\n" if panel.footer else "") + note
    if t.status != "running":
        closed = _p("table", "finished") if t.status == "finished" else _p("table", "cancelled")
        panel.title = f"{panel.title} — {closed}"
        again = t.status == "finished" and t.tournament_id is None
        shown = picture if t.status == "finished" else None
        return TableScreen(fit(panel), ["again"] if again else [], picture=shown, plates=_plates(t, public))
    buttons = ["hand"]
    if away:
        buttons.append("back")
    if game.open_ended:
        buttons.append("vote")  # open-ended sessions: everyone may vote to stop after the current hand
    buttons.append("end")
    return TableScreen(fit(panel), buttons, picture=picture, plates=_plates(t, public))


def _plates(t: Table, public: dict[str, Any]) -> list[SeatPlate]:
    make = getattr(registry.renderer(t.game_id), "seat_plates", None)
    return list(make(public, t.names)) if make is not None else []


def _lobby_screen(t: Table) -> TableScreen:
    spec = registry.get(t.game_id)
    seats = (
        "\n".join(
            f"{i + 1}. {name}"
            + (" 👑" if s.user_id == t.host_id else "")
            + (f" ({level_name(s.ai_level)})" if s.ai_level else "")
            for i, (s, name) in enumerate(zip(t.seats, t.names, strict=True))
        )
        or "—"
    )
    # option names and values are what /<game> new takes: shown as typed, not translated
    opts = ", ".join(f"{k}={v}" for k, v in sorted(t.options.items())) or _("defaults")
    desc = _(
        "Players: {seats}. Options: {options}. Turn timer: {seconds}s.",
        seats=spec.seats_text(),
        options=opts,
        seconds=t.turn_timeout,
    )
    note = spec.renderer.lobby_note(len(t.seats))
    if note:
        desc += "\n" + note
    title = game_title(t.game_id)
    panel = Panel(title="🃏 " + _("{game} — lobby", game=title), description=desc)
    panel.sections.append(Section(_("Seats ({n}/{total})", n=len(t.seats), total=spec.max_seats), seats))
    if t.status != "lobby":
        panel.title = title + " — " + _p("table", "cancelled")
        return TableScreen(fit(panel))
    return TableScreen(fit(panel), ["join", "leave", "bot", "unbot", "start", "cancel"], spec.levels)


def reveal_scene(t: Table) -> RevealScene | None:
    """The picture of the hand just settled (e.g. the cards each side took), from the public view only."""
    if t.game is None:
        return None
    reveal = getattr(pictures_of(registry.renderer(t.game_id)), "reveal_picture", None)
    return reveal(t.game.public_view(), t.names) if reveal is not None else None


def seat_screen(t: Table, seat: int, forced: Action | None) -> SeatScreen:
    """``forced``: the action the service plays for this seat at once (its only card), if any."""
    assert t.game is not None
    game = t.game
    view = game.view(seat)
    panel = registry.renderer(t.game_id).private_panel(view, t.names)
    pictures = pictures_of(registry.renderer(t.game_id))
    picture = pictures.hand_picture(view) if pictures is not None else None
    live = t.status == "running"
    away = live and t.seats[seat].away
    if not live:
        panel.controls = []
    if away:
        panel.description = _(
            "🤖 The computer is playing for you. Click **{back}** to play again.", back=ui.label(ui.BACK)
        ) + ("\n" + panel.description)
        panel.controls = []
    legal = game.legal_actions(seat) if panel.controls else []
    if forced is not None:
        panel.controls = []  # a forced card is played for the seat at once: no button to race with
        legal = []
    if picture is not None and (not panel.controls or away) and picture.legal is not None:
        # no card may be clicked now (forced, away, closed): the picture marks none as playable either
        picture = HandScene(picture.deck, picture.cards_shown, None, picture.groups)
    hint = bool(t.options.get("hints")) and live and not away and len(legal) > 1 and seat in game.to_move()
    return SeatScreen(fit(panel), legal, live, away, picture, hint)


def play_refusals(t: Table, seat: int, cards: list[str]) -> dict[str, str]:
    """Why each of ``cards`` (of the seat's hand, not among its legal plays) may not be played now, in the game's
    own words: what the engine would answer, asked of a copy (the table's game is never touched)."""
    if t.game is None or not cards:
        return {}
    trial = copy.deepcopy(t.game)
    out = {}
    for card in cards:
        try:
            trial.apply(seat, {"type": "play", "card": card})
        except IllegalAction as e:
            out[card] = error_text(e, t.game_id)
        else:  # (cannot happen for a card that is not legal; a copy that moved on is thrown away)
            trial = copy.deepcopy(t.game)
    return out


def is_moving(t: Table, seat: int) -> bool:
    """Whether ``seat`` is one of the seats to act now."""
    return t.status == "running" and t.game is not None and seat in t.game.to_move()


def legal_at(t: Table, seat: int | None, version: int) -> list[Action]:
    """Legal actions of ``seat`` now, if the table is still at ``version`` (index-encoded choices are bound
    to the version they were rendered at). Raises :class:`IllegalAction` when stale."""
    if seat is None or t.game is None or t.version != version:
        raise IllegalAction("stale")
    return t.game.legal_actions(seat)


def combo_fields(t: Table, seat: int | None) -> list[dict[str, Any]] | None:
    """The multi-pick fields the seat's prompt asks for now (``None``: no such prompt)."""
    if seat is None or t.game is None:
        return None
    prompt = t.game.view(seat).get("prompt") or {}
    if prompt.get("kind") != "combo":
        return None
    return list(prompt.get("fields", []))


def standings(t: Table) -> GameResult | None:
    """The game's result, or for a session ended early the totals of its settled hands."""
    assert t.game is not None
    res = t.game.result()
    if res is not None:
        return res
    settled = t.game.settlements()
    if not settled:
        return None
    currency = next((c for c in ("stake", "resto", "point") if c in settled[0].amounts), "point")
    totals = [sum(s.amounts.get(currency, (0,) * len(t.seats))[i] for s in settled) for i in range(len(t.seats))]
    return GameResult.from_totals(currency, totals)


def final_text(t: Table, money: MoneyValue | None = None) -> str:
    """The game-over post: each seat's total, with what it is worth when the server set a money value."""
    res = standings(t)
    if res is None:
        return "🏁 " + _("The {game} table is closed; no hand was completed.", game=_title(t))
    order = sorted(range(len(t.seats)), key=lambda i: res.ranks[i])
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = []
    for i in order:
        medal = medals.get(res.ranks[i], f"{res.ranks[i]}.")
        amount = amount_text(res.totals[i], res.currency)
        worth = _signed_money(res.totals[i], res.currency, money)
        lines.append(f"{medal} {t.names[i]}: {amount}" + (f" ({worth})" if worth else ""))
    return "🏁 " + _("**{game} — game over**", game=_title(t)) + "\n" + "\n".join(lines)


def settlement_text(t: Table, settlement: Any, money: MoneyValue | None = None) -> str:
    """A hand's summary; with a server money value, one more line says what each seat's result is worth."""
    text = registry.renderer(t.game_id).settlement_text(settlement, t.names)
    if money is None:
        return text
    parts = [
        f"{t.names[seat]} {worth}"
        for currency, amounts in settlement.amounts.items()
        for seat, amount in enumerate(amounts)
        if amount and (worth := _signed_money(amount, currency, money))
    ]
    return text + ("\n" + _("💶 In money: {values}", values=", ".join(parts)) if parts else "")


def _signed_money(amount: int, currency: str, money: MoneyValue | None) -> str | None:
    """``+1,50 €`` / ``-3,00 €``: a result as money (points are scores: their value counts as it stands)."""
    worth = money.text(amount, currency) if money is not None else None
    if worth is None:
        return None
    return "+" + worth if amount > 0 else worth

"""A reader's VIEW of a table (docs/activity-protocol.md), built only from the screens the Discord messages use.

The public part comes from :func:`bot.tables.screens.table_screen` and its scene, the private part from
:func:`bot.tables.screens.seat_screen` and its hand scene, for the seat the reader holds (a spectator gets no
private part): nothing here reads the game's state, so a page can never show what the seat's DM would not.
Texts come out in the current locale (the caller sets the reader's). Pure: no asyncio, no Discord.
"""

from __future__ import annotations

from typing import Any

from bot.engine.protocol import Action
from bot.games import registry
from bot.i18n import N_, _, _p
from bot.i18n import names as ui
from bot.images.scene import HandScene, TableScene
from bot.render.base import Control, Panel, SeatPlate
from bot.tables import screens
from bot.tables.model import Table

from .asks import asks_of

__all__ = ["BUTTONS", "diff", "offered_ops", "public_view", "view_of", "with_seat"]

#: the table message's buttons the Activity offers (op -> label msgid, style), with the Discord buttons' labels;
#: **My hand** makes no sense in the frame (the page shows the hand)
BUTTONS: dict[str, tuple[str, str]] = {
    "join": (ui.JOIN, "success"),
    "leave": (ui.LEAVE, "secondary"),
    "bot": (ui.ADD_COMPUTER, "secondary"),
    "unbot": (N_("Remove computer"), "secondary"),
    "start": (ui.START, "primary"),
    "cancel": (N_("Cancel"), "danger"),
    "back": (ui.BACK, "secondary"),
    "vote": (ui.VOTE, "secondary"),
    "end": (N_("End {title} table"), "danger"),
    "again": (N_("Play again"), "success"),
}


def _panel(panel: Panel) -> dict[str, Any]:
    return {
        "title": panel.title,
        "description": panel.description,
        "sections": [{"name": s.name, "value": s.value} for s in panel.sections],
        "footer": panel.footer,
    }


def _control(c: Control) -> dict[str, Any]:
    return {
        "kind": c.kind,
        "placeholder": c.placeholder,
        "choices": [
            {"label": ch.label, "style": ch.style, "description": ch.description, "action": ch.action}
            for ch in c.choices
        ],
        "base_action": c.base_action,
        "fields": [
            {"key": f.key, "placeholder": f.placeholder, "count": f.count, "options": [list(o) for o in f.options]}
            for f in c.fields
        ],
    }


def _plates(t: Table, plates: list[SeatPlate]) -> list[dict[str, Any]]:
    """Each seat's plate with its labels in the reader's language (the page draws it, and reads it out)."""
    out = []
    for i, seat in enumerate(t.seats):
        p = plates[i] if i < len(plates) else SeatPlate()
        chips = []
        if p.bid is not None:
            chips.append({"kind": "bid", "label": p.bid_label or _p("seat plate", "Bid"), "value": p.bid})
        if p.tricks is not None:
            chips.append({"kind": "tricks", "label": _p("seat plate", "Tricks"), "value": str(p.tricks)})
        if p.points is not None:
            chips.append({"kind": "points", "label": _p("seat plate", "Points"), "value": str(p.points)})
        if p.score is not None:
            chips.append({"kind": "score", "label": _p("seat plate", "Score"), "value": str(p.score)})
        out.append(
            {
                "chips": chips,
                "dealer": p.dealer,
                "role": p.role,
                "passed": p.passed,
                "computer": seat.is_computer,
                "away": seat.away,
            }
        )
    return out


def _scene(
    scene: TableScene | None, t: Table | None = None, plates: list[SeatPlate] | None = None
) -> dict[str, Any] | None:
    if scene is None:
        return None
    return {
        "deck": scene.deck,
        "seats": [{"name": s.name, "line": s.line, "active": s.active, "team": s.team} for s in scene.seats],
        "trick": [list(p) for p in scene.trick],
        "last_trick": None if scene.last_trick is None else [list(p) for p in scene.last_trick],
        "centre_text": scene.centre_text,
        "centre_card": scene.centre_card,
        "trick_winner": scene.trick_winner,
        "last_winner": scene.last_winner,
        "bottom_seat": scene.bottom_seat,
        "clockwise": scene.clockwise,
        # (a game whose renderer draws no plates keeps the picture's seat lines)
        "plates": _plates(t, plates) if t is not None and plates else [],
    }


def _hand(scene: HandScene | None) -> dict[str, Any] | None:
    if scene is None:
        return None
    return {
        "deck": scene.deck,
        "cards": list(scene.cards_shown),
        "legal": None if scene.legal is None else sorted(scene.legal),
        "groups": None if scene.groups is None else [list(g) for g in scene.groups],
    }


def public_view(t: Table) -> dict[str, Any]:
    """The part of every reader's VIEW of ``t`` that is the same for all (the table message's), in the current
    locale; ``seat`` and ``private`` are filled by :func:`with_seat`."""
    screen = screens.table_screen(t)
    buttons = []
    for op in screen.buttons:
        if op in BUTTONS:
            label, style = BUTTONS[op]
            text = _(label, title=screens.game_title(t.game_id)) if "{title}" in label else _(label)
            buttons.append({"op": op, "label": text, "style": style})
    levels = [
        {"level": lvl, "label": screens.level_name(lvl), "help": screens.LEVEL_HELP.get(lvl)} for lvl in screen.levels
    ]
    return {
        "game": t.game_id,
        "status": t.status,
        "seat": None,
        **_panel(screen.panel),
        "buttons": buttons,
        "levels": levels,
        "scene": _scene(screen.picture, t, screen.plates),
        "reveal": _reveal(t),
        "private": None,
        "deadline": int(t.deadline * 1000) if t.deadline is not None and t.status == "running" else None,
        "to_move": sorted(t.game.to_move()) if t.game is not None and t.status == "running" else [],
    }


def _reveal(t: Table) -> dict[str, Any] | None:
    """The hand settled last, from the public view: its result (the settlement's text) and the cards it reveals
    (each side's counting cards); ``key`` changes with each settled hand (the page shows each reveal once)."""
    if t.game is None:
        return None
    settled = t.game.settlements()
    if not settled:
        return None
    scene = screens.reveal_scene(t)
    return {
        "key": len(settled),
        "text": screens.settlement_text(t, settled[-1]),
        "deck": scene.deck if scene is not None else None,
        "rows": [
            {"label": r.label, "cards": list(r.cards), "ringed": sorted(r.highlight)}
            for r in (scene.rows if scene is not None else ())
        ],
    }


def offered_ops(t: Table, seat: int | None, user_id: int | None) -> set[str]:
    """The table operations this reader may use: **Join** for one not seated, the host's controls for the host
    (start, computers, cancel, end), **Leave** and the vote for a player, **I'm back** for an away player, **Play
    again** for the players of a finished table."""
    host = user_id is not None and user_id == t.host_id
    away = seat is not None and t.seats[seat].away
    ops = {
        "join": seat is None,
        "leave": seat is not None,
        "bot": host,
        "unbot": host,
        "start": host,
        "cancel": host,
        "end": host,
        "back": away,
        "vote": seat is not None,
        "again": seat is not None,
    }
    return {op for op, ok in ops.items() if ok}


def _labels(t: Table, codes: set[str]) -> dict[str, str]:
    label = registry.renderer(t.game_id).card_label
    return {c: label(c) for c in sorted(codes)}


def _codes(view: dict[str, Any]) -> set[str]:
    """Every card the reader's view shows (its names go with the view: the page speaks them)."""
    codes: set[str] = set()
    scene = view.get("scene") or {}
    codes |= {c for _s, c in scene.get("trick") or []} | {c for _s, c in scene.get("last_trick") or []}
    if scene.get("centre_card"):
        codes.add(scene["centre_card"])
    for row in (view.get("reveal") or {}).get("rows") or []:
        codes |= set(row["cards"])
    private = view.get("private") or {}
    codes |= set((private.get("hand") or {}).get("cards") or [])
    for ask in private.get("asks") or []:
        codes |= set(ask.get("cards") or {})
        codes |= {o["card"] for o in ask.get("options") or [] if "card" in o}
    return codes


def with_seat(
    public: dict[str, Any], t: Table, seat: int | None, forced: Action | None = None, user_id: int | None = None
) -> dict[str, Any]:
    """``public`` completed for ``seat`` (None: a spectator) and its reader ``user_id`` in the current locale:
    the table buttons this reader may use, and the seat's private part. ``forced``: the action the service plays
    for that seat at once (:meth:`TableService.forced_action`), which gets no control."""
    ops = offered_ops(t, seat, user_id)
    view = {**public, "seat": seat, "buttons": [b for b in public["buttons"] if b["op"] in ops]}
    if seat is not None and t.game is not None:
        ss = screens.seat_screen(t, seat, forced)
        hand = _hand(ss.picture)
        cards = hand["cards"] if hand else []
        spec = registry.get(t.game_id)
        asks = asks_of(
            ss.panel.controls,
            cards,
            registry.renderer(t.game_id).card_label,
            spec.deck,
            screens.combo_fields(t, seat) if ss.panel.controls else None,
        )
        if hand is not None:
            hand_asks = [a for a in asks if a["kind"] == "hand"]
            plays = {c for a in hand_asks for c in a["cards"]}
            # the hand's other cards are dimmed while the seat plays a card: each says why, in the game's words
            playing = any(o["action"].get("type") == "play" for a in hand_asks for c in a["cards"].values() for o in c)
            others = [c for c in cards if c not in plays]
            hand["why"] = screens.play_refusals(t, seat, others) if playing else {}
            hand["idle"] = None if screens.is_moving(t, seat) or t.status != "running" else _("It is not your turn.")
        view["private"] = {
            **_panel(ss.panel),
            "controls": [_control(c) for c in ss.panel.controls],
            "asks": asks,
            "hand": hand,
            "hint": ss.hint,
            "away": ss.away,
        }
    view["cards"] = _labels(t, _codes(view))
    return view


def view_of(t: Table, seat: int | None, forced: Action | None = None, user_id: int | None = None) -> dict[str, Any]:
    """The VIEW of ``t`` for ``seat`` (None: a spectator) and its reader ``user_id`` in the current locale."""
    return with_seat(public_view(t), t, seat, forced, user_id)


def diff(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], list[str]] | None:
    """The top-level keys of ``new`` that differ from ``old`` and the keys it lost; None when sending ``new``
    whole is no larger (every key changed: the patch would hold all of it and more)."""
    changed = {k: v for k, v in new.items() if k not in old or old[k] != v}
    gone = [k for k in old if k not in new]
    if len(changed) == len(new) and new:
        return None
    return changed, gone

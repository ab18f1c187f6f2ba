"""A reader's VIEW of a table (docs/activity-protocol.md), built only from the screens the Discord messages use.

The public part comes from :func:`bot.tables.screens.table_screen` and its scene, the private part from
:func:`bot.tables.screens.seat_screen` and its hand scene, for the seat the reader holds (a spectator gets no
private part): nothing here reads the game's state, so a page can never show what the seat's DM would not.
Texts come out in the current locale (the caller sets the reader's). Pure: no asyncio, no Discord.
"""

from __future__ import annotations

from typing import Any

from bot.engine.protocol import Action
from bot.i18n import N_, _
from bot.i18n import names as ui
from bot.images.scene import HandScene, TableScene
from bot.render.base import Control, Panel
from bot.tables import screens
from bot.tables.model import Table

__all__ = ["BUTTONS", "diff", "public_view", "view_of", "with_seat"]

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


def _scene(scene: TableScene | None) -> dict[str, Any] | None:
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
        "scene": _scene(screen.picture),
        "private": None,
        "deadline": int(t.deadline * 1000) if t.deadline is not None and t.status == "running" else None,
        "to_move": sorted(t.game.to_move()) if t.game is not None and t.status == "running" else [],
    }


def with_seat(public: dict[str, Any], t: Table, seat: int | None, forced: Action | None = None) -> dict[str, Any]:
    """``public`` completed for ``seat`` (None: a spectator, who gets it as it is) in the current locale.
    ``forced``: the action the service plays for that seat at once (:meth:`TableService.forced_action`), which
    gets no control."""
    view = {**public, "seat": seat}
    if seat is not None and t.game is not None:
        ss = screens.seat_screen(t, seat, forced)
        view["private"] = {
            **_panel(ss.panel),
            "controls": [_control(c) for c in ss.panel.controls],
            "hand": _hand(ss.picture),
            "hint": ss.hint,
            "away": ss.away,
        }
    return view


def view_of(t: Table, seat: int | None, forced: Action | None = None) -> dict[str, Any]:
    """The VIEW of ``t`` for ``seat`` (None: a spectator) in the current locale."""
    return with_seat(public_view(t), t, seat, forced)


def diff(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], list[str]] | None:
    """The top-level keys of ``new`` that differ from ``old`` and the keys it lost; None when sending ``new``
    whole is no larger (every key changed: the patch would hold all of it and more)."""
    changed = {k: v for k, v in new.items() if k not in old or old[k] != v}
    gone = [k for k in old if k not in new]
    if len(changed) == len(new) and new:
        return None
    return changed, gone

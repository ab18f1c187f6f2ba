"""Toy's renderer: views -> panels (the same Protocol every game's renderer satisfies)."""

from __future__ import annotations

from bot.engine.protocol import Settlement, View
from bot.render.base import Choice, Control, Panel, Section

SUIT = {"R": "🟥", "B": "🟦"}


def card_label(card: str) -> str:
    return card[0] + SUIT[card[-1]]


def _names(names: list[str], seats: list[int]) -> str:
    return ", ".join(names[s] for s in seats) or "—"


def public_panel(view: View, names: list[str]) -> Panel:
    trick = " ".join(f"{names[s]}: {card_label(c)}" for s, c in view["trick"]) or "—"
    points = "\n".join(f"{n}: {p}" for n, p in zip(names, view["points"], strict=True))
    return Panel(
        title="🧸 Toy",
        description=f"To play: {_names(names, view['to_move'])}",
        sections=[Section("Trick", trick), Section("Points", points)],
    )


def private_panel(view: View, names: list[str]) -> Panel:
    panel = public_panel(view, names)
    panel.sections.insert(0, Section("Your hand", " ".join(card_label(c) for c in view["hand"]) or "—"))
    if view["legal"]:
        choices = [Choice(card_label(a["card"]), a, "primary") for a in view["legal"]]
        panel.controls.append(Control("buttons", "Play a card", choices))
    return panel


def settlement_text(settlement: Settlement, names: list[str]) -> str:
    pts = settlement.amounts["point"]
    return "🧸 Toy hand over: " + ", ".join(f"{n} {p}" for n, p in zip(names, pts, strict=True))


def rules_text() -> str:
    return "Follow suit; the highest card of the led suit wins the trick."


def lobby_note(seats: int) -> str:
    return ""


def describe(action: dict[str, object], before: View) -> str | None:
    return None


def after_action(before: View, after: View, names: list[str]) -> list[str]:
    return []

"""What one picture shows, as plain frozen data: a game's ``pictures`` module builds a scene from a view, the cog
renders it. A scene is the renderer's whole input, so the privacy tests can read exactly which cards a picture
may show (:meth:`cards`), and its content key names the uploaded file (equal scenes, equal file names).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.images import text
from bot.images.cache import DEFAULT_CACHE, ImageCache, content_key
from bot.images.hand import render_hand
from bot.images.reveal import RevealRow, render_reveal
from bot.images.table import SeatInfo, render_table

Plays = tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class TableScene:
    """The inputs of :func:`bot.images.render_table` (see there)."""

    deck: str
    seats: tuple[SeatInfo, ...]
    trick: Plays = ()
    last_trick: Plays | None = None
    centre_text: str | None = None
    centre_card: str | None = None
    trick_winner: int | None = None
    last_winner: int | None = None
    bottom_seat: int = 0
    clockwise: bool = True

    def cards(self) -> set[str]:
        shown = {c for _, c in self.trick} | {c for _, c in self.last_trick or ()}
        return shown | ({self.centre_card} if self.centre_card else set())

    def render(self, cache: ImageCache | None = DEFAULT_CACHE) -> bytes:
        return render_table(
            self.deck,
            self.seats,
            self.trick,
            self.last_trick,
            centre_text=self.centre_text,
            centre_card=self.centre_card,
            trick_winner=self.trick_winner,
            last_winner=self.last_winner,
            bottom_seat=self.bottom_seat,
            clockwise=self.clockwise,
            cache=cache,
        )


@dataclass(frozen=True, slots=True)
class HandScene:
    """The inputs of :func:`bot.images.render_hand`: the cards in display order, the playable ones marked."""

    deck: str
    cards_shown: tuple[str, ...]
    legal: frozenset[str] | None = None
    groups: tuple[tuple[str, ...], ...] | None = None

    def cards(self) -> set[str]:
        return set(self.cards_shown) | {c for g in self.groups or () for c in g}

    def render(self, cache: ImageCache | None = DEFAULT_CACHE) -> bytes:
        return render_hand(self.deck, self.cards_shown, self.legal, self.groups, cache=cache)


@dataclass(frozen=True, slots=True)
class RevealScene:
    """The inputs of :func:`bot.images.render_reveal`: labelled rows of cards (an end-of-hand reveal)."""

    deck: str
    rows: tuple[RevealRow, ...] = field(default_factory=tuple)

    def cards(self) -> set[str]:
        return {c for r in self.rows for c in r.cards}

    def render(self, cache: ImageCache | None = DEFAULT_CACHE) -> bytes:
        return render_reveal(self.deck, self.rows, cache=cache)


Scene = TableScene | HandScene | RevealScene


def scene_key(scene: Scene) -> str:
    """A short stable name for a scene's picture (its content key; reveals nothing of the content)."""
    return content_key(type(scene).__name__, scene)[:20]


# ------------------------------------------------------------------------------------- helpers for pictures.py
def plays(trick: Mapping[str, Any] | None) -> Plays:
    """A view's trick (``{"plays": [[seat, card], ...]}``) as the renderers' ``(seat, card)`` tuples."""
    if not trick:
        return ()
    return tuple((int(s), str(c)) for s, c in trick.get("plays") or [])


def legal_cards(view: Mapping[str, Any]) -> frozenset[str] | None:
    """The cards a seat's prompt lets it play now, ``None`` when it is not asked to play a card."""
    prompt = view.get("prompt") or {}
    if prompt.get("kind") != "pick":
        return None
    cards = {str(a["card"]) for a in prompt.get("actions") or [] if a.get("type") == "play" and "card" in a}
    return frozenset(cards) if cards else None


def seat_name(names: Sequence[str], seat: int) -> str:
    """What a picture writes for a seat's player: :func:`bot.images.text.name_label` of the name (``#n`` for a
    name nothing of which can be drawn, or none)."""
    return text.name_label(names[seat] if 0 <= seat < len(names) else "", seat + 1)


def seats_of(
    names: Sequence[str], n: int, lines: Iterable[str], active: Iterable[int], teams: Sequence[int | None]
) -> tuple[SeatInfo, ...]:
    moving = set(active)
    return tuple(
        SeatInfo(seat_name(names, s), line, s in moving, teams[s] if s < len(teams) else None)
        for s, line in zip(range(n), lines, strict=False)
    )

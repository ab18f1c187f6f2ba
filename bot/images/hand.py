"""A player's hand as a picture: cards fanned left to right, grouped by suit, the playable ones marked.

Cards overlap so that each one shows its left strip, where the index is; a small gap separates suits. Long
hands wrap onto more rows (at most ``max_per_row`` cards a row, 12 by default), breaking between suits where
possible and balancing the rows, so a 21-card Minchiate hand stays large enough to read on a phone. When
``legal`` is given, the playable cards are raised and underlined and the others dimmed.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from bot.engine.cards import JOKER, MATTO
from bot.images import encode, sprites, theme
from bot.images.cache import DEFAULT_CACHE, ImageCache, cached

CARD_HEIGHT = sprites.BASE_HEIGHT
PITCH = 0.34  # visible strip of an overlapped card, as a share of its width (the index is 29% wide)
GROUP_GAP = 16  # pixels between suits
ROW_GAP = 14
MARGIN = 14
LIFT = 18  # how far playable cards are raised
MAX_PER_ROW = 12


def suit_key(deck: str, card: str) -> str:
    """The group a card is shown in: its suit; Wizards, Jesters, the Joker, trumps and the Matto apart."""
    if deck == "french":
        return "JK" if card == JOKER else card[-1]
    if deck == "wizard":
        return card[:3] if card.startswith(("WIZ", "JES")) else card[-1]
    if deck == "italian":
        return card[-1]
    if deck == "minchiate":
        if card == MATTO:
            return MATTO
        return "T" if card[0] == "T" else card[:2]
    raise KeyError(f"unknown deck {deck!r}")


def group_by_suit(deck: str, cards: Sequence[str]) -> list[list[str]]:
    """Cards grouped by :func:`suit_key`, groups in order of first appearance, cards in their given order."""
    groups: dict[str, list[str]] = {}
    for c in cards:
        groups.setdefault(suit_key(deck, c), []).append(c)
    return list(groups.values())


def _split_rows(groups: list[list[str]], max_per_row: int) -> list[list[list[str]]]:
    """Rows of groups: as few rows as the limit allows; breaks inside a suit avoided, then rows balanced."""
    flat = [(gi, c) for gi, g in enumerate(groups) for c in g]
    n = len(flat)
    if n <= max_per_row:
        return [groups]
    rows = -(-n // max_per_row)
    best: tuple[int, int, tuple[int, ...]] | None = None
    candidates: Sequence[tuple[int, ...]]
    if n <= 40:
        candidates = list(itertools.combinations(range(1, n), rows - 1))
    else:  # very long hands (not in any game here): plain equal chunks
        candidates = [tuple(n * (r + 1) // rows for r in range(rows - 1))]
    for cuts in candidates:
        bounds = (0, *cuts, n)
        sizes = [bounds[i + 1] - bounds[i] for i in range(rows)]
        if max(sizes) > max_per_row:
            continue
        inner = sum(1 for b in cuts if flat[b - 1][0] == flat[b][0])  # a cut inside one suit
        cost = (inner, max(sizes) - min(sizes), cuts)
        if best is None or cost < best:
            best = cost
    assert best is not None
    bounds = (0, *best[2], n)
    out: list[list[list[str]]] = []
    for i in range(rows):
        row: list[list[str]] = []
        last = -1
        for gi, c in flat[bounds[i] : bounds[i + 1]]:
            if gi != last:
                row.append([])
                last = gi
            row[-1].append(c)
        out.append(row)
    return out


def _row_width(row: list[list[str]], w: int, pitch: int) -> int:
    # within a group cards overlap; the last card of each group shows whole, then a gap
    return sum((len(g) - 1) * pitch + w for g in row) + (len(row) - 1) * GROUP_GAP


def hand_image(
    deck: str,
    cards: Sequence[str],
    legal: Collection[str] | None = None,
    groups: Sequence[Sequence[str]] | None = None,
    *,
    max_per_row: int = MAX_PER_ROW,
    height: int = CARD_HEIGHT,
) -> Image.Image:
    """The hand as an RGB image (see :func:`render_hand`)."""
    sh = sprites.sheet(deck, height)
    for c in cards:
        if c not in sh.faces:
            raise KeyError(f"{c!r} is not a card of the {deck} deck")
    gs = [list(g) for g in groups if g] if groups is not None else group_by_suit(deck, cards)
    rows = _split_rows(gs, max(1, max_per_row)) if gs else []
    w, h = sh.width, sh.height
    pitch = round(w * PITCH)
    lift = LIFT if legal is not None else 0
    width = max([_row_width(r, w, pitch) for r in rows] + [w]) + 2 * MARGIN
    n_rows = max(1, len(rows))
    height_px = n_rows * (h + lift) + (n_rows - 1) * ROW_GAP + 2 * MARGIN + 6
    img = Image.new("RGB", (width, height_px), theme.FELT)
    d = ImageDraw.Draw(img)
    ox, oy = sh.shadow_offset
    for ri, row in enumerate(rows):
        x = MARGIN + (width - 2 * MARGIN - _row_width(row, w, pitch)) // 2
        top = MARGIN + ri * (h + lift + ROW_GAP)
        for gi, group in enumerate(row):
            if gi:
                x += GROUP_GAP
            for c in group:
                playable = legal is None or c in legal
                y = top if playable and legal is not None else top + lift
                face = sh.faces[c] if playable else sh.dimmed[c]
                img.paste(sh.shadow, (x + ox, y + oy), sh.shadow)
                img.paste(face, (x, y), face)
                if legal is not None and playable:
                    # a gold bar under the visible strip: marks a playable card even where it is overlapped
                    d.rounded_rectangle((x + 4, y + h + 4, x + pitch - 4, y + h + 9), radius=2, fill=theme.LEGAL_MARK)
                x += pitch
            x += w - pitch
    return img


def render_hand(
    deck: str,
    cards: Sequence[str],
    legal: Collection[str] | None = None,
    groups: Sequence[Sequence[str]] | None = None,
    *,
    max_per_row: int = MAX_PER_ROW,
    cache: ImageCache | None = DEFAULT_CACHE,
) -> bytes:
    """PNG of a hand.

    ``cards`` in display order (ids of ``deck``); ``legal``: the cards that may be played now (``None``: no
    marking; an empty set dims every card); ``groups``: an explicit grouping to show instead of the suits
    (each inner list one group, in order). Deterministic; cached by content unless ``cache`` is ``None``.
    """
    legal_key = None if legal is None else frozenset(c for c in legal if c in set(cards))
    groups_key = None if groups is None else tuple(tuple(g) for g in groups)
    parts = ("hand", deck, tuple(cards), legal_key, groups_key, max_per_row)
    return cached(
        cache,
        parts,
        lambda: encode.to_png(hand_image(deck, cards, legal_key, groups_key, max_per_row=max_per_row), deck),
    )

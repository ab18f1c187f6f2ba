"""A player's hand as a picture: cards fanned left to right, grouped by suit, the playable ones marked.

Cards overlap so that each one shows its left strip, where the index is; a small gap separates suits. Long
hands wrap onto more rows (at most ``max_per_row`` cards a row, 12 by default) when that lets Discord show the
cards larger, on a desktop and on a phone alike; rows break between suits where possible. When
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
# chat columns a picture is fitted into (pixels): a desktop client's and a phone's
VIEWPORTS = ((550, 400), (380, 620))
MIN_WRAP = 7


def suit_key(deck: str, card: str) -> str:
    """The group a card is shown in: its suit; Wizards, Jesters, the Joker, trumps and the Matto apart."""
    if deck == "french":
        return "JK" if card == JOKER else card[-1]
    if deck == "wizard60":
        return card[:3] if card.startswith(("WIZ", "JES")) else card[-1]
    if deck == "italian":
        return card[-1]
    if deck == "minchiate97":
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


def _rows_of(flat: list[tuple[int, str]], bounds: Sequence[int]) -> list[list[list[str]]]:
    out: list[list[list[str]]] = []
    for i in range(len(bounds) - 1):
        row: list[list[str]] = []
        last = -1
        for gi, c in flat[bounds[i] : bounds[i + 1]]:
            if gi != last:
                row.append([])
                last = gi
            row[-1].append(c)
        out.append(row)
    return out


def _split_rows(
    groups: list[list[str]], max_per_row: int, w: int, h: int, pitch: int, lift: int
) -> list[list[list[str]]]:
    """Rows of groups for which Discord would show the cards largest.

    Candidates: the fewest rows the limit allows and one more (short hands, under ``MIN_WRAP`` cards, stay on
    one row). Each is scored by the scale at which the picture fits both a desktop and a phone chat column
    (``VIEWPORTS``; the smaller of the two counts, and never above 1, as chats do not enlarge pictures); a
    break inside a suit costs 8%, and among equal scores the fewest, then the most even rows win.
    """
    flat = [(gi, c) for gi, g in enumerate(groups) for c in g]
    n = len(flat)
    gidx = [gi for gi, _ in flat]

    def seg_width(a: int, b: int) -> int:  # row width of flat[a:b]; groups are contiguous, so O(1)
        g = gidx[b - 1] - gidx[a] + 1
        return (b - a - g) * pitch + g * w + (g - 1) * GROUP_GAP

    fewest = -(-n // max_per_row)
    best: tuple[float, int, int, tuple[int, ...]] | None = None
    most = fewest if n < MIN_WRAP else fewest + 1
    for rows in range(fewest, min(n, most) + 1):
        if n > 40:  # very long hands (not in any game here): plain equal chunks
            cut_sets: Sequence[tuple[int, ...]] = [tuple(n * (r + 1) // rows for r in range(rows - 1))]
        else:
            cut_sets = list(itertools.combinations(range(1, n), rows - 1))
        height = rows * (h + lift) + (rows - 1) * ROW_GAP + 2 * MARGIN + 6
        for cuts in cut_sets:
            bounds = (0, *cuts, n)
            sizes = [bounds[i + 1] - bounds[i] for i in range(rows)]
            if max(sizes) > max_per_row:
                continue
            inner = sum(1 for b in cuts if gidx[b - 1] == gidx[b])  # a cut inside one suit
            width = max(seg_width(bounds[i], bounds[i + 1]) for i in range(rows)) + 2 * MARGIN
            scale = min(min(1.0, vw / width, vh / height) for vw, vh in VIEWPORTS) * 0.92**inner
            key = (-round(scale, 2), rows, max(sizes) - min(sizes), cuts)
            if best is None or key < best:
                best = key
    assert best is not None
    return _rows_of(flat, (0, *best[3], n))


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
    w, h = sh.width, sh.height
    pitch = round(w * PITCH)
    lift = LIFT if legal is not None else 0
    rows = _split_rows(gs, max(1, max_per_row), w, h, pitch, lift) if gs else []
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

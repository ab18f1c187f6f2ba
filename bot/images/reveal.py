"""An end-of-hand reveal: labelled rows of cards (each player's hand, a kitty, captured counting cards ...).

Each row is a caller-given label (a player's name, or a symbol string) and its cards, overlapped like a hand;
``highlight`` rings chosen cards in gold (e.g. the called card, or the cards that scored). Very long rows
overlap more, so the picture stays within ``MAX_WIDTH``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.images import encode, sprites, text, theme
from bot.images.cache import DEFAULT_CACHE, ImageCache, cached

CARD_HEIGHT = 150
LABEL_SIZE = 22
LABEL_MAX_W = 200
MAX_WIDTH = 1280
MARGIN = 14
ROW_GAP = 14
PITCH = 0.36


@dataclass(frozen=True, slots=True)
class RevealRow:
    """One row: ``label`` (already translated; may be empty), ``cards`` in display order, ``highlight`` ringed."""

    label: str
    cards: tuple[str, ...]
    highlight: frozenset[str] = field(default_factory=frozenset)


def reveal_image(deck: str, rows: Sequence[RevealRow]) -> Image.Image:
    """The reveal as an RGB image (see :func:`render_reveal`)."""
    sh = sprites.sheet(deck, CARD_HEIGHT)
    labels = [text.fit(r.label, LABEL_SIZE, LABEL_MAX_W, bold=True) for r in rows]
    label_w = max([text.text_width(s, LABEL_SIZE, True) for s in labels if s] + [0])
    label_w = label_w + 16 if label_w else 0
    longest = max([len(r.cards) for r in rows] + [1])
    pitch = round(sh.width * PITCH)
    room = MAX_WIDTH - 2 * MARGIN - label_w - sh.width
    if longest > 1 and (longest - 1) * pitch > room:
        pitch = max(8, room // (longest - 1))
    width = 2 * MARGIN + label_w + (longest - 1) * pitch + sh.width
    n_rows = max(1, len(rows))
    height = 2 * MARGIN + n_rows * sh.height + (n_rows - 1) * ROW_GAP
    img = Image.new("RGB", (width, height), theme.FELT)
    d = ImageDraw.Draw(img)
    ox, oy = sh.shadow_offset
    for i, (row, label) in enumerate(zip(rows, labels, strict=True)):
        y = MARGIN + i * (sh.height + ROW_GAP)
        if label:
            text.draw_text(img, (MARGIN, y + sh.height // 2), label, LABEL_SIZE, theme.TEXT, bold=True)
        x = MARGIN + label_w
        for card in row.cards:
            if card not in sh.faces:
                raise KeyError(f"{card!r} is not a card of the {deck} deck")
            if card in row.highlight:
                d.rounded_rectangle(
                    (x - 4, y - 4, x + sh.width + 3, y + sh.height + 3), radius=12, fill=theme.WINNER_RING
                )
            img.paste(sh.shadow, (x + ox, y + oy), sh.shadow)
            img.paste(sh.faces[card], (x, y), sh.faces[card])
            x += pitch
    return img


def render_reveal(deck: str, rows: Sequence[RevealRow], *, cache: ImageCache | None = DEFAULT_CACHE) -> bytes:
    """PNG of labelled card rows, top to bottom. Deterministic; cached by content unless ``cache`` is ``None``."""
    rows_t = tuple(RevealRow(r.label, tuple(r.cards), frozenset(r.highlight)) for r in rows)
    return cached(cache, ("reveal", deck, rows_t), lambda: encode.to_png(reveal_image(deck, rows_t), deck))

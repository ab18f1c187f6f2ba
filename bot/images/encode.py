"""RGB picture -> small, deterministic PNG bytes, through one fixed 256-colour palette per deck.

Quantising against a palette chosen once (at start-up) costs about a millisecond, where choosing a palette
per picture costs several; it also makes equal inputs give equal bytes. The palette holds the theme's flat
colours exactly, the antialiasing ramps of every text colour on its background, and the colours of the deck's
card faces (median cut over all of them, plain and dimmed, on the felt).
"""

from __future__ import annotations

import functools
import io
import threading

from PIL import Image

from bot.images import sprites, theme

RGB = tuple[int, int, int]
_RAMP_STEPS = 5  # intermediate shades between a text colour and its background
PNG_LEVEL = 6  # zlib level: 6 is within the time budget and much smaller than 1

_lock = threading.Lock()


def _fixed_colours() -> list[RGB]:
    fixed: list[RGB] = [
        theme.FELT,
        theme.FELT_DARK,
        theme.FELT_RIM,
        theme.WOOD_BG,
        theme.PLATE,
        theme.PLATE_ACTIVE,
        theme.TEXT,
        theme.TEXT_DIM,
        theme.TEXT_ACTIVE,
        theme.WINNER_RING,
        theme.LEGAL_MARK,
        *theme.TEAMS,
        (0, 0, 0),
        (255, 255, 255),
    ]
    for fg, bg in theme.TEXT_PAIRS:
        for i in range(1, _RAMP_STEPS + 1):
            t = i / (_RAMP_STEPS + 1)
            fixed.append(tuple(round(b + (f - b) * t) for f, b in zip(fg, bg, strict=True)))  # type: ignore[misc]
    out: list[RGB] = []
    for c in fixed:  # keep the first of duplicates, in a stable order
        if c not in out:
            out.append(c)
    return out


def _face_samples(deck: str) -> Image.Image:
    """All faces (plain and dimmed) with their drop shadows on the felt, side by side."""
    sh = sprites.sheet(deck)
    cells = [*sh.faces.values(), *sh.dimmed.values()]
    pad = 8
    cw, ch = sh.width + pad, sh.height + pad
    cols = 16
    rows = (len(cells) + cols - 1) // cols
    img = Image.new("RGB", (cols * cw, rows * ch), theme.FELT)
    ox, oy = sh.shadow_offset
    for i, face in enumerate(cells):
        x, y = (i % cols) * cw + pad // 2, (i // cols) * ch + pad // 2
        img.paste(sh.shadow, (x + ox, y + oy), sh.shadow)
        img.paste(face, (x, y), face)
    return img


@functools.lru_cache(maxsize=8)
def _palette(deck: str) -> Image.Image:
    stored = sprites.stored_palette(deck)  # prepared by an earlier run (or another process) of the same art
    if stored is not None:
        img = Image.new("P", (1, 1))
        img.putpalette(stored)
        return img
    fixed = _fixed_colours()
    adaptive = _face_samples(deck).quantize(colors=256 - len(fixed), method=Image.Quantize.MEDIANCUT)
    pal = adaptive.getpalette() or []
    colours = list(fixed)
    for i in range(0, min(len(pal), 3 * (256 - len(fixed))), 3):
        c = (pal[i], pal[i + 1], pal[i + 2])
        if c not in colours:
            colours.append(c)
    colours += [colours[-1]] * (256 - len(colours))  # pad with a repeat, never used before the original
    img = Image.new("P", (1, 1))
    img.putpalette([v for c in colours[:256] for v in c])
    sprites.store_palette(deck, bytes(v for c in colours[:256] for v in c))
    return img


def palette(deck: str) -> Image.Image:
    """The deck's palette as a 1x1 "P" image (what ``Image.quantize(palette=...)`` takes); built once."""
    sprites.await_prepared(deck)
    with _lock:
        return _palette(deck)


def to_png(img: Image.Image, deck: str) -> bytes:
    """``img`` (RGB) as PNG bytes in the deck's palette, without dithering (flat colours stay flat)."""
    q = img.convert("RGB").quantize(palette=palette(deck), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    q.save(buf, "PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()

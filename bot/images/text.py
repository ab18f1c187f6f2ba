"""Text for the images: Pillow's bundled scalable font, suit symbols drawn as vector glyphs, safe fallbacks.

Only Pillow's own default font is used (``ImageFont.load_default(size=...)``, Pillow >= 10.1), so nothing is
read from the system and every machine renders the same bytes. That font covers printable ASCII only, so
:func:`sanitize` folds accented letters to their base letter (``é`` -> ``e``) and drops what it cannot show.
Suit symbols inside a string (``♠♥♦♣``, and the Italian suit emoji the text renderer uses: 🪙🏆⚔️🪵, plus 🧙🃏🤡)
are drawn as the same vector glyphs as on the cards, so a caller can pass ``bot.render.cards`` labels as they are.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable

from PIL import Image, ImageDraw, ImageFont

from bot.images import glyphs

RGB = tuple[int, int, int]
SS = 4  # symbols are drawn this many times larger, then downscaled (smooth edges)

# symbol character -> a drawing function (d, cx, cy, size) in a size x size box
_SYMBOLS: dict[str, Callable[[ImageDraw.ImageDraw, float, float, float], None]] = {
    "♠": lambda d, x, y, s: glyphs.spade(d, x, y, s * 0.9),
    "♣": lambda d, x, y, s: glyphs.club(d, x, y, s * 0.9),
    "♥": lambda d, x, y, s: glyphs.heart(d, x, y, s * 0.85),
    "♦": lambda d, x, y, s: glyphs.diamond(d, x, y, s * 0.9),
    "🪙": lambda d, x, y, s: glyphs.coin(d, x, y, s * 0.9),
    "🏆": lambda d, x, y, s: glyphs.cup(d, x, y, s * 0.95),
    "⚔": lambda d, x, y, s: glyphs.sword(d, x, y, s * 0.95, 30),
    "🪵": lambda d, x, y, s: glyphs.baton(d, x, y, s * 0.95, 30),
    "🧙": lambda d, x, y, s: glyphs.wizard_hat(d, x, y, s * 0.95, (92, 52, 160)),
    "🃏": lambda d, x, y, s: glyphs.jester_hat(d, x, y, s * 0.9, ((200, 40, 48), glyphs.GOLD)),
    "🤡": lambda d, x, y, s: glyphs.jester_hat(d, x, y, s * 0.9, ((40, 110, 190), glyphs.CUP_RED)),
}
# outline variants and the bare crossed-swords sign fold onto the symbols above
_ALIASES = {"♤": "♠", "♧": "♣", "♡": "♥", "♢": "♦", "\u2694": "⚔"}
_DROP = {"\ufe0f", "\ufe0e", "\u200d"}  # variation selectors and joiners around emoji
_REPLACE = {"…": "...", "—": "-", "–": "-", "’": "'", "‘": "'", "“": '"', "”": '"', "·": "-", "×": "x"}


@functools.lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels (cached: loading it parses the font each time)."""
    return ImageFont.load_default(size=size)


@functools.lru_cache(maxsize=1)
def _notdef() -> bytes:
    return bytes(font(24).getmask("\uffff"))


@functools.lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether the bundled font draws ``ch`` (a missing glyph renders as the .notdef box)."""
    if ch == " ":
        return True
    return bytes(font(24).getmask(ch)) != _notdef()


def sanitize(text: str) -> str:
    """Text the font can draw: symbols kept, accents folded (é -> e), other unknown characters dropped."""
    out: list[str] = []
    for ch in text:
        ch = _ALIASES.get(ch, ch)
        if ch in _DROP:
            continue
        if ch in _SYMBOLS or has_glyph(ch):
            out.append(ch)
        elif ch in _REPLACE:
            out.append(_REPLACE[ch])
        elif ch.isspace():
            out.append(" ")
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
            out.extend(c for c in base if c != ch and has_glyph(c))
    return "".join(out)


# on a dark background the black suits are drawn in the text colour and the red ones brighter
_ON_DARK: dict[str, Callable[[ImageDraw.ImageDraw, float, float, float, RGB], None]] = {
    "♠": lambda d, x, y, s, c: glyphs.spade(d, x, y, s * 0.9, c),
    "♣": lambda d, x, y, s, c: glyphs.club(d, x, y, s * 0.9, c),
    "♥": lambda d, x, y, s, c: glyphs.heart(d, x, y, s * 0.85, (255, 92, 92)),
    "♦": lambda d, x, y, s, c: glyphs.diamond(d, x, y, s * 0.9, (255, 92, 92)),
}


def _is_light(c: RGB) -> bool:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] > 128


@functools.lru_cache(maxsize=512)
def symbol_image(ch: str, size: int, on_dark_fill: RGB | None = None) -> Image.Image:
    """One symbol as an RGBA image of ``size`` x ``size`` pixels (drawn large, then downscaled; cached).

    ``on_dark_fill``: the symbol sits on a dark background next to text of this (light) colour.
    """
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    if on_dark_fill is not None and ch in _ON_DARK:
        _ON_DARK[ch](d, size * SS / 2, size * SS / 2, size * SS, on_dark_fill)
    else:
        _SYMBOLS[ch](d, size * SS / 2, size * SS / 2, size * SS)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def _runs(text: str) -> list[tuple[bool, str]]:
    """Split into (is_symbol, text) runs."""
    runs: list[tuple[bool, str]] = []
    for ch in text:
        sym = ch in _SYMBOLS
        if runs and not sym and not runs[-1][0]:
            runs[-1] = (False, runs[-1][1] + ch)
        else:
            runs.append((sym, ch))
    return runs


def _stroke(size: int, bold: bool) -> int:
    # The bundled font has one (regular) weight; a stroke in the text colour makes a legible bold.
    return max(1, size // 16) if bold else 0


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Pixel width of an already sanitized string drawn by :func:`draw_text`."""
    f = font(size)
    sw = _stroke(size, bold)
    w = 0
    for sym, run in _runs(text):
        if sym:
            w += int(size * 1.05)
        else:
            w += round(f.getlength(run)) + 2 * sw
    return w


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text`` sanitized and, if too wide, cut with an ellipsis so it fits ``max_width``."""
    text = sanitize(text)
    if text_width(text, size, bold) <= max_width:
        return text
    while text and text_width(text.rstrip() + "...", size, bold) > max_width:
        text = text[:-1]
    return text.rstrip() + "..." if text else ""


def draw_text(
    img: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: RGB,
    *,
    bold: bool = False,
    anchor: str = "l",
) -> int:
    """Draw sanitized ``text`` with its vertical middle at ``xy[1]``; ``anchor`` l / m / r places it horizontally.

    Returns the drawn width. Symbols are pasted as small pre-rendered images at the font's cap height.
    """
    text = sanitize(text)
    width = text_width(text, size, bold)
    x, y = xy
    if anchor == "m":
        x -= width // 2
    elif anchor == "r":
        x -= width
    d = ImageDraw.Draw(img)
    f = font(size)
    sw = _stroke(size, bold)
    for sym, run in _runs(text):
        if sym:
            s = int(size * 0.95)
            im = symbol_image(run, s, fill if _is_light(fill) else None)
            img.paste(im, (x + int(size * 0.05), y - s // 2), im)
            x += int(size * 1.05)
        else:
            d.text((x + sw, y), run, font=f, fill=fill, anchor="lm", stroke_width=sw, stroke_fill=fill)
            x += round(f.getlength(run)) + 2 * sw
    return width


@functools.lru_cache(maxsize=1024)
def glyph_mask(text: str, box_w: int, box_h: int, bold: bool = True) -> Image.Image:
    """``text`` as an L mask filling a ``box_w`` x ``box_h`` box: ink height = box height, squeezed if too wide.

    Used for the big card indices ("10", "K", "40"), which must be as large as the corner allows.
    """
    size = box_h * 2
    f = font(size)
    sw = max(1, size // 11) if bold else 0
    tmp = Image.new("L", (size * (len(text) + 1), size * 2), 0)
    ImageDraw.Draw(tmp).text((sw + 4, size // 2), text, font=f, fill=255, stroke_width=sw, stroke_fill=255)
    bbox = tmp.getbbox()
    if bbox is None:
        return Image.new("L", (box_w, box_h), 0)
    ink = tmp.crop(bbox)
    w = ink.width * box_h / ink.height
    w = min(w, box_w)  # squeeze wide ranks ("10") rather than shrink their height
    ink = ink.resize((max(1, round(w)), box_h), Image.Resampling.LANCZOS)
    out = Image.new("L", (box_w, box_h), 0)
    out.paste(ink, ((box_w - ink.width) // 2, 0))
    return out

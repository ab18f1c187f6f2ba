"""Text for the images: Noto fonts with a per-character fallback chain, suit symbols drawn as vector glyphs.

Names and labels are drawn with the fonts of :mod:`bot.images.fonts` (Noto Sans, Noto Sans Symbols 2 and
Symbols, Noto Sans CJK KR; subsets shipped with Tavolo, so every machine renders the same bytes). A string is split into
grapheme clusters (:mod:`bot.images.graphemes`); each is drawn in the first font that has all its characters,
or, failing that, its compatibility form (``𝓙`` -> ``J``, ``Ⓐ`` -> ``A``); what no font has (emoji, rare
scripts) is drawn as a visible placeholder box, never dropped. Suit symbols inside a string (``♠♥♦♣``, the
Italian suit emoji the text renderer uses: 🪙🏆⚔️🪵, plus 🧙🃏🤡 and the computer players' 🤖) are drawn as
vector glyphs like on the cards, so a caller can pass ``bot.render.cards`` labels as they are. The big card
indices (:func:`glyph_mask`) keep Pillow's bundled font: they are part of the card art.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable

from PIL import Image, ImageDraw, ImageFont

from bot.images import fonts, glyphs
from bot.images.graphemes import graphemes

RGB = tuple[int, int, int]
SS = 4  # symbols are drawn this many times larger, then downscaled (smooth edges)
ELLIPSIS = "\u2026"


def _robot(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    """A robot's head (the computer players' 🤖): antenna, rounded head, two eyes, a mouth."""
    grey, dark, eye = (184, 194, 208), (64, 72, 86), (110, 214, 255)
    w, lw = s * 0.94, max(1, round(s * 0.05))
    d.line((cx, cy - s * 0.4, cx, cy - s * 0.2), fill=dark, width=max(1, round(s * 0.07)))
    d.ellipse((cx - s * 0.09, cy - s * 0.5, cx + s * 0.09, cy - s * 0.32), fill=eye, outline=dark, width=lw)
    d.rounded_rectangle(
        (cx - w / 2, cy - s * 0.22, cx + w / 2, cy + s * 0.46), radius=s * 0.16, fill=grey, outline=dark, width=lw
    )
    r = s * 0.12
    for ex in (cx - w * 0.22, cx + w * 0.22):
        d.ellipse((ex - r, cy + s * 0.04 - r, ex + r, cy + s * 0.04 + r), fill=eye, outline=dark, width=lw)
    d.rectangle((cx - w * 0.24, cy + s * 0.27, cx + w * 0.24, cy + s * 0.34), fill=dark)


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
    "🤖": _robot,
}
# outline variants and the bare crossed-swords sign fold onto the symbols above
_ALIASES = {"♤": "♠", "♧": "♣", "♡": "♥", "♢": "♦", "\u2694": "⚔"}
# invisible characters that only steer an emoji's or a script's shaping: no glyph of their own
_JOINERS = {"\u200d", "\u200c", *map(chr, range(0xFE00, 0xFE10))}


@functools.lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels (the card indices' font; cached)."""
    return ImageFont.load_default(size=size)


def sanitize(text: str) -> str:
    """``text`` ready to lay out: composed (NFC), suit variants folded, controls and invisible format characters
    (bidi marks, zero-width spaces) removed, other whitespace as a space. Nothing visible is removed."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        ch = _ALIASES.get(ch, ch)
        cat = unicodedata.category(ch)
        if ch.isspace():
            out.append(" ")
        elif cat == "Cc" or (cat == "Cf" and ch not in _JOINERS and not 0xE0020 <= ord(ch) <= 0xE007F):
            continue
        else:
            out.append(ch)
    return "".join(out)


# a piece of laid-out text: ("font", text, chain index) | ("sym", symbol, -1) | ("box", grapheme, -1)
Piece = tuple[str, str, int]


@functools.lru_cache(maxsize=8192)
def _classify(g: str) -> Piece:
    """How one grapheme is drawn: a vector symbol, text in a font of the chain, or the placeholder box."""
    core = "".join(c for c in g if c not in _JOINERS)
    if core in _SYMBOLS:
        return ("sym", core, -1)
    if core in ("", " "):
        return ("font", core, 0)  # a stray joiner or selector alone has nothing to draw
    for form in (core, unicodedata.normalize("NFKC", core).strip()):
        if form:
            index = fonts.face_for(form)
            if index is not None:
                return ("font", form, index)
    return ("box", g, -1)


@functools.lru_cache(maxsize=2048)
def layout(text: str) -> tuple[Piece, ...]:
    """A sanitized string as pieces to draw in order; neighbouring graphemes of one font share a piece."""
    out: list[Piece] = []
    for g in graphemes(text):
        kind, s, index = _classify(g)
        if kind == "font" and out and out[-1][0] == "font" and out[-1][2] == index:
            out[-1] = ("font", out[-1][1] + s, index)
        else:
            out.append((kind, s, index))
    return tuple(out)


def has_glyph(ch: str) -> bool:
    """Whether ``ch`` is drawn as itself (a font of the chain has it, or it is a vector symbol)."""
    ch = _ALIASES.get(ch, ch)
    return ch == " " or ch in _SYMBOLS or fonts.face_for(ch) is not None


def missing(text: str) -> list[str]:
    """The graphemes of ``text`` drawn as the placeholder box (no font has them)."""
    return [s for kind, s, _ in layout(sanitize(text)) if kind == "box"]


def drawable(text: str) -> bool:
    """Whether anything of ``text`` is drawn as itself: a visible character that is not a placeholder box."""
    return any(kind == "sym" or (kind == "font" and s.strip()) for kind, s, _ in layout(sanitize(text)))


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


def _stroke(size: int, bold: bool) -> int:
    # a font without a bold file is made bold by a stroke in the text colour
    return max(1, size // 16) if bold else 0


def _box_width(size: int) -> int:
    return round(size * 0.62)


def _piece_width(piece: Piece, size: int, bold: bool) -> int:
    kind, s, index = piece
    if kind == "sym":
        return int(size * 1.05)
    if kind == "box":
        return _box_width(size)
    sw = 0 if fonts.true_bold(index) else _stroke(size, bold)
    return round(fonts.font(index, size, bold).getlength(s)) + 2 * sw


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Pixel width of a string drawn by :func:`draw_text` (sanitized first, as there)."""
    return sum(_piece_width(p, size, bold) for p in layout(sanitize(text)))


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text`` sanitized and, if too wide, cut after a whole grapheme with an ellipsis so it fits ``max_width``."""
    text = sanitize(text)
    if text_width(text, size, bold) <= max_width:
        return text
    parts = graphemes(text)
    while parts and text_width("".join(parts).rstrip() + ELLIPSIS, size, bold) > max_width:
        parts.pop()
    return "".join(parts).rstrip() + ELLIPSIS if parts else ""


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
    """Draw ``text`` with its vertical middle at ``xy[1]``; ``anchor`` l / m / r places it horizontally.

    Returns the drawn width. Every font's run sits on the first font's baseline; symbols are pasted as small
    pre-rendered images, characters no font has as an outlined box.
    """
    pieces = layout(sanitize(text))
    width = sum(_piece_width(p, size, bold) for p in pieces)
    x, y = xy
    if anchor == "m":
        x -= width // 2
    elif anchor == "r":
        x -= width
    d = ImageDraw.Draw(img)
    ascent, descent = fonts.font(0, size, bold).getmetrics()
    baseline = y + (ascent - descent) / 2
    for piece in pieces:
        kind, s, index = piece
        w = _piece_width(piece, size, bold)
        if kind == "sym":
            side = int(size * 0.95)
            im = symbol_image(s, side, fill if _is_light(fill) else None)
            img.paste(im, (x + int(size * 0.05), y - side // 2), im)
        elif kind == "box":
            # the placeholder: an outlined box the height of a capital, so the missing character shows
            lw = max(1, size // 14)
            top = round(baseline - size * 0.72)
            d.rectangle(
                (x + round(size * 0.08), top, x + w - round(size * 0.08), round(baseline)), outline=fill, width=lw
            )
        else:
            sw = 0 if fonts.true_bold(index) else _stroke(size, bold)
            f = fonts.font(index, size, bold)
            d.text((x + sw, baseline), s, font=f, fill=fill, anchor="ls", stroke_width=sw, stroke_fill=fill)
        x += w
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

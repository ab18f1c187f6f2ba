"""Text for the images: Noto fonts with a per-character fallback chain, emoji in colour, right-to-left in order.

Names and labels are drawn with the fonts of :mod:`bot.images.fonts` (Noto Sans, Noto Sans Symbols 2 and
Symbols, Noto Sans CJK KR, Noto Sans Arabic and Hebrew, Noto Color Emoji; subsets shipped with Tavolo, so every
machine renders the same bytes). A string is split into grapheme clusters (:mod:`bot.images.graphemes`); each is
drawn in the first font that has all its characters, or, failing that, its compatibility form (``𝓙`` -> ``J``,
``Ⓐ`` -> ``A``); an emoji grapheme (a flag, a keycap, a skin tone, a family joined by U+200D) is one colour glyph;
what no font has (rare scripts) is drawn as a visible placeholder box, never dropped. Arabic is shaped first (each
letter in its joined form, with arabic-reshaper) and right-to-left runs are put in visual order by the Unicode
bidirectional algorithm (python-bidi), whole graphemes at a time, so Pillow's basic layout draws them left to
right as they are read. Suit symbols inside a string (``♠♥♦♣``, the Italian suit emoji the text renderer uses:
🪙🏆⚔️🪵, plus 🧙🃏🤡 and the computer players' 🤖) are drawn as vector glyphs like on the cards, so a caller can
pass ``bot.render.cards`` labels as they are. The big card indices (:func:`glyph_mask`) keep Pillow's bundled font:
they are part of the card art. :func:`name_label` is the one rule for a name nothing of which can be drawn.
"""

from __future__ import annotations

import functools
import re
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
# invisible characters that only steer an emoji's or a script's shaping, or the order of a right-to-left name
# inside a label (the directional isolates): no glyph of their own
_ISOLATES = frozenset(map(chr, range(0x2066, 0x206A)))
_JOINERS = {"\u200d", "\u200c", *map(chr, range(0xFE00, 0xFE10)), *_ISOLATES}


@functools.lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels (the card indices' font; cached)."""
    return ImageFont.load_default(size=size)


def sanitize(text: str) -> str:
    """``text`` ready to lay out: composed (NFC), suit variants folded, controls and invisible format characters
    (bidi marks and embeddings, zero-width spaces) removed, other whitespace as a space; the directional isolates
    that :func:`name_label` puts round a right-to-left name are kept. Nothing visible is removed."""
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


# a piece of laid-out text: ("font", text, chain index) | ("sym", symbol, -1) | ("emoji", emoji font chars, -1)
# | ("box", grapheme, -1)
Piece = tuple[str, str, int]

# the characters below U+1F000 that are emoji by default (Unicode's Emoji_Presentation): drawn in colour even
# without U+FE0F; every other one (★ ♪ ☺ ✓) stays the text glyph of the symbol fonts unless U+FE0F asks for colour
_EMOJI_BMP = frozenset(
    [0x231A, 0x231B, *range(0x23E9, 0x23ED), 0x23F0, 0x23F3, 0x25FD, 0x25FE, 0x2614, 0x2615,
     *range(0x2648, 0x2654), 0x267F, 0x2693, 0x26A1, 0x26AA, 0x26AB, 0x26BD, 0x26BE, 0x26C4, 0x26C5, 0x26CE,
     0x26D4, 0x26EA, 0x26F2, 0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A, 0x270B, 0x2728, 0x274C, 0x274E,
     *range(0x2753, 0x2756), 0x2757, *range(0x2795, 0x2798), 0x27B0, 0x27BF, 0x2B1B, 0x2B1C, 0x2B50, 0x2B55]
)  # fmt: skip
_ZWJ, _VS15, _VS16 = "\u200d", "\ufe0e", "\ufe0f"


def _wants_emoji(g: str) -> bool:
    """Whether grapheme ``g`` is an emoji before it is text: asked for (U+FE0F), a sequence (flag, keycap, skin
    tone, ZWJ), or a character that is emoji by default."""
    if _VS15 in g:
        return False
    core = g.replace(_VS16, "")
    return _VS16 in g or len(core) > 1 or ord(core[0]) >= 0x1F000 or ord(core[0]) in _EMOJI_BMP


def _emoji_chars(g: str) -> str | None:
    """The emoji font's characters that draw ``g``: one for a sequence the font has; for one it lacks (a newer or
    unusual combination) its parts, each the longest piece the font has whole (the parts joined by U+200D, an emoji
    and its skin tone), as phones show them; ``None`` if some character has no emoji at all."""
    whole = fonts.emoji_glyph(g)
    if whole is not None:
        return whole
    out: list[str] = []
    for part in g.split(_ZWJ):
        cps = [c for c in part if c != _VS16]
        while cps:
            for n in range(len(cps), 0, -1):
                glyph = fonts.emoji_glyph("".join(cps[:n]))
                if glyph is not None:
                    out.append(glyph)
                    del cps[:n]
                    break
            else:
                return None
    return "".join(out) or None


@functools.lru_cache(maxsize=8192)
def _classify(g: str) -> Piece:
    """How one grapheme is drawn: a vector symbol, an emoji, text in a font of the chain, or the placeholder box."""
    core = "".join(c for c in g if c not in _JOINERS and not "\U000e0020" <= c <= "\U000e007f")  # tags: in flags
    if core in _SYMBOLS:
        return ("sym", core, -1)
    if core in ("", " "):
        return ("font", core, 0)  # a stray joiner or selector alone has nothing to draw
    emoji = _emoji_chars(g) if _wants_emoji(g) else None
    if emoji is not None:
        return ("emoji", emoji, -1)
    for form in (core, unicodedata.normalize("NFKC", core).strip()):
        if form:
            index = fonts.face_for(form)
            if index is not None:
                return ("font", form, index)
    emoji = _emoji_chars(g)  # a text-default symbol that only the emoji font has
    if emoji is not None:
        return ("emoji", emoji, -1)
    return ("box", g, -1)


# ---------------------------------------------------------------------------------- right-to-left scripts
_RTL = frozenset(["R", "AL", "AN"])


@functools.cache
def _reshaper() -> Callable[[str], str]:
    # imported on the first Arabic name, not at start-up (arabic-reshaper loads fontTools)
    import arabic_reshaper

    shaper = arabic_reshaper.ArabicReshaper(
        # harakat kept (they are part of a name); of the ligatures only lam-alef, which the font has and every
        # reader expects; the word ligatures (Allah ...) would be single characters outside the font
        configuration={"delete_harakat": False, "ARABIC LIGATURE ALLAH": False}
    )
    return lambda text: str(shaper.reshape(text))


def _shape(text: str) -> str:
    """Arabic letters replaced by their joined (initial, medial, final, isolated) presentation forms."""
    if not any("\u0600" <= c <= "\u08ff" for c in text):
        return text
    return _reshaper()(text)


_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")
# L1: trailing whitespace and isolate marks are reset to the line's level (0, left to right)
_TRAILING = frozenset(["WS", "LRI", "RLI", "FSI", "PDI", "BN"])


def bidi_levels(line: str) -> list[int] | None:
    """Each character's embedding level by the Unicode bidirectional algorithm on a left-to-right line (0: left to
    right, odd: right to left, 2: a number or Latin word inside a right-to-left run), or ``None`` if not known.

    python-bidi's Rust implementation (the unicode-bidi crate: isolates and paired brackets) gives its levels only
    in its debug report, one per byte of UTF-8; its reordering is by character and does not mirror brackets, so
    :func:`visual_order` reorders whole graphemes itself from these levels.
    """
    from bidi import get_display  # imported on the first right-to-left name, not at start-up

    report = str(get_display(line, base_dir="L", debug=True))
    at = report.find("levels: [")
    per_byte = [int(n) for n in _LEVEL.findall(report[at : report.find("]", at)])] if at >= 0 else []
    if len(per_byte) != len(line.encode()):
        return None
    levels, offset = [], 0
    for ch in line:
        levels.append(per_byte[offset])
        offset += len(ch.encode())
    for i in range(len(line) - 1, -1, -1):
        if unicodedata.bidirectional(line[i]) not in _TRAILING:
            break
        levels[i] = 0
    return levels


def _mirror(g: str) -> str:
    from bidi.mirror import MIRRORED

    return MIRRORED.get(g, g)


def visual_order(text: str) -> list[str]:
    """The graphemes of ``text`` (shaped) in the order they are drawn left to right: each run of right-to-left
    level reversed (rule L2 of the bidirectional algorithm), whole graphemes at a time (the algorithm orders
    characters, and would turn a family emoji or a letter and its mark inside out), brackets in a right-to-left run
    mirrored (L4). A string without a right-to-left character is left as it is."""
    shaped = _shape(text)
    gs = graphemes(shaped)
    if not any(unicodedata.bidirectional(c) in _RTL for c in shaped):
        return gs
    levels = bidi_levels(shaped)
    if levels is None:  # an unknown python-bidi report: drawn in logical order rather than wrong
        return gs
    firsts, at = [], 0
    for g in gs:
        firsts.append(levels[at])  # a grapheme has the level of its first character
        at += len(g)
    order = list(range(len(gs)))
    for level in range(max(firsts), 0, -1):
        i = 0
        while i < len(order):
            if firsts[order[i]] >= level:
                j = i
                while j < len(order) and firsts[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return [_mirror(gs[k]) if firsts[k] % 2 else gs[k] for k in order]


@functools.lru_cache(maxsize=2048)
def layout(text: str) -> tuple[Piece, ...]:
    """A sanitized string as pieces to draw in visual order; neighbouring graphemes of one font share a piece."""
    out: list[Piece] = []
    for g in visual_order(text):
        kind, s, index = _classify(g)
        if kind in ("font", "emoji") and out and out[-1][0] == kind and out[-1][2] == index:
            out[-1] = (kind, out[-1][1] + s, index)
        else:
            out.append((kind, s, index))
    return tuple(out)


def has_glyph(ch: str) -> bool:
    """Whether ``ch`` is drawn as itself (a font of the chain has it, it is an emoji or a vector symbol)."""
    ch = _ALIASES.get(ch, ch)
    return ch == " " or ch in _SYMBOLS or fonts.face_for(ch) is not None or fonts.emoji_glyph(ch) is not None


def missing(text: str) -> list[str]:
    """The graphemes of ``text`` drawn as the placeholder box (no font has them)."""
    return [s for kind, s, _ in layout(sanitize(text)) if kind == "box"]


def drawable(text: str) -> bool:
    """Whether anything of ``text`` is drawn as itself: a visible character that is not a placeholder box."""
    return any(kind in ("sym", "emoji") or (kind == "font" and s.strip()) for kind, s, _ in layout(sanitize(text)))


def name_label(name: str, number: int) -> str:
    """What every picture writes for a player's ``name``: the name itself (in any script the fonts have, emoji
    included; a character no font has as a placeholder box), or ``#number`` when nothing of it can be drawn (an
    empty name, or one wholly in a script without a font). ``number`` is the player's number in that picture: the
    seat on a table or in a reveal, the row of the standings, the line of a chart's legend. The message's text
    beside every picture names each player in full. A name with right-to-left letters comes wrapped in directional
    isolates (invisible), so that in a label such as ``{name}: {amount}`` it is ordered as one word and the amount
    stays after it, as the label reads in a left-to-right language."""
    if not drawable(name):
        return f"#{number}"
    if any(unicodedata.bidirectional(c) in _RTL for c in name):
        return f"\u2068{name}\u2069"  # first-strong isolate ... pop directional isolate
    return name


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


def _emoji_height(size: int) -> int:
    return round(size * 1.05)  # the glyph's box is a little larger than the letters' em: about a capital and half


@functools.lru_cache(maxsize=64)
def _emoji_advance(size: int) -> int:
    box = fonts.emoji_font().getbbox("\U0001f600")
    return round(_emoji_height(size) * (box[2] - box[0]) / (box[3] - box[1])) + max(1, size // 12)


@functools.lru_cache(maxsize=1024)
def emoji_image(ch: str, height: int) -> Image.Image:
    """One emoji of the emoji font as an RGBA image ``height`` pixels high: its bitmap, drawn at the font's strike
    size in its own colours and scaled (cached)."""
    f = fonts.emoji_font()
    x0, y0, x1, y1 = f.getbbox(ch)
    big = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((-x0, -y0), ch, font=f, embedded_color=True)
    width = max(1, round(height * big.width / big.height))
    return big.resize((width, height), Image.Resampling.LANCZOS)


def _piece_width(piece: Piece, size: int, bold: bool) -> int:
    kind, s, index = piece
    if kind == "sym":
        return int(size * 1.05)
    if kind == "emoji":
        return len(s) * _emoji_advance(size)
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

    Returns the drawn width. Every font's run sits on the first font's baseline; symbols and emoji are pasted as
    small pre-rendered images, characters no font has as an outlined box. Right-to-left runs are in visual order.
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
        elif kind == "emoji":
            step = _emoji_advance(size)
            for i, ch in enumerate(s):
                im = emoji_image(ch, _emoji_height(size))
                img.paste(im, (x + i * step + (step - im.width) // 2, y - im.height // 2), im)
        elif kind == "box":
            # the placeholder: an outlined box the height of a capital, so the missing character shows
            lw = max(1, size // 14)
            top = round(baseline - size * 0.72)
            d.rectangle(
                (x + round(size * 0.08), top, x + w - round(size * 0.08), round(baseline)), outline=fill, width=lw
            )
        elif fonts.CHAIN[index].rtl and any(unicodedata.category(c) == "Mn" for c in s):
            _draw_marked(d, x, baseline, s, fonts.font(index, size, bold), fill)
        else:
            sw = 0 if fonts.true_bold(index) else _stroke(size, bold)
            f = fonts.font(index, size, bold)
            d.text((x + sw, baseline), s, font=f, fill=fill, anchor="ls", stroke_width=sw, stroke_fill=fill)
        x += w
    return width


def _draw_marked(
    d: ImageDraw.ImageDraw, x: float, baseline: float, run: str, f: ImageFont.FreeTypeFont, fill: RGB
) -> None:
    """A right-to-left run (visual order) whose letters carry vowel marks, one grapheme at a time, each mark
    centred over its letter. The fonts place marks by their positioning table, which the basic layout does not
    apply: drawn as they come, a mark would sit on the gap after its letter."""
    for g in graphemes(run):
        base = "".join(c for c in g if unicodedata.category(c) != "Mn")
        if base:
            d.text((x, baseline), base, font=f, fill=fill, anchor="ls")
        bx0, _, bx1, _ = f.getbbox(base or g[0], anchor="ls")
        for mark in g:
            if unicodedata.category(mark) == "Mn":
                mx0, _, mx1, _ = f.getbbox(mark, anchor="ls")
                d.text((x + (bx0 + bx1 - mx0 - mx1) / 2, baseline), mark, font=f, fill=fill, anchor="ls")
        x += f.getlength(base)


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

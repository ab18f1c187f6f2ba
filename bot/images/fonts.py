"""The fonts the pictures write names with: Noto subsets shipped in ``bot/fonts/``, tried in a fixed order.

Pillow has no font fallback, so :mod:`bot.images.text` asks :func:`face_for` which font of :data:`CHAIN` is the
first to have every character of a grapheme, from each font's own character map (read here from the file:
no fontTools at run time). Emoji come from :data:`EMOJI`, a colour bitmap font drawn at its one strike size
(:data:`EMOJI_PPEM`) and scaled: :func:`emoji_glyph` finds the one code point that draws a whole emoji grapheme
(a flag, a keycap, a family: the build gave each sequence its own code point, listed in :data:`EMOJI_TABLE`).
The files are made by ``tools/build_fonts.py``; their provenance and licence (SIL OFL 1.1) are in
``docs/pictures-and-names.md``, ``data/art/LICENSE.md`` and ``bot/fonts/OFL.txt``.
"""

from __future__ import annotations

import functools
import hashlib
import struct
from dataclasses import dataclass
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"


@dataclass(frozen=True, slots=True)
class Face:
    """One font of the chain: its regular file and, if it has one, a true bold (else bold is a stroke)."""

    name: str
    regular: str
    bold: str | None = None
    rtl: bool = False  # a right-to-left script: its marks are centred over their letters (see text._draw_marked)


CHAIN: tuple[Face, ...] = (
    Face("Noto Sans", "NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),  # Latin, Greek, Cyrillic
    # the symbol fonts before CJK: a star or an arrow in a Latin name gets a proportional glyph, not a full-width one
    Face("Noto Sans Symbols 2", "NotoSansSymbols2-Regular.ttf"),  # shapes, stars, dingbats
    Face("Noto Sans Symbols", "NotoSansSymbols-Regular.ttf"),  # arrows, notes, circled numbers, faces
    Face("Noto Sans CJK KR", "NotoSansCJKkr-Regular.otf"),  # Hangul, kana, common Han, box drawing
    Face("Noto Sans Arabic", "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf", rtl=True),  # joined forms
    Face("Noto Sans Hebrew", "NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf", rtl=True),
)
#: the colour emoji font (CBDT bitmaps: one strike, no bold), outside the chain: emoji are drawn as images
EMOJI = Face("Noto Color Emoji", "NotoColorEmoji-Tavolo.ttf")
EMOJI_PPEM = 32  # the one size FreeType can open it at (tools/build_fonts.py's EMOJI_PPEM)
EMOJI_TABLE = "NotoColorEmoji-Tavolo.tsv"  # emoji sequence -> the private-use code point drawing it
_VS16 = "\ufe0f"


def files() -> list[Path]:
    """Every font file of the chain, the emoji font and its sequence table."""
    chain = [FONT_DIR / f for face in CHAIN for f in (face.regular, face.bold) if f is not None]
    return [*chain, FONT_DIR / EMOJI.regular, FONT_DIR / EMOJI_TABLE]


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """A short hash of the font files: part of every picture's cache key, so new fonts mean new pictures."""
    h = hashlib.sha256()
    for path in files():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=8)
def coverage(index: int) -> frozenset[int]:
    """The code points font ``index`` of :data:`CHAIN` maps to a glyph (its regular file's cmap)."""
    return frozenset(read_cmap((FONT_DIR / CHAIN[index].regular).read_bytes()))


def covers(index: int, text: str) -> bool:
    cmap = coverage(index)
    return all(ord(c) in cmap for c in text)


def face_for(text: str) -> int | None:
    """The first font of the chain that has every character of ``text``, or ``None``."""
    for i in range(len(CHAIN)):
        if covers(i, text):
            return i
    return None


@functools.lru_cache(maxsize=128)
def font(index: int, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Font ``index`` of the chain at ``size`` pixels (its bold file when ``bold`` and it has one); cached.

    The basic layout engine (no shaping library) keeps the pixels the same on every machine.
    """
    face = CHAIN[index]
    name = face.bold if bold and face.bold else face.regular
    return ImageFont.truetype(str(FONT_DIR / name), size, layout_engine=ImageFont.Layout.BASIC)


def true_bold(index: int) -> bool:
    return CHAIN[index].bold is not None


# ------------------------------------------------------------------------------------------------- emoji
@functools.lru_cache(maxsize=1)
def emoji_coverage() -> frozenset[int]:
    """The code points the emoji font maps to a glyph (single emoji and the sequences' private-use points)."""
    return frozenset(read_cmap((FONT_DIR / EMOJI.regular).read_bytes()))


@functools.lru_cache(maxsize=1)
def emoji_sequences() -> dict[str, str]:
    """Each emoji sequence the font draws as one glyph (without U+FE0F) -> the code point of that glyph."""
    out: dict[str, str] = {}
    for line in (FONT_DIR / EMOJI_TABLE).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            seq, point = line.split("\t")
            out["".join(chr(int(c, 16)) for c in seq.split())] = chr(int(point, 16))
    return out


def emoji_glyph(grapheme: str) -> str | None:
    """The one character of the emoji font that draws ``grapheme`` whole, or ``None`` if it has none.

    The presentation selector U+FE0F only asks for the emoji form, which this font always is, so it is ignored.
    """
    key = grapheme.replace(_VS16, "")
    if len(key) == 1:
        return key if ord(key) in emoji_coverage() else None
    return emoji_sequences().get(key)


@functools.lru_cache(maxsize=1)
def emoji_font() -> ImageFont.FreeTypeFont:
    """The emoji font at its strike size (a bitmap font opens at no other); draw with ``embedded_color``."""
    return ImageFont.truetype(str(FONT_DIR / EMOJI.regular), EMOJI_PPEM, layout_engine=ImageFont.Layout.BASIC)


# ------------------------------------------------------------------------------------------ reading a cmap
def read_cmap(data: bytes) -> set[int]:
    """Code points with a glyph in an OpenType/TrueType font's best Unicode cmap (formats 4 and 12)."""
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_off = None
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_off = offset
            break
    if cmap_off is None:
        raise ValueError("font has no cmap table")
    n = struct.unpack_from(">H", data, cmap_off + 2)[0]
    subtables: dict[tuple[int, int], int] = {}
    for i in range(n):
        pid, eid, off = struct.unpack_from(">HHI", data, cmap_off + 4 + 8 * i)
        subtables[(pid, eid)] = cmap_off + off
    for key in ((3, 10), (0, 4), (3, 1), (0, 3)):
        if key in subtables:
            off = subtables[key]
            fmt = struct.unpack_from(">H", data, off)[0]
            if fmt == 12:
                return _format12(data, off)
            if fmt == 4:
                return _format4(data, off)
    raise ValueError("font has no Unicode cmap of format 4 or 12")


def _format12(data: bytes, off: int) -> set[int]:
    groups = struct.unpack_from(">I", data, off + 12)[0]
    out: set[int] = set()
    for i in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, off + 16 + 12 * i)
        out.update(range(start + (1 if glyph == 0 else 0), end + 1))  # glyph 0 is .notdef
    return out


def _format4(data: bytes, off: int) -> set[int]:
    segs = struct.unpack_from(">H", data, off + 6)[0] // 2
    ends = struct.unpack_from(f">{segs}H", data, off + 14)
    starts = struct.unpack_from(f">{segs}H", data, off + 16 + 2 * segs)
    deltas = struct.unpack_from(f">{segs}h", data, off + 16 + 4 * segs)
    ro_pos = off + 16 + 6 * segs
    range_offsets = struct.unpack_from(f">{segs}H", data, ro_pos)
    out: set[int] = set()
    for i in range(segs):
        start, end, delta, ro = starts[i], ends[i], deltas[i], range_offsets[i]
        if start == 0xFFFF:
            continue
        for cp in range(start, end + 1):
            if ro == 0:
                glyph = (cp + delta) & 0xFFFF
            else:
                at = ro_pos + 2 * i + ro + 2 * (cp - start)
                glyph = struct.unpack_from(">H", data, at)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                out.add(cp)
    return out

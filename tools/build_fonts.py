"""Rebuild the subset fonts in ``bot/fonts/`` from Debian's Noto packages (needs ``pip install fonttools``).

The subsets are committed, so nothing here runs at install, start-up or test time; this script only makes the
files reproducible (same packages, same fontTools -> same bytes). See ``data/art/LICENSE.md`` for the steps::

    apt-get download fonts-noto-core=20201225-1 fonts-noto-cjk=1:20220127+repack1-1 \
        fonts-noto-color-emoji=2.042-0+deb12u1
    for f in fonts-noto-*.deb; do dpkg-deb -x "$f" noto; done
    python tools/build_fonts.py noto

Which characters are kept, and why:

* Noto Sans (Regular and Bold): every character it has — Latin with all its extensions (Polish, Turkish,
  Vietnamese...), Greek, Cyrillic, IPA, punctuation, currency, letter-like signs. It is small, so no cut.
* Noto Sans CJK KR (Regular): all 11,172 Hangul syllables and the jamo; kana; CJK punctuation and full-width
  forms; the Han characters of the everyday sets that Python's own codecs define — GB 2312 level 1 (the 3,755
  commonest simplified Chinese), JIS X 0208 level 1 (2,965 commonest Japanese kanji) and Big5's frequent
  characters (5,401 traditional Chinese). Rarer Han characters fall back to the placeholder box.
* Noto Sans Symbols 2 and Noto Sans Symbols (Regular): arrows, technical signs, circled numbers, geometric
  shapes, miscellaneous symbols and dingbats (★ ♪ ☺ ✓ ① ...), which players put in names.
* Noto Sans Arabic and Noto Sans Hebrew (Regular and Bold): their scripts' blocks, and for Arabic the
  presentation forms, which is what the names are drawn with once :mod:`bot.images.text` has shaped them (each
  letter replaced by its joined form) and put them in visual order.
* Noto Color Emoji: every emoji the font has (Emoji 15.0), its bitmaps scaled from the 109 px strike to a
  :data:`EMOJI_PPEM` px one and reduced to :data:`EMOJI_COLOURS` colours (a tenth of the size; the names are drawn
  at 14-26 px). Pillow's basic layout cannot apply the font's ligatures (a family, a flag, a keycap are sequences of
  several characters), so each sequence gets a code point of Plane 15's private use area in the cmap, and
  ``NotoColorEmoji-Tavolo.tsv`` lists which sequence is which code point; the GSUB table is dropped.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from PIL import Image

OUT = Path(__file__).resolve().parents[1] / "bot" / "fonts"
TRUETYPE = "usr/share/fonts/truetype/noto"
OPENTYPE = "usr/share/fonts/opentype/noto"
CJK_KR = 1  # index of "Noto Sans CJK KR" in NotoSansCJK-Regular.ttc
EMOJI_PPEM = 32  # the emoji strike's size in pixels (bitmaps about 40 x 38)
EMOJI_COLOURS = 32  # colours per emoji bitmap: indistinguishable from the original at the sizes names are drawn
EMOJI_PUA = 0xF0000  # the first code point given to an emoji sequence
EMOJI_FONT = "NotoColorEmoji-Tavolo.ttf"
EMOJI_SEQUENCES = "NotoColorEmoji-Tavolo.tsv"


def _codec_chars(codec: str, lead: range, trail: range) -> set[int]:
    """The characters a double-byte codec maps from ``lead`` x ``trail`` (its frequency-ordered rows)."""
    out: set[int] = set()
    for a in lead:
        for b in trail:
            try:
                ch = bytes((a, b)).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                out.add(ord(ch))
    return out


def han_chars() -> set[int]:
    """Everyday Han characters: GB 2312 level 1, JIS X 0208 level 1, Big5 frequent (Python's codecs)."""
    gb = _codec_chars("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))
    jis = _codec_chars("euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF))
    big5 = _codec_chars("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    return {c for c in gb | jis | big5 if 0x4E00 <= c <= 0x9FFF}


def cjk_unicodes() -> set[int]:
    ranges = [
        (0x1100, 0x11FF),  # Hangul Jamo
        (0x2100, 0x2BFF),  # the symbols of the East Asian legacy sets (arrows, box drawing, ①, ※), as it has them
        (0x3000, 0x303F),  # CJK symbols and punctuation
        (0x3040, 0x30FF),  # Hiragana, Katakana
        (0x3130, 0x318F),  # Hangul compatibility jamo
        (0x31F0, 0x31FF),  # Katakana phonetic extensions
        (0xAC00, 0xD7A3),  # Hangul syllables
        (0xFF00, 0xFFEF),  # half-width and full-width forms
    ]
    return {c for lo, hi in ranges for c in range(lo, hi + 1)} | han_chars()


def symbol_unicodes() -> set[int]:
    ranges = [(0x2190, 0x21FF), (0x2300, 0x23FF), (0x2460, 0x24FF), (0x25A0, 0x27BF), (0x2B00, 0x2BFF)]
    return {c for lo, hi in ranges for c in range(lo, hi + 1)}


def arabic_unicodes() -> set[int]:
    ranges = [
        (0x0600, 0x06FF),  # Arabic
        (0x0750, 0x077F),  # Arabic Supplement
        (0x08A0, 0x08FF),  # Arabic Extended-A
        (0xFB50, 0xFDFF),  # Arabic Presentation Forms-A (Persian, Urdu letters' forms, ligatures)
        (0xFE70, 0xFEFF),  # Arabic Presentation Forms-B (the joined forms the shaping produces)
        (0x200C, 0x200F),  # joiners and marks, as the font has them
    ]
    return {c for lo, hi in ranges for c in range(lo, hi + 1)}


def hebrew_unicodes() -> set[int]:
    return {*range(0x0590, 0x0600), *range(0xFB1D, 0xFB50)}  # Hebrew and its presentation forms


def _options() -> subset.Options:
    o = subset.Options()
    # Pillow draws with its basic layout (no shaping: same pixels on every machine), so the OpenType layout
    # tables and the hinting programs would be dead weight; the licence and naming records stay.
    o.layout_features = []
    o.hinting = False
    o.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14]
    o.name_languages = [0x409]
    o.notdef_outline = True
    o.recalc_timestamp = False
    o.drop_tables += ["DSIG", "GSUB", "GPOS", "GDEF", "BASE", "VORG"]
    return o


def _subset(font: TTFont, unicodes: set[int] | None, out: Path) -> None:
    s = subset.Subsetter(_options())
    s.populate(unicodes=sorted(unicodes if unicodes is not None else font.getBestCmap()))
    s.subset(font)
    font.recalcTimestamp = False  # keep the source's date: the same inputs give the same bytes
    buf = io.BytesIO()
    font.save(buf, reorderTables=True)
    out.write_bytes(buf.getvalue())
    print(f"{out.name}: {len(font.getBestCmap())} characters, {len(buf.getvalue()) / 1e6:.2f} MB")


def emoji_sequences(font: TTFont) -> dict[tuple[int, ...], str]:
    """Every sequence the font's ligatures draw as one glyph (flags, keycaps, skin tones, ZWJ sequences)."""
    glyph_of = {g: cp for cp, g in font.getBestCmap().items()}
    out: dict[tuple[int, ...], str] = {}
    for lookup in font["GSUB"].table.LookupList.Lookup:
        if lookup.LookupType != 4:
            continue
        for st in lookup.SubTable:
            for first, ligatures in st.ligatures.items():
                for lig in ligatures:
                    out.setdefault(tuple(glyph_of[g] for g in (first, *lig.Component)), lig.LigGlyph)
    return out


def _small_png(data: bytes, scale: float) -> tuple[bytes, int, int]:
    im = Image.open(io.BytesIO(data)).convert("RGBA")
    w, h = max(1, round(im.width * scale)), max(1, round(im.height * scale))
    im = im.resize((w, h), Image.Resampling.LANCZOS).quantize(EMOJI_COLOURS, method=Image.Quantize.FASTOCTREE)
    buf = io.BytesIO()
    im.save(buf, format="PNG", optimize=True)
    return buf.getvalue(), w, h


def build_emoji(src: Path, out: Path, table: Path) -> None:
    """Noto Color Emoji with a small strike and every ligature reachable by one code point (see the docstring)."""
    font = TTFont(src)
    sequences = sorted(emoji_sequences(font).items())
    bitmaps = font["CBDT"].strikeData[0]
    # only what draws something: the joiners, selectors and tag letters map to empty glyphs, used in sequences only
    cmap = {c: g for c, g in font.getBestCmap().items() if g in bitmaps}
    lines = []
    for i, (seq, glyph) in enumerate(sequences):
        cmap[EMOJI_PUA + i] = glyph
        lines.append(" ".join(f"{c:04X}" for c in seq) + f"\t{EMOJI_PUA + i:X}")
    tables = []
    for fmt, eid, keep in ((4, 1, lambda c: c <= 0xFFFF), (12, 10, lambda c: True)):
        t = CmapSubtable.newSubtable(fmt)
        t.platformID, t.platEncID, t.language = 3, eid, 0
        t.cmap = {c: g for c, g in cmap.items() if keep(c)}
        tables.append(t)
    font["cmap"].tables = tables
    for tag in ("GSUB", "DSIG"):
        if tag in font:
            del font[tag]
    (strike,) = font["CBLC"].strikes
    old = strike.bitmapSizeTable.ppemY
    scale = EMOJI_PPEM / old
    for glyph in font["CBDT"].strikeData[0].values():
        m = glyph.metrics
        glyph.imageData, m.width, m.height = _small_png(glyph.imageData, scale)
        m.BearingX, m.BearingY, m.Advance = (round(v * scale) for v in (m.BearingX, m.BearingY, m.Advance))
    size = strike.bitmapSizeTable
    size.ppemX = size.ppemY = EMOJI_PPEM
    for lm in (size.hori, size.vert):
        for attr in ("ascender", "descender", "widthMax", "maxBeforeBL", "minAfterBL", "minOriginSB", "minAdvanceSB"):
            setattr(lm, attr, round(getattr(lm, attr) * scale))
    font.recalcTimestamp = False
    buf = io.BytesIO()
    font.save(buf, reorderTables=True)
    out.write_bytes(buf.getvalue())
    table.write_text(
        "# Noto Color Emoji sequences (code points without U+FE0F) and the code point drawing each; "
        "made by tools/build_fonts.py\n" + "\n".join(lines) + "\n"
    )
    print(f"{out.name}: {len(cmap)} code points, {len(sequences)} sequences, {len(buf.getvalue()) / 1e6:.2f} MB")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("root", type=Path, help="a folder the Debian packages were extracted into (dpkg-deb -x)")
    args = p.parse_args(argv)
    tt, ot = args.root / TRUETYPE, args.root / OPENTYPE
    OUT.mkdir(parents=True, exist_ok=True)
    _subset(TTFont(tt / "NotoSans-Regular.ttf"), None, OUT / "NotoSans-Regular.ttf")
    _subset(TTFont(tt / "NotoSans-Bold.ttf"), None, OUT / "NotoSans-Bold.ttf")
    cjk = TTCollection(ot / "NotoSansCJK-Regular.ttc").fonts[CJK_KR]
    _subset(cjk, cjk_unicodes(), OUT / "NotoSansCJKkr-Regular.otf")
    _subset(TTFont(tt / "NotoSansSymbols2-Regular.ttf"), symbol_unicodes(), OUT / "NotoSansSymbols2-Regular.ttf")
    _subset(TTFont(tt / "NotoSansSymbols-Regular.ttf"), symbol_unicodes(), OUT / "NotoSansSymbols-Regular.ttf")
    for style in ("Regular", "Bold"):
        name = f"NotoSansArabic-{style}.ttf"
        _subset(TTFont(tt / name), arabic_unicodes(), OUT / name)
        name = f"NotoSansHebrew-{style}.ttf"
        _subset(TTFont(tt / name), hebrew_unicodes(), OUT / name)
    build_emoji(tt / "NotoColorEmoji.ttf", OUT / EMOJI_FONT, OUT / EMOJI_SEQUENCES)
    return 0


if __name__ == "__main__":
    sys.exit(main())

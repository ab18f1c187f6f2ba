"""Rebuild the subset fonts in ``bot/fonts/`` from Debian's Noto packages (needs ``pip install fonttools``).

The subsets are committed, so nothing here runs at install, start-up or test time; this script only makes the
files reproducible (same packages, same fontTools -> same bytes). See ``data/art/LICENSE.md`` for the steps::

    apt-get download fonts-noto-core=20201225-1 fonts-noto-cjk=1:20220127+repack1-1
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
  shapes, miscellaneous symbols and dingbats (★ ♪ ☺ ✓ ① ...), which players put in names; emoji have no colour
  font here and fall back visibly.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

OUT = Path(__file__).resolve().parents[1] / "bot" / "fonts"
TRUETYPE = "usr/share/fonts/truetype/noto"
OPENTYPE = "usr/share/fonts/opentype/noto"
CJK_KR = 1  # index of "Noto Sans CJK KR" in NotoSansCJK-Regular.ttc


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
    return 0


if __name__ == "__main__":
    sys.exit(main())

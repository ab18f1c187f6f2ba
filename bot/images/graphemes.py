"""User-perceived characters (grapheme clusters), enough of Unicode's rules to never cut a name inside one.

The standard library has no grapheme API; this covers what display names contain: combining marks (``é`` as
``e`` + U+0301, Vietnamese stacked tones), conjoining Hangul jamo (L V T sequences), emoji with variation
selectors, skin-tone modifiers, tags and zero-width-joiner sequences, and flag pairs of regional indicators.
"""

from __future__ import annotations

import unicodedata

ZWJ = "\u200d"
_L = range(0x1100, 0x1160)  # leading consonants (choseong), with the extended-A block below
_L_EXT = range(0xA960, 0xA980)
_V = range(0x1160, 0x11A8)  # vowels (jungseong)
_V_EXT = range(0xD7B0, 0xD7C7)
_T = range(0x11A8, 0x1200)  # trailing consonants (jongseong)
_T_EXT = range(0xD7CB, 0xD7FC)
_SYLLABLES = range(0xAC00, 0xD7A4)
_RI = range(0x1F1E6, 0x1F200)  # regional indicators: two make a flag


def _hangul(cp: int) -> str:
    if cp in _L or cp in _L_EXT:
        return "L"
    if cp in _V or cp in _V_EXT:
        return "V"
    if cp in _T or cp in _T_EXT:
        return "T"
    if cp in _SYLLABLES:
        return "LV" if (cp - 0xAC00) % 28 == 0 else "LVT"
    return ""


def _extends(cp: int, ch: str) -> bool:
    """Whether ``ch`` always belongs to the cluster before it (marks, joiners, selectors, modifiers, tags)."""
    return (
        unicodedata.combining(ch) != 0
        or unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or ch == ZWJ
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
    )


def _joins(prev: str, ch: str, ri_run: int) -> bool:
    cp, pp = ord(ch), ord(prev)
    if _extends(cp, ch):
        return True
    if prev == ZWJ:
        return True  # emoji ZWJ sequences (a family, a profession)
    hp, hc = _hangul(pp), _hangul(cp)
    if hp == "L" and hc in ("L", "V", "LV", "LVT"):
        return True
    if hp in ("LV", "V") and hc in ("V", "T"):
        return True
    if hp in ("LVT", "T") and hc == "T":
        return True
    return pp in _RI and cp in _RI and ri_run % 2 == 1


def graphemes(text: str) -> list[str]:
    """``text`` split into grapheme clusters; ``"".join(graphemes(t)) == t`` always."""
    out: list[str] = []
    ri_run = 0  # regional indicators in a row so far, to pair them up
    for ch in text:
        if out and _joins(out[-1][-1], ch, ri_run):
            out[-1] += ch
        else:
            out.append(ch)
        ri_run = ri_run + 1 if ord(ch) in _RI else 0
    return out

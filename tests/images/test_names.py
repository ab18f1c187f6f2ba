"""Players' names in the pictures: every script drawn from the shipped fonts, nothing silently dropped, cut by width
at grapheme boundaries, the seat number only when nothing of a name can be drawn."""

from __future__ import annotations

import fnmatch
import functools
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.images import cache, fonts, text
from bot.images.graphemes import graphemes
from bot.images.table import SeatInfo, plate_name, table_image

ROOT = Path(__file__).resolve().parents[2]

NAMES = {
    "polish": "Łukasz Żółw",
    "polish2": "Grzegorz Brzęczyszczykiewicz",
    "italian": "Niccolò Pietà",
    "turkish": "Ağaoğlu Şükrü İpek ılık",
    "vietnamese": "Nguyễn Thị Hằng Phạm Đức",
    "czech": "Šťastný Dvořák",
    "russian": "Алексей Ёлкин",
    "ukrainian": "Ґанна Їжак",
    "greek": "Γιώργος Παπαδόπουλος",
    "korean": "민수",
    "korean2": "김민수 박지훈",
    "chinese": "王小明",
    "chinese_trad": "張偉 陳國華",
    "japanese": "山田太郎",
    "hiragana": "さくら",
    "katakana": "カタカナ",
    "fullwidth": "ＡＢＣ１２３",
    "symbols": "Star ★ ♪ →",
}


def _notdef_mask(index: int) -> bytes:
    return bytes(fonts.font(index, 32).getmask("\U000e01ef"))  # a variation selector: no font maps it


@pytest.mark.parametrize("key", sorted(NAMES))
def test_every_character_of_a_name_in_each_script_has_a_glyph(key: str) -> None:
    name = NAMES[key]
    assert text.missing(name) == []
    assert text.drawable(name)
    assert plate_name(name, 1) == name
    for ch in text.sanitize(name):
        if ch == " ":
            continue
        index = fonts.face_for(ch)
        assert index is not None, f"{ch!r} (U+{ord(ch):04X}) of {name!r} is in no font of the chain"
        # the cmap read by fonts.py is what FreeType draws: the glyph is not the font's .notdef box
        assert bytes(fonts.font(index, 32).getmask(ch)) != _notdef_mask(index), f"{ch!r} draws as .notdef"


def test_the_chain_covers_whole_alphabets() -> None:
    must = {
        "Latin-1 and Extended-A": range(0xC0, 0x180),
        "Vietnamese": range(0x1EA0, 0x1EFA),
        "Greek": [c for c in range(0x391, 0x3CA) if c != 0x3A2],
        "Cyrillic": range(0x400, 0x460),
        "Hangul syllables": range(0xAC00, 0xD7A4),
        "Hiragana": range(0x3041, 0x3097),
        "Katakana": range(0x30A1, 0x30FB),
    }
    for what, cps in must.items():
        lost = [f"U+{c:04X}" for c in cps if fonts.face_for(chr(c)) is None]
        assert not lost, f"{what}: {lost[:10]}"


def test_the_cmap_reader_agrees_with_freetype_and_bold_has_what_regular_has() -> None:
    for index, face in enumerate(fonts.CHAIN):
        cmap = fonts.coverage(index)
        assert len(cmap) > 120  # Hebrew is the smallest script
        notdef = _notdef_mask(index)
        for cp in sorted(cmap)[:: max(1, len(cmap) // 150)]:
            ch = chr(cp)
            if ch.isspace() or not ch.isprintable():
                continue
            assert bytes(fonts.font(index, 32).getmask(ch)) != notdef, f"{face.name}: U+{cp:04X}"
        if face.bold is not None:
            assert set(fonts.read_cmap((fonts.FONT_DIR / face.bold).read_bytes())) == set(cmap)


@functools.lru_cache(maxsize=64)
def _seat_picture(name: str) -> Image.Image:
    seats = [SeatInfo(name, "3/10", True), SeatInfo("Ana"), SeatInfo("Bo")]
    return table_image("french", seats)


def _differ(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


def test_a_polish_name_keeps_every_letter() -> None:
    assert _differ(_seat_picture("Łukasz"), _seat_picture("ukasz"))
    assert _differ(_seat_picture("Łukasz"), _seat_picture("Lukasz"))  # not folded to its base letter
    assert _differ(_seat_picture("Żółw"), _seat_picture("Zolw"))


def test_a_hangul_name_is_drawn_not_replaced_by_the_seat_number() -> None:
    assert plate_name("민수", 1) == "민수"
    assert _differ(_seat_picture("민수"), _seat_picture("#1"))
    assert _differ(_seat_picture("민수"), _seat_picture("민"))
    # and it is drawn as Hangul, not as two placeholder boxes
    assert _differ(_seat_picture("민수"), _seat_picture("\U0001f600\U0001f600"))
    assert _differ(_seat_picture("Алексей"), _seat_picture("#1"))


def test_a_name_nothing_of_which_can_be_drawn_falls_back_visibly_to_the_seat_number() -> None:
    # a script without a font (Devanagari), nothing visible: the seat number (emoji are drawn, see test_emoji_names)
    for name in ("ॐ", "ॐॐ", "", " \u200b "):
        assert plate_name(name, 4) == "#4", name
    # the plate (seat 1) writes "#1" for it: the same picture as a player named "#1", unlike one named "#2"
    assert not _differ(_seat_picture("ॐ"), _seat_picture("#1"))
    assert _differ(_seat_picture("ॐ"), _seat_picture("#2"))


def test_a_character_no_font_has_is_a_visible_box_never_dropped() -> None:
    assert text.missing("Bob ॐ") == ["ॐ"]
    assert text.missing("Bob ॐ 😀 ᚠ") == ["ॐ", "ᚠ"]  # one box per grapheme; the emoji is drawn
    assert _differ(_seat_picture("Bob ॐ"), _seat_picture("Bob"))
    assert _differ(_seat_picture("Bob ॐ"), _seat_picture("Bob "))
    assert text.text_width("Bob ॐ", 22) > text.text_width("Bob ", 22)


def test_compatibility_letters_are_drawn_as_their_plain_form() -> None:
    # "mathematical" and circled letters, common in display names, are drawn as the letters they stand for
    assert text.missing("𝓙𝓪𝓬𝓴 Ⓐ") == []
    assert text.text_width("𝓙𝓪𝓬𝓴", 22) == text.text_width("Jack", 22)


def test_the_computer_players_robot_is_a_drawn_symbol() -> None:
    assert text.missing("🤖 Computer 3") == [] and text.missing("🤖 컴퓨터 3") == []
    assert _differ(_seat_picture("🤖 Computer 3"), _seat_picture("Computer 3"))


def test_invisible_format_characters_are_not_placeholders() -> None:
    assert text.sanitize("a\u200bb\u200ec\u00ad") == "abc"
    assert text.missing("Zoe\u0308") == [] and text.sanitize("Zoe\u0308") == "Zoë"
    assert text.missing("\u200dAna\ufe0f") == [] and text.text_width("\u200dAna\ufe0f", 22) == text.text_width(
        "Ana", 22
    )


def test_graphemes_keep_marks_jamo_and_emoji_sequences_together() -> None:
    assert graphemes("e\u0301a") == ["e\u0301", "a"]
    assert graphemes("\u1100\u1161\u11a8\u1100") == ["\u1100\u1161\u11a8", "\u1100"]
    assert graphemes("가\u11a8나") == ["가\u11a8", "나"]
    assert graphemes("👨\u200d👩\u200d👧x") == ["👨\u200d👩\u200d👧", "x"]
    assert graphemes("👍🏽❤\ufe0f") == ["👍🏽", "❤\ufe0f"]
    assert graphemes("🇰🇷🇮🇹🇵") == ["🇰🇷", "🇮🇹", "🇵"]
    assert graphemes("") == []


_PIECES = st.sampled_from(
    [
        "a",
        "Ł",
        "W",
        " ",
        "e\u0301",
        "o\u0302\u0300",
        "\u1100\u1161\u11a8",
        "민",
        "Ж",
        "王",
        "😀",
        "👨\u200d👩\u200d👧",
        "🇰🇷",
        "👍🏽",
        "♠",
        "🤖",
        "ॐ",
        "i\u0307\u0301",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=24), st.integers(20, 260), st.sampled_from([18, 22]), st.booleans())
def test_shortening_by_width_never_splits_a_grapheme(pieces: list[str], max_width: int, size: int, bold: bool) -> None:
    name = "".join(pieces)
    clean = text.sanitize(name)
    out = text.fit(name, size, max_width, bold)
    if out == clean:
        assert text.text_width(out, size, bold) <= max_width
        return
    assert out == "" or out.endswith(text.ELLIPSIS)
    kept = out.removesuffix(text.ELLIPSIS)
    assert clean.startswith(kept)
    ends = {0}
    for g in graphemes(clean):
        ends.add(max(ends) + len(g))
    assert len(kept) in ends, f"{out!r} cuts {clean!r} inside a grapheme"
    if out:
        assert text.text_width(out, size, bold) <= max_width
        assert graphemes(kept) == graphemes(clean)[: len(graphemes(kept))]


def test_a_long_name_is_cut_by_width_not_by_characters() -> None:
    wide, narrow = "WWWWWWWWWWWWWWWWWWWW", "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii"
    a, b = text.fit(wide, 22, 150, True), text.fit(narrow, 22, 150, True)
    assert a.endswith(text.ELLIPSIS) and len(a) < len(b)
    assert text.fit("김민수 박지훈 이서연 최유진", 22, 100, True).endswith(text.ELLIPSIS)


def test_drawn_width_matches_the_measured_width() -> None:
    for name in ("Łukasz Żółw", "민수 Kim", "Bob 😀 ♠", "🤖 컴퓨터 3", "محمد 👩\u200d👩\u200d👧", "ॐ דוד"):
        for bold in (False, True):
            img = Image.new("RGBA", (600, 60), (0, 0, 0, 0))
            w = text.draw_text(img, (20, 30), name, 22, (255, 255, 255), bold=bold)
            assert w == text.text_width(name, 22, bold)
            box = img.getbbox()
            assert box is not None and box[0] >= 18 and box[2] <= 20 + w + 2, (name, box, w)


def test_picture_keys_change_when_the_fonts_change(monkeypatch: pytest.MonkeyPatch) -> None:
    before = cache.content_key("table", "french", ("민수",))
    monkeypatch.setattr(fonts, "fingerprint", lambda: "another-font-set")
    assert cache.content_key("table", "french", ("민수",)) != before


def test_the_fonts_ship_with_the_package_and_stay_small() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = data["tool"]["setuptools"]["package-data"]["bot"]
    total = 0
    for path in [*fonts.files(), fonts.FONT_DIR / "OFL.txt"]:
        assert path.is_file(), path
        rel = path.relative_to(ROOT / "bot").as_posix()
        assert any(fnmatch.fnmatch(rel, g) for g in globs), f"{rel} is not package data"
        total += path.stat().st_size
    # CJK 2.9 MB, emoji 2.6 MB (a 32 px strike of 3,985 sequences and 1,446 single emoji), the rest 0.8 MB
    assert total < 6_500_000, f"the fonts grew to {total / 1e6:.1f} MB"
    assert "SIL OPEN FONT LICENSE Version 1.1" in (fonts.FONT_DIR / "OFL.txt").read_text()

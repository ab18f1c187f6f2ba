"""Emoji, right-to-left scripts and the one fallback, in every picture that draws a name (issue 38's first item).

Checked against the fonts' own character maps read with fontTools (not the renderer's reader, not the eye): every
emoji grapheme is one glyph of the emoji font, every letter of every script has a glyph in the font chosen for it,
Hebrew and Arabic are drawn in visual order (Arabic joined), and a name nothing of which can be drawn is written by
the same rule in the table, the reveals, the standings (and so the podium and the recap) and the chart's legend.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest
from fontTools.ttLib import TTFont
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.games.mediatore import pictures as mediatore_pictures
from bot.games.mighty import pictures as mighty_pictures
from bot.games.minchiate import pictures as minchiate_pictures
from bot.images import fonts, text
from bot.images.graphemes import graphemes
from bot.images.reveal import reveal_image
from bot.images.standings import Rating, StandingRow, Standings, render_standings
from bot.images.table import SeatInfo, table_image
from bot.ledger.chart import ChartData, Series
from cogs.standings import chart_legend

ZWJ = "\u200d"
EMOJI = {
    "plain": "🎲",
    "chart": "📊",
    "family (ZWJ)": f"👩{ZWJ}👩{ZWJ}👧",
    "profession (ZWJ, tone)": f"👩🏽{ZWJ}💻",
    "rainbow flag (VS16, ZWJ)": f"🏳\ufe0f{ZWJ}🌈",
    "skin tone": "👍🏽",
    "flag": "🇵🇱",
    "flag (tags)": "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    "keycap": "1\ufe0f\u20e3",
    "keycap #": "#\ufe0f\u20e3",
    "heart (VS16)": "❤\ufe0f",
    "default emoji below U+1F000": "⭐",
}
SCRIPTS = {
    "korean": "민수",
    "cyrillic": "Алексей",
    "polish": "Łukasz Żółw",
    "chinese": "李雷",
    "latin and emoji": "Zoë 🎲",
    "family": f"👩{ZWJ}👩{ZWJ}👧",
    "flag and latin": "🇵🇱 Ola",
    "arabic": "محمد",
    "hebrew": "דוד",
}


@functools.cache
def _ttfont(path: str) -> TTFont:
    return TTFont(path, lazy=True)


def _emoji_ttfont() -> TTFont:
    return _ttfont(str(fonts.FONT_DIR / fonts.EMOJI.regular))


def _pieces(name: str) -> tuple[text.Piece, ...]:
    return text.layout(text.sanitize(name))


@pytest.mark.parametrize("kind", sorted(EMOJI))
def test_every_kind_of_emoji_grapheme_is_one_glyph_of_the_emoji_font(kind: str) -> None:
    g = EMOJI[kind]
    assert graphemes(g) == [g]
    assert _pieces(g) == (("emoji", fonts.emoji_glyph(g), -1),), f"{kind}: {_pieces(g)}"
    (ch,) = _pieces(g)[0][1]
    font = _emoji_ttfont()
    glyph = font.getBestCmap().get(ord(ch))
    assert glyph is not None and glyph != ".notdef", f"{kind}: U+{ord(ch):X} not in the emoji font's cmap"
    assert glyph in font["CBDT"].strikeData[0], f"{kind}: {glyph} has no bitmap"
    # and the bitmap is a colour picture, not an empty or grey glyph
    im = text.emoji_image(ch, 24).convert("RGBA")
    colours = {
        im.getpixel((x, y))[:3] for x in range(im.width) for y in range(im.height) if im.getpixel((x, y))[3] > 200
    }
    assert len(colours) > 8, f"{kind}: {len(colours)} colours"
    assert text.missing(f"Zoë {g}") == [] and text.drawable(g)


def test_an_emoji_sequence_is_drawn_as_one_emoji_wide_not_as_its_parts() -> None:
    one = text.text_width("👩", 22)
    for kind, g in EMOJI.items():
        assert text.text_width(g, 22) == one, kind
    # the ink: a family drawn is as wide as one woman, not three people side by side
    widths = {}
    for g in ("👩", f"👩{ZWJ}👩{ZWJ}👧", "🇵🇱", "1\ufe0f\u20e3"):
        img = Image.new("RGBA", (300, 60), (0, 0, 0, 0))
        text.draw_text(img, (10, 30), g, 22, (255, 255, 255))
        box = img.getbbox()
        assert box is not None
        widths[g] = box[2] - box[0]
    assert max(widths.values()) <= 1.2 * widths["👩"], widths
    assert widths["👩"] <= one


def test_a_sequence_the_font_lacks_is_its_parts_each_whole_never_a_box() -> None:
    odd = f"🎲{ZWJ}🇵🇱"  # not an emoji sequence anyone defined
    (piece,) = _pieces(odd)
    assert piece[0] == "emoji" and len(piece[1]) == 2
    assert text.missing(odd) == []


def test_text_symbols_stay_text_unless_emoji_is_asked_for() -> None:
    assert _pieces("★")[0][0] == "font" and _pieces("☺")[0][0] == "font"
    assert _pieces("☺\ufe0f")[0][0] == "emoji"
    assert _pieces("1")[0][0] == "font" and _pieces("#1")[0][0] == "font"
    assert _pieces("🤖")[0][0] == "sym"  # the computer players' robot keeps its drawn head


def _font_file(index: int) -> str:
    return str(fonts.FONT_DIR / fonts.CHAIN[index].regular)


@pytest.mark.parametrize("key", sorted(SCRIPTS))
def test_every_grapheme_has_a_glyph_in_the_font_chosen_for_it(key: str) -> None:
    name = SCRIPTS[key]
    assert text.missing(name) == []
    assert text.name_label(name, 4).strip("\u2068\u2069") == name  # drawn, never "#4"
    for kind, s, index in _pieces(name):
        assert kind in ("font", "emoji"), (name, kind, s)
        if kind == "emoji":
            cmap = _emoji_ttfont().getBestCmap()
            assert all(cmap.get(ord(c), ".notdef") != ".notdef" for c in s)
            continue
        cmap = _ttfont(_font_file(index)).getBestCmap()
        for ch in s:
            if ch != " ":
                assert cmap.get(ord(ch), ".notdef") != ".notdef", f"{ch!r} of {name!r} in {fonts.CHAIN[index].name}"


def test_hebrew_is_drawn_right_to_left() -> None:
    word = "שלום"  # shin lamed vav final-mem: not a palindrome
    assert _pieces(word) == (("font", word[::-1], _hebrew()),)
    assert text.visual_order(word) == list(word[::-1])
    # in a Latin name the Hebrew word (and the number after it, as the bidi algorithm has it) is reversed in place
    assert "".join(s for _, s, _ in _pieces("Zoë שלום 12")) == "Zoë 12 " + word[::-1]
    # the pixels: the word's leftmost glyph is its last letter, final mem, drawn where a lone final mem is drawn
    whole, last, first = (Image.new("L", (200, 50), 0) for _ in range(3))
    text.draw_text(whole, (10, 25), word, 22, 255)  # type: ignore[arg-type]
    text.draw_text(last, (10, 25), "ם", 22, 255)  # type: ignore[arg-type]
    text.draw_text(first, (10, 25), "ש", 22, 255)  # type: ignore[arg-type]
    edge = 10 + text.text_width("ם", 22) - 2
    assert whole.crop((0, 0, edge, 50)).tobytes() == last.crop((0, 0, edge, 50)).tobytes()
    assert whole.crop((0, 0, edge, 50)).tobytes() != first.crop((0, 0, edge, 50)).tobytes()


def _hebrew() -> int:
    return next(i for i, f in enumerate(fonts.CHAIN) if "Hebrew" in f.name)


def _arabic() -> int:
    return next(i for i, f in enumerate(fonts.CHAIN) if "Arabic" in f.name)


def test_arabic_is_joined_and_drawn_right_to_left() -> None:
    # meem hah meem dal: initial meem, medial hah, medial meem, final dal, drawn from the right
    assert _pieces("محمد") == (("font", "\ufeaa\ufee4\ufea4\ufee3", _arabic()),)
    # lam-alef is one ligature glyph
    (piece,) = _pieces("سلام")
    assert "\ufefc" in piece[1] and len(piece[1]) == 3
    # the joined forms draw differently from the isolated letters
    joined, loose = Image.new("L", (200, 50), 0), Image.new("L", (200, 50), 0)
    text.draw_text(joined, (10, 25), "محمد", 22, 255)  # type: ignore[arg-type]
    text.draw_text(loose, (10, 25), "م ح م د", 22, 255)  # type: ignore[arg-type]
    assert joined.getbbox() is not None and joined.tobytes() != loose.tobytes()


def test_a_graphemes_characters_stay_together_inside_a_right_to_left_run() -> None:
    # an emoji sequence after a Hebrew word and a letter with its mark keep their own order
    pieces = _pieces("שלום 👍🏽")
    assert ("emoji", fonts.emoji_glyph("👍🏽"), -1) in pieces
    assert text.visual_order("שָׁלוֹם") == graphemes("שָׁלוֹם")[::-1]


def test_a_right_to_left_name_in_a_label_keeps_its_amount_after_it() -> None:
    label = f"{text.name_label('محمد', 1)}: +3"
    drawn = "".join(s for _, s, _ in _pieces(label))
    assert drawn == "\ufeaa\ufee4\ufea4\ufee3: +3"


# --------------------------------------------------------------------- the same fallback in every picture
UNDRAWABLE = "ॐ"  # Devanagari: no font of the chain has it


@pytest.fixture
def drawn_strings(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string a picture hands to text.draw_text, while the fixture is active."""
    seen: list[str] = []
    real: Callable[..., int] = text.draw_text

    def spy(img: Image.Image, xy: tuple[int, int], s: str, *args: object, **kw: object) -> int:
        seen.append(s)
        return real(img, xy, s, *args, **kw)

    monkeypatch.setattr(text, "draw_text", spy)
    yield seen


def _pictures(first: str, others: list[str]) -> dict[str, Callable[[], object]]:
    """Each kind of picture that writes names, with ``first`` as its first player (seat 1, row 1, legend line 1)."""
    names = [first, *others]
    view_mighty = {"last_hand": {"captured": [["AS"], ["KS"], ["QS"], ["JS"], ["TS"]], "friend_card": "AS"}}
    view_mediatore = {"last_hand": {"counting_cards": {"bidder_side": ["AD"], "defenders": ["3D"]}, "bidder_side": [0]}}
    view_minchiate = {"last_deal": {"events": [{"team": "A", "cards": ["T1"]}, {"team": "B", "cards": ["T2"]}]}}
    base = datetime(2026, 12, 6, 19)
    series = tuple(
        Series(i, n, ((base, 0), (base + timedelta(hours=1), i - 1)), i - 1, 2) for i, n in enumerate(names[:4])
    )
    chart = ChartData(1, "stakes", None, "current", series)
    rows = tuple(StandingRow(i + 1, n, 3 - i, f"{3 - i:+d}", Rating(25, 3, "25 ± 9")) for i, n in enumerate(names))

    def reveal(module: object, view: dict[str, object], n: int) -> object:
        scene = module.reveal_picture(view, names[:n])  # type: ignore[attr-defined]
        return reveal_image(scene.deck, scene.rows)

    def chart_picture() -> object:
        from bot.ledger.chart_render import render_chart

        return render_chart(chart, locale="en", title="chart", legend=chart_legend(chart))

    return {
        "table": lambda: table_image("french", [SeatInfo(n) for n in names[:4]]),
        "mighty reveal": lambda: reveal(mighty_pictures, view_mighty, 5),
        "mediatore reveal": lambda: reveal(mediatore_pictures, view_mediatore, 4),
        "minchiate reveal": lambda: reveal(minchiate_pictures, view_minchiate, 4),
        "standings, podium, recap": lambda: render_standings(Standings("title", rows)),
        "chart legend": chart_picture,
    }


OTHERS = ["Ana", "Bo", "Cy", "Di"]


@pytest.mark.parametrize("kind", sorted(_pictures("x", OTHERS)))
def test_a_name_that_cannot_be_drawn_is_written_the_same_in_every_picture(kind: str, drawn_strings: list[str]) -> None:
    for name in (UNDRAWABLE, "", "\u200b"):
        drawn_strings.clear()
        _pictures(name, OTHERS)[kind]()
        label = "#1"  # text.name_label's rule: "#" and the player's number in the picture (seat, row, line)
        assert any(label in s for s in drawn_strings), f"{kind}: {drawn_strings}"
        assert not any(UNDRAWABLE in s for s in drawn_strings), f"{kind} draws {UNDRAWABLE!r} as a box"


@pytest.mark.parametrize("kind", sorted(_pictures("x", OTHERS)))
def test_every_name_in_every_picture_is_drawn_without_a_box(kind: str, drawn_strings: list[str]) -> None:
    names = list(SCRIPTS.values())
    for i in range(0, len(names), 4):
        chunk = names[i : i + 4]
        chunk += OTHERS[: 4 - len(chunk)]
        drawn_strings.clear()
        _pictures(chunk[0], [*chunk[1:], "Eve"])[kind]()
        for s in drawn_strings:
            assert text.missing(s) == [], f"{kind}: {s!r} has boxes"
        flat = "".join(drawn_strings)
        for name in chunk[:2]:  # the first two are in every kind of picture (a reveal row joins partners)
            assert name in flat, f"{kind}: {name!r} not drawn ({drawn_strings})"


def test_the_emoji_table_and_the_emoji_font_agree() -> None:
    font = _emoji_ttfont()
    cmap, bitmaps = font.getBestCmap(), font["CBDT"].strikeData[0]
    sequences = fonts.emoji_sequences()
    assert len(sequences) > 3000
    for seq, ch in sequences.items():
        assert "\ufe0f" not in seq
        assert cmap.get(ord(ch)) in bitmaps, f"{seq!r} -> U+{ord(ch):X}"
    assert set(fonts.emoji_coverage()) == set(cmap)
    assert all(glyph in bitmaps for glyph in cmap.values())  # no character maps to an empty glyph
    strike = font["CBLC"].strikes[0].bitmapSizeTable
    assert strike.ppemY == fonts.EMOJI_PPEM


@pytest.mark.parametrize(("letter", "mark"), [("\u0645", "\u064f"), ("\u0628", "\u0650"), ("\u05e9", "\u05b8")])
def test_a_vowel_mark_sits_on_its_letter_not_beside_it(letter: str, mark: str) -> None:
    # an Arabic letter with a damma or kasra, a Hebrew one with a qamats: the mark's ink lies over the letter's
    bare, marked = Image.new("L", (120, 60), 0), Image.new("L", (120, 60), 0)
    text.draw_text(bare, (20, 30), letter, 28, 255)  # type: ignore[arg-type]
    text.draw_text(marked, (20, 30), letter + mark, 28, 255)  # type: ignore[arg-type]
    b, m = bare.getbbox(), marked.getbbox()
    assert b is not None and m is not None and marked.tobytes() != bare.tobytes()
    assert m[0] >= b[0] - 2 and m[2] <= b[2] + 2, (b, m)
    assert text.text_width(letter + mark, 28) == text.text_width(letter, 28)


_ALPHABET = st.sampled_from(
    [
        "a", " ", "1", "#", "(", ")", ":", "+", "ש", "ל", "ו", "ם", "\u05b8", "م", "ح", "د", "ل", "ا", "\u064f",
        "\u0651", "٣", "🎲", "👩", "👧", "\U0001f3fd", ZWJ, "\ufe0f", "\ufe0e", "\u20e3", "🇵", "🇱", "🏴",
        "\U000e0067", "\U000e007f", "\u2068", "\u2069", "ॐ", "민", "€",
    ]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(_ALPHABET, max_size=16), st.sampled_from([14, 22]), st.booleans())
def test_any_mix_of_emoji_marks_and_scripts_draws_as_wide_as_measured(chars: list[str], size: int, bold: bool) -> None:
    s = "".join(chars)
    img = Image.new("RGBA", (1200, 60), (0, 0, 0, 0))
    assert text.draw_text(img, (10, 30), s, size, (255, 255, 255), bold=bold) == text.text_width(s, size, bold)
    # nothing is lost or made up: the graphemes drawn are the graphemes of the (shaped) string, brackets maybe mirrored
    shaped = text._shape(text.sanitize(s))

    def pair(g: str) -> str:
        return min(g, text._mirror(g))

    assert sorted(map(pair, text.visual_order(text.sanitize(s)))) == sorted(map(pair, graphemes(shaped)))


def test_the_bidi_levels_are_read_from_python_bidi() -> None:
    # if a python-bidi release changed its report, names would silently keep their logical order: fail here instead
    assert text.bidi_levels("abc דוד 12") == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2]
    assert text.bidi_levels("דוד ") == [1, 1, 1, 0]  # trailing space back at the line's level


def test_brackets_in_a_right_to_left_run_are_mirrored() -> None:
    # Arabic "Muhammad (Ali)": the brackets belong to the right-to-left text, so each is drawn as its mirror image
    assert "".join(text.visual_order("محمد (علي)")) == "(\ufef2\ufee0\ufecb) \ufeaa\ufee4\ufea4\ufee3"
    assert "".join(text.visual_order("ש(ל)ו")) == "ו(ל)ש"
    # a Latin name's brackets are left alone
    assert "".join(text.visual_order("Ana (Mo) שלום")) == "Ana (Mo) םולש"

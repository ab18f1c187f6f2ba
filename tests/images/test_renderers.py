"""Hands, tables and reveals render for many inputs: small PNGs, deterministic, legal marking visible, cached."""

from __future__ import annotations

import ast
import hashlib
import io
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.images import (
    DECKS,
    ImageCache,
    RevealRow,
    SeatInfo,
    content_key,
    group_by_suit,
    render_hand,
    render_reveal,
    render_table,
)
from bot.images.hand import hand_image

MAX_BYTES = 150 * 1024
HAND_SIZES = {"french": 13, "wizard60": 13, "italian": 10, "minchiate97": 21}
ROOT = Path(__file__).resolve().parents[2]


def _png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    assert len(data) <= MAX_BYTES
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _deal(deck: str, n: int, seed: int = 7) -> list[str]:
    cards = list(DECKS[deck])
    random.Random(seed).shuffle(cards)
    chosen = set(cards[:n])
    return [c for c in DECKS[deck] if c in chosen]


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_hand_renders_small_and_deterministic(deck: str) -> None:
    hand = _deal(deck, HAND_SIZES[deck])
    first = render_hand(deck, hand, cache=None)
    assert render_hand(deck, hand, cache=None) == first
    img = _png(first)
    assert 300 < img.width <= 1300 and img.height >= 225


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_legal_marking_changes_the_image(deck: str) -> None:
    hand = _deal(deck, HAND_SIZES[deck], seed=3)
    plain = render_hand(deck, hand, cache=None)
    some = render_hand(deck, hand, legal=set(hand[:3]), cache=None)
    other = render_hand(deck, hand, legal=set(hand[3:6]), cache=None)
    none = render_hand(deck, hand, legal=set(), cache=None)
    everything = render_hand(deck, hand, legal=set(hand), cache=None)
    assert len({plain, some, other, none, everything}) == 5
    for data in (some, other, none, everything):
        _png(data)


def test_hand_sizes_from_empty_to_a_whole_minchiate_deal() -> None:
    for n in (0, 1, 2, 5, 11, 12, 21, 25):
        data = render_hand("minchiate97", _deal("minchiate97", n, seed=n), cache=None)
        _png(data)
    # 21 Minchiate cards wrap onto two rows (at most 12 a row)
    img = hand_image("minchiate97", _deal("minchiate97", 21))
    assert img.height > 2 * 225


def test_hand_grouping() -> None:
    hand = ["AS", "KS", "TD", "JK", "2S", "3H"]
    assert group_by_suit("french", hand) == [["AS", "KS", "2S"], ["TD"], ["JK"], ["3H"]]
    wiz = ["WIZ1", "2S", "JES2", "WIZ4"]
    assert group_by_suit("wizard60", wiz) == [["WIZ1", "WIZ4"], ["2S"], ["JES2"]]
    minch = ["T3", "MATTO", "Co1", "T40", "BaK"]
    assert group_by_suit("minchiate97", minch) == [["T3", "T40"], ["MATTO"], ["Co1"], ["BaK"]]
    # an explicit grouping is shown as given, and looks different from the suit grouping
    custom = render_hand("french", hand, groups=[["AS", "KS", "2S", "TD"], ["JK", "3H"]], cache=None)
    assert custom != render_hand("french", hand, cache=None)
    _png(custom)


def test_hand_rejects_foreign_cards() -> None:
    with pytest.raises(KeyError):
        render_hand("italian", ["AS", "NX"], cache=None)


def _seats(n: int, long: bool = False) -> list[SeatInfo]:
    names = ["Alessandra", "Bartholomew", "Chen", "Dário", "Eun-ji", "Friedrich", "Gül"]
    if long:
        names = [nm * 6 + " the Magnificent of Somewhere Far Away" for nm in names]
    return [SeatInfo(names[i], f"bid {i} · {i} tricks ♠", active=i == 1, team=i % 2) for i in range(n)]


@pytest.mark.parametrize("deck", sorted(DECKS))
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_table_renders_for_every_seat_count(deck: str, n: int) -> None:
    cards = _deal(deck, 2 * n + 1, seed=n)
    trick = [(s, cards[s]) for s in range(n)]
    last = [((s + 2) % n, cards[n + s]) for s in range(n)]
    empty = render_table(deck, _seats(n), cache=None)
    full = render_table(
        deck, _seats(n), trick, last, centre_text="7♥", centre_card=cards[-1], trick_winner=1, last_winner=0, cache=None
    )
    assert full != empty
    assert render_table(deck, _seats(n), trick, last, centre_text="7♥", centre_card=cards[-1], trick_winner=1,
                        last_winner=0, cache=None) == full  # fmt: skip
    for data in (empty, full):
        img = _png(data)
        assert img.size == (1000, 680)
    partial = render_table(deck, _seats(n, long=True), trick[:2], None, bottom_seat=n - 1, clockwise=False, cache=None)
    _png(partial)
    assert partial != empty


def test_table_inputs_change_the_picture() -> None:
    base = render_table("french", _seats(5), [(0, "AS")], cache=None)
    variants = [
        render_table("french", _seats(5), [(1, "AS")], cache=None),
        render_table("french", _seats(5), [(0, "AS")], centre_text="13♠", cache=None),
        render_table("french", _seats(5), [(0, "AS")], trick_winner=0, cache=None),
        render_table("french", _seats(5), [(0, "AS")], bottom_seat=2, cache=None),
        render_table("french", [*_seats(5)[:4], SeatInfo("Eun-ji", "friend")], [(0, "AS")], cache=None),
    ]
    assert len({base, *variants}) == 1 + len(variants)


def test_table_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        render_table("french", _seats(1), cache=None)
    with pytest.raises(ValueError):
        render_table("french", _seats(4), [(4, "AS")], cache=None)
    with pytest.raises(KeyError):
        render_table("french", _seats(4), [(0, "10S")], cache=None)


def test_names_outside_the_font_do_not_break_rendering() -> None:
    seats = [SeatInfo("김철수"), SeatInfo("Zoë Ñúñez"), SeatInfo("🎲🎲"), SeatInfo("")]
    _png(render_table("italian", seats, [(0, "AD")], cache=None))


def test_reveal() -> None:
    rows = [
        RevealRow("Anna", tuple(_deal("italian", 10, 1)), frozenset({"AD"})),
        RevealRow("Bruno con un nome lunghissimo davvero", tuple(_deal("italian", 10, 2))),
        RevealRow("", ()),
        RevealRow("🃏", tuple(_deal("italian", 4, 3))),
    ]
    data = render_reveal("italian", rows, cache=None)
    assert render_reveal("italian", rows, cache=None) == data
    _png(data)
    fola = render_reveal("minchiate97", [RevealRow("", tuple(_deal("minchiate97", 30, 4)))], cache=None)
    assert _png(fola).width <= 1280


def test_cache_renders_once_and_is_bounded() -> None:
    cache = ImageCache(max_items=2)
    hand = _deal("french", 13)
    a = render_hand("french", hand, legal={"AS"}, cache=cache)
    b = render_hand("french", list(hand), legal=["AS"], cache=cache)  # equal content, other types
    assert a is b and cache.stats.hits == 1 and cache.stats.misses == 1
    render_hand("french", hand[:5], cache=cache)
    render_hand("french", hand[:6], cache=cache)
    assert len(cache) == 2  # the oldest was evicted
    assert cache.stats.bytes == sum(len(render_hand("french", hand[:k], cache=None)) for k in (5, 6))
    small = ImageCache(max_items=10, max_bytes=1)
    render_hand("french", hand, cache=small)
    assert len(small) == 0
    assert content_key({"b", "a"}, [1, 2]) == content_key({"a", "b"}, (1, 2))
    assert content_key("hand", 1) != content_key("hand", "1")


def test_renderers_import_no_discord_or_asyncio() -> None:
    # the source: no such import anywhere in the package ...
    for path in sorted((ROOT / "bot" / "images").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in {"discord", "asyncio", "aiosqlite", "aiohttp"}, (path.name, name)
    # ... and at run time: rendering in a fresh interpreter loads neither (and gives the same bytes as here)
    code = (
        "import hashlib, sys; from bot.images import render_hand, render_table, SeatInfo; "
        "h = render_hand('french', ['AS', 'JK'], {'JK'}, cache=None); "
        "render_table('wizard60', [SeatInfo('a')] * 3, [(0, 'WIZ1')], cache=None); "
        "bad = [m for m in ('discord', 'asyncio') if m in sys.modules]; assert not bad, bad; "
        "print(hashlib.sha256(h).hexdigest())"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    here = hashlib.sha256(render_hand("french", ["AS", "JK"], {"JK"}, cache=None)).hexdigest()
    assert proc.stdout.strip() == here


def test_a_plate_writes_every_script_and_the_seat_number_only_for_nothing_drawable() -> None:
    """The fonts write Korean, Russian and accented Latin names as they are; a name of which nothing can be
    drawn (a script without a font, blank) shows the seat's number (more in tests/images/test_names.py and
    tests/images/test_emoji_names.py)."""
    from bot.images.table import plate_name

    assert plate_name("김민수", 2) == "김민수"
    assert plate_name("Иван", 4) == "Иван"
    assert plate_name("🤖 컴퓨터 3", 5) == "🤖 컴퓨터 3"
    assert plate_name("Zoë", 1) == "Zoë"
    assert plate_name("🤖 Computer 3", 5) == "🤖 Computer 3"
    assert plate_name("🎲🎲", 3) == "🎲🎲"  # emoji are drawn
    assert plate_name("ॐ", 3) == "#3"
    assert plate_name("  ", 6) == "#6"

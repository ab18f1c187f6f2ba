"""Standings pictures and the texts beside them, from a ledger of thousands of random booked hands: the picture
is drawn from the same rows as the text, numbers and dates are in the reader's language (all five)."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from bot.i18n import using
from bot.images.standings import (
    BAR,
    HEIGHT_PER_ROW,
    MAX_ROWS,
    NAME_PX,
    TEXT_PX,
    TITLE_PX,
    WIDTH,
    Rating,
    StandingRow,
    Standings,
    columns,
    render_standings,
)
from bot.ledger import Ledger, SeatRef
from bot.ledger.chart import FORM_LENGTH, load_chart, recent_form
from bot.ledger.texts import amount_text
from bot.storage.db import Database
from cogs.standings import chart_text, legend_line, standings_of

GUILD = 42
USERS = list(range(1, 9))
LOCALES = ("en", "it", "ko", "pl", "ru")


@pytest.fixture
async def ledger(tmp_path: object) -> AsyncIterator[Ledger]:
    db = await Database.open(str(tmp_path) + "/s.db")
    clock = {"now": datetime(2026, 1, 1, tzinfo=UTC)}
    led = Ledger(db, clock=lambda: clock["now"])
    rng = random.Random(11)
    # 2,000 hands in batches (one transaction each): a season's worth of a busy server
    for first in range(0, 2000, 250):
        async with db.transaction() as conn:
            for n in range(first, first + 250):
                clock["now"] += timedelta(minutes=rng.choice((5, 30, 240)))
                users = rng.sample(USERS, 4)
                stake = [rng.randint(-300, 300) for _ in range(3)]
                await led.book(conn, key=f"h{n}", guild_id=GUILD, game="mighty", table_id=n // 8, hand_index=n % 8,
                               seats=[SeatRef(u, f"Jugador {u} ☆") for u in users],
                               amounts={"stake": [*stake, -sum(stake)]})  # fmt: skip
    try:
        yield led
    finally:
        await db.close()


async def test_leaderboard_picture_and_text_come_from_the_same_rows(ledger: Ledger) -> None:
    board = await ledger.leaderboard(GUILD, game="mighty", limit=10)
    users = [r.user_id for r in board]
    form = await recent_form(ledger, GUILD, users, currency="stake", game="mighty")
    assert all(len(form[u]) == FORM_LENGTH for u in users)
    for loc in LOCALES:
        with using(loc):
            labels = {r.user_id: amount_text(r.total, "stake", sign_points=True) for r in board}
            names = {r.user_id: r.name or "" for r in board}
            data = standings_of("Mighty", users, names, {r.user_id: r.total for r in board}, labels, {}, form)
        assert [row.total for row in data.rows] == [r.total for r in board]
        assert [row.name for row in data.rows] == [r.name for r in board]
        lines = data.lines()
        for row, line in zip(data.rows, lines, strict=True):
            assert row.name in line and row.total_label in line
        img = Image.open(io.BytesIO(render_standings(data)))
        assert img.size == (WIDTH, 60 + HEIGHT_PER_ROW * len(board) + 12)
    # totals above 999 are grouped the reader's way
    big = max(board, key=lambda r: abs(r.total))
    assert abs(big.total) >= 1000
    with using("it"):
        assert f"{abs(big.total):,}".replace(",", ".") in amount_text(big.total, "stake")
    with using("ru"):
        assert f"{abs(big.total):,}".replace(",", "\xa0") in amount_text(big.total, "stake")


async def test_chart_text_and_legend_match_the_chart_data_in_five_languages(ledger: Ledger) -> None:
    data = await load_chart(ledger, GUILD, USERS[:6], currency="stake", season="all")
    balances = {u: (await ledger.balance(GUILD, u, "stake", "all"))["stake"] for u in USERS[:6]}
    assert {s.user_id: s.final for s in data.series} == balances
    for loc in LOCALES:
        with using(loc):
            title, lines = chart_text(data)
            legend = [legend_line(s.name, s.final, data.currency) for s in data.series]
            amounts = [amount_text(s.final, "stake", sign_points=True) for s in data.series]
        assert len(lines) == len(legend) == 6 and title
        for s, line, leg, amount in zip(data.series, lines, legend, amounts, strict=True):
            assert s.name in line and amount in line and amount in leg


def test_a_long_table_is_cut_and_unrated_rows_draw() -> None:
    rows = tuple(
        StandingRow(i + 1, f"P{i}", 10 - i, f"{10 - i:+d}", Rating(25, 8.3, "25 ± 8.3") if i % 2 else None, (1, -2, 3))
        for i in range(MAX_ROWS + 5)
    )
    img = Image.open(io.BytesIO(render_standings(Standings("Big", rows))))
    assert img.height == 60 + HEIGHT_PER_ROW * MAX_ROWS + 12
    empty = Image.open(io.BytesIO(render_standings(Standings("Nobody", ()))))
    assert empty.width == WIDTH


def _bar_extent(img: Image.Image, y0: int, y1: int) -> tuple[int, int]:
    """The leftmost and rightmost x of the rating bar's colour between rows ``y0`` and ``y1``."""
    px = img.convert("RGB").load()
    xs = [x for x in range(img.width) for y in range(y0, y1) if px[x, y] == BAR]
    return min(xs), max(xs)


def test_the_rating_bar_spans_what_its_label_says() -> None:
    # mu ± sigma, on a scale shared by the rows: sigma 2 and 6 make bars a third and the whole of the scale wide
    rows = (
        StandingRow(1, "A", 5, "+5", Rating(25.0, 2.0, "25.0 ± 2.0")),
        StandingRow(2, "B", -5, "-5", Rating(21.0, 6.0, "21.0 ± 6.0")),
    )
    img = Image.open(io.BytesIO(render_standings(Standings("R", rows))))
    a = _bar_extent(img, 60, 60 + HEIGHT_PER_ROW)
    b = _bar_extent(img, 60 + HEIGHT_PER_ROW, 60 + 2 * HEIGHT_PER_ROW)
    # scale 15..27: B spans it all, A spans 23..27, the last third
    assert abs((a[1] - a[0]) * 3 - (b[1] - b[0])) <= 6
    assert abs(a[1] - b[1]) <= 2 and abs((a[0] - b[0]) - (b[1] - b[0]) * 2 / 3) <= 4


def test_ratings_read_with_one_decimal_everywhere() -> None:
    from bot.ratings import RatingRow

    whole = RatingRow(user_id=1, name="A", mu=21.0, sigma=8.3, ordinal=-3.9, games=3, wins=1)
    with using("en"):
        data = standings_of("M", [1], {1: "A"}, {1: 3}, {1: "+3"}, {1: whole}, {})
    assert data.rows[0].rating is not None and data.rows[0].rating.label == "21.0 ± 8.3"  # not "21 ± 8.3"
    with using("it"):
        data = standings_of("M", [1], {1: "A"}, {1: 3}, {1: "+3"}, {1: whole}, {})
    assert data.rows[0].rating is not None and data.rows[0].rating.label == "21,0 ± 8,3"


def test_a_recap_without_ratings_has_no_rating_column() -> None:
    rows = tuple(StandingRow(i + 1, f"P{i}", 3 - i, f"{3 - i:+d}", None, (1, -1)) for i in range(3))
    cols = columns(rows)
    assert cols.rating is None and cols.form is not None
    rated = columns((*rows, StandingRow(4, "R", 0, "0", Rating(25, 3, "25.0 ± 3.0"))))
    assert rated.rating is not None
    # the room a rating would take goes to the name
    assert cols.name[1] > rated.name[1]
    # nothing of the bar's colour is drawn
    img = Image.open(io.BytesIO(render_standings(Standings("Season 1 recap", rows)))).convert("RGB")
    assert BAR not in {c for _, c in img.getcolors(1 << 20) or []}


def test_text_is_legible_at_a_phone_width() -> None:
    # Discord shows the picture about 400 pixels wide on a phone: the smallest text must still be 11 pixels
    assert min(TEXT_PX, NAME_PX, TITLE_PX) * 400 / WIDTH >= 11

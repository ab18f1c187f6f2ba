"""`/ledger chart` data and picture: ledger_hours (migration 011) is the GROUP BY of the entries, the running
balances end at the ledger's balances, downsampling keeps the end exact, and the picture draws the text's data;
the time axis fits spans from one moment to years (read from matplotlib's tick labels), ties stay visible, the
palette's neighbours differ and every text is legible at a phone's width."""

from __future__ import annotations

import io
import itertools
import math
import random
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.ledger import Ledger, SeatRef
from bot.ledger.chart import MAX_POINTS, MAX_SERIES, ChartData, Series, downsample, load_chart, running
from bot.ledger.chart_render import (
    COLOURS,
    MIN_PHONE_PX,
    PHONE_WIDTH,
    TEXT_PX,
    WIDTH,
    chart_figure,
    chart_height,
    date_label,
    number_label,
    render_chart,
)
from bot.storage.db import Database

G1, G2 = 1001, 2002
USERS = [11, 22, 33, 44, 55, 66]
CHECK = (
    "SELECT guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13), SUM(amount),"
    " COUNT(*) FROM entries WHERE is_bot = 0 AND amount <> 0"
    " GROUP BY guild_id, currency, user_id, season_id, COALESCE(game, ''), substr(created_at, 1, 13)"
)
HOURS = "SELECT guild_id, currency, user_id, season_id, game, hour, total, entries FROM ledger_hours"


@pytest.fixture
async def db(db_target: str) -> AsyncIterator[Database]:
    database = await Database.open(db_target)
    try:
        yield database
    finally:
        await database.close()


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 9, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def random_ledger(db: Database, hands: int, seed: int = 7) -> tuple[Ledger, Clock]:
    """``hands`` random bookings (a few adjustments and a season close among them), minutes to days apart."""
    clock = Clock()
    ledger = Ledger(db, clock=clock)
    rng = random.Random(seed)
    for i in range(hands):
        clock.now += timedelta(minutes=rng.choice((3, 20, 90, 600, 2000)))
        guild = G1 if rng.random() < 0.8 else G2
        op = rng.random()
        if op < 0.01:
            await ledger.close_season(guild, 99)
        elif op < 0.06:
            await ledger.adjust(guild, rng.choice(USERS), "stake", rng.choice((-7, 4, 12)), 99, "fix")
        else:
            users = rng.sample(USERS, 4)
            seats = [SeatRef(u, f"Player {u}") for u in users]
            if rng.random() < 0.2:
                seats[3] = SeatRef(None, "Robot")
            stake = [rng.randint(-9, 9) for _ in range(3)]
            await ledger.settle(
                key=f"k{i}", guild_id=guild, game=rng.choice(("mighty", "wizard")), table_id=i, hand_index=0,
                seats=seats, amounts={"stake": [*stake, -sum(stake)], "point": [rng.randint(0, 30) for _ in range(4)]},
            )  # fmt: skip
    return ledger, clock


async def test_hours_are_the_group_by_of_entries_and_charts_end_at_balances(db: Database) -> None:
    ledger, _ = await random_ledger(db, 400)
    expected = sorted(tuple(r) for r in await db.fetchall(CHECK))
    assert sorted(tuple(r) for r in await db.fetchall(HOURS)) == expected
    for season in ("current", "all"):
        data = await load_chart(ledger, G1, USERS, currency="stake", season=season)
        assert [s.user_id for s in data.series] == USERS
        for s in data.series:
            assert s.final == (await ledger.balance(G1, s.user_id, "stake", season))["stake"]
            assert len(s.points) <= MAX_POINTS
            if s.points:
                assert s.points[-1][1] == s.final
                assert [t for t, _ in s.points] == sorted(t for t, _ in s.points)
    # one game: the per-game leaderboard's totals (adjustments belong to no game)
    board = {r.user_id: r.total for r in await ledger.leaderboard(G1, game="wizard", season="all", limit=20)}
    data = await load_chart(ledger, G1, USERS, currency="stake", game="wizard", season="all")
    assert {s.user_id: s.final for s in data.series if s.user_id in board} == board
    assert all(s.final == 0 for s in data.series if s.user_id not in board)


async def test_an_unknown_player_and_an_empty_guild_chart_nothing(db: Database) -> None:
    ledger = Ledger(db)
    assert (await load_chart(ledger, G1, [5], currency="stake")).empty
    await ledger.adjust(G1, 11, "stake", 5, 99, "start")
    data = await load_chart(ledger, G1, [11, 12], currency="stake")
    assert [(s.final, len(s.points)) for s in data.series] == [(5, 1), (0, 0)]
    assert data.series[1].name == "12"  # never played: named by id (the cog passes display names)


@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(-50, 50)), min_size=1, max_size=2000))
def test_downsample_keeps_the_first_and_last_point_and_the_limit(raw: list[tuple[int, int]]) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    hours = sorted({h for h, _ in raw})
    rows = [
        ((start + timedelta(hours=h)).strftime("%Y-%m-%dT%H"), v)
        for h, v in zip(hours, (v for _, v in raw), strict=False)
    ]
    points = running(rows)
    kept = downsample(points, 50)
    assert len(kept) <= 50
    assert kept[0] == points[0] and kept[-1] == points[-1]
    assert set(kept) <= set(points)
    assert kept == sorted(kept)


def test_locale_labels_in_all_five_languages() -> None:
    when = datetime(2026, 12, 2, tzinfo=UTC)
    short = {loc: date_label(when, loc, with_year=False) for loc in ("en", "it", "ko", "pl", "ru")}
    assert short == {"en": "12/2", "it": "02/12", "ko": "12. 2.", "pl": "2.12", "ru": "02.12"}
    assert date_label(when, "en", with_year=True) == "12/2/2026"
    assert date_label(when, "ko", with_year=True) == "2026/12/2"
    numbers = {loc: number_label(-12345, loc) for loc in ("en", "it", "ko", "pl", "ru")}
    assert numbers == {"en": "-12,345", "it": "-12.345", "ko": "-12,345", "pl": "-12\xa0345", "ru": "-12\xa0345"}


async def test_the_picture_draws_the_data_of_the_text(db: Database) -> None:
    ledger, _ = await random_ledger(db, 300, seed=3)
    data = await load_chart(ledger, G1, USERS[:3], currency="stake", season="all")
    legend = [f"{s.name} {s.final:+d}" for s in data.series]
    png = render_chart(data, locale="ru", title="Баланс", legend=legend)
    img = Image.open(io.BytesIO(png))
    assert img.size == (WIDTH, chart_height(3))
    # the first player's colour is on the plot: the curve was drawn
    colours = {c for _, c in img.convert("RGB").getcolors(1 << 20) or []}
    assert COLOURS[0] in colours
    # equal data, equal key; a different balance, another key
    assert ChartData(G1, "stake", None, "all", data.series).key() == data.key()
    other = ChartData(G1, "stake", None, "all", data.series[1:])
    assert other.key() != data.key()


# ---------------------------------------------------------------- the time axis, ties, colours, legibility

START = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)
NAMES = ("민수", "Алексей", "Łukasz Żółw", "李雷", "Zoë")


def _evening(span: timedelta, steps: int = 12, players: int = 5) -> ChartData:
    """``players`` running balances over ``span`` from 20:00 on 6 December 2026 (one point each when it is 0)."""
    rng = random.Random(7)
    series = []
    for i in range(players):
        balance, points = 0, []
        for k in range(1 if not span else steps):
            balance += rng.randint(-6, 6)
            points.append((START + span * (k / max(1, steps - 1)), balance))
        series.append(Series(i + 1, NAMES[i % len(NAMES)], tuple(points), balance, len(points)))
    return ChartData(1, "stake", None, "current", tuple(series))


def _ticks(data: ChartData, locale: str = "en") -> tuple[list[str], str]:
    """The x axis's tick labels (those inside the plot) and its label, as matplotlib drew them."""
    ax = chart_figure(data, locale=locale).axes[0]
    lo, hi = ax.get_xlim()
    labels = [t.get_text() for t, x in zip(ax.get_xticklabels(), ax.get_xticks(), strict=True) if lo <= x <= hi]
    return labels, ax.get_xlabel()


def test_one_moment_is_bars_with_its_date() -> None:
    data = _evening(timedelta(0))
    ax = chart_figure(data, locale="en").axes[0]
    labels, axis = _ticks(data)
    assert labels == [] and axis == "12/6/2026 20:00 UTC"  # the real date, once; no ticks of a made-up span
    assert len(ax.patches) == 5  # one bar per player
    assert [round(p.get_height()) for p in ax.patches] == [s.final for s in data.series]
    # each bar carries its number
    assert [t.get_text() for t in ax.texts] == [number_label(s.final, "en") for s in data.series]
    assert _ticks(data, "ru")[1] == "06.12.2026 20:00 UTC"


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        (timedelta(minutes=1), r"^\d\d:\d\d$"),
        (timedelta(hours=3), r"^\d\d:\d\d$"),
        (timedelta(days=2), r"^\d{1,2}/\d{1,2}\n\d\d:\d\d$"),
        (timedelta(days=61), r"^\d{1,2}/\d{1,2}$"),
        (timedelta(days=4 * 365), r"^\d{4}$"),
    ],
)
def test_the_time_axis_fits_the_span(span: timedelta, expected: str) -> None:
    labels, axis = _ticks(_evening(span))
    assert 3 <= len(labels) <= 7, labels
    assert len(set(labels)) == len(labels), labels  # never five ticks that all read 1/1
    assert all(re.match(expected, label) for label in labels), labels
    if span <= timedelta(hours=3):
        assert axis == "12/6/2026 (UTC)"  # the evening's date, shown once, and whose hours these are
    elif span <= timedelta(days=2):
        assert axis == "2026 (UTC)"
    elif span <= timedelta(days=61):
        assert axis in ("2026", "2026 – 2027")


def test_an_evening_reads_hours_in_every_language() -> None:
    for loc in ("en", "it", "ko", "pl", "ru"):
        labels, axis = _ticks(_evening(timedelta(hours=3)), loc)
        assert labels == ["20:00", "21:00", "22:00", "23:00"], (loc, labels)
        assert axis == date_label(START, loc, with_year=True) + " (UTC)"


def test_ties_are_drawn_apart() -> None:
    data = _evening(timedelta(hours=3), players=3)
    a, b, c = data.series
    tied = ChartData(1, "stake", None, "current", (a, Series(b.user_id, b.name, a.points, a.final, 12), c))
    ax = chart_figure(tied, locale="en").axes[0]
    curves = [line for line in ax.get_lines() if len(line.get_xdata()) > 2]  # (not the zero line)
    assert len(curves) == 3
    pixels = [line.get_transform().transform(line.get_xydata()) for line in curves]
    # the same data, a few pixels apart on screen: neither hides the other
    assert (curves[0].get_xydata() == curves[1].get_xydata()).all()
    gap = abs(pixels[0][:, 1] - pixels[1][:, 1])
    assert gap.min() >= 3
    # the untied curve is drawn where its data is
    assert (pixels[2] == ax.transData.transform(curves[2].get_xydata())).all()
    # their end markers stand side by side, not on top of each other
    ends = [line for line in ax.get_lines() if len(line.get_xdata()) == 1]
    xy = [line.get_transform().transform(line.get_xydata())[0] for line in ends[:2]]
    assert math.dist(xy[0], xy[1]) >= 12


def _lab(c: tuple[int, int, int]) -> tuple[float, float, float]:
    """sRGB to CIELAB (D65)."""

    def lin(u: float) -> float:
        u /= 255
        return u / 12.92 if u <= 0.04045 else ((u + 0.055) / 1.055) ** 2.4

    r, g, b = map(lin, c)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _delta_e(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    return math.dist(_lab(a), _lab(b))


def test_the_palette_neighbours_differ_clearly() -> None:
    assert len(COLOURS) >= MAX_SERIES
    # curves one or two apart in the legend (the ones compared most) differ by ΔE*76 >= 50, any two by >= 30
    for gap in (1, 2):
        for a, b in itertools.pairwise(COLOURS[::1]) if gap == 1 else zip(COLOURS, COLOURS[2:], strict=False):
            assert _delta_e(a, b) >= 50, (a, b)
    assert all(_delta_e(a, b) >= 30 for a, b in itertools.combinations(COLOURS, 2))
    # and every colour stands out from the background
    assert all(_delta_e(c, (30, 33, 40)) >= 60 for c in COLOURS)


def test_text_is_legible_at_a_phone_width() -> None:
    assert TEXT_PX * PHONE_WIDTH / WIDTH >= MIN_PHONE_PX
    for data in (_evening(timedelta(hours=3)), _evening(timedelta(0))):
        fig = chart_figure(data, locale="en")
        ax = fig.axes[0]
        texts = [*ax.get_xticklabels(), *ax.get_yticklabels(), ax.xaxis.label, *ax.texts]
        for t in texts:
            if t.get_text():
                px = t.get_fontsize() * fig.dpi / 72  # points to pixels
                assert px * PHONE_WIDTH / WIDTH >= MIN_PHONE_PX - 0.01, t.get_text()


SPANS = (timedelta(0), timedelta(minutes=1), timedelta(hours=3), timedelta(days=2), timedelta(days=61),
         timedelta(days=4 * 365))  # fmt: skip


def test_axis_labels_are_digits_and_punctuation_in_every_language() -> None:
    # matplotlib's font has no Hangul: a word in a tick would be a box (the zone is CLDR's "UTC" in all five)
    for span, loc in itertools.product(SPANS, ("en", "it", "ko", "pl", "ru")):
        labels, axis = _ticks(_evening(span), loc)
        for text in [*labels, axis]:
            assert re.fullmatch(r"[\d\s./:–-]*( \(?UTC\)?)?", text), (loc, text)


def test_every_span_renders() -> None:
    for span in SPANS:
        data = _evening(span)
        legend = [f"{s.name}: {s.final:+d}" for s in data.series]
        png = render_chart(data, locale="ko", title="누적 잔액", legend=legend)
        assert Image.open(io.BytesIO(png)).size == (WIDTH, chart_height(5))

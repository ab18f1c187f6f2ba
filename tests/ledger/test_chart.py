"""`/ledger chart` data and picture: ledger_hours (migration 011) is the GROUP BY of the entries, the running
balances end at the ledger's balances, downsampling keeps the end exact, and the picture draws the text's data."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.ledger import Ledger, SeatRef
from bot.ledger.chart import MAX_POINTS, ChartData, downsample, load_chart, running
from bot.ledger.chart_render import HEIGHT, WIDTH, date_label, number_label, render_chart
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
    assert img.size == (WIDTH, HEIGHT)
    # the first player's colour is on the plot: the curve was drawn
    colours = {c for _, c in img.convert("RGB").getcolors(1 << 20) or []}
    assert (250, 204, 64) in colours
    # equal data, equal key; a different balance, another key
    assert ChartData(G1, "stake", None, "all", data.series).key() == data.key()
    other = ChartData(G1, "stake", None, "all", data.series[1:])
    assert other.key() != data.key()

"""Regenerate the example pictures in docs/: a Mighty table (5 seats, a trick), a Minchiate 21-card hand, a
`/ledger chart` of a made-up season and a `/leaderboard` standings picture.

.venv/bin/python bench/make_docs_images.py
"""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.images import SeatInfo, render_hand, render_table
from bot.images.standings import Rating, StandingRow, Standings, render_standings
from bot.ledger.chart import ChartData, Series, downsample

DOCS = Path(__file__).resolve().parents[1] / "docs"


def mighty_table() -> bytes:
    seats = [
        SeatInfo("Minsu", "13 ♠ · 4", team=0),
        SeatInfo("Alessandra", "2"),
        SeatInfo("Jae-won", "3", team=0),
        SeatInfo("Bartholomew the Bold", "1", active=True),
        SeatInfo("Chen", "0"),
    ]
    trick = [(2, "KS"), (3, "9S"), (4, "JK"), (0, "AS")]
    last = [(1, "TH"), (2, "QH"), (3, "3H"), (4, "AH"), (0, "5S")]
    return render_table("french", seats, trick, last, centre_text="13♠", last_winner=0, cache=None)


def minchiate_hand() -> bytes:
    hand = [
        "T40", "T36", "T28", "T20", "T15", "T11", "T7", "T1", "MATTO",
        "CoK", "CoC", "Co1", "Co7",
        "CuQ", "Cu2",
        "SwK", "Sw10", "Sw4",
        "BaF", "Ba9", "Ba3",
    ]  # fmt: skip
    legal = {c for c in hand if c.startswith("T")} | {"MATTO"}
    return render_hand("minchiate97", hand, legal=legal, cache=None)


PLAYERS = ("Minsu", "Alessandra", "Jae-won", "Chen", "Bartholomew")


def _season() -> list[Series]:
    """Three months of evening hands (seeded): each player's running balance, as the chart reads it."""
    rng = random.Random(25)
    start = datetime(2026, 9, 1, 20, tzinfo=UTC)
    skill = (1.2, 0.4, 0.0, -0.5, -1.1)
    series = []
    for i, name in enumerate(PLAYERS):
        balance, points = 0, []
        for day in range(90):
            if rng.random() < 0.45:
                balance += round(rng.gauss(skill[i], 6))
                points.append((start + timedelta(days=day), balance))
        series.append(Series(i + 1, name, tuple(downsample(points)), balance, len(points)))
    return series


def ledger_chart() -> bytes:
    from bot.ledger.chart_render import render_chart

    data = ChartData(1, "stake", "mighty", 3, tuple(_season()))
    legend = [f"{s.name}: {s.final:+d} stakes" for s in data.series]
    return render_chart(data, locale="en", title="Running balance — Mighty, season 3", legend=legend)


def standings() -> bytes:
    ranked = sorted(_season(), key=lambda s: -s.final)
    rng = random.Random(3)
    rows = []
    for rank, s in enumerate(ranked, start=1):
        mu, sigma = 25 + s.final / 10, 2 + rng.random() * 4
        last = [v for _, v in s.points[-11:]]
        form = tuple(b - a for a, b in itertools.pairwise(last))
        rating = Rating(mu, sigma, f"{mu:.1f} ± {sigma:.1f}")
        rows.append(StandingRow(rank, s.name, s.final, f"{s.final:+d} stakes", rating, form))
    return render_standings(Standings("Mighty leaderboard", tuple(rows)))


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    for name, data in (
        ("mighty-table.png", mighty_table()),
        ("minchiate-hand.png", minchiate_hand()),
        ("ledger-chart.png", ledger_chart()),
        ("standings.png", standings()),
    ):
        (DOCS / name).write_bytes(data)
        print(f"docs/{name}: {len(data) / 1024:.1f} KB")


if __name__ == "__main__":
    main()

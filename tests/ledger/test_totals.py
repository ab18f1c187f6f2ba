"""ledger_totals (migration 007) is exactly the GROUP BY of the entries after any mix of operations."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.ledger import Ledger, SeatRef
from bot.storage.db import Database

G1, G2 = 1001, 2002
USERS = [11, 22, 33, 44, 55]
CHECK = (
    "SELECT guild_id, season_id, currency, COALESCE(game, ''), user_id, SUM(amount), SUM(played), SUM(won)"
    " FROM entries WHERE is_bot = 0 GROUP BY guild_id, season_id, currency, COALESCE(game, ''), user_id"
)
TOTALS = "SELECT guild_id, season_id, currency, game, user_id, total, games, wins FROM ledger_totals"


@pytest.fixture
async def db(db_target: str) -> AsyncIterator[Database]:
    database = await Database.open(db_target)
    try:
        yield database
    finally:
        await database.close()


async def assert_totals_match(db: Database) -> None:
    expected = sorted(tuple(r) for r in await db.fetchall(CHECK))
    assert sorted(tuple(r) for r in await db.fetchall(TOTALS)) == expected


async def test_totals_follow_settlements_adjustments_and_seasons(db: Database) -> None:
    ledger = Ledger(db)
    rng = random.Random(7)
    for i in range(60):
        guild = rng.choice((G1, G2))
        op = rng.random()
        if op < 0.1:
            await ledger.close_season(guild, 99)
        elif op < 0.25:
            await ledger.adjust(guild, rng.choice(USERS), rng.choice(("stake", "point")), rng.randint(1, 9), 99, "fix")
        else:
            users = rng.sample(USERS, 3)
            seats = [SeatRef(u, f"u{u}") for u in users]
            if rng.random() < 0.3:
                seats[1] = SeatRef(None, "Robot")
            if rng.random() < 0.2:
                seats[2] = seats[0]  # one user holding two seats: one totals row, played once
            stake = [rng.randint(-5, 5), rng.randint(-5, 5)]
            amounts = {"stake": [*stake, -sum(stake)], "point": [rng.randint(0, 9) for _ in range(3)]}
            k = i % 50  # some keys come back (same guild, game and table): retries book nothing
            booked = await ledger.settle(key=f"k{k}", guild_id=(G1, G2)[k % 2], game=("wizard", "mighty")[k % 3 % 2],
                                         table_id=k, hand_index=0, seats=seats, amounts=amounts)  # fmt: skip
            assert booked or i >= 50
        await assert_totals_match(db)
    board = await ledger.leaderboard(G1, season="all")
    for row in board:
        assert (await ledger.balance(G1, row.user_id, "stake", "all"))["stake"] == row.total

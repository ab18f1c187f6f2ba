"""OpenSkill ratings: who forms a team in each game, exactly-once application (retries, concurrent syncs),
rebuild from the ledger, guild isolation, leaderboards by rating and profiles."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.ledger import Ledger, SeatRef
from bot.ratings import Ratings, SeatResult, outcome
from bot.storage.db import Database

G1, G2 = 71, 72


def seats(*amounts: int, currency: str = "stake") -> list[SeatResult]:
    return [SeatResult(i, 100 + i, {currency: a}) for i, a in enumerate(amounts)]


def test_outcome_per_game() -> None:
    # Mighty: declarer + friend against the rest, ranked by "made"
    assert outcome("mighty", {"declarer": 2, "friend": 4, "made": False}, seats(0, 0, 0, 0, 0)) == (
        [[2, 4], [0, 1, 3]],
        [2, 1],
    )
    assert outcome("mighty", {"declarer": 1, "friend": None, "made": True}, seats(0, 0, 0, 0, 0)) == (
        [[1], [0, 2, 3, 4]],
        [1, 2],
    )
    # Mediatore: the bidder side as recorded
    assert outcome("mediatore", {"bidder_side": [3, 0], "made": True}, seats(1, -1, -1, 1)) == (
        [[0, 3], [1, 2]],
        [1, 2],
    )
    # Minchiate: fixed partnerships, a draw is a tie
    assert outcome("minchiate", {"net_A": -2}, seats(0, 0, 0, 0)) == ([[0, 2], [1, 3]], [2, 1])
    assert outcome("minchiate", {"net_A": 0}, seats(0, 0, 0, 0)) == ([[0, 2], [1, 3]], [1, 1])
    # Wizard: the ranks of the final settlement
    assert outcome("wizard", {"ranks": [2, 1, 3]}, seats(0, 0, 0, currency="point")) == ([[0], [1], [2]], [2, 1, 3])
    # fallback by amounts; all equal says nothing
    assert outcome("other", {}, seats(5, -5, 0)) == ([[0], [1], [2]], [1, 3, 2])
    assert outcome("other", {}, seats(0, 0, 0)) is None


# The ratings fold runs on both database backends (see ``backend`` in tests/conftest.py).
pytestmark = pytest.mark.usefixtures("backend")


async def _db() -> tuple[Database, Ledger, Ratings]:
    db = await Database.open(":memory:")
    ledger = Ledger(db)
    return db, ledger, Ratings(db)


async def _mighty_hand(ledger: Ledger, guild: int, key: str, users: list[int | None], decl: int, made: bool) -> None:
    pay = [0] * 5
    sign = 1 if made else -1
    pay[decl] = 4 * sign
    for s in range(5):
        if s != decl:
            pay[s] = -sign
    await ledger.settle(
        key=key, guild_id=guild, game="mighty", table_id=1, hand_index=int(key.split(":")[-1]),
        seats=[SeatRef(u, f"u{u}") for u in users], amounts={"stake": pay},
        summary={"declarer": decl, "friend": None, "made": made, "bid": 13 + decl % 3},
    )  # fmt: skip


async def test_sync_is_exactly_once_under_retries_and_concurrency() -> None:
    db, ledger, ratings = await _db()
    users: list[int | None] = [1, 2, 3, 4, None]
    for i in range(12):
        await _mighty_hand(ledger, G1, f"t:1:{i}", users, i % 5, i % 3 != 0)
        # a retried booking changes nothing
        await _mighty_hand(ledger, G1, f"t:1:{i}", users, i % 5, i % 3 != 0)
    counts = await asyncio.gather(ratings.sync(), ratings.sync(), ratings.sync())
    assert sum(counts) == 12
    assert await ratings.sync() == 0
    row = await db.fetchone("SELECT COUNT(*), COUNT(DISTINCT settlement_id) FROM rating_applied")
    assert row is not None and row[0] == row[1] == 12

    # the same numbers as applying OpenSkill by hand, in order
    model = PlackettLuce()
    ref: dict[int, Any] = {}
    for i in range(12):
        decl, made = i % 5, i % 3 != 0
        side = [decl]
        rest = [s for s in range(5) if s != decl]
        key = [u if u is not None else 0 for u in users]
        teams = [[ref.get(key[s], model.rating()) for s in side], [ref.get(key[s], model.rating()) for s in rest]]
        new = model.rate(teams, ranks=[1, 2] if made else [2, 1])
        seen: set[int] = set()
        for team, new_team in zip([side, rest], new, strict=True):
            for s, r in zip(team, new_team, strict=True):
                if key[s] not in seen:
                    seen.add(key[s])
                    ref[key[s]] = r
    for uid in (1, 2, 3, 4):
        got = await ratings.get(G1, "mighty", uid)
        assert got is not None and got.games == 12
        assert got.mu == pytest.approx(ref[uid].mu) and got.sigma == pytest.approx(ref[uid].sigma)
    await db.close()


async def test_rebuild_gives_the_same_ratings_and_guilds_stay_apart() -> None:
    db, ledger, ratings = await _db()
    for i in range(8):
        await _mighty_hand(ledger, G1, f"a:1:{i}", [1, 2, 3, 4, 5], i % 5, i % 2 == 0)
        await _mighty_hand(ledger, G2, f"b:1:{i}", [1, 6, 7, 8, 9], (i + 1) % 5, i % 2 == 1)
        if i == 3:
            await ratings.sync()  # a live update half-way
    await ratings.sync()
    before = await ratings.leaderboard(G1, "mighty")
    other = await ratings.leaderboard(G2, "mighty")
    assert await ratings.rebuild(G1) == 8
    assert await ratings.leaderboard(G1, "mighty") == before
    assert await ratings.leaderboard(G2, "mighty") == other  # untouched
    assert {r.user_id for r in before} == {1, 2, 3, 4, 5}
    assert {r.user_id for r in other} == {1, 6, 7, 8, 9}  # user 1 rated separately per guild
    r1a, r1b = await ratings.get(G1, "mighty", 1), await ratings.get(G2, "mighty", 1)
    assert r1a is not None and r1b is not None and r1a.mu != r1b.mu
    await db.close()


async def test_computers_pool_one_rating_and_leaderboard_omits_it() -> None:
    db, ledger, ratings = await _db()
    await _mighty_hand(ledger, G1, "c:1:0", [1, None, None, 2, None], 0, True)
    await ratings.sync()
    comp = await ratings.get(G1, "mighty", 0)
    assert comp is not None and comp.games == 1
    assert {r.user_id for r in await ratings.leaderboard(G1, "mighty")} == {1, 2}
    await db.close()


async def test_profile_contracts_and_wizard_bid_accuracy() -> None:
    db, ledger, ratings = await _db()
    users: list[int | None] = [1, 2, 3, 4, 5]
    await _mighty_hand(ledger, G1, "p:1:0", users, 0, True)  # user 1 declares bid 13, made
    await _mighty_hand(ledger, G1, "p:1:5", users, 0, False)  # bid 13 again, failed
    await _mighty_hand(ledger, G1, "p:1:1", users, 1, True)  # user 2 declares
    await ledger.settle(
        key="w:1:0", guild_id=G1, game="wizard", table_id=2, hand_index=0,
        seats=[SeatRef(1, "u1"), SeatRef(2, "u2"), SeatRef(None, "bot")],
        amounts={"point": [50, 20, -10]},
        summary={"ranks": [1, 2, 3], "exact_bids": [3, 1, 0], "rounds": 4},
    )  # fmt: skip
    await ratings.sync()
    prof = await ratings.profile(G1, 1)
    mighty, wizard = prof.games["mighty"], prof.games["wizard"]
    assert mighty.games == 3 and mighty.contracts == {"13": (1, 2)}
    assert wizard.games == 1 and wizard.wins == 1 and (wizard.exact_bids, wizard.rounds) == (3, 4)
    assert wizard.bid_accuracy == 0.75 and wizard.rating is not None
    assert (await ratings.profile(G2, 1)).games == {}  # other guilds see nothing
    await db.close()


async def test_ratings_read_the_ledger_of_their_own_database() -> None:
    db, _, _ = await _db()
    other = await Database.open(":memory:")
    with pytest.raises(ValueError):
        Ratings(db, ledger=Ledger(other))
    assert Ratings(db, ledger=Ledger(db)).ledger.db is db
    await other.close()
    await db.close()

"""Ledger integrity with real games: every hand of every game is zero-sum in stake and resto, concurrent tables
book each hand exactly once, and retries (replay after a restart, duplicate bookings) change nothing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from bot.ledger import Ledger, SeatRef
from bot.storage.db import Database
from bot.tables.service import TableService

GUILD = 4242
OPTIONS: dict[str, tuple[int, dict[str, Any]]] = {
    "mediatore": (4, {"hands": 2, "stake": 3}),
    "mighty": (5, {"hands": 2, "stake": 2}),
    "minchiate": (4, {"deals_per_game": 1, "stake_per_resto": 5}),
    "wizard": (4, {"rounds": [1, 2], "stake_per_point": 1}),
}


async def _inline(fn: Any, *args: Any) -> Any:
    return fn(*args)


async def _computer_table(svc: TableService, game: str, channel: int) -> int:
    n, opts = OPTIONS[game]
    t = await svc.create(guild_id=GUILD, channel_id=channel, game_id=game, host_id=1, host_name="host",
                         options=opts, seat_host=False)  # fmt: skip
    for _ in range(n):
        await svc.add_computer(t.id, 1)
    await svc.start(t.id, None)
    return t.id


async def test_concurrent_tables_zero_sum_and_exactly_once(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    db = await Database.open(path)
    svc = TableService(db, Ledger(db), agent_runner=_inline)
    # two tables of every game at once: their drivers interleave on the one write connection
    ids = [await _computer_table(svc, game, 100 + i) for i, game in enumerate(sorted(OPTIONS) * 2)]
    await svc.idle()
    rows = await db.fetchall("SELECT status FROM game_tables ORDER BY id")
    assert [r[0] for r in rows] == ["finished"] * len(ids)
    bad = await db.fetchall(
        "SELECT settlement_id, currency, SUM(amount) FROM entries WHERE currency IN ('stake', 'resto')"
        " GROUP BY settlement_id, currency HAVING SUM(amount) <> 0"
    )
    assert not bad
    expected = {"mediatore": 2, "mighty": 2, "minchiate": 1, "wizard": 1}
    per_table = await db.fetchall("SELECT table_id, game, COUNT(*) FROM settlements GROUP BY table_id, game")
    assert {int(r[0]) for r in per_table} == set(ids)
    assert all(int(r[2]) == expected[r[1]] for r in per_table)
    # every settlement has one entry per seat and currency
    seats_ok = await db.fetchall(
        "SELECT s.game, COUNT(e.id), COUNT(DISTINCT e.currency) FROM settlements s JOIN entries e"
        " ON e.settlement_id = s.id GROUP BY s.id"
    )
    assert all(int(c) == OPTIONS[g][0] * int(k) for g, c, k in seats_ok)
    before = await db.fetchone("SELECT COUNT(*) FROM entries")

    # retries: book every settlement of every table again, concurrently; nothing changes
    rebook = []
    for r in await db.fetchall("SELECT key, guild_id, game, table_id, hand_index, summary_json FROM settlements"):
        entries = await db.fetchall(
            "SELECT e.seat, e.user_id, e.is_bot, e.player_name, e.currency, e.amount FROM entries e"
            " JOIN settlements s ON s.id = e.settlement_id WHERE s.key = ? ORDER BY e.seat, e.id",
            (r[0],),
        )
        n = max(int(e[0]) for e in entries) + 1
        seat_refs = [SeatRef(None, "x")] * n
        amounts: dict[str, list[int]] = {}
        for seat, uid, is_bot, name, cur, amt in entries:
            seat_refs[seat] = SeatRef(None if is_bot else uid, name)
            amounts.setdefault(cur, [0] * n)[seat] = amt
        kw = dict(key=r[0], guild_id=r[1], game=r[2], table_id=r[3], hand_index=r[4], seats=seat_refs, amounts=amounts)
        rebook += [svc.ledger.settle(**kw), svc.ledger.settle(**kw)]  # type: ignore[arg-type]
    assert not any(await asyncio.gather(*rebook))
    after = await db.fetchone("SELECT COUNT(*) FROM entries")
    assert before is not None and after is not None and before[0] == after[0]
    await db.close()


async def test_restart_replay_books_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    db = await Database.open(path)
    svc = TableService(db, Ledger(db), agent_runner=_inline)
    t = await svc.create(guild_id=GUILD, channel_id=1, game_id="mediatore", host_id=7, host_name="h",
                         options={"hands": 3}, seat_host=True)  # fmt: skip
    for _ in range(3):
        await svc.add_computer(t.id, 7)
    await svc.start(t.id, 7)
    rng = random.Random(3)
    for _ in range(2000):  # the human plays until one hand is booked; the game (3 hands) is still running
        await svc.idle()
        assert t.game is not None
        if t.game.settlements():
            break
        seat = t.game.to_move()[0]
        assert t.seats[seat].user_id == 7
        await svc.act(t.id, 7, rng.choice(t.game.legal_actions(seat)), t.version)
    assert t.status == "running" and t.game is not None and len(t.game.settlements()) == 1
    n_before = await db.fetchone("SELECT COUNT(*) FROM settlements")
    await db.close()
    db2 = await Database.open(path)
    svc2 = TableService(db2, Ledger(db2), agent_runner=_inline)
    (restored,) = await svc2.load()  # replays the log and re-books every settlement: the keys make that a no-op
    n_after = await db2.fetchone("SELECT COUNT(*) FROM settlements")
    assert n_before is not None and n_after is not None and n_after[0] == n_before[0] == 1
    assert restored.status == "running" and restored.booked == 1
    await svc2.idle()
    keys = await db2.fetchall("SELECT key, COUNT(*) FROM settlements GROUP BY key HAVING COUNT(*) > 1")
    assert not keys
    await db2.close()

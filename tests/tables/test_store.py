"""The table store: a table and its action log survive a round trip through SQLite unchanged."""

from __future__ import annotations

from pathlib import Path

from bot.storage.db import Database
from bot.tables.model import Seat, Table
from bot.tables.store import TableStore


def _table() -> Table:
    return Table(
        id=0,
        guild_id=1000,
        channel_id=2000,
        game_id="wizard",
        host_id=11,
        options={"rounds": [1, 2, 3], "stake_per_point": 1},
        seed=42,
        status="lobby",
        seats=[Seat(11, "Alice"), Seat(12, "Bob", away=True), Seat(None, "🤖 Computer 1", ai_level="easy")],
        turn_timeout=60,
        tournament_id=None,
    )


async def test_round_trip_of_a_running_table_with_its_log(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "t.db")
    store = TableStore(db)
    t = _table()
    t.id = await store.insert(t)
    assert t.id > 0 and await store.status(t.id) == "lobby"

    t.status = "running"
    t.messages = {"table": 555, "dm:0": 777}
    t.stop_votes = {11}
    t.deadline, t.reminded = 1_700_000_060.25, True
    log = [(0, {"type": "bid", "n": 1}), (1, {"type": "bid", "n": 0}), (2, {"type": "play", "card": "W1"})]
    async with db.transaction() as conn:
        for seq, (seat, action) in enumerate(log):
            await store.append_action(conn, t.id, seq, seat, action, actor=None if seat == 2 else 11 + seat)
        await store.save(t, conn)
    await db.close()

    db = await Database.open(tmp_path / "t.db")  # a fresh connection: nothing comes from memory
    store = TableStore(db)
    (back,) = await store.load_open()
    assert back.log == log and await store.load_log(t.id) == log
    for name in ("id", "guild_id", "channel_id", "game_id", "host_id", "options", "seed", "status", "turn_timeout"):
        assert getattr(back, name) == getattr(t, name), name
    assert back.seats == t.seats and back.messages == t.messages and back.stop_votes == {11}
    assert (back.deadline, back.reminded) == (1_700_000_060.25, True)
    assert back.game is None  # the store never stores or builds the game: the service replays the log

    await store.set_timer(t.id, None, False)
    await store.set_timeout(t.id, 120, 1_700_000_999.0)
    await store.set_messages(t.id, {"table": 556})
    (back,) = await store.load_open()
    assert (back.turn_timeout, back.deadline, back.reminded, back.messages) == (
        120,
        1_700_000_999.0,
        False,
        {"table": 556},
    )

    t.status, t.deadline = "finished", None
    await store.save(t)
    assert await store.load_open() == []  # only lobbies and running tables are loaded
    old = await store.finished_table(t.id)
    assert old is not None and old.status == "finished" and old.seats == t.seats and old.options == t.options
    assert await store.finished_table(t.id + 1) is None and await store.status(t.id + 1) is None
    await db.close()

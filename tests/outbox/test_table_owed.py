"""What a table's change owes its players beyond the results (issue #23): its notices (who left, timed out, came
back, ended the table) and the removal of turn reminders whose turn has passed are outbox rows written in the
change's own transaction, on both backends; a failed change writes none, and a reopened database still has them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.ledger import Ledger
from bot.storage.db import Database
from bot.tables.service import TableService, TableUpdate, Unping, owed_key

GUILD, CHANNEL = 1000, 2000
ALICE, BOB = 11, 12
DM_ALICE = 4400


@pytest.fixture(autouse=True)
def _both_backends(backend: str) -> str:
    return backend


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def _inline(fn: Any, *args: Any) -> Any:
    return fn(*args)


async def _service(path: Path) -> tuple[TableService, list[TableUpdate]]:
    db = await Database.open(path)
    svc = TableService(db, Ledger(db), clock=Clock(), agent_runner=_inline)
    updates: list[TableUpdate] = []

    async def listen(u: TableUpdate) -> None:
        updates.append(u)

    svc.listeners.append(listen)
    return svc, updates


async def _running(svc: TableService) -> int:
    t = await svc.create(
        guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=ALICE, host_name="Alice",
        options={"rounds": [1, 2], "stake_per_point": 1}, seed=5,
    )  # fmt: skip
    await svc.join(t.id, BOB, "Bob")
    await svc.add_computer(t.id, ALICE)
    await svc.start(t.id, ALICE)
    await svc.idle()
    return t.id


async def _rows(db: Database, kind: str) -> list[tuple[str, str, dict[str, Any]]]:
    from bot.outbox import OutboxStore

    return [(r.key, r.state, r.payload) for r in await OutboxStore(db).pending(kinds=[kind])]


async def test_a_notice_is_owed_with_its_change_and_survives_a_reopen(tmp_path: Path) -> None:
    svc, updates = await _service(tmp_path / "t.db")
    tid = await _running(svc)
    await svc.leave(tid, BOB)
    (update,) = [u for u in updates if u.notices]
    (notice,) = update.notices
    # the update names the row the cog marks sent once the post landed
    assert notice.key is not None and notice.key.startswith(owed_key(tid, "note"))
    rows = await _rows(svc.db, "note")
    assert rows == [
        (notice.key, "pending", {"msgid": notice.msgid, "params": {"name": "Bob"}}),
    ]
    await svc.reclaim(tid, BOB)  # "Bob is back": a second row, after the first
    await svc.end(tid, ALICE)  # "The host ended the session."
    await svc.db.close()

    svc, _ = await _service(tmp_path / "t.db")
    try:
        texts = [p["msgid"] for _k, _s, p in await _rows(svc.db, "note")]
        assert texts == [
            "{name} left; the computer plays their seat.",
            "{name} is back.",
            "The host ended the session.",
        ]
        # and the end owes the rest of what a closed table shows, in the same transaction
        assert [k for k, _s, _p in await _rows(svc.db, "over")] == [owed_key(tid, "over")]
        assert [k for k, _s, _p in await _rows(svc.db, "render")] == [owed_key(tid, "render")]
    finally:
        await svc.db.close()


async def test_a_change_that_fails_owes_nothing(tmp_path: Path) -> None:
    svc, _ = await _service(tmp_path / "t.db")
    try:
        tid = await _running(svc)

        async def broken(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("disk full")

        svc.store.save = broken  # type: ignore[method-assign]
        with pytest.raises(RuntimeError):
            await svc.leave(tid, BOB)
        assert await _rows(svc.db, "note") == []
    finally:
        await svc.db.close()


async def test_a_reminder_is_owed_its_removal_when_its_turn_passes(tmp_path: Path) -> None:
    svc, updates = await _service(tmp_path / "t.db")
    tid = await _running(svc)
    t = svc.get(tid)
    assert t.game is not None
    seat = next(s for s in t.game.to_move() if not t.seats[s].computer_plays)
    user = t.seats[seat].user_id
    assert user is not None
    t.messages[f"dmch:{seat}"] = DM_ALICE
    # the reminder went out while it was still the seat's turn: kept with the table, nothing owed yet
    assert await svc.reminder_sent(t, seat, 777, t.version) == []
    assert t.messages[f"ping:{seat}"] == 777 and await _rows(svc.db, "unping") == []
    updates.clear()
    await svc.act(tid, user, t.game.legal_actions(seat)[0], t.version)
    # the action owes its removal: in the update, in the outbox, and gone from the table's saved messages
    key = owed_key(tid, "unping", 777)
    assert updates[0].unpings == [Unping(key, seat, DM_ALICE, 777)]
    assert await _rows(svc.db, "unping") == [(key, "pending", {"seat": seat, "message": 777})]
    assert f"ping:{seat}" not in t.messages
    (stored,) = await svc.store.load_open()
    assert f"ping:{seat}" not in stored.messages
    # a reminder that lands after its turn passed is owed its removal at once
    late = await svc.reminder_sent(t, seat, 778, t.version - 1)
    assert late == [Unping(owed_key(tid, "unping", 778), seat, DM_ALICE, 778)]
    assert f"ping:{seat}" not in t.messages
    await svc.db.close()


async def test_closing_a_table_owes_the_removal_of_every_reminder(tmp_path: Path) -> None:
    svc, updates = await _service(tmp_path / "t.db")
    try:
        tid = await _running(svc)
        t = svc.get(tid)
        assert t.game is not None
        seat = next(s for s in t.game.to_move() if not t.seats[s].computer_plays)
        t.messages[f"dmch:{seat}"] = DM_ALICE
        await svc.reminder_sent(t, seat, 900, t.version)
        updates.clear()
        await svc.cancel(tid, ALICE)
        assert [u.message_id for u in updates[-1].unpings] == [900]
        assert [k for k, _s, _p in await _rows(svc.db, "unping")] == [owed_key(tid, "unping", 900)]
        notes = await _rows(svc.db, "note")
        assert [p["msgid"] for _k, _s, p in notes] == ["The table was cancelled."]
    finally:
        await svc.db.close()

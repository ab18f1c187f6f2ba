"""The table service: lobby rules, play, computer players, timers, persistence and exactly-once settlement."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.ledger import Ledger
from bot.storage.db import Database
from bot.tables.service import StaleAction, TableError, TableService, TableUpdate

GUILD, CHANNEL = 1000, 2000
ALICE, BOB, CAROL = 11, 12, 13


async def _inline(fn: Any, *args: Any) -> Any:
    # Computer moves computed inline keep the tests deterministic and thread-free.
    return fn(*args)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def make_service(path: str | Path = ":memory:", clock: FakeClock | None = None) -> TableService:
    db = await Database.open(path)
    return TableService(db, Ledger(db), clock=clock or FakeClock(), agent_runner=_inline)


async def settle_all(svc: TableService) -> None:
    await svc.idle()


async def play_humans(svc: TableService, table_id: int, rng: random.Random, max_steps: int = 5000) -> None:
    """Humans pick random legal actions until the table stops running."""
    for _ in range(max_steps):
        await svc.idle()
        t = svc.tables.get(table_id)
        if t is None or t.status != "running" or t.game is None:
            return
        movers = [s for s in t.game.to_move() if not t.seats[s].computer_plays]
        if not movers:
            continue
        seat = movers[0]
        action = rng.choice(t.game.legal_actions(seat))
        user = t.seats[seat].user_id
        assert user is not None
        await svc.act(table_id, user, action, t.version)
    raise AssertionError("game did not finish")


async def test_lobby_rules() -> None:
    svc = await make_service()
    t = await svc.create(guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=ALICE, host_name="Alice")
    with pytest.raises(TableError, match="already a table"):
        await svc.create(guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=BOB, host_name="Bob")
    with pytest.raises(TableError, match="already seated"):
        await svc.join(t.id, ALICE, "Alice")
    with pytest.raises(TableError, match="needs 3 to 6"):
        await svc.start(t.id, ALICE)
    await svc.join(t.id, BOB, "Bob")
    with pytest.raises(TableError, match="Only the host"):
        await svc.add_computer(t.id, BOB)
    with pytest.raises(TableError, match="Only the host"):
        await svc.start(t.id, BOB)
    for _ in range(4):
        await svc.add_computer(t.id, ALICE)
    with pytest.raises(TableError, match="full"):
        await svc.join(t.id, CAROL, "Carol")
    await svc.remove_computer(t.id, ALICE)
    await svc.join(t.id, CAROL, "Carol")
    assert [s.name for s in t.seats][:2] == ["Alice", "Bob"] and len(t.seats) == 6
    # the host leaving the lobby hands the table to the next human
    await svc.leave(t.id, ALICE)
    assert t.host_id == BOB
    await svc.db.close()


async def test_invalid_options_are_refused_at_create() -> None:
    svc = await make_service()
    with pytest.raises(TableError):
        await svc.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            game_id="wizard",
            host_id=ALICE,
            host_name="Alice",
            options={"bid_restriction": True, "bid_mode": "secret"},
        )
    with pytest.raises(TableError, match="turn timer"):
        await svc.create(
            guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=ALICE, host_name="Alice", turn_timeout=1
        )
    await svc.db.close()


async def _start_table(svc: TableService, seed: int, options: dict[str, Any] | None = None) -> int:
    t = await svc.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game_id="wizard",
        host_id=ALICE,
        host_name="Alice",
        options=options or {"rounds": [1, 2, 3], "stake_per_point": 1},
        seed=seed,
    )
    await svc.join(t.id, BOB, "Bob")
    await svc.add_computer(t.id, ALICE)
    await svc.start(t.id, ALICE)
    return t.id


async def test_full_game_books_one_zero_sum_settlement() -> None:
    svc = await make_service()
    updates: list[TableUpdate] = []

    async def listen(u: TableUpdate) -> None:
        updates.append(u)

    svc.listeners.append(listen)
    tid = await _start_table(svc, seed=5)
    await play_humans(svc, tid, random.Random(1))
    finished = [u for u in updates if u.kind == "finished"]
    assert len(finished) == 1
    game = finished[0].table.game
    assert game is not None and game.is_over
    rows = await svc.db.fetchall("SELECT user_id, currency, amount FROM entries ORDER BY id")
    stakes = [r[2] for r in rows if r[1] == "stake"]
    points = [r[2] for r in rows if r[1] == "point"]
    assert len(stakes) == 3 and sum(stakes) == 0
    assert points == list(game.result().totals)  # type: ignore[union-attr]
    assert sorted({r[0] for r in rows}) == [0, ALICE, BOB]  # computer booked as user 0
    await svc.db.close()


async def test_turn_order_stale_and_double_clicks() -> None:
    svc = await make_service()
    tid = await _start_table(svc, seed=9)
    await svc.idle()
    t = svc.get(tid)
    assert t.game is not None
    mover = next(s for s in t.game.to_move() if not t.seats[s].computer_plays)
    other = ALICE if t.seats[mover].user_id == BOB else BOB
    action = t.game.legal_actions(mover)[0]
    with pytest.raises(TableError, match="not your turn"):
        await svc.act(tid, other, t.game.legal_actions(mover)[0], t.version)
    with pytest.raises(TableError, match="not playing"):
        await svc.act(tid, 999, action, t.version)
    v = t.version
    user = t.seats[mover].user_id
    assert user is not None
    await svc.act(tid, user, action, v)
    with pytest.raises(StaleAction):
        await svc.act(tid, user, action, v)  # the same click twice
    await svc.db.close()


async def test_timeout_hands_seat_to_computer_and_reclaim() -> None:
    clock = FakeClock()
    svc = await make_service(clock=clock)
    tid = await _start_table(svc, seed=3)
    await svc.idle()
    t = svc.get(tid)
    assert t.deadline is not None
    assert await svc.tick(clock.now + t.turn_timeout - 1) == []  # not yet
    waiting = [s for s in t.game.to_move() if not t.seats[s].computer_plays]  # type: ignore[union-attr]
    assert await svc.tick(clock.now + t.turn_timeout + 1) == [tid]
    assert all(t.seats[s].away for s in waiting)
    await svc.idle()
    assert t.version > 0  # the computer acted for the absent player
    user = t.seats[waiting[0]].user_id
    assert user is not None
    if t.status == "running":
        await svc.reclaim(tid, user)
        assert not t.seats[waiting[0]].away
        with pytest.raises(TableError, match="already yours"):
            await svc.reclaim(tid, user)
    await svc.db.close()


async def test_halfway_through_the_timer_the_humans_to_move_are_reminded_once() -> None:
    clock = FakeClock()
    svc = await make_service(clock=clock)
    updates: list[TableUpdate] = []

    async def listen(u: TableUpdate) -> None:
        updates.append(u)

    svc.listeners.append(listen)
    tid = await _start_table(svc, seed=3)
    await svc.idle()
    t = svc.get(tid)
    assert t.deadline is not None and t.game is not None
    waiting = [s for s in t.game.to_move() if not t.seats[s].computer_plays]
    assert waiting

    def reminders() -> list[TableUpdate]:
        return [u for u in updates if u.kind == "reminder"]

    start = t.deadline - t.turn_timeout
    assert await svc.tick(start + t.turn_timeout * 0.4) == []
    assert reminders() == []  # too early
    await svc.tick(start + t.turn_timeout * 0.6)
    (r,) = reminders()
    assert r.remind == waiting and r.seconds_left == round(t.turn_timeout * 0.4)
    await svc.tick(start + t.turn_timeout * 0.7)
    assert len(reminders()) == 1  # once per turn
    # the player acts: the next human turn gets its own reminder
    seat = waiting[0]
    user = t.seats[seat].user_id
    assert user is not None
    await svc.act(tid, user, t.game.legal_actions(seat)[0], t.version)
    await svc.idle()
    assert t.status == "running" and t.deadline is not None  # another human's turn (a bid or a card)
    await svc.tick(t.deadline - t.turn_timeout / 4)
    humans = [s for s in t.game.to_move() if not t.seats[s].computer_plays]
    assert len(reminders()) == 2 and reminders()[-1].remind == humans
    await svc.db.close()


async def test_restart_resumes_and_matches_uninterrupted_run(tmp_path: Path) -> None:
    """Stop the service mid-game, load a new one from the same file, finish: same ledger as one run."""

    async def ledger_rows(svc: TableService) -> list[tuple[Any, ...]]:
        rows = await svc.db.fetchall("SELECT user_id, currency, amount, seat FROM entries ORDER BY id")
        return [tuple(r) for r in rows]

    # uninterrupted
    one = await make_service(tmp_path / "one.db")
    tid = await _start_table(one, seed=42)
    await play_humans(one, tid, random.Random(7))
    expected = await ledger_rows(one)
    await one.db.close()

    # interrupted after some actions
    path = tmp_path / "two.db"
    two = await make_service(path)
    tid2 = await _start_table(two, seed=42)
    rng = random.Random(7)
    for _ in range(6):
        await two.idle()
        t = two.get(tid2)
        assert t.game is not None
        seat = next(s for s in t.game.to_move() if not t.seats[s].computer_plays)
        await two.act(tid2, t.seats[seat].user_id or 0, rng.choice(t.game.legal_actions(seat)), t.version)
    await two.idle()
    before = two.get(tid2)
    view_before = before.game.public_view()  # type: ignore[union-attr]
    await two.db.close()

    three = await make_service(path)
    restored = await three.load()
    assert [t.id for t in restored] == [tid2]
    t3 = three.get(tid2)
    assert t3.game is not None and t3.game.public_view() == view_before
    await play_humans(three, tid2, rng)
    assert await ledger_rows(three) == expected
    # loading again books nothing twice
    n = len(await ledger_rows(three))
    await three.db.close()
    four = await make_service(path)
    await four.load()
    assert len(await ledger_rows(four)) == n
    await four.db.close()


async def test_cancel_and_end() -> None:
    svc = await make_service()
    t = await svc.create(guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=ALICE, host_name="Alice")
    with pytest.raises(TableError, match="Only the host"):
        await svc.cancel(t.id, BOB)
    await svc.cancel(t.id, BOB, is_admin=True)
    assert t.status == "cancelled" and svc.in_channel(CHANNEL) is None
    tid = await _start_table(svc, seed=1)
    await svc.end(tid, ALICE)
    rows = await svc.db.fetchall("SELECT COUNT(*) FROM entries")
    assert rows[0][0] == 0  # an unfinished game is not settled
    await svc.db.close()


async def test_vote_to_stop_ends_an_open_session_after_the_hand() -> None:
    svc = await make_service()
    t = await svc.create(
        guild_id=GUILD, channel_id=CHANNEL, game_id="mediatore", host_id=ALICE, host_name="Alice", seed=4
    )
    await svc.join(t.id, BOB, "Bob")
    await svc.add_computer(t.id, ALICE)
    await svc.add_computer(t.id, ALICE)
    await svc.start(t.id, ALICE)
    with pytest.raises(TableError, match="Only players"):
        await svc.vote_stop(t.id, CAROL)
    assert await svc.vote_stop(t.id, ALICE) == (1, 2)
    with pytest.raises(TableError, match="already voted"):
        await svc.vote_stop(t.id, ALICE)
    assert not t.stop_after_hand
    assert await svc.vote_stop(t.id, BOB) == (2, 2)
    assert t.stop_after_hand
    await play_humans(svc, t.id, random.Random(3))
    assert t.status == "finished" and t.game is not None
    assert len(t.game.settlements()) == 1  # exactly the hand in progress was played and settled
    rows = await svc.db.fetchall("SELECT SUM(amount) FROM entries WHERE currency = 'stake'")
    assert rows[0][0] == 0
    await svc.db.close()


async def test_two_quick_creates_in_one_channel_open_one_table() -> None:
    """The "one table per channel" check and the insert are one step per channel: a double click on **Play again**
    (or two hosts at once) cannot open two tables."""
    svc = await make_service()
    results = await asyncio.gather(
        *(
            svc.create(guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=h, host_name=str(h))
            for h in (ALICE, BOB)
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(r, TableError) for r in results) == 1
    assert len([t for t in svc.tables.values() if t.channel_id == CHANNEL]) == 1
    await svc.db.close()

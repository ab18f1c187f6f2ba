"""Turn timers as data: stored wall-clock deadlines, one scheduler task, and the time a turn had left kept across
a restart. A fake clock and a fake wait stand in for time: nothing here sleeps or measures real seconds."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from bot.ledger import Ledger
from bot.storage.db import Database
from bot.tables.model import Table
from bot.tables.service import REMIND_AT, TableService, TableUpdate

from .test_service import ALICE, BOB, CHANNEL, GUILD, FakeClock, _inline

TIMER = 60


class Pulse:
    """Set by every table update and every scheduler wait: a test waits for "something happened", not for time."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.updates: list[TableUpdate] = []

    async def listen(self, u: TableUpdate) -> None:
        self.updates.append(u)
        self.event.set()

    async def until(self, cond: Callable[[], object]) -> None:
        # The timeout only turns a hang into a failure; no test result depends on how long anything takes.
        async with asyncio.timeout(30):
            while not cond():
                self.event.clear()  # cond() and clear() run without an await between them: no pulse is lost
                await self.event.wait()

    def kinds(self, kind: str) -> list[TableUpdate]:
        return [u for u in self.updates if u.kind == kind]


class FakeWait:
    """The scheduler's sleep: records every timeout it is asked to wait, returns when the event is set (a deadline
    changed) or when the test calls :meth:`elapse` — then the fake clock has moved on by that timeout."""

    def __init__(self, clock: FakeClock, pulse: Pulse) -> None:
        self.clock = clock
        self.pulse = pulse
        self.timeouts: list[float | None] = []
        self._elapse = asyncio.Event()

    async def __call__(self, event: asyncio.Event, timeout: float | None) -> None:
        self.timeouts.append(timeout)
        self.pulse.event.set()
        changed = asyncio.ensure_future(event.wait())
        elapsed = asyncio.ensure_future(self._elapse.wait())
        done, pending = await asyncio.wait({changed, elapsed}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if elapsed in done:
            self._elapse.clear()
            assert timeout is not None, "time cannot run out on a wait without a timeout"
            self.clock.now += timeout

    def elapse(self) -> None:
        self._elapse.set()


async def service(
    path: str | Path, clock: FakeClock, wait: FakeWait | None = None, pulse: Pulse | None = None
) -> TableService:
    db = await Database.open(path)
    svc = TableService(db, Ledger(db), clock=clock, agent_runner=_inline)
    if wait is not None:
        svc.timer_wait = wait  # (a constructor argument in the bot's own wiring: timer_wait=)
    if pulse is not None:
        svc.listeners.append(pulse.listen)
    return svc


async def start_table(svc: TableService, seed: int = 3) -> Table:
    """Alice, Bob and a computer at Wizard, timer 60 s; returns once a human is waiting on the timer."""
    t = await svc.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game_id="wizard",
        host_id=ALICE,
        host_name="Alice",
        options={"rounds": [3, 4, 5]},
        turn_timeout=TIMER,
        seed=seed,
    )
    await svc.join(t.id, BOB, "Bob")
    await svc.add_computer(t.id, ALICE)
    await svc.start(t.id, ALICE)
    await svc.idle()
    assert t.deadline is not None
    return t


def waiting_humans(t: Table) -> list[int]:
    assert t.game is not None
    return [s for s in t.game.to_move() if not t.seats[s].computer_plays]


async def stored_timer(svc: TableService, t: Table) -> tuple[float | None, int]:
    row = await svc.db.fetchone("SELECT deadline, reminded FROM game_tables WHERE id = ?", (t.id,))
    assert row is not None
    return row[0], row[1]


async def test_the_deadline_is_a_stored_wall_clock_time_cleared_by_the_next_action() -> None:
    clock = FakeClock()
    svc = await service(":memory:", clock)
    t = await start_table(svc)
    assert t.deadline == clock.now + TIMER and await stored_timer(svc, t) == (clock.now + TIMER, 0)
    clock.now += 5
    (seat,) = waiting_humans(t)
    await svc.act(t.id, t.seats[seat].user_id or 0, t.game.legal_actions(seat)[0], t.version)  # type: ignore[union-attr]
    await svc.idle()
    if waiting_humans(t):  # the next human's turn has a full timer of its own, stored as well
        assert t.deadline == clock.now + TIMER and await stored_timer(svc, t) == (t.deadline, 0)
    # /table timer: the running turn gets the new timer from now (as before), and it is stored
    clock.now += 7
    await svc.set_timeout(t.id, 30)
    assert t.deadline == clock.now + 30 and await stored_timer(svc, t) == (clock.now + 30, 0)
    await svc.db.close()


async def test_a_restart_keeps_the_time_the_turn_had_left(tmp_path: Path) -> None:
    """Timer 60 s; 40 s pass and the bot stops; after the restart the computer takes over at the original
    deadline (20 s later), not a full timer later."""
    clock = FakeClock()
    path = tmp_path / "t.db"
    one = await service(path, clock)
    t = await start_table(one)
    deadline = t.deadline
    waiting = waiting_humans(t)
    clock.now += 40
    await one.tick()  # 40 of 60 s gone: the reminder (at half) is sent and stored
    assert t.reminded
    await one.db.close()  # the bot stops (nothing of `one` survives but the database)

    pulse = Pulse()
    two = await service(path, clock, pulse=pulse)
    (t2,) = await two.load()
    await two.idle()
    assert t2.deadline == deadline and t2.reminded  # the stored deadline stands; the driver did not re-arm it
    assert await two.tick(clock.now + 10) == []  # 50 s: a fresh 60 s timer would not fire either, so...
    assert pulse.kinds("reminder") == []  # ...and no second reminder of the same turn
    assert not any(t2.seats[s].away for s in waiting)
    assert await two.tick(clock.now + 21) == [t2.id]  # 61 s after the turn began: timed out
    assert all(t2.seats[s].away for s in waiting)
    await two.idle()
    assert t2.version > t.version  # the computer played for them
    await two.db.close()


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_at_once(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "t.db"
    one = await service(path, clock)
    t = await start_table(one)
    waiting = waiting_humans(t)
    await one.db.close()

    clock.now += TIMER + 300  # down for longer than the timer
    pulse = Pulse()
    wait = FakeWait(clock, pulse)
    two = await service(path, clock, wait, pulse)
    (t2,) = await two.load()
    two.start_timers()
    # the fake wait never lets time pass here: the scheduler finds the deadline past and ticks without waiting
    await pulse.until(lambda: all(t2.seats[s].away for s in waiting) and t2.version > t.version)  # the computer played
    await two.idle()
    await two.stop_timers()
    await two.db.close()


async def test_the_scheduler_sleeps_until_the_next_reminder_or_deadline_and_wakes_when_one_is_set() -> None:
    clock = FakeClock()
    pulse = Pulse()
    wait = FakeWait(clock, pulse)
    svc = await service(":memory:", clock, wait, pulse)
    ticks: list[float] = []
    real_tick = svc.tick

    async def counting_tick(now: float | None = None) -> list[int]:
        ticks.append(clock.now)
        return await real_tick(now)

    svc.tick = counting_tick  # type: ignore[method-assign]
    svc.start_timers()
    await pulse.until(lambda: wait.timeouts == [None])  # no table: it waits for a deadline, without a timeout
    assert ticks == []

    start = clock.now
    t = await start_table(svc)  # arming the turn's timer wakes the scheduler...
    await pulse.until(lambda: len(wait.timeouts) == 2)
    assert ticks == [start]  # ...which looks (nothing due yet) and goes back to sleep until the reminder
    assert wait.timeouts[-1] == TIMER * REMIND_AT
    waiting = waiting_humans(t)

    wait.elapse()  # half of the timer passes
    await pulse.until(lambda: len(wait.timeouts) == 3)
    (reminder,) = pulse.kinds("reminder")
    assert reminder.remind == waiting and reminder.seconds_left == TIMER * REMIND_AT
    assert wait.timeouts[-1] == TIMER * (1 - REMIND_AT)  # next: the deadline itself

    await svc.set_timeout(t.id, 20)  # a moved deadline wakes it too: the new one is sooner
    await pulse.until(lambda: len(wait.timeouts) == 4)
    assert wait.timeouts[-1] == 20  # already reminded for this turn: straight to the deadline

    wait.elapse()
    await pulse.until(lambda: pulse.kinds("seats"))
    assert clock.now == start + TIMER * REMIND_AT + 20 and ticks[-1] == clock.now
    assert all(t.seats[s].away for s in waiting) and "ran out of time" in str(pulse.kinds("seats")[0].notices[0])
    await svc.idle()
    await svc.stop_timers()
    assert svc._timer_task is None
    await svc.db.close()


async def test_forced_action_is_the_single_card_play_only() -> None:
    """One card each (hand size 1): after the bids, each seat's only legal action is its card, which is played for
    it at once; a bid with several choices is never forced."""
    svc = await service(":memory:", FakeClock())
    svc.auto_forced = False  # look at the rule without the driver playing it
    t = await svc.create(
        guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=ALICE, host_name="Alice", options={"rounds": [1]}
    )
    await svc.join(t.id, BOB, "Bob")
    await svc.add_computer(t.id, ALICE)
    await svc.start(t.id, ALICE)
    await svc.idle()
    assert t.game is not None
    rng = random.Random(1)
    while True:
        humans = waiting_humans(t)
        if not humans:
            await svc.idle()
            continue
        seat = humans[0]
        legal = t.game.legal_actions(seat)
        if legal[0].get("type") == "play":
            break
        assert svc.forced_action(t, seat) is None and len(legal) > 1
        await svc.act(t.id, t.seats[seat].user_id or 0, rng.choice(legal), t.version)
        await svc.idle()
    assert svc.forced_action(t, seat) is None  # auto_forced off: nothing is played for anyone
    svc.auto_forced = True
    assert svc.forced_action(t, seat) == legal[0] and len(legal) == 1
    svc._kick(t)
    await svc.idle()
    assert t.status == "finished"  # every remaining card was forced: the driver played them all
    await svc.db.close()


async def test_table_status_reads_the_store() -> None:
    svc = await service(":memory:", FakeClock())
    t = await start_table(svc)
    assert await svc.table_status(t.id) == "running"
    await svc.end(t.id, ALICE)
    assert t.id not in svc.tables and await svc.table_status(t.id) == "finished"
    assert await svc.table_status(t.id + 99) is None
    await svc.db.close()

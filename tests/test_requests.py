"""The request scheduler (bot/transport/requests.py) and the Outbox's edit spacing, on a fake clock: no real sleeps."""

from __future__ import annotations

import asyncio
import heapq
import itertools

from bot.transport import requests
from bot.transport.requests import RequestScheduler
from cogs._outbox import Outbox


class Clock:
    """A fake clock: ``sleep`` parks the caller until :meth:`run` moves time past its wake-up."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, delay: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(delay, 0.0), next(self._seq), future))
        await future

    async def settle(self) -> None:
        for _ in range(50):  # let every ready task run up to its next sleep (yields, not timing)
            await asyncio.sleep(0)

    async def run(self, until: float | None = None) -> None:
        """Advance time sleeper by sleeper until nothing sleeps any more (or ``until``)."""
        await self.settle()
        while self._sleepers and (until is None or self._sleepers[0][0] <= until):
            at, _, future = heapq.heappop(self._sleepers)
            self.now = max(self.now, at)
            if not future.done():  # (a sleeper cancelled meanwhile)
                future.set_result(None)
            await self.settle()
        if until is not None:
            self.now = max(self.now, until)


async def _granted(
    scheduler: RequestScheduler, clock: Clock, route: str, log: list[tuple[float, str]], tag: str, major: str = ""
) -> None:
    await scheduler.acquire(route, major)
    log.append((clock.now, tag))
    scheduler.release()  # answered at once


async def test_global_limit_is_never_exceeded_in_any_window() -> None:
    clock = Clock()
    scheduler = RequestScheduler(global_limit=50, per=1.0, margin=0.1, clock=clock, sleep=clock.sleep)
    scheduler._hashes["GET /x"] = ""  # a route without a bucket of its own: only the global limit counts
    log: list[tuple[float, str]] = []
    tasks = [asyncio.create_task(_granted(scheduler, clock, "GET /x", log, str(i))) for i in range(120)]
    await clock.run()
    await asyncio.gather(*tasks)
    times = sorted(t for t, _ in log)
    assert len(times) == 120
    for i, t in enumerate(times):
        assert sum(1 for u in times[i:] if u < t + 1.0) <= 50


async def test_urgent_requests_pass_lazy_ones_that_asked_earlier() -> None:
    clock = Clock()
    scheduler = RequestScheduler(global_limit=2, per=1.0, margin=0.0, clock=clock, sleep=clock.sleep)
    scheduler._hashes["GET /x"] = ""
    log: list[tuple[float, str]] = []
    for i in range(2):  # the window is full
        await _granted(scheduler, clock, "GET /x", log, f"first{i}")

    async def ask(tag: str, tolerance: float) -> None:
        with requests.tolerating(tolerance):
            await _granted(scheduler, clock, "GET /x", log, tag)

    lazy = asyncio.create_task(ask("table", requests.LAZY))
    await clock.settle()
    clock.now = 0.2
    urgent = asyncio.create_task(ask("turn", requests.URGENT))
    await clock.run()
    await asyncio.gather(lazy, urgent)
    assert [tag for _, tag in log[2:]] == ["turn", "table"]  # both got the next window; the turn went first


async def test_a_bucket_emptied_by_its_headers_waits_for_its_reset() -> None:
    clock = Clock()
    scheduler = RequestScheduler(clock=clock, sleep=clock.sleep, margin=0.1)
    route, major = "PATCH /channels/{channel_id}/messages/{message_id}", "7"
    await scheduler.acquire(route, major)  # the first request on a route goes alone and learns its bucket
    headers = {
        "X-RateLimit-Bucket": "edit",
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": "5.0",
    }
    scheduler.done(route, major, 200, headers)
    log: list[tuple[float, str]] = []
    task = asyncio.create_task(_granted(scheduler, clock, route, log, "next", major))
    other = asyncio.create_task(scheduler.acquire(route, "8"))  # another channel: its own bucket, not held up
    await clock.run(until=1.0)
    assert other.done() and not task.done()
    await clock.run()
    await task
    assert log[0][0] >= 5.0


async def test_a_global_429_stops_every_request_until_retry_after() -> None:
    clock = Clock()
    scheduler = RequestScheduler(clock=clock, sleep=clock.sleep)
    scheduler._hashes["GET /x"] = ""
    scheduler.done("GET /x", "", 429, {"X-RateLimit-Global": "true", "Retry-After": "2"})
    log: list[tuple[float, str]] = []
    task = asyncio.create_task(_granted(scheduler, clock, "GET /x", log, "after"))
    await clock.run()
    await task
    assert log[0][0] >= 2.0


async def test_outbox_spaces_edits_and_always_sends_the_latest_state() -> None:
    clock = Clock()
    outbox = Outbox(1.0, clock=clock, sleep=clock.sleep)
    state = {"v": 0}
    sent: list[tuple[float, int]] = []

    async def render() -> None:
        sent.append((clock.now, state["v"]))

    for change in range(1, 7):  # six changes 0.3 s apart
        state["v"] = change
        outbox.schedule("table", render)
        await clock.run(until=clock.now + 0.3)
    await clock.run()
    await outbox.drain()
    starts = [t for t, _ in sent]
    assert all(b - a >= 1.0 for a, b in itertools.pairwise(starts)), starts
    assert sent[-1][1] == 6  # the last state went out
    assert len(sent) < 6  # the changes were merged


async def test_outbox_defer_merges_the_change_behind_and_a_change_that_may_not_wait_ends_it() -> None:
    """A change nobody waits on (``defer``) is drawn only an interval later, with what came meanwhile; a change
    not deferred (the seat's turn) ends the wait at once; nothing is dropped."""
    clock = Clock()
    outbox = Outbox(1.0, clock=clock, sleep=clock.sleep)
    state = {"v": 0}
    sent: list[tuple[float, int]] = []

    async def render() -> None:
        sent.append((clock.now, state["v"]))

    state["v"] = 1
    outbox.schedule("dm", render, defer=True)  # a new hand, not the seat's turn
    await clock.run(until=0.4)
    state["v"] = 2
    outbox.schedule("dm", render, defer=True)  # merged into the waiting edit
    await clock.run()
    await outbox.drain()
    assert sent == [(1.0, 2)]

    state["v"] = 3
    outbox.interval = 3.0
    outbox.schedule("dm", render, defer=True)
    await clock.run(until=2.5)  # the deferral runs to 4.0; the spacing of edits (3 s from 1.0) to 4.0 as well
    outbox.interval = 1.0  # (now the spacing allows an edit from 2.0)
    state["v"] = 4
    outbox.schedule("dm", render, tolerance=requests.URGENT)  # the seat's turn: no more waiting
    await clock.run(until=2.5)
    assert sent[1:] == [(2.5, 4)]
    await clock.run()
    await outbox.drain()
    assert len(sent) == 2  # the deferred edit was not sent again on its own

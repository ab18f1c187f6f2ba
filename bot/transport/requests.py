"""A bot-wide plan for Discord's REST rate limits: the global limit and the per-route buckets, Discord-free.

discord.py reacts to a 429 (it sleeps ``retry_after``) and paces a bucket once its headers said it is empty, but it
never plans the global limit (50 requests per second for a bot, interaction callbacks excluded) and it sends the
requests of many tables in whatever order they come. :class:`RequestScheduler` sits in front of every request:

* the **global** limit: a request occupies a slot from the moment it is granted until ``per`` + ``margin`` seconds
  after its response arrived, and at most ``limit`` slots are occupied. Discord counts a request when it arrives,
  somewhere between those two moments, so whatever the latency or a busy event loop delaying the send, no window
  of ``per`` seconds on Discord's side sees more than ``limit`` (a plain sliding window of grant times would not
  hold when sends bunch up behind a busy loop);
* each **route bucket** is learned from the ``X-RateLimit-*`` headers (``Bucket`` names it, ``Limit``,
  ``Remaining`` and ``Reset-After`` say how much is left); a request waits for its bucket before it takes a
  global slot, so a busy channel never holds up the others; a route never seen is sent one at a time until its
  headers are known;
* waiting requests take the global slots in order of a **deadline**: the time they asked plus the delay their
  kind tolerates (:data:`URGENT` for what a player waits on, :data:`LAZY` for the public table message). Nothing
  is dropped: a message edit that waits longer is merged with later changes by its caller (``cogs/_outbox.py``).

The clock and the sleep are injectable, so the tests run it on a fake clock.
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

#: seconds a request may wait behind later ones: a player's own controls go first, the table message last
URGENT = 0.0
NORMAL = 0.5
LAZY = 1.5

#: the delay tolerated by the requests sent from the current task (set by the code that sends them)
tolerance: contextvars.ContextVar[float] = contextvars.ContextVar("request_tolerance", default=NORMAL)


@contextmanager
def tolerating(delay: float) -> Iterator[None]:
    """Requests sent inside the block may wait ``delay`` seconds behind requests that asked later."""
    token = tolerance.set(delay)
    try:
        yield
    finally:
        tolerance.reset(token)


@dataclass(slots=True)
class Bucket:
    """One route bucket (a bucket hash and its major parameters), as the last response described it."""

    limit: int
    remaining: int
    reset_at: float  # clock time at which ``remaining`` goes back to ``limit``
    in_flight: int = 0


@dataclass(order=True, slots=True)
class _Waiter:
    deadline: float
    seq: int
    future: asyncio.Future[None] = field(compare=False)


class RequestScheduler:
    """Grants requests within the global and the per-route limits (see the module docstring)."""

    def __init__(
        self,
        *,
        global_limit: int = 50,
        per: float = 1.0,
        margin: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.global_limit = global_limit
        self.per = per
        self.margin = margin
        self.clock = clock
        self.sleep = sleep
        self._expiries: deque[float] = deque()  # when the slots of the answered requests free, in order
        self._in_flight = 0  # granted global slots whose response has not come yet
        self._queue: list[_Waiter] = []
        self._seq = itertools.count()
        self._pump_task: asyncio.Task[None] | None = None
        self._blocked_until = 0.0  # a global 429 (which planning should never meet) stops everything until then
        self._hashes: dict[str, str] = {}  # route key ("PATCH /channels/{channel_id}/messages/{message_id}") -> hash
        self._limits: dict[str, int] = {}  # bucket hash -> its limit (the same for every major parameter)
        self._periods: dict[str, float] = {}  # bucket hash -> its window in seconds
        self._buckets: dict[str, Bucket] = {}  # "hash:major" -> its state
        self._route_locks: dict[str, asyncio.Lock] = {}
        #: requests granted, and those that waited (for the benchmark and the logs)
        self.granted = 0
        self.delayed = 0

    # ------------------------------------------------------------------ asking
    async def acquire(self, route: str, major: str = "", *, exempt: bool = False) -> None:
        """Wait until a request on ``route`` (with its major parameters) may be sent; ``exempt``: not counted
        by the global limit (interaction callbacks). Unless exempt, call :meth:`release` once it is answered."""
        waited = await self._take_route(route, major)
        if not exempt:
            waited = await self._take_global() or waited
        self.granted += 1
        self.delayed += waited

    def release(self) -> None:
        """A granted request was answered (or failed): its global slot frees ``per`` + ``margin`` from now."""
        self._in_flight = max(0, self._in_flight - 1)
        self._expiries.append(self.clock() + self.per + self.margin)

    def done(self, route: str, major: str, status: int, headers: Mapping[str, str]) -> None:
        """What a response said about its bucket (and, for a 429, how long to wait)."""
        now = self.clock()
        self._buckets.pop(f"?{route}:{major}", None)  # a first request's probe: the route is known now
        bucket = self._bucket_of(route, major)
        if bucket is not None:
            bucket.in_flight = max(0, bucket.in_flight - 1)
        if status == 0:
            return  # no response (a connection error): nothing learnt
        name = headers.get("X-RateLimit-Bucket")
        if status == 429 and headers.get("X-RateLimit-Global", "").lower() == "true":
            self._blocked_until = max(self._blocked_until, now + _float(headers.get("Retry-After"), 1.0))
            return
        if name is None or "X-RateLimit-Remaining" not in headers:
            # no bucket of its own (only the global limit): remember that, so it is never probed again
            self._hashes.setdefault(route, "")
            return
        self._hashes[route] = name
        limit = int(_float(headers.get("X-RateLimit-Limit"), 1))
        remaining = int(_float(headers.get("X-RateLimit-Remaining"), 0))
        reset_after = _float(headers.get("X-RateLimit-Reset-After"), self.per)
        reset_at = now + reset_after + self.margin
        self._limits[name] = limit
        # the bucket's window, for the resets this side plans without a response (the longest reset seen)
        self._periods[name] = max(self._periods.get(name, 0.0), reset_after)
        key = f"{name}:{major}"
        known = self._buckets.get(key)
        in_flight = known.in_flight if known is not None else 0
        # the header counted this request only; those granted meanwhile and still in flight come off it too
        remaining = 0 if status == 429 else max(0, remaining - in_flight)
        self._buckets[key] = Bucket(limit, remaining, reset_at, in_flight)

    # ------------------------------------------------------------------ route buckets
    def _bucket_of(self, route: str, major: str) -> Bucket | None:
        name = self._hashes.get(route)
        return None if name is None else self._buckets.get(f"{name}:{major}")

    async def _take_route(self, route: str, major: str) -> bool:
        lock = self._route_locks.setdefault(f"{route}:{major}", asyncio.Lock())
        waited = False
        # one request at a time per route decides; the others queue here in arrival order
        async with lock:
            while True:
                now = self.clock()
                name = self._hashes.get(route)
                if name == "":
                    return waited  # a route without a bucket of its own
                if name is None:
                    # never seen: one request at a time, until a response names its bucket (or none)
                    probe = self._buckets.get(f"?{route}:{major}")
                    if probe is None:
                        self._buckets[f"?{route}:{major}"] = Bucket(1, 0, now, 1)
                        return waited
                    waited = True
                    await self.sleep(0.05)
                    continue
                key = f"{name}:{major}"
                bucket = self._buckets.get(key)
                period = self._periods.get(name, self.per) + self.margin
                if bucket is None:
                    limit = self._limits.get(name, 1)
                    bucket = self._buckets[key] = Bucket(limit, limit, now + period)
                if bucket.reset_at <= now:
                    bucket.remaining, bucket.reset_at = bucket.limit, now + period
                if bucket.remaining > 0:
                    bucket.remaining -= 1
                    bucket.in_flight += 1
                    return waited
                waited = True
                await self.sleep(bucket.reset_at - now)

    # ------------------------------------------------------------------ the global limit
    def _free_at(self, now: float) -> float:
        """The clock time at which the next global slot frees (``now`` if one is free)."""
        while self._expiries and self._expiries[0] <= now:
            self._expiries.popleft()
        start = max(now, self._blocked_until)
        if self._in_flight + len(self._expiries) < self.global_limit:
            return start
        if not self._expiries:
            return start + self.per  # every slot in flight: look again later (a release wakes nobody)
        return max(start, self._expiries[0])

    async def _take_global(self) -> bool:
        now = self.clock()
        if not self._queue and self._free_at(now) <= now:
            self._in_flight += 1
            return False
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, _Waiter(now + tolerance.get(), next(self._seq), future))
        if self._pump_task is None or self._pump_task.done():
            self._pump_task = asyncio.create_task(self._pump(), name="request-scheduler")
        await future
        return True

    async def _pump(self) -> None:
        """Hand the global slots to the waiters, earliest deadline first, as the window frees them."""
        while self._queue:
            now = self.clock()
            free = self._free_at(now)
            if free > now:
                await self.sleep(free - now)
                continue
            waiter = heapq.heappop(self._queue)
            if waiter.future.done():  # cancelled while waiting
                continue
            self._in_flight += 1
            waiter.future.set_result(None)

    @property
    def waiting(self) -> int:
        return len(self._queue)


def _float(value: str | None, default: float) -> float:
    try:
        return float(value) if value is not None else default
    except ValueError:
        return default

"""The budgets of the two endpoints that call Discord (``/api/token``, ``/api/session``): per user and per Activity
instance, never one shared by everyone behind the same address (docs/activity-security.md).

Behind Discord's proxy every page reaches the bot from Discord's addresses (Discord hides the players' own), and
behind the operator's reverse proxy from that proxy's: a budget per network address is one budget for everybody, and
one client sending bogus codes would spend it for all. So a request is charged to what it names:

* **its Activity instance** — a *failure* budget: every attempt reserves a token, a session issued gives it back. A
  client sending bogus codes or tokens empties its own instance's budget only; people who log in succeed and spend
  nothing of it;
* **its access token** (``/api/session``): attempts, so one page cannot renew in a loop; a token that had a
  session lately is charged to nothing else, so the pages already in renew whatever others send;
* **its user**, once Discord has said who it is: attempts, so one person cannot open sessions in a loop;
* **new instances together** — a failure budget too, shared by the requests that name neither an instance nor an
  access token that has had a session lately: it bounds how often the bot asks Discord about things Discord will
  refuse (Discord blocks an application's address after too many refused requests), however many made-up instance
  ids a flood uses, while the instances and tokens already in use are never charged to it;
* **the client's address**, only where the address is the client's own (``TAVOLO_ACTIVITY_CLIENT_ADDRESS``: the
  peer itself, or a header the operator's own proxy sets; never behind Discord's proxy).

A refusal says when the next attempt may succeed (``Retry-After``, whole seconds); the page retries with backoff.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Attempt", "Bucket", "Budget", "LoginLimits", "retry_after"]


@dataclass(frozen=True, slots=True)
class Budget:
    """``burst`` attempts at once, refilled at ``rate`` a second."""

    rate: float
    burst: int


@dataclass(slots=True)
class Bucket:
    budget: Budget
    tokens: float
    at: float

    def refill(self, now: float) -> None:
        self.tokens = min(float(self.budget.burst), self.tokens + (now - self.at) * self.budget.rate)
        self.at = now

    def wait(self) -> float:
        """Seconds until one token is there (0: now)."""
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.budget.rate


#: the defaults (docs/activity-security.md): an instance may fail 30 times at once, then once every 2 s
INSTANCE = Budget(0.5, 30)
#: a page renews its session about every 10 minutes: 10 at once, then one every 30 s
TOKEN = Budget(1 / 30, 10)
#: a person: 20 sessions at once (several devices, reloads), then one every 15 s
USER = Budget(1 / 15, 20)
#: everything new together: 300 refusals at once, then 2 a second (1,500 in 10 minutes at most)
NEW = Budget(2.0, 300)
#: one address, where it is the client's own: 30 at once, then 2 a second
ADDRESS = Budget(2.0, 30)
#: how long an instance or access token that had a session counts as in use (seconds)
KNOWN_FOR = 3600.0
_MAX_KEYS = 20_000


@dataclass(slots=True)
class Attempt:
    """The tokens one request reserved before calling Discord: handed back by :meth:`LoginLimits.succeeded`."""

    reserved: list[Bucket] = field(default_factory=list)
    instance_id: str = ""
    token_key: str | None = None


class LoginLimits:
    def __init__(
        self,
        *,
        instance: Budget = INSTANCE,
        token: Budget = TOKEN,
        user: Budget = USER,
        new: Budget = NEW,
        address: Budget = ADDRESS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budgets = {"instance": instance, "token": token, "user": user, "address": address}
        self.clock = clock
        self._buckets: dict[tuple[str, str], Bucket] = {}
        self._new = Bucket(new, float(new.burst), clock())
        #: instance ids and access-token digests that had a session lately -> until when they count as known
        self._known: dict[str, float] = {}
        #: refusals, by budget (tests and the logs read them)
        self.refused: dict[str, int] = {}

    # ------------------------------------------------------------------ buckets
    def _bucket(self, kind: str, key: str, now: float) -> Bucket:
        bucket = self._buckets.get((kind, key))
        if bucket is None:
            if len(self._buckets) >= _MAX_KEYS:
                self._forget_full(now)
            budget = self.budgets[kind]
            bucket = self._buckets[(kind, key)] = Bucket(budget, float(budget.burst), now)
        bucket.refill(now)
        return bucket

    def _forget_full(self, now: float) -> None:
        """Bound the memory: a bucket back at its burst is the same as a new one, so it is dropped (and if a flood
        of keys left none full, all are: the failure budget of "new" still bounds what reaches Discord)."""
        for b in self._buckets.values():
            b.refill(now)
        self._buckets = {k: b for k, b in self._buckets.items() if b.tokens < b.budget.burst}
        if len(self._buckets) >= _MAX_KEYS:
            self._buckets.clear()

    def _is_known(self, key: str, now: float) -> bool:
        until = self._known.get(key)
        if until is None:
            return False
        if until <= now:
            del self._known[key]
            return False
        return True

    @staticmethod
    def token_key(access_token: str) -> str:
        # (a digest: the access tokens themselves are never kept)
        return "t:" + hashlib.sha256(access_token.encode()).hexdigest()[:32]

    def _take(self, named: list[tuple[str, Bucket]]) -> float:
        """Take one token of each bucket if all have one (0.0); else take none and return the seconds to wait."""
        waits = [(b.wait(), kind) for kind, b in named]
        longest, kind = max(waits, default=(0.0, ""))
        if longest > 0:
            self.refused[kind] = self.refused.get(kind, 0) + 1
            return longest
        for _, b in named:
            b.tokens -= 1
        return 0.0

    # ------------------------------------------------------------------ the checks
    def before(self, instance_id: str, *, access_token: str | None, address: str | None) -> Attempt | float:
        """The check before any call to Discord: an :class:`Attempt` (tokens reserved), or the seconds to wait."""
        now = self.clock()
        attempt = Attempt(instance_id=instance_id)
        named: list[tuple[str, Bucket]] = []
        if address is not None:
            named.append(("address", self._bucket("address", address, now)))
        known_token = False
        if access_token is not None:
            attempt.token_key = self.token_key(access_token)
            named.append(("token", self._bucket("token", attempt.token_key, now)))
            known_token = self._is_known(attempt.token_key, now)
        if not known_token:
            # (an access token that had a session is proof enough: its page renews whatever others send)
            instance = self._bucket("instance", instance_id, now)
            named.append(("instance", instance))
            attempt.reserved.append(instance)
        if not known_token and not self._is_known("i:" + instance_id, now):
            self._new.refill(now)
            named.append(("new", self._new))
            attempt.reserved.append(self._new)
        wait = self._take(named)
        return wait if wait > 0 else attempt

    def user(self, user_id: int) -> float:
        """The check once Discord said who it is: 0.0, or the seconds to wait."""
        return self._take([("user", self._bucket("user", str(user_id), self.clock()))])

    def succeeded(self, attempt: Attempt, access_token: str | None = None) -> None:
        """A session was issued: the failure budgets get their tokens back, the instance and the access token
        (``access_token``: the one a code exchange just gave) count as known."""
        now = self.clock()
        if access_token is not None:
            attempt.token_key = self.token_key(access_token)
        for b in attempt.reserved:
            b.refill(now)
            b.tokens = min(float(b.budget.burst), b.tokens + 1)
        if len(self._known) >= _MAX_KEYS:
            self._known = {k: v for k, v in self._known.items() if v > now}
            if len(self._known) >= _MAX_KEYS:
                self._known.clear()
        self._known["i:" + attempt.instance_id] = now + KNOWN_FOR
        if attempt.token_key is not None:
            self._known[attempt.token_key] = now + KNOWN_FOR


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header's value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))

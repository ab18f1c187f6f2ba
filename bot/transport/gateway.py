"""Gateway reconnects that keep the session: a brief outage must not cost the clicks sent meanwhile.

discord.py's ``AutoShardedClient`` tries RESUME once after a dropped connection; if that one connection attempt
fails (refused, 5xx, timeout) it gives the session up and IDENTIFYs afresh, after sleeping 5 s in the default
``before_identify_hook``. Discord does not replay a dead session's interactions to a new one, so every click
of those seconds is lost. A plain ``Client`` keeps trying RESUME instead; :class:`ResumingShard` gives each
shard of the sharded client that policy: connection failures retry RESUME with a short backoff for as long as
the session exists, and Discord's INVALID_SESSION (the session is really gone) still leads to a new IDENTIFY.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable

from discord.errors import ConnectionClosed
from discord.gateway import ReconnectWebSocket
from discord.shard import EventItem, EventType, Shard

log = logging.getLogger(__name__)

#: Discord accepts one IDENTIFY per 5 s (per ``max_concurrency`` bucket).
IDENTIFY_INTERVAL = 5.0
#: RESUME retries: the first after about 0.25 s, doubling up to a minute (with jitter, so that many shards or
#: processes cut off together do not come back in lockstep).
FIRST_RETRY = 0.25
MAX_RETRY = 60.0


def retry_delay(attempt: int, rng: random.Random | None = None) -> float:
    """Seconds to wait before the ``attempt``-th (1-based) consecutive reconnect."""
    ceiling = min(FIRST_RETRY * 2 ** (attempt - 1), MAX_RETRY)
    return ceiling * (rng or random).uniform(0.5, 1.0)


class ResumingShard(Shard):
    """A shard whose failed reconnects retry RESUME (see the module docstring)."""

    _attempts = 0

    def launch(self) -> None:
        # called once a connection (IDENTIFY or RESUME) succeeded: the next outage starts its backoff afresh
        self._attempts = 0
        super().launch()

    async def _handle_disconnect(self, e: Exception) -> None:
        session = getattr(self.ws, "session_id", None)
        # A close code that forbids reconnecting (bad token, invalid shard, intents) stays fatal, and without a
        # session there is nothing to resume: the library's own handling applies.
        fatal = isinstance(e, ConnectionClosed) and e.code != 1000
        if fatal or session is None or not self._reconnect or self._client.is_closed():
            await super()._handle_disconnect(e)
            return
        self._dispatch("disconnect")
        self._dispatch("shard_disconnect", self.id)
        self._attempts += 1
        delay = retry_delay(self._attempts)
        log.warning(
            "gateway connection of shard %s failed (%s); resuming session in %.2f s (attempt %d)",
            self.id,
            type(e).__name__,
            delay,
            self._attempts,
        )
        # (in short steps: a bot told to stop during an outage must not sit out a minute of backoff first)
        until = time.monotonic() + delay
        while not self._client.is_closed() and (left := until - time.monotonic()) > 0:
            await asyncio.sleep(min(left, 0.25))
        if self._client.is_closed():
            return
        self._queue_put(EventItem(EventType.resume, self, ReconnectWebSocket(self.id, resume=True)))


class IdentifyPacer:
    """Spaces this process's IDENTIFYs by :data:`IDENTIFY_INTERVAL` — and no more.

    discord.py sleeps 5 s before every IDENTIFY but a client's first, even when the last one was hours ago;
    after a session is lost that is 5 s more without clicks. Waiting only for what is left of the interval
    since the previous IDENTIFY keeps Discord's limit for the shards of one process."""

    def __init__(self, interval: float = IDENTIFY_INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.clock = clock
        self._next: float | None = None

    def reserve(self) -> float:
        """Books the next IDENTIFY slot; returns how long to wait for it (0: at once)."""
        now = self.clock()
        start = now if self._next is None else max(now, self._next)
        self._next = start + self.interval  # booked before anyone sleeps: concurrent callers queue up
        return start - now

    async def wait(self) -> None:
        delay = self.reserve()
        if delay > 0:
            await asyncio.sleep(delay)

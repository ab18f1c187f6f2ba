"""Coalesced message edits, shared by the cogs that keep a message up to date (tables, tournaments)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot import requests
from bot.i18n import SOURCE, using

log = logging.getLogger(__name__)


class Outbox:
    """Coalesced message edits: at most one edit in flight per message key, and the edits of one key spaced by
    at least ``interval`` seconds (from the start of one to the start of the next, whether or not a change came
    during the edit: Discord allows 5 edits per 5 s in a channel). The render function runs when the edit is
    sent, so it always shows the latest state and a burst of changes becomes one edit.

    A render chooses its message's language itself (``with using(locale)`` inside the callback), so it is the
    reader's language at the time of sending; renders start from English, whatever scheduled them.

    ``tolerance`` (see :mod:`bot.requests`): how long the key's requests may wait behind more urgent ones when
    the bot's request budget is short; waiting only merges more changes into the next edit. ``defer``: a change
    nobody waits on waits one interval before its edit is drawn, so that a change coming meanwhile (the seat's
    turn after a new hand) goes out in the same edit; a change not deferred ends the wait at once.
    """

    def __init__(
        self,
        interval: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.interval = interval
        self.clock = clock
        self.sleep = sleep
        self._dirty: dict[Any, tuple[Callable[[], Awaitable[None]], float]] = {}
        self._tasks: dict[Any, asyncio.Task[None]] = {}
        self._last: dict[Any, float] = {}  # key -> clock time its last edit started
        self._rendering: set[Any] = set()  # keys whose render is under way (built, maybe not yet sent)
        self._deferred: set[Any] = set()  # keys whose task still waits out a deferral (nothing drawn yet)

    def schedule(
        self,
        key: Any,
        render: Callable[[], Awaitable[None]],
        *,
        tolerance: float = requests.NORMAL,
        defer: bool = False,
    ) -> None:
        previous = self._dirty.get(key)
        # the most urgent of the merged changes decides how long the merged edit may wait
        self._dirty[key] = (render, min(tolerance, previous[1]) if previous else tolerance)
        task = self._tasks.get(key)
        if task is not None and not task.done():
            if defer or key not in self._deferred:
                return  # merged into the edit that task sends
            # a change that may not wait: the deferred task has drawn nothing yet, start over without the wait
            self._deferred.discard(key)
            task.cancel()
        self._tasks[key] = asyncio.create_task(self._run(key, defer), name=f"outbox-{key}")

    async def _run(self, key: Any, defer: bool = False) -> None:
        if defer:
            self._deferred.add(key)
            await self.sleep(self.interval)  # (cancelled by a change that may not wait: see schedule)
            self._deferred.discard(key)
        while key in self._dirty:
            last = self._last.get(key)
            if last is not None:
                wait = last + self.interval - self.clock()
                if wait > 0:
                    await self.sleep(wait)  # changes arriving now merge into the edit below
            render, tolerance = self._dirty.pop(key)
            self._last[key] = self.clock()
            self._rendering.add(key)
            try:
                # a render sets the language of its reader itself, when it runs; the task was created inside
                # whichever click scheduled it first, whose locale must not leak into another reader's message
                with requests.tolerating(tolerance), using(SOURCE):
                    await render()
            except Exception:
                log.exception("render of %s failed", key)
            finally:
                self._rendering.discard(key)
        self._tasks.pop(key, None)

    def pending(self, key: Any) -> bool:
        return key in self._dirty

    def rendering(self, key: Any) -> bool:
        """Whether a render of ``key`` is under way: what it sends was drawn when it began, and it may land after
        a newer state sent another way (the response to a click)."""
        return key in self._rendering

    async def drain(self) -> None:
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def close(self) -> None:
        """Stop sending (shutdown): pending edits are dropped, the state they showed is saved with the tables."""
        self._dirty.clear()
        self._deferred.clear()
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()

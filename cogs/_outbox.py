"""Coalesced message edits, shared by the cogs that keep a message up to date (tables, tournaments)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)


class Outbox:
    """Coalesced message edits: at most one edit in flight per message key, and at most one every
    ``interval`` seconds; the render function runs when the edit is sent, so it always shows the
    latest state and a burst of changes becomes one edit."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._dirty: dict[Any, Callable[[], Awaitable[None]]] = {}
        self._tasks: dict[Any, asyncio.Task[None]] = {}

    def schedule(self, key: Any, render: Callable[[], Awaitable[None]]) -> None:
        self._dirty[key] = render
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.create_task(self._run(key), name=f"outbox-{key}")

    async def _run(self, key: Any) -> None:
        while key in self._dirty:
            render = self._dirty.pop(key)
            try:
                await render()
            except Exception:
                log.exception("render of %s failed", key)
            if key in self._dirty:
                await asyncio.sleep(self.interval)

    async def drain(self) -> None:
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

"""Runs computer-player decisions off the event loop, in worker processes.

A search agent holds the GIL for a few hundred milliseconds per decision; in a thread that would still slow
every other table's interactions, so decisions go to a :class:`~concurrent.futures.ProcessPoolExecutor`.
The runner has the signature the table service expects (``await runner(fn, game_clone, seat, rng)``).

If the pool cannot be used (the platform cannot start processes, an argument does not pickle, a worker
died), that decision and the following ones fall back to a thread pool: slower for the other tables, but a
table never stalls. This module lives outside ``bot/ai`` because it is the asyncio bridge (the pure layer
must not import asyncio).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.engine.protocol import Action

log = logging.getLogger(__name__)


def _warm_up() -> None:
    """Import every engine and its agents once per worker, so the first decision is not slowed by imports."""
    from bot.games import registry

    try:
        registry.specs()
    except ImportError:  # a game under development must not stop the pool
        log.warning("worker could not import every game")


class AgentRunner:
    """``await runner(agent.choose, game.clone(), seat, rng)`` in a process pool (thread pool fallback)."""

    def __init__(self, workers: int = 1, *, processes: bool = True) -> None:
        self.workers = max(1, workers)
        self._threads: ThreadPoolExecutor | None = None
        self._procs: ProcessPoolExecutor | None = None
        if processes:
            try:
                # "spawn": forking a process that runs an event loop and other threads is unsafe
                ctx = multiprocessing.get_context("spawn")
                self._procs = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_warm_up)
            except (OSError, NotImplementedError, ValueError):
                log.warning("no process pool available: computer players run in threads")

    @property
    def uses_processes(self) -> bool:
        return self._procs is not None

    def _thread_pool(self) -> Executor:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="agent")
        return self._threads

    async def __call__(self, fn: Callable[..., Action], *args: Any) -> Action:
        loop = asyncio.get_running_loop()
        if self._procs is not None:
            try:
                return await loop.run_in_executor(self._procs, fn, *args)
            except BrokenProcessPool:
                log.exception("agent worker pool broke: falling back to threads")
                self._procs.shutdown(wait=False, cancel_futures=True)
                self._procs = None
            except (pickle.PicklingError, AttributeError, TypeError) as e:
                # an agent or argument that cannot travel to a worker: run just this one in a thread
                log.warning("agent call not picklable (%s): running it in a thread", e)
        return await loop.run_in_executor(self._thread_pool(), fn, *args)

    def shutdown(self) -> None:
        """Stop the workers (call once at bot shutdown)."""
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)
            self._procs = None
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None

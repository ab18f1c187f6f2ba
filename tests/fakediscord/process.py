"""Run the real bot (``python -m bot``) as a subprocess against a :class:`FakeDiscord`.

This is how an operator runs Tavolo, so it is what crash/restart tests should exercise: the
process gets the fake's endpoints and token through the same environment variables that
``bot/config.py`` reads, and can be stopped gracefully (SIGTERM) or killed (SIGKILL, a crash).

The child's output is drained continuously: an undrained pipe fills up and silently blocks the
bot mid-write, which looks exactly like a hung bot. Each new line also wakes ``fake.wait_for``,
so a test can wait for a log line as for any other condition.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """One run of the bot process. Create a new instance for every (re)start."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = ("-m", "bot"),
        cwd: Path | str = REPO_ROOT,
    ) -> None:
        self._fake = fake
        self._env = dict(env or {})
        self._args = list(args)
        self._cwd = Path(cwd)
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self.lines: list[str] = []

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    @property
    def returncode(self) -> int | None:
        return None if self._process is None else self._process.returncode

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    async def start(self, *, wait_ready: bool = True, timeout: float = 30.0) -> BotProcess:
        """Spawns the bot; by default waits until it has identified on the fake gateway."""
        if self._process is not None:
            raise RuntimeError("a BotProcess runs once; create a new one to restart the bot")
        gateway = self._fake.gateway
        identified_before = gateway.identify_count
        shards = self.shards()
        shards_before = {sh: gateway.identified.get(sh, 0) for sh in shards}
        env = {**os.environ, **self._fake.env(), "PYTHONUNBUFFERED": "1", **self._env}
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            *self._args,
            cwd=self._cwd,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._drain())
        if wait_ready:

            def up_or_dead() -> bool:
                if shards:  # every shard of this process identified anew and got its guilds
                    fresh = all(
                        gateway.identified.get(sh, 0) > shards_before[sh] and gateway.shard_connected(sh)
                        for sh in shards
                    )
                else:
                    fresh = gateway.identify_count > identified_before and gateway.connected
                return fresh or self.returncode is not None

            await self._fake.wait_for(up_or_dead, timeout, description="the bot process to connect")
            if self.returncode is not None:
                raise RuntimeError(f"bot exited with {self.returncode} before connecting:\n{self.output}")
        return self

    def shards(self) -> list[tuple[int, int]]:
        """The ``(shard_id, count)`` this process runs when ``TAVOLO_SHARD_COUNT`` is set (else ``[]``: whatever
        ``/gateway/bot`` recommends); ``TAVOLO_SHARD_IDS`` as ``0,2`` or ``0-3``, all shards without it."""
        count = int(self._env.get("TAVOLO_SHARD_COUNT") or 0)
        if not count:
            return []
        ids: list[int] = []
        for part in (self._env.get("TAVOLO_SHARD_IDS") or f"0-{count - 1}").split(","):
            low, _, high = part.strip().partition("-")
            ids.extend(range(int(low), int(high or low) + 1))
        return [(i, count) for i in ids]

    async def _drain(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        async for raw in self._process.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))
            self._fake.notify()
        await self._process.wait()
        self._fake.notify()

    async def stop(self, timeout: float = 10.0) -> int:
        """Graceful shutdown (SIGTERM, what systemd/docker send); SIGKILL if it hangs."""
        return await self._end(signal.SIGTERM, timeout)

    async def kill(self) -> int:
        """Abrupt death (SIGKILL): no cleanup, the gateway connection just drops."""
        return await self._end(signal.SIGKILL, 10.0)

    async def _end(self, sig: signal.Signals, timeout: float) -> int:
        process = self._process
        if process is None:
            raise RuntimeError("the bot process was never started")
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(sig)
            try:
                await asyncio.wait_for(process.wait(), timeout)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._reader is not None:
            await self._reader
        assert process.returncode is not None
        return process.returncode

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        if self._process is not None and self._process.returncode is None:
            await self.stop()

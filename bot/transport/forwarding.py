"""DM clicks across bot processes: Discord delivers every DM interaction to shard 0, but a table belongs to the
process running its guild's shard (``TAVOLO_SHARD_IDS``). The process that gets a click on a table control in a
DM and does not hold that table passes the raw interaction on over PostgreSQL ``NOTIFY``; every process listens,
and the one holding the table handles it as if its own gateway had delivered it (the answer goes through the
interaction's token, which works from any process).

Only clicks on open tables are forwarded (anything else gets the usual local answer). A forwarded interaction
whose table's process is down is lost, as a guild's events are while its shard is down.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import re
import zlib
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["CHANNEL", "InteractionForwarder"]

log = logging.getLogger(__name__)

#: The NOTIFY channel the processes of one bot share.
CHANNEL = "tavolo_forwarded_interactions"
# PostgreSQL refuses NOTIFY payloads from 8,000 bytes; interactions are compressed far below that.
_MAX_PAYLOAD = 7900
# The custom ids of table controls (cogs/tables/cog.py): ``tb:<table id>:…`` and ``ts:<table id>:…``.
_TABLE_CONTROL = re.compile(r"^t[bs]:(\d+):")
_COMPONENT, _MODAL_SUBMIT = 3, 5

Parser = Callable[[Any], None]


def encode(data: Any) -> str:
    return base64.b64encode(zlib.compress(json.dumps(data, separators=(",", ":")).encode())).decode()


def decode(payload: str) -> Any:
    return json.loads(zlib.decompress(base64.b64decode(payload)))


def table_of(data: Any) -> int | None:
    """The table a DM interaction acts on, if it is a table control (guild interactions reach their own shard)."""
    if data.get("guild_id") is not None or data.get("type") not in (_COMPONENT, _MODAL_SUBMIT):
        return None
    m = _TABLE_CONTROL.match(str((data.get("data") or {}).get("custom_id", "")))
    return int(m[1]) if m else None


class InteractionForwarder:
    """Wraps a discord.py ``INTERACTION_CREATE`` parser (see the module docstring).

    ``holds(table_id)``: whether this process holds the open table; ``status(table_id)``: the table's stored
    status; ``listen(channel, callback)`` / ``notify(channel, payload)``: the database's LISTEN/NOTIFY."""

    def __init__(
        self,
        parsers: dict[str, Any],
        *,
        holds: Callable[[int], bool],
        status: Callable[[int], Awaitable[str | None]],
        listen: Callable[[str, Callable[[str], None]], Awaitable[Callable[[], Awaitable[None]]]],
        notify: Callable[[str, str], Awaitable[None]],
    ) -> None:
        self._parsers = parsers
        self._local: Parser = parsers["INTERACTION_CREATE"]
        self._holds, self._status, self._listen, self._notify = holds, status, listen, notify
        self._tasks: set[asyncio.Task[None]] = set()
        self._stop_listening: Callable[[], Awaitable[None]] | None = None
        #: interactions passed on / taken over (for logs and tests)
        self.forwarded = 0
        self.received = 0

    async def start(self) -> None:
        self._stop_listening = await self._listen(CHANNEL, self._on_notify)
        self._parsers["INTERACTION_CREATE"] = self._parse

    async def stop(self) -> None:
        self._parsers["INTERACTION_CREATE"] = self._local
        if self._stop_listening is not None:
            await self._stop_listening()
            self._stop_listening = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _parse(self, data: Any) -> None:
        table_id = table_of(data)
        if table_id is None or self._holds(table_id):
            self._local(data)
            return
        task = asyncio.create_task(self._forward(table_id, data))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _forward(self, table_id: int, data: Any) -> None:
        try:
            if await self._status(table_id) in ("lobby", "running") and not self._holds(table_id):
                payload = encode(data)
                if len(payload) <= _MAX_PAYLOAD:
                    await self._notify(CHANNEL, payload)
                    self.forwarded += 1
                    return
                log.warning("interaction for table %s too large to forward (%d bytes)", table_id, len(payload))
        except Exception:
            log.exception("could not forward an interaction for table %s", table_id)
        self._local(data)  # a closed or unknown table, or forwarding failed: the usual answer

    def _on_notify(self, payload: str) -> None:
        try:
            data = decode(payload)
        except (ValueError, zlib.error):
            log.warning("ignoring a malformed forwarded interaction")
            return
        table_id = table_of(data)
        if table_id is not None and self._holds(table_id):
            self.received += 1
            self._local(data)

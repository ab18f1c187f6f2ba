"""Coalesced message edits, shared by the cogs that keep a message up to date (tables, tournaments), and how a
failed request is retried: Discord's 5xx (discord.py raises a 503 at once) and network errors again after a
backoff that honours ``Retry-After``; a 4xx that can never succeed (unknown message, missing access, DMs closed)
is given up, never silently. Owed posts (:mod:`bot.outbox`) are created with their nonce and ``enforce_nonce``."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.utils import _to_json

from bot.i18n import SOURCE, using
from bot.outbox import backoff
from bot.transport import requests

log = logging.getLogger(__name__)


def retry_after(err: BaseException) -> float | None:
    """Seconds Discord asked us to wait (the ``Retry-After`` header of a 5xx or 429), None if it did not say."""
    response = getattr(err, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        return float(headers.get("Retry-After"))
    except (TypeError, ValueError):
        return None


def transient(err: BaseException) -> bool:
    """Whether a failed request may succeed if sent again: a server error (5xx, 429 that discord.py gave up on)
    or the network (connection reset, timeout). A 4xx is the request's own fault and never succeeds."""
    if isinstance(err, discord.HTTPException):
        return err.status >= 500 or err.status == 429
    return isinstance(err, aiohttp.ClientError | OSError | TimeoutError)


#: Discord's code for a second answer to an interaction
ALREADY_ACKNOWLEDGED = 40060


def tolerate_lost_callback_answers() -> None:
    """Make an interaction callback whose answer was lost count as the acknowledgement it was.

    discord.py sends a callback again after a 5xx (1 s later, then 3 s …). When the first one was carried out and
    only Discord's answer got lost, the retry is refused with 40060 "already acknowledged" and discord.py raises —
    although the click *was* answered. A handler that acknowledges first (``defer``) would then stop before doing what
    the click asked (a Start that never starts). One process never answers an interaction twice (discord.py refuses
    that before sending), so a 40060 there can only be its own earlier attempt: it is taken as the success it was.
    (The response's own message is not known then; nothing in Tavolo reads it.)"""
    from discord.webhook import async_ as webhook

    adapter = webhook.AsyncWebhookAdapter
    original = adapter.create_interaction_response
    if getattr(original, "_tolerant", False):
        return

    async def create_interaction_response(self: Any, interaction_id: int, token: str, **kwargs: Any) -> dict[str, Any]:
        try:
            data: dict[str, Any] = await original(self, interaction_id, token, **kwargs)
            return data
        except discord.HTTPException as err:
            if err.code != ALREADY_ACKNOWLEDGED:
                raise
            log.info("interaction %s: its callback's answer was lost; a retry found it acknowledged", interaction_id)
            return {"interaction": {"id": str(interaction_id), "type": 3}}

    create_interaction_response._tolerant = True  # type: ignore[attr-defined]
    adapter.create_interaction_response = create_interaction_response  # type: ignore[assignment,method-assign]


async def send_owed(
    bot: Any,
    channel_id: int,
    nonce: str,
    content: str | None = None,
    *,
    file: discord.File | None = None,
    embed: discord.Embed | None = None,
    view: Any = None,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> int:
    """Create an owed message with ``nonce`` and ``enforce_nonce``: should an earlier attempt have landed although
    we never learnt it (a crash or a lost response right after), Discord answers with that message instead of
    posting a second one (within its few-minute window; our own record of sent rows covers the rest).
    discord.py's ``send`` has no ``enforce_nonce``: the payload is built by its own helper and completed."""
    mentions = allowed_mentions or discord.AllowedMentions.none()
    missing: Any = discord.utils.MISSING
    params = handle_message_parameters(
        content=content[:2000] if content is not None else missing,
        nonce=nonce,
        file=file if file is not None else missing,
        embed=embed if embed is not None else missing,
        view=view if view is not None else missing,
        allowed_mentions=mentions,
    )
    with params:
        if params.payload is not None:
            params.payload["enforce_nonce"] = True
        for part in params.multipart or ():  # with a file the payload is already serialized into the form
            if part.get("name") == "payload_json":
                part["value"] = _to_json({**json.loads(part["value"]), "enforce_nonce": True})
        data = await bot.http.send_message(channel_id, params=params)
    return int(data["id"])


class Outbox:
    """Coalesced message edits: at most one edit in flight per message key, and the edits of one key spaced by
    at least ``interval`` seconds (from the start of one to the start of the next, whether or not a change came
    during the edit: Discord allows 5 edits per 5 s in a channel). The render function runs when the edit is
    sent, so it always shows the latest state and a burst of changes becomes one edit.

    A render chooses its message's language itself (``with using(locale)`` inside the callback), so it is the
    reader's language at the time of sending; renders start from English, whatever scheduled them.

    ``tolerance`` (see :mod:`bot.transport.requests`): how long the key's requests may wait behind more urgent ones when
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
        self._failed: set[Any] = set()  # keys whose last render failed for good (a 4xx)

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
        failures = 0
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
                failures = 0
                self._failed.discard(key)
            except Exception as err:
                if not transient(err):
                    self._failed.add(key)
                    log.exception("render of %s failed for good; the next change renders it again", key)
                    continue
                failures += 1
                wait = backoff(failures, retry_after(err))
                log.warning("render of %s failed (%s); again in %.1f s", key, err, wait)
                # the same render again unless a change came meanwhile: a render draws the latest state when it
                # runs, so a retry never brings back an older one
                self._dirty.setdefault(key, (render, tolerance))
                self._last[key] = self.clock() + wait - self.interval  # the retry waits the backoff out
            finally:
                self._rendering.discard(key)
        self._tasks.pop(key, None)

    def pending(self, key: Any) -> bool:
        return key in self._dirty

    def rendering(self, key: Any) -> bool:
        """Whether a render of ``key`` is under way: what it sends was drawn when it began, and it may land after
        a newer state sent another way (the response to a click)."""
        return key in self._rendering

    def failed(self, key: Any) -> bool:
        """Whether the last render of ``key`` was refused for good (a 4xx: the message or channel is gone)."""
        return key in self._failed

    async def settle(self, keys: list[Any]) -> None:
        """Wait until none of ``keys`` has a render pending or under way (retries included)."""
        while True:
            tasks = [t for k in keys if (t := self._tasks.get(k)) is not None and not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

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

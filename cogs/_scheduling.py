"""Puts :class:`bot.transport.requests.RequestScheduler` in front of discord.py's REST requests and feeds it the
headers.

Every request of ``HTTPClient.request`` (messages, DMs, commands: all that Discord's global limit counts;
interaction callbacks and their webhooks go through discord.py's webhook adapter and are not touched) first
waits for the scheduler. The rate-limit headers of each response reach the scheduler through an aiohttp trace
hook, which runs in the requesting task, so a context variable tells it which route the response belongs to.
"""

from __future__ import annotations

import contextvars
import functools
from typing import Any

import aiohttp
from discord.http import HTTPClient, Route

from bot.transport.requests import RequestScheduler

_current: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar("request_route", default=None)


def install(http: HTTPClient, scheduler: RequestScheduler) -> None:
    """Wrap ``http.request`` (before login: the trace hook is read when the session is created)."""
    original = http.request

    @functools.wraps(original)
    async def request(route: Route, **kwargs: Any) -> Any:
        key = (route.key, route.major_parameters)
        await scheduler.acquire(*key)
        token = _current.set(key)
        answered = False
        try:
            result = await original(route, **kwargs)
            answered = True
            return result
        except Exception as exc:
            answered = getattr(exc, "status", None) is not None  # an HTTPException had a response
            raise
        finally:
            _current.reset(token)
            scheduler.release()
            if not answered:
                scheduler.done(*key, 0, {})  # frees a first request's probe

    async def on_request_end(session: aiohttp.ClientSession, ctx: Any, params: aiohttp.TraceRequestEndParams) -> None:
        key = _current.get()
        if key is not None:
            scheduler.done(*key, params.response.status, params.response.headers)

    trace = http.http_trace or aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    http.http_trace = trace
    http.request = request  # type: ignore[method-assign]

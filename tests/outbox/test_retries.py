"""The Outbox's retries on a fake clock: a 5xx or a network error is rendered again after a backoff that honours
``Retry-After``, drawing the latest state; a 4xx is given up and reported, never retried."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
from test_requests import Clock

from cogs._outbox import Outbox, retry_after, transient


class Response:
    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = "reason"
        self.headers = headers or {}


def http_error(status: int, code: int = 0, headers: dict[str, str] | None = None) -> discord.HTTPException:
    body = {"message": f"{status}", "code": code}
    if status >= 500:
        return discord.DiscordServerError(Response(status, headers), body)  # type: ignore[arg-type]
    if status == 404:
        return discord.NotFound(Response(status, headers), body)  # type: ignore[arg-type]
    if status == 403:
        return discord.Forbidden(Response(status, headers), body)  # type: ignore[arg-type]
    return discord.HTTPException(Response(status, headers), body)  # type: ignore[arg-type]


def test_which_errors_are_worth_a_retry() -> None:
    assert transient(http_error(503)) and transient(http_error(500)) and transient(http_error(429))
    assert transient(aiohttp.ClientConnectionError()) and transient(TimeoutError()) and transient(OSError())
    assert not transient(http_error(404, 10008))  # unknown message
    assert not transient(http_error(403, 50001))  # missing access
    assert not transient(http_error(403, 50007))  # cannot DM
    assert not transient(http_error(400, 50035))
    assert not transient(ValueError("a bug is not retried"))
    assert retry_after(http_error(503, headers={"Retry-After": "2.5"})) == 2.5
    assert retry_after(http_error(503)) is None


async def test_a_503_is_rendered_again_with_the_latest_state() -> None:
    clock = Clock()
    outbox = Outbox(1.0, clock=clock, sleep=clock.sleep)
    state = {"v": 1}
    failures = [http_error(503), http_error(503, headers={"Retry-After": "7"})]
    sent: list[tuple[float, int]] = []

    async def render() -> None:
        if failures:
            raise failures.pop(0)
        sent.append((clock.now, state["v"]))

    outbox.schedule("table", render)
    await clock.run(until=0.5)
    assert sent == [] and outbox.pending("table")  # failed at 0: to be sent again after the backoff (1 s)
    state["v"] = 2  # a change while waiting: the retry draws it
    await clock.run()
    await outbox.drain()
    # first retry at 1 s fails again; Discord asked for 7 s (more than the 2 s backoff)
    assert sent == [(8.0, 2)]
    assert not outbox.failed("table")


async def test_a_4xx_is_given_up_and_reported() -> None:
    clock = Clock()
    outbox = Outbox(1.0, clock=clock, sleep=clock.sleep)
    calls: list[float] = []

    async def render() -> None:
        calls.append(clock.now)
        raise http_error(404, 10008)

    outbox.schedule("dm", render)
    await clock.run()
    await outbox.drain()
    assert calls == [0.0] and outbox.failed("dm")

    async def works() -> None:
        calls.append(clock.now)

    outbox.schedule("dm", works)  # the next change renders it again, and clears the failure
    await clock.run()
    await outbox.drain()
    assert not outbox.failed("dm")


async def test_settle_waits_for_the_retries() -> None:
    clock = Clock()
    outbox = Outbox(1.0, clock=clock, sleep=clock.sleep)
    failures = [http_error(502), http_error(503)]
    done: list[float] = []

    async def render() -> None:
        if failures:
            raise failures.pop(0)
        done.append(clock.now)

    outbox.schedule("a", render)
    waiter = asyncio.create_task(outbox.settle(["a", "b"]))
    await clock.run()
    await waiter
    assert done == [3.0]  # 0 fails, 1 fails, 1 + 2 lands

"""The reconnect policy's pieces (bot/transport/gateway.py): IDENTIFY pacing and the RESUME backoff.

The whole policy against a gateway that drops and refuses a connection: tests/e2e/test_gateway_e2e.py."""

from __future__ import annotations

import random

from bot.transport.gateway import FIRST_RETRY, MAX_RETRY, IdentifyPacer, retry_delay


def test_identify_waits_only_for_what_is_left_of_the_interval() -> None:
    now = [100.0]
    pacer = IdentifyPacer(5.0, clock=lambda: now[0])
    assert pacer.reserve() == 0  # the first IDENTIFY of a process goes at once
    assert pacer.reserve() == 5.0  # shards identifying together are spaced by 5 s…
    assert pacer.reserve() == 10.0
    now[0] += 12.0
    assert pacer.reserve() == 3.0  # …counting from the last slot booked
    now[0] += 600.0
    assert pacer.reserve() == 0  # a session lost long after the last IDENTIFY: no wait at all


def test_resume_retries_start_fast_and_back_off_to_a_minute() -> None:
    rng = random.Random(7)
    first = [retry_delay(1, rng) for _ in range(100)]
    assert all(FIRST_RETRY / 2 <= d <= FIRST_RETRY for d in first)
    assert all(retry_delay(n, rng) <= 2 * FIRST_RETRY * 2 ** (n - 1) for n in range(1, 9))
    assert max(retry_delay(40, rng) for _ in range(100)) <= MAX_RETRY
    assert min(retry_delay(40, rng) for _ in range(100)) >= MAX_RETRY / 2

"""The standings cog's rating sync never outlives the database: unloading the cog (the bot does it before closing
the database) waits for a pass in flight and starts no new one."""

from __future__ import annotations

import asyncio
from typing import Any

from cogs.standings import StandingsCog


class SlowRatings:
    """A rating pass that finishes only when the test lets it."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.passes = 0
        self.finished = 0

    async def sync(self) -> int:
        self.passes += 1
        await self.release.wait()
        self.finished += 1
        return 0


class Bot:
    tables = None

    def add_dynamic_items(self, *items: Any) -> None:
        pass


async def test_unload_waits_for_the_sync_in_flight_and_starts_none_after() -> None:
    ratings = SlowRatings()
    cog = StandingsCog(Bot(), ledger=object(), ratings=ratings, settings=object())  # type: ignore[arg-type]
    cog.schedule_sync()
    await asyncio.sleep(0)  # the pass starts
    assert ratings.passes == 1
    cog.schedule_sync()  # a settlement during the pass: another pass would follow
    unload = asyncio.create_task(cog.cog_unload())
    await asyncio.sleep(0)
    assert not unload.done()  # still waiting for the pass in flight
    ratings.release.set()
    await unload
    assert ratings.finished == 1 and ratings.passes == 1  # finished, and no pass after the unload
    cog.schedule_sync()  # e.g. a computer move settling a hand while the bot closes
    await asyncio.sleep(0)
    assert ratings.passes == 1

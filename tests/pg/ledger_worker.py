"""One writer process of tests/pg/test_concurrency.py: books settlements and adjustments while folding ratings,
prints a summary."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.ledger import Ledger, SeatRef
from bot.ratings import Ratings
from bot.storage.db import Database

GUILDS = (1, 2, 3)


async def main(url: str, worker: int, n: int) -> None:
    db = await Database.open(url)
    ledger = Ledger(db)
    ratings = Ratings(db, ledger=ledger)
    rng = random.Random(worker)
    booked, adjusted = [], 0

    async def one(i: int) -> None:
        nonlocal adjusted
        guild = GUILDS[i % len(GUILDS)]
        if i % 5 == 4:
            await ledger.adjust(guild, 10 + i % 7, "stake", 1 + i % 3, 99, f"w{worker}")
            adjusted += 1
            return
        # Both workers use the same keys: each settlement must be booked by exactly one of them.
        users = rng.sample(range(10, 17), 4)
        stake = [rng.randint(-9, 9) for _ in range(3)]
        ok = await ledger.settle(
            key=f"hand:{i}", guild_id=guild, game="wizard", table_id=i, hand_index=0,
            seats=[SeatRef(u, f"u{u}") for u in users], amounts={"stake": [*stake, -sum(stake)]},
        )  # fmt: skip
        if ok:
            booked.append(i)

    async def rate_meanwhile(writers: asyncio.Future[Any]) -> int:
        # The other process folds ratings at the same time: the syncs must take turns, never apply a
        # settlement twice (a unique violation here) nor skip one booked with a lower id.
        rounds = 0
        while not writers.done():
            await ratings.sync()
            rounds += 1
        return rounds

    writers = asyncio.gather(*(one(i) for i in range(n)))
    synced = await rate_meanwhile(writers)
    await writers
    await ratings.sync()
    await db.close()
    print(json.dumps({"booked": booked, "adjusted": adjusted, "syncs": synced}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))

"""One process of tests/pg/test_payments_pg.py: clicks *confirm* on the same payments as the other process."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.ledger import Ledger
from bot.ledger.payments import PaymentRefusal, Payments
from bot.storage.db import Database


async def main(url: str, guild: int, confirmer: int, ids: list[int]) -> None:
    db = await Database.open(url)
    payments = Payments(Ledger(db))
    booked, refused = [], 0
    try:
        for pid in ids:
            try:
                if (await payments.confirm(pid, confirmer, guild_id=guild)).booked:
                    booked.append(pid)
            except PaymentRefusal:
                refused += 1
    finally:
        await db.close()
    print(json.dumps({"booked": booked, "refused": refused}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), [int(x) for x in sys.argv[4].split(",")]))

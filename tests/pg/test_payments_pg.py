"""Two processes confirming the same payments on one PostgreSQL ledger: each payment booked once, and never more
than the payer owes (the balance check and the booking hold one lock across processes)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from bot.ledger import Ledger, SeatRef
from bot.ledger.payments import Payments
from bot.storage.db import Database

G, MARCO, ANNA = 7, 11, 22


async def test_two_processes_confirm_the_same_payments(pg_url: str) -> None:
    db = await Database.open(pg_url)
    try:
        ledger = Ledger(db)
        seats = [SeatRef(MARCO, "Marco"), SeatRef(ANNA, "Anna")]
        await ledger.settle(key="h", guild_id=G, game="wizard", table_id=1, hand_index=0, seats=seats,
                            amounts={"stake": [-100, 100]})  # fmt: skip
        payments = Payments(ledger)
        # 30 proposals of 5 for a debt of 100: 20 may be confirmed, the last 10 must be refused
        ids = [(await payments.propose(G, MARCO, ANNA, 5)).id for _ in range(30)]
    finally:
        await db.close()
    worker = Path(__file__).with_name("payment_worker.py")
    arg = ",".join(map(str, ids))
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable, str(worker), pg_url, str(G), str(ANNA), arg, stdout=asyncio.subprocess.PIPE
        )
        for _ in range(2)
    ]
    outs = [json.loads((await p.communicate())[0]) for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    booked = [set(o["booked"]) for o in outs]
    assert not booked[0] & booked[1]
    assert len(booked[0] | booked[1]) == 20

    db = await Database.open(pg_url)
    try:
        rows = await db.fetchall("SELECT payment_id, COUNT(*), SUM(amount) FROM entries WHERE kind = 'payment'"
                                 " GROUP BY payment_id")  # fmt: skip
        assert sorted(int(r[0]) for r in rows) == sorted(booked[0] | booked[1])
        assert all((int(r[1]), int(r[2])) == (2, 0) for r in rows)
        confirmed = await db.fetchall("SELECT id FROM payments WHERE state = 'confirmed'")
        assert {int(r[0]) for r in confirmed} == booked[0] | booked[1]
        assert await Ledger(db).balances(G, "stake") == {}
        totals = await db.fetchall("SELECT user_id, SUM(total) FROM ledger_totals WHERE currency = 'stake'"
                                   " GROUP BY user_id")  # fmt: skip
        entries = await db.fetchall("SELECT user_id, SUM(amount) FROM entries WHERE currency = 'stake' AND is_bot = 0"
                                    " GROUP BY user_id")  # fmt: skip
        assert sorted(tuple(r) for r in totals) == sorted(tuple(r) for r in entries)
    finally:
        await db.close()

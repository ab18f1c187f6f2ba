"""``tavolo db copy``: a SQLite database with tables, logs, ledger, ratings, tournaments and settings moves to
PostgreSQL whole and verified; a non-empty target is refused."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.ledger import Ledger, SeatRef
from bot.ratings import Ratings
from bot.storage.db import Database
from bot.storage.dbtool import CopyError, copy_database, main
from bot.tables.service import TableService
from bot.tournaments import GuildSettings

GUILD = 1000


async def _inline(fn, *args):  # type: ignore[no-untyped-def]
    return fn(*args)


async def _fill(path: Path) -> None:
    db = await Database.open(path)
    ledger = Ledger(db)
    svc = TableService(db, ledger, agent_runner=_inline)
    for channel in (1, 2):
        t = await svc.create(guild_id=GUILD, channel_id=channel, game_id="mediatore", host_id=7, host_name="h",
                             options={"hands": 2}, seat_host=False)  # fmt: skip
        for _ in range(4):
            await svc.add_computer(t.id, 7)
        await svc.start(t.id, None)
    await svc.idle()
    rng = random.Random(1)
    for i in range(30):
        users = rng.sample(range(11, 20), 4)
        stake = [rng.randint(-5, 5) for _ in range(3)]
        await ledger.settle(key=f"x:{i}", guild_id=GUILD, game="wizard", table_id=100 + i, hand_index=0,
                            seats=[SeatRef(u, f"u{u}") for u in users],
                            amounts={"stake": [*stake, -sum(stake)]}, summary={"ranks": [1, 2, 3, 4]})  # fmt: skip
    await ledger.adjust(GUILD, 11, "stake", 5, 99, "welcome")
    await ledger.close_season(GUILD, 99)
    await Ratings(db).sync()
    await GuildSettings(db).set(GUILD, 99, organiser_role_id=5)
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO tournaments (guild_id, channel_id, host_id, game, rounds, hands_per_round, seed, status)"
            " VALUES (?, 3, 7, 'wizard', 2, 1, 9, 'signup')",
            (GUILD,),
        )
    await svc.stop_timers()
    await db.close()


async def test_copy_sqlite_to_postgres_then_refuse_a_second_time(tmp_path: Path, pg_url: str) -> None:
    src = tmp_path / "tavolo.db"
    await _fill(src)
    copied = await copy_database(str(src), pg_url, log=lambda _: None)
    for table in ("game_tables", "table_actions", "seasons", "settlements", "entries", "ledger_totals", "ratings",
                  "rating_applied", "tournaments", "guild_settings", "bot_meta", "tournament_players"):  # fmt: skip
        assert table in copied
    assert copied["table_actions"] > 0 and copied["entries"] > 100 and copied["ratings"] > 0

    a, b = await Database.open(src), await Database.open(pg_url)
    try:
        la, lb = Ledger(a), Ledger(b)
        for user in range(11, 20):
            assert await la.balance(GUILD, user, season="all") == await lb.balance(GUILD, user, season="all")
        assert await la.leaderboard(GUILD, season="all") == await lb.leaderboard(GUILD, season="all")
        assert await la.history(GUILD, 11) == await lb.history(GUILD, 11)
        # the copy goes on where the source stopped: new ids after the copied ones
        t = await TableService(b, lb, agent_runner=_inline).create(
            guild_id=GUILD, channel_id=9, game_id="wizard", host_id=7, host_name="h", options={}, seat_host=True
        )
        row = await a.fetchone("SELECT MAX(id) FROM game_tables")
        assert row is not None and t.id == row[0] + 1
    finally:
        await a.close()
        await b.close()

    with pytest.raises(CopyError, match="not empty"):
        await copy_database(str(src), pg_url, log=lambda _: None)


def test_the_command_line(tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "tavolo.db"
    asyncio.run(_fill(src))
    assert main(["db", "copy", "--from", str(src), "--to", pg_url]) == 0
    assert "counts and balances verified" in capsys.readouterr().out
    assert main(["db", "copy", "--from", str(src), "--to", pg_url]) == 2  # refuses: the target is not empty
    assert "not empty" in capsys.readouterr().err
    assert main(["db", "copy", "--from", str(tmp_path / "missing.db"), "--to", pg_url]) == 2


async def test_copy_back_to_an_empty_sqlite_file(tmp_path: Path, pg_url: str) -> None:
    src = tmp_path / "a.db"
    await _fill(src)
    await copy_database(str(src), pg_url, log=lambda _: None)
    back = tmp_path / "b.db"
    copied = await copy_database(pg_url, str(back), log=lambda _: None)
    assert copied["entries"] > 100

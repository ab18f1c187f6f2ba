"""A process running some of the bot's shards resumes only the tables and tournaments of its guilds."""

from __future__ import annotations

from pathlib import Path

from bot.ledger import Ledger
from bot.storage.db import Database
from bot.tables.service import TableService
from bot.tournaments import TournamentService

# Guild ids whose shard of 2 is 0 and 1: Discord's rule is (guild_id >> 22) % shard_count.
G0, G1 = (10 << 22) | 5, (11 << 22) | 7


async def _inline(fn, *args):  # type: ignore[no-untyped-def]
    return fn(*args)


async def test_each_process_loads_only_its_shards(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    db = await Database.open(path)
    assert db.shard_of(G0) and db.shard_of(G1)  # one process runs every shard by default
    svc = TableService(db, Ledger(db), agent_runner=_inline)
    made = {}
    for guild in (G0, G1):
        t = await svc.create(guild_id=guild, channel_id=guild + 1, game_id="wizard", host_id=7, host_name="h",
                             options={}, seat_host=True)  # fmt: skip
        made[guild] = t.id
    tour = TournamentService(db, svc)
    for guild in (G0, G1):
        await tour.create(guild_id=guild, channel_id=guild + 2, host_id=7, host_name="h", game="wizard", rounds=1)
    await db.close()

    for shard, guild in ((0, G0), (1, G1)):
        db = await Database.open(path)
        db.shards = (2, (shard,))
        assert db.shard_of(guild) and not db.shard_of(G1 if guild == G0 else G0)
        svc = TableService(db, Ledger(db), agent_runner=_inline)
        loaded = await svc.load()
        assert [t.id for t in loaded] == [made[guild]]
        restored = await TournamentService(db, svc).load()
        assert [t.guild_id for t in restored] == [guild]
        await db.close()

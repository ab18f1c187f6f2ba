"""A page that loses its socket, or a bot that restarts, comes back to the same table at the right version."""

from __future__ import annotations

import random
from pathlib import Path

from .conftest import RigFactory
from .play import play_step
from .rig import make_server, make_service
from .test_play import SEATS, seated_table, settle

GAME = next(g for g, n in SEATS.items() if n == 4 and g != "minchiate")


async def test_a_dropped_socket_resumes_at_the_right_version(make_rig: RigFactory) -> None:
    rng = random.Random("activity-reconnect")
    rig = await make_rig(4)
    pages = await rig.open_pages(rig.users)
    tid = await seated_table(rig, GAME, pages)
    dropped = pages[1]
    await dropped.drop()
    before = dropped.versions[tid]
    others = [p for i, p in enumerate(pages) if i != 1]
    t = rig.service.tables[tid]
    while t.version < before + 3 and t.status == "running":  # the others play on while it is away
        if not await play_step(rng, others, tid) and 1 in t.game.to_move():  # type: ignore[union-attr]
            break  # its turn: the others wait for it
        await settle(rig, others, tid)
    moved_on = t.version
    dropped.frames.clear()
    assert dropped.renewed is not None
    await dropped.connect(dropped.renewed)
    full = await dropped.wait(lambda: next((f for f in dropped.frames if f["t"] == "table"), None), "the full view")
    assert full["version"] == moved_on and full["view"]["seat"] == 1
    assert not any(f["t"] == "patch" for f in dropped.frames[: dropped.frames.index(full)])
    # and it plays on from there
    while t.status == "running" and t.version < moved_on + 8:
        await play_step(rng, pages, tid)
        await settle(rig, pages, tid)
    assert dropped.versions[tid] == t.version


async def test_a_bot_restart_brings_every_page_back_to_the_same_table(make_rig: RigFactory, tmp_path: Path) -> None:
    rng = random.Random("activity-restart")
    db = str(tmp_path / "tavolo.db")
    rig = await make_rig(4, db=db)
    pages = await rig.open_pages(rig.users)
    tid = await seated_table(rig, GAME, pages)
    for _ in range(6):
        await play_step(rng, pages, tid)
        await settle(rig, pages, tid)
    version = rig.service.tables[tid].version
    hands = [p.views[tid]["private"]["hand"] for p in pages]
    # the bot stops (pages see 4010 and reconnect) and starts again on the same database
    await rig.server.stop()
    codes = [await p.closed_with() for p in pages]
    assert codes == [4010] * 4
    await rig.service.idle()
    await rig.service.db.close()
    rig.service = await make_service(db)
    await rig.service.load()
    rig.server = await make_server(rig.fake, rig.service)
    for p in pages:
        p.server = rig.server
        p.frames.clear()
        await p.connect(p.renewed)
    for i, p in enumerate(pages):
        full = await p.wait(lambda p=p: next((f for f in p.frames if f["t"] == "table"), None), "the full view")
        assert full["table"] == tid and full["version"] == version and full["view"]["seat"] == i
        assert full["view"]["private"]["hand"] == hands[i]
    t = rig.service.tables[tid]
    steps = 0
    while t.status == "running":
        await play_step(rng, pages, tid)
        await settle(rig, pages, tid)
        steps += 1
        assert steps < 2000
    assert all(p.views[tid]["status"] == "finished" for p in pages)

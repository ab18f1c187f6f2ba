"""Issue 37's forged action through the real server: an older version never skips the check of what the seat is
offered, and the action log holds the engine's own objects only."""

from __future__ import annotations

import json

from .conftest import RigFactory
from .test_play import settle

#: a Wizard deal where, at version 12, the seat to move (not the one that made action 11) may play WIZ4
SEED, OPTIONS = 240, {"rounds": "1-4"}
FORGED = '{"t":"act","version":11,"action":{"type":"play","card":"WIZ4","zz_forged":"marker"}}'


async def test_the_forged_frame_at_an_older_version_is_refused(make_rig: RigFactory) -> None:
    rig = await make_rig(3)
    pages = await rig.open_pages(rig.users)
    tid = await rig.table("wizard", pages[0].user, options=OPTIONS, seed=SEED)
    for p in pages:
        await p.send({"t": "ping"})
        await p.wait(lambda p=p: tid in p.views, "the new table")
    for p in pages[1:]:
        assert (await p.lobby(tid, "join"))["t"] == "ok"
    assert (await pages[0].lobby(tid, "start"))["t"] == "ok"
    t = rig.service.tables[tid]
    assert t.game is not None
    # to version 12 from the pages, each mover's first legal action (a forced card is played for its seat)
    while True:
        await settle(rig, pages, tid)
        if t.version >= 12:
            break
        seat = t.game.to_move()[0]
        assert (await pages[seat].act(tid, t.game.legal_actions(seat)[0]))["t"] == "ok"
    mover = t.game.to_move()[0]
    assert t.version == 12 and t.log[11][0] != mover
    page = pages[mover]
    assert {"type": "play", "card": "WIZ4"} in t.game.legal_actions(mover)
    # the exact frame (with the table and a request number, as every act frame has)
    frame = json.loads(FORGED)
    reply = await page.request({**frame, "table": tid})
    assert reply["t"] == "refused" and reply["code"] in ("stale", "illegal") and reply["text"]
    assert t.version == 12
    # at the current version too
    reply = await page.request({**frame, "table": tid, "version": 12})
    assert reply["t"] == "refused" and reply["code"] == "illegal"
    # the same card without the forged key at the older version: still offered, this seat has not acted since
    assert (await page.act(tid, {"card": "WIZ4", "type": "play"}, 11))["t"] == "ok"
    assert t.log[12] == (mover, {"type": "play", "card": "WIZ4"})
    stored = await rig.service.store.load_log(tid)
    assert "zz_forged" not in json.dumps(stored) and stored[12] == t.log[12]
    # every stored action is one the engine offered (the same objects a replay applies)
    assert all(set(a) <= {"type", "card", "n", "suit"} for _, a in stored)

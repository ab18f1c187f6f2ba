"""Playing at the Activity: lobby operations, actions, what each page is sent, and every refusal."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.activity.frames import MAX_FRAME

from .conftest import Rig, RigFactory
from .play import card_ids, cards_in, hidden_from, play_step
from .rig import Page, until

OPTIONS: dict[str, dict[str, Any]] = {
    "wizard": {"rounds": "1-3", "first_round_blind": True},
    "mighty": {"hands": 1, "weak_hand_misdeal": False},
    "mediatore": {"hands": 1},
    "minchiate": {},
}
SEATS = {"wizard": 4, "mighty": 5, "mediatore": 4, "minchiate": 4}


async def settle(rig: Rig, pages: list[Page], table_id: int) -> None:
    """Wait until the service is idle and every page holds the table's current version."""
    await rig.service.idle()
    t = rig.service.tables.get(table_id)
    if t is None:
        return
    for p in pages:
        await p.wait(lambda p=p: p.versions.get(table_id) == t.version, f"version {t.version}")


async def seated_table(rig: Rig, game: str, pages: list[Page]) -> int:
    """A table opened by the first page's user, joined and started from the pages."""
    tid = await rig.table(game, pages[0].user, options=OPTIONS[game])
    for p in pages:
        await p.send({"t": "ping"})  # a new table shows up on the next ping
        await p.wait(lambda p=p: tid in p.views, "the new table")
    for p in pages[1:]:
        assert (await p.lobby(tid, "join"))["t"] == "ok"
    assert (await pages[0].lobby(tid, "start"))["t"] == "ok"
    await settle(rig, pages, tid)
    return tid


async def test_lobby_from_the_pages(make_rig: RigFactory) -> None:
    rig = await make_rig(3)
    alice, bob, carol = rig.users
    tid = await rig.table(next(g for g in OPTIONS if SEATS[g] == 5), alice, options={"hands": 1})
    pa, pb, pc = await rig.open_pages([alice, bob, carol])
    await pa.wait(lambda: tid in pa.views, "the table")
    welcome = next(f for f in pb.frames if f["t"] == "welcome")
    assert welcome["seat_of"] == {str(tid): None}
    view = pb.views[tid]
    assert view["status"] == "lobby" and view["private"] is None
    # each page is offered what its reader may do: Join to Bob (not seated), the host's controls to Alice
    assert [b["op"] for b in view["buttons"]] == ["join"]
    assert [b["op"] for b in pa.views[tid]["buttons"]] == ["leave", "bot", "unbot", "start", "cancel"]
    assert (await pb.lobby(tid, "join"))["t"] == "ok"
    await pa.wait(lambda: "player1" in json.dumps(pa.views[tid]["sections"]), "bob seated")
    await pb.wait(lambda: [b["op"] for b in pb.views[tid]["buttons"]] == ["leave"], "bob's Leave")
    # only the host adds computers or starts
    refused = await pb.lobby(tid, "bot")
    assert refused["t"] == "refused" and refused["text"]
    assert (await pa.lobby(tid, "bot", level="easy"))["t"] == "ok"
    assert (await pa.lobby(tid, "bot"))["t"] == "ok"
    assert (await pa.lobby(tid, "unbot"))["t"] == "ok"
    assert (await pa.lobby(tid, "bot"))["t"] == "ok"
    assert (await pc.lobby(tid, "join"))["t"] == "ok"
    t = rig.service.tables[tid]
    assert [s.user_id for s in t.seats] == [alice.id, bob.id, None, None, carol.id]
    assert (await pa.lobby(tid, "start"))["t"] == "ok"
    await settle(rig, [pa, pb, pc], tid)
    assert pa.views[tid]["status"] == "running" and pa.views[tid]["private"] is not None
    assert pa.views[tid]["seat"] == 0 and pc.views[tid]["seat"] == 4
    assert pa.views[tid]["private"]["hand"]["cards"] != pb.views[tid]["private"]["hand"]["cards"]
    assert rig.server.hub.seats_watching(tid) == {0, 1, 4}
    await pb.drop()
    await until(lambda: rig.server.hub.seats_watching(tid) == {0, 4}, "bob's socket gone")


async def test_bad_frames_are_refused_and_change_nothing(make_rig: RigFactory) -> None:
    rig = await make_rig(6)
    game = next(g for g in OPTIONS if SEATS[g] == 5)
    pages = await rig.open_pages(rig.users[:5])
    tid = await seated_table(rig, game, pages)
    t = rig.service.tables[tid]
    version, log = t.version, list(t.log)

    async def refused(page: Page, frame: Any, code: str) -> None:
        page.req += 1
        req = page.req
        if isinstance(frame, dict) and "req" not in frame and frame.get("t") in ("act", "lobby"):
            frame = {**frame, "req": req}
        await page.send(frame)
        reply = await page.wait(
            lambda: next((f for f in reversed(page.frames) if f["t"] == "refused" and f["code"] == code), None), code
        )
        assert reply["text"]
        page.frames.remove(reply)

    to_move = t.game.to_move()[0]  # type: ignore[union-attr]
    mover = pages[to_move]
    other = pages[(to_move + 1) % 5]
    legal = t.game.legal_actions(to_move)  # type: ignore[union-attr]
    # malformed JSON, wrong shapes, unknown keys, an oversize frame, a binary frame
    await refused(mover, "{not json", "bad_frame")
    await refused(mover, json.dumps([1, 2]), "bad_frame")
    await refused(mover, {"t": "act", "table": tid, "version": version}, "bad_frame")
    await refused(mover, {"t": "act", "table": tid, "version": version, "action": legal[0], "x": 1}, "bad_frame")
    await refused(mover, {"t": "act", "table": tid, "version": -1, "action": legal[0]}, "bad_frame")
    await refused(mover, {"t": "act", "table": tid, "version": version, "action": {"type": {"deep": 1}}}, "bad_frame")
    await refused(mover, {"t": "lobby", "table": tid, "op": "explode"}, "bad_frame")
    await refused(mover, {"t": "hello", "session": "again"}, "bad_frame")
    big = {
        "t": "act",
        "table": tid,
        "version": version,
        "action": {"type": "play", "card": "x" * 10},
        "pad": "y" * MAX_FRAME,
    }
    await refused(mover, big, "too_large")
    assert mover.ws is not None
    await mover.ws.send_bytes(b"\x01\x02")
    await mover.wait(lambda: any(f["t"] == "refused" and f["code"] == "bad_frame" for f in mover.frames), "binary")
    # a forged table id, and a table of another channel (of another guild)
    await refused(mover, {"t": "act", "table": tid + 1000, "version": version, "action": legal[0]}, "no_table")
    other_guild = rig.fake.add_guild("elsewhere")
    far = rig.fake.add_channel(other_guild, "cards")
    far_table = await rig.service.create(
        guild_id=other_guild.id, channel_id=far.id, game_id=game, host_id=rig.users[5].id, host_name="x"
    )
    await refused(mover, {"t": "lobby", "table": far_table.id, "op": "join"}, "no_table")
    assert len(far_table.seats) == 1
    # someone else's seat: another seated player sends the mover's action
    await refused(other, {"t": "act", "table": tid, "version": version, "action": legal[0]}, "not_your_turn")
    # an action that is not legal, and a stale version
    await refused(mover, {"t": "act", "table": tid, "version": version, "action": {"type": "nonsense"}}, "illegal")
    padded = {**legal[0], "extra": "x" * 60}  # a legal action with a key of its own: never reaches the log
    await refused(mover, {"t": "act", "table": tid, "version": version, "action": padded}, "illegal")
    await refused(mover, {"t": "act", "table": tid, "version": version + 5, "action": legal[0]}, "stale")
    # a spectator (not seated) acting
    spectator = (await rig.open_pages([rig.users[5]], rig.fake.activities.launch(rig.channel, rig.users[5])))[0]
    await refused(spectator, {"t": "act", "table": tid, "version": version, "action": legal[0]}, "not_seated")
    assert t.version == version and t.log == log and [s.user_id for s in t.seats] == [u.id for u in rig.users[:5]]
    # and the legal action at the right version still goes through
    assert (await mover.act(tid, legal[0], version))["t"] == "ok"
    assert t.version > version


async def test_rate_limit_refuses_a_flood(make_rig: RigFactory) -> None:
    rig = await make_rig(1, rate=1.0, burst=5)
    (page,) = await rig.open_pages(rig.users[:1])
    for _ in range(12):
        await page.send({"t": "ping"})
    await page.wait(lambda: sum(f["t"] in ("pong", "refused") for f in page.frames) == 12, "12 replies")
    assert 5 <= sum(f["t"] == "pong" for f in page.frames) <= 7
    assert any(f["t"] == "refused" and f["code"] == "rate_limited" for f in page.frames)


@pytest.mark.parametrize("game", list(OPTIONS))
async def test_privacy_over_random_games(make_rig: RigFactory, game: str) -> None:
    """No frame to a seat's page holds another seat's hidden cards; a spectator gets the public view only."""
    rng = random.Random(f"activity-privacy-{game}")
    n = SEATS[game]
    rig = await make_rig(n + 1)
    pages = await rig.open_pages(rig.users[: n + 1])
    players, spectator = pages[:n], pages[n]
    tid = await seated_table(rig, game, players)
    ids = card_ids(game)
    checked = {id(p): 0 for p in pages}
    steps = 0
    while True:
        await settle(rig, pages, tid)
        t = rig.service.tables.get(tid)
        if t is None or t.status != "running":
            break
        for seat, p in enumerate([*players, spectator]):
            s = seat if seat < n else None
            hidden = hidden_from(rig.service, tid, s)
            for frame in p.frames[checked[id(p)] :]:
                leaked = cards_in(frame, ids) & hidden
                assert not leaked, f"{game}: {sorted(leaked)} of another seat in a frame to seat {s}: {frame['t']}"
                if s is None and frame["t"] in ("table", "patch"):
                    assert (frame.get("view") or frame.get("set") or {}).get("private") is None
            checked[id(p)] = len(p.frames)
        if not await play_step(rng, players, tid):
            continue
        steps += 1
        assert steps < 3000
    assert steps > 10
    assert spectator.views[tid]["private"] is None and spectator.views[tid]["seat"] is None
    assert players[0].views[tid]["status"] == "finished"


async def test_cancel_end_and_play_again_from_the_pages(make_rig: RigFactory) -> None:
    rig = await make_rig(4)
    game = next(g for g in OPTIONS if SEATS[g] == 4 and g != "minchiate")
    pages = await rig.open_pages(rig.users)
    # a lobby cancelled by its host leaves the channel: every page is told
    first = await rig.table(game, pages[0].user)
    for p in pages:
        await p.send({"t": "ping"})
        await p.wait(lambda p=p: first in p.views, "the lobby")
    refused = await pages[1].lobby(first, "cancel")
    assert refused["t"] == "refused" and rig.service.tables[first].status == "lobby"
    assert (await pages[0].lobby(first, "cancel"))["t"] == "ok"
    for p in pages:
        await p.wait(lambda p=p: any(f["t"] == "gone" and f["table"] == first for f in p.frames), "gone")
    # a running table ended by its host: its last view says so, and Play again opens a new lobby for every page
    tid = await seated_table(rig, game, pages)
    end = next(b for b in pages[0].views[tid]["buttons"] if b["op"] == "end")
    assert end["label"].startswith("End ") and end["style"] == "danger"
    assert (await pages[0].lobby(tid, "end"))["t"] == "ok"
    for p in pages:
        await p.wait(lambda p=p: p.views[tid]["status"] == "finished", "the end")
    assert [b["op"] for b in pages[2].views[tid]["buttons"]] == ["again"]
    assert (await pages[2].lobby(tid, "again"))["t"] == "ok"
    new = rig.service.in_channel(rig.channel.id)
    assert new is not None and new.id != tid and new.host_id == pages[2].user.id
    for p in pages:
        await p.wait(lambda p=p: new.id in p.views and p.views[new.id]["status"] == "lobby", "the new lobby")


async def test_a_failure_inside_is_told_and_the_socket_lives_on(
    make_rig: RigFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig = await make_rig(1)
    (page,) = await rig.open_pages(rig.users)
    tid = await rig.table(next(iter(OPTIONS)), page.user)
    await page.send({"t": "ping"})
    await page.wait(lambda: tid in page.views, "the lobby")

    async def broken(*args: Any, **kw: Any) -> None:
        raise RuntimeError("the database is gone")

    monkeypatch.setattr(rig.service, "add_computer", broken)
    reply = await page.lobby(tid, "bot")
    assert reply["t"] == "refused" and reply["code"] == "failed" and reply["text"]
    await page.send({"t": "ping"})
    await page.wait(lambda: page.frames[-1]["t"] == "pong", "pong")


async def test_a_new_version_reaches_the_page_even_when_its_view_is_unchanged(make_rig: RigFactory) -> None:
    """Otherwise the next patch would start from a version the page never got, and it would have to resync."""
    from bot.tables.service import TableUpdate

    rig = await make_rig(1)
    (page,) = await rig.open_pages(rig.users)
    tid = await rig.table(next(iter(OPTIONS)), page.user)
    await page.send({"t": "ping"})
    await page.wait(lambda: tid in page.views, "the lobby")
    t = rig.service.tables[tid]
    t.log.append((0, {"type": "nothing visible"}))  # a version the reader sees no change in
    await rig.server.hub.update(TableUpdate(t, "lobby"))
    frame = await page.wait(lambda: page.frames[-1] if page.frames[-1]["t"] == "patch" else None, "the patch")
    assert (frame["from"], frame["version"], frame["set"], frame["del"]) == (0, 1, {}, [])
    assert page.versions[tid] == 1

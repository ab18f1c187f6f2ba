"""The service's one gate for human actions: checked against the seat's offered actions at the state they are applied
to, whatever version is claimed, and stored in the engine's own form (issue 37: a forged key at an older version
reached the action log)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.ledger import Ledger
from bot.storage.db import Database
from bot.tables.service import StaleAction, TableError, TableService

GUILD, CHANNEL = 1000, 2000
USERS = (11, 12, 13)
#: a Wizard deal where, at version 12, the seat to move (not the one that made action 11) may play WIZ4
SEED, OPTIONS = 240, {"rounds": "1-4"}
FORGED = {"type": "play", "card": "WIZ4", "zz_forged": "marker"}


async def _inline(fn: Any, *args: Any) -> Any:
    return fn(*args)


async def _service(path: str | Path) -> TableService:
    db = await Database.open(path)
    return TableService(db, Ledger(db), agent_runner=_inline)


async def _at_version_12(svc: TableService, channel: int = CHANNEL) -> tuple[int, int]:
    """A three-human Wizard table played (each mover's first legal action) to version 12: (table id, mover)."""
    t = await svc.create(
        guild_id=GUILD,
        channel_id=channel,
        game_id="wizard",
        host_id=USERS[0],
        host_name="u0",
        options=OPTIONS,
        seed=SEED,
    )
    for i, uid in enumerate(USERS[1:], 1):
        await svc.join(t.id, uid, f"u{i}")
    await svc.start(t.id, USERS[0])
    while True:
        await svc.idle()  # (a seat whose only card is forced is played for it)
        assert t.game is not None
        if t.version >= 12:
            break
        seat = t.game.to_move()[0]
        await svc.act(t.id, USERS[seat], t.game.legal_actions(seat)[0], t.version)
    assert t.version == 12 and t.game is not None
    mover = t.game.to_move()[0]
    # the situation: the mover did not make action 11, and WIZ4 is one of its offered plays
    assert t.log[11][0] != mover and {"type": "play", "card": "WIZ4"} in t.game.legal_actions(mover)
    return t.id, mover


async def _stored(svc: TableService, table_id: int) -> list[tuple[int, dict[str, Any]]]:
    return await svc.store.load_log(table_id)


@pytest_asyncio.fixture
async def svc(tmp_path: Path) -> Any:
    service = await _service(tmp_path / "t.db")
    yield service
    await service.idle()
    await service.db.close()


async def test_a_forged_key_at_an_older_version_is_refused(svc: TableService) -> None:
    tid, mover = await _at_version_12(svc)
    t = svc.get(tid)
    log = copy.deepcopy(t.log)
    with pytest.raises(StaleAction):
        await svc.act(tid, USERS[mover], dict(FORGED), 11)
    with pytest.raises(TableError):
        await svc.act(tid, USERS[mover], dict(FORGED), 12)  # and at the current one (the service alone, no page)
    with pytest.raises(TableError):
        await svc.act(tid, USERS[mover], dict(FORGED))  # and with no version at all
    assert t.version == 12 and t.log == log
    assert "zz_forged" not in json.dumps(await _stored(svc, tid))


async def test_a_stale_but_still_offered_click_is_applied_in_the_engines_form(svc: TableService) -> None:
    tid, mover = await _at_version_12(svc)
    t = svc.get(tid)
    sent = {"card": "WIZ4", "type": "play"}
    await svc.act(tid, USERS[mover], sent, 11)  # another seat acted since; this seat did not: still fine
    assert t.version == 13
    seat, stored = t.log[12]
    assert (seat, stored) == (mover, {"type": "play", "card": "WIZ4"}) and stored is not sent
    assert (await _stored(svc, tid))[12] == (mover, {"type": "play", "card": "WIZ4"})
    # the same click again: this seat has acted since version 11
    with pytest.raises(StaleAction):
        await svc.act(tid, USERS[mover], sent, 11)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "card": "WIZ4", "zz_forged": "marker"},  # a key of its own
        {"type": "play", "card": ["WIZ4"]},  # another JSON type
        {"type": "play", "card": 4},
        {"type": "play"},
        {"type": "bid", "n": True},  # (``True == 1`` in Python: never a bid of 1)
        {"type": "PLAY", "card": "WIZ4"},
        "play WIZ4",
    ],
)
async def test_anything_not_offered_is_refused_at_every_version(svc: TableService, action: Any) -> None:
    tid, mover = await _at_version_12(svc)
    t = svc.get(tid)
    for version in (11, 12, None):
        with pytest.raises(TableError):
            await svc.act(tid, USERS[mover], copy.deepcopy(action), version)
    assert t.version == 12 and len(await _stored(svc, tid)) == 12


async def test_a_card_not_in_hand_and_another_seats_action_are_refused(svc: TableService) -> None:
    tid, mover = await _at_version_12(svc)
    t = svc.get(tid)
    assert t.game is not None
    hand = set(t.game.view(mover)["hand"])
    elsewhere = next(c for s in range(3) if s != mover for c in t.game.view(s)["hand"] if c not in hand)
    for version in (11, 12):
        with pytest.raises(TableError) as err:
            await svc.act(tid, USERS[mover], {"type": "play", "card": elsewhere}, version)
        assert "not your turn" not in str(err.value)
    # another seat sends the mover's offered action, at this version and at the older one
    other = next(s for s in range(3) if s != mover and {"type": "undo"} not in t.game.legal_actions(s))
    with pytest.raises(TableError, match="not your turn"):
        await svc.act(tid, USERS[other], {"type": "play", "card": "WIZ4"}, 12)
    with pytest.raises(StaleAction):
        await svc.act(tid, USERS[other], {"type": "play", "card": "WIZ4"}, 11)
    assert t.version == 12


async def test_a_combination_is_stored_in_the_prompts_order(svc: TableService) -> None:
    """A pick-several prompt (the cards to discard): the picks in any order, the one form in the log."""
    from bot.engine.offered import offered
    from bot.games import registry

    cls = registry.game_class("mighty")
    options = {"hands": 1, "weak_hand_misdeal": False}
    t = await svc.create(
        guild_id=GUILD, channel_id=CHANNEL, game_id="mighty", host_id=1, host_name="u1", options=options, seed=7
    )
    for uid in range(2, 6):
        await svc.join(t.id, uid, f"u{uid}")
    await svc.start(t.id, 1)
    assert t.game is not None and isinstance(t.game, cls)
    while True:
        await svc.idle()
        seat = t.game.to_move()[0]
        prompt = t.game.view(seat).get("prompt") or {}
        if prompt.get("kind") == "combo":
            break
        legal = t.game.legal_actions(seat)
        # the first seat bids, everyone else passes: the auction ends at once
        action = legal[0] if t.version == 0 else next(a for a in legal if a["type"] == "pass")
        await svc.act(t.id, seat + 1, action, t.version)
    (field,) = prompt["fields"]
    picks = list(reversed(field["from"][: field["count"]]))
    user = seat + 1
    for bad in (
        {"type": "discard", "cards": picks, "zz_forged": "marker"},
        {"type": "discard", "cards": [picks[0]] * field["count"]},
        {"type": "discard", "cards": picks[:-1]},
        {"type": "discard", "cards": ",".join(picks)},
    ):
        with pytest.raises(TableError):
            await svc.act(t.id, user, bad, t.version)
    sent = {"type": "discard", "cards": picks}
    assert offered(t.game, seat, sent) == {"type": "discard", "cards": field["from"][: field["count"]]}
    await svc.act(t.id, user, sent, t.version)
    assert t.log[-1] == (seat, {"type": "discard", "cards": field["from"][: field["count"]]})
    assert (await _stored(svc, t.id))[-1] == t.log[-1]

"""Which private messages an action edits: a card played by another seat edits my DM only when my hand or my
choices changed (cogs/tables/frontend.py, ``_seat_digest``); the table message is scheduled after every action."""

from __future__ import annotations

import random
from typing import Any

from tables.test_service import ALICE, BOB, CAROL, CHANNEL, GUILD, make_service

from bot.tables.service import TableUpdate
from cogs.tables import DiscordFrontend


class Recorder:
    """Stands in for the Outbox: records the keys scheduled."""

    def __init__(self) -> None:
        self.keys: list[tuple[Any, ...]] = []

    def schedule(self, key: tuple[Any, ...], render: Any, **_: Any) -> None:
        self.keys.append(key)


async def test_a_card_played_by_another_seat_edits_my_dm_only_when_my_choices_or_hand_change() -> None:
    svc = await make_service()
    t = await svc.create(
        guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=ALICE, host_name="alice",
        options={"rounds": "2-3"}, turn_timeout=None,
    )  # fmt: skip
    await svc.join(t.id, BOB, "bob")
    await svc.join(t.id, CAROL, "carol")
    await svc.start(t.id, ALICE)
    await svc.idle()
    cog = DiscordFrontend(None, svc)  # type: ignore[arg-type]
    outbox = Recorder()
    cog.outbox = outbox  # type: ignore[assignment]
    cog._queue_post = lambda channel_id, text: None  # type: ignore[method-assign]  # no channel here
    await cog.update(TableUpdate(t, "started"))

    def shown(seat: int) -> tuple[Any, Any, Any]:
        """What the seat's private panel must show up to date: its hand and its choices (those of its turn, and
        the ones it may make off-turn, e.g. Wizard's undo of a bid)."""
        assert t.game is not None
        view = t.game.view(seat)
        legal = t.game.legal_actions(seat) if seat in t.game.to_move() else []
        return view.get("hand"), view.get("prompt"), legal

    counts = {"other_moves": 0, "edited_without_change": 0, "untouched_with_change": 0}
    last = {s: shown(s) for s in range(3)}

    async def listener(u: TableUpdate) -> None:
        nonlocal last
        outbox.keys.clear()
        await cog.update(u)
        assert ("table", t.id) in outbox.keys
        if u.kind == "action" and t.status == "running":
            for other in range(3):
                if other == u.actor_seat:
                    continue
                counts["other_moves"] += 1
                scheduled = ("dm", t.id, other) in outbox.keys
                changed = shown(other) != last[other]
                counts["edited_without_change"] += scheduled and not changed
                counts["untouched_with_change"] += changed and not scheduled
        if t.status == "running":
            last = {s: shown(s) for s in range(3)}

    svc.listeners.append(listener)
    rng = random.Random(5)
    while t.status == "running":
        await svc.idle()
        if t.status != "running":
            break
        assert t.game is not None
        seat = t.game.to_move()[0]
        user = t.seats[seat].user_id
        assert user is not None
        await svc.act(t.id, user, rng.choice(t.game.legal_actions(seat)), t.version)
    other_moves, edited_without_change, untouched_with_change = counts.values()
    assert other_moves > 20
    assert edited_without_change == 0
    assert untouched_with_change == 0
    await svc.db.close()

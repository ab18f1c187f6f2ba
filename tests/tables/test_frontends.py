"""Front-ends of a table (bot/tables/frontends.py): the service tells each of them every change, in order, next to
its plain listeners; who sees what after an update is decided once; the terminal is one of them."""

from __future__ import annotations

import random
from collections.abc import Awaitable

from bot.records.play import TerminalFrontend, TerminalGame
from bot.tables.frontends import Frontend, TableUpdate, audience, seats_watched_elsewhere
from tables.test_service import ALICE, BOB, CHANNEL, GUILD, make_service, play_humans


class Recording:
    """A front-end that only records what it hears; ``sync``: answers without an awaitable (as the terminal does)."""

    def __init__(self, log: list[str], name: str, *, sync: bool = False, fail: bool = False) -> None:
        self.log, self.name, self.sync, self.fail = log, name, sync, fail
        self.updates: list[TableUpdate] = []

    def update(self, u: TableUpdate) -> Awaitable[None] | None:
        self.updates.append(u)
        self.log.append(f"{self.name}:{u.kind}")
        if self.fail:
            raise RuntimeError("a front-end that fails")
        if self.sync:
            return None

        async def later() -> None:
            self.log.append(f"{self.name}:done")

        return later()


async def _table_of_two(svc: object) -> int:
    t = await svc.create(  # type: ignore[attr-defined]
        guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=ALICE, host_name="Alice",
        options={"rounds": "1-2"}, turn_timeout=None,
    )  # fmt: skip
    await svc.join(t.id, BOB, "Bob")  # type: ignore[attr-defined]
    await svc.add_computer(t.id, ALICE)  # type: ignore[attr-defined]
    await svc.start(t.id, ALICE)  # type: ignore[attr-defined]
    return int(t.id)


async def test_front_ends_and_listeners_hear_every_update_in_the_order_they_were_added() -> None:
    svc = await make_service()
    log: list[str] = []

    async def listener(u: TableUpdate) -> None:
        log.append(f"listener:{u.kind}")

    first, failing, second = Recording(log, "a"), Recording(log, "x", fail=True), Recording(log, "b", sync=True)
    svc.add_frontend(first)
    svc.listeners.append(listener)
    svc.add_frontend(failing)
    svc.add_frontend(second)
    svc.add_frontend(first)  # once only
    assert svc.frontends == [first, failing, second]
    tid = await _table_of_two(svc)
    await play_humans(svc, tid, random.Random(2))
    # an awaitable a front-end returns is awaited before the next one hears of the change; a failing front-end
    # breaks neither the game nor the others
    started = log.index("a:started")
    assert log[started : started + 5] == ["a:started", "a:done", "listener:started", "x:started", "b:started"]
    assert first.updates[-1].kind == "finished" and first.updates[-1].table.status == "finished"
    assert [u.kind for u in first.updates] == [u.kind for u in second.updates] == [u.kind for u in failing.updates]
    svc.remove_frontend(first)
    assert svc.frontends == [failing, second] and first.update not in svc.listeners
    await svc.db.close()


async def test_who_sees_what_after_an_update() -> None:
    svc = await make_service()
    tid = await _table_of_two(svc)
    t = svc.tables[tid]
    humans = tuple(i for i, s in enumerate(t.seats) if s.user_id is not None)
    started = audience(TableUpdate(t, "started"))
    assert started.public and started.seats == humans and not started.only_if_changed and not started.posts
    acted = audience(TableUpdate(t, "action", actor_seat=humans[0]))
    assert acted.seats == humans and acted.only_if_changed
    reminder = audience(TableUpdate(t, "reminder", remind=[humans[1]], seconds_left=40))
    assert not reminder.public and reminder.seats == () and reminder.remind == (humans[1],)
    lobby = audience(TableUpdate(t, "lobby"))
    assert lobby.public and lobby.seats == ()  # (the game's seats are touched once it runs)
    t.game = None
    assert audience(TableUpdate(t, "finished")).posts is False  # a cancelled lobby has no game to sum up
    await svc.idle()
    await svc.db.close()


def test_the_terminal_is_a_front_end_and_shows_only_its_own_seat() -> None:
    lines: list[str] = []
    answers = iter(["1"] * 2000)
    tg = TerminalGame(
        "wizard", num_seats=3, seat=1, level="easy", seed=4, options={"rounds": "1-2"}, names=["A", "Me", "C"],
        write=lines.append, read=lambda _prompt: next(answers),
    )  # fmt: skip
    frontend: Frontend = tg.frontends[0]
    assert isinstance(frontend, TerminalFrontend)
    shown: list[int] = []
    draw = TerminalFrontend._show_turn

    def spy(self: TerminalFrontend, t: object) -> None:
        shown.append(self.seat)
        draw(self, t)  # type: ignore[arg-type]

    TerminalFrontend._show_turn = spy  # type: ignore[method-assign]
    try:
        tg.run()
    finally:
        TerminalFrontend._show_turn = draw  # type: ignore[method-assign]
    assert tg.game.is_over and shown and set(shown) == {1}
    assert any(line.startswith("Your choices:") for line in lines)
    assert tg.table.status == "finished" and tg.table.log is tg.log


def test_seats_watched_elsewhere_asks_every_other_frontend() -> None:
    class Page:
        def __init__(self, seats: set[int]) -> None:
            self.seats = seats

        def seats_watching(self, table_id: int) -> set[int]:
            return self.seats if table_id == 7 else set()

    class Plain:  # a front-end that does not tell (the terminal)
        pass

    asking, a, b = Page({0}), Page({1}), Page({3})
    fronts = [asking, Plain(), a, b]
    assert seats_watched_elsewhere(fronts, 7, asking) == {1, 3}  # not its own
    assert seats_watched_elsewhere(fronts, 8, asking) == set()
    assert seats_watched_elsewhere([Plain()], 7, asking) == set()

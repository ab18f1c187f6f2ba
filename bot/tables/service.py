"""The table service: lobby, seats, running games, computer players, turn timers, persistence.

Game-independent and Discord-free: cogs call it with user ids and actions; its front-ends
(:mod:`bot.tables.frontends`: the Discord messages, the terminal, the Activity) hear of every change as a
:class:`TableUpdate` and show it. Every accepted action is appended to the table's log in
SQLite (through :class:`~bot.tables.store.TableStore`), together with any settlement it completes, in one
transaction; a restart replays the logs and resumes every open table where it was.

Turn timers are data: a table's deadline is a wall-clock time stored with it, so a restart keeps the time a
turn had left. One scheduler task (:meth:`TableService.start_timers`) sleeps until the earliest deadline or
reminder time and then runs :meth:`TableService.tick`; whatever moves a deadline wakes it through an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.ai.hints import Hint, hint
from bot.engine.errors import EngineError, IllegalAction, InvalidOptions
from bot.engine.offered import offered, why_not
from bot.engine.protocol import Action, Game, Settlement, replay
from bot.engine.rng import make_rng
from bot.errors import Refusal
from bot.games import registry
from bot.i18n import N_, N_n, _n, _p
from bot.ledger import Ledger, SeatRef, settlement_key
from bot.outbox import OutboxStore
from bot.render.errors import error_text
from bot.storage.db import Database

from .frontends import Frontend, Listener, Notice, TableUpdate, Unping
from .model import COMPUTER_NAME, MAX_TIMEOUT, MIN_TIMEOUT, Seat, Status, Table
from .store import TableStore

log = logging.getLogger(__name__)

#: the share of a turn timer still left when the humans to move get a reminder
REMIND_AT = 0.5


class TableError(Refusal):
    """A request the service refuses: a catalogue msgid and its parameters (``str(err)`` is English, for logs;
    users read :func:`bot.render.errors.error_text` in their language)."""


class StaleAction(TableError):
    """The click was rendered for an earlier state of the table."""


def game_title(game_id: str) -> Callable[[], str]:
    """A game's title as a lazy parameter: in the locale of whoever reads the text."""
    return lambda: _p("game", registry.title(game_id))


def engine_refusal(err: Exception, game_id: str) -> TableError:
    """An engine's refusal (illegal action, invalid options) as the service's, in the game's own words."""
    # i18n: the whole text is the game's own refusal, already in the reader's language
    return TableError(N_("{reason}"), reason=lambda: error_text(err, game_id))


AgentRunner = Callable[..., Awaitable[Action]]
#: ``wait(event, timeout)``: return when ``event`` is set or ``timeout`` seconds have passed (None = no limit)
TimerWait = Callable[[asyncio.Event, float | None], Awaitable[None]]


async def _run_in_thread(fn: Callable[..., Action], *args: Any) -> Action:
    # Computer players are synchronous; searching must never block the event loop (other tables).
    return await asyncio.to_thread(fn, *args)


async def _wait_event(event: asyncio.Event, timeout: float | None) -> None:
    """The turn timers' wait: until ``event`` is set or ``timeout`` seconds pass.

    ``asyncio.timeout`` rather than ``asyncio.wait_for``: on Python 3.11, ``wait_for`` swallows a cancellation
    that arrives in the same loop iteration as the event (it returns the finished inner result instead), so
    stopping the timer task at that moment (shutdown right after a deadline change) waited forever."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            await event.wait()


class TableService:
    def __init__(
        self,
        db: Database,
        ledger: Ledger,
        *,
        default_timeout: int = 90,
        clock: Callable[[], float] = time.time,
        agent_runner: AgentRunner = _run_in_thread,
        auto_forced: bool = True,
        timer_wait: TimerWait = _wait_event,
    ) -> None:
        self.db = db
        self.store = TableStore(db)
        #: what players are owed by an action (posts, the final renders), written in the action's transaction
        self.outbox = OutboxStore(db, clock=clock)
        self.ledger = ledger
        self.default_timeout = default_timeout
        #: wall clock (epoch seconds): deadlines are stored, and must mean the same after a restart
        self.clock = clock
        self.agent_runner = agent_runner
        self.auto_forced = auto_forced
        #: Where new tables get their seed; tests replace it to replay a known deal.
        self.seed_factory: Callable[[], int] = lambda: secrets.randbits(62)
        self.tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        #: one table creation at a time per channel (two quick clicks must not open two tables)
        self._channel_locks: dict[int, asyncio.Lock] = {}
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._redrive: set[int] = set()
        #: who hears of every change, in order: the front-ends' ``update`` (:meth:`add_frontend`) and the plain
        #: listeners of services that react to tables (tournaments, statistics)
        self.listeners: list[Listener | Callable[[TableUpdate], Awaitable[None] | None]] = []
        #: the front-ends showing the tables (each also among ``listeners``, where it was added)
        self.frontends: list[Frontend] = []
        self.timer_wait = timer_wait
        #: set whenever a deadline changes, so the scheduler re-reads the earliest one
        self._timers_changed = asyncio.Event()
        self._timer_task: asyncio.Task[None] | None = None
        #: table id -> reminder deletions owed by its last change, handed to the listeners with its update
        self._unpings: dict[int, list[Unping]] = {}

    # ------------------------------------------------------------------ lookup
    def get(self, table_id: int) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            raise TableError(N_("That table no longer exists."))
        return t

    def in_channel(self, channel_id: int) -> Table | None:
        for t in self.tables.values():
            if t.channel_id == channel_id and t.is_open:
                return t
        return None

    async def table_status(self, table_id: int) -> Status | None:
        """A table's stored status (``lobby``, ``running``, ``finished``, ``cancelled``); None for an unknown id.
        Read from the database: closed tables leave memory, and other services must not query our tables."""
        return await self.store.status(table_id)

    async def table_with_log(self, table_id: int) -> Table | None:
        """A table as stored, with its action log (an open table from memory): what hand records read. A hand
        in progress is never touched: callers replay the log on their own game."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        stored = await self.store.finished_table(table_id)
        if stored is not None:
            stored.log = await self.store.load_log(table_id)
        return stored

    async def latest_in_channel(self, channel_id: int) -> Table | None:
        """The channel's open table, else the last table played there (with its log)."""
        t = self.in_channel(channel_id)
        if t is not None:
            return t
        table_id = await self.store.latest_in_channel(channel_id)
        return None if table_id is None else await self.table_with_log(table_id)

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def add_frontend(self, frontend: Frontend) -> None:
        """Show the tables through ``frontend`` from the next update on (after the listeners added before it)."""
        if frontend not in self.frontends:
            self.frontends.append(frontend)
            self.listeners.append(frontend.update)

    def remove_frontend(self, frontend: Frontend) -> None:
        if frontend in self.frontends:
            self.frontends.remove(frontend)
            self.listeners.remove(frontend.update)

    async def _notify(self, update: TableUpdate) -> None:
        # the reminders this change owes the removal of (no await since the change was written: they are its own)
        update.unpings += self._unpings.pop(update.table.id, [])
        for fn in list(self.listeners):
            try:
                pending = fn(update)
                if pending is not None:
                    await pending
            except Exception:  # a rendering failure must never break the game
                log.exception("table listener failed for table %s", update.table.id)

    # ------------------------------------------------------------------ lobby
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game_id: str,
        host_id: int,
        host_name: str,
        options: dict[str, Any] | None = None,
        turn_timeout: int | None = None,
        seed: int | None = None,
        tournament_id: int | None = None,
        seat_host: bool = True,
        extra_seats: tuple[Seat, ...] = (),
        open_records: bool = False,
    ) -> Table:
        # one creation at a time per channel: the "one table per channel" check and the insert are one step
        async with self._channel_locks.setdefault(channel_id, asyncio.Lock()):
            if not registry.exists(game_id):
                raise TableError(N_("Unknown game `{game}`."), game=game_id)
            if self.in_channel(channel_id) is not None:
                raise TableError(N_("There is already a table in this channel. Finish or cancel it first."))
            cls = registry.game_class(game_id)
            options = {k: v for k, v in (options or {}).items() if v is not None}
            self._check_options(cls, options, game_id)
            timeout = self.default_timeout if turn_timeout is None else turn_timeout
            if not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT:
                raise TableError(
                    N_n(
                        "The turn timer must be between {lo} and {n} second.",
                        "The turn timer must be between {lo} and {n} seconds.",
                    ),
                    lo=MIN_TIMEOUT,
                    n=MAX_TIMEOUT,
                )
            seats = [Seat(host_id, host_name)] if seat_host else []
            seats += extra_seats
            table = Table(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                game_id=game_id,
                host_id=host_id,
                options=options,
                seed=self.seed_factory() if seed is None else seed,
                status="lobby",
                seats=seats,
                turn_timeout=timeout,
                tournament_id=tournament_id,
                open_records=open_records,
            )
            table.id = await self.store.insert(table)
            if open_records:
                await self.store.save(table)  # the insert leaves the table's state at its defaults
            self.tables[table.id] = table
            return table

    async def rematch(self, table_id: int, user_id: int, name: str) -> Table:
        """**Play again**: a new lobby in the finished table's channel with the same game, options, turn timer and
        computer seats (same levels), hosted by the player who asked. The other humans click **Join** again
        (nobody is seated without saying so). Read from the database: finished tables are not kept in memory
        across a restart."""
        old = await self.store.finished_table(table_id)
        if old is None:
            raise TableError(N_("That table no longer exists."))
        if old.status != "finished" or old.tournament_id is not None:
            raise TableError(N_("Only a finished table (outside tournaments) can be played again."))
        if all(x.user_id != user_id for x in old.seats):
            raise TableError(N_("Only the players of that table can start a rematch."))
        computers = tuple(Seat(None, x.name, ai_level=x.ai_level) for x in old.seats if x.user_id is None)
        t = await self.create(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            game_id=old.game_id,
            host_id=user_id,
            host_name=name,
            options=old.options,
            turn_timeout=old.turn_timeout,
            extra_seats=computers[: registry.get(old.game_id).max_seats - 1],
            open_records=old.open_records,
        )
        await self._notify(TableUpdate(t, "lobby"))
        return t

    @staticmethod
    def _check_options(cls: type[Game], options: dict[str, Any], game_id: str) -> None:
        """Options must be valid for at least one allowed number of seats (checked again at start)."""
        first: InvalidOptions | None = None
        for n in range(cls.min_seats, cls.max_seats + 1):
            try:
                cls.normalize_options(options, n)
                return
            except InvalidOptions as e:
                first = first or e
        assert first is not None
        raise engine_refusal(first, game_id) from first

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        async with self.lock(table_id):
            t = self._lobby(table_id)
            if t.seat_of(user_id) is not None:
                raise TableError(N_("You are already seated at this table."))
            if len(t.seats) >= registry.get(t.game_id).max_seats:
                raise TableError(N_("The table is full."))
            t.seats.append(Seat(user_id, name))
            await self._save(t)
        await self._notify(TableUpdate(t, "lobby"))
        return t

    async def leave(self, table_id: int, user_id: int) -> Table:
        """In the lobby: give up the seat. During a game: the computer takes the seat over."""
        async with self.lock(table_id):
            t = self.get(table_id)
            seat = t.seat_of(user_id)
            if seat is None:
                raise TableError(N_("You are not seated at this table."))
            notices: list[Notice] = []
            if t.status == "lobby":
                t.seats.pop(seat)
                if user_id == t.host_id:
                    humans = t.humans()
                    if humans:
                        t.host_id = humans[0]
                        notices.append(
                            Notice(N_("{name} is now the host."), name=t.seats[t.seat_of(humans[0]) or 0].name)
                        )
                    else:
                        t.status = "cancelled"
                        notices.append(Notice(N_("The host left an empty table; it is closed.")))
                kind = "cancelled" if t.status == "cancelled" else "lobby"
            elif t.status == "running":
                t.seats[seat].away = True
                notices.append(Notice(N_("{name} left; the computer plays their seat."), name=t.seats[seat].name))
                kind = "seats"
            else:
                raise TableError(N_("This table is closed."))
            await self._save_owing(t, notices)
        await self._notify(TableUpdate(t, kind, notices=notices))
        if t.status == "running":
            self._kick(t)
        else:
            self._forget_if_closed(t)
        return t

    async def add_computer(self, table_id: int, user_id: int, level: str | None = None) -> Table:
        async with self.lock(table_id):
            t = self._lobby(table_id)
            self._require_host(t, user_id)
            if len(t.seats) >= registry.get(t.game_id).max_seats:
                raise TableError(N_("The table is full."))
            levels = registry.agent_levels(t.game_id)
            if level is None or level not in levels:
                level = levels[0] if levels else "random"
            n = 1 + sum(1 for s in t.seats if s.is_computer)
            t.seats.append(Seat(None, COMPUTER_NAME.format(n=n), ai_level=level))
            await self._save(t)
        await self._notify(TableUpdate(t, "lobby"))
        return t

    async def remove_computer(self, table_id: int, user_id: int) -> Table:
        async with self.lock(table_id):
            t = self._lobby(table_id)
            self._require_host(t, user_id)
            for i in range(len(t.seats) - 1, -1, -1):
                if t.seats[i].is_computer:
                    t.seats.pop(i)
                    break
            else:
                raise TableError(N_("There is no computer player to remove."))
            await self._save(t)
        await self._notify(TableUpdate(t, "lobby"))
        return t

    async def swap_seats(self, table_id: int, user_id: int, a: int, b: int) -> Table:
        """Host-only, lobby-only: exchange two seats (partnerships depend on seat order)."""
        async with self.lock(table_id):
            t = self._lobby(table_id)
            self._require_host(t, user_id)
            if not (0 <= a < len(t.seats) and 0 <= b < len(t.seats)):
                raise TableError(N_("No such seat."))
            t.seats[a], t.seats[b] = t.seats[b], t.seats[a]
            await self._save(t)
        await self._notify(TableUpdate(t, "lobby"))
        return t

    async def start(self, table_id: int, user_id: int | None) -> Table:
        async with self.lock(table_id):
            t = self._lobby(table_id)
            if user_id is not None:
                self._require_host(t, user_id)
            cls = registry.game_class(t.game_id)
            n = len(t.seats)
            if not cls.min_seats <= n <= cls.max_seats:
                seated = _seated(n)
                if cls.min_seats == cls.max_seats:
                    raise TableError(
                        N_("{game} needs exactly {players}; {seated}. Add computers or wait."),
                        game=game_title(t.game_id),
                        players=_players(cls.min_seats),
                        seated=seated,
                    )
                raise TableError(
                    N_n(
                        "{game} needs {lo} to {n} player; {seated}. Add computers or wait.",
                        "{game} needs {lo} to {n} players; {seated}. Add computers or wait.",
                    ),
                    game=game_title(t.game_id),
                    lo=cls.min_seats,
                    n=cls.max_seats,
                    seated=seated,
                )
            try:
                t.game = cls(n, t.options, t.seed)  # type: ignore[call-arg]
            except InvalidOptions as e:
                raise engine_refusal(e, t.game_id) from e
            t.status = "running"
            await self._save(t)
        await self._notify(TableUpdate(t, "started"))
        self._kick(t)
        return t

    async def cancel(self, table_id: int, user_id: int, *, is_admin: bool = False) -> Table:
        async with self.lock(table_id):
            t = self.get(table_id)
            if not t.is_open:
                raise TableError(N_("This table is already closed."))
            if not is_admin:
                self._require_host(t, user_id)
            t.status = "cancelled"
            notices = [Notice(N_("The table was cancelled."))]
            await self._save_owing(t, notices)
        await self._notify(TableUpdate(t, "cancelled", notices=notices))
        self._forget_if_closed(t)
        return t

    async def end(self, table_id: int, user_id: int, *, is_admin: bool = False) -> Table:
        """End a running session (games with no fixed length); an unfinished hand is not settled."""
        async with self.lock(table_id):
            t = self.get(table_id)
            if t.status != "running":
                raise TableError(N_("Only a running table can be ended."))
            if not is_admin:
                self._require_host(t, user_id)
            t.status = "finished"
            t.deadline = None
            notices = [Notice(N_("The host ended the session."))]
            await self._save_owing(t, notices)
        await self._notify(TableUpdate(t, "finished", notices=notices))
        self._forget_if_closed(t)
        return t

    async def hint(self, table_id: int, user_id: int) -> tuple[Table, int, Hint]:
        """What the strong computer would do in the player's seat (the table's ``hints`` option): searched on a
        deal re-dealt from that seat's view only (:mod:`bot.ai.hints`), off the event loop like a computer move.
        The request is recorded with the table (its hand records name who asked where). Returns the table, the
        seat and the hint."""
        async with self.lock(table_id):
            t = self.get(table_id)
            if not t.options.get("hints"):
                raise TableError(N_("Hints are off at this table."))
            seat = t.seat_of(user_id)
            if seat is None:
                raise TableError(N_("You are not playing at this table."))
            game = t.game
            if t.status != "running" or game is None or seat not in game.to_move():
                raise TableError(N_("A hint is for your turn."))
            version = t.version
            if (version, seat) not in t.hints_asked:
                t.hints_asked.append((version, seat))
                await self._save(t)
            clone = game.clone()
        strong = registry.make_agent(t.game_id, "strong")
        seed = make_rng(t.seed, "hint", version, seat).getrandbits(64)
        found: Hint = await self.agent_runner(hint, clone, seat, strong, seed)  # type: ignore[assignment]
        return t, seat, found

    async def vote_stop(self, table_id: int, user_id: int) -> tuple[int, int]:
        """A player votes to stop an open-ended session; when every human has voted, the session ends
        as soon as the hand in progress is settled. Returns (votes, humans)."""
        async with self.lock(table_id):
            t = self.get(table_id)
            if t.status != "running":
                raise TableError(N_("Only a running table can be stopped."))
            if t.seat_of(user_id) is None:
                raise TableError(N_("Only players can vote to stop."))
            if user_id in t.stop_votes:
                raise TableError(N_("You already voted to stop."))
            t.stop_votes.add(user_id)
            humans = set(t.humans())
            votes = len(t.stop_votes & humans)
            name = t.seats[t.seat_of(user_id) or 0].name
            notices = [
                Notice(N_("🛑 {name} votes to stop ({votes}/{humans})."), name=name, votes=votes, humans=len(humans))
            ]
            if votes == len(humans):
                t.stop_after_hand = True
                notices.append(Notice(N_("Everyone agreed: the session ends when this hand is scored.")))
            await self._save_owing(t, notices)
        await self._notify(TableUpdate(t, "seats", notices=notices))
        return votes, len(humans)

    async def set_timeout(self, table_id: int, seconds: int) -> Table:
        if not MIN_TIMEOUT <= seconds <= MAX_TIMEOUT:
            raise TableError(
                N_n(
                    "The turn timer must be between {lo} and {n} second.",
                    "The turn timer must be between {lo} and {n} seconds.",
                ),
                lo=MIN_TIMEOUT,
                n=MAX_TIMEOUT,
            )
        async with self.lock(table_id):
            t = self.get(table_id)
            t.turn_timeout = seconds
            if t.deadline is not None:
                t.deadline = self.clock() + seconds  # the running turn gets the new timer, from now
            await self.store.set_timeout(t.id, seconds, t.deadline)
        self._timers_changed.set()
        return t

    async def set_message(self, table_id: int, key: str, message_id: int | None) -> None:
        """Remember (or forget) a Discord message id so controls can be re-attached after a restart."""
        t = self.tables.get(table_id)
        if t is None:
            return
        if message_id is None:
            t.messages.pop(key, None)
        else:
            t.messages[key] = message_id
        await self.store.set_messages(t.id, t.messages)

    # ------------------------------------------------------------------ play
    async def act(self, table_id: int, user_id: int, action: Action, version: int | None = None) -> Table:
        """A human's action, from any front-end. Raises :class:`TableError` (not seated, not your turn, stale,
        illegal).

        The one gate of every human action (docs/activity-security.md): under the table's lock, so against the
        state it is applied to, whatever ``version`` the front-end claims, the action must be one the seat is
        offered now (:func:`bot.engine.offered.offered`), and what is applied and stored is the engine's own
        canonical object, never the front-end's. ``version`` is the state the front-end showed: an older one is
        still accepted when this seat has not acted since and the action is still offered (another seat bid
        meanwhile in a simultaneous phase); a newer one than the table's never is."""
        async with self.lock(table_id):
            t = self.get(table_id)
            if t.status != "running" or t.game is None:
                raise TableError(N_("This table is not playing right now."))
            seat = t.seat_of(user_id)
            if seat is None:
                raise TableError(N_("You are not playing at this table."))
            canonical = offered(t.game, seat, action)
            if version is not None and version != t.version:
                acted_since = any(s == seat for s, _ in t.log[version:]) if 0 <= version < t.version else True
                if acted_since or canonical is None:
                    raise StaleAction(N_("That choice is out of date; use the latest message."))
            if canonical is None:
                # (some actions are offered off-turn: Wizard's undo of a bid until the next player bids, W-3)
                if seat not in t.game.to_move():
                    raise TableError(N_("It is not your turn."))
                raise engine_refusal(why_not(t.game, seat, action), t.game_id)
            action = canonical
            notices: list[Notice] = []
            if t.seats[seat].away:
                t.seats[seat].away = False
                notices.append(Notice(N_("{name} is back."), name=t.seats[seat].name))
            settled = await self._apply(t, seat, action, actor=user_id, notices=notices)
        await self._after_action(t, seat, settled, notices)
        return t

    async def reclaim(self, table_id: int, user_id: int) -> Table:
        """A human takes their seat back from the computer."""
        async with self.lock(table_id):
            t = self.get(table_id)
            seat = t.seat_of(user_id)
            if seat is None or t.status != "running":
                raise TableError(N_("You have no seat to take back here."))
            if not t.seats[seat].away:
                raise TableError(N_("Your seat is already yours."))
            t.seats[seat].away = False
            t.deadline = None
            notices = [Notice(N_("{name} is back."), name=t.seats[seat].name)]
            await self._save_owing(t, notices)
        await self._notify(TableUpdate(t, "seats", notices=notices))
        self._kick(t)
        return t

    async def _apply(
        self, t: Table, seat: int, action: Action, actor: int | None, notices: list[Notice] | None = None
    ) -> list[Settlement]:
        """Apply and persist one action (caller holds the lock), with the notices it causes. Returns newly booked
        settlements."""
        assert t.game is not None
        try:
            t.game.apply(seat, action)
        except EngineError as e:
            raise engine_refusal(e, t.game_id) from e
        t.log.append((seat, action))
        new = t.game.settlements()[t.booked :]
        if t.game.is_over or (new and t.stop_after_hand):
            t.status = "finished"
        # Any action ends the turn's timer and, when humans are to move next, starts theirs: both written in the
        # action's own transaction (no write of their own per turn), so a restart never finds the previous turn's
        # deadline and always finds the current one.
        had_timer = t.deadline is not None
        t.deadline = self._next_deadline(t) if t.status == "running" else None
        t.reminded = False
        async with self.db.transaction() as conn:
            await self.store.append_action(conn, t.id, t.version - 1, seat, action, actor)
            for s in new:
                await self._book(conn, t, s)
            await self._owe(conn, t, new, notices or [])
            if t.status == "finished":
                await self._save(t, conn)
            elif had_timer or t.deadline is not None:
                await self.store.set_timer(t.id, t.deadline, False, conn)
        t.booked += len(new)
        if t.deadline is not None:
            self._timers_changed.set()
        return new

    def _next_deadline(self, t: Table) -> float | None:
        """The turn timer of the humans to move now, or None when the driver acts first (a computer seat or a
        forced card) — the same condition under which the driver arms a timer itself."""
        assert t.game is not None
        to_move = t.game.to_move()
        if not to_move:
            return None
        for seat in to_move:
            if t.seats[seat].computer_plays or self.forced_action(t, seat) is not None:
                return None
        return self.clock() + t.turn_timeout

    async def _book(self, conn: Any, t: Table, s: Settlement) -> bool:
        return await self.ledger.book(
            conn,
            key=settlement_key(t.id, s.index),
            guild_id=t.guild_id,
            game=t.game_id,
            table_id=t.id,
            hand_index=s.index,
            seats=[SeatRef(seat.user_id, seat.name) for seat in t.seats],
            amounts=s.amounts,
            summary=dict(s.summary),
        )

    async def _after_action(self, t: Table, seat: int | None, settled: list[Settlement], notices: list[Notice]) -> None:
        kind = "finished" if t.status == "finished" else "action"
        await self._notify(TableUpdate(t, kind, settled, notices, actor_seat=seat))
        if t.status == "running":
            self._kick(t)
        else:
            self._forget_if_closed(t)

    # ------------------------------------------------------------------ computer players and timers
    def _kick(self, t: Table) -> None:
        """Make sure a driver task is looking at this table (computer turns, forced moves, timers)."""
        task = self._drivers.get(t.id)
        if task is not None and not task.done():
            self._redrive.add(t.id)
            return
        self._drivers[t.id] = asyncio.create_task(self._drive(t), name=f"table-{t.id}-driver")

    async def _drive(self, t: Table) -> None:
        while True:
            self._redrive.discard(t.id)
            try:
                progressed = await self._drive_once(t)
            except Exception:
                log.exception("driver of table %s failed", t.id)
                return
            if not progressed and t.id not in self._redrive:
                return

    def forced_action(self, t: Table, seat: int) -> Action | None:
        """The action played for ``seat`` at once, without asking, or None: with ``auto_forced``, a seat whose
        only legal action is a card play has it played for them (no button to race with). The one place of
        that rule: the driver plays it, and renderers show no control for it."""
        if not self.auto_forced or t.game is None:
            return None
        legal = t.game.legal_actions(seat)
        if len(legal) == 1 and legal[0].get("type") == "play":
            return legal[0]
        return None

    async def _drive_once(self, t: Table) -> bool:
        """Let one computer (or forced) move happen. Returns True if an action was applied."""
        game = t.game
        if t.status != "running" or game is None or game.is_over:
            return False
        to_move = game.to_move()
        version = t.version
        pick: tuple[int, Action | None] | None = None
        for seat in to_move:
            if t.seats[seat].computer_plays:
                pick = (seat, None)
                break
            forced = self.forced_action(t, seat)
            if forced is not None:
                pick = (seat, forced)
                break
        if pick is None:
            if to_move and t.deadline is None:
                await self._arm_timer(t, version)
            return False
        seat, action = pick
        if action is None:
            level = t.seats[seat].ai_level
            agent = registry.make_agent(t.game_id, level)
            rng = make_rng(t.seed, "ai", version, seat)
            action = await self.agent_runner(agent.choose, game.clone(), seat, rng)
        async with self.lock(t.id):
            if t.version != version or t.status != "running":
                return True  # someone acted meanwhile: look again
            try:
                settled = await self._apply(t, seat, action, actor=None)
            except TableError:
                log.exception("computer chose an illegal action at table %s: %r", t.id, action)
                return False
        await self._after_action(t, seat, settled, [])
        return True

    async def _arm_timer(self, t: Table, version: int) -> None:
        """Start the turn timer of the humans to move: a stored wall-clock deadline, so it survives a restart."""
        async with self.lock(t.id):
            # Rechecked under the lock: a click may have moved the table on since the driver looked.
            if t.version != version or t.status != "running" or t.deadline is not None:
                return
            t.deadline = self.clock() + t.turn_timeout
            t.reminded = False
            await self.store.set_timer(t.id, t.deadline, False)
        self._timers_changed.set()

    # ------------------------------------------------------------------ the timer scheduler
    @staticmethod
    def _remind_time(t: Table) -> float:
        assert t.deadline is not None
        return t.deadline - t.turn_timeout * REMIND_AT

    @staticmethod
    def _timed(t: Table) -> bool:
        return t.status == "running" and t.game is not None and t.deadline is not None

    def next_due(self) -> float | None:
        """The earliest time :meth:`tick` has something to do (a reminder or a time-out), None if never."""
        due: float | None = None
        for t in self.tables.values():
            if not self._timed(t):
                continue
            assert t.deadline is not None
            when = t.deadline if t.reminded else min(t.deadline, self._remind_time(t))
            due = when if due is None else min(due, when)
        return due

    def start_timers(self) -> None:
        """Start the scheduler task (once the tables are loaded: a deadline already past fires at once)."""
        if self._timer_task is None or self._timer_task.done():
            self._timer_task = asyncio.create_task(self._run_timers(), name="turn-timers")

    async def stop_timers(self) -> None:
        task, self._timer_task = self._timer_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run_timers(self) -> None:
        """Sleep until the earliest deadline or reminder time, or until a deadline changes; then tick.

        The event is cleared before the earliest time is read: a deadline set while we wait sets it again and
        wakes us to re-read (nothing in between can await, so no change is missed). No per-second polling.
        """
        while True:
            self._timers_changed.clear()
            due = self.next_due()
            timeout = None if due is None else max(0.0, due - self.clock())
            if timeout is None or timeout > 0:
                await self.timer_wait(self._timers_changed, timeout)
            try:
                await self.tick()
            except Exception:
                log.exception("turn timer tick failed")
                # a persistent failure (e.g. the disk) must not become a busy loop on a due deadline
                await self.timer_wait(asyncio.Event(), 1.0)

    async def tick(self, now: float | None = None) -> list[int]:
        """Send due reminders and time out humans whose turn timer has run out; returns the ids of tables that
        changed (a seat timed out).

        Run by the scheduler when something is due, and directly by tests with a fake clock.
        """
        now = self.clock() if now is None else now
        changed: list[int] = []
        for t in list(self.tables.values()):
            if t.status != "running" or t.game is None or t.deadline is None:
                continue
            if t.deadline > now:
                await self._maybe_remind(t, now)
                continue
            async with self.lock(t.id):
                if t.deadline is None or t.deadline > now:
                    continue
                notices: list[Notice] = []
                for seat in t.game.to_move():
                    s = t.seats[seat]
                    if not s.computer_plays:
                        s.away = True
                        notices.append(
                            Notice(
                                N_("⏰ {name} ran out of time; the computer plays for them until they come back."),
                                name=s.name,
                            )
                        )
                t.deadline = None
                t.reminded = False
                if not notices:
                    await self.store.set_timer(t.id, None, False)
                    continue
                await self._save_owing(t, notices)
            changed.append(t.id)
            await self._notify(TableUpdate(t, "seats", notices=notices))
            self._kick(t)
        return changed

    async def _maybe_remind(self, t: Table, now: float) -> None:
        """Halfway through a turn timer, remind the humans still to move (once per turn): edits of their
        private message do not notify them, and otherwise the first they hear is that the computer took over."""
        assert t.deadline is not None and t.game is not None
        # the same comparison as next_due's, so the scheduler never wakes for a reminder this skips
        if t.reminded or now < self._remind_time(t):
            return
        async with self.lock(t.id):
            if t.deadline is None or t.reminded or t.game is None or now < self._remind_time(t):
                return  # the turn passed (or its timer moved) while we waited for the lock
            deadline = t.deadline
            t.reminded = True
            # stored, so a restart does not remind the same turn twice
            await self.store.set_timer(t.id, deadline, True)
            waiting = [s for s in t.game.to_move() if not t.seats[s].computer_plays and t.seats[s].user_id is not None]
        if waiting:
            await self._notify(TableUpdate(t, "reminder", remind=waiting, seconds_left=round(deadline - now)))

    async def idle(self) -> None:
        """Wait until no table has a computer move in flight (for tests, benchmarks and shutdown)."""
        while True:
            tasks = [task for task in self._drivers.values() if not task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ persistence
    async def _save(self, t: Table, conn: Any = None) -> None:
        await self.store.save(t, conn)

    async def _save_owing(self, t: Table, notices: list[Notice]) -> None:
        """Save a table together with what the change owes its players: its notices, the removal of reminders
        whose turn passed and, when it just closed, its final renders."""
        async with self.db.transaction() as conn:
            await self._owe(conn, t, [], notices)  # (first: it takes passed reminders off the table saved below)
            await self._save(t, conn)

    async def _owe(self, conn: Any, t: Table, settled: list[Settlement], notices: list[Notice] | None = None) -> None:
        """Record, in the action's transaction, the messages it owes the players (see :mod:`bot.outbox`): each
        hand's summary, the table's notices (who left, timed out, came back, ended it), the game-over post, the
        final state of the table message and every DM (no live controls on a closed table), and the deletion of
        every reminder whose turn has passed. Delivered by the cog after the commit, and by the next start if this
        process dies first. The caller saves the table (its reminders are taken off it here)."""
        for s in settled:
            payload = {"index": s.index, "version": t.version, "last": s is settled[-1]}
            await self.outbox.add(
                conn, owed_key(t.id, "hand", s.index), "hand", guild_id=t.guild_id, table_id=t.id,
                channel_id=t.channel_id, payload=payload,
            )  # fmt: skip
        for notice in notices or ():
            # unique, and in the order written (a row's id); the text is written when it is sent, in the channel's
            # language, so its parameters must be plain values (json refuses a lazy one)
            notice.key = owed_key(t.id, "note", t.version) + f":{secrets.token_hex(4)}"
            await self.outbox.add(
                conn, notice.key, "note", guild_id=t.guild_id, table_id=t.id, channel_id=t.channel_id,
                payload={"msgid": notice.msgid, "params": notice.params},
            )  # fmt: skip
        await self._owe_unpings(conn, t)
        if t.is_open:
            return
        if t.status == "finished" and t.game is not None:
            await self.outbox.add(
                conn, owed_key(t.id, "over"), "over", guild_id=t.guild_id, table_id=t.id, channel_id=t.channel_id,
                payload={"version": t.version},
            )  # fmt: skip
        await self.outbox.add(conn, owed_key(t.id, "render"), "render", guild_id=t.guild_id, table_id=t.id)

    async def _owe_unpings(self, conn: Any, t: Table, passed_seats: frozenset[int] = frozenset()) -> None:
        """Reminders (``ping:<seat>`` in the table's messages) whose turn has passed (the seat is no longer to move, or
        is in ``passed_seats``): each one's deletion becomes an outbox row and leaves the table's messages, in the
        caller's transaction. Handed to the listeners with the table's next update."""
        passed: list[Unping] = []
        for seat in range(len(t.seats)):
            mid = t.messages.get(f"ping:{seat}")
            moving = t.status == "running" and t.game is not None and seat in t.game.to_move()
            if mid is None or (moving and seat not in passed_seats):
                continue
            ch_id = t.messages.get(f"dmch:{seat}")
            unping = Unping(owed_key(t.id, "unping", mid), seat, ch_id, mid)
            await self.outbox.add(
                conn, unping.key, "unping", guild_id=t.guild_id, table_id=t.id, channel_id=ch_id, user_id=None,
                payload={"seat": seat, "message": mid},
            )  # fmt: skip
            del t.messages[f"ping:{seat}"]
            passed.append(unping)
        if passed:
            self._unpings.setdefault(t.id, []).extend(passed)
            await self.store.set_messages(t.id, t.messages, conn)

    async def reminder_sent(self, t: Table, seat: int, message_id: int, version: int) -> list[Unping]:
        """A reminder of the seat's turn at ``version`` reached its DM: saved with the table, so it is deleted once the
        turn passes, also after a restart. Should the turn have passed while it was being sent (the seat is no longer
        to move, or has acted since, even if it is its turn again), its deletion is owed at once (returned)."""
        # (a table closed meanwhile has left memory, and its lock with it)
        async with self.lock(t.id) if t.id in self.tables else asyncio.Lock():
            t.messages[f"ping:{seat}"] = message_id
            acted = frozenset({seat}) if any(s == seat for s, _a in t.log[version:]) else frozenset()
            async with self.db.transaction() as conn:
                await self._owe_unpings(conn, t, acted)
                if f"ping:{seat}" in t.messages:
                    await self.store.set_messages(t.id, t.messages, conn)
        return self._unpings.pop(t.id, [])

    async def tidy_reminders(self, table_id: int) -> list[Unping]:
        """Owe the deletion of reminders whose turn passed (at a start: reminders saved by an older version)."""
        t = self.tables.get(table_id)
        if t is None:
            return []
        async with self.lock(table_id), self.db.transaction() as conn:
            await self._owe_unpings(conn, t)
        return self._unpings.pop(t.id, [])

    async def table_at(self, table_id: int, version: int | None = None) -> Table | None:
        """A table with its game replayed to ``version`` actions (all when None): what an owed message shows when
        it is delivered after a restart. The open table itself when it is in memory at that version."""
        t = self.tables.get(table_id)
        if t is not None and (version is None or version == t.version):
            return t
        stored = await self.store.finished_table(table_id)
        if stored is None:
            return None
        stored.log = await self.store.load_log(table_id)
        if version is not None:
            stored.log = stored.log[:version]
        if stored.status in ("running", "finished") or stored.log:
            try:
                stored.game = replay(
                    registry.game_class(stored.game_id), len(stored.seats), stored.options, stored.seed, stored.log
                )
            except (EngineError, KeyError, ValueError) as e:
                log.error("table %s cannot be replayed for its owed messages (%s)", table_id, e)
                return stored
            stored.booked = len(stored.game.settlements())
        return stored

    async def load(self) -> list[Table]:
        """Restore every open table by replaying its log; book any settlement the ledger lacks.

        A running table's stored deadline stands (the turn keeps the time it had left; one already past fires
        as soon as the scheduler runs); a table stored without one gets a full timer from its driver."""
        async with self.db.transaction() as conn:
            restored: list[Table] = []
            for t in await self.store.load_open(conn):
                if t.status == "running":
                    try:
                        game = replay(registry.game_class(t.game_id), len(t.seats), t.options, t.seed, t.log)
                    except (EngineError, KeyError, ValueError) as e:
                        log.error("table %s cannot be replayed (%s); marking it cancelled", t.id, e)
                        t.status = "cancelled"
                        await self._save(t, conn)
                        continue
                    t.game = game
                    for s in game.settlements():
                        await self._book(conn, t, s)  # idempotent: already-booked keys are skipped
                    t.booked = len(game.settlements())
                    if game.is_over:
                        t.status = "finished"
                        await self._save(t, conn)
                self.tables[t.id] = t
                restored.append(t)
        for t in restored:
            if t.status == "running":
                self._kick(t)
        self._timers_changed.set()
        return restored

    # ------------------------------------------------------------------ helpers
    def _lobby(self, table_id: int) -> Table:
        t = self.get(table_id)
        if t.status != "lobby":
            if t.status == "running":
                raise TableError(N_("The game has already started."))
            raise TableError(N_("This table is closed."))
        return t

    @staticmethod
    def _require_host(t: Table, user_id: int) -> None:
        if user_id != t.host_id:
            raise TableError(N_("Only the host can do that."))

    def _forget_if_closed(self, t: Table) -> None:
        # Closed tables stay in memory until the next restart only if a renderer still needs them;
        # the cog reads them from the update it receives, so they can go now.
        if not t.is_open:
            self.tables.pop(t.id, None)
            self._locks.pop(t.id, None)


def owed_key(table_id: int, what: str, index: int | None = None) -> str:
    """The outbox key of a message a table owes (``t12:hand:3``, ``t12:over``, ``t12:render``)."""
    return f"t{table_id}:{what}" if index is None else f"t{table_id}:{what}:{index}"


def _players(n: int) -> Callable[[], str]:
    return lambda: _n("{n} player", "{n} players", n)


def _seated(n: int) -> Callable[[], str]:
    return lambda: _n("{n} seated", "{n} seated", n)


__all__ = [
    "IllegalAction",
    "Notice",
    "StaleAction",
    "TableError",
    "TableService",
    "TableUpdate",
    "Unping",
    "game_title",
    "owed_key",
]

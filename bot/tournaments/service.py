"""The tournament service: sign-up, the draw of each round, opening tables, standings, resuming.

Discord-free. A tournament's games are ordinary tables of :class:`~bot.tables.service.TableService` (created
with ``tournament_id`` and without seating the host); this service listens to the table service to learn
when a table finishes, and starts the next round when every table of the current one is closed. Results
are never stored twice: standings are ledger queries restricted to the tournament's tables.

Where a table is opened (a Discord thread) is decided by an injected ``channel_factory`` coroutine, so the
service stays testable without Discord. Every step is persisted before the next one (the draw in one
transaction; then each table's thread id, then its table id), so :meth:`TournamentService.load` can resume a
round that was half-opened when the bot stopped, and notice tables that finished while nobody listened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import InvalidOptions
from bot.errors import Refusal
from bot.games import registry
from bot.i18n import N_, N_n, _, _n, _p
from bot.i18n import names as ui
from bot.outbox import OutboxStore
from bot.render.errors import error_text
from bot.storage.db import Database
from bot.tables.service import Notice, TableError, TableService, TableUpdate, game_title

from .schedule import History, draw_round

log = logging.getLogger(__name__)

__all__ = [
    "RULES_TEXT",
    "RoundTable",
    "Standing",
    "Tournament",
    "TournamentError",
    "TournamentService",
    "TournamentUpdate",
    "table_options",
]

#: a tournament option that is the tables' own (every hand may be replayed openly once it is over)
OPEN_RECORDS = "open_records"
MAX_ROUNDS = 50
MIN_PLAYERS = 2
OPEN = ("signup", "running")

# i18n: the reply of /tournament rules; keep the option names in backticks (`fill: bye`, `hands_per_round`) as they are
RULES_TEXT = N_("""\
**Draw.** Each round the active players are drawn into tables of the game's size (Mediatore and Minchiate 4, \
Mighty 5, Wizard 3–6 with as few tables as possible, sizes within one). Missing seats are filled by computer \
players, or — with `fill: bye` — the players who had the fewest byes sit the round out (with fewer players than \
one table, computers fill anyway). The draw avoids repeat opponents: among many random draws improved by swapping \
players, the one with the fewest (squared) repeat meetings wins. In Minchiate the partnership (seats 1+3 vs 2+4) \
that repeats the fewest earlier partnerships is chosen.
**Hands.** A table plays `hands_per_round` hands (Mediatore/Mighty: hands; Minchiate: 1 or 4 deals; Wizard: \
the rounds 1..k, or all rounds when 0, or the `wizard_rounds` given). The next round starts when every table is over.
**Standings.** 1) total of the game's main currency over the tournament (Wizard points, Minchiate resti, \
Mediatore/Mighty stakes); ties broken by 2) tables won (best total at one's table, shared when equal), \
3) hands won, 4) stakes (when not the main currency), 5) earlier sign-up. A bye scores 0.
**Drop-outs.** `{withdraw}` leaves for good: the computer finishes your current table, you keep your \
results and are not drawn again. A player whose turn timer runs out is played by the computer and flagged 🤖.""")


class TournamentError(Refusal):
    """A request the service refuses: a catalogue msgid and its parameters (``str(err)`` is English, for logs;
    users read :func:`bot.render.errors.error_text` in their language)."""


@dataclass(slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    rounds: int
    hands_per_round: int
    options: dict[str, Any]
    fill: str
    turn_timeout: int | None
    seed: int
    status: str
    current_round: int = 0
    messages: dict[str, int] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """English, for logs and thread names; users read :meth:`display_title`."""
        return f"{registry.get(self.game).title} tournament #{self.id}"

    def display_title(self) -> str:
        """The tournament's name in the current locale (also a lazy parameter of notices and refusals)."""
        return _("{game} tournament #{id}", game=_p("game", registry.title(self.game)), id=str(self.id))

    @property
    def is_open(self) -> bool:
        return self.status in OPEN


@dataclass(slots=True)
class Player:
    user_id: int
    name: str
    status: str
    joined_seq: int


@dataclass(slots=True)
class RoundTable:
    tournament_id: int
    round: int
    table_no: int
    seats: list[int | None]
    thread_id: int | None = None
    table_id: int | None = None
    status: str = "pending"


@dataclass(slots=True)
class Standing:
    user_id: int
    name: str
    rank: int = 0
    score: int = 0  # the main currency's total
    totals: dict[str, int] = field(default_factory=dict)
    tables_won: int = 0
    hands_won: int = 0
    tables: int = 0
    byes: int = 0
    joined_seq: int = 0
    withdrawn: bool = False
    afk: bool = False

    def key(self, secondary: str | None) -> tuple[int, ...]:
        second = self.totals.get(secondary, 0) if secondary else 0
        return (-self.score, -self.tables_won, -self.hands_won, -second, self.joined_seq)


@dataclass(slots=True)
class TournamentUpdate:
    """What happened; the cog renders sign-up, standings and notices from the service, not from this."""

    tournament: Tournament
    kind: str  # signup | started | round | table | standings | finished | cancelled | resumed | withdrew
    tables: list[RoundTable] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)


Listener = Callable[[TournamentUpdate], Awaitable[None]]
ChannelFactory = Callable[[Tournament, RoundTable, list[str]], Awaitable[int]]


def table_options(t: Tournament, seats: int) -> dict[str, Any]:
    """The game options of one table of ``t`` with ``seats`` seats (``open_records`` is the table's, not the game's)."""
    options = {k: v for k, v in t.options.items() if k != OPEN_RECORDS}
    return registry.get(t.game).tournament.options_for(options, t.hands_per_round, seats)


class TournamentService:
    def __init__(
        self,
        db: Database,
        tables: TableService,
        *,
        channel_factory: ChannelFactory | None = None,
    ) -> None:
        self.db = db
        self.tables = tables
        #: a round's notices (outbox rows written with its draw, delivered by the cog)
        self.outbox = OutboxStore(db, clock=tables.clock)
        self.channel_factory = channel_factory
        self.tournaments: dict[int, Tournament] = {}
        self.listeners: list[Listener] = []
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.seed_factory: Callable[[], int] = lambda: secrets.randbits(62)
        tables.listeners.append(self._on_table)

    # ------------------------------------------------------------------ lookup
    def get(self, tid: int) -> Tournament:
        t = self.tournaments.get(tid)
        if t is None:
            raise TournamentError(N_("That tournament is over or does not exist."))
        return t

    def in_channel(self, channel_id: int) -> Tournament | None:
        return next((t for t in self.tournaments.values() if t.channel_id == channel_id and t.is_open), None)

    def lock(self, tid: int) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    async def _notify(self, update: TournamentUpdate) -> None:
        for fn in list(self.listeners):
            try:
                await fn(update)
            except Exception:  # rendering must never break the tournament
                log.exception("tournament listener failed for tournament %s", update.tournament.id)

    def _spawn(self, coro: Awaitable[None], name: str) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)  # type: ignore[assignment]
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait for background work (round changes) and the tables' computer moves (tests, shutdown)."""
        while True:
            tasks = [t for t in self._tasks if not t.done()]
            await self.tables.idle()
            if not tasks:
                if not [t for t in self._tasks if not t.done()]:
                    return
                continue
            await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ sign-up
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        rounds: int,
        hands_per_round: int | None = None,
        stake: int | None = None,
        fill: str = "computer",
        wizard_rounds: list[int] | None = None,
        open_records: bool = False,
        turn_timeout: int | None = None,
        join: bool = True,
    ) -> Tournament:
        if not registry.exists(game):
            raise TournamentError(N_("Unknown game `{game}`."), game=game)
        spec = registry.get(game)
        if not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError(
                N_n("A tournament has 1 to {n} round.", "A tournament has 1 to {n} rounds."), n=MAX_ROUNDS
            )
        if fill not in ("computer", "bye"):
            raise TournamentError(N_("`fill` is `computer` or `bye`."))
        k = spec.tournament.default_hands if hands_per_round is None else hands_per_round
        if spec.tournament.check(k) is not None:
            rules = spec.tournament
            if k < 0 or k < rules.min_hands:
                raise TournamentError(N_("Tables of a tournament must play a fixed number of hands (at least 1)."))
            raise TournamentError(
                N_("A {game} table plays one of these numbers of hands per round: {allowed}."),
                game=game_title(game),
                allowed=", ".join(str(v) for v in rules.allowed or ()),
            )
        if self.in_channel(channel_id) is not None:
            raise TournamentError(N_("This channel already has a tournament. Finish or cancel it first."))
        options: dict[str, Any] = {}
        if stake is not None:
            options[spec.stake_option] = stake
        if open_records:
            options[OPEN_RECORDS] = True
        if wizard_rounds and spec.tournament.takes_round_list:
            options["wizard_rounds"] = sorted(set(wizard_rounds))
        t = Tournament(
            0, guild_id, channel_id, host_id, game, rounds, k, options, fill, turn_timeout,
            self.seed_factory(), "signup",
        )  # fmt: skip
        self._check_options(t)
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "INSERT INTO tournaments (guild_id, channel_id, host_id, game, rounds, hands_per_round, options_json,"
                " fill, turn_timeout, seed, status) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (guild_id, channel_id, host_id, game, rounds, k, json.dumps(options), fill, turn_timeout, t.seed,
                 "signup"),
            )  # fmt: skip
            t.id = int(cur.lastrowid or 0)
            if join:
                await self._insert_player(conn, t.id, host_id, host_name)
        self.tournaments[t.id] = t
        await self._notify(TournamentUpdate(t, "signup"))
        return t

    @staticmethod
    def _check_options(t: Tournament) -> None:
        cls = registry.game_class(t.game)
        first: InvalidOptions | None = None
        for n in range(cls.min_seats, cls.max_seats + 1):
            try:
                cls.normalize_options(table_options(t, n), n)
                return
            except InvalidOptions as e:
                first = first or e
        assert first is not None
        err = first
        # i18n: the whole text is the game's own refusal, already in the reader's language
        raise TournamentError(N_("{reason}"), reason=lambda: error_text(err, t.game))

    @staticmethod
    async def _insert_player(conn: Any, tid: int, user_id: int, name: str) -> None:
        rows = list(
            await conn.execute_fetchall(
                "SELECT COALESCE(MAX(joined_seq), 0) + 1 FROM tournament_players WHERE tournament_id = ?", (tid,)
            )
        )
        await conn.execute(
            "INSERT INTO tournament_players (tournament_id, user_id, name, status, joined_seq) VALUES (?,?,?,?,?)",
            (tid, user_id, name, "active", int(rows[0][0])),
        )

    async def players(self, tid: int) -> list[Player]:
        rows = await self.db.fetchall(
            "SELECT user_id, name, status, joined_seq FROM tournament_players WHERE tournament_id = ?"
            " ORDER BY joined_seq",
            (tid,),
        )
        return [Player(int(r[0]), str(r[1]), str(r[2]), int(r[3])) for r in rows]

    async def join(self, tid: int, user_id: int, name: str) -> Tournament:
        async with self.lock(tid):
            t = self.get(tid)
            if t.status != "signup":
                raise TournamentError(N_("Sign-up is closed: the tournament has started."))
            if any(p.user_id == user_id for p in await self.players(tid)):
                raise TournamentError(N_("You are already signed up."))
            async with self.db.transaction() as conn:
                await self._insert_player(conn, tid, user_id, name)
        await self._notify(TournamentUpdate(t, "signup"))
        return t

    async def leave(self, tid: int, user_id: int) -> Tournament:
        """During sign-up: take your name off the list. Once running, see :meth:`withdraw`."""
        t = self.get(tid)
        if t.status == "running":
            return await self.withdraw(tid, user_id)
        async with self.lock(tid):
            if t.status != "signup":
                raise TournamentError(N_("This tournament is over."))
            async with self.db.transaction() as conn:
                cur = await conn.execute(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?", (tid, user_id)
                )
                if not cur.rowcount:
                    raise TournamentError(N_("You are not signed up."))
        await self._notify(TournamentUpdate(t, "signup"))
        return t

    async def withdraw(self, tid: int, user_id: int) -> Tournament:
        """Leave a running tournament for good: the computer finishes the current table for you, your results
        stay in the standings (flagged), and you are not drawn again."""
        async with self.lock(tid):
            t = self.get(tid)
            if t.status == "signup":
                raise TournamentError(
                    N_("The tournament has not started: click **{leave}** on its message."),
                    leave=lambda: ui.label(ui.LEAVE),
                )
            if t.status != "running":
                raise TournamentError(N_("This tournament is over."))
            name = next((p.name for p in await self.players(tid) if p.user_id == user_id), str(user_id))
            async with self.db.transaction() as conn:
                cur = await conn.execute(
                    "UPDATE tournament_players SET status = 'withdrawn' WHERE tournament_id = ? AND user_id = ?"
                    " AND status = 'active'",
                    (tid, user_id),
                )
                if not cur.rowcount:
                    raise TournamentError(N_("You are not an active player of this tournament."))
                await conn.execute(
                    "INSERT OR IGNORE INTO tournament_flags (tournament_id, user_id, round, flag) VALUES (?,?,?,?)",
                    (tid, user_id, t.current_round, "withdrawn"),
                )
                # the channel is told, once, even if the bot stops right after this commit
                await self.outbox.add(
                    conn, f"T{tid}:w{user_id}", "withdrew", guild_id=t.guild_id, tournament_id=tid,
                    channel_id=t.channel_id, payload={"name": name},
                )  # fmt: skip
            rt = await self._table_of(t, user_id)
        if rt is not None and rt.table_id is not None and rt.table_id in self.tables.tables:
            with contextlib.suppress(TableError):  # the table closed meanwhile: nothing left to hand over
                await self.tables.leave(rt.table_id, user_id)
        await self._notify(TournamentUpdate(t, "withdrew"))
        return t

    async def _table_of(self, t: Tournament, user_id: int) -> RoundTable | None:
        for rt in await self.round_tables(t.id, t.current_round):
            if user_id in rt.seats and rt.status in ("pending", "running"):
                return rt
        return None

    # ------------------------------------------------------------------ running
    async def start(self, tid: int, actor_id: int, *, can_manage: bool = False) -> Tournament:
        async with self.lock(tid):
            t = self.get(tid)
            if actor_id != t.host_id and not can_manage:
                raise TournamentError(N_("Only the host or an organiser can start the tournament."))
            if t.status != "signup":
                raise TournamentError(N_("The tournament has already started."))
            active = [p for p in await self.players(tid) if p.status == "active"]
            if len(active) < MIN_PLAYERS:
                raise TournamentError(
                    N_n("A tournament needs at least {n} player.", "A tournament needs at least {n} players."),
                    n=MIN_PLAYERS,
                )
            t.status = "running"
            await self._notify(TournamentUpdate(t, "started"))
            await self._start_round(t, 1)
        return t

    async def cancel(self, tid: int, actor_id: int, *, can_manage: bool = False) -> Tournament:
        async with self.lock(tid):
            t = self.get(tid)
            if actor_id != t.host_id and not can_manage:
                raise TournamentError(N_("Only the host or an organiser can cancel the tournament."))
            t.status = "cancelled"
            async with self.db.transaction() as conn:
                await self._save(t, conn)
                await self.outbox.add(
                    conn, f"T{tid}:cancelled", "cancelled", guild_id=t.guild_id, tournament_id=tid,
                    channel_id=t.channel_id, payload={},
                )  # fmt: skip
            open_tables = [
                rt.table_id for rt in await self.round_tables(tid, t.current_round) if rt.table_id is not None
            ]
        for table_id in open_tables:
            if table_id in self.tables.tables and self.tables.tables[table_id].is_open:
                with contextlib.suppress(TableError):
                    await self.tables.cancel(table_id, actor_id, is_admin=True)
        await self._notify(TournamentUpdate(t, "cancelled"))  # its notice is owed (written with the change)
        self.tournaments.pop(tid, None)
        return t

    async def set_message(self, tid: int, key: str, message_id: int | None) -> None:
        t = self.tournaments.get(tid)
        if t is None:
            return
        if message_id is None:
            t.messages.pop(key, None)
        else:
            t.messages[key] = message_id
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE tournaments SET messages_json = ? WHERE id = ?", (json.dumps(t.messages), tid))

    async def round_tables(self, tid: int, rnd: int | None = None) -> list[RoundTable]:
        sql = (
            "SELECT tournament_id, round, table_no, seats_json, thread_id, table_id, status FROM tournament_tables"
            " WHERE tournament_id = ?"
        )
        params: tuple[Any, ...] = (tid,)
        if rnd is not None:
            sql += " AND round = ?"
            params = (tid, rnd)
        rows = await self.db.fetchall(sql + " ORDER BY round, table_no", params)
        return [RoundTable(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6]) for r in rows]

    async def byes(self, tid: int, rnd: int | None = None) -> list[tuple[int, int]]:
        rows = await self.db.fetchall(
            # CAST: PostgreSQL must know the parameter's type to test it for NULL.
            "SELECT round, user_id FROM tournament_byes WHERE tournament_id = ?"
            " AND (CAST(? AS INTEGER) IS NULL OR round = ?) ORDER BY round, user_id",
            (tid, rnd, rnd),
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    async def history(self, tid: int, before_round: int) -> History:
        h = History()
        teams = self._teams(self.get(tid).game) if tid in self.tournaments else False
        for rt in await self.round_tables(tid):
            if rt.round < before_round:
                h.record([rt.seats], teams=teams)
        for rnd, uid in await self.byes(tid):
            if rnd < before_round:
                h.byes[uid] += 1
        return h

    @staticmethod
    def _teams(game: str) -> bool:
        return registry.get(game).partnerships

    async def _start_round(self, t: Tournament, rnd: int) -> None:
        """Draw round ``rnd`` (once: a resumed round keeps its draw) and open its tables. Caller holds the lock."""
        existing = await self.round_tables(t.id, rnd)
        byes: list[int] = []
        if not existing:
            active = [p.user_id for p in await self.players(t.id) if p.status == "active"]
            if not active:
                await self._finish(t)
                return
            cls = registry.game_class(t.game)
            draw = draw_round(
                active,
                await self.history(t.id, rnd),
                min_seats=cls.min_seats,
                max_seats=cls.max_seats,
                fill=t.fill,
                teams=self._teams(t.game),
                rng=random.Random(f"{t.seed}:{rnd}"),
            )
            byes = list(draw.byes)
            t.current_round = rnd
            async with self.db.transaction() as conn:
                for no, seats in enumerate(draw.tables, start=1):
                    await conn.execute(
                        "INSERT INTO tournament_tables (tournament_id, round, table_no, seats_json) VALUES (?,?,?,?)",
                        (t.id, rnd, no, json.dumps(list(seats))),
                    )
                for uid in byes:
                    await conn.execute(
                        "INSERT INTO tournament_byes (tournament_id, round, user_id) VALUES (?,?,?)", (t.id, rnd, uid)
                    )
                await self._save(t, conn)
                await self._owe_round(conn, t, rnd, len(draw.tables), bool(byes))
            existing = await self.round_tables(t.id, rnd)
        else:
            byes = [uid for r, uid in await self.byes(t.id, rnd)]
        opened = []
        for rt in existing:
            if rt.status in ("pending", "running"):
                await self._open_table(t, rt)
                opened.append(rt)
        # the round's notices are owed (written with the draw): the cog delivers them on this update
        await self._notify(TournamentUpdate(t, "round", tables=opened, byes=byes))
        await self._maybe_advance(t)  # a round whose tables all closed already (resume) moves on

    async def _owe_round(self, conn: Any, t: Tournament, rnd: int, tables: int, byes: bool) -> None:
        """The messages a drawn round owes, recorded with the draw: its notice in the tournament channel, the byes,
        and one notice per table (in its thread, mentioning the players) — so a stop between the draw and its
        announcement still announces it, once."""
        common = {"guild_id": t.guild_id, "tournament_id": t.id}
        await self.outbox.add(
            conn, f"T{t.id}:r{rnd}", "round", channel_id=t.channel_id, payload={"round": rnd, "tables": tables},
            **common,
        )  # fmt: skip
        if byes:
            await self.outbox.add(conn, f"T{t.id}:r{rnd}:byes", "byes", channel_id=t.channel_id,
                                  payload={"round": rnd}, **common)  # fmt: skip
        for no in range(1, tables + 1):
            await self.outbox.add(conn, f"T{t.id}:r{rnd}:t{no}", "seats", payload={"round": rnd, "table": no}, **common)

    async def owed_notice(self, t: Tournament, kind: str, payload: dict[str, Any]) -> Notice | None:
        """The notice an owed row of the tournament's channel says (``None`` for a table's own message, ``seats``)."""
        if kind == "withdrew":
            return Notice(N_("{name} withdrew from {title}."), name=str(payload["name"]), title=t.display_title)
        if kind == "cancelled":
            return Notice(N_("{title} was cancelled."), title=t.display_title)
        if kind == "round":
            count = int(payload["tables"])
            return Notice(
                N_("**{title} — round {round} of {rounds}** ({tables})."),
                title=t.display_title,
                round=int(payload["round"]),
                rounds=t.rounds,
                tables=lambda: _n("{n} table", "{n} tables", count),
            )
        if kind == "byes":
            names = {p.user_id: p.name for p in await self.players(t.id)}
            byes = [uid for r, uid in await self.byes(t.id, int(payload["round"]))]
            return Notice(N_("Bye this round: {names}."), names=", ".join(names.get(u, str(u)) for u in byes))
        return None

    async def owed_text(self, t: Tournament, kind: str, payload: dict[str, Any]) -> tuple[int | None, str] | None:
        """Where an owed message goes and its text in the current locale, or None when it cannot be sent yet (the
        table's thread is not open). ``kind``: ``round``, ``byes`` or ``seats`` (see :meth:`_owe_round`),
        ``withdrew`` (:meth:`withdraw`) or ``cancelled`` (:meth:`cancel`)."""
        notice = await self.owed_notice(t, kind, payload)
        if notice is not None:
            return t.channel_id, notice.text()
        rnd = int(payload["round"])
        rt = next((x for x in await self.round_tables(t.id, rnd) if x.table_no == int(payload["table"])), None)
        if rt is None or rt.thread_id is None:
            return None
        humans = " ".join(f"<@{uid}>" for uid in rt.seats if uid is not None)
        text = _(
            "**{title}** — round {round}, table {table}: {players}. Good luck!",
            title=t.display_title(),
            round=rt.round,
            table=rt.table_no,
            players=humans,
        )
        return rt.thread_id, text

    async def _open_table(self, t: Tournament, rt: RoundTable) -> None:
        """Open (or finish opening) one table of the draw. Each step is persisted before the next."""
        players = {p.user_id: p for p in await self.players(t.id)}
        if rt.table_id is not None and rt.table_id not in self.tables.tables:
            await self._sync_closed_table(t, rt)
            return
        names = [players[u].name if u is not None and u in players else "🤖 Computer" for u in rt.seats]
        if rt.thread_id is None:
            if self.channel_factory is None:
                # (the Discord side sets the factory when it loads: until then there is nowhere to open a table)
                raise TournamentError(
                    N_("Tournament tables cannot open yet: Tavolo is still starting; try again in a moment.")
                )
            rt.thread_id = await self.channel_factory(t, rt, names)
            await self._save_rt(rt, "thread_id", rt.thread_id)
        if rt.table_id is None:
            host = players.get(t.host_id)
            table = await self.tables.create(
                guild_id=t.guild_id,
                channel_id=rt.thread_id,
                game_id=t.game,
                host_id=t.host_id,
                host_name=host.name if host else "host",
                options=table_options(t, len(rt.seats)),
                turn_timeout=t.turn_timeout,
                tournament_id=t.id,
                seat_host=False,
                open_records=bool(t.options.get(OPEN_RECORDS)),
            )
            rt.table_id = table.id
            await self._save_rt(rt, "table_id", table.id)
        table = self.tables.get(rt.table_id)
        if table.status == "lobby":
            # Seats are appended in draw order, so a resumed table continues where it stopped.
            for uid in rt.seats[len(table.seats) :]:
                if uid is None:
                    await self.tables.add_computer(rt.table_id, table.host_id)
                else:
                    await self.tables.join(rt.table_id, uid, players[uid].name if uid in players else str(uid))
            await self.tables.start(rt.table_id, None)
            # A player who withdrew between the draw and now is handed to the computer straight away.
            for uid in rt.seats:
                if uid is not None and uid in players and players[uid].status == "withdrawn":
                    await self.tables.leave(rt.table_id, uid)
        if rt.status == "pending":
            rt.status = "running"
            async with self.db.transaction() as conn:
                await conn.execute(
                    "UPDATE tournament_tables SET status = 'running' WHERE tournament_id = ? AND round = ?"
                    " AND table_no = ? AND status = 'pending'",
                    (rt.tournament_id, rt.round, rt.table_no),
                )

    async def _save_rt(self, rt: RoundTable, column: str, value: int) -> None:
        assert column in ("thread_id", "table_id")
        async with self.db.transaction() as conn:
            await conn.execute(
                f"UPDATE tournament_tables SET {column} = ? WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (value, rt.tournament_id, rt.round, rt.table_no),
            )

    async def _sync_closed_table(self, t: Tournament, rt: RoundTable) -> None:
        """The table service no longer holds the table: read how it ended from the database."""
        stored = await self.tables.table_status(rt.table_id)
        status = "finished" if stored is None or stored == "finished" else "cancelled"
        if stored in ("lobby", "running"):
            return  # still open (not loaded yet); nothing to do
        await self._set_rt_status(rt, status)

    async def _set_rt_status(self, rt: RoundTable, status: str) -> None:
        rt.status = status
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE tournament_tables SET status = ? WHERE tournament_id = ? AND round = ? AND table_no = ?",
                (status, rt.tournament_id, rt.round, rt.table_no),
            )

    async def _maybe_advance(self, t: Tournament) -> None:
        """If every table of the current round is closed, start the next round or finish. Caller holds the lock."""
        if t.status != "running":
            return
        tables = await self.round_tables(t.id, t.current_round)
        for rt in tables:
            if rt.status == "running" and rt.table_id is not None and rt.table_id not in self.tables.tables:
                await self._sync_closed_table(t, rt)
        if any(rt.status in ("pending", "running") for rt in tables):
            return
        if t.current_round < t.rounds:
            await self._start_round(t, t.current_round + 1)
        else:
            await self._finish(t)

    async def _finish(self, t: Tournament) -> None:
        t.status = "finished"
        async with self.db.transaction() as conn:
            await self._save(t, conn)
            # the podium is owed with the end (delivered by the cog; after a restart see owing_ended)
            await self.outbox.add(
                conn, f"T{t.id}:podium", "podium", guild_id=t.guild_id, tournament_id=t.id, channel_id=t.channel_id
            )
        await self._notify(TournamentUpdate(t, "finished"))
        self.tournaments.pop(t.id, None)

    # ------------------------------------------------------------------ table events
    async def _on_table(self, u: TableUpdate) -> None:
        tid = u.table.tournament_id
        if tid is None or tid not in self.tournaments:
            return
        t = self.tournaments[tid]
        if u.kind == "seats":
            away = [s.user_id for s in u.table.seats if s.away and s.user_id is not None]
            if away:
                async with self.db.transaction() as conn:
                    for uid in away:
                        # A withdrawn player's seat is computer-played by design: flagged "withdrawn", not AFK.
                        await conn.execute(
                            "INSERT OR IGNORE INTO tournament_flags (tournament_id, user_id, round, flag)"
                            " SELECT ?, ?, ?, 'afk' WHERE NOT EXISTS (SELECT 1 FROM tournament_players"
                            " WHERE tournament_id = ? AND user_id = ? AND status = 'withdrawn')",
                            (tid, uid, t.current_round, tid, uid),
                        )
        if u.settlements or u.kind == "seats":
            await self._notify(TournamentUpdate(t, "standings"))
        if u.kind in ("finished", "cancelled"):
            self._spawn(self._table_closed(tid, u.table.id, u.kind), f"tournament-{tid}-table-{u.table.id}")

    async def _table_closed(self, tid: int, table_id: int, kind: str) -> None:
        async with self.lock(tid):
            t = self.tournaments.get(tid)
            if t is None or t.status != "running":
                return
            for rt in await self.round_tables(tid, t.current_round):
                if rt.table_id == table_id and rt.status in ("pending", "running"):
                    await self._set_rt_status(rt, "finished" if kind == "finished" else "cancelled")
                    await self._notify(TournamentUpdate(t, "table", tables=[rt]))
            try:
                await self._maybe_advance(t)
            except Exception:
                log.exception("tournament %s could not open the next round", tid)

    # ------------------------------------------------------------------ standings
    async def standings(self, tid: int) -> list[Standing]:
        """Every player who signed up, ranked (see ``RULES_TEXT`` for the order)."""
        row = await self.db.fetchone("SELECT game, guild_id FROM tournaments WHERE id = ?", (tid,))
        if row is None:
            raise TournamentError(N_("No such tournament."))
        game, guild_id = str(row[0]), int(row[1])
        primary = registry.currency(game)
        secondary = "stake" if primary != "stake" else None
        out = {
            p.user_id: Standing(p.user_id, p.name, joined_seq=p.joined_seq, withdrawn=p.status == "withdrawn")
            for p in await self.players(tid)
        }
        table_ids = [
            int(r[0])
            for r in await self.db.fetchall(
                "SELECT table_id FROM tournament_tables WHERE tournament_id = ? AND table_id IS NOT NULL", (tid,)
            )
        ]
        # Per table and seat, every currency: table wins need the computers' results too.
        rows = await self.tables.ledger.table_totals(guild_id, table_ids)
        flags = await self.db.fetchall(
            "SELECT DISTINCT user_id, flag FROM tournament_flags WHERE tournament_id = ?", (tid,)
        )
        per_table: dict[int, dict[int, tuple[int, int]]] = {}  # table -> seat -> (user, main total)
        for r in rows:
            uid = 0 if r.is_bot else r.user_id
            if r.currency == primary:
                per_table.setdefault(r.table_id, {})[r.seat] = (uid, r.amount)
            st = out.get(uid)
            if st is None:
                continue
            st.totals[r.currency] = st.totals.get(r.currency, 0) + r.amount
            if r.currency == primary:
                st.hands_won += r.wins
        for seats in per_table.values():
            best = max(v for _, v in seats.values())
            for uid, value in seats.values():
                if uid in out:
                    out[uid].tables += 1
                    if value == best:
                        out[uid].tables_won += 1
        for _round, uid in await self.byes(tid):
            if uid in out:
                out[uid].byes += 1
        for uid, flag in flags:
            if uid in out and flag == "afk":
                out[uid].afk = True
        for st in out.values():
            st.score = st.totals.get(primary, 0)
        ranked = sorted(out.values(), key=lambda s: s.key(secondary))
        prev: tuple[int, ...] | None = None
        for i, st in enumerate(ranked, start=1):
            k = st.key(secondary)[:-1]  # sign-up order orders the list but does not split a tie in rank
            st.rank = i if k != prev else ranked[i - 2].rank
            prev = k
        return ranked

    # ------------------------------------------------------------------ persistence
    async def _save(self, t: Tournament, conn: Any = None) -> None:
        sql = (
            "UPDATE tournaments SET status = ?, current_round = ?, messages_json = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?"
        )
        args = (t.status, t.current_round, json.dumps(t.messages), t.id)
        if conn is not None:
            await conn.execute(sql, args)
            return
        async with self.db.transaction() as c:
            await c.execute(sql, args)

    async def latest(self, channel_id: int) -> Tournament | None:
        """The channel's open tournament, else the last one it held (for standings after the end)."""
        t = self.in_channel(channel_id)
        if t is not None:
            return t
        rows = await self._select("WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        return rows[0] if rows else None

    async def _select(self, where: str, params: tuple[Any, ...] = ()) -> list[Tournament]:
        rows = await self.db.fetchall(
            "SELECT id, guild_id, channel_id, host_id, game, rounds, hands_per_round, options_json, fill,"
            " turn_timeout, seed, status, current_round, messages_json FROM tournaments " + where,
            params,
        )
        out = []
        for r in rows:
            opts, msgs = json.loads(r[7]), json.loads(r[13])
            t = Tournament(r[0], r[1], r[2], r[3], r[4], r[5], r[6], opts, r[8], r[9], r[10], r[11], r[12], msgs)
            out.append(t)
        return out

    async def load(self) -> list[Tournament]:
        """Restore open tournaments (after ``TableService.load``) and resume running ones in the background."""
        restored = []
        shard_sql, shard_params = self.db.shard_condition()  # only the guilds of this process's shards
        for t in await self._select(f"WHERE status IN ('signup', 'running'){shard_sql} ORDER BY id", shard_params):
            self.tournaments[t.id] = t
            restored.append(t)
            if t.status == "running":
                self._spawn(self._resume(t), f"tournament-{t.id}-resume")
        return restored

    async def owing_ended(self) -> list[Tournament]:
        """Ended tournaments (finished or cancelled, of this process's shards) that still owe a message never
        confirmed sent: the final podium, a notice."""
        shard_sql, shard_params = self.db.shard_condition()
        return await self._select(
            "WHERE status IN ('finished', 'cancelled') AND id IN (SELECT tournament_id FROM outbox"
            f" WHERE state = 'pending'){shard_sql} ORDER BY id",
            shard_params,
        )

    async def _resume(self, t: Tournament) -> None:
        async with self.lock(t.id):
            try:
                if t.current_round == 0:
                    await self._start_round(t, 1)
                    return
                for rt in await self.round_tables(t.id, t.current_round):
                    if rt.status == "pending" or (
                        rt.status == "running"
                        and rt.table_id is not None
                        and rt.table_id in self.tables.tables
                        and self.tables.tables[rt.table_id].status == "lobby"
                    ):
                        await self._open_table(t, rt)
                await self._maybe_advance(t)
            except Exception:
                log.exception("tournament %s could not be resumed", t.id)
        # whatever the previous run still owed (a round drawn but not announced) can go out now
        await self._notify(TournamentUpdate(t, "resumed"))

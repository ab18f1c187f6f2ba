"""OpenSkill ratings (Plackett-Luce) per guild and game, derived from the ledger, and player profiles.

Why derived: the ledger is the record; ratings are a cache over its settlements, read through
:class:`~bot.ledger.Ledger` (this module owns only the ``ratings`` and ``rating_applied`` tables).
:meth:`Ratings.sync` folds in every settlement not yet applied, strictly in settlement id order (ids follow
commit order: SQLite has one writer; on PostgreSQL each settlement insert holds one lock until its commit, and
syncs of several processes take turns), and records each one in ``rating_applied`` in the same
transaction as the rating change, so retries and concurrent callers can never apply a settlement twice.
:meth:`Ratings.rebuild` forgets a guild's ratings and replays its settlements, which yields exactly the same
numbers.

Who is a "team" in a settlement:

* A game with sides says so in its spec (``GameSpec.rating_sides``): e.g. Mediatore's bidder side or Mighty's
  declarer and friend against the defenders (the side that made its contract ranked first), Minchiate's
  partnerships ranked by ``net_A``.
* Otherwise (e.g. Wizard), any summary with ``ranks``: every seat alone, ranked by ``ranks``.
* Anything else: every seat alone, ranked by its amount in the first of stake/resto/point it has.

Computer players share one pooled rating per guild and game (``user_id = 0``); leaderboards omit it.
Ratings are not seasonal: a season close resets balances, not skill.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiosqlite
from openskill.models import PlackettLuce

from bot.games import registry
from bot.ledger import Ledger, SettlementRow
from bot.storage.db import LOCK_RATINGS, Database

__all__ = ["GameStats", "Profile", "RatingRow", "Ratings", "outcome"]

COMPUTER = 0
BATCH = 500


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    user_id: int  # 0 for a computer
    amounts: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class RatingRow:
    user_id: int
    name: str | None
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int


@dataclass(slots=True)
class GameStats:
    """One game in a profile. ``contracts`` maps a contract (Mighty: the bid; Mediatore: the contract) to
    ``(made, declared)`` for hands this player declared; Wizard has ``exact_bids`` / ``rounds``."""

    game: str
    games: int = 0
    wins: int = 0
    total: int = 0
    currency: str = "stake"
    rating: RatingRow | None = None
    contracts: dict[str, tuple[int, int]] = field(default_factory=dict)
    exact_bids: int = 0
    rounds: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def bid_accuracy(self) -> float:
        return self.exact_bids / self.rounds if self.rounds else 0.0


@dataclass(slots=True)
class Profile:
    guild_id: int
    user_id: int
    games: dict[str, GameStats] = field(default_factory=dict)

    @property
    def played(self) -> int:
        return sum(g.games for g in self.games.values())


Outcome = tuple[list[list[int]], list[int]]


def outcome(game: str, summary: Mapping[str, Any], seats: Sequence[SeatResult]) -> Outcome | None:
    """The teams (lists of seat numbers) and their 1-based ranks for one settlement, or ``None`` when the
    settlement says nothing about who played better (e.g. a hand nobody bid)."""
    n = len(seats)
    everyone = list(range(n))
    sides = registry.get(game).rating_sides if registry.exists(game) else None
    decided = sides(summary, n) if sides is not None else None
    if decided is not None:
        return decided if decided[0] else None
    ranks = summary.get("ranks")
    if isinstance(ranks, list) and len(ranks) == n and all(isinstance(r, int) for r in ranks):
        return [[s] for s in everyone], list(ranks)
    for cur in ("stake", "resto", "point"):
        if all(cur in s.amounts for s in seats):
            values = [s.amounts[cur] for s in seats]
            if len(set(values)) == 1:
                return None  # everybody equal: no information
            return [[s] for s in everyone], [1 + sum(1 for o in values if o > v) for v in values]
    return None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Ratings:
    """Ratings service (see the module docstring)."""

    def __init__(self, db: Database, *, model: PlackettLuce | None = None, ledger: Ledger | None = None) -> None:
        if ledger is not None and ledger.db is not db:
            # The fold reads the ledger inside its own write transaction: one database, one connection.
            raise ValueError("the ledger must use the same database as the ratings")
        self.db = db
        self.ledger = ledger or Ledger(db)
        self.model = model or PlackettLuce()
        self._lock = asyncio.Lock()  # one sync at a time in this process (the DB guards across processes)

    # -- applying --------------------------------------------------------------------------------------
    async def sync(self) -> int:
        """Apply every settlement not applied yet; returns how many were newly applied."""
        applied = 0
        async with self._lock:
            while True:
                async with self.db.transaction() as conn:
                    # Other processes (shards) sync too: one at a time, or both would apply the same settlements.
                    await self.db.lock_across_processes(conn, LOCK_RATINGS)
                    cursor = await self._cursor(conn)
                    # Read inside the transaction (the ledger reuses its connection): the cursor and the
                    # batch it selects cannot move under us.
                    rows = await self.ledger.settlements_after(cursor, BATCH)
                    await self._apply_batch(conn, rows)
                applied += len(rows)
                if len(rows) < BATCH:
                    return applied

    async def rebuild(self, guild_id: int) -> int:
        """Forget the guild's ratings and replay all its settlements (same result as the live updates)."""
        async with self._lock, self.db.transaction() as conn:
            await self.db.lock_across_processes(conn, LOCK_RATINGS)
            # The cursor is read before deleting: other guilds' applied settlements stay applied, and this
            # guild's settlements up to it are replayed here (later ones are left to sync()).
            cursor = await self._cursor(conn)
            await conn.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            await conn.execute("DELETE FROM rating_applied WHERE guild_id = ?", (guild_id,))
            rows = await self.ledger.settlements_of_guild(guild_id, cursor)
            for i in range(0, len(rows), BATCH):
                await self._apply_batch(conn, rows[i : i + BATCH])
        return len(rows) + await self.sync()

    @staticmethod
    async def _cursor(conn: aiosqlite.Connection) -> int:
        rows = list(await conn.execute_fetchall("SELECT COALESCE(MAX(settlement_id), 0) FROM rating_applied"))
        return int(rows[0][0])

    async def _apply_batch(self, conn: aiosqlite.Connection, settlements: Sequence[SettlementRow]) -> None:
        """Fold settlements in, in order. A few queries per batch, not per settlement: the batch's entries in
        one read, the ratings it touches in one read per (guild, game), the results in two ``executemany``."""
        if not settlements:
            return
        by_settlement: dict[int, dict[int, tuple[int, dict[str, int]]]] = {}
        for e in await self.ledger.entries_of(st.id for st in settlements):
            seats_of = by_settlement.setdefault(e.settlement_id, {})
            seats_of.setdefault(e.seat, (e.user_id, {}))[1][e.currency] = e.amount
        # Current ratings of everyone the batch touches: {(guild, game, user): [mu, sigma, games, wins]}.
        wanted: dict[tuple[int, str], set[int]] = {}
        for st in settlements:
            users = {u for u, _ in by_settlement.get(st.id, {}).values()}
            wanted.setdefault((st.guild_id, st.game), set()).update(users)
        state: dict[tuple[int, str, int], list[float]] = {}
        for (guild_id, game), users in wanted.items():
            ulist = sorted(users)
            for i in range(0, len(ulist), 500):  # SQLite's variable limit
                part = ulist[i : i + 500]
                marks = ",".join("?" * len(part))
                for uid, mu, sigma, games, wins in await conn.execute_fetchall(
                    "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND game = ?"
                    f" AND user_id IN ({marks})",
                    (guild_id, game, *part),
                ):
                    state[guild_id, game, int(uid)] = [float(mu), float(sigma), int(games), int(wins)]
        changed: set[tuple[int, str, int]] = set()
        applied_rows = []
        for st in settlements:
            seats_of = by_settlement.get(st.id, {})
            seats = [SeatResult(s, seats_of[s][0], seats_of[s][1]) for s in sorted(seats_of)]
            result = outcome(st.game, st.summary, seats) if seats else None
            status = self._rate(state, changed, st.guild_id, st.game, seats, result)
            applied_rows.append((st.id, st.guild_id, status))
        now = _now()
        await conn.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, ordinal, games, wins, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games,"
            " wins = excluded.wins, updated_at = excluded.updated_at",
            [
                (g, game, uid, v[0], v[1], v[0] - 3 * v[1], int(v[2]), int(v[3]), now)
                for (g, game, uid) in sorted(changed)
                for v in [state[g, game, uid]]
            ],
        )
        await conn.executemany(
            "INSERT INTO rating_applied (settlement_id, guild_id, outcome) VALUES (?, ?, ?)", applied_rows
        )

    def _rate(
        self,
        state: dict[tuple[int, str, int], list[float]],
        changed: set[tuple[int, str, int]],
        guild_id: int,
        game: str,
        seats: Sequence[SeatResult],
        result: Outcome | None,
    ) -> str:
        if result is None or not seats or [s.seat for s in seats] != list(range(len(seats))):
            return "skipped: no outcome"
        humans = [s.user_id for s in seats if s.user_id != COMPUTER]
        if len(set(humans)) != len(humans):
            return "skipped: a player held two seats"
        if not humans:
            return "skipped: computers only"
        teams, ranks = result
        model = self.model

        def rating_of(uid: int) -> Any:
            cur = state.get((guild_id, game, uid))
            return model.rating(mu=cur[0], sigma=cur[1]) if cur else model.rating()

        new = model.rate(
            [[rating_of(seats[s].user_id) for s in team] for team in teams], ranks=[float(r) for r in ranks]
        )
        best = min(ranks)
        done: set[int] = set()
        for team, new_team, rank in zip(teams, new, ranks, strict=True):
            for s, r in zip(team, new_team, strict=True):
                uid = seats[s].user_id
                # The pooled computer rating takes the first computer seat's update only: several computer
                # seats in one hand are one "player" that must not move several times.
                if uid in done:
                    continue
                done.add(uid)
                key = (guild_id, game, uid)
                games, wins = state.get(key, [0, 0, 0, 0])[2:]
                state[key] = [float(r.mu), float(r.sigma), games + 1, wins + (1 if rank == best else 0)]
                changed.add(key)
        return "rated"

    # -- reading ---------------------------------------------------------------------------------------
    async def get(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        row = await self.db.fetchone(
            "SELECT user_id, mu, sigma, ordinal, games, wins FROM ratings WHERE guild_id = ? AND game = ?"
            " AND user_id = ?",
            (guild_id, game, user_id),
        )
        if row is None:
            return None
        return RatingRow(int(row[0]), None, float(row[1]), float(row[2]), float(row[3]), int(row[4]), int(row[5]))

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[RatingRow]:
        """Humans of the guild by rating ordinal (mu - 3 sigma), best first."""
        limit = max(1, min(int(limit), 100))
        rows = await self.db.fetchall(
            "SELECT user_id, mu, sigma, ordinal, games, wins FROM ratings"
            " WHERE guild_id = ? AND game = ? AND user_id <> 0 ORDER BY ordinal DESC, user_id LIMIT ?",
            (guild_id, game, limit),
        )
        # Names after the reader is released: on :memory: a reader holds the lock the ledger's would need.
        out = []
        for r in rows:
            name = await self.ledger.player_name(guild_id, int(r[0]))
            out.append(RatingRow(int(r[0]), name, float(r[1]), float(r[2]), float(r[3]), int(r[4]), int(r[5])))
        return out

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        """Career statistics of a user in a guild (all seasons): per game the settlements played and won
        in the game's main currency, its total, the rating, and contract / bid statistics."""
        prof = Profile(guild_id, user_id)
        for spec in registry.specs():
            game, currency = spec.id, spec.currency
            totals = await self.ledger.game_totals(guild_id, user_id, game, currency)
            if not totals.games:
                continue
            stats = GameStats(game, totals.games, totals.wins, totals.total, currency)
            prof.games[game] = stats
            # Declared contracts: the user's seat is the declarer (Mighty) / bidder (Mediatore).
            paths = spec.profile.contract_paths
            if paths is not None:
                for c in await self.ledger.contract_stats(guild_id, user_id, game, currency, *paths):
                    stats.contracts[c.contract] = (c.made, c.declared)
            if spec.profile.bid_accuracy:
                acc = await self.ledger.bid_accuracy(guild_id, user_id, game, currency)
                stats.exact_bids, stats.rounds = acc.exact_bids, acc.rounds
        for game, stats in prof.games.items():
            stats.rating = await self.get(guild_id, game, user_id)
        return prof

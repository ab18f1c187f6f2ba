"""A season's records, computed from its ledger rows: pure functions (no I/O) plus one read of the season's rows.

:func:`records` takes the season's human settlement entries (:class:`RecapEntry`, in booking order) and finds:
the biggest single-hand win, the longest winning streak, the most contracts made, the best Wizard-style bid
accuracy, the most-played game and the closest finish (the table won by the smallest margin). Each record
names its holder and the numbers behind it; wording is the caller's (``cogs/seasons.py``), in the server's
language. Ties go to the earlier achievement, then the smaller user id, so a recap never changes on re-reading.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from .service import Ledger

__all__ = [
    "MIN_ROUNDS",
    "Accuracy",
    "BigWin",
    "Closest",
    "Contracts",
    "MostPlayed",
    "RecapEntry",
    "Records",
    "Streak",
    "json_path",
    "records",
    "season_entries",
]

#: rounds a player needs in a season for their bid accuracy to count (one lucky round is not a record)
MIN_ROUNDS = 10


@dataclass(frozen=True, slots=True)
class RecapEntry:
    """One human entry of a settlement (adjustments and computers are not part of records)."""

    settlement_id: int
    game: str
    table_id: int | str | None
    created_at: datetime
    user_id: int
    name: str
    seat: int
    currency: str
    amount: int
    played: bool
    won: bool
    summary: Mapping[str, Any]
    #: the hand a settlement booked, ``None`` for a whole game's (the unit a recap counts it in)
    hand_index: int | None = None


@dataclass(frozen=True, slots=True)
class BigWin:
    user_id: int
    name: str
    amount: int
    currency: str
    game: str
    when: datetime


@dataclass(frozen=True, slots=True)
class Streak:
    user_id: int
    name: str
    length: int
    game: str


@dataclass(frozen=True, slots=True)
class Contracts:
    user_id: int
    name: str
    made: int
    declared: int


@dataclass(frozen=True, slots=True)
class Accuracy:
    user_id: int
    name: str
    exact: int
    rounds: int


@dataclass(frozen=True, slots=True)
class MostPlayed:
    game: str
    settlements: int
    #: how many of them settled one hand (the others settled a whole game)
    hands: int = 0

    @property
    def games(self) -> int:
        return self.settlements - self.hands


@dataclass(frozen=True, slots=True)
class Closest:
    """The table won by the smallest margin: its winner and runner-up with their totals in ``currency``."""

    game: str
    table_id: int | str | None
    winner: str
    runner_up: str
    margin: int
    currency: str


@dataclass(frozen=True, slots=True)
class Records:
    big_win: BigWin | None = None
    streak: Streak | None = None
    contracts: Contracts | None = None
    accuracy: Accuracy | None = None
    most_played: MostPlayed | None = None
    closest: Closest | None = None


_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def json_path(doc: Any, path: str) -> Any:
    """``$.a.b[2]`` in ``doc`` (the subset of JSON paths the game specs use); ``None`` when absent."""
    if not path.startswith("$"):
        raise ValueError(f"not a JSON path: {path!r}")
    rest = path[1:]
    pos = 0
    while pos < len(rest):
        m = _PATH_PART.match(rest, pos)
        if m is None:
            raise ValueError(f"unsupported JSON path: {path!r}")
        key, index = m.groups()
        if key is not None:
            doc = doc.get(key) if isinstance(doc, Mapping) else None
        else:
            i = int(index)
            doc = doc[i] if isinstance(doc, list) and i < len(doc) else None
        if doc is None:
            return None
        pos = m.end()
    return doc


def _per_settlement(entries: Sequence[RecapEntry], currency_of: Mapping[str, str]) -> list[list[RecapEntry]]:
    """Entries of each settlement in the game's main currency, in booking order."""
    out: dict[int, list[RecapEntry]] = {}
    for e in entries:
        if e.currency == currency_of.get(e.game, "stake"):
            out.setdefault(e.settlement_id, []).append(e)
    return [out[k] for k in sorted(out)]


def big_win(entries: Iterable[RecapEntry]) -> BigWin | None:
    """The largest amount one player won in one settlement, in stakes (a seat's amounts summed per player)."""
    sums: dict[tuple[int, int], int] = {}
    first: dict[tuple[int, int], RecapEntry] = {}
    for e in entries:
        if e.currency != "stake":
            continue
        k = (e.settlement_id, e.user_id)
        sums[k] = sums.get(k, 0) + e.amount
        first.setdefault(k, e)
    best = max(((v, -k[0], -k[1]) for k, v in sums.items() if v > 0), default=None)
    if best is None:
        return None
    e = first[(-best[1], -best[2])]
    return BigWin(e.user_id, e.name, best[0], "stake", e.game, e.created_at)


def longest_streak(entries: Sequence[RecapEntry], currency_of: Mapping[str, str]) -> Streak | None:
    """The most settlements in a row a player won, counting only the ones they played (in booking order)."""
    run: dict[int, int] = {}
    best: tuple[int, int, int] | None = None  # (length, -settlement where it ended, -user)
    names: dict[int, str] = {}
    game_at: dict[int, str] = {}
    for group in _per_settlement(entries, currency_of):
        for e in group:
            if not e.played:
                continue
            names[e.user_id] = e.name
            run[e.user_id] = run.get(e.user_id, 0) + 1 if e.won else 0
            if e.won:
                game_at[e.user_id] = e.game
                cand = (run[e.user_id], -e.settlement_id, -e.user_id)
                # strictly longer only: a tie keeps the streak that got there first
                if best is None or cand[0] > best[0]:
                    best = cand
    if best is None:
        return None
    uid = -best[2]
    return Streak(uid, names[uid], best[0], game_at[uid])


def most_contracts(entries: Iterable[RecapEntry], contract_paths: Mapping[str, tuple[str, str]]) -> Contracts | None:
    """Who made the most contracts they declared (the declaring seat is read from the summary)."""
    made: dict[int, int] = {}
    declared: dict[int, int] = {}
    names: dict[int, str] = {}
    seen: set[tuple[int, int]] = set()
    for e in entries:
        paths = contract_paths.get(e.game)
        if paths is None or (e.settlement_id, e.seat) in seen:
            continue
        seen.add((e.settlement_id, e.seat))
        if json_path(e.summary, paths[0]) != e.seat:
            continue
        names[e.user_id] = e.name
        declared[e.user_id] = declared.get(e.user_id, 0) + 1
        made[e.user_id] = made.get(e.user_id, 0) + (1 if e.summary.get("made") else 0)
    best = max(((made[u], -declared[u], -u) for u in declared if made[u] > 0), default=None)
    if best is None:
        return None
    uid = -best[2]
    return Contracts(uid, names[uid], made[uid], declared[uid])


def best_accuracy(
    entries: Iterable[RecapEntry], bid_games: Iterable[str], min_rounds: int = MIN_ROUNDS
) -> Accuracy | None:
    """The best share of exact bids over at least ``min_rounds`` rounds (summaries with ``exact_bids`` per seat
    and ``rounds``)."""
    games = set(bid_games)
    exact: dict[int, int] = {}
    rounds: dict[int, int] = {}
    names: dict[int, str] = {}
    seen: set[tuple[int, int]] = set()
    for e in entries:
        if e.game not in games or (e.settlement_id, e.seat) in seen:
            continue
        seen.add((e.settlement_id, e.seat))
        bids = e.summary.get("exact_bids")
        n = e.summary.get("rounds")
        if not isinstance(bids, list) or e.seat >= len(bids) or not isinstance(n, int):
            continue
        names[e.user_id] = e.name
        exact[e.user_id] = exact.get(e.user_id, 0) + int(bids[e.seat])
        rounds[e.user_id] = rounds.get(e.user_id, 0) + n
    # compare exact/rounds as fractions (no float ties): more rounds wins a tie, then the smaller id
    ok = [u for u in rounds if rounds[u] >= min_rounds]
    if not ok:
        return None
    uid = max(ok, key=lambda u: (Fraction(exact[u], rounds[u]), rounds[u], -u))
    return Accuracy(uid, names[uid], exact[uid], rounds[uid])


def most_played(entries: Iterable[RecapEntry]) -> MostPlayed | None:
    counts: dict[str, set[int]] = {}
    hands: dict[str, set[int]] = {}
    for e in entries:
        counts.setdefault(e.game, set()).add(e.settlement_id)
        if e.hand_index is not None:
            hands.setdefault(e.game, set()).add(e.settlement_id)
    if not counts:
        return None
    game = max(counts, key=lambda g: (len(counts[g]), -min(counts[g])))
    return MostPlayed(game, len(counts[game]), len(hands.get(game, ())))


def closest_finish(entries: Sequence[RecapEntry], currency_of: Mapping[str, str]) -> Closest | None:
    """The table (of two or more players) whose winner finished the least ahead of the runner-up."""
    tables: dict[tuple[str, Any], dict[int, int]] = {}
    names: dict[int, str] = {}
    order: dict[tuple[str, Any], int] = {}
    for group in _per_settlement(entries, currency_of):
        for e in group:
            if e.table_id is None:
                continue
            k = (e.game, e.table_id)
            order.setdefault(k, e.settlement_id)
            names[e.user_id] = e.name
            totals = tables.setdefault(k, {})
            totals[e.user_id] = totals.get(e.user_id, 0) + e.amount
    best: tuple[int, int, tuple[str, Any], int, int] | None = None
    for k, totals in tables.items():
        if len(totals) < 2:
            continue
        ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
        (w, wt), (r, rt) = ranked[0], ranked[1]
        margin = wt - rt
        if margin <= 0:
            continue  # a shared first place is no finish to name
        cand = (margin, order[k], k, w, r)
        if best is None or cand[:2] < best[:2]:
            best = cand
    if best is None:
        return None
    margin, _, (game, table), w, r = best
    return Closest(game, table, names[w], names[r], margin, currency_of.get(game, "stake"))


def records(
    entries: Sequence[RecapEntry],
    *,
    currency_of: Mapping[str, str],
    contract_paths: Mapping[str, tuple[str, str]],
    bid_games: Iterable[str],
) -> Records:
    """Every record of a season. ``currency_of``: each game's main currency; ``contract_paths``: per game with
    contracts, the JSON paths of (declaring seat, contract); ``bid_games``: games whose summaries count exact bids."""
    return Records(
        big_win=big_win(entries),
        streak=longest_streak(entries, currency_of),
        contracts=most_contracts(entries, contract_paths),
        accuracy=best_accuracy(entries, bid_games),
        most_played=most_played(entries),
        closest=closest_finish(entries, currency_of),
    )


async def season_entries(ledger: Ledger, guild_id: int, season_number: int) -> list[RecapEntry]:
    """The season's human settlement entries in booking order. A recap runs once per season close (or on
    demand), so it reads the season's rows once (the guild's settlements by index, their entries by
    ``entries_settlement``) rather than keeping aggregates for every record."""
    async with ledger.db.reader() as conn:
        season_ids = await ledger._season_ids(conn, guild_id, season_number)
        if not season_ids:
            return []
        rows = await conn.execute_fetchall(
            "SELECT e.settlement_id, s.game, s.table_id, s.created_at, e.user_id, e.player_name, e.seat, e.currency,"
            " e.amount, e.played, e.won, s.summary_json, s.hand_index"
            " FROM entries e JOIN settlements s ON s.id = e.settlement_id"
            " WHERE s.guild_id = ? AND s.season_id = ? AND e.is_bot = 0 ORDER BY e.settlement_id, e.seat, e.id",
            (guild_id, season_ids[0]),
        )
    summaries: dict[int, Mapping[str, Any]] = {}
    out = []
    for sid, game, table, created, uid, name, seat, cur, amount, played, won, summary, hand in rows:
        if sid not in summaries:
            summaries[sid] = json.loads(summary)
        out.append(
            RecapEntry(
                int(sid),
                str(game),
                table,
                datetime.fromisoformat(created),
                int(uid),
                str(name or uid),
                int(seat if seat is not None else 0),
                str(cur),
                int(amount),
                bool(played),
                bool(won),
                summaries[sid],
                int(hand) if hand is not None else None,
            )
        )
    return out

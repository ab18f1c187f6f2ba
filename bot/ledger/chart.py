"""Running balances over time for ``/ledger chart``: read from the hourly aggregate, never from the entries.

``ledger_hours`` (migration 011) holds each human player's sum per guild, currency, season, game and UTC hour,
kept by a trigger in the same transaction as the entries. A chart reads those rows through the primary key
(O(hours played) per player, whatever the ledger's length), adds them up in order and, for drawing, keeps at
most :data:`MAX_POINTS` points per player (:func:`downsample`: the last balance of each time bucket, so the
final balance is always exact). The picture and the text beside it are both built from one :class:`ChartData`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .models import SeasonSpec
from .service import Ledger

__all__ = [
    "FORM_LENGTH",
    "MAX_POINTS",
    "MAX_SERIES",
    "ChartData",
    "Series",
    "downsample",
    "load_chart",
    "recent_form",
    "running",
]

#: points drawn per player: more would not show on a 1000-pixel-wide picture
MAX_POINTS = 400
#: players in one chart (the viewer and the top of the server)
MAX_SERIES = 6


@dataclass(frozen=True, slots=True)
class Series:
    """One player's running balance: ``points`` are ``(time, balance after that time)``, oldest first;
    ``final`` is the balance at the end (equal to the last point's), ``hands`` the entries summed."""

    user_id: int
    name: str
    points: tuple[tuple[datetime, int], ...]
    final: int
    entries: int


@dataclass(frozen=True, slots=True)
class ChartData:
    """What a chart shows, for the picture and the text alike."""

    guild_id: int
    currency: str
    game: str | None
    season: SeasonSpec
    series: tuple[Series, ...]

    @property
    def empty(self) -> bool:
        return not any(s.points for s in self.series)

    def key(self) -> tuple[Any, ...]:
        """The content of the picture (cache key): everything drawn, nothing else."""
        return (
            self.currency,
            self.game,
            self.season,
            tuple((s.user_id, s.name, s.final, tuple((t.isoformat(), v) for t, v in s.points)) for s in self.series),
        )


def _hour_time(bucket: str) -> datetime:
    """The start of a bucket ``'YYYY-MM-DDTHH'``, ``'YYYY-MM-DD'`` or ``'YYYY-MM'`` (UTC)."""
    if len(bucket) == 7:
        bucket += "-01"
    if len(bucket) == 10:
        bucket += "T00"
    return datetime.fromisoformat(bucket + ":00:00").replace(tzinfo=UTC)


def running(rows: Sequence[tuple[str, int]]) -> list[tuple[datetime, int]]:
    """``(bucket, sum)`` rows in time order as running balances ``(time, balance)``."""
    out: list[tuple[datetime, int]] = []
    balance = 0
    for hour, total in rows:
        balance += int(total)
        out.append((_hour_time(hour), balance))
    return out


def downsample(points: Sequence[tuple[datetime, int]], limit: int = MAX_POINTS) -> list[tuple[datetime, int]]:
    """At most ``limit`` points: the time range cut into ``limit - 1`` equal buckets, the last point of each kept
    (plus the first point), so the curve's shape and its final balance stay exact."""
    if len(points) <= limit:
        return list(points)
    first, last = points[0][0].timestamp(), points[-1][0].timestamp()
    span = (last - first) or 1.0
    buckets = limit - 1
    kept: list[tuple[datetime, int]] = [points[0]]
    current = -1
    for p in points[1:]:
        b = min(buckets - 1, int((p[0].timestamp() - first) / span * buckets))
        if b == current:
            kept[-1] = p
        else:
            kept.append(p)
            current = b
    return kept


async def load_chart(
    ledger: Ledger,
    guild_id: int,
    user_ids: Sequence[int],
    *,
    currency: str,
    game: str | None = None,
    season: SeasonSpec = "current",
    names: dict[int, str] | None = None,
) -> ChartData:
    """The running balances of ``user_ids`` (in that order, at most :data:`MAX_SERIES`) in ``currency``,
    optionally one ``game``, over ``season``. ``names`` overrides the names the ledger knows."""
    users = list(dict.fromkeys(user_ids))[:MAX_SERIES]
    async with ledger.db.reader() as conn:
        # the same resolution as the ledger's reads (UnknownSeason for a season number the guild lacks)
        season_ids = await ledger._season_ids(conn, guild_id, season)
    series: list[Series] = []
    if not users or not season_ids:
        return ChartData(guild_id, currency, game, season, ())
    where = (
        f"WHERE guild_id = ? AND currency = ? AND user_id IN ({','.join('?' * len(users))})"
        f" AND season_id IN ({','.join('?' * len(season_ids))})" + (" AND game = ?" if game is not None else "")
    )
    params: tuple[Any, ...] = (guild_id, currency, *users, *season_ids, *((game,) if game is not None else ()))
    async with ledger.db.reader() as conn:
        span = list(await conn.execute_fetchall(f"SELECT MIN(hour), MAX(hour) FROM ledger_hours {where}", params))
        first, last = span[0] if span else (None, None)
        width = _bucket(str(first), str(last)) if first is not None else 13
        # Ranges of the primary key (guild, currency, user, season, game, hour), summed per player and time bucket
        # in SQL: a long ledger sends a few hundred rows per player, not one per hour played.
        rows = list(
            await conn.execute_fetchall(
                f"SELECT user_id, substr(hour, 1, {width}) AS b, SUM(total), SUM(entries) FROM ledger_hours {where}"
                " GROUP BY user_id, b ORDER BY user_id, b",
                params,
            )
        )
    per_user: dict[int, list[tuple[str, int, int]]] = {}
    for uid, bucket, total, count in rows:
        per_user.setdefault(int(uid), []).append((str(bucket), int(total), int(count)))
    for uid in users:
        got = per_user.get(uid, [])
        points = running([(b, t) for b, t, _ in got])
        name = (names or {}).get(uid) or await ledger.player_name(guild_id, uid) or str(uid)
        final = points[-1][1] if points else 0
        series.append(Series(uid, name, tuple(downsample(points)), final, sum(c for _, _, c in got)))
    return ChartData(guild_id, currency, game, season, tuple(series))


def _bucket(first: str, last: str) -> int:
    """How many characters of ``'YYYY-MM-DDTHH'`` make a time bucket: hours, else days, else months, whichever
    keeps the chart within :data:`MAX_POINTS` points."""
    a, b = _hour_time(first), _hour_time(last)
    if (b - a).total_seconds() / 3600 < MAX_POINTS:
        return 13
    if (b - a).days < MAX_POINTS:
        return 10
    return 7


#: results in a standings sparkline
FORM_LENGTH = 10


async def recent_form(
    ledger: Ledger, guild_id: int, user_ids: Sequence[int], *, currency: str, game: str | None = None
) -> dict[int, tuple[int, ...]]:
    """Each player's last :data:`FORM_LENGTH` settlement amounts in ``currency`` (optionally one game), oldest
    first: a short walk back along ``entries_history`` (guild, user, id) per player, not a scan."""
    game_filter = " AND game = ?" if game is not None else ""
    out: dict[int, tuple[int, ...]] = {}
    async with ledger.db.reader() as conn:
        for uid in dict.fromkeys(user_ids):
            rows = await conn.execute_fetchall(
                "SELECT amount FROM entries WHERE guild_id = ? AND user_id = ? AND is_bot = 0 AND currency = ?"
                f" AND settlement_id IS NOT NULL{game_filter} ORDER BY id DESC LIMIT ?",
                (guild_id, uid, currency, *((game,) if game is not None else ()), FORM_LENGTH),
            )
            out[uid] = tuple(int(r[0]) for r in reversed(list(rows)))
    return out

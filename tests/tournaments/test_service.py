"""The tournament service without Discord: rounds, draws, standings, withdrawals, AFK, restart, cancel."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from bot.ledger import Ledger
from bot.ratings import Ratings
from bot.storage.db import Database
from bot.tables.service import TableService
from bot.tournaments import GuildConfig, GuildSettings, RoundTable, Tournament, TournamentError, TournamentService
from bot.tournaments.service import table_options

GUILD, CHANNEL = 5000, 6000


async def _inline(fn: Any, *args: Any) -> Any:
    return fn(*args)


class Threads:
    """A stand-in for Discord threads: hands out fresh channel ids and remembers what was opened."""

    def __init__(self) -> None:
        self.ids = itertools.count(900_000)
        self.opened: list[tuple[int, int, int]] = []

    async def __call__(self, t: Tournament, rt: RoundTable, names: list[str]) -> int:
        cid = next(self.ids)
        self.opened.append((rt.round, rt.table_no, cid))
        return cid


async def make(path: str | Path = ":memory:") -> tuple[TournamentService, TableService, Threads]:
    db = await Database.open(path)
    tables = TableService(db, Ledger(db), agent_runner=_inline)
    threads = Threads()
    return TournamentService(db, tables, channel_factory=threads), tables, threads


async def play_all(svc: TournamentService, tid: int, rng: random.Random, *, until_round: int | None = None) -> None:
    """Humans at every table of the tournament pick random legal actions until it ends (or a round starts)."""
    tables = svc.tables
    for _ in range(20_000):
        await svc.idle()
        t = svc.tournaments.get(tid)
        if t is None or t.status != "running":
            return
        if until_round is not None and t.current_round >= until_round:
            return
        movers = []
        for table in list(tables.tables.values()):
            if table.tournament_id != tid or table.status != "running" or table.game is None:
                continue
            movers += [(table, s) for s in table.game.to_move() if not table.seats[s].computer_plays]
        if not movers:
            continue
        table, seat = rng.choice(movers)
        user = table.seats[seat].user_id
        assert user is not None and table.game is not None
        await tables.act(table.id, user, rng.choice(table.game.legal_actions(seat)), table.version)
    raise AssertionError("tournament did not finish")


async def signup(svc: TournamentService, n: int, **kw: Any) -> Tournament:
    t = await svc.create(guild_id=GUILD, channel_id=CHANNEL, host_id=1, host_name="P1", **kw)
    for uid in range(2, n + 1):
        await svc.join(t.id, uid, f"P{uid}")
    return t


async def test_wizard_tournament_two_rounds_with_computer_fill() -> None:
    svc, _tables, threads = await make()
    t = await signup(svc, 7, game="wizard", rounds=2, hands_per_round=2, stake=1)
    with pytest.raises(TournamentError, match="Only the host"):
        await svc.start(t.id, 3)
    await svc.start(t.id, 1)
    r1 = await svc.round_tables(t.id, 1)
    assert sorted(len(rt.seats) for rt in r1) == [3, 4]
    assert sorted(u for rt in r1 for u in rt.seats if u is not None) == list(range(1, 8))
    await play_all(svc, t.id, random.Random(1))
    assert t.status == "finished" and t.id not in svc.tournaments
    assert len(threads.opened) == len(r1) + len(await svc.round_tables(t.id, 2))
    standings = await svc.standings(t.id)
    assert [s.rank for s in standings] == sorted(s.rank for s in standings) and standings[0].rank == 1
    assert all(s.tables == 2 for s in standings)  # 2 rounds, everybody seated in both
    # standings equal the ledger: each player's points over the tournament's tables
    rows = await svc.db.fetchall(
        "SELECT user_id, SUM(amount) FROM entries WHERE currency = 'point' AND is_bot = 0 GROUP BY user_id"
    )
    assert {int(r[0]): int(r[1]) for r in rows} == {s.user_id: s.totals["point"] for s in standings}
    # stakes stay zero-sum per settlement
    bad = await svc.db.fetchall(
        "SELECT settlement_id FROM entries WHERE currency = 'stake' GROUP BY settlement_id HAVING SUM(amount) <> 0"
    )
    assert not bad
    await svc.db.close()


async def test_minchiate_rotates_partners_and_mighty_byes() -> None:
    svc, _, _ = await make()
    t = await signup(svc, 8, game="minchiate", rounds=3, hands_per_round=1)
    await svc.start(t.id, 1)
    await play_all(svc, t.id, random.Random(2))
    partners: dict[tuple[int, int], int] = {}
    for rt in await svc.round_tables(t.id):
        for a, b in ((0, 2), (1, 3)):
            x, y = rt.seats[a], rt.seats[b]
            assert x is not None and y is not None
            key = (min(x, y), max(x, y))
            partners[key] = partners.get(key, 0) + 1
    assert max(partners.values()) == 1  # 3 rounds x 4 partnerships: all different
    await svc.db.close()


async def test_byes_rotate_and_refusals() -> None:
    svc, _, _ = await make()
    with pytest.raises(TournamentError, match="1, 4"):
        await svc.create(guild_id=GUILD, channel_id=1, host_id=1, host_name="a", game="minchiate", rounds=1,
                         hands_per_round=2)  # fmt: skip
    with pytest.raises(TournamentError, match="fixed number"):
        await svc.create(guild_id=GUILD, channel_id=1, host_id=1, host_name="a", game="mighty", rounds=1,
                         hands_per_round=0)  # fmt: skip
    t = await signup(svc, 6, game="mighty", rounds=2, hands_per_round=1, fill="bye")
    with pytest.raises(TournamentError, match="already has a tournament"):
        await signup(svc, 1, game="wizard", rounds=1)
    with pytest.raises(TournamentError, match="already signed up"):
        await svc.join(t.id, 2, "P2")
    await svc.start(t.id, 1)
    await play_all(svc, t.id, random.Random(3))
    byes = await svc.byes(t.id)
    assert len(byes) == 2 and byes[0][1] != byes[1][1]  # one bye per round, never the same player twice
    standings = await svc.standings(t.id)
    assert sum(s.byes for s in standings) == 2
    await svc.db.close()


async def test_withdraw_and_afk_are_flagged_and_not_drawn_again() -> None:
    svc, tables, _ = await make()
    t = await signup(svc, 4, game="mediatore", rounds=2, hands_per_round=1)
    await svc.start(t.id, 1)
    await svc.withdraw(t.id, 2)
    with pytest.raises(TournamentError, match="not an active"):
        await svc.withdraw(t.id, 2)
    table = next(tb for tb in tables.tables.values() if tb.tournament_id == t.id)
    seat = table.seat_of(2)
    assert seat is not None and table.seats[seat].away  # the computer took over
    # a timed-out player (AFK) is played by the computer and flagged
    table.deadline = 0.0
    tables.clock = lambda: 10.0**9
    await tables.tick()
    await play_all(svc, t.id, random.Random(4))
    r2 = await svc.round_tables(t.id, 2)
    assert all(2 not in rt.seats for rt in r2)
    standings = {s.user_id: s for s in await svc.standings(t.id)}
    assert standings[2].withdrawn and standings[2].tables == 1 and not standings[2].afk
    assert any(s.afk for s in standings.values())
    await svc.db.close()


async def test_resume_after_restart_mid_round(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    svc, _tables, _ = await make(path)
    t = await signup(svc, 8, game="wizard", rounds=2, hands_per_round=1)
    await svc.start(t.id, 1)
    await play_all(svc, t.id, random.Random(5), until_round=2)
    assert t.current_round == 2
    await svc.idle()
    await svc.db.close()

    svc2, tables2, threads2 = await make(path)
    await tables2.load()
    restored = await svc2.load()
    assert [x.id for x in restored] == [t.id]
    await svc2.idle()
    assert not threads2.opened  # nothing re-opened: round 2's tables were already there
    await play_all(svc2, t.id, random.Random(6))
    t2 = restored[0]
    assert t2.status == "finished"
    rows = await svc2.db.fetchall("SELECT status FROM tournament_tables WHERE tournament_id = ?", (t.id,))
    assert {r[0] for r in rows} == {"finished"}
    await svc2.db.close()


async def test_resume_when_the_last_table_finished_while_down(tmp_path: Path) -> None:
    """The table finished but the process died before the tournament heard of it."""
    path = tmp_path / "t.db"
    svc, tables, _ = await make(path)
    t = await signup(svc, 3, game="wizard", rounds=2, hands_per_round=1)
    await svc.start(t.id, 1)
    tables.listeners.remove(svc._on_table)  # simulate the crash window: nobody hears "finished"
    rng = random.Random(7)
    for _ in range(500):  # play_all waits for the tournament, which will not hear: drive the table here
        await tables.idle()
        open_tables = [tb for tb in tables.tables.values() if tb.status == "running"]
        if not open_tables:
            break
        tb = open_tables[0]
        assert tb.game is not None
        seat = tb.game.to_move()[0]
        uid = tb.seats[seat].user_id
        assert uid is not None
        await tables.act(tb.id, uid, rng.choice(tb.game.legal_actions(seat)), tb.version)
    await svc.db.close()
    svc2, tables2, threads2 = await make(path)
    await tables2.load()
    (t2,) = await svc2.load()
    await svc2.idle()
    assert t2.current_round == 2 and len(threads2.opened) == 1  # round 2 opened on resume
    await play_all(svc2, t.id, random.Random(9))
    assert t2.status == "finished"
    await svc2.db.close()


async def test_cancel_closes_tables() -> None:
    svc, tables, _ = await make()
    t = await signup(svc, 4, game="mediatore", rounds=2, hands_per_round=2)
    await svc.start(t.id, 1)
    with pytest.raises(TournamentError, match="Only the host"):
        await svc.cancel(t.id, 3)
    await svc.cancel(t.id, 3, can_manage=True)
    await svc.idle()
    assert t.status == "cancelled" and not [tb for tb in tables.tables.values() if tb.is_open]
    await svc.db.close()


async def test_withdrawal_and_cancellation_notices_are_owed_with_the_change(tmp_path: Path) -> None:
    """What the channel is told of a withdrawal and a cancellation is an outbox row written with the change, so a
    bot stopped right after it still tells it (once) after a restart — not a post made from memory."""
    path = tmp_path / "t.db"
    svc, _tables, _ = await make(path)
    t = await signup(svc, 4, game="mediatore", rounds=2, hands_per_round=1)
    await svc.start(t.id, 1)
    await svc.withdraw(t.id, 3)
    await svc.cancel(t.id, 1)
    await svc.idle()
    owed = {r.kind: r for r in await svc.outbox.pending(tournament_id=t.id) if r.kind in ("withdrew", "cancelled")}
    assert set(owed) == {"withdrew", "cancelled"}
    assert await svc.owed_text(t, "withdrew", owed["withdrew"].payload) == (
        CHANNEL,
        f"P3 withdrew from {t.display_title()}.",
    )
    assert await svc.owed_text(t, "cancelled", {}) == (CHANNEL, f"{t.display_title()} was cancelled.")
    await svc.db.close()

    # restarted: the cancelled tournament is found with what it still owes; a second withdrawal owes nothing new
    svc2, _t2, _ = await make(path)
    await svc2.load()
    ended = await svc2.owing_ended()
    assert [x.id for x in ended] == [t.id] and ended[0].status == "cancelled"
    for row in await svc2.outbox.pending(tournament_id=t.id):
        await svc2.outbox.sent(row.id)
    assert await svc2.owing_ended() == []
    await svc2.db.close()


async def test_ratings_follow_a_tournament() -> None:
    svc, _, _ = await make()
    ratings = Ratings(svc.db)
    t = await signup(svc, 5, game="mighty", rounds=1, hands_per_round=2)
    await svc.start(t.id, 1)
    await play_all(svc, t.id, random.Random(10))
    assert await ratings.sync() == 2
    assert await ratings.sync() == 0
    board = await ratings.leaderboard(GUILD, "mighty")
    assert len(board) == 5 and all(r.games == 2 for r in board)
    await svc.db.close()


def test_table_options_per_game() -> None:
    base = dict(guild_id=1, channel_id=1, host_id=1, rounds=1, fill="computer", turn_timeout=None, seed=1,
                status="signup")  # fmt: skip
    wiz = Tournament(id=1, game="wizard", hands_per_round=3, options={"stake_per_point": 1}, **base)  # type: ignore[arg-type]
    assert table_options(wiz, 4) == {"stake_per_point": 1, "rounds": [1, 2, 3]}
    wiz_all = Tournament(id=1, game="wizard", hands_per_round=0, options={"wizard_rounds": [5, 10, 15]}, **base)  # type: ignore[arg-type]
    assert table_options(wiz_all, 6) == {"rounds": [5, 10]}  # 15 cards do not exist for 6 players
    med = Tournament(id=1, game="mediatore", hands_per_round=3, options={"stake": 2}, **base)  # type: ignore[arg-type]
    assert table_options(med, 4) == {"stake": 2, "hands": 3}
    minc = Tournament(id=1, game="minchiate", hands_per_round=4, options={}, **base)  # type: ignore[arg-type]
    assert table_options(minc, 4) == {"deals_per_game": 4}


async def test_guild_settings_roles() -> None:
    db = await Database.open(":memory:")
    settings = GuildSettings(db)
    assert await settings.get(GUILD) == GuildConfig(GUILD)
    await settings.set(GUILD, 1, organiser_role_id=77)
    cfg = await settings.set(GUILD, 1, admin_role_id=88)
    assert (cfg.organiser_role_id, cfg.admin_role_id) == (77, 88)  # setting one keeps the other
    assert await settings.get(GUILD + 1) == GuildConfig(GUILD + 1)  # per guild
    assert await settings.set(GUILD, 1, clear=True) == GuildConfig(GUILD)
    await db.close()


async def test_standings_tie_breaks() -> None:
    svc, _, _ = await make()
    t = await signup(svc, 4, game="mediatore", rounds=1, hands_per_round=2, stake=1)
    await svc.start(t.id, 1)
    await play_all(svc, t.id, random.Random(11))
    rows = await svc.standings(t.id)
    keys = [(-s.score, -s.tables_won, -s.hands_won, s.joined_seq) for s in rows]
    assert keys == sorted(keys)
    assert sum(s.score for s in rows) == 0  # stakes: zero-sum over the tournament
    assert sum(1 for s in rows if s.tables_won) >= 1
    for a, b in itertools.pairwise(rows):  # equal keys share a rank; otherwise ranks grow
        same = (a.score, a.tables_won, a.hands_won) == (b.score, b.tables_won, b.hands_won)
        assert (b.rank == a.rank) if same else (b.rank > a.rank)
    await svc.db.close()

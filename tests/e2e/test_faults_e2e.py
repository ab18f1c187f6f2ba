"""Discord in an incident, for whole games (issue #23): a seeded 10 % of the bot's writes answered 503 — channel
messages, interaction callbacks and their webhooks alike, some after Discord carried them out — while the gateway
connection drops now and then (every other time with the first reconnect refused).

A Wizard and a Mighty table play at once, two humans each clicking through the fake Discord (a click that is never
answered is made again, as a player does after "This interaction failed"). At the end, every table message, every
DM and each channel's posts must be exactly what a second, fault-free run of the same two games shows (same seeds,
same clicks): each post once, the final states, no game controls left on a finished table.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.users import FakeUser, InteractionHandle

from .driver import Player, action_components, game_over, quiesce, start_bot, stop_bot
from .seeded import FAST_EDITS, Shown, StatePlayer, all_sent, finished, seeded_bot, shown

SHARE, AFTER = 0.07, 0.03  # 10 % of the bot's writes fail: 7 % before Discord does anything, 3 % after
DROP_EVERY = 5  # clicks between two gateway drops
ANSWER_WAIT = 8.0  # seconds a player waits for an answer before clicking again


class Patient(StatePlayer):
    """A player who clicks again when a click was never answered (its menu's answer included)."""

    async def act(self) -> Any:
        try:
            return await super().act()
        except TimeoutError:  # a menu pick of a combination got no answer: start the combination over
            self._clicked = None
            return None


async def _press(fake: FakeDiscord, user: FakeUser, message: st.Message, label: str) -> None:
    """Click a lobby button until the click is answered (a deferred Start whose callback got 503s ends up expired
    before it acknowledged anything: the player clicks again)."""
    for _ in range(5):
        handle = await user.click(message, label=label)
        try:
            await handle.ack(timeout=ANSWER_WAIT)
            return
        except TimeoutError:
            continue
    raise AssertionError(f"{label} never answered")


async def _open(fake: FakeDiscord, channel: st.Channel, host: FakeUser, guest: FakeUser, game: str) -> st.Message:
    if game == "wizard":
        opened = await host.slash(channel, "wizard new", rounds="1-5", stake_per_point=1)
        computers = 1
    else:
        opened = await host.slash(channel, "mighty new", hands=2, stake=1, weak_hand_misdeal=False)
        computers = 3
    await opened.reply()
    lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
    await (await guest.click(lobby, label="Join")).ack()
    for n in range(1, computers + 1):
        await (await host.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda n=n: f"Computer {n}" in fake.message(lobby.id).text())
    return lobby


async def _play_both(fake: FakeDiscord, db: Path, *, incident: bool) -> tuple[dict[str, Shown], dict[str, Any]]:
    """Both games from the lobby to the end; returns what each channel's players see, and what happened."""
    guild = fake.add_guild("Friends")
    wizard, mighty = fake.add_channel(guild, "wizard"), fake.add_channel(guild, "mighty")
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    tables = {"wizard": (wizard, [alice, bob]), "mighty": (mighty, [carol, dave])}
    stats: dict[str, Any] = {"clicks": 0, "again": [], "drops": 0}
    async with seeded_bot(fake, db, guild.id, edit_interval=FAST_EDITS) as bot:
        await fake.wait_for_commands("wizard", "mighty", "table")
        lobbies = {
            "wizard": await _open(fake, wizard, alice, bob, "wizard"),
            "mighty": await _open(fake, mighty, carol, dave, "mighty"),
        }
        faults = fake.inject_faults(SHARE, after=AFTER, seed=2310) if incident else None
        for game, (_channel, (host, _guest)) in tables.items():  # the Wizard table first: it is table #1 in both runs
            await _press(fake, host, lobbies[game], "Start")
            await fake.wait_for(
                lambda game=game: not any(b["label"] == "Start" for b in fake.message(lobbies[game].id).buttons())
            )
        players = [Patient(fake, u, random.Random(0)) for u in (alice, bob, carol, dave)]
        pick = random.Random(5)

        def done() -> bool:
            return game_over(fake, wizard) and game_over(fake, mighty)

        def ready() -> Any:
            return done() or pick.choice([p for p in players if p.can_act()] or [None])

        while not done():
            actor = await fake.wait_for(ready, timeout=60, description="a player with choices, or both games over")
            if actor is True or done():
                break
            handle: InteractionHandle | None = await actor.act()
            stats["clicks"] += 1
            if incident and stats["clicks"] % DROP_EVERY == 0:
                stats["drops"] += 1
                if stats["drops"] % 2 == 0:
                    fake.gateway.refuse(1)  # and the first reconnect is refused
                await fake.gateway.drop()
            if handle is None:
                continue
            try:
                await handle.ack(timeout=ANSWER_WAIT)
            except TimeoutError:
                stats["again"].append(handle.record.id)  # "This interaction failed": the player clicks again
                actor._clicked = None
            assert stats["clicks"] < 1500, "the games did not finish"
        await all_sent(db)
        for channel, users in tables.values():
            await fake.wait_for(lambda c=channel, u=users: finished(fake, c, u), timeout=60)
        seen = {game: shown(fake, channel, users) for game, (channel, users) in tables.items()}
        stats["output"] = bot.output
    stats["faults"] = faults
    return seen, stats


async def test_whole_games_through_503s_and_gateway_drops(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    seen, stats = await _play_both(fake, tmp_path / "incident.db", incident=True)

    reference_fake = await FakeDiscord().start()
    try:
        expected, calm = await _play_both(reference_fake, tmp_path / "calm.db", incident=False)
        assert not calm["again"] and not reference_fake.late_acks
    finally:
        await reference_fake.stop()

    # what the players see is what they would have seen without the incident: final states, each post once
    assert seen == expected
    assert [len(s.table) for s in seen.values()] == [1, 1]
    assert all("game over" in s.posts[-1] for s in seen.values())

    # the incident did happen, to every kind of request
    faults = stats["faults"]
    paths = [path for _m, path, _w in faults.hits]
    assert any(p.startswith("/channels/") for p in paths)
    assert any(p.endswith("/callback") for p in paths)
    assert {w for _m, _p, w in faults.hits} == {"before", "after"}
    assert fake.gateway.resume_count >= stats["drops"] >= 3 and fake.gateway.refused >= 1
    # a click went unanswered (or late) only when Discord failed its answer: never because of the bot
    for interaction_id in stats["again"] + [r.id for r in fake.late_acks]:
        assert faults.hit(f"/interactions/{interaction_id}/"), interaction_id
    assert not fake.unhandled and not fake.errors
    print(
        f"\n{stats['clicks']} clicks, {faults.injected} faults ({len([p for p in paths if p.endswith('/callback')])}"
        f" on callbacks), {stats['drops']} gateway drops, {len(stats['again'])} clicks made again"
    )


async def test_the_end_is_confirmed_only_after_a_late_answer_is_put_right(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: Any
) -> None:
    """A click's answer that is a deferred edit (drawing took long: the click was acknowledged first) and whose first
    try gets a 503 is sent again by discord.py a second later: after the end of the game reached the same DM. The
    answer puts the old hand back and its follow-up edit puts the end back again; the table's final renders are
    confirmed (nothing left for a restart to redraw) only after that, so no edit lands once they are."""
    import cogs._pictures

    monkeypatch.setattr(cogs._pictures, "ACK_PATIENCE", 0.0)  # every answer is deferred
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice = fake.add_user("alice")
    db = tmp_path / "late.db"
    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="1")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        for n in (1, 2):
            await (await alice.click(lobby, label="Add computer")).ack()
            await fake.wait_for(lambda n=n: f"Computer {n}" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()
        player = Player(fake, alice, random.Random(3))

        def bidding() -> bool:
            return any('"bid"' in c["custom_id"] for c in player.choices())

        # one card each: alice's bid is her last click (a trump to name comes first when she deals a Wizard)
        while not bidding():
            await fake.wait_for(player.can_act)
            if not bidding():
                await (await player.act()).ack()
        failed: list[bool] = []
        fake.kill_on(lambda r: r.method == "PATCH" and r.path.endswith("/@original"), lambda: failed.append(True))
        bid = await player.act()
        await bid.ack()
        dm = alice.dm_messages()[-1]
        await fake.wait_for(lambda: game_over(fake, channel))
        await all_sent(db)  # the end confirmed
        edits_when_confirmed, text_when_confirmed = len(dm.edits), dm.text()

        # the answer's second try has been made (it lands before the end is confirmed, or the test would see it)
        token = f"itoken.{bid.id}."
        answers = lambda: [r for r in fake.requests if r.method == "PATCH" and token in r.path]  # noqa: E731
        await fake.wait_for(lambda: len(answers()) == 2, description="the answer sent again")
        await quiesce(bot)
        assert failed
        end = next(i for i, r in enumerate(fake.requests) if r.method == "PATCH" and str(dm.id) in r.path and i > 0)
        assert fake.requests.index(answers()[1]) > end, "the end reached the DM before the answer's second try"
        assert len(dm.edits) == edits_when_confirmed and dm.text() == text_when_confirmed
        assert not action_components(dm)
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)

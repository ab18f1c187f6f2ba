"""Discord's 5xx on the answer to a click (issue #23): an interaction callback answered 503.

discord.py sends a callback again 1 s after a 5xx, then 3 s later. Two cases, each forced on one click:

* the callback was carried out and only its answer was lost: the retry is refused with 40060 "already
  acknowledged". The click was answered; what it asked for must still happen (a **Start** acknowledges first).
* the callback failed twice before anything happened: the retry comes after Discord's 3 s and the interaction is
  gone (the player sees "This interaction failed"). The action was applied before the answer, so the player's
  hand message must still show its effect, by an edit of the message.
"""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from fakediscord.rest import ApiRequest

from .driver import Player, game_over, play_until, start_bot, stop_bot, table_message, version_of


def _callback(r: ApiRequest) -> bool:
    return r.method == "POST" and r.path.startswith("/interactions/") and r.path.endswith("/callback")


def _no_kill() -> None:
    """A ``kill_on`` that kills nothing: the matching request is just answered 503 (before or after)."""


async def _wizard_lobby(fake: FakeDiscord, channel: Any, alice: Any, bob: Any) -> Any:
    """A short Wizard table's lobby: Alice opens it, Bob joins, a computer fills the third seat (not started)."""
    await (await alice.slash(channel, "wizard new", rounds="1-2")).reply()
    lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
    await (await bob.click(lobby, label="Join")).ack()
    await (await alice.click(lobby, label="Add computer")).ack()
    await fake.wait_for(lambda: "Computer 1" in fake.message(lobby.id).text())
    return lobby


async def test_a_lost_answer_to_a_callback_still_counts_as_the_answer(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        lobby = await _wizard_lobby(fake, channel, alice, bob)
        # the Start click's deferral is carried out, its answer lost: discord.py's retry gets 40060
        fake.kill_on(_callback, _no_kill, after=True)
        start = await alice.click(lobby, label="Start")
        assert await start.ack() == 6
        await fake.wait_for(lambda: table_message(fake, channel), description="the game started")
        assert fake.faults.kills == []  # (the fault did happen)

        # a move whose answer (the updated hand) is lost the same way: the hand shows it, nothing is logged as an error
        players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, bob))]
        actor = await fake.wait_for(lambda: next((p for p in players if p.can_act()), None))
        panel = actor.panel()
        assert panel is not None
        before = version_of(panel)
        fake.kill_on(_callback, _no_kill, after=True)
        with caplog.at_level(logging.INFO):
            move = await actor.act()
            assert await move.ack() == 7
            # discord.py sends it again a second later, and is told it was acknowledged
            await fake.wait_for(lambda: any(str(move.record.id) in path for _m, path, _s, _b in fake.rejected))
            await fake.wait_for(lambda: version_of(fake.message(panel.id)) != before or not actor.choices())
            await play_until(fake, players, lambda: game_over(fake, channel))
        assert any("its callback's answer was lost" in r.getMessage() for r in caplog.records)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)


class _LogSeen(logging.Handler):
    """Sets :attr:`seen` when a record of ``level`` whose message holds ``text`` is logged (from any thread)."""

    def __init__(self, text: str, level: int) -> None:
        super().__init__(level)
        self.text, self.seen, self._loop = text, asyncio.Event(), asyncio.get_running_loop()

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno == self.level and self.text in record.getMessage():
            self._loop.call_soon_threadsafe(self.seen.set)


async def test_a_click_whose_answer_never_landed_still_shows_its_effect(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        lobby = await _wizard_lobby(fake, channel, alice, bob)
        await (await alice.click(lobby, label="Start")).ack()
        players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, bob))]
        actor = await fake.wait_for(lambda: next((p for p in players if p.can_act()), None))
        panel = actor.panel()
        assert panel is not None
        before, edits = version_of(panel), len(panel.edits)
        assert bot.tables is not None
        (t,) = bot.tables.tables.values()
        version = t.version

        # the move's callback fails twice before Discord does anything; discord.py's third try comes after 3 s
        fake.kill_on(_callback, _no_kill)
        fake.kill_on(_callback, _no_kill)
        caplog.set_level(logging.INFO)
        expired = _LogSeen("expired", logging.INFO)
        logging.getLogger().addHandler(expired)
        move = await actor.act()
        await fake.wait_for(lambda: move.record.id in {r.id for r in fake.late_acks}, timeout=15)
        assert move.response_type is None  # never acknowledged: "This interaction failed"
        assert t.version > version  # the move itself was made
        # and the player's hand shows it: edited from the channel's side, not by the lost response
        await fake.wait_for(
            lambda: len(fake.message(panel.id).edits) > edits and version_of(fake.message(panel.id)) != before,
            timeout=10,
            description="the hand edited to the state after the move",
        )
        await play_until(fake, players, lambda: game_over(fake, channel))
        assert [r.id for r in fake.late_acks] == [move.record.id]
        # the expired answer is an INFO line naming the click, not an error with a traceback (logged when discord.py
        # has read Discord's refusal of the late answer: a short game can be over before that)
        await asyncio.wait_for(expired.seen.wait(), timeout=15)
        logging.getLogger().removeHandler(expired)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("expired" in r.getMessage() for r in caplog.records if r.levelno == logging.INFO)
        assert not fake.unhandled and not fake.errors
    finally:
        await stop_bot(bot, task)

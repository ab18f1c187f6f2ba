"""An interaction answered too late (Discord's 10062 "Unknown interaction") is logged at INFO with what it was —
command or custom id, user, age — and never as an ERROR traceback: a slash command and a button click, each held
until the fake Discord's deadline has passed, then answered."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord

from .driver import start_bot, stop_bot
from .test_tournament_e2e import start_bot as start_tournament_bot


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not loud, [r.getMessage() for r in loud]


async def test_a_click_answered_too_late_is_one_info_line(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    fake.ack_deadline = 0.3  # Discord's 3 s, shortened
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="3-5")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        cog: Any = bot.get_cog("Tables")
        join = cog._handlers["join"]

        async def slow_join(click: Any) -> None:
            await fake.wait_for(lambda: fake.late_acks, description="the deadline to pass")
            await join(click)

        cog._handlers["join"] = slow_join
        caplog.clear()
        with caplog.at_level(logging.INFO):
            handle = await bob.click(lobby, label="Join")
            line = await fake.wait_for(
                lambda: next((r for r in caplog.records if "before it was answered" in r.getMessage()), None),
                description="the expired click in the log",
            )
        assert line.levelno == logging.INFO and line.exc_info is None
        text = line.getMessage()
        assert "expired" in text and "tb:1:join" in text and str(bob.id) in text and " s old" in text
        assert handle.record.late
        _no_traceback(caplog)
    finally:
        await stop_bot(bot, task)


async def test_a_slash_command_answered_too_late_is_one_info_line(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    fake.ack_deadline = 0.3
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "tournament")
    ann = fake.add_user("ann")
    bot, task = await start_tournament_bot(fake, tmp_path / "t.db", guild.id)
    try:
        cog: Any = bot.get_cog("Tournament")
        loaded = cog._loaded

        async def slow_loaded() -> None:
            await fake.wait_for(lambda: fake.late_acks, description="the deadline to pass")
            await loaded()

        cog._loaded = slow_loaded
        caplog.clear()
        with caplog.at_level(logging.INFO):
            handle = await ann.slash(channel, "tournament join")
            line = await fake.wait_for(
                lambda: next((r for r in caplog.records if "before it was answered" in r.getMessage()), None),
                description="the expired command in the log",
            )
        assert line.levelno == logging.INFO and line.exc_info is None
        text = line.getMessage()
        assert "/tournament join" in text and str(ann.id) in text and " s old" in text
        assert handle.record.late
        _no_traceback(caplog)
    finally:
        await stop_bot(bot, task)

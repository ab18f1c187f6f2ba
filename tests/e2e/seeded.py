"""Two real runs of the same game, compared: the bot process dealing every table from one seed
(tests/e2e/seeded_bot.py), players whose choices depend only on what their hand message offers, and what the
players see at the end (the table message, their DMs, the channel's posts) with Discord's ids named."""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.process import BotProcess

from .driver import Player, action_components, version_of

#: every table of these runs is dealt from this seed (tests/e2e/seeded_bot.py), so two runs play the same game
SEED = 2323
SEEDED = ("tests/e2e/seeded_bot.py",)


#: a message edited at most every 0.05 s instead of every second: the players of a whole game wait for each edit
FAST_EDITS = 0.05


def seeded_env(db: Path, guild_id: int, *, edit_interval: float | None = None) -> dict[str, str]:
    env = {
        "TAVOLO_DATABASE": str(db),
        "TAVOLO_DEV_GUILD": str(guild_id),
        "TAVOLO_LOG_LEVEL": "INFO",
        "TAVOLO_IMAGES": "off",
        "TAVOLO_TEST_SEED": str(SEED),
    }
    if edit_interval is not None:  # read by tests/e2e/seeded_bot.py only
        env["TAVOLO_TEST_EDIT_INTERVAL"] = str(edit_interval)
    return env


def seeded_bot(fake: FakeDiscord, db: Path, guild_id: int, *, edit_interval: float | None = None) -> BotProcess:
    """The real bot process, dealing every table from :data:`SEED` (``edit_interval``: see seeded_bot.py)."""
    return BotProcess(fake, env=seeded_env(db, guild_id, edit_interval=edit_interval), args=SEEDED)


class StatePlayer(Player):
    """A player whose choice depends only on what their hand message offers (its version and choices), not on
    how many clicks came before: a click made again after a restart, or in another run, is the same click."""

    async def act(self) -> Any:
        panel = self.panel()
        assert panel is not None
        offered = sorted(c["custom_id"] for c in self.choices())
        self.rng = random.Random(f"{self.user.name}|{version_of(panel)}|{offered}")
        return await super().act()


@dataclass
class Shown:
    """What the players see at the end: the table message, each player's DMs, the channel's posts (ids named)."""

    table: list[str]
    dms: dict[str, list[str]]
    posts: list[str]


def shown(fake: FakeDiscord, channel: st.Channel, users: list[Any]) -> Shown:
    names = {str(u.id): u.name for u in users} | {str(channel.id): channel.name}

    def named(text: str) -> str:
        return re.sub(r"<([@#])(\d+)>", lambda m: f"<{m[1]}{names.get(m[2], '?')}>", text)

    table = [named(m.text()) for m in fake.channel_messages(channel) if m.embeds or m.is_v2]
    dms = {u.name: [named(m.text()) for m in u.dm_messages()] for u in users}
    return Shown(table, dms, [named(text) for text in posts(fake, channel)])


def finished(fake: FakeDiscord, channel: st.Channel, users: list[Any]) -> bool:
    """No game controls anywhere: the table message offers at most **Play again**, no DM offers a move."""
    table = [m for m in fake.channel_messages(channel) if m.embeds or m.is_v2]
    return (
        len(table) == 1
        and all(b["label"] == "Play again" for b in table[0].buttons())
        and all(u.dm_messages() and not any(action_components(m) for m in u.dm_messages()) for u in users)
    )


def posts(fake: FakeDiscord, channel: st.Channel) -> list[str]:
    """The channel's plain posts (results, notices), oldest first: not the table message."""
    return [m.content for m in fake.channel_messages(channel) if m.content and not m.embeds and not m.is_v2]


async def all_sent(db: Path) -> None:
    """Wait until every owed row is confirmed (nothing left for a later start to send again); the last confirmation
    is written just after the last message landed, so it is polled for (the database is no fake Discord event)."""
    left: list[Any] = []
    for _ in range(400):
        con = sqlite3.connect(db)
        try:
            left = con.execute("SELECT key, state, last_error FROM outbox WHERE state <> 'sent'").fetchall()
        finally:
            con.close()
        if not left:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"owed messages not confirmed: {left}")

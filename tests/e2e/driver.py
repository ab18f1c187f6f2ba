"""Helpers that play Tavolo through the fake Discord the way people do: slash commands, clicks, selects.

A :class:`Player` finds its own panel (the DM from the bot, or the ephemeral "My hand" message when its
DMs are closed), picks one of the offered choices at random and clicks it. Nothing here reads the
bot's memory to decide; in-process tests may additionally inspect the bot to check invariants.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.users import FakeUser

from bot.config import Settings
from bot.transport.client import TavoloBot
from bot.transport.endpoints import apply_endpoints

ACTION_ID = re.compile(r"^t[bs]:(?P<tid>\d+):(?P<op>act|pick|field|ok):(?P<ver>\d+):")


def settings_for(fake: FakeDiscord, db: Path, dev_guild: int | None = None, *, images: bool = False) -> Settings:
    """Settings for a bot against ``fake``; text-only messages unless ``images`` (the scenarios written before
    pictures read embeds; tests/e2e/test_pictures_e2e.py plays with pictures)."""
    return Settings(
        token=fake.token,
        database=db,
        dev_guild=dev_guild,
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        log_level="INFO",
        turn_timeout=90,
        ai_workers=1,
        images=images,
    )


async def start_bot(
    fake: FakeDiscord,
    db: Path,
    dev_guild: int | None = None,
    *,
    edit_interval: float = 0.05,
    images: bool = False,
) -> tuple[TavoloBot, Any]:
    """Start the real bot in this process against the fake; returns (bot, its task).

    ``images``: messages show card pictures unless a server or player turned them off (the bot's default). The
    scenarios written before pictures read the embeds of text-only messages, so they leave it off.
    """
    import asyncio

    settings = settings_for(fake, db, dev_guild, images=images)
    apply_endpoints(settings.api_base, settings.gateway_url)
    bot = TavoloBot(settings, edit_interval=edit_interval)
    task = asyncio.create_task(bot.start(settings.token))
    await fake.wait_for_commands("wizard", "table", "ledger", "leaderboard")
    await fake.wait_until_ready()
    return bot, task


async def stop_bot(bot: TavoloBot, task: Any) -> None:
    await bot.close()
    await task


def action_components(message: st.Message) -> list[dict[str, Any]]:
    """The table-action buttons/selects on a panel (not lobby or table controls)."""
    out = []
    for c in [*message.buttons(), *message.selects()]:
        if ACTION_ID.match(c.get("custom_id", "")) and not c.get("disabled"):
            out.append(c)
    return out


def version_of(message: st.Message) -> int:
    for c in action_components(message):
        m = ACTION_ID.match(c["custom_id"])
        if m:
            return int(m["ver"])
    return -1


class Player:
    """One human at the table, clicking through Discord."""

    def __init__(self, fake: FakeDiscord, user: FakeUser, rng: random.Random) -> None:
        self.fake = fake
        self.user = user
        self.rng = rng
        self.clicks = 0
        self._clicked: tuple[int, int] | None = None  # (message id, edits) of the panel last clicked

    def panel(self) -> st.Message | None:
        """The newest message holding this player's hand: their DM, else their newest ephemeral hand."""
        candidates = [m for m in self.user.dm_messages() if m.embeds or m.is_v2]
        if not candidates:
            candidates = [m for m in self.user.ephemerals() if (m.embeds or m.is_v2) and "seat" in m.text()]
        return candidates[-1] if candidates else None

    def choices(self) -> list[dict[str, Any]]:
        """Offered components, without "undo" (random undo/redo would never end; it is tested apart)."""
        p = self.panel()
        if p is None:
            return []
        return [c for c in action_components(p) if '"undo"' not in c["custom_id"]]

    def can_act(self) -> bool:
        # like a person, click again only once the panel has changed since the last click
        p = self.panel()
        if p is not None and self._clicked == (p.id, len(p.edits)):
            return False
        return bool(self.choices())

    async def act(self) -> Any:
        """Pick one offered choice at random and send it; returns the interaction handle."""
        panel = self.panel()
        assert panel is not None
        self._clicked = (panel.id, len(panel.edits))
        comps = self.choices()
        fields = [c for c in comps if ":field:" in c["custom_id"]]
        if fields:  # a combination: fill every menu, then Confirm
            for f in fields:
                values = [o["value"] for o in f["options"]]
                picked = self.rng.sample(values, int(f.get("min_values", 1)))
                h = await self.user.select(panel, picked, custom_id=f["custom_id"])
                await h.ack()
            ok = next(c for c in comps if ":ok:" in c["custom_id"])
            self.clicks += 1
            return await self.user.click(panel, custom_id=ok["custom_id"])
        choice = self.rng.choice(comps)
        self.clicks += 1
        if choice.get("type") == 2:
            return await self.user.click(panel, custom_id=choice["custom_id"])
        value = self.rng.choice([o["value"] for o in choice["options"]])
        return await self.user.select(panel, [value], custom_id=choice["custom_id"])


async def play_until(
    fake: FakeDiscord,
    players: list[Player],
    done: Callable[[], bool],
    *,
    check: Callable[[], Awaitable[None]] | None = None,
    max_clicks: int = 2000,
    stop_after: int | None = None,
    watch: list[int] | None = None,
    think: tuple[float, float] | None = None,
    timeout: float = 30,
) -> int:
    """Let players act whenever one has choices, until ``done()``; returns the number of clicks.

    ``check`` is awaited before every click (invariants); ``stop_after`` returns early after that many clicks.
    ``watch`` (the benchmark): the channels and users whose messages ``done`` and the players' panels depend on;
    the players then wake only when one of those changed (:meth:`FakeDiscord.wait_watching`), not on every
    change anywhere. ``think``: a player takes that many seconds (uniformly between the two) before a click,
    like a person (human pacing for the benchmark; the panel is read again after it).
    """
    clicks = 0
    rng = players[0].rng

    def wanted() -> Any:
        return done() or rng.choice([p for p in players if p.can_act()] or [None])

    while not done():
        what = "a player with choices, or the end of the game"
        if watch is None:
            actor = await fake.wait_for(wanted, timeout=timeout, description=what)
        else:
            actor = await fake.wait_watching(watch, wanted, timeout=timeout, description=what)
        if actor is True or done():
            break
        assert isinstance(actor, Player)
        if think is not None:
            await asyncio.sleep(rng.uniform(*think))
            if not actor.can_act():  # the panel moved on while the player was thinking
                continue
        if check is not None:
            await check()
            if not actor.can_act():  # the state moved on while the check waited (e.g. a forced play)
                continue
        handle = await actor.act()
        if watch is None:
            await handle.ack()
        else:
            await fake.wait_watching([handle.id], lambda h=handle: h.response_type is not None, timeout=timeout)
        clicks += 1
        if stop_after is not None and clicks >= stop_after:
            return clicks
        assert clicks < max_clicks, "game did not finish"
    return clicks


def game_over(fake: FakeDiscord, channel: st.Channel) -> bool:
    return any("game over" in m.text() for m in fake.channel_messages(channel))


async def quiesce(bot: TavoloBot) -> None:
    """Wait until the bot has no computer move in flight and no message edit pending."""
    cog: Any = bot.get_cog("Tables")
    assert bot.tables is not None
    for _ in range(3):  # a computer move schedules renders; a render never schedules moves
        await bot.tables.idle()
        await cog.frontend.outbox.drain()
        await cog.frontend.drain_posts()


def table_message(fake: FakeDiscord, channel: st.Channel) -> st.Message | None:
    """The running table's public message (the one with the **My hand** button)."""
    return next((m for m in fake.channel_messages(channel) if any(b["label"] == "My hand" for b in m.buttons())), None)

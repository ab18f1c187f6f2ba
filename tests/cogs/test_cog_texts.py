"""The tables cog's own texts come from the catalogue: its table messages and hands rendered in the pseudo-locale
(``qps``) carry no hard-coded English (buttons, selects, author lines, picture descriptions), and each message is
rendered in its own reader's language, whatever the caller's is."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from i18n.test_panels import leftover
from tables.test_service import ALICE, BOB, CAROL, CHANNEL, GUILD, make_service

from bot.games import registry
from bot.i18n import PSEUDO, using
from bot.records import _games
from cogs._layout import Message
from cogs.tables import TablesCog
from cogs.tables import frontend as tables_cog


def texts(msg: Message) -> Iterator[str]:
    """Every text a user sees in a message: the embed's parts, the layout's text displays, component labels."""
    if msg.embed is not None:
        e = msg.embed
        yield from (e.title or "", e.description or "", e.footer.text or "", e.author.name or "")
        for f in e.fields:
            yield f.name or ""
            yield f.value or ""
    if msg.view is not None:
        for child in msg.view.walk_children() if hasattr(msg.view, "walk_children") else msg.view.children:
            item = getattr(child, "item", child)  # a DynamicItem wraps the button or select it routes
            if isinstance(item, discord.ui.Button):
                yield item.label or ""
            elif isinstance(item, discord.ui.Select):
                yield item.placeholder or ""
                for o in item.options:
                    yield o.label
                    yield o.description or ""
            elif isinstance(item, discord.ui.TextDisplay):
                yield item.content


@pytest.fixture
def pseudo_readers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every reader (users and channels) reads the pseudo-locale; returns the list of lookups made."""
    asked: list[str] = []

    async def user_locale(bot: Any, user_id: int) -> str:
        asked.append(f"user {user_id}")
        return PSEUDO

    async def guild_locale(bot: Any, guild_id: int | None) -> str:
        asked.append(f"guild {guild_id}")
        return PSEUDO

    monkeypatch.setattr(tables_cog, "user_locale", user_locale)
    monkeypatch.setattr(tables_cog, "guild_locale", guild_locale)
    return asked


@pytest.mark.parametrize("game_id", ["wizard", "mighty"])
async def test_table_messages_and_hands_are_from_the_catalogue(game_id: str, pseudo_readers: list[str]) -> None:
    svc = await make_service()
    spec = registry.get(game_id)
    t = await svc.create(
        guild_id=GUILD, channel_id=CHANNEL, game_id=game_id, host_id=ALICE, host_name="alice", options={},
        turn_timeout=None,
    )  # fmt: skip
    try:
        cog = TablesCog(None, svc)  # type: ignore[arg-type]
        names = {"alice", "bob", "carol", *(f"Computer {n}" for n in range(1, 4))}
        cards = {spec.renderer.card_label(c) for c in _games.deck(game_id)}
        data = names | cards | {"OpenSkill", "ISMCTS"} | {f"{k}={v}" for k, v in t.options.items()}

        def check(msg: Message, where: str) -> None:
            for text in texts(msg):
                for line in text.splitlines():
                    assert not leftover(line, data), f"{where}: hard-coded text in {line!r}"

        await svc.join(t.id, BOB, "bob")
        msg, _ = await cog.frontend._table_message(t)
        check(msg, "lobby")
        await svc.join(t.id, CAROL, "carol")
        while len(t.seats) < spec.min_seats:
            await svc.add_computer(t.id, ALICE, None)
        await svc.start(t.id, ALICE)
        await svc.idle()
        rng = random.Random(3)
        with using("ru"):  # the caller's language never leaks into a message for another reader
            for step in range(12):
                if t.game is None or t.status != "running":
                    break
                msg, _ = await cog.frontend._table_message(t)
                check(msg, f"table message, step {step}")
                for seat in range(3):
                    msg, _ = await cog.frontend._private(t, seat, ("dm", t.id, seat))
                    check(msg, f"hand of seat {seat}, step {step}")
                movers = [s for s in t.game.to_move() if t.seats[s].user_id is not None]
                if not movers:
                    break
                seat = movers[0]
                action = rng.choice(t.game.legal_actions(seat))
                await svc.act(t.id, t.seats[seat].user_id or 0, action, t.version)
                await svc.idle()
    finally:
        # an open database's thread would outlive the test (a full run hung at exit on it)
        await svc.db.close()
    assert f"guild {GUILD}" in pseudo_readers and f"user {BOB}" in pseudo_readers

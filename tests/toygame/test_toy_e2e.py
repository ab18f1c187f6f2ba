"""A game defined only under ``tests/toygame`` plugs into Tavolo by registering its spec: a lobby, a computer
seat, DM hands, a settlement in the ledger and ``/leaderboard``, all through the real bot and the fake Discord."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e.driver import Player, game_over, play_until, start_bot, stop_bot
from fakediscord import FakeDiscord

from bot.engine.protocol import replay
from bot.games import registry

from .engine import ToyGame
from .spec import SPEC

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy() -> Iterator[None]:
    registry.register(SPEC)
    try:
        yield
    finally:
        registry.unregister(SPEC.id)


def test_nothing_outside_the_test_package_knows_the_toy() -> None:
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            assert "toygame" not in text and '"toy"' not in text, path


def test_toy_replays_exactly() -> None:
    rng = random.Random(4)
    game = ToyGame(3, {}, 11)
    log = []
    while not game.is_over:
        seat = game.to_move()[0]
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append((seat, action))
    again = replay(ToyGame, 3, {}, 11, log)
    assert again.public_view() == game.public_view() and again.settlements() == game.settlements()


async def test_toy_game_end_to_end(toy: None, fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Toys")
    channel = fake.add_channel(guild, "play")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "toy.db", dev_guild=guild.id)
    try:
        await fake.wait_for_commands("toy")
        opened = await (await alice.slash(channel, "toy new", bonus=1)).reply()
        assert "Toy table is open" in opened.text()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        await (await bob.click(lobby, label="Join")).ack()
        await (await alice.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda: "Computer 1" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()

        # each human gets their hand by DM, and only their own
        await fake.wait_for(lambda: bool(alice.dm_messages()) and bool(bob.dm_messages()))
        assert bot.tables is not None
        table = next(iter(bot.tables.tables.values()))
        assert table.game is not None
        for user, seat in ((alice, 0), (bob, 1)):
            dm = user.dm_messages()[-1].text()
            own = table.game.view(seat)["hand"]
            others = [c for s in range(3) if s != seat for c in table.game.view(s)["hand"]]
            assert all(SPEC.renderer.card_label(c) in dm for c in own)
            assert not any(SPEC.renderer.card_label(c) in dm for c in others)

        players = [Player(fake, alice, random.Random(1)), Player(fake, bob, random.Random(2))]
        await play_until(fake, players, lambda: game_over(fake, channel))
        summary = next(m for m in fake.channel_messages(channel) if "Toy hand over" in m.text())
        assert "alice" in summary.text()

        # booked once in the ledger, zero-sum not required for points; the leaderboard reads it
        assert bot.ledger is not None
        rows = await bot.ledger.history(guild.id, alice.id)
        assert len([r for r in rows if r.game == "toy"]) == 1
        board = await (await alice.slash(channel, "leaderboard", game="toy")).reply()
        assert "Toy leaderboard" in board.text() and str(alice.id) in board.text()
    finally:
        await stop_bot(bot, task)

"""Card pictures end to end: each game's table and hands as Components V2 messages with PNG attachments.

The real discord.py bot plays a few moves of every game against the fake Discord with pictures on (the bot's
default). The table message and every hand (a DM, and the ephemeral **My hand** fallback of a player whose DMs
are closed) are V2 messages whose media gallery points at an uploaded PNG; each also says in text what its
picture shows (the hand's cards, the trick's cards). A picture is uploaded again only when it changed. With
``/tavolo config images:off`` the same table is text only (embeds, no attachments), and a player's
``/table images off`` turns off their own pictures only.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.users import FakeUser

from bot.games import registry
from bot.tables import screens

from .driver import Player, play_until, quiesce, start_bot, stop_bot, table_message

PNG = b"\x89PNG\r\n\x1a\n"
#: (options of ``/<game> new``, computers to add) for a short game of 2 humans
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "wizard": ({"rounds": "3-4"}, 1),
    "mediatore": ({"hands": 1}, 2),
    "mighty": ({"hands": 1}, 3),
    "minchiate": ({"deals_per_game": 1}, 2),
}


async def _open(fake: FakeDiscord, channel: st.Channel, game: str, host: FakeUser, guest: FakeUser) -> None:
    options, computers = GAMES[game]
    await (await host.slash(channel, f"{game} new", **options)).reply()
    lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
    await (await guest.click(lobby, label="Join")).ack()
    for i in range(computers):
        await (await host.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda i=i: f"Computer {i + 1}" in fake.message(lobby.id).text())
    await (await host.click(lobby, label="Start")).ack()


def _picture(fake: FakeDiscord, message: st.Message, prefix: str) -> bytes:
    """The one picture a V2 message shows: referenced by its gallery, attached to it, a PNG."""
    assert message.is_v2 and not message.content and not message.embeds
    urls = message.media_urls()
    assert len(urls) == 1 and urls[0].startswith(f"attachment://{prefix}-") and urls[0].endswith(".png"), urls
    attachment = message.attachment(urls[0].removeprefix("attachment://"))
    assert attachment is not None and attachment["content_type"] == "image/png"
    data = fake.world.files[attachment["id"]]
    assert data.startswith(PNG) and len(data) == attachment["size"]
    return data


def _uploads(fake: FakeDiscord, path_part: str) -> list[str]:
    """The file names uploaded by the requests to ``path_part`` (multipart bodies), in order."""
    names: list[str] = []
    for r in fake.requests:
        if path_part in r.path and isinstance(r.json, dict):
            names += [str(a["filename"]) for a in r.json.get("attachments") or [] if "filename" in a]
    return names


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_pictures_of_every_game(fake_discord: FakeDiscord, tmp_path: Path, game: str) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, carol = fake.add_user("alice"), fake.add_user("carol", dms_closed=True)
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id, images=True)
    try:
        await _open(fake, channel, game, alice, carol)
        await fake.wait_for_message(channel, lambda m: "can't send you direct messages" in m.text())
        table_msg = await fake.wait_for(lambda: table_message(fake, channel))
        await (await carol.click(table_msg, label="My hand")).reply()
        players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, carol))]
        await play_until(fake, players, lambda: False, stop_after=6)
        await quiesce(bot)

        assert bot.tables is not None
        t = next(iter(bot.tables.tables.values()))
        assert t.game is not None and t.status == "running"
        renderer = registry.renderer(game)
        label = renderer.card_label

        # the table: its picture, and in text the same trick
        tm = fake.message(table_msg.id)
        _picture(fake, tm, "table")
        text = tm.text()
        assert screens.table_screen(t).panel.title in text
        for _, card in (t.game.public_view().get("trick") or {}).get("plays", []):
            assert label(card) in text
        # the table message never got the picture it already had
        current = None
        for name in _uploads(fake, f"/messages/{tm.id}"):
            assert name != current
            current = name

        # each hand: a DM (alice) or the ephemeral fallback (carol), with every card named in text
        for user in (alice, carol):
            seat = t.seat_of(user.id)
            assert seat is not None
            panel = players[0 if user is alice else 1].panel()
            assert panel is not None and (panel.ephemeral_for == user.id) == user.dms_closed
            hand = t.game.view(seat)["hand"]
            if hand and panel.media_urls():
                _picture(fake, panel, "hand")
            for card in hand:
                assert label(card) in panel.text()
        alice_dm = players[0].panel()
        assert alice_dm is not None and alice_dm.attachments  # alice holds cards after 6 moves of any game
    finally:
        await stop_bot(bot, task)
    fake.assert_clean()


async def test_images_off_by_the_server_and_by_a_player(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice", admin=True), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id, images=True)
    try:
        # a player's own choice: bob sees text-only hands, the others keep their pictures
        await (await bob.slash(channel, "table images", mode="off")).reply()
        await _open(fake, channel, "mighty", alice, bob)
        players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, bob))]
        await play_until(fake, players, lambda: False, stop_after=2)
        await quiesce(bot)
        assert all(not m.attachments and not m.is_v2 and m.embeds for m in bob.dm_messages())
        assert any(m.attachments for m in alice.dm_messages())

        # the server's choice: a new table is text only everywhere (today's embeds, no attachments)
        reply = await (await alice.slash(channel, "tavolo config", images="off")).reply()
        assert "text only" in reply.text()
        confirm = await (await alice.slash(channel, "table end")).reply()
        await (await alice.click(confirm, label="Yes, end it")).ack()
        await quiesce(bot)
        before = len(fake.channel_messages(channel))
        await _open(fake, channel, "mighty", alice, bob)
        await play_until(fake, players, lambda: False, stop_after=2)
        await quiesce(bot)
        new = fake.channel_messages(channel)[before:]
        assert new and all(not m.attachments and not m.is_v2 for m in new)
        latest_dm = alice.dm_messages()[-1]
        assert latest_dm.embeds and not latest_dm.attachments and not latest_dm.is_v2
    finally:
        await stop_bot(bot, task)
    fake.assert_clean()


@pytest.mark.parametrize("game", ["mediatore", "mighty"])
async def test_the_end_of_a_hand_posts_its_reveal(fake_discord: FakeDiscord, tmp_path: Path, game: str) -> None:
    """The hand's summary comes with a picture of what the hand revealed (the cards each side took), drawn from
    the public view; the summary's text says it all."""
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id, images=True)
    try:
        await _open(fake, channel, game, alice, bob)
        players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, bob))]
        await play_until(fake, players, lambda: any("game over" in m.text() for m in fake.channel_messages(channel)))
        await quiesce(bot)
        posts = [m for m in fake.channel_messages(channel) if m.attachments and not m.is_v2]
        assert len(posts) == 1, [m.text()[:60] for m in posts]
        (attachment,) = posts[0].attachments
        assert str(attachment["filename"]).startswith("reveal-")
        assert fake.world.files[attachment["id"]].startswith(PNG)
        assert "alice" in posts[0].text() or "bob" in posts[0].text()  # the text equivalent: the hand's summary
    finally:
        await stop_bot(bot, task)
    fake.assert_clean()

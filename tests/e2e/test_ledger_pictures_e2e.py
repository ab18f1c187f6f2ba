"""Ledger pictures end to end: `/ledger chart`, `/leaderboard` and the season recap carry a PNG beside their text.

Hands are booked straight into the bot's ledger (the games' own e2e tests cover booking through play); the
commands then run through the fake Discord against the real bot, with pictures on and, for one, turned off.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.users import FakeUser

from bot.ledger import SeatRef

from .driver import start_bot, stop_bot

PNG = b"\x89PNG\r\n\x1a\n"


async def book_hands(bot: Any, guild: st.Guild, users: list[FakeUser], hands: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    ledger = bot.services.ledger
    for i in range(hands):
        seats = rng.sample(users, 3)
        stake = [rng.randint(-6, 6), rng.randint(-6, 6)]
        await ledger.settle(
            key=f"e2e:{i}", guild_id=guild.id, game="mighty", table_id=i, hand_index=0,
            seats=[SeatRef(u.id, u.name) for u in seats], amounts={"stake": [*stake, -sum(stake)]},
        )  # fmt: skip


def picture_of(fake: FakeDiscord, message: st.Message, prefix: str) -> bytes:
    """The one PNG a V2 message shows (gallery -> attachment -> uploaded bytes)."""
    assert message.is_v2, message.text()
    urls = message.media_urls()
    assert len(urls) == 1 and urls[0].startswith(f"attachment://{prefix}-"), urls
    attachment = message.attachment(urls[0].removeprefix("attachment://"))
    assert attachment is not None and attachment["content_type"] == "image/png"
    data = fake.world.files[attachment["id"]]
    assert data.startswith(PNG)
    return data


async def test_ledger_chart_carries_a_picture_with_the_same_balances(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    users = [fake.add_user(n) for n in ("alice", "bruno", "carla", "dario")]
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id, images=True)
    try:
        await book_hands(bot, guild, users, 30)
        reply = await (await users[0].slash(channel, "ledger chart")).reply()
        picture_of(fake, reply, "chart")
        text = reply.text()
        for u in users:
            balance = (await bot.services.ledger.balance(guild.id, u.id, "stake"))["stake"]
            assert f"{u.name}: {balance:+d} stake" in text, text
        one = await (await users[1].slash(channel, "ledger chart", user=users[2], season="all")).reply()
        picture_of(fake, one, "chart")
        assert "carla" in one.text() and "alice" not in one.text()
        # a player who turned pictures off gets the same text, no attachment
        await (await users[3].slash(channel, "table images", mode="off")).reply()
        plain = await (await users[3].slash(channel, "ledger chart")).reply()
        assert not plain.media_urls() and "dario" in plain.text()
    finally:
        await stop_bot(bot, task)


async def test_leaderboard_carries_a_standings_picture(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    users = [fake.add_user("alice", admin=True), *(fake.add_user(n) for n in ("bruno", "carla", "dario"))]
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id, images=True)
    try:
        await book_hands(bot, guild, users, 20)
        board = await (await users[0].slash(channel, "leaderboard", game="mighty")).reply()
        picture_of(fake, board, "standings")
        text = board.text()
        assert "Mighty leaderboard" in text and not board.flags & 64
        top = await bot.services.ledger.leaderboard(guild.id, game="mighty", limit=10)
        for r in top:  # every row of the picture's data is in the text, in the same order
            assert f"<@{r.user_id}>" in text and f"{r.total:+d} stake" in text
        assert [text.index(f"<@{r.user_id}>") for r in top] == sorted(text.index(f"<@{r.user_id}>") for r in top)
        rated = await (await users[1].slash(channel, "leaderboard", game="mighty", by="rating")).reply()
        picture_of(fake, rated, "standings")
        # the server turns pictures off: the same leaderboard as text only
        await (await users[0].slash(channel, "tavolo config", images="off")).reply()
        plain = await (await users[0].slash(channel, "leaderboard", game="mighty")).reply()
        assert not plain.media_urls() and not plain.attachments and "Mighty leaderboard" in plain.text()
    finally:
        await stop_bot(bot, task)


async def test_season_close_posts_the_recap_and_recap_posts_it_again(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    users = [fake.add_user("alice", admin=True), *(fake.add_user(n) for n in ("bruno", "carla"))]
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id, images=True)
    try:
        await book_hands(bot, guild, users, 12)
        confirm = await (await users[0].slash(channel, "season close")).reply()
        await (await users[0].click(confirm, label="Yes, close the season")).ack()
        recap = await fake.wait_for_message(channel, lambda m: "Season 1 recap" in m.text())
        picture_of(fake, recap, "recap")
        text = recap.text()
        assert "Records" in text and "Biggest single-hand win" in text and "Most-played game: Mighty, 12" in text
        board = await bot.services.ledger.leaderboard(guild.id, currency="stake", season=1)
        assert all(f"<@{r.user_id}>" in text and f"{r.total:+d} stake" in text for r in board)
        again = await (await users[1].slash(channel, "season recap")).reply()
        assert "Season 1 recap" in again.text() and again.text().split("Records")[1] == text.split("Records")[1]
        refused = await (await users[1].slash(channel, "season recap", season=7)).reply()
        assert "no season 7" in refused.text()
    finally:
        await stop_bot(bot, task)


async def test_tournament_standings_and_podium_carry_pictures(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    import asyncio

    from bot.transport.client import COGS, TavoloBot
    from bot.transport.endpoints import apply_endpoints

    from .driver import Player, play_until, quiesce, settings_for

    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "tournament")
    users = [fake.add_user("alice", admin=True), *(fake.add_user(n) for n in ("bob", "carol"))]
    settings = settings_for(fake, tmp_path / "t.db", guild.id, images=True)
    apply_endpoints(settings.api_base, settings.gateway_url)
    cogs = COGS if "cogs.tournament" in COGS else (*COGS, "cogs.tournament")
    bot = TavoloBot(settings, edit_interval=0.05, cogs=cogs)
    task = asyncio.create_task(bot.start(settings.token))
    await fake.wait_for_commands("tournament", "leaderboard", "season", "ledger")
    await fake.wait_until_ready()
    try:
        await (await users[0].slash(channel, "tournament create", game="wizard", rounds=1, hands_per_round=1)).reply()
        signup = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        for u in users[1:]:
            await (await u.click(signup, label="Join")).reply()
        await fake.wait_for(lambda: "Players (3)" in fake.message(signup.id).text())
        await (await users[0].click(signup, label="Start")).ack()
        players = [Player(fake, u, random.Random(i)) for i, u in enumerate(users)]

        def podium() -> st.Message | None:
            return next((m for m in fake.channel_messages(channel) if "final podium" in m.text()), None)

        await play_until(fake, players, lambda: podium() is not None, max_clicks=300)
        await quiesce(bot)
        await bot.get_cog("Tournament").outbox.drain()  # type: ignore[union-attr]
        top = podium()
        assert top is not None
        picture_of(fake, top, "podium")
        assert all(u.name in top.text() for u in users)
        live = [m for m in fake.channel_messages(channel) if "— standings" in m.text()]
        assert len(live) == 1 and "final" in live[0].text()
        picture_of(fake, live[0], "standings")
        mine = await (await users[1].slash(channel, "tournament standings")).reply()
        picture_of(fake, mine, "standings")
        assert all(u.name in mine.text() for u in users)
        # the server turns pictures off: the V2 standings message stays V2 (Discord allows no embed there), text only;
        # the finished tournament is read back from the database, as after a restart: the layout is known from it
        await (await users[0].slash(channel, "tavolo config", images="off")).reply()
        cog: Any = bot.get_cog("Tournament")
        t = await cog.service.latest(channel.id)
        await cog._render_standings(t)
        again = fake.message(live[0].id)
        assert again.is_v2 and not again.media_urls() and not again.attachments and "— standings" in again.text()
    finally:
        await bot.close()
        await task

"""The real bot with its Activity, in real browsers: five pages play a Mighty hand to its end while the channel's
table message follows, and a Wizard game mixes Activity players with a player who plays from Discord's DMs
(and every page's socket drops once mid-game).

The bot runs in this process against the fake Discord (tests/fakediscord), which also answers the OAuth2 code
exchange, /users/@me and the activity-instance check; each page is a harness playing Discord's side of the SDK
(harness.py). Players decide from what their page shows (play.py); the test reads the bot only to know when
every page has caught up and for its checks.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from e2e.driver import Player, quiesce, settings_for, stop_bot
from fakediscord import FakeDiscord
from fakediscord import state as st

from bot.transport.client import TavoloBot
from bot.transport.endpoints import apply_endpoints, reset_endpoints

from .harness import Seat, chromium, open_seat
from .play import answered, caught_up, offers, tap

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def activity_bot(fake: FakeDiscord, db: Path) -> AsyncIterator[tuple[TavoloBot, str]]:
    """The bot with its Activity on a free loopback port; pages come from that origin (TAVOLO_ACTIVITY_ORIGIN)."""
    port = _free_port()
    origin = f"http://127.0.0.1:{port}"
    settings = dataclasses.replace(
        settings_for(fake, db),
        activity_port=port,
        client_secret=fake.activities.client_secret,
        activity_origin=origin,
    )
    apply_endpoints(settings.api_base, settings.gateway_url)
    bot = TavoloBot(settings, edit_interval=0.05)
    task = asyncio.create_task(bot.start(settings.token))
    try:
        await fake.wait_for_commands("table")
        await fake.wait_until_ready()
        yield bot, origin
    finally:
        await stop_bot(bot, task)
        reset_endpoints()


async def open_pages(browser: Any, fake: FakeDiscord, origin: str, channel: st.Channel, users: list[Any]) -> list[Seat]:
    instance = fake.activities.launch(channel, *users)
    seats = []
    for u in users:
        seat = await open_seat(
            browser,
            origin,
            code=fake.activities.authorize(u),
            user_id=str(u.id),
            username=u.name,
            client_id=str(fake.application_id),
            instance_id=instance.instance_id,
            channel_id=str(channel.id),
            guild_id=str(channel.guild_id),
        )
        seats.append(seat)
    return seats


async def tap_op(seat: Seat, op: str) -> None:
    await seat.frame.locator(f'.table-buttons button[data-op="{op}"]').click()


def the_table(bot: TavoloBot) -> Any:
    assert bot.tables is not None
    (t,) = bot.tables.tables.values()
    return t


async def test_five_pages_play_a_mighty_hand_while_the_table_message_follows(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Activity")
    channel = fake.add_channel(guild, "cards")
    users = [fake.add_user(name) for name in ("alice", "bob", "carol", "dave", "erin")]
    async with activity_bot(fake, tmp_path / "t.db") as (bot, origin), chromium() as browser:
        await (await users[0].slash(channel, "mighty new", hands=1, weak_hand_misdeal=False)).reply()
        seats = await open_pages(browser, fake, origin, channel, users)
        for seat in seats:
            await seat.frame.wait_for_selector('.table[data-status="lobby"]')
        # the lobby from the pages: the four others join, the host starts
        t = the_table(bot)
        for seat in seats[1:]:
            await tap_op(seat, "join")
        await fake.wait_for(lambda: len(t.seats) == 5, description="five seats")
        await tap_op(seats[0], "start")
        await fake.wait_for(lambda: t.status == "running", description="the start")

        rng = random.Random("mighty-pages")
        message = None
        taps = shot = 0
        while t.status == "running":
            await quiesce(bot)
            await caught_up(seats, lambda: t.version)
            version = t.version
            if t.status != "running":
                break
            # the channel's table message follows the same table (each page's view and it are one table screen)
            message = next(
                m for m in fake.channel_messages(channel) if any(b["label"] == "My hand" for b in m.buttons())
            )
            movers = [(seat, o) for seat in seats for o in await offers(seat)]
            assert movers, f"nobody can move at version {version}"
            seat, offer = rng.choice(movers)
            # the page's hand is its seat's hand, no more, no less
            shown = await seat.frame.eval_on_selector_all(".hand .card", "cs => cs.map((c) => c.dataset.card)")
            assert sorted(shown) == sorted(t.game.view(t.seat_of(int(seat.user_id))).get("hand") or [])
            if (
                not shot
                and offer[0] == "card"
                and len(the_trick(t)) >= 3
                and os.environ.get("TAVOLO_ACTIVITY_SCREENSHOT")
            ):
                await seat.page.set_viewport_size({"width": 390, "height": 760})
                await seat.page.screenshot(path=str(DOCS / "activity.png"))
                shot = 1
            await tap(rng, seat, offer)
            took = await answered(seat, lambda v=version: t.version != v)
            # a raised card is one the bot takes: only a random combination may be refused (and is tried again)
            assert took or offer[0] != "card", f"the bot refused {offer}, shown as playable"
            taps += 1
            assert taps < 600
        await quiesce(bot)
        for seat in seats:
            await seat.frame.wait_for_selector('.table[data-status="finished"]')
            assert seat.errors == [], seat.errors
        assert message is not None
        final = fake.message(message.id)
        assert len(final.edits) > 10  # edited along the hand (coalesced), not re-posted
        title = await seats[0].frame.locator(".bar .title").inner_text()
        assert final.embeds[0]["title"] == title
        assert any("game over" in m.text() for m in fake.channel_messages(channel))
        fake.assert_clean()


def the_trick(t: Any) -> list[Any]:
    view = t.game.public_view() if t.game is not None else {}
    return list((view.get("trick") or {}).get("plays") or [])


async def test_a_wizard_game_mixes_activity_pages_and_a_dm_player(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Mixed")
    channel = fake.add_channel(guild, "cards")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    async with activity_bot(fake, tmp_path / "t.db") as (bot, origin), chromium() as browser:
        await (await alice.slash(channel, "wizard new", rounds="1-2", stake_per_point=1)).reply()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        # Carol joins from Discord's message; Alice and Bob play in the Activity
        await (await carol.click(lobby, label="Join")).ack()
        seats = await open_pages(browser, fake, origin, channel, [alice, bob])
        t = the_table(bot)
        await seats[1].frame.wait_for_selector('.table[data-status="lobby"]')
        await tap_op(seats[1], "join")
        await fake.wait_for(lambda: len(t.seats) == 3, description="three seats")
        await tap_op(seats[0], "start")
        await fake.wait_for(lambda: t.status == "running", description="the start")

        rng = random.Random("wizard-mixed")
        carol_player = Player(fake, carol, rng)
        by_page = by_dm = 0
        dropped = False
        while t.status == "running":
            await quiesce(bot)
            await caught_up(seats, lambda: t.version)
            version = t.version
            if t.status != "running":
                break
            if by_page + by_dm == 6 and not dropped:
                # the network drops every page's socket mid-game: they come back (the session each welcome
                # handed over) at the table's current version, which the next look waits for
                server = bot.activity_server
                assert server is not None
                old = set(server._sockets)
                assert len(old) == 2
                for ws in old:
                    await ws.close()
                await fake.wait_for(
                    lambda old=old, server=server: len(server._sockets) == 2 and not server._sockets & old,
                    description="both pages back",
                )
                for seat in seats:
                    await seat.frame.locator(".link").wait_for(state="detached")
                dropped = True
                continue
            movers: list[tuple[Any, Any]] = [(seat, o) for seat in seats for o in await offers(seat)]
            if carol_player.can_act():
                movers.append((carol_player, None))
            assert movers, f"nobody can move at version {version}"
            who, offer = rng.choice(movers)
            if isinstance(who, Player):
                await (await who.act()).ack()
                await fake.wait_for(
                    lambda v=version: t.version != v or t.status != "running", description="Carol's move"
                )
                by_dm += 1
            else:
                await tap(rng, who, offer)
                took = await answered(who, lambda v=version: t.version != v)
                assert took or offer[0] != "card", f"the bot refused {offer}, shown as playable"
                by_page += took
            assert by_page + by_dm < 400
        assert by_page > 0 and by_dm > 0 and dropped
        await quiesce(bot)
        for seat in seats:
            await seat.frame.wait_for_selector('.table[data-status="finished"]')
            assert seat.errors == [], seat.errors
        assert any("game over" in m.text() for m in fake.channel_messages(channel))
        # the ledger booked the game once, zero-sum, whichever front-end each player used
        rows = await bot.db.fetchall("SELECT currency, amount FROM entries")  # type: ignore[union-attr]
        assert rows and sum(r[1] for r in rows if r[0] == "stake") == 0

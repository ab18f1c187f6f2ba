"""The client in a real Chromium against a scripted stand-in of the bot (stub.py): signing in through the SDK,
playing a card from the hand, refusals, the confirmation before leaving, a dropped WebSocket, the phone layout."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from .harness import Seat, chromium, open_seat
from .stub import HAND, StubBot, wait_for

# one Chromium for the module (each test opens its own browser context: fresh storage, like another device)
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module")
async def stub() -> AsyncIterator[StubBot]:
    bot = await StubBot().start()
    try:
        yield bot
    finally:
        await bot.stop()


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Any]:
    async with chromium() as b:
        yield b


@pytest_asyncio.fixture(loop_scope="module", autouse=True)
async def close_pages(browser: Any) -> AsyncIterator[None]:
    yield
    for context in browser.contexts:
        await context.close()


async def alice(browser: Any, stub: StubBot, **kw: Any) -> Seat:
    seat = await open_seat(
        browser,
        stub.url,
        code="code-alice",
        user_id="1",
        username="alice",
        client_id="4242",
        instance_id="i-1",
        channel_id="100",
        guild_id="10",
        **kw,
    )
    await seat.frame.wait_for_selector(".hand .card.legal")
    return seat


def hellos(stub: StubBot) -> list[dict[str, Any]]:
    return [f for f in stub.received if f.get("t") == "hello"]


async def test_signs_in_through_the_sdk_and_plays_a_tapped_card(browser: Any, stub: StubBot) -> None:
    seat = await alice(browser, stub)
    assert await seat.sdk_commands() == ["AUTHORIZE", "AUTHENTICATE"]
    [hello] = hellos(stub)
    assert hello["known"] == {} and stub.sessions[hello["session"]] is True
    assert stub.ws_paths == ["/shard/1/api/ws"]  # the socket the token reply named
    frame = seat.frame
    assert await frame.locator(".hand .card").count() == 10
    assert await frame.locator(".seat").count() == 4
    # the reader's own seat sits at the bottom of the felt, whatever the public picture's bottom seat
    tops = [(await frame.locator(".seat").nth(i).bounding_box() or {})["y"] for i in range(4)]
    assert max(tops) == tops[0] and await frame.locator(".seat.me").get_attribute("data-seat") == "0"
    assert await frame.locator(".turn").inner_text() == "Your turn"
    # the public texts (the score sheet's panel) are markdown from the bot: bold stays bold, nothing is injected
    await frame.locator(".scores-toggle").click()
    assert await frame.locator(".sheet strong").text_content() == "scripted"
    await frame.locator(".sheet .close").click()

    await seat.play_card("KS")
    await wait_for(lambda: any(f.get("t") == "act" for f in stub.received))
    [act] = [f for f in stub.received if f.get("t") == "act"]
    assert act["table"] == 7 and act["version"] == 1 and act["action"] == {"type": "play", "card": "KS"}
    await frame.wait_for_selector('.trick .card[data-card="KS"]')
    assert await frame.locator(".hand .card").count() == 9
    # the select of the Discord DM is not repeated: the hand is the control
    assert await frame.locator("select.control").count() == 0
    assert seat.errors == []


async def test_a_refused_sign_in_shows_the_bots_text_and_opens_no_socket(browser: Any, stub: StubBot) -> None:
    seat = await open_seat(
        browser,
        stub.url,
        code="a-code-discord-never-gave",
        user_id="1",
        username="alice",
        client_id="4242",
        instance_id="i-1",
        channel_id="100",
        guild_id="10",
    )
    closed = seat.frame.locator(".link.closed")
    await closed.wait_for()
    assert await closed.inner_text() == "That sign-in did not work."
    assert stub.ws_paths == [] and await seat.sdk_commands() == ["AUTHORIZE"]


async def test_a_refusal_shows_the_bots_text_and_changes_nothing(browser: Any, stub: StubBot) -> None:
    seat = await alice(browser, stub)
    stub.refuse_next = "You must follow suit."
    await seat.play_card("AS")
    toast = seat.frame.locator(".toast")
    await toast.wait_for()
    assert await toast.inner_text() == "You must follow suit."
    assert await seat.frame.locator(".hand .card").count() == 10
    assert seat.errors == []


async def test_a_hint_is_shown_in_the_bots_words(browser: Any, stub: StubBot) -> None:
    seat = await alice(browser, stub)
    await seat.frame.locator('button[data-op="hint"]').click()
    toast = seat.frame.locator(".toast.info")
    await toast.wait_for()
    assert await toast.inner_text() == "💡 The strong computer would play K♠."
    assert await toast.locator("strong").inner_text() == "K♠"


async def test_the_turn_timer_counts_down_to_the_deadline(browser: Any) -> None:
    start = 2_000_000_000  # the page's clock (epoch seconds), driven by the test: no waiting
    stub = await StubBot(deadline=(start + 60) * 1000).start()
    try:
        seat = await alice(browser, stub, clock=start)
        clock = seat.page.context.clock
        await clock.pause_at(start + 10)
        first = int((await seat.frame.locator(".timer").inner_text()).split()[0])
        await clock.run_for(5000)
        later = await seat.frame.locator(".timer").inner_text()
        assert 49 <= first <= 51 and later == f"{first - 5} s left"
        await clock.run_for(120_000)  # past the deadline it stays at 0, it never counts below
        assert await seat.frame.locator(".timer").inner_text() == "0 s left"
    finally:
        await stub.stop()


async def test_leaving_a_running_game_asks_first(browser: Any, stub: StubBot) -> None:
    seat = await alice(browser, stub)
    frame = seat.frame
    await frame.locator(".menu-toggle").click()
    await frame.locator('button[data-op="leave"]').click()
    modal = frame.locator(".modal")
    await modal.wait_for()
    assert "Leave the game?" in await modal.inner_text()
    # as with Discord's ephemeral question, not answering is no: a tap beside the box dismisses it
    await frame.locator(".scrim").click(position={"x": 5, "y": 5})
    assert await frame.locator(".modal").count() == 0
    assert not [f for f in stub.received if f.get("t") == "lobby"]

    await frame.locator(".menu-toggle").click()
    await frame.locator('button[data-op="leave"]').click()
    await frame.locator(".modal").get_by_role("button", name="Yes, leave").click()
    await wait_for(lambda: any(f.get("t") == "lobby" for f in stub.received))
    [lobby] = [f for f in stub.received if f.get("t") == "lobby"]
    assert lobby["op"] == "leave" and lobby["table"] == 7
    await frame.wait_for_selector('.table[data-status="finished"]')


async def test_a_dropped_websocket_reconnects_with_a_fresh_session_and_resumes(browser: Any, stub: StubBot) -> None:
    seat = await alice(browser, stub)
    frame = seat.frame
    first = hellos(stub)[0]
    await stub.drop()
    # the table moves on while the page is away: the page must come back showing it
    await stub.play("AS")
    await wait_for(lambda: len(hellos(stub)) == 2)
    again = hellos(stub)[1]
    # it says which version it holds, and uses a new session from api/session (a session is used once)
    assert again["known"] == {"7": 1}
    assert again["session"] != first["session"] and stub.session_requests == 1
    await frame.wait_for_selector('.trick .card[data-card="AS"]')
    assert await frame.locator(".hand .card").count() == 9
    await seat.play_card("QH")
    await frame.wait_for_selector('.trick .card[data-card="QH"]')
    acts = [f for f in stub.received if f.get("t") == "act"]
    assert acts[-1]["version"] == 2
    assert seat.errors == []


async def test_a_reconnect_uses_the_session_the_welcome_handed_over(browser: Any) -> None:
    stub = await StubBot(renew=True).start()
    try:
        seat = await alice(browser, stub)
        await stub.drop()
        await wait_for(lambda: len(hellos(stub)) == 2)
        # no api/session round trip: the welcome's session, never presented before, opens the new socket
        assert stub.session_requests == 0
        assert hellos(stub)[1]["session"] != hellos(stub)[0]["session"]
        await seat.frame.wait_for_selector(".hand .card.legal")
        assert await seat.frame.locator(".link").count() == 0
    finally:
        await stub.stop()


async def test_a_patch_that_does_not_follow_the_held_version_resyncs(browser: Any, stub: StubBot) -> None:
    seat = await alice(browser, stub)
    # a patch from a version the page never saw: it must not be applied on top, but fetched whole
    stub.version += 5
    await stub.play("AS")
    await wait_for(lambda: len(hellos(stub)) == 2)
    assert hellos(stub)[1]["known"] == {"7": 1}
    await seat.frame.wait_for_selector('.trick .card[data-card="AS"]')


async def test_phone_frame_shows_the_whole_hand(browser: Any) -> None:
    stub = await StubBot(hand=HAND).start()
    try:
        seat = await alice(browser, stub, width=360, height=640)
        cards = seat.frame.locator(".hand .card")
        assert await cards.count() == 13
        boxes = [await cards.nth(i).bounding_box() for i in range(13)]
        for box in boxes:
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= 360
            assert box["y"] >= 0 and box["y"] + box["height"] <= 640
        # each card shows at least its corner index (overlapping, never hidden under the next)
        steps = [b["x"] - a["x"] for a, b in itertools.pairwise(boxes)]  # type: ignore[index]
        assert min(steps) >= 14
        # a thumb on the visible corner of a covered card plays that card
        await seat.play_card("KS")
        await seat.frame.wait_for_selector('.trick .card[data-card="KS"]')
        # the table and its seats fit the frame too
        for i in range(await seat.frame.locator(".seat").count()):
            box = await seat.frame.locator(".seat").nth(i).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert seat.errors == []
    finally:
        await stub.stop()


def _not_network(errors: list[str]) -> list[str]:
    """The page's errors other than the browser's own note of a refused request (a 429, a 503 is logged so)."""
    return [e for e in errors if "Failed to load resource" not in e and "WebSocket connection" not in e]


async def test_a_sign_in_met_with_429_is_retried_until_it_succeeds(browser: Any) -> None:
    stub = await StubBot().start()
    stub.limit_tokens = True
    try:
        seat = await open_seat(
            browser,
            stub.url,
            code="code-alice",
            user_id="1",
            username="alice",
            client_id="4242",
            instance_id="i-1",
            channel_id="100",
            guild_id="10",
        )
        # the bot's words while it waits, never a dead end: the page asks again (with a fresh code each time)
        await seat.frame.locator(".link.connecting", has_text="Not so fast").wait_for()
        await wait_for(lambda: stub.token_requests >= 2)
        assert await seat.frame.locator(".link.closed").count() == 0
        stub.limit_tokens = False
        await seat.frame.wait_for_selector(".hand .card.legal")
        assert await seat.frame.locator(".link").count() == 0
        commands = await seat.sdk_commands()
        assert commands[-1] == "AUTHENTICATE" and commands.count("AUTHORIZE") == stub.token_requests >= 3
        assert _not_network(seat.errors) == []
    finally:
        await stub.stop()


async def test_a_restarting_bot_is_waited_for_and_the_page_resumes(browser: Any, stub: StubBot) -> None:
    seat = await alice(browser, stub)
    await stub.restart()
    # while the bot is away its proxy answers 503: the page keeps trying (with backoff), showing it reconnects
    await wait_for(lambda: stub.down_hits >= 3)
    assert await seat.frame.locator(".link.reconnecting").count() == 1
    stub.down = False
    await wait_for(lambda: len(hellos(stub)) == 2)
    await seat.frame.wait_for_selector(".hand .card.legal")
    assert await seat.frame.locator(".link").count() == 0
    assert _not_network(seat.errors) == []

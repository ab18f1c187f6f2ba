"""The card table in a real Chromium, over real games' views (tables.py): the hand drawn once and played by taps,
a dimmed card that says why, Mighty's whole bid range in one control, only the controls a reader may use, and no
scrolling during play from a small phone to a desktop."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio

from bot.tables.model import Seat as TableSeat
from bot.tables.model import Table

from .harness import Seat, chromium, open_seat
from .stub import wait_for
from .tables import GameStub, advance, new_table

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Any]:
    async with chromium() as b:
        yield b


@pytest_asyncio.fixture(loop_scope="module", autouse=True)
async def close_pages(browser: Any) -> AsyncIterator[None]:
    yield
    for context in browser.contexts:
        await context.close()


def phase(t: Table) -> Any:
    assert t.game is not None
    return t.game.public_view().get("phase")


def to_move(t: Table) -> bool:
    assert t.game is not None
    return 0 in t.game.to_move()


def table_at(game: str, until: Callable[[Table], bool]) -> Table:
    for seed in range(1, 60):
        t = new_table(game, seed)
        if advance(random.Random(seed), t, until):
            return t
    raise AssertionError(f"no {game} table reached the state")


async def page(browser: Any, stub: GameStub, width: int = 390, height: int = 844, **kw: Any) -> Seat:
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
        width=width,
        height=height,
        **kw,
    )
    await seat.frame.wait_for_selector(".table")
    return seat


def must_follow(t: Table) -> bool:
    """Seat 0 is to play and some of its cards may not be played."""
    if not (phase(t) == "play" and to_move(t)):
        return False
    assert t.game is not None
    legal = {a["card"] for a in t.game.legal_actions(0) if a.get("type") == "play"}
    return 0 < len(legal) < len(t.game.view(0)["hand"])


async def test_the_hand_is_drawn_once_and_a_tap_lifts_then_plays(browser: Any) -> None:
    stub = await GameStub(table_at("wizard", must_follow), auto=False).start()
    try:
        seat = await page(browser, stub)
        frame = seat.frame
        view = stub.view()
        hand = view["private"]["hand"]["cards"]
        assert sorted(await frame.eval_on_selector_all(".hand .card", "cs => cs.map((c) => c.dataset.card)")) == sorted(
            hand
        )
        # no text list of the hand, no "Current trick" beside the felt: the page's words hold at most one card name
        # (the turned trump card, in the seat's note)
        text = await frame.evaluate("document.body.innerText")
        assert sum(view["cards"][c] in text for c in hand) <= 1, text
        assert "Your hand" not in text and "Current trick" not in text
        legal = await frame.eval_on_selector_all(".hand .card.legal", "cs => cs.map((c) => c.dataset.card)")
        code = legal[0]
        await seat.tap_card(code)
        await frame.locator(f'.hand .card.lifted[data-card="{code}"]').wait_for()
        assert not stub.acts  # a first tap only lifts the card
        await seat.tap_card(code)
        await wait_for(lambda: len(stub.acts) == 1)
        assert stub.acts[0]["action"] == {"type": "play", "card": code}
        await frame.wait_for_selector(f'.trick .card[data-card="{code}"]')
        assert seat.errors == []
    finally:
        await stub.stop()


async def test_a_dimmed_card_says_why_in_the_games_words(browser: Any) -> None:
    stub = await GameStub(table_at("mighty", must_follow), auto=False).start()
    try:
        seat = await page(browser, stub)
        why = stub.view()["private"]["hand"]["why"]
        code, reason = next(iter(why.items()))
        assert "follow" in reason or "Joker" in reason or "trump" in reason
        card = seat.frame.locator(f'.hand .card.dim[data-card="{code}"]')
        assert reason in (await card.get_attribute("aria-label") or "")
        await seat.tap_card(code)
        note = seat.frame.locator(".toast.info")
        await note.wait_for()
        assert reason in await note.inner_text()
        assert not stub.acts
    finally:
        await stub.stop()


async def test_the_keyboard_plays_a_card(browser: Any) -> None:
    stub = await GameStub(table_at("wizard", must_follow), auto=False).start()
    try:
        seat = await page(browser, stub)
        legal = await seat.frame.eval_on_selector_all(".hand .card.legal", "cs => cs.map((c) => c.dataset.card)")
        card = seat.frame.locator(f'.hand .card[data-card="{legal[0]}"]')
        await card.focus()
        await seat.page.keyboard.press("Enter")
        await seat.frame.locator(f'.hand .card.lifted[data-card="{legal[0]}"]').wait_for()
        await seat.page.keyboard.press("Enter")
        await wait_for(lambda: len(stub.acts) == 1)
        assert stub.acts[0]["action"]["card"] == legal[0]
        # the polite live region says what was played
        live = seat.frame.locator("#live")
        await wait_for(lambda: True)
        await seat.frame.wait_for_function("document.getElementById('live').textContent.includes('Alice')")
        assert await live.get_attribute("aria-live") == "polite"
    finally:
        await stub.stop()


def last_to_play(t: Table) -> bool:
    """Seat 0 plays the trick's last card (a trick is completed by the page's tap)."""
    assert t.game is not None
    n = len(t.seats)
    view = t.game.public_view()
    # (not the round's last trick: the next round starts with no previous trick)
    last = len(t.game.view(0)["hand"]) == 1
    return phase(t) == "play" and to_move(t) and len(view["trick"]["plays"]) == n - 1 and not last


@pytest.mark.parametrize("reduced", [False, True])
async def test_a_completed_trick_goes_to_its_winner_unless_motion_is_reduced(browser: Any, reduced: bool) -> None:
    stub = await GameStub(table_at("wizard", last_to_play), auto=False).start()
    try:
        seat = await page(browser, stub, reduced_motion=reduced)
        legal = await seat.frame.eval_on_selector_all(".hand .card.legal", "cs => cs.map((c) => c.dataset.card)")
        await seat.play_card(legal[0])
        await wait_for(lambda: len(stub.acts) == 1)
        await seat.frame.wait_for_selector(f'.table[data-version="{stub.table.version}"]')
        # the trick the page completed is drawn over the table on its way to the winner (planned from the views)
        ghosts = await seat.frame.locator(".fx .card.ghost").count()
        assert ghosts == (0 if reduced else len(stub.table.seats))
        live = await seat.frame.locator("#live").text_content() or ""
        assert "won a trick" in live
    finally:
        await stub.stop()


async def test_mightys_bids_are_one_control_over_the_whole_range(browser: Any) -> None:
    t = table_at("mighty", lambda t: phase(t) == "auction" and to_move(t))
    stub = await GameStub(t, auto=False).start()
    try:
        seat = await page(browser, stub)
        frame = seat.frame
        assert t.game is not None
        bids = [a for a in t.game.legal_actions(0) if a["type"] == "bid"]
        lo, hi = min(a["n"] for a in bids), max(a["n"] for a in bids)
        assert hi - lo >= 5  # more than one of Discord's menus held (they split at 25 of the 5 × n choices)
        assert await frame.locator(".ask.number").count() == 1
        assert await frame.locator("select").count() == 0
        picker = frame.locator(".ask.number .range")
        assert (await picker.get_attribute("min"), await picker.get_attribute("max")) == (str(lo), str(hi))
        await picker.fill(str(hi))
        await frame.locator(".ask.number output").filter(has_text=str(hi)).wait_for()
        top = next(a for a in bids if a["n"] == hi)
        await frame.locator(f'.ask.number .sends button[data-symbol="{top["trump"]}"]').click()
        await wait_for(lambda: len(stub.acts) == 1)
        assert stub.acts[0]["action"] == top
    finally:
        await stub.stop()


async def test_only_the_host_sees_end_table(browser: Any) -> None:
    t = table_at("wizard", lambda t: phase(t) == "play")
    stub = await GameStub(t, auto=False).start()
    try:
        seat = await page(browser, stub)
        await seat.frame.locator(".menu-toggle").click()
        assert await seat.frame.locator('.sheet button[data-op="end"]').count() == 1
        await seat.page.context.close()
        t.host_id = 2  # Bruno hosts: Alice's page offers no End table (nor a menu that would hold only it)
        seat = await page(browser, stub)
        await seat.frame.wait_for_selector(".hand .card")
        assert await seat.frame.locator(".menu-toggle").count() == 0
        assert await seat.frame.locator('[data-op="end"]').count() == 0
        assert await seat.frame.locator('[data-op="join"]').count() == 0
    finally:
        await stub.stop()


async def test_join_is_offered_only_to_who_is_not_seated(browser: Any) -> None:
    t = new_table("wizard", 1)
    t.status, t.game = "lobby", None
    stub = await GameStub(t, auto=False).start()
    try:
        seat = await page(browser, stub)
        await seat.frame.wait_for_selector('.table[data-status="lobby"]')
        assert await seat.frame.locator('button[data-op="join"]').count() == 0
        assert await seat.frame.locator('button[data-op="start"]').count() == 1  # Alice hosts
        await seat.page.context.close()
        t.seats = [TableSeat(2, "Bruno"), TableSeat(3, "Chiara")]
        t.host_id = 2
        seat = await page(browser, stub)
        await seat.frame.wait_for_selector('.table[data-status="lobby"]')
        assert await seat.frame.locator('button[data-op="join"]').count() == 1
        assert await seat.frame.locator('button[data-op="start"]').count() == 0
        assert await seat.frame.locator('button[data-op="leave"]').count() == 0
    finally:
        await stub.stop()


PLAYING = {
    "wizard": lambda t: phase(t) == "play" and to_move(t) and t.game.public_view()["round"] >= 8,  # type: ignore[union-attr]
    "mighty": lambda t: phase(t) == "auction" and to_move(t),
    "mediatore": lambda t: phase(t) == "play" and to_move(t),
    "minchiate": lambda t: phase(t) == "play" and to_move(t),
}


@pytest.mark.parametrize("size", [(360, 640), (1920, 1080)])
@pytest.mark.parametrize("game", list(PLAYING))
async def test_no_scrolling_during_play(browser: Any, game: str, size: tuple[int, int]) -> None:
    stub = await GameStub(table_at(game, PLAYING[game]), auto=False).start()
    try:
        width, height = size
        seat = await page(browser, stub, width, height)
        frame = seat.frame
        await frame.wait_for_selector(".hand .card")
        scroll = await frame.evaluate(
            "[document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight, innerWidth, innerHeight]"
        )
        assert scroll[0] <= scroll[2] and scroll[1] <= scroll[3], scroll
        # every card of the hand on the screen, every plate inside the felt
        boxes = await frame.eval_on_selector_all(
            ".hand .card, .felt .seat", "cs => cs.map((c) => c.getBoundingClientRect().toJSON())"
        )
        for b in boxes:
            assert b["left"] >= -1 and b["right"] <= width + 1 and b["top"] >= -1 and b["bottom"] <= height + 1, b
        # touch targets: every button at least 44 px each way
        small = await frame.eval_on_selector_all(
            "button", "bs => bs.map((b) => b.getBoundingClientRect()).filter((r) => r.width < 43.5 || r.height < 43.5)"
        )
        assert small == [], json.dumps(small)
        assert seat.errors == []
    finally:
        await stub.stop()

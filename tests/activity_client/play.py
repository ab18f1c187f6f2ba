"""A person at an Activity page, in a real browser: reads only what the page shows (playable cards, the choices'
controls, a card picker, a combination's cards) and taps them, as a player would; the bot's refusal shows as a
toast."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from .harness import Seat

#: what the page offers now, read from its DOM: (kind, which)
_OFFERS_JS = """() => {
  const out = [];
  document.querySelectorAll('.hand .card.legal').forEach((c) => out.push(['card', c.dataset.card]));
  document.querySelectorAll('.asks button.send:not([disabled])').forEach((b, i) => out.push(['button', i]));
  document.querySelectorAll('.asks .pick-cards').forEach((b, i) => out.push(['picker', i]));
  document.querySelectorAll('.asks .ask.combo').forEach((c, i) => out.push(['combo', i]));
  return out;
}"""


async def offers(seat: Seat) -> list[tuple[str, Any]]:
    return [tuple(x) for x in await seat.frame.evaluate(_OFFERS_JS)]  # type: ignore[misc]


async def caught_up(seats: list[Seat], current: Callable[[], int], timeout: float = 15.0) -> None:
    """Until every page shows the table at the bot's current version (read again at each look: a forced card
    or a timer may move the table on meanwhile)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        shown = [await s.frame.evaluate("document.querySelector('.table')?.dataset.version") for s in seats]
        if all(v == str(current()) for v in shown):
            return
        if loop.time() > end:
            raise AssertionError(f"pages show versions {shown}, the table is at {current()}")
        await asyncio.sleep(0.03)


async def tap(rng: random.Random, seat: Seat, offer: tuple[str, Any]) -> None:
    """Tap what ``offer`` names (a card asks which way when several actions play it: the page's own chooser)."""
    frame = seat.frame
    kind, which = offer
    if kind == "card":
        await seat.play_card(which)
        chooser = frame.locator(".modal button")
        if await chooser.count():
            await chooser.nth(rng.randrange(await chooser.count())).click()
    elif kind == "button":
        await frame.locator(".asks button.send:not([disabled])").nth(which).click()
    elif kind == "picker":
        await frame.locator(".asks .pick-cards").nth(which).click()
        cards = frame.locator(".card-picker .card")
        await cards.nth(rng.randrange(await cards.count())).click()
        await frame.locator(".card-picker .confirm").click()
    else:
        combo = frame.locator(".asks .ask.combo").nth(which)
        for i in range(await combo.locator(".field").count()):
            field = combo.locator(".field").nth(i)
            count = int(await field.get_attribute("data-count") or "1")
            key = await field.get_attribute("data-field")
            # the field's cards: those of the hand are tapped in the hand, the others are chips
            hand = await frame.eval_on_selector_all(".hand .card.pickable", "cs => cs.map((c) => c.dataset.card)")
            chips = await field.locator(".chip").evaluate_all("cs => cs.map((c) => c.dataset.value)")
            first = i == 0 or not hand
            pool = [("hand", c) for c in (hand if first else [])] + [("chip", c) for c in chips]
            for where, value in rng.sample(pool, min(count, len(pool))):
                # each tap redraws the page: find the card or chip again by its value
                if where == "hand":
                    await seat.tap_card(value)
                else:
                    field = frame.locator(f'.asks .ask.combo .field[data-field="{key}"]')
                    await field.locator(f'.chip[data-value="{value}"]').click()
        await frame.locator(".asks .ask.combo .confirm").nth(which).click()


async def answered(seat: Seat, moved: Callable[[], bool], timeout: float = 15.0) -> bool:
    """Until the bot took the tap (``moved()``) or refused it (a toast, removed here); True when taken."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if moved():
            return True
        if await seat.frame.locator(".toast").count():
            await seat.frame.evaluate("document.querySelectorAll('.toast').forEach((t) => t.remove())")
            return moved()
        await asyncio.sleep(0.02)
    raise AssertionError("the bot neither took nor refused a tap")

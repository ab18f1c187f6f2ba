"""A person at an Activity page, in a real browser: reads only what the page shows (raised cards, buttons,
menus, a combination's chips) and taps one of them, as a player would; the bot's refusal shows as a toast."""

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
  document.querySelectorAll('.private .control.buttons button.choice').forEach((b, i) => out.push(['button', i]));
  document.querySelectorAll('.private select.control').forEach((s, i) => out.push(['select', i]));
  document.querySelectorAll('.private .control.combo').forEach((c, i) => out.push(['combo', i]));
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
        await seat.tap_card(which)
        chooser = frame.locator(".modal button")
        if await chooser.count():
            await chooser.nth(rng.randrange(await chooser.count())).click()
    elif kind == "button":
        await frame.locator(".private .control.buttons button.choice").nth(which).click()
    elif kind == "select":
        menu = frame.locator(".private select.control").nth(which)
        n = await menu.locator("option").count()
        await menu.select_option(str(rng.randrange(n - 1)))
    else:
        combo = frame.locator(".private .control.combo").nth(which)
        for i in range(await combo.locator(".field").count()):
            field = combo.locator(".field").nth(i)
            count = int(await field.get_attribute("data-count") or "1")
            chips = field.locator(".chip")
            for k in rng.sample(range(await chips.count()), count):
                # each tap redraws the page: find the chip again by its value
                value = await chips.nth(k).get_attribute("data-value")
                await combo.locator(".field").nth(i).locator(f'.chip[data-value="{value}"]').click()
        await combo.locator(".confirm").click()


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

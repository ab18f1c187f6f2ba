"""The browser side of the Activity tests: Debian's Chromium driven by Playwright, and a harness page that plays
Discord's part of the Embedded App SDK's postMessage protocol around the client's iframe.

The harness is served by the test itself (a Playwright route: nothing leaves the machine) as
``https://discord.com/…``, the origin the SDK accepts messages from and the only kind the bot's
Content-Security-Policy lets frame the page. It answers the handshake with READY,
AUTHORIZE with the OAuth2 code the fake Discord knows for that user, and AUTHENTICATE with the user; it records
every command the client sent (``window.__sdk``) so a test can check the order of the steps.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
HARNESS_URL = "https://discord.com/activities/tavolo-harness"

HARNESS_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>harness</title>
<style>html,body{margin:0;height:100%;background:#000}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><iframe id="activity" src="__SRC__"></iframe>
<script>
const cfg = __CFG__;
window.__sdk = {commands: [], handshake: null};
const frame = document.getElementById("activity");
window.addEventListener("message", (ev) => {
  if (ev.source !== frame.contentWindow || !Array.isArray(ev.data)) return;
  const [op, data] = ev.data;
  const send = (payload) => frame.contentWindow.postMessage([1, payload], "*");
  if (op === 0) {
    window.__sdk.handshake = data;
    send({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1,
      config: {api_endpoint: "//discord.com/api", environment: "test", cdn_host: "cdn.discordapp.com"},
      user: {id: cfg.user_id, username: cfg.username, discriminator: "0"}}});
    return;
  }
  if (op !== 1) return;
  window.__sdk.commands.push({cmd: data.cmd, args: data.args});
  const reply = (out) => send({cmd: data.cmd, evt: null, nonce: data.nonce, data: out});
  if (data.cmd === "AUTHORIZE") {
    if (data.args.client_id !== cfg.client_id || !(data.args.scope || []).includes("identify")) {
      send({cmd: data.cmd, evt: "ERROR", nonce: data.nonce, data: {code: 4000, message: "bad authorize"}});
      return;
    }
    reply({code: cfg.code});
  } else if (data.cmd === "AUTHENTICATE") {
    reply({access_token: data.args.access_token, scopes: ["identify"],
           expires: new Date(Date.now() + 3600000).toISOString(),
           user: {id: cfg.user_id, username: cfg.username, discriminator: "0", public_flags: 0},
           application: {id: cfg.client_id, name: "Tavolo", description: ""}});
  } else {
    reply({});
  }
});
</script></body></html>"""


#: a point near a hand card's top-left corner, on the card as its fan transform (translateY, then a rotation
#: about the bottom centre) placed it, in the frame's coordinates
_CORNER_JS = """(c) => {
  const row = c.parentElement.getBoundingClientRect();
  const w = c.offsetWidth, h = c.offsetHeight;
  const x0 = row.left + c.offsetLeft, y0 = row.top + c.offsetTop;

  const m = new DOMMatrix(getComputedStyle(c).transform);
  const ox = x0 + w / 2, oy = y0 + h;
  const px = 8 - w / 2, py = 0.22 * h - h;

  return [ox + m.a * px + m.c * py + m.e, oy + m.b * px + m.d * py + m.f];
}"""


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@dataclass
class Seat:
    """One browser page playing as one Discord user."""

    page: Any
    frame: Any  # the client's iframe (a Playwright Frame)
    user_id: str
    errors: list[str]

    async def tap_card(self, code: str) -> None:
        """Tap a card of the hand where a thumb would: near its top-left corner, which the next card never covers
        (the point found on the card as the fan turned it)."""
        card = self.frame.locator(f'.hand .card[data-card="{code}"]')
        await card.wait_for()
        x, y = await card.evaluate(_CORNER_JS)
        box = await (await self.page.query_selector("iframe#activity")).bounding_box()  # type: ignore[union-attr]
        await self.page.mouse.click(box["x"] + x, box["y"] + y)

    async def play_card(self, code: str) -> None:
        """Play a card as a person does: a first tap lifts it, a second plays it."""
        await self.tap_card(code)
        await self.frame.locator(f'.hand .card.lifted[data-card="{code}"]').wait_for()
        await self.tap_card(code)

    async def sdk_commands(self) -> list[str]:
        return [c["cmd"] for c in await self.page.evaluate("window.__sdk.commands")]


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A headless Debian Chromium (never a downloaded browser); skipped without it, failed in CI."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:  # pragma: no cover - the test extra installs it
        if _in_ci():
            pytest.fail("the playwright package is required in CI")
        pytest.skip("playwright is not installed")
    if not CHROMIUM.exists() and not shutil.which("chromium"):
        if _in_ci():
            pytest.fail("Chromium is required in CI (.ci/run installs Debian's chromium)")
        pytest.skip("no Chromium here (apt-get install chromium)")
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


async def open_seat(
    browser: Any,
    base_url: str,
    *,
    code: str,
    user_id: str,
    username: str,
    client_id: str,
    instance_id: str,
    channel_id: str,
    guild_id: str,
    width: int = 420,
    height: int = 760,
    clock: float | None = None,
    reduced_motion: bool = False,
) -> Seat:
    """A new browser context (its own storage, like another person's phone) with the harness around the
    client; returns once the client's iframe exists (the SDK steps run on their own). ``clock``: install
    Playwright's fake clock at that time (epoch seconds)."""
    viewport = {"width": width, "height": height}
    extra: dict[str, Any] = {"reduced_motion": "reduce"} if reduced_motion else {}
    try:
        # the harness's page is "public" (discord.com) and the bot listens on loopback: Chromium's Local Network
        # Access asks the user first, as it would for a real Discord client talking to a bot on one's own machine
        context = await browser.new_context(viewport=viewport, permissions=["local-network-access"], **extra)
    except Exception:  # an older Chromium without that permission (nor the check)
        context = await browser.new_context(viewport=viewport, **extra)
    if clock is not None:  # the page's time starts there (epoch seconds), under the test's control
        await context.clock.install(time=clock)
    page = await context.new_page()
    errors: list[str] = []
    # a CSP violation or an uncaught error in the client fails the test that opened the page
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    query = urlencode(
        {
            "frame_id": f"frame-{user_id}",
            "instance_id": instance_id,
            "platform": "desktop",
            "client_id": client_id,
            "channel_id": channel_id,
            "guild_id": guild_id,
        }
    )
    cfg = {"code": code, "user_id": user_id, "username": username, "client_id": client_id}
    html = HARNESS_HTML.replace("__SRC__", f"{base_url}/?{query}").replace("__CFG__", json.dumps(cfg))
    await page.route(HARNESS_URL, lambda route: route.fulfill(status=200, content_type="text/html", body=html))
    await page.goto(HARNESS_URL)
    handle = await page.wait_for_selector("iframe#activity")
    frame = await handle.content_frame()
    assert frame is not None
    return Seat(page, frame, user_id, errors)

"""The page, its bundle and the card faces, with the security headers on every response."""

from __future__ import annotations

import io

import aiohttp
from PIL import Image

from bot.images import sprites

from .conftest import RigFactory


async def test_page_assets_and_headers(make_rig: RigFactory) -> None:
    rig = await make_rig(0)
    url = rig.server.url
    async with aiohttp.ClientSession() as http:
        async with http.get(url + "/") as resp:
            assert resp.status == 200 and resp.content_type == "text/html"
            assert "<html" in await resp.text()
            csp = resp.headers["Content-Security-Policy"]
            assert "frame-ancestors https://discord.com" in csp and "default-src 'self'" in csp
            assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
            assert resp.headers["X-Content-Type-Options"] == "nosniff"
            assert resp.headers["Referrer-Policy"] == "no-referrer"
        for bad in ("/assets/../server.py", "/assets/.hidden", "/assets/x.py", "/assets/missing.js", "/nothing"):
            async with http.get(url + bad) as resp:
                assert resp.status == 404, bad
                assert resp.headers["X-Content-Type-Options"] == "nosniff"
        async with http.post(url + "/api/session", data=b"x" * 20_000, headers={"Origin": rig.server.origin}) as resp:
            assert resp.status == 400 and (await resp.json())["error"] == "bad_request"  # bodies are small
            assert resp.headers.get("Cache-Control") == "no-store"


async def test_card_faces_from_the_sprite_code(make_rig: RigFactory) -> None:
    rig = await make_rig(0)
    deck = next(iter(sprites.DECKS))
    card = sprites.DECKS[deck][0]
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{rig.server.url}/cards/{deck}/{card}.png") as resp:
            assert resp.status == 200 and resp.content_type == "image/png"
            img = Image.open(io.BytesIO(await resp.read()))
            assert img.size == sprites.card_size(sprites.BASE_HEIGHT)
            assert "max-age" in resp.headers["Cache-Control"]
        async with http.get(f"{rig.server.url}/cards/{deck}/back.png") as resp:
            assert resp.status == 200
        other = next(d for d in sprites.DECKS if d != deck)
        foreign = next(c for c in sprites.DECKS[other] if c not in sprites.DECKS[deck])
        for path in (f"nodeck/{card}", f"{deck}/{foreign}", f"{deck}/ZZ", f"{deck}/%2e%2e", f"{deck}/{'A' * 40}"):
            async with http.get(f"{rig.server.url}/cards/{path}.png") as resp:
                assert resp.status == 404, path

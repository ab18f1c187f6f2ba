"""The Activity's front door: the OAuth2 code exchange, the activity-instance check, session tokens, Origin."""

from __future__ import annotations

import json

from bot.activity.server import CLOSE_CODES
from bot.activity.sessions import SessionError, Signer

from .conftest import RigFactory


async def test_code_exchange_gives_a_session_bound_to_the_instance(make_rig: RigFactory) -> None:
    rig = await make_rig(2)
    alice, bob = rig.users
    instance = rig.fake.activities.launch(rig.channel, alice, bob)
    page = rig.page(alice, instance)
    data = await page.login()
    assert data["user"] == {"id": str(alice.id), "name": alice.name}
    assert data["channel_id"] == str(rig.channel.id)
    assert data["locale"] == "en" and data["expires_in"] == 600
    session = rig.server.signer.check(data["session"])
    assert (session.user_id, session.channel_id, session.guild_id) == (alice.id, rig.channel.id, rig.guild.id)
    assert session.instance_id == instance.instance_id
    # /api/session: a fresh session from the access token, the same checks, no code
    status, again = await page.post(
        "/api/session", {"access_token": data["access_token"], "instance_id": instance.instance_id}
    )
    assert status == 200 and again["session"] != data["session"] and "access_token" not in again


async def test_the_users_language_comes_with_the_session(make_rig: RigFactory) -> None:
    rig = await make_rig(1)
    (alice,) = rig.users
    alice.locale = "ko"
    page = rig.page(alice, rig.fake.activities.launch(rig.channel, alice))
    data = await page.login()
    assert data["locale"] == "ko"
    await page.connect()
    welcome = await page.wait(lambda: next((f for f in page.frames if f["t"] == "welcome"), None), "welcome")
    assert welcome["texts"]["connecting"] != "Connecting…"  # the page's own words, in Korean


async def test_bad_codes_tokens_and_instances_are_refused(make_rig: RigFactory) -> None:
    rig = await make_rig(3)
    alice, bob, carol = rig.users
    instance = rig.fake.activities.launch(rig.channel, alice, bob)
    page = rig.page(alice, instance)
    # a code Discord never issued
    status, data = await page.post("/api/token", {"code": "forged", "instance_id": instance.instance_id})
    assert (status, data["error"]) == (401, "bad_code") and data["text"]
    # a code spent once is spent
    code = rig.fake.activities.authorize(alice)
    assert (await page.post("/api/token", {"code": code, "instance_id": instance.instance_id}))[0] == 200
    status, data = await page.post("/api/token", {"code": code, "instance_id": instance.instance_id})
    assert (status, data["error"]) == (401, "bad_code")
    # an access token Discord does not know
    status, data = await page.post("/api/session", {"access_token": "nope", "instance_id": instance.instance_id})
    assert (status, data["error"]) == (401, "bad_token")
    # an unknown instance
    code = rig.fake.activities.authorize(alice)
    status, data = await page.post("/api/token", {"code": code, "instance_id": "i-unknown"})
    assert (status, data["error"]) == (403, "no_instance")
    # a user who is not a participant of the instance
    carols = rig.page(carol, instance)
    code = rig.fake.activities.authorize(carol)
    status, data = await carols.post("/api/token", {"code": code, "instance_id": instance.instance_id})
    assert (status, data["error"]) == (403, "not_participant")
    # malformed bodies (extra keys, a path in the instance id, not JSON)
    for body in ({"code": "x", "instance_id": "../../users/@me"}, {"code": "x", "instance_id": "i", "more": 1}, [1]):
        status, data = await page.post("/api/token", body)
        assert (status, data["error"]) == (400, "bad_request")
    async with page.http.post(rig.server.url + "/api/token", data=b"{", headers={"Origin": page.origin}) as resp:
        assert resp.status == 400
    # a page from another origin
    code = rig.fake.activities.authorize(alice)
    status, data = await page.post(
        "/api/token", {"code": code, "instance_id": instance.instance_id}, origin="https://evil.example"
    )
    assert (status, data["error"]) == (403, "wrong_origin")
    assert not rig.fake.unhandled


async def test_sockets_refuse_bad_sessions_with_a_reason(make_rig: RigFactory) -> None:
    rig = await make_rig(2)
    alice, bob = rig.users
    instance = rig.fake.activities.launch(rig.channel, alice, bob)
    page = rig.page(alice, instance)
    await page.login()
    assert page.session is not None

    async def refused(token: str | None = None, origin: str | None = None, raw: str | None = None) -> str:
        page.frames.clear()
        if raw is not None:
            await page.connect(hello=False, origin=origin)
            await page.send(raw)
        else:
            await page.connect(token, origin=origin)
        code = await page.closed_with()
        (error,) = page.errors()
        assert error["text"] and CLOSE_CODES[error["code"]] == code
        return str(error["code"])

    assert await refused(origin="https://evil.example") == "wrong_origin"
    forged = page.session[:-4] + ("AAAA" if not page.session.endswith("AAAA") else "BBBB")
    assert await refused(forged) == "bad_session"
    other_key = Signer("another secret").issue(
        user_id=alice.id, name="a", instance_id=instance.instance_id, channel_id=1, guild_id=2, locale="en"
    )
    assert await refused(other_key) == "bad_session"
    assert await refused(raw='{"t": "ping"}') == "bad_hello"
    assert await refused(raw="not json") == "bad_hello"
    assert await refused(raw=json.dumps({"t": "hello", "session": "x" * 5000})) == "too_large"
    # a valid session opens one socket; the same token again is a replay
    page.frames.clear()
    await page.connect()
    await page.wait(lambda: any(f["t"] == "welcome" for f in page.frames), "welcome")
    second = rig.page(alice, instance)
    second.session = page.session
    await second.connect()
    assert await second.closed_with() == CLOSE_CODES["replayed"]
    # the token handed out in welcome opens the next socket (once)
    assert page.renewed is not None
    third = rig.page(alice, instance)
    await third.connect(page.renewed)
    await third.wait(lambda: any(f["t"] == "welcome" for f in third.frames), "welcome")


async def test_expired_sessions_are_refused() -> None:
    now = [1000.0]
    signer = Signer("secret", clock=lambda: now[0])
    token = signer.issue(user_id=1, name="a", instance_id="i", channel_id=2, guild_id=3, locale="en")
    assert signer.check(token).user_id == 1
    now[0] += 601
    try:
        signer.spend(token)
    except SessionError as e:
        assert e.code == "expired"
    else:
        raise AssertionError("an expired token opened a socket")


async def test_a_silent_socket_is_closed_after_the_hello_timeout(make_rig: RigFactory) -> None:
    rig = await make_rig(1, hello_timeout=0.2)
    page = rig.page(rig.users[0], rig.fake.activities.launch(rig.channel, rig.users[0]))
    await page.connect(hello=False)
    assert await page.closed_with() == CLOSE_CODES["hello_timeout"]

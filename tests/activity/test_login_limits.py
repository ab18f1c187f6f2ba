"""The login endpoints' budgets (bot/activity/limits.py): per instance, access token and user, never one budget for
everyone behind the same address (issue 37: behind Discord's proxy one client's bogus codes blocked every login)."""

from __future__ import annotations

from bot.activity.limits import Budget, LoginLimits, retry_after

from .conftest import RigFactory

#: budgets that do not refill during a test
FROZEN = 1e-9


async def test_bogus_codes_from_one_client_do_not_block_other_logins_from_the_same_address(
    make_rig: RigFactory,
) -> None:
    rig = await make_rig(3)
    alice, bob, carol = rig.users
    ours = rig.fake.activities.launch(rig.channel, alice, carol)
    theirs = rig.fake.activities.launch(rig.channel, bob)
    carols = rig.page(carol, ours)
    await carols.login()  # logged in before the flood
    flooder = rig.page(alice, ours)
    statuses = []
    for i in range(60):  # every page here comes from 127.0.0.1, as every page behind a proxy comes from the proxy
        status, data = await flooder.post("/api/token", {"code": f"bogus-{i}", "instance_id": ours.instance_id})
        statuses.append((status, data["error"]))
    assert statuses[0] == (401, "bad_code") and statuses[-1] == (429, "rate_limited")
    # another user, in another instance, from the same address: in at once
    data = await rig.page(bob, theirs).login()
    assert data["user"]["id"] == str(bob.id)
    async with flooder.http.post(
        rig.server.url + "/api/token",
        json={"code": "bogus", "instance_id": ours.instance_id},
        headers={"Origin": flooder.origin},
    ) as resp:
        assert resp.status == 429 and int(resp.headers["Retry-After"]) >= 1
    # and a page of the flooded instance that is already in renews its session with its access token
    status, again = await carols.post(
        "/api/session", {"access_token": carols.access_token, "instance_id": ours.instance_id}
    )
    assert status == 200 and again["session"]
    assert rig.server.limits.refused.get("instance", 0) > 0 and "address" not in rig.server.limits.refused


async def test_logins_that_succeed_spend_nothing_of_their_instances_budget(make_rig: RigFactory) -> None:
    rig = await make_rig(6, limits=LoginLimits(instance=Budget(FROZEN, 2)))
    instance = rig.fake.activities.launch(rig.channel, *rig.users)
    for user in rig.users:  # six logins in one instance whose budget allows two failures
        await rig.page(user, instance).login()
    page = rig.page(rig.users[0], instance)
    for _ in range(2):
        status, _data = await page.post("/api/token", {"code": "bogus", "instance_id": instance.instance_id})
        assert status == 401
    status, _data = await page.post("/api/token", {"code": "bogus", "instance_id": instance.instance_id})
    assert status == 429


async def test_one_user_opening_sessions_in_a_loop_is_limited_alone(make_rig: RigFactory) -> None:
    rig = await make_rig(2, limits=LoginLimits(user=Budget(FROZEN, 3)))
    alice, bob = rig.users
    instance = rig.fake.activities.launch(rig.channel, alice, bob)
    page = rig.page(alice, instance)
    for _ in range(3):
        await page.login()
    code = rig.fake.activities.authorize(alice)
    status, data = await page.post("/api/token", {"code": code, "instance_id": instance.instance_id})
    assert (status, data["error"]) == (429, "rate_limited")
    await rig.page(bob, instance).login()  # the same instance, another user


async def test_a_flood_of_made_up_instances_spares_the_instances_in_use(make_rig: RigFactory) -> None:
    rig = await make_rig(3, limits=LoginLimits(new=Budget(FROZEN, 5)))
    alice, bob, carol = rig.users
    in_use = rig.fake.activities.launch(rig.channel, alice, bob)
    await rig.page(alice, in_use).login()
    page = rig.page(carol, rig.fake.activities.launch(rig.channel, carol))
    codes = []
    for i in range(8):
        status, _data = await page.post("/api/token", {"code": f"bogus-{i}", "instance_id": f"made-up-{i}"})
        codes.append(status)
    assert codes[:5] == [401] * 5 and codes[5:] == [429] * 3
    # a new instance waits while the flood lasts; one in use does not
    status, _data = await page.post(
        "/api/token", {"code": rig.fake.activities.authorize(carol), "instance_id": page.instance.instance_id}
    )
    assert status == 429
    data = await rig.page(bob, in_use).login()
    assert data["user"]["id"] == str(bob.id)


async def test_the_address_is_limited_only_where_it_is_the_clients(make_rig: RigFactory) -> None:
    limits = LoginLimits(address=Budget(FROZEN, 3))
    rig = await make_rig(1, client_address="X-Forwarded-For", limits=limits)
    (alice,) = rig.users
    instance = rig.fake.activities.launch(rig.channel, alice)
    page = rig.page(alice, instance)

    async def post(forwarded: str) -> int:
        headers = {"Origin": page.origin, "X-Forwarded-For": forwarded}
        body = {"code": "bogus", "instance_id": instance.instance_id}
        async with page.http.post(rig.server.url + "/api/token", json=body, headers=headers) as resp:
            return resp.status

    # the operator's proxy appends the client's address: the entries before it are the client's own word
    assert [await post(f"10.0.0.{i}, 192.0.2.7") for i in range(4)] == [401, 401, 401, 429]
    assert await post("192.0.2.8") == 401
    assert limits.refused == {"address": 1}


def test_budgets_refill_and_say_how_long_to_wait() -> None:
    now = [100.0]
    limits = LoginLimits(instance=Budget(0.5, 2), new=Budget(10, 100), clock=lambda: now[0])
    first = limits.before("i-1", access_token=None, address=None)
    assert not isinstance(first, float)
    assert not isinstance(limits.before("i-1", access_token=None, address=None), float)
    wait = limits.before("i-1", access_token=None, address=None)
    assert wait == 2.0 and retry_after(wait) == "2" and retry_after(0.1) == "1"
    now[0] += 2.0
    assert not isinstance(limits.before("i-1", access_token=None, address=None), float)
    # a session issued gives the reserved token back
    limits.succeeded(first)
    assert not isinstance(limits.before("i-1", access_token=None, address=None), float)
    assert isinstance(limits.before("i-1", access_token=None, address=None), float)

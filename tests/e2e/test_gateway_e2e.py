"""A brief gateway outage resumes the session (issue #23): the connection drops and the first reconnect is
refused; the bot must RESUME the same session (op 6), not IDENTIFY a new one, so that the click sent during
the outage is replayed and answered in time, and a click right after the resume is answered too."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord

from .driver import start_bot, stop_bot


async def test_a_refused_reconnect_still_resumes_the_session(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice, bob, cid = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("cid")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "wizard new", rounds="3-5")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: m.buttons())
        gateway = fake.gateway
        session = gateway.current
        assert session is not None and gateway.identify_count == 1

        gateway.refuse(1)
        await gateway.drop()
        during = await bob.click(lobby, label="Join")  # sent while the bot is cut off
        await fake.wait_for(lambda: gateway.resume_count == 1 and gateway.connected, description="a RESUME")
        assert gateway.refused == 1  # the first reconnect was refused…
        assert gateway.identify_count == 1 and gateway.current is session  # …and the same session resumed

        after = await cid.click(lobby, label="Join")
        await during.ack()
        await after.ack()
        await fake.wait_for(lambda: "bob" in fake.message(lobby.id).text() and "cid" in fake.message(lobby.id).text())
        assert not fake.late_acks  # both answered within Discord's 3 s
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)

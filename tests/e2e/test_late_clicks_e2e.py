"""A click that comes after its question was answered — a lagging client, a double click — still gets an answer
through the fake Discord: the payment proposal's Confirm / Decline after the proposal was confirmed or declined,
the season close confirmation after the season was closed (which closes nothing more). Without the late route
discord.py drops such a click (its button is no longer on the message) and Discord shows "This interaction
failed"; here every one is answered privately, in words from the catalogue."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord import state as st

from bot.ledger import SeatRef

from .driver import start_bot, stop_bot


def _late(user: object, message: st.Message, custom_id: str) -> object:
    """The click of a client that still shows the button ``custom_id`` (gone from ``message`` by now)."""
    assert custom_id not in {b.get("custom_id") for b in message.buttons()}
    return user._component(message, {"custom_id": custom_id, "component_type": 2})  # type: ignore[attr-defined]


async def test_late_confirm_and_decline_on_a_payment_are_answered(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "cards")
    marco, anna = fake.add_user("Marco"), fake.add_user("Anna")
    bot, task = await start_bot(fake, tmp_path / "l.db", dev_guild=guild.id)
    try:
        assert bot.ledger is not None
        await bot.ledger.settle(key="table:1:unit:0", guild_id=guild.id, game="wizard", table_id=1, hand_index=0,
                                seats=[SeatRef(marco.id, "Marco"), SeatRef(anna.id, "Anna")],
                                amounts={"stake": [-20, 20]})  # fmt: skip

        # confirmed, then both buttons clicked again by clients that still show them
        await (await marco.slash(channel, "ledger paid", user=anna, amount=10)).reply()
        proposal = await fake.wait_for_message(channel, lambda m: any(b.get("label") == "Confirm" for b in m.buttons()))
        ok, no = (b["custom_id"] for b in proposal.buttons())
        done = await anna.click(proposal, label="Confirm")
        assert "✅" in (await done.reply()).text()
        again = _late(anna, proposal, ok)
        reply = await again.reply()  # type: ignore[attr-defined]
        assert again.ephemeral and "already confirmed and recorded" in reply.text()  # type: ignore[attr-defined]
        withdraw = _late(marco, proposal, no)
        reply = await withdraw.reply()  # type: ignore[attr-defined]
        assert withdraw.ephemeral and "already confirmed and recorded" in reply.text()  # type: ignore[attr-defined]
        assert "✅" in proposal.content  # the message still tells how it ended

        # declined, then Decline and Confirm again
        await (await marco.slash(channel, "ledger paid", user=anna, amount=10)).reply()
        second = await fake.wait_for_message(
            channel, lambda m: m.id != proposal.id and any(b.get("label") == "Decline" for b in m.buttons())
        )
        ok, no = (b["custom_id"] for b in second.buttons())
        declined = await anna.click(second, label="Decline")
        assert "❌" in (await declined.reply()).text()
        for user, cid in ((anna, no), (marco, no), (anna, ok)):
            late = _late(user, second, cid)
            reply = await late.reply()  # type: ignore[attr-defined]
            assert late.ephemeral and "was declined; nothing was recorded" in reply.text()  # type: ignore[attr-defined]
        assert "❌" in second.content

        assert await bot.ledger.balances(guild.id, "stake") == {marco.id: -10, anna.id: 10}  # one payment booked
        rows = await bot.ledger.db.fetchall("SELECT COUNT(*) FROM entries WHERE kind = 'payment'")
        assert rows[0][0] == 2
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)


async def test_a_late_season_close_closes_nothing_more(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "cards")
    boss = fake.add_user("boss", admin=True)
    bot, task = await start_bot(fake, tmp_path / "s.db", dev_guild=guild.id)
    try:
        assert bot.ledger is not None
        asked = await boss.slash(channel, "season close")
        question = await asked.reply()
        assert asked.ephemeral
        (cid,) = (b["custom_id"] for b in question.buttons())
        done = await boss.click(question, label="Yes, close the season")
        assert "Season 1 closed" in (await done.reply()).text()

        again = _late(boss, question, cid)
        reply = await again.reply()  # type: ignore[attr-defined]
        assert again.ephemeral and "Season 1 is already closed" in reply.text()  # type: ignore[attr-defined]
        # a confirmation made before buttons named their season: a late click cannot tell which one it meant
        legacy = _late(boss, question, f"tv:season:close:{guild.id}")
        reply = await legacy.reply()  # type: ignore[attr-defined]
        assert legacy.ephemeral and "already answered" in reply.text()  # type: ignore[attr-defined]

        current = await bot.ledger.current_season(guild.id)
        assert current is not None and current.number == 2  # season 2 stays open: nothing closed twice
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)

"""Settling up through the fake Discord: hands booked, a money value set, `/ledger settle`, payments proposed and
confirmed with the buttons (one of them across a restart), a bad payment refused, the balances cleared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from fakediscord import state as st

from bot.ledger import SeatRef

from .driver import start_bot, stop_bot


def _proposal(fake: FakeDiscord, channel: st.Channel) -> Any:
    return fake.wait_for_message(channel, lambda m: any(b.get("label") == "Confirm" for b in m.buttons()))


async def test_settle_up_pay_and_clear(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "cards")
    boss = fake.add_user("boss", admin=True)
    marco, anna, luca = fake.add_user("Marco"), fake.add_user("Anna"), fake.add_user("Luca")
    db = tmp_path / "s.db"
    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        assert bot.ledger is not None
        seats = [SeatRef(marco.id, "Marco"), SeatRef(anna.id, "Anna"), SeatRef(luca.id, "Luca")]
        for i, stake in enumerate(([-20, 12, 8], [-15, 8, 7])):
            await bot.ledger.settle(key=f"table:1:unit:{i}", guild_id=guild.id, game="wizard", table_id=1,
                                    hand_index=i, seats=seats, amounts={"stake": stake})  # fmt: skip

        cfg = await boss.slash(channel, "tavolo config", money_currency="EUR", stake_value="1.50")
        assert "1 stake = €1.50" in (await cfg.reply()).text()
        bad = await boss.slash(channel, "tavolo config", stake_value="1.505")
        assert "2 decimal places" in (await bad.reply()).text()

        plan = await marco.slash(channel, "ledger settle")
        text = (await plan.reply()).text()
        assert plan.ephemeral
        assert "**Marco** → **Anna** 20 stakes (€30.00)" in text and "**Marco** → **Luca** 15 stakes (€22.50)" in text

        refused = await marco.slash(channel, "ledger paid", user=marco, amount=5)
        assert "cannot pay yourself" in (await refused.reply()).text() and refused.ephemeral
        too_much = await marco.slash(channel, "ledger paid", user=anna, amount=25)
        assert "more than the payee is owed (20)" in (await too_much.reply()).text()

        # Marco says he paid Anna; Marco cannot confirm his own claim, Anna does
        await marco.slash(channel, "ledger paid", user=anna, amount=20)
        proposal = await _proposal(fake, channel)
        assert anna.mention in proposal.content and "€30.00" in proposal.content
        self_confirm = await marco.click(proposal, label="Confirm")
        assert "other player confirms" in (await self_confirm.reply()).text() and self_confirm.ephemeral
        done = await anna.click(proposal, label="Confirm")
        assert "✅" in (await done.reply()).text()
        assert (await bot.ledger.balance(guild.id, marco.id, "stake"))["stake"] == -15

        # Luca says Marco paid him; the bot restarts before Marco answers
        await luca.slash(channel, "ledger paid", user=marco, amount=15)
        proposal = await _proposal(fake, channel)
    finally:
        await stop_bot(bot, task)
    bot, task = await start_bot(fake, db, dev_guild=guild.id)
    try:
        assert bot.ledger is not None
        done = await marco.click(proposal, label="Confirm")
        assert "✅" in (await done.reply()).text()
        assert await bot.ledger.balances(guild.id, "stake") == {}

        balance = await marco.slash(channel, "ledger balance")
        assert "+0 (€0.00)" in (await balance.reply()).text()
        nothing = await anna.slash(channel, "ledger settle")
        assert "Nothing to settle" in (await nothing.reply()).text()
        history = await marco.slash(channel, "ledger history")
        assert f"payment to {luca.mention}: +15 stake" in (await history.reply()).text()
        rows = await bot.ledger.db.fetchall("SELECT COUNT(*) FROM entries WHERE kind = 'payment'")
        assert rows[0][0] == 4  # two payments, two entries each: nothing booked twice
    finally:
        await stop_bot(bot, task)


async def test_decline_and_expiry(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "cards")
    marco, anna, pat = fake.add_user("Marco"), fake.add_user("Anna"), fake.add_user("Pat")
    bot, task = await start_bot(fake, tmp_path / "d.db", dev_guild=guild.id)
    try:
        assert bot.ledger is not None
        seats = [SeatRef(marco.id, "Marco"), SeatRef(anna.id, "Anna")]
        await bot.ledger.settle(key="table:1:unit:0", guild_id=guild.id, game="wizard", table_id=1, hand_index=0,
                                seats=seats, amounts={"stake": [-10, 10]})  # fmt: skip
        plan = await pat.slash(channel, "ledger settle")
        assert "**Marco** → **Anna** 10 stakes" in (await plan.reply()).text()  # no money value: units only

        await marco.slash(channel, "ledger paid", user=anna, amount=10)
        proposal = await _proposal(fake, channel)
        other = await pat.click(proposal, label="Decline")
        assert "between two other players" in (await other.reply()).text() and other.ephemeral
        declined = await anna.click(proposal, label="Decline")
        assert "❌" in (await declined.reply()).text()

        cog: Any = bot.get_cog("Payments")
        cog.payments.ttl = cog.payments.ttl * 0  # proposals now expire the moment they are made
        await anna.slash(channel, "ledger paid", user=marco, amount=10)
        proposal = await _proposal(fake, channel)
        late = await marco.click(proposal, label="Confirm")
        assert "expired" in (await late.reply()).text() and late.ephemeral
        edited = await fake.wait_for_message(channel, lambda m: m.id == proposal.id and "⌛" in m.content)
        assert not edited.buttons()
        assert await bot.ledger.balances(guild.id, "stake") == {marco.id: -10, anna.id: 10}
        assert await bot.ledger.db.fetchall("SELECT id FROM entries WHERE kind = 'payment'") == []
    finally:
        await stop_bot(bot, task)


async def test_a_first_evening_settles_in_the_fewest_payments(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    # five players, balances -6, -5, -5, +6, +10: three payments ({-6 -> +6}, {-5, -5 -> +10}), where the greedy
    # listed four; paying them clears every balance
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = fake.add_channel(guild, "cards")
    users = [fake.add_user(n) for n in ("Minsu", "Aleksei", "Lukasz", "Lei", "Zoe")]
    minsu, aleksei, lukasz, lei, zoe = users
    bot, task = await start_bot(fake, tmp_path / "f.db", dev_guild=guild.id)
    try:
        assert bot.ledger is not None
        seats = [SeatRef(u.id, u.name) for u in users]
        await bot.ledger.settle(key="table:1:unit:0", guild_id=guild.id, game="wizard", table_id=1, hand_index=0,
                                seats=seats, amounts={"stake": [-6, -5, -5, 6, 10]})  # fmt: skip
        plan = await zoe.slash(channel, "ledger settle")
        text = (await plan.reply()).text()
        assert text.count("→") == 3, text
        assert "**Minsu** → **Lei** 6 stakes" in text
        assert "**Aleksei** → **Zoe** 5 stakes" in text and "**Lukasz** → **Zoe** 5 stakes" in text
        assert "may not be the fewest" not in text
        for payer, payee, amount in ((minsu, lei, 6), (aleksei, zoe, 5), (lukasz, zoe, 5)):
            await payer.slash(channel, "ledger paid", user=payee, amount=amount)
            proposal = await _proposal(fake, channel)
            assert "✅" in (await (await payee.click(proposal, label="Confirm")).reply()).text()
        assert await bot.ledger.balances(guild.id, "stake") == {}
    finally:
        await stop_bot(bot, task)

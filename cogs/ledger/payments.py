"""``/ledger settle``, ``paid`` and ``payment``: who pays whom, a payment between two players that the other one
confirms (the proposal's *Confirm* / *Decline* buttons, :class:`PaymentButton`), and an admin's recorded payment.

The settlement plan is the pure :func:`bot.ledger.settlement.settle`; proposals, their deadline and what they
book are :class:`bot.ledger.payments.Payments`'. A payment appends entries, it never edits any.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord import app_commands

from bot.i18n import N_, _, using
from bot.i18n import names as ui
from bot.ledger import LedgerRefusal
from bot.ledger.payments import MAX_AMOUNT, Payment, PaymentExpired, Payments
from bot.ledger.settlement import settle
from bot.ledger.texts import currency_plural, units_text

from .. import _clicks, _groups
from .._locale import channel_locale, reader_locale
from .shared import CURRENCY_CHOICES, MoneyCog, is_admin, mention, private, refuse, relative_tag, with_money

__all__ = ["PaymentButton", "PaymentsCog"]

#: a proposal's outcome, for a click that comes after it (its message already shows it; the clicker hears it)
_OUTCOME = {
    "confirmed": N_("This payment is already confirmed and recorded."),
    "declined": N_("This payment was declined; nothing was recorded."),
    "expired": N_("This payment proposal has expired; nothing was recorded. Propose it again."),
}


class PaymentsCog(MoneyCog, name="Payments"):
    ledger_group = _groups.ledger_group()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._payments: Payments | None = None

    @property
    def payments(self) -> Payments:
        if self._payments is None:
            self._payments = Payments(self.ledger)
        return self._payments

    async def cog_load(self) -> None:
        _clicks.add_dynamic_items(self.bot, PaymentButton)
        await super().cog_load()

    async def _name(self, guild: discord.Guild | None, guild_id: int, user_id: int) -> str:
        """A player's display name: the member's, else the name they last played under, else a mention."""
        member = guild.get_member(user_id) if guild is not None else None
        if member is not None:
            return member.display_name
        return await self.ledger.player_name(guild_id, user_id) or mention(user_id)

    @ledger_group.command(name="settle", description="Who pays whom: the fewest payments that clear the balances")
    @app_commands.describe(currency="Which currency (default: stakes)", season="Current season (default) or a number")
    @app_commands.choices(currency=CURRENCY_CHOICES)
    async def settle_up(
        self, interaction: discord.Interaction[Any], currency: str = "stake", season: str = "current"
    ) -> None:
        assert interaction.guild_id is not None
        spec: Any = int(season) if season.strip().isdigit() else season.strip().lower()
        try:
            balances = await self.ledger.balances(interaction.guild_id, currency, season=spec)
        except LedgerRefusal as e:
            await refuse(self.bot, interaction, e)
            return
        # (up to 0.2 s of CPU for twenty players: off the event loop)
        result = await asyncio.to_thread(settle, balances)
        money = await self.money.get(interaction.guild_id)
        names = {u: await self._name(interaction.guild, interaction.guild_id, u) for u in balances}
        with using(await reader_locale(self.bot, interaction)):
            lines = [
                _(
                    "**{payer}** → **{payee}** {amount}",
                    payer=names[t.payer],
                    payee=names[t.payee],
                    amount=with_money(units_text(t.amount, currency), t.amount, currency, money),
                )
                for t in result.transfers
            ]
            if result.unmatched:
                left = with_money(units_text(abs(result.unmatched), currency), abs(result.unmatched), currency, money)
                lines.append(
                    _("Nobody here owes the remaining {units}, won from computer players or added by adjustments.",
                      units=left)
                    if result.unmatched > 0
                    else _("Nobody here is owed the remaining {units}, lost to computer players or taken by"
                           " adjustments.", units=left)
                )  # fmt: skip
            if not result.transfers:
                lines.insert(0, _("Nothing to settle: nobody owes anybody here."))
            if not result.exact:
                # past the exact limit the greedy answered (bot/ledger/settlement.py): the title's promise is off
                lines.append(_("With this many players owing or owed, these payments clear every balance but may "
                               "not be the fewest."))  # fmt: skip
            text = "\n".join(lines)
            title = _("Settling up: {currency}", currency=currency_plural(currency))
            footer = _(
                "A payment made? Record it with `{command}`; the other player confirms it.",
                command=ui.command("ledger paid"),
            )
        embed = discord.Embed(title=title, description=text[:4096], colour=0xF1C40F)
        embed.set_footer(text=footer)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @ledger_group.command(name="paid", description="Record a payment between you and another player (they confirm)")
    @app_commands.describe(
        user="Who you paid, or who paid you", amount="How many units", currency="Which currency (default: stakes)"
    )
    @app_commands.choices(currency=CURRENCY_CHOICES)
    async def paid(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User,
        amount: app_commands.Range[int, 1, MAX_AMOUNT],
        currency: str = "stake",
    ) -> None:
        assert interaction.guild_id is not None
        try:
            p = await self.payments.propose(
                interaction.guild_id, interaction.user.id, user.id, amount, currency, other_is_bot=user.bot
            )
        except LedgerRefusal as e:
            await refuse(self.bot, interaction, e)
            return
        text, view = await self._proposal(interaction, p)
        await interaction.response.send_message(
            text, view=view, allowed_mentions=discord.AllowedMentions(users=[discord.Object(p.confirmer_id)])
        )

    async def _proposal(self, interaction: discord.Interaction[Any], p: Payment) -> tuple[str, discord.ui.View]:
        """The public proposal with its two persistent buttons, in the channel's language."""
        assert interaction.guild_id is not None
        money = await self.money.get(interaction.guild_id)
        with using(await channel_locale(self.bot, interaction.guild_id, interaction)):
            amount = with_money(units_text(p.amount, p.currency), p.amount, p.currency, money)
            # addressed to the one who confirms; each player named once (the proposer is one of the two)
            if p.proposer_id == p.payer_id:
                text = _(
                    "💸 {payee}, {payer} says they paid you {amount}. Is that right? (until {deadline})",
                    payee=mention(p.payee_id), payer=mention(p.payer_id), amount=amount,
                    deadline=relative_tag(p.expires_at),
                )  # fmt: skip
            else:
                text = _(
                    "💸 {payer}, {payee} says you paid them {amount}. Is that right? (until {deadline})",
                    payer=mention(p.payer_id), payee=mention(p.payee_id), amount=amount,
                    deadline=relative_tag(p.expires_at),
                )  # fmt: skip
            view = discord.ui.View(timeout=None)
            view.add_item(PaymentButton.make(p.id, "ok"))
            view.add_item(PaymentButton.make(p.id, "no"))
        return text, view

    async def _settled_text(self, guild_id: int, p: Payment, interaction: discord.Interaction[Any]) -> str:
        money = await self.money.get(guild_id)
        with using(await channel_locale(self.bot, guild_id, interaction)):
            amount = with_money(units_text(p.amount, p.currency), p.amount, p.currency, money)
            # (who confirmed or declined is one of the two players: named once, not again as the decider)
            if p.state == "confirmed":
                return _("✅ Recorded: {payer} paid {payee} {amount}.", payer=mention(p.payer_id),
                         payee=mention(p.payee_id), amount=amount)  # fmt: skip
            if p.state == "declined" and p.decided_by == p.payer_id:
                return _("❌ {payer} declined: no payment of {amount} to {payee} is recorded.",
                         payer=mention(p.payer_id), payee=mention(p.payee_id), amount=amount)  # fmt: skip
            if p.state == "declined":
                return _("❌ {payee} declined: no payment of {amount} from {payer} is recorded.",
                         payer=mention(p.payer_id), payee=mention(p.payee_id), amount=amount)  # fmt: skip
            return _("⌛ Expired: {payer} paid {payee} {amount}. Nothing was recorded.", payer=mention(p.payer_id),
                     payee=mention(p.payee_id), amount=amount)  # fmt: skip

    async def answer_payment(
        self, interaction: discord.Interaction[Any], payment_id: int, action: str, *, late: bool = False
    ) -> None:
        """A click on a proposal's *confirm* or *decline*; ``late``: its buttons were already removed (the click
        of a lagging client), so the outcome is told privately instead of written on the message again."""
        if interaction.guild_id is None:
            return
        guild_id = interaction.guild_id
        try:
            if action == "ok":
                p = await self.payments.get(payment_id)
                names = {}
                if p is not None:
                    names = {u: await self._name(interaction.guild, guild_id, u) for u in (p.payer_id, p.payee_id)}
                done = await self.payments.confirm(payment_id, interaction.user.id, guild_id=guild_id, names=names)
                if not done.booked:
                    await private(self.bot, interaction, N_("This payment is already confirmed and recorded."))
                    return
                result = done.payment
            else:
                result = await self.payments.decline(payment_id, interaction.user.id, guild_id=guild_id)
        except LedgerRefusal as e:
            await refuse(self.bot, interaction, e)
            if isinstance(e, PaymentExpired):  # the proposal is closed now: say so on the message too
                stale = await self.payments.get(payment_id)
                if stale is not None and interaction.message is not None:
                    await interaction.message.edit(
                        content=await self._settled_text(guild_id, stale, interaction), view=None,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )  # fmt: skip
            return
        if late and result.state in _OUTCOME:
            await private(self.bot, interaction, _OUTCOME[result.state])
            return
        await interaction.response.edit_message(
            content=await self._settled_text(guild_id, result, interaction), view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )  # fmt: skip

    @ledger_group.command(name="payment", description="Admins: record a payment between two players, with a reason")
    @app_commands.describe(
        payer="Who paid", payee="Who was paid", amount="How many units",
        reason="Why (kept in the ledger and the export)", currency="Which currency (default: stakes)",
    )  # fmt: skip
    @app_commands.choices(currency=CURRENCY_CHOICES)
    async def record_payment(
        self,
        interaction: discord.Interaction[Any],
        payer: discord.User,
        payee: discord.User,
        amount: app_commands.Range[int, 1, MAX_AMOUNT],
        reason: app_commands.Range[str, 3, 500],
        currency: str = "stake",
    ) -> None:
        assert interaction.guild_id is not None
        if not await is_admin(self.settings, interaction):
            await private(self.bot, interaction, N_("Only server managers or the ledger admin role can do that."))
            return
        try:
            p = await self.payments.record(
                interaction.guild_id, interaction.user.id, (payer.id, payer.display_name),
                (payee.id, payee.display_name), amount, reason, currency, bot_involved=payer.bot or payee.bot,
            )  # fmt: skip
        except LedgerRefusal as e:
            await refuse(self.bot, interaction, e)
            return
        money = await self.money.get(interaction.guild_id)
        with using(await channel_locale(self.bot, interaction.guild_id, interaction)):
            text = _(
                "Recorded payment #{id}: {payer} paid {payee} {amount}, by {admin} — {reason}",
                id=str(p.id), payer=mention(payer.id), payee=mention(payee.id),
                amount=with_money(units_text(amount, currency), amount, currency, money),
                admin=mention(interaction.user.id), reason=reason,
            )  # fmt: skip
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())


class PaymentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tv:pay:(?P<a>ok|no):(?P<p>\d+)"):
    """*Confirm* / *decline* on a payment proposal (a persistent custom id: it works after a restart; the proposal
    and its deadline are in the database)."""

    def __init__(self, item: discord.ui.Button[Any], payment_id: int, action: str) -> None:
        super().__init__(item)
        self.payment_id = payment_id
        self.action = action

    @classmethod
    def make(cls, payment_id: int, action: str) -> PaymentButton:
        # (made inside the channel's locale: the labels are the channel's)
        if action == "ok":
            label, style = _("Confirm"), discord.ButtonStyle.success
        else:
            label, style = _("Decline"), discord.ButtonStyle.secondary
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=f"tv:pay:{action}:{payment_id}"
        )
        return cls(button, payment_id, action)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PaymentButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["p"]), match["a"])

    @_clicks.answers_every_click
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Payments")
        if not isinstance(cog, PaymentsCog):
            with using(interaction.locale):  # (no cog: no stored preference to read)
                text = _("Tavolo is starting up; try again.")
            await interaction.response.send_message(text, ephemeral=True)
            return
        late = _clicks.is_late(interaction, self.custom_id)
        await cog.answer_payment(interaction, self.payment_id, self.action, late=late)

"""The ledger in Discord: ``/ledger balance``, ``history``, ``export``, ``adjust`` (:mod:`.cog`) and settling up —
``/ledger settle``, ``paid``, ``payment`` and the payment proposals' buttons (:mod:`.payments`); what the ledger's
cogs share is :mod:`.shared`. Loaded as the extension ``cogs.ledger``.

The other ledger commands have cogs of their own: ``/leaderboard``, ``/profile`` and ``/ledger chart`` in
:mod:`cogs.standings`, ``/season`` in :mod:`cogs.seasons`, ``/tavolo config`` in :mod:`cogs.server_config` and
``/tavolo language`` in :mod:`cogs.language` (docs/ledger/commands.md lists them all).
"""

from __future__ import annotations

from discord.ext import commands

from bot.services import services_of

from .cog import LedgerCog
from .payments import PaymentButton, PaymentsCog

__all__ = ["LedgerCog", "PaymentButton", "PaymentsCog", "setup"]


async def setup(bot: commands.Bot) -> None:
    s = services_of(bot)
    await bot.add_cog(LedgerCog(bot, s.ledger, s.guild_settings, s.money))
    await bot.add_cog(PaymentsCog(bot, s.ledger, s.guild_settings, s.money))

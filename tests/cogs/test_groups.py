"""``/ledger`` and ``/tavolo`` gather the subcommands of several cogs into one group each: every subcommand bound to
the cog of its concern, and a cog that unloads takes exactly its own subcommands along."""

from __future__ import annotations

from discord import app_commands

from bot.transport.client import offline_bot


def _bound(tree: app_commands.CommandTree, group: str) -> dict[str, str]:
    found = tree.get_command(group)
    assert isinstance(found, app_commands.Group), group
    return {c.name: type(c.binding).__name__ for c in found.commands}


async def test_each_subcommand_is_bound_to_the_cog_of_its_concern() -> None:
    async with offline_bot() as bot:
        assert _bound(bot.tree, "ledger") == {
            "balance": "LedgerCog", "history": "LedgerCog", "export": "LedgerCog", "adjust": "LedgerCog",
            "settle": "PaymentsCog", "paid": "PaymentsCog", "payment": "PaymentsCog", "chart": "StandingsCog",
        }  # fmt: skip
        assert _bound(bot.tree, "tavolo") == {"config": "ServerConfigCog", "language": "LanguageCog"}
        assert _bound(bot.tree, "season") == {"info": "SeasonsCog", "close": "SeasonsCog", "recap": "SeasonsCog"}
        assert {c.name for c in bot.tree.get_commands()} >= {"leaderboard", "profile", "ledger", "season", "tavolo"}

        await bot.remove_cog("Payments")
        assert set(_bound(bot.tree, "ledger")) == {"balance", "history", "export", "adjust", "chart"}
        await bot.remove_cog("Ledger")
        await bot.remove_cog("Standings")
        assert bot.tree.get_command("ledger") is None  # left empty: gone
        await bot.remove_cog("Language")
        assert _bound(bot.tree, "tavolo") == {"config": "ServerConfigCog"}

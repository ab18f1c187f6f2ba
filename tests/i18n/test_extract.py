"""``python -m bot.i18n extract`` sees the whole command tree whatever the machine's environment says: the bot it
builds offline has every optional feature configured (the Activity too) and serves nothing."""

from __future__ import annotations

import asyncio

import pytest

from bot.i18n import _p, using
from bot.i18n.__main__ import current_template
from bot.transport.client import entry_point, offline_bot

ACTIVITY_ENV = ("TAVOLO_ACTIVITY_PORT", "DISCORD_CLIENT_SECRET", "TAVOLO_ACTIVITY_ORIGIN")


def _keys(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> set[tuple[str, str | None]]:
    for name in ACTIVITY_ENV:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in current_template() if m.id}


def test_the_offline_bot_has_the_activity_configured_and_serves_nothing() -> None:
    async def probe() -> tuple[bool, bool, bool]:
        from cogs.tables.frontend import _activity_on

        async with offline_bot() as bot:
            return bot.settings.activity_port is not None, _activity_on(bot), bot.activity_server is None

    configured, button, idle = asyncio.run(probe())
    assert configured and button  # the commands and buttons that exist only with the Activity are built
    assert idle  # ... and no port is bound


def test_extract_is_the_same_with_and_without_the_activity_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    bare = _keys({}, monkeypatch)
    full = _keys(
        {
            "TAVOLO_ACTIVITY_PORT": "8765",
            "DISCORD_CLIENT_SECRET": "x",
            "TAVOLO_ACTIVITY_ORIGIN": "https://1.discordsays.com",
        },
        monkeypatch,
    )
    assert bare == full
    with using("en"):
        launch = entry_point()["description"]
    assert (launch, "command-description") in bare  # the Entry Point is synced beside the tree, not in it
    assert ("Previous trick", None) in bare and ("Open in Activity", None) in bare
    assert _p("command-description", launch)

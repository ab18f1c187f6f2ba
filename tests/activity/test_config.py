"""The Activity's settings: off unless a port is set; the port needs the client secret."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings

TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


def test_off_unless_a_port_is_set() -> None:
    s = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DISCORD_CLIENT_SECRET": "s"})
    assert s.activity_port is None and s.client_secret == "s" and s.activity_origin is None


def test_port_secret_and_origin() -> None:
    env = {"DISCORD_TOKEN": TOKEN, "TAVOLO_ACTIVITY_PORT": "8090", "DISCORD_CLIENT_SECRET": "sec"}
    s = Settings.from_env({**env, "TAVOLO_ACTIVITY_ORIGIN": "https://1.discordsays.com/"})
    assert (s.activity_port, s.client_secret, s.activity_origin) == (8090, "sec", "https://1.discordsays.com")
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_SECRET"):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "TAVOLO_ACTIVITY_PORT": "8090"})
    for bad in ("0", "70000", "x"):
        with pytest.raises(ConfigError, match="TAVOLO_ACTIVITY_PORT"):
            Settings.from_env({**env, "TAVOLO_ACTIVITY_PORT": bad})
    with pytest.raises(ConfigError, match="TAVOLO_ACTIVITY_ORIGIN"):
        Settings.from_env({**env, "TAVOLO_ACTIVITY_ORIGIN": "discordsays.com/path"})


def test_the_clients_address_is_nowhere_unless_said() -> None:
    env = {"DISCORD_TOKEN": TOKEN, "TAVOLO_ACTIVITY_PORT": "8090", "DISCORD_CLIENT_SECRET": "sec"}
    assert Settings.from_env(env).activity_client_address is None
    for raw, want in (("off", None), ("peer", "peer"), ("PEER", "peer"), ("X-Forwarded-For", "X-Forwarded-For")):
        assert Settings.from_env({**env, "TAVOLO_ACTIVITY_CLIENT_ADDRESS": raw}).activity_client_address == want
    for bad in ("X Forwarded", "1.2.3.4", "a:b"):
        with pytest.raises(ConfigError, match="TAVOLO_ACTIVITY_CLIENT_ADDRESS"):
            Settings.from_env({**env, "TAVOLO_ACTIVITY_CLIENT_ADDRESS": bad})

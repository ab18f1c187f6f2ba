"""Point discord.py at a Discord-compatible server instead of discord.com.

Why this exists: the end-to-end tests run the real bot against a local fake Discord
(``tests/fakediscord``), and self-hosters may run it behind a Discord-compatible proxy. discord.py
has no public option for either, so this module sets the few class attributes it reads:

* REST: every request URL is ``Route.BASE + path``. ``discord.http.Route`` is used by the bot's
  HTTP client *and* by the webhook adapter in ``discord/webhook/async_.py`` that sends interaction
  callbacks and followups. In discord.py 2.7 both modules share one ``Route`` class, but older or
  future versions may not, so every module-level ``Route`` found is updated.
* Gateway: a plain ``Client`` connects to ``DiscordWebSocket.DEFAULT_GATEWAY`` (it never asks
  ``/gateway/bot``), while ``AutoShardedClient`` uses the URL ``/gateway/bot`` returns, and RESUME
  uses the ``resume_gateway_url`` from READY. To make *all* of these go to the configured URL,
  ``DiscordWebSocket.from_client`` is wrapped so that any gateway it is handed is replaced.

``None`` for either argument leaves that endpoint as it is; :func:`reset_endpoints` restores
Discord's defaults (tests use it so one in-process bot does not leak its endpoints to the next).
"""

from __future__ import annotations

import functools
from typing import Any

import discord.gateway
import discord.http
import discord.webhook.async_
import discord.webhook.sync
import yarl

DISCORD_API_BASE = "https://discord.com/api/v10"
_DEFAULT_GATEWAY = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
_ROUTE_MODULES = (discord.http, discord.webhook.async_, discord.webhook.sync)

#: The gateway every connection is forced to, or None to let discord.py choose.
_forced_gateway: yarl.URL | None = None
_original_from_client = discord.gateway.DiscordWebSocket.__dict__["from_client"]


def _set_api_base(base: str) -> None:
    for module in _ROUTE_MODULES:
        route = getattr(module, "Route", None)
        if route is not None:
            route.BASE = base


@functools.wraps(_original_from_client.__func__)
async def _from_client(cls: Any, client: Any, **kwargs: Any) -> Any:
    if _forced_gateway is not None:
        kwargs["gateway"] = _forced_gateway
    return await _original_from_client.__func__(cls, client, **kwargs)


def _install_gateway_override() -> None:
    websocket = discord.gateway.DiscordWebSocket
    if websocket.__dict__["from_client"] is _original_from_client:
        websocket.from_client = classmethod(_from_client)  # type: ignore[assignment]


def apply_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Routes discord.py's REST calls to ``api_base`` (e.g. ``http://127.0.0.1:8080/api/v10``)
    and its gateway connections (initial, sharded and RESUME) to ``gateway_url``.
    """
    global _forced_gateway
    if api_base is not None:
        _set_api_base(api_base.rstrip("/"))
    if gateway_url is not None:
        url = yarl.URL(gateway_url)
        if url.scheme not in ("ws", "wss"):
            raise ValueError(f"gateway URL must be ws:// or wss://, got {gateway_url!r}")
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = url
        _forced_gateway = url
        _install_gateway_override()


def reset_endpoints() -> None:
    """Back to discord.com and Discord's gateway."""
    global _forced_gateway
    _set_api_base(DISCORD_API_BASE)
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = _DEFAULT_GATEWAY
    _forced_gateway = None

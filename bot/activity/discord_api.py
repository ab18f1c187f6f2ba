"""The three Discord requests the Activity makes: the OAuth2 code exchange, the user behind an access token, and the
activity instance (its channel and participants). The REST base follows ``DISCORD_API_BASE`` like every request."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp

__all__ = ["DEFAULT_API_BASE", "DiscordApi", "DiscordRefused", "Instance", "User"]

log = logging.getLogger(__name__)

DEFAULT_API_BASE = "https://discord.com/api/v10"
_TIMEOUT = aiohttp.ClientTimeout(total=10)


class DiscordRefused(Exception):
    """Discord said no (a bad code or token, an unknown instance) or could not be reached: ``code`` is the
    refusal the client gets (``bad_code``, ``bad_token``, ``no_instance``, ``discord_unavailable``)."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code


@dataclass(frozen=True, slots=True)
class User:
    id: int
    name: str
    locale: str | None


@dataclass(frozen=True, slots=True)
class Instance:
    instance_id: str
    channel_id: int | None
    guild_id: int | None
    users: frozenset[int]


class DiscordApi:
    def __init__(self, *, application_id: int, client_secret: str, bot_token: str, api_base: str | None) -> None:
        self.application_id = application_id
        self._secret = client_secret
        self._bot_token = bot_token
        self.base = (api_base or DEFAULT_API_BASE).rstrip("/")
        self._session: aiohttp.ClientSession | None = None
        #: requests made, by kind (the benchmark counts Discord requests)
        self.requests: dict[str, int] = {}

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=_TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def _call(self, kind: str, method: str, path: str, refusal: str, **kw: Any) -> Any:
        self.requests[kind] = self.requests.get(kind, 0) + 1
        try:
            async with self._http().request(method, self.base + path, **kw) as resp:
                if resp.status >= 500 or resp.status == 429:
                    raise DiscordRefused("discord_unavailable", f"{kind}: HTTP {resp.status}")
                if resp.status >= 400:
                    raise DiscordRefused(refusal, f"{kind}: HTTP {resp.status}")
                data = await resp.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as e:
            raise DiscordRefused("discord_unavailable", f"{kind}: {e!r}") from None
        if not isinstance(data, dict):
            raise DiscordRefused("discord_unavailable", f"{kind}: not an object")
        return data

    async def exchange(self, code: str) -> str:
        """The access token for an ``authorize`` code (the application's client secret proves it is us)."""
        form = {
            "client_id": str(self.application_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        data = await self._call("token", "POST", "/oauth2/token", "bad_code", data=form)
        token = data.get("access_token")
        if not isinstance(token, str) or not token:
            raise DiscordRefused("bad_code", "no access_token")
        return token

    async def user(self, access_token: str) -> User:
        data = await self._call(
            "user", "GET", "/users/@me", "bad_token", headers={"Authorization": f"Bearer {access_token}"}
        )
        try:
            name = data.get("global_name") or data.get("username") or str(data["id"])
            return User(int(data["id"]), str(name)[:64], data.get("locale"))
        except (KeyError, ValueError, TypeError):
            raise DiscordRefused("bad_token", "no user id") from None

    async def instance(self, instance_id: str) -> Instance:
        path = f"/applications/{self.application_id}/activity-instances/{instance_id}"
        data = await self._call(
            "instance", "GET", path, "no_instance", headers={"Authorization": f"Bot {self._bot_token}"}
        )
        location = data.get("location") or {}
        try:
            return Instance(
                instance_id=str(data.get("instance_id", instance_id)),
                channel_id=int(location["channel_id"]) if location.get("channel_id") else None,
                guild_id=int(location["guild_id"]) if location.get("guild_id") else None,
                users=frozenset(int(u) for u in data.get("users") or ()),
            )
        except (ValueError, TypeError):
            raise DiscordRefused("no_instance", "malformed instance") from None

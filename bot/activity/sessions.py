"""Session tokens of the Activity: short-lived, bound to one user, one activity instance and its channel, signed.

A token is ``v1.<payload>.<mac>`` (base64url): the payload names the user, the instance, its channel and guild,
the reader's locale and display name, an expiry and a random nonce; the MAC is HMAC-SHA256 under a key derived
from the application's client secret, so every shard process that has the secret checks every token and nothing
needs storing. A token opens **one** WebSocket: its nonce is spent by the ``hello`` and a second ``hello`` with it
is refused as replayed (spent nonces are kept until their token expires). The ``welcome`` hands the client a fresh
token (same expiry) for its next reconnect; past that expiry the client asks ``/api/session`` again with its
access token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["TTL", "Session", "SessionError", "Signer"]

#: how long a session token opens a socket (seconds); an open socket stays open past it
TTL = 600
_PREFIX = "v1"


class SessionError(Exception):
    """A token that opens nothing: ``code`` is ``bad_session``, ``expired`` or ``replayed``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Session:
    user_id: int
    name: str
    instance_id: str
    channel_id: int
    guild_id: int | None
    locale: str
    expires: float
    nonce: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Issues and checks session tokens (see the module docstring)."""

    def __init__(self, client_secret: str, *, ttl: int = TTL, clock: Callable[[], float] = time.time) -> None:
        # a key of its own, derived: the client secret itself never signs anything a client holds
        self._key = hmac.new(client_secret.encode(), b"tavolo activity session v1", hashlib.sha256).digest()
        self.ttl = ttl
        self.clock = clock
        self._spent: dict[str, float] = {}  # nonce -> its token's expiry

    def issue(
        self,
        *,
        user_id: int,
        name: str,
        instance_id: str,
        channel_id: int,
        guild_id: int | None,
        locale: str,
        expires: float | None = None,
    ) -> str:
        payload = {
            "u": str(user_id),
            "nm": name,
            "i": instance_id,
            "c": str(channel_id),
            "g": None if guild_id is None else str(guild_id),
            "l": locale,
            "e": int(self.clock()) + self.ttl if expires is None else int(expires),
            "n": secrets.token_urlsafe(12),
        }
        body = _b64(json.dumps(payload, separators=(",", ":")).encode())
        return f"{_PREFIX}.{body}.{self._mac(body)}"

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._key, f"{_PREFIX}.{body}".encode(), hashlib.sha256).digest())

    def check(self, token: object) -> Session:
        """The session a token opens, without spending it. Raises :class:`SessionError`."""
        if not isinstance(token, str) or len(token) > 2048:
            raise SessionError("bad_session")
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != _PREFIX or not hmac.compare_digest(self._mac(parts[1]), parts[2]):
            raise SessionError("bad_session")
        try:
            p = json.loads(_unb64(parts[1]))
            session = Session(
                user_id=int(p["u"]),
                name=str(p["nm"]),
                instance_id=str(p["i"]),
                channel_id=int(p["c"]),
                guild_id=None if p["g"] is None else int(p["g"]),
                locale=str(p["l"]),
                expires=float(p["e"]),
                nonce=str(p["n"]),
            )
        except (ValueError, KeyError, TypeError):
            raise SessionError("bad_session") from None
        if session.expires <= self.clock():
            raise SessionError("expired")
        return session

    def spend(self, token: object) -> Session:
        """Check a token and spend it: it opens no second socket. Raises :class:`SessionError`."""
        session = self.check(token)
        now = self.clock()
        for nonce in [n for n, exp in self._spent.items() if exp <= now]:
            del self._spent[nonce]
        if session.nonce in self._spent:
            raise SessionError("replayed")
        self._spent[session.nonce] = session.expires
        return session

    def renew(self, session: Session) -> str:
        """A fresh token (new nonce) for the same user, instance and channel, expiring when ``session`` does: handed
        out in ``welcome`` for a reconnect, it never outlives the Discord check that made the first one."""
        return self.issue(
            user_id=session.user_id,
            name=session.name,
            instance_id=session.instance_id,
            channel_id=session.channel_id,
            guild_id=session.guild_id,
            locale=session.locale,
            expires=session.expires,
        )

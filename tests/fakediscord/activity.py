"""Discord's side of an Activity, faked: OAuth2 codes and access tokens, and activity instances.

A test launches an instance in a channel (:meth:`Activities.launch`), lets users join it, and gets an ``authorize``
code per user (:meth:`Activities.authorize`), which is what the Embedded App SDK hands the page. The REST routes
(``POST /oauth2/token``, ``GET /users/@me`` with a Bearer token, ``GET /applications/{id}/activity-instances/{id}``)
answer from here as Discord documents them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import state as st

if TYPE_CHECKING:
    from .users import FakeUser

JSON = dict[str, Any]


@dataclass
class Instance:
    instance_id: str
    channel: st.Channel
    users: set[int] = field(default_factory=set)

    def payload(self, application_id: int) -> JSON:
        location: JSON = {
            "id": f"gc-{self.channel.guild_id}-{self.channel.id}",
            "kind": "gc",
            "channel_id": str(self.channel.id),
        }
        if self.channel.guild_id is not None:
            location["guild_id"] = str(self.channel.guild_id)
        return {
            "application_id": str(application_id),
            "instance_id": self.instance_id,
            "launch_id": str(abs(hash(self.instance_id)) % 10**18),
            "location": location,
            "users": [str(u) for u in sorted(self.users)],
        }


class Activities:
    def __init__(self) -> None:
        #: the application's client secret (the bot's ``DISCORD_CLIENT_SECRET``)
        self.client_secret = secrets.token_urlsafe(24)
        self.instances: dict[str, Instance] = {}
        self._codes: dict[str, int] = {}  # authorize code -> user id (spent by the exchange)
        self.tokens: dict[str, int] = {}  # access token -> user id
        #: code exchanges that were refused (a wrong secret, a spent code)
        self.refused: list[str] = []

    def enable(self, world: st.World, application_id: int) -> st.Command:
        """What enabling Activities in the Developer Portal does: Discord adds a default Entry Point command."""
        data = {"name": "launch", "type": 4, "handler": 2, "description": "Launch an activity"}
        command = st.Command(world.ids.next(), application_id, None, data, world.ids.next())
        world.commands[command.id] = command
        return command

    def launch(self, channel: st.Channel, *users: FakeUser) -> Instance:
        instance = Instance(f"i-{secrets.token_hex(8)}", channel, {u.id for u in users})
        self.instances[instance.instance_id] = instance
        return instance

    def authorize(self, user: FakeUser) -> str:
        """What the SDK's ``authorize`` gives the page of ``user``: a one-time code."""
        code = secrets.token_urlsafe(16)
        self._codes[code] = user.id
        return code

    def exchange(self, form: JSON, application_id: int) -> JSON | None:
        """``POST /oauth2/token``: None (400 invalid_grant / invalid_client) unless the secret and the code hold."""
        if form.get("client_id") != str(application_id) or form.get("client_secret") != self.client_secret:
            self.refused.append("invalid_client")
            return None
        user_id = self._codes.pop(str(form.get("code")), None)
        if form.get("grant_type") != "authorization_code" or user_id is None:
            self.refused.append("invalid_grant")
            return None
        token = secrets.token_urlsafe(24)
        self.tokens[token] = user_id
        return {"access_token": token, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"}

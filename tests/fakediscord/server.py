"""``FakeDiscord``: a local Discord (REST + gateway on loopback) for end-to-end tests.

The real, unmodified discord.py client logs into it. Point the bot at it with
``bot.transport.endpoints.apply_endpoints(fake.api_base, fake.gateway_url)`` (in-process) or via the bot's
environment variables (subprocess), using ``fake.token`` as the bot token.

The server owns the whole simulated world and is the single place where state changes. Every
change calls :meth:`FakeDiscord.notify`, which wakes :meth:`FakeDiscord.wait_for`; tests therefore
wait for *conditions* ("a message with a Play button exists in #wizard") instead of sleeping.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, TypeVar

from aiohttp import web

from . import state as st
from .activity import Activities
from .gateway import Gateway
from .rest import (
    CHANNEL_PATHS,
    FAULT_PATHS,
    ApiError,
    ApiRequest,
    DiscordLimits,
    Faults,
    RateLimitState,
    RestApi,
    _check_message_body,
)
from .users import FakeUser

JSON = dict[str, Any]
T = TypeVar("T")

_log = logging.getLogger(__name__)

#: Discord's limit for the initial interaction response.
ACK_DEADLINE = 3.0


class RecordedRequest(NamedTuple):
    """One REST call as the fake saw it (path is relative to ``api_base``)."""

    method: str
    path: str
    json: Any
    at: float


class FakeDiscord:
    """A fake Discord server. ``await start()``, use, ``await stop()``."""

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "Tavolo",
        heartbeat_interval_ms: int = 41_250,
        default_timeout: float = 10.0,
        shard_count: int = 1,
    ) -> None:
        self.world = st.World()
        self.bot_user = self.world.new_user(bot_name, bot=True)
        self.token: str = token or _bot_token(self.bot_user.id)
        # On Discord the application id of a bot equals its user id.
        self.application_id = self.bot_user.id
        self.owner = self.world.new_user("app-owner")
        self.default_timeout = default_timeout
        self.gateway = Gateway(self, heartbeat_interval_ms=heartbeat_interval_ms, shard_count=shard_count)
        self.rest = RestApi(self)
        #: Activities: OAuth2 codes and tokens, activity instances (tests/fakediscord/activity.py)
        self.activities = Activities()
        self.users: dict[int, FakeUser] = {}
        #: uploaded files by attachment id (message attachments, and files users attach to slash commands)
        self.files: dict[str, bytes] = self.world.files

        #: Every REST request, in arrival order.
        self.requests: list[RecordedRequest] = []
        #: Requests that matched no route: ``(method, path)``.
        self.unhandled: list[tuple[str, str]] = []
        #: Exceptions raised while handling requests (bugs in the fake or unparseable bodies).
        self.errors: list[tuple[str, str, BaseException]] = []
        #: Requests answered with a Discord error (4xx other than 429): (method, path, status, body).
        self.rejected: list[tuple[str, str, int, JSON]] = []
        #: Number of 429 responses sent.
        self.rate_limited = 0
        #: Injected 503s and kill switches (:meth:`inject_faults`, :meth:`kill_on`).
        self.faults = Faults()
        #: Creates answered with an earlier message of the same nonce (``enforce_nonce``).
        self.nonce_hits = 0
        #: Seconds from INTERACTION_CREATE dispatch to the first callback, by interaction id.
        self.ack_latencies: dict[int, float] = {}
        #: Interactions not acknowledged within ``ack_deadline`` seconds.
        self.late_acks: list[st.InteractionRecord] = []
        self.ack_deadline = ACK_DEADLINE
        #: Like Discord, reject callbacks that arrive after the deadline (404, code 10062).
        self.enforce_ack_deadline = True
        #: What READY (``resume_gateway_url``) and ``/gateway/bot`` tell clients; None means the
        #: real URL. Pointing it elsewhere shows that ``bot.transport.endpoints`` pins the gateway anyway.
        self.advertised_gateway_url: str | None = None

        self._rate_limit: RateLimitState | None = None
        #: Discord's global and per-route limits, when enforced (:meth:`discord_limits`)
        self.limits: DiscordLimits | None = None
        self._changed = asyncio.Event()
        #: Waiters of :meth:`wait_watching`, by what they watch (a channel, a user's ephemerals, an interaction)
        self._watchers: dict[int, set[asyncio.Event]] = {}
        #: Pending "was it acknowledged in time?" checks, by interaction id.
        self._ack_timers: dict[int, asyncio.TimerHandle] = {}
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------

    async def _serve_file(self, request: web.Request) -> web.Response:
        data = self.files.get(request.match_info["attachment_id"])
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        # attachment downloads (Discord serves them from its CDN, outside the rate-limited API)
        app.router.add_get(self.rest.prefix + "/attachments/{attachment_id}/{filename}", self._serve_file)
        app.router.add_route("*", self.rest.prefix + "/{tail:.*}", self.rest.handle)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        # Anything else (another API version, a CDN URL...) is recorded as unhandled too.
        app.router.add_route("*", "/{tail:.*}", self.rest.handle_elsewhere)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return self

    async def stop(self) -> None:
        for timer in self._ack_timers.values():
            timer.cancel()
        self._ack_timers.clear()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}{self.rest.prefix}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables that point ``python -m bot`` (see ``bot/config.py``) at this fake."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    # -- waiting -------------------------------------------------------------------

    def notify(self) -> None:
        """Wakes every waiter; called after each state change.

        This is ``asyncio.Condition.notify_all`` without the lock: the event is swapped for a fresh
        one, so it can be called from synchronous code (REST handlers, test helpers) and a waiter
        can never miss a change that happens between its check and its wait.
        """
        self._changed.set()
        self._changed = asyncio.Event()

    def _touch(self, *keys: int | None) -> None:
        """Wakes the waiters watching any of ``keys`` (a channel id, the user an ephemeral is for, an
        interaction id)."""
        for key in keys:
            if key is not None:
                for event in self._watchers.pop(key, ()):
                    event.set()

    async def wait_watching(
        self,
        keys: Iterable[int],
        predicate: Callable[[], T],
        timeout: float | None = None,
        *,
        description: str | None = None,
    ) -> T:
        """Like :meth:`wait_for`, but re-checks ``predicate`` only when something it watches changed: a message
        in one of the channels ``keys``, an ephemeral for one of the users ``keys``, or the acknowledgement of
        one of the interactions ``keys``. Hundreds of waiters then cost nothing while other tables play."""
        timeout = self.default_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        keys = list(keys)
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(self._timeout_message(description or _describe(predicate), timeout))
            event = asyncio.Event()
            for key in keys:
                self._watchers.setdefault(key, set()).add(event)
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass
            finally:
                for key in keys:
                    waiters = self._watchers.get(key)
                    if waiters is not None:
                        waiters.discard(event)

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float | None = None,
        *,
        description: str | None = None,
        poll: float | None = None,
    ) -> T:
        """Returns ``predicate()`` as soon as it is truthy, re-checking on every state change.

        ``poll`` additionally re-checks every ``poll`` seconds, for predicates over state the fake
        does not own (e.g. the bot's own database in an in-process test).
        """
        timeout = self.default_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(self._timeout_message(description or _describe(predicate), timeout))
            changed = self._changed
            wait = remaining if poll is None else min(poll, remaining)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), wait)

    def _timeout_message(self, what: str, timeout: float) -> str:
        recent = ", ".join(f"{r.method} {r.path}" for r in self.requests[-5:]) or "none"
        lines = [
            f"Timed out after {timeout:.1f}s waiting for {what}.",
            f"  bot connected: {self.gateway.connected}; last requests: {recent}",
        ]
        if self.unhandled:
            lines.append(f"  unhandled routes: {self.unhandled[-5:]}")
        for method, path, status, body in self.rejected[-3:]:
            lines.append(f"  rejected {method} {path}: {status} {body}")
        if self.errors:
            lines.append(f"  fake errors: {[(m, p, repr(e)) for m, p, e in self.errors[-3:]]}")
        if self.late_acks:
            lines.append(f"  late acks: {[r.describe() for r in self.late_acks[-3:]]}")
        return "\n".join(lines)

    async def wait_until_ready(self, timeout: float | None = None) -> None:
        """Waits until a bot session is connected and has been sent every GUILD_CREATE."""
        await self.wait_for(lambda: self.gateway.connected, timeout, description="the bot to connect")

    async def wait_for_commands(self, *names: str, timeout: float | None = None) -> None:
        """Waits until the bot has registered (synced) the given top-level commands."""

        def registered() -> bool:
            known = {c.name for c in self.world.commands.values()}
            return all(n in known for n in names)

        await self.wait_for(registered, timeout, description=f"commands {names} to be registered")

    async def wait_for_message(
        self,
        channel: st.Channel,
        predicate: Callable[[st.Message], object] | None = None,
        timeout: float | None = None,
    ) -> st.Message:
        """The first (oldest) message in ``channel`` matching ``predicate``."""
        return await self.wait_for(
            lambda: _first(self.channel_messages(channel), predicate),
            timeout,
            description=f"a matching message in #{channel.name or channel.id}",
        )

    # -- building the world ------------------------------------------------------------

    def add_guild(
        self, name: str, *, preferred_locale: str = "en-US", shard: tuple[int, int] | None = None
    ) -> st.Guild:
        """A guild with the bot and every user in it; ``shard=(shard_id, count)`` picks an id on that shard."""
        guild_id = None if shard is None else self._id_on_shard(*shard)
        guild = self.world.new_guild(name, self.owner, id_=guild_id)
        guild.preferred_locale = preferred_locale
        guild.members[self.bot_user.id] = st.Member(self.bot_user, st.DEFAULT_MEMBER_PERMISSIONS)
        for fake_user in self.users.values():
            guild.members[fake_user.id] = st.Member(fake_user.user, fake_user.permissions)
        if self.gateway.current is not None:
            self.gateway.dispatch("GUILD_CREATE", self._guild_create_payload(guild))
        self.notify()
        return guild

    def _id_on_shard(self, shard_id: int, count: int) -> int:
        # A fresh snowflake moved ahead by less than ``count`` milliseconds onto the shard; later ids stay above it.
        ids = self.world.ids
        value = ids.next()
        value += ((shard_id - (value >> 22)) % count) << 22
        ids._last = max(ids._last, value)
        return value

    def add_role(self, guild: st.Guild, name: str) -> int:
        """A new role in ``guild`` (no permissions of its own); returns its id."""
        role_id = self.world.ids.next()
        guild.roles[role_id] = name
        data = {"guild_id": str(guild.id), "role": guild.role_payload(role_id, name)}
        self.gateway.dispatch("GUILD_ROLE_CREATE", data, intent=st.INTENT_GUILDS)
        self.notify()
        return role_id

    def give_role(self, guild: st.Guild, user: FakeUser, role_id: int) -> None:
        """Gives ``user`` the role; interactions from now on carry it in their member payload."""
        guild.members[user.id].roles.append(role_id)
        self.notify()

    def add_channel(self, guild: st.Guild, name: str) -> st.Channel:
        channel = self.world.new_channel(st.CH_GUILD_TEXT, name, guild_id=guild.id)
        self.gateway.dispatch("CHANNEL_CREATE", channel.payload(self.world), intent=st.INTENT_GUILDS)
        self.notify()
        return channel

    def add_thread(self, channel: st.Channel, name: str) -> st.Channel:
        """A public thread under ``channel`` that the bot did not create (e.g. made by a user)."""
        return self._new_thread(channel, name, st.CH_PUBLIC_THREAD, None, owner=self.owner)

    def add_user(
        self,
        name: str,
        dms_closed: bool = False,
        *,
        admin: bool = False,
        permissions: int | None = None,
        locale: str = "en-US",
    ) -> FakeUser:
        """A human member of every guild (current and future). ``admin`` adds Manage Server; ``locale`` is their
        Discord client's language (``FakeUser.locale`` changes it later)."""
        perms = st.DEFAULT_MEMBER_PERMISSIONS if permissions is None else permissions
        if admin:
            perms |= st.PERM_MANAGE_GUILD
        user = self.world.new_user(name, dms_closed=dms_closed)
        user.locale = locale
        fake_user = FakeUser(self, user, perms)
        self.users[user.id] = fake_user
        for guild in self.world.guilds.values():
            member = st.Member(user, perms)
            guild.members[user.id] = member
            data = {**member.payload(), "guild_id": str(guild.id)}
            self.gateway.dispatch("GUILD_MEMBER_ADD", data, intent=st.INTENT_GUILD_MEMBERS)
        self.notify()
        return fake_user

    def set_rate_limit(self, limit: int | None, per_seconds: float = 1.0, *, advertise: bool = True) -> None:
        """Limits POST/PATCH on each channel's messages to ``limit`` per ``per_seconds`` (None: off).

        With ``advertise`` the usual ``X-RateLimit-*`` headers go out on successful responses, so
        discord.py paces itself as it would against Discord. Without, the client cannot see the
        bucket coming and every excess request gets a 429 (like Discord's shared per-resource
        limits), which is the easy way to exercise discord.py's retry path.
        """
        self._rate_limit = None if limit is None else RateLimitState(limit, per_seconds, advertise)

    def inject_faults(self, share: float, *, after: float = 0.0, seed: int = 0, interactions: bool = True) -> Faults:
        """Answer 503 to ``share`` of the bot's writes before carrying them out, and to ``after`` of them once carried
        out (the answer lost): like Discord in an incident. The writes: messages and threads under ``/channels/``
        and, with ``interactions``, the interaction callbacks (``/interactions/{id}/{token}/callback``) and their
        webhooks (follow-ups, edits and deletes under ``/webhooks/{app}/{token}``). Seeded: the same test sees the
        same faults. ``inject_faults(0)`` turns it off."""
        kills = self.faults.kills
        path = FAULT_PATHS if interactions else CHANNEL_PATHS
        self.faults = Faults(share=share, after=after, seed=seed, kills=kills, path=path)
        return self.faults

    def kill_on(
        self, predicate: Callable[[ApiRequest], bool], kill: Callable[[], None], *, after: bool = False
    ) -> None:
        """Call ``kill`` (e.g. SIGKILL the bot process) on the first request matching ``predicate``: before it is
        carried out (its client gets a 503, it is dead anyway), or right ``after``."""
        self.faults.kills.append((predicate, kill, "after" if after else "before"))

    def discord_limits(self, per_second: int | None = 50) -> DiscordLimits | None:
        """Enforce Discord's rate limits: ``per_second`` requests per second for the bot (interaction callbacks
        and webhooks excepted) and the per-route limits of ``rest.DISCORD_ROUTE_LIMITS``, with their
        ``X-RateLimit-*`` headers and 429 bodies (``retry_after``, ``global``). None turns them off."""
        self.limits = None if per_second is None else DiscordLimits(per_second)
        return self.limits

    # -- reading ------------------------------------------------------------------------

    def channel_messages(self, channel: st.Channel) -> list[st.Message]:
        """Visible (non-ephemeral, non-deleted) messages of a channel, oldest first."""
        return list(self.world.messages_in(channel.id))

    @property
    def interactions(self) -> dict[int, st.InteractionRecord]:
        return self.world.interactions

    def message(self, message_id: int) -> st.Message:
        return self.world.messages[message_id]

    def channel(self, channel_id: int) -> st.Channel:
        return self.world.channels[channel_id]

    def commands(self, guild: st.Guild | None = None) -> list[JSON]:
        """Registered command definitions (global, or for ``guild``) as Discord returns them."""
        return [c.payload() for c in self.world.commands_for(None if guild is None else guild.id)]

    def problems(self) -> list[str]:
        """Things a well-behaved bot never causes: unknown routes, fake errors, late acks."""
        found = [f"unhandled route {m} {p}" for m, p in self.unhandled]
        found += [f"error on {m} {p}: {e!r}" for m, p, e in self.errors]
        found += [f"late acknowledgement of {r.describe()}" for r in self.late_acks]
        return found

    def assert_clean(self) -> None:
        """Fails the test if :meth:`problems` found anything."""
        problems = self.problems()
        assert not problems, "fake Discord saw problems:\n  " + "\n  ".join(problems)

    # -- bookkeeping used by the REST layer -------------------------------------------------

    def _record_request(self, method: str, path: str, body: Any) -> None:
        self.requests.append(RecordedRequest(method, path, body, time.monotonic()))

    def _record_unhandled(self, method: str, path: str) -> None:
        self.unhandled.append((method, path))
        self.notify()

    def _record_rejection(self, method: str, path: str, status: int, body: JSON) -> None:
        self.rejected.append((method, path, status, body))

    def _record_error(self, method: str, path: str, exc: BaseException) -> None:
        _log.error("fake Discord failed on %s %s", method, path, exc_info=exc)
        self.errors.append((method, path, exc))
        self.notify()

    def _mark_late(self, record: st.InteractionRecord) -> None:
        if not record.late:
            record.late = True
            self.late_acks.append(record)
            self.notify()

    # -- gateway payloads ------------------------------------------------------------

    def _application_payload(self) -> JSON:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "summary": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.bot_user.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
        }

    def _ready_payload(self, session: Any, shard: Any) -> JSON:
        user = self.bot_user.payload()
        user.update(verified=True, mfa_enabled=False, flags=0)
        data: JSON = {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(g), "unavailable": True} for g in self.world.guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.advertised_gateway_url or self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }
        if shard is not None:
            data["shard"] = shard
        return data

    def _guild_create_payload(self, guild: st.Guild) -> JSON:
        world = self.world
        channels = [c for c in world.guild_channels(guild)]
        data = guild.payload()
        data.update(
            joined_at=guild.created_at,
            large=False,
            unavailable=False,
            member_count=len(guild.members),
            # Like Discord for bots without presences, only the bot's own member is included.
            members=[guild.members[self.bot_user.id].payload()],
            channels=[c.payload(world) for c in channels if not c.is_thread],
            threads=[c.payload(world) for c in channels if c.is_thread and not c.archived],
            voice_states=[],
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
            embedded_activities=[],
        )
        return data

    def _guild_create_payloads(self) -> list[JSON]:
        return [self._guild_create_payload(g) for g in self.world.guilds.values()]

    def _members_chunk(self, guild_id: int, request: JSON) -> JSON | None:
        guild = self.world.guilds.get(guild_id)
        if guild is None:
            return None
        members = list(guild.members.values())
        user_ids = request.get("user_ids")
        not_found: list[str] = []
        if user_ids is not None:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.user.id in wanted]
            not_found = [str(u) for u in wanted - {m.user.id for m in members}]
        else:
            query = str(request.get("query") or "").lower()
            members = [m for m in members if m.user.name.lower().startswith(query)]
            limit = int(request.get("limit") or 0)
            if limit:
                members = members[:limit]
        chunk: JSON = {
            "guild_id": str(guild_id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if request.get("nonce") is not None:
            chunk["nonce"] = request["nonce"]
        if request.get("presences"):
            chunk["presences"] = []
        return chunk

    # -- messages -------------------------------------------------------------------------

    def _new_message(
        self,
        channel: st.Channel,
        author: st.User,
        body: JSON,
        *,
        attachments: Sequence[JSON] = (),
        ephemeral_for: int | None = None,
        interaction: st.InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> st.Message:
        flags = int(body.get("flags") or 0)
        # Only a few flags may be set by senders; the ephemeral one only through interactions.
        flags &= (1 << 2) | (1 << 12) | st.FLAG_COMPONENTS_V2 | (st.FLAG_EPHEMERAL if interaction else 0)
        flags |= extra_flags
        if ephemeral_for is None and interaction is not None and flags & st.FLAG_EPHEMERAL:
            ephemeral_for = interaction.user.id
        message = st.Message(
            id=self.world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=list(attachments),
            flags=flags,
            type=20 if interaction is not None and interaction.type == 2 else 0,
            ephemeral_for=ephemeral_for,
            interaction_id=None if interaction is None else interaction.id,
            interaction_metadata=None if interaction is None else interaction.metadata(),
            application_id=None if interaction is None else self.application_id,
            nonce=body.get("nonce"),
        )
        self.world.add_message(message)
        if message.ephemeral_for is None:
            self._dispatch_message_event("MESSAGE_CREATE", message, channel)
        self._touch(message.channel_id, message.ephemeral_for)
        self.notify()
        return message

    def _edit_message(self, message: st.Message, body: JSON, attachments: Sequence[JSON] = ()) -> None:
        message.edits.append(message.snapshot())
        if "content" in body:
            message.content = str(body["content"] or "")
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        if "attachments" in body or attachments:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            message.attachments = [a for a in message.attachments if a["id"] in keep] + list(attachments)
        sticky = message.flags & st.FLAG_EPHEMERAL
        if "flags" in body and body["flags"] is not None:
            message.flags = (int(body["flags"]) & ~(st.FLAG_EPHEMERAL | st.FLAG_LOADING)) | sticky
        else:
            message.flags &= ~st.FLAG_LOADING
        message.edited_timestamp = st.iso_now()
        if message.ephemeral_for is None:
            channel = self.world.channels[message.channel_id]
            self._dispatch_message_event("MESSAGE_UPDATE", message, channel)
        self._touch(message.channel_id, message.ephemeral_for)
        self.notify()

    def _delete_message(self, message: st.Message) -> None:
        message.deleted = True
        if message.ephemeral_for is None:
            channel = self.world.channels[message.channel_id]
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            self.gateway.dispatch("MESSAGE_DELETE", data, intent=_message_intent(channel))
        self._touch(message.channel_id, message.ephemeral_for)
        self.notify()

    def _dispatch_message_event(self, event: str, message: st.Message, channel: st.Channel) -> None:
        data = message.payload()
        if channel.guild_id is not None:
            member = self.world.guilds[channel.guild_id].members.get(message.author.id)
            if member is not None:
                data["member"] = {k: v for k, v in member.payload().items() if k != "user"}
            session = self.gateway.current
            lacks_content = session is not None and not session.intents & st.INTENT_MESSAGE_CONTENT
            if lacks_content and message.author.id != self.bot_user.id:
                # Without the privileged intent, guild messages of others arrive without content.
                data.update(content="", embeds=[], components=[], attachments=[])
        self.gateway.dispatch(event, data, intent=_message_intent(channel))

    def _new_thread(
        self,
        parent: st.Channel,
        name: str,
        thread_type: int,
        thread_id: int | None,
        *,
        owner: st.User | None = None,
    ) -> st.Channel:
        owner = owner or self.bot_user
        thread = self.world.new_channel(
            thread_type,
            name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            id_=thread_id,
        )
        thread.thread_member_ids.add(owner.id)
        data = {**thread.payload(self.world), "newly_created": True}
        self.gateway.dispatch("THREAD_CREATE", data, intent=st.INTENT_GUILDS)
        self.notify()
        return thread

    # -- interactions ----------------------------------------------------------------------

    def _dispatch_interaction(
        self,
        user: FakeUser,
        channel: st.Channel,
        interaction_type: int,
        data: JSON,
        *,
        message: st.Message | None = None,
    ) -> st.InteractionRecord:
        if self.gateway.current is None:
            raise RuntimeError("No bot has connected to the fake gateway yet; cannot send an interaction.")
        interaction_id = self.world.ids.next()
        token = f"itoken.{interaction_id}.{secrets.token_urlsafe(16)}"
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": interaction_type,
            "data": data,
            "token": token,
            "version": 1,
            "locale": user.user.locale,
            "app_permissions": str(st.DEFAULT_MEMBER_PERMISSIONS),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
        }
        channel_payload = channel.payload(self.world)
        if channel.guild_id is not None:
            guild = self.world.guilds[channel.guild_id]
            member = guild.members[user.id]
            channel_payload["permissions"] = str(member.permissions)
            payload.update(
                guild_id=str(channel.guild_id),
                guild={"id": str(channel.guild_id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=member.payload(with_permissions=True),
                context=0,
                authorizing_integration_owners={"0": str(channel.guild_id)},
            )
        else:
            payload.update(
                user=user.user.payload(),
                context=1,
                authorizing_integration_owners={"0": str(self.application_id)},
            )
        payload["channel"] = channel_payload
        if message is not None:
            payload["message"] = message.payload()
        record = st.InteractionRecord(
            id=interaction_id,
            token=token,
            type=interaction_type,
            user=user.user,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            payload=payload,
            dispatched_at=time.monotonic(),
            source_message_id=None if message is None else message.id,
            source_edits_before=0 if message is None else len(message.edits),
        )
        self.world.interactions[interaction_id] = record
        self.world.interactions_by_token[token] = record
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        loop = asyncio.get_running_loop()
        self._ack_timers[interaction_id] = loop.call_later(self.ack_deadline, self._check_ack, record)
        self.notify()
        return record

    def _check_ack(self, record: st.InteractionRecord) -> None:
        self._ack_timers.pop(record.id, None)
        if record.response_type is None:
            self._mark_late(record)

    def _record_ack(self, record: st.InteractionRecord, callback_type: int, latency: float) -> None:
        record.response_type = callback_type
        record.acked_at = record.dispatched_at + latency
        self.ack_latencies[record.id] = latency
        self._touch(record.id)
        timer = self._ack_timers.pop(record.id, None)
        if timer is not None:
            timer.cancel()

    def _respond_to_interaction(
        self,
        record: st.InteractionRecord,
        callback_type: int,
        data: JSON,
        attachments: Sequence[JSON],
    ) -> st.Message | None:
        """Applies an interaction callback; returns the message it created or updated."""
        channel = self.world.channels[record.channel_id]
        is_component = record.source_message_id is not None
        if callback_type == 4:
            _check_message_body(data, list(attachments), creating=True)
            message = self._new_message(channel, self.bot_user, data, attachments=attachments, interaction=record)
            record.original_message_id = message.id
            return message
        if callback_type == 5:
            ephemeral = int(data.get("flags") or 0) & st.FLAG_EPHEMERAL
            message = self._new_message(
                channel,
                self.bot_user,
                {"flags": ephemeral},
                interaction=record,
                extra_flags=st.FLAG_LOADING,
            )
            record.original_message_id = message.id
            return message
        if callback_type in (6, 7):
            if not is_component:
                raise ApiError(400, 50035, "Interaction callback type is only valid for component interactions")
            assert record.source_message_id is not None
            source = self.world.messages[record.source_message_id]
            record.original_message_id = source.id
            if callback_type == 7:
                _check_message_body(data, list(attachments), creating=False, message=source)
                self._edit_message(source, data, attachments)
            return source
        if callback_type == 12:  # LAUNCH_ACTIVITY: Discord opens the Activity for the user, no message
            record.launched_activity = True
            return None
        if callback_type == 8:
            record.autocomplete_choices = list(data.get("choices") or [])
            return None
        if callback_type == 9:
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise ApiError(400, 50035, "Invalid modal: custom_id, title and components are required")
            record.modal = data
            return None
        raise ApiError(400, 50035, f"Unsupported interaction callback type {callback_type}")

    def _followup(self, record: st.InteractionRecord, body: JSON, attachments: Sequence[JSON]) -> st.Message:
        original = self.world.messages.get(record.original_message_id or 0)
        if record.response_type == 5 and original is not None and original.loading:
            # After a deferral, the first followup fills in the "thinking..." message.
            self._edit_message(original, body, attachments)
            record.followup_ids.append(original.id)
            return original
        channel = self.world.channels[record.channel_id]
        message = self._new_message(channel, self.bot_user, body, attachments=attachments, interaction=record)
        record.followup_ids.append(message.id)
        self.notify()
        return message


def _bot_token(user_id: int) -> str:
    """A token shaped like Discord's (base64 user id, timestamp, HMAC), which bot/config.py checks."""
    head = base64.urlsafe_b64encode(str(user_id).encode()).decode().rstrip("=")
    return f"{head}.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(27)}"


def _message_intent(channel: st.Channel) -> int:
    return st.INTENT_DIRECT_MESSAGES if channel.is_dm else st.INTENT_GUILD_MESSAGES


def _first(items: Sequence[T], predicate: Callable[[T], object] | None) -> T | None:
    for item in items:
        if predicate is None or predicate(item):
            return item
    return None


def _describe(predicate: Callable[..., Any]) -> str:
    name = getattr(predicate, "__qualname__", repr(predicate))
    return "a condition" if "<lambda>" in name else name

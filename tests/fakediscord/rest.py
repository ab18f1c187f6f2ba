"""The fake REST API (``/api/v10``): routing, auth, body parsing, rate limits and handlers.

A single catch-all aiohttp route feeds a small regex router. That way every request, known or
not, goes through the same path: it is recorded in ``fake.requests`` (for benchmarks), checked
for the bot token, and unknown routes end up in ``fake.unhandled`` with a Discord-style 404 so
a test can assert the bot never used an endpoint the fake does not model.

Handlers return ``(status, body)``; ``body`` None means an empty 204-style response.
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import state as st
from .validation import FormErrors, is_empty_message, validate_message

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]


#: the body of an injected 503 (what Discord's edge answers in an incident)
SERVICE_UNAVAILABLE: JSON = {"message": "503: Service Unavailable", "code": 0}


#: the bot's requests :meth:`FakeDiscord.inject_faults` may fail: channel writes (messages, threads), and the
#: interactions' callbacks and webhooks (follow-ups, edits and deletes of a response)
FAULT_PATHS = re.compile(r"^/(channels/|interactions/\d+/[^/]+/callback$|webhooks/)")
CHANNEL_PATHS = re.compile(r"^/channels/")


@dataclass
class Faults:
    """Seeded faults (:meth:`FakeDiscord.inject_faults`): a share of the bot's writes (``path``: channel writes, and
    interaction callbacks and webhooks unless told otherwise) answered 503 before anything happens, and
    (``after``) a share answered 503 although the request was carried out.
    ``kill``: callbacks run on a matching request, before (``"before"``) or after (``"after"``) it is handled —
    tests use them to SIGKILL the bot process at an exact moment."""

    share: float = 0.0
    after: float = 0.0
    seed: int = 0
    methods: tuple[str, ...] = ("POST", "PATCH", "DELETE")
    path: re.Pattern[str] = FAULT_PATHS
    injected: int = 0
    #: every injected fault: (method, path, "before" | "after")
    hits: list[tuple[str, str, str]] = field(default_factory=list)
    rng: Any = None
    kills: list[tuple[Callable[[ApiRequest], bool], Callable[[], None], str]] = field(default_factory=list)

    def pick(self, request: ApiRequest) -> str | None:
        """None, or "before"/"after": the request fails (503) before or after it is carried out."""
        for predicate, kill, when in list(self.kills):
            if predicate(request):
                self.kills.remove((predicate, kill, when))
                if when == "before":
                    kill()
                    return "before"
                request.on_done.append(kill)
        if request.on_done:
            return "after"
        if not (self.share or self.after) or request.method not in self.methods or not self.path.match(request.path):
            return None
        if self.rng is None:
            self.rng = random.Random(self.seed)
        roll = self.rng.random()
        when = "before" if roll < self.share else "after" if roll < self.share + self.after else None
        if when is not None:
            self.injected += 1
            self.hits.append((request.method, request.path, when))
        return when

    def hit(self, path_part: str) -> bool:
        """Whether a fault was injected on a request whose path contains ``path_part`` (e.g. an interaction id)."""
        return any(path_part in path for _m, path, _w in self.hits)


class ApiError(Exception):
    """Raised by handlers to produce a Discord error response."""

    def __init__(self, status: int, code: int, message: str, *, errors: JSON | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.body: JSON = {"code": code, "message": message}
        if errors is not None:
            self.body["errors"] = errors

    @classmethod
    def form(cls, errors: FormErrors) -> ApiError:
        body = errors.body()
        return cls(400, body["code"], body["message"], errors=body["errors"])


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json``.

    discord.py only decodes bodies whose header equals that string; aiohttp's ``json_response``
    appends ``; charset=utf-8``, which would make discord.py see every payload as plain text.
    """
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return web.Response(
        body=body,
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


@dataclass
class ApiRequest:
    """A parsed request as handlers see it."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    attachments: list[JSON] = field(default_factory=list)
    #: (remaining, reset_after) of the rate-limit bucket this request consumed, if any.
    bucket: tuple[int, float] | None = None
    #: extra response headers (the X-RateLimit-* of Discord's limits)
    headers: dict[str, str] = field(default_factory=dict)
    #: run once the request was carried out (a test's kill switch, see :class:`Faults`)
    on_done: list[Callable[[], None]] = field(default_factory=list)
    #: the Authorization header as sent
    authorization: str = ""

    def json(self) -> JSON:
        return self.body if isinstance(self.body, dict) else {}


Result = tuple[int, Any]
Handler = Callable[[ApiRequest], Awaitable[Result]]


@dataclass
class RateLimitState:
    """A fixed window per channel: ``limit`` requests per ``per`` seconds."""

    limit: int
    per: float
    advertise: bool
    windows: dict[int, tuple[float, int]] = field(default_factory=dict)

    def take(self, channel_id: int, now: float) -> tuple[bool, int, float]:
        """Consumes a token; returns (allowed, remaining, seconds until the window resets)."""
        start, used = self.windows.get(channel_id, (now, 0))
        if now - start >= self.per:
            start, used = now, 0
        reset_after = max(self.per - (now - start), 0.001)
        if used >= self.limit:
            self.windows[channel_id] = (start, used)
            return False, 0, reset_after
        used += 1
        self.windows[channel_id] = (start, used)
        return True, self.limit - used, reset_after


@dataclass(frozen=True)
class RouteLimit:
    """One of Discord's per-route limits: ``limit`` requests per ``per`` seconds for each value of the route's
    major parameter (the ``major`` group of ``pattern``; none: one bucket for the whole bot)."""

    bucket: str
    method: str
    pattern: re.Pattern[str]
    limit: int
    per: float


#: Discord's limits for the routes the bot uses in play, as Discord applies (and advertises) them: messages
#: 5 per 5 s per channel for sending and again for editing, deletions 5 per second; interaction webhooks 5 per
#: 2 s per token. Opening a DM channel has a bot-wide limit Discord does not document; 5 per second here.
DISCORD_ROUTE_LIMITS = (
    RouteLimit("create-message", "POST", re.compile(r"^/channels/(?P<major>\d+)/messages$"), 5, 5.0),
    RouteLimit("edit-message", "PATCH", re.compile(r"^/channels/(?P<major>\d+)/messages/\d+$"), 5, 5.0),
    RouteLimit("delete-message", "DELETE", re.compile(r"^/channels/(?P<major>\d+)/messages/\d+$"), 5, 1.0),
    RouteLimit("create-dm", "POST", re.compile(r"^/users/@me/channels$"), 5, 1.0),
    RouteLimit("webhook-edit", "PATCH", re.compile(r"^/webhooks/\d+/(?P<major>[^/]+)/messages/[^/]+$"), 5, 2.0),
    RouteLimit("webhook-send", "POST", re.compile(r"^/webhooks/\d+/(?P<major>[^/]+)$"), 5, 2.0),
)


def outside_global_limit(path: str) -> bool:
    """Interaction callbacks and the interaction webhooks (followups, edits of a response) are not counted by the
    global limit."""
    return path.startswith("/interactions/") or path.startswith("/webhooks/")


class DiscordLimits:
    """Discord's rate limits: the global one (``per_second`` requests per second for the bot, interactions
    excepted) and :data:`DISCORD_ROUTE_LIMITS`, each a fixed window that starts with its first request."""

    def __init__(self, per_second: int = 50, routes: tuple[RouteLimit, ...] = DISCORD_ROUTE_LIMITS) -> None:
        self.global_limit = RateLimitState(per_second, 1.0, True)
        self.routes = routes
        self.buckets = {r.bucket: RateLimitState(r.limit, r.per, True) for r in routes}
        #: 429s sent, by scope and bucket ("global", or the route bucket)
        self.refused: dict[str, int] = {}

    def route_of(self, method: str, path: str) -> tuple[RouteLimit, int] | None:
        for r in self.routes:
            m = r.pattern.match(path)
            if m is not None and r.method == method:
                major = m.groupdict().get("major")
                return r, (hash(major) if major is not None else 0)
        return None


class RestApi:
    """Routes and handlers. All state lives on the owning :class:`FakeDiscord`."""

    def __init__(self, fake: FakeDiscord, prefix: str = "/api/v10") -> None:
        self.fake = fake
        self.prefix = prefix
        self.routes: list[tuple[str, re.Pattern[str], Handler, bool]] = []
        self._register()

    # -- routing -------------------------------------------------------------

    def add(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern)
        self.routes.append((method, re.compile(f"^{regex}$"), handler, auth))

    def _register(self) -> None:
        add = self.add
        add("GET", "/users/@me", self.get_me, auth=False)  # the bot's token or a user's OAuth2 Bearer token
        add("POST", "/oauth2/token", self.oauth_token, auth=False)
        add("GET", "/applications/{app_id}/activity-instances/{instance_id}", self.get_activity_instance)
        add("GET", "/users/{user_id}", self.get_user)
        add("POST", "/users/@me/channels", self.create_dm)
        add("GET", "/gateway", self.get_gateway, auth=False)
        add("GET", "/gateway/bot", self.get_gateway_bot)
        add("GET", "/oauth2/applications/@me", self.get_application)
        add("GET", "/applications/@me", self.get_application)
        for scope in ("", "/guilds/{guild_id}"):
            base = "/applications/{app_id}" + scope + "/commands"
            add("GET", base, self.list_commands)
            add("PUT", base, self.overwrite_commands)
            add("POST", base, self.upsert_command)
            add("GET", base + "/{command_id}", self.get_command)
            add("PATCH", base + "/{command_id}", self.edit_command)
            add("DELETE", base + "/{command_id}", self.delete_command)
        add("GET", "/channels/{channel_id}", self.get_channel)
        add("PATCH", "/channels/{channel_id}", self.edit_channel)
        add("DELETE", "/channels/{channel_id}", self.delete_channel)
        add("GET", "/channels/{channel_id}/messages", self.list_messages)
        add("POST", "/channels/{channel_id}/messages", self.create_message)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        add("POST", "/channels/{channel_id}/typing", self.typing)
        add("POST", "/channels/{channel_id}/threads", self.create_thread)
        add("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread)
        add("GET", "/channels/{channel_id}/thread-members", self.list_thread_members)
        add("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member)
        add("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.remove_thread_member)
        add("GET", "/guilds/{guild_id}", self.get_guild)
        add("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        add("GET", "/guilds/{guild_id}/roles", self.get_guild_roles)
        add("GET", "/guilds/{guild_id}/members", self.list_members)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        add("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback, auth=False)
        hook = "/webhooks/{app_id}/{token}"
        add("POST", hook, self.followup, auth=False)
        add("GET", hook + "/messages/{message_id}", self.get_webhook_message, auth=False)
        add("PATCH", hook + "/messages/{message_id}", self.edit_webhook_message, auth=False)
        add("DELETE", hook + "/messages/{message_id}", self.delete_webhook_message, auth=False)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path[len(self.prefix) :] or "/"
        try:
            body, attachments = await self._read_body(request)
        except ApiError as exc:
            self.fake._record_request(request.method, path, None)
            return self._json(exc.status, exc.body)
        self.fake._record_request(request.method, path, body if isinstance(body, (dict, list)) else None)
        for method, regex, handler, auth in self.routes:
            match = regex.match(path)
            if match is None or method != request.method:
                continue
            if auth and request.headers.get("Authorization") != f"Bot {self.fake.token}":
                return self._json(401, {"message": "401: Unauthorized", "code": 0})
            api_request = ApiRequest(
                method=request.method,
                path=path,
                params=match.groupdict(),
                query=dict(request.query),
                body=body,
                attachments=attachments,
                authorization=request.headers.get("Authorization", ""),
            )
            fault = self.fake.faults.pick(api_request)
            if fault == "before":  # Discord failed before doing anything
                self.fake.notify()
                return self._json(503, SERVICE_UNAVAILABLE)
            try:
                limited = self._check_discord_limits(api_request) or self._check_rate_limit(api_request)
                if limited is not None:
                    return limited
                status, data = await handler(api_request)
                for done in api_request.on_done:
                    done()
                if fault == "after":  # done, but the answer was lost on the way back
                    return self._json(503, SERVICE_UNAVAILABLE)
            except ApiError as exc:
                self.fake._record_rejection(request.method, path, exc.status, exc.body)
                return self._json(exc.status, exc.body)
            except Exception as exc:
                # A bug in the fake (or a body it cannot make sense of). Answer 400, not 500:
                # discord.py retries 5xx with growing sleeps, which would only hide the problem.
                self.fake._record_error(request.method, path, exc)
                return self._json(400, {"message": f"fake Discord could not handle this: {exc!r}", "code": 0})
            finally:
                self.fake.notify()
            response = self._json(status, data)
            self._advertise_rate_limit(api_request, response)
            response.headers.update(api_request.headers)
            return response
        self.fake._record_unhandled(request.method, path)
        return self._json(404, {"message": "404: Not Found", "code": 0})

    async def handle_elsewhere(self, request: web.Request) -> web.StreamResponse:
        """Requests outside the API prefix: never expected, so recorded and refused."""
        self.fake._record_request(request.method, request.path, None)
        self.fake._record_unhandled(request.method, request.path)
        return self._json(404, {"message": "404: Not Found", "code": 0})

    @staticmethod
    def _json(status: int, data: Any) -> web.Response:
        if data is None:
            return web.Response(status=204 if status == 200 else status)
        return json_response(data, status)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[JSON]]:
        """JSON bodies, or multipart with a ``payload_json`` part plus ``files[n]`` parts."""
        if not request.can_read_body:
            return None, []
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            attachments: list[JSON] = []
            reader = await request.multipart()
            async for part in reader:
                if not hasattr(part, "name"):
                    continue
                name = getattr(part, "name", None)
                if name == "payload_json":
                    try:
                        payload = json.loads(await part.text())  # type: ignore[union-attr]
                    except ValueError:
                        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
                else:
                    data = bytes(await part.read())  # type: ignore[union-attr]
                    filename = getattr(part, "filename", None) or name or "file"
                    attachment_id = self.fake.world.ids.next()
                    attachment: JSON = {
                        "id": str(attachment_id),
                        "filename": filename,
                        "size": len(data),
                        "url": f"{self.fake.api_base}/attachments/{attachment_id}/{filename}",
                        "proxy_url": f"{self.fake.api_base}/attachments/{attachment_id}/{filename}",
                        "content_type": part.headers.get("Content-Type", "application/octet-stream"),
                    }
                    png = _png_size(data)
                    if png is not None:  # Discord detects images and reports their size and type
                        attachment.update(content_type="image/png", width=png[0], height=png[1])
                    self.fake.world.files[str(attachment_id)] = data
                    attachments.append(attachment)
            return payload, attachments
        raw = await request.read()
        if not raw:
            return None, []
        if request.content_type == "application/x-www-form-urlencoded":  # (the OAuth2 token exchange)
            return dict((await request.post()).items()), []
        try:
            return json.loads(raw), []
        except ValueError:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from None

    # -- rate limits -----------------------------------------------------------

    @staticmethod
    def _rate_limited_channel(request: ApiRequest) -> int | None:
        """POST/PATCH on channel messages share one bucket per channel."""
        if request.method not in ("POST", "PATCH"):
            return None
        if not re.match(r"^/channels/\d+/messages(/\d+)?$", request.path):
            return None
        return int(request.params["channel_id"])

    def _check_discord_limits(self, request: ApiRequest) -> web.Response | None:
        """Discord's global and per-route limits (``fake.discord_limits()``): the headers of the route's bucket on
        every response, a 429 with ``retry_after`` and ``global`` when a limit is exceeded."""
        limits = self.fake.limits
        if limits is None:
            return None
        now = time.monotonic()
        if not outside_global_limit(request.path):
            allowed, _, reset_after = limits.global_limit.take(0, now)
            if not allowed:
                return self._refuse(limits, "global", None, reset_after)
        found = limits.route_of(request.method, request.path)
        if found is None:
            return None
        route, major = found
        allowed, remaining, reset_after = limits.buckets[route.bucket].take(major, now)
        headers = {
            "X-RateLimit-Limit": str(route.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"fake-{route.bucket}",
        }
        if not allowed:
            return self._refuse(limits, route.bucket, headers, reset_after)
        request.headers.update(headers)
        return None

    def _refuse(
        self, limits: DiscordLimits, bucket: str, headers: dict[str, str] | None, reset_after: float
    ) -> web.Response:
        self.fake.rate_limited += 1
        limits.refused[bucket] = limits.refused.get(bucket, 0) + 1
        is_global = headers is None
        retry_after = round(reset_after, 3)
        out = dict(headers or {})
        out.update(
            {
                "Retry-After": str(math.ceil(retry_after)),
                "X-RateLimit-Scope": "global" if is_global else "user",
                "Via": "1.1 google",  # see _check_rate_limit
            }
        )
        if is_global:
            out["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global, "code": 0}
        return json_response(body, 429, out)

    def _check_rate_limit(self, request: ApiRequest) -> web.Response | None:
        limits = self.fake._rate_limit
        channel_id = self._rate_limited_channel(request)
        if limits is None or channel_id is None:
            return None
        now = time.monotonic()
        allowed, remaining, reset_after = limits.take(channel_id, now)
        request.bucket = (remaining, reset_after)
        if allowed:
            return None
        self.fake.rate_limited += 1
        retry_after = round(reset_after, 3)
        headers = self._rate_limit_headers(channel_id, limits.limit, 0, reset_after)
        headers.update(
            {
                "Retry-After": str(math.ceil(retry_after)),
                "X-RateLimit-Scope": "user",
                # discord.py treats a 429 without "Via" as a Cloudflare ban and raises instead of retrying.
                "Via": "1.1 google",
            }
        )
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False, "code": 0}
        return json_response(body, 429, headers)

    @staticmethod
    def _rate_limit_headers(channel_id: int, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"fake-messages-{channel_id}",
        }

    def _advertise_rate_limit(self, request: ApiRequest, response: web.Response) -> None:
        limits = self.fake._rate_limit
        if limits is None or request.bucket is None or not limits.advertise:
            return
        remaining, reset_after = request.bucket
        channel_id = int(request.params["channel_id"])
        response.headers.update(self._rate_limit_headers(channel_id, limits.limit, remaining, reset_after))

    # -- lookups -----------------------------------------------------------------

    def _channel(self, request: ApiRequest) -> st.Channel:
        channel = self.fake.world.channels.get(int(request.params["channel_id"]))
        if channel is None or channel.deleted:
            raise unknown("Channel", 10003)
        return channel

    def _message(self, request: ApiRequest, channel: st.Channel) -> st.Message:
        message = self.fake.world.messages.get(int(request.params["message_id"]))
        if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
            raise unknown("Message", 10008)
        return message

    def _guild(self, request: ApiRequest) -> st.Guild:
        guild = self.fake.world.guilds.get(int(request.params["guild_id"]))
        if guild is None:
            raise unknown("Guild", 10004)
        return guild

    def _app(self, request: ApiRequest) -> None:
        if int(request.params["app_id"]) != self.fake.application_id:
            raise unknown("Application", 10002)

    # -- identity / discovery ----------------------------------------------------

    async def get_me(self, request: ApiRequest) -> Result:
        auth = request.authorization
        if auth.startswith("Bearer "):
            user_id = self.fake.activities.tokens.get(auth[len("Bearer ") :])
            if user_id is None:
                raise ApiError(401, 0, "401: Unauthorized")
            user = self.fake.world.users[user_id]
            return 200, {**user.payload(), "locale": user.locale}
        if auth != f"Bot {self.fake.token}":
            raise ApiError(401, 0, "401: Unauthorized")
        data = self.fake.bot_user.payload()
        data.update(verified=True, mfa_enabled=False, flags=0, email=None, locale="en-US")
        return 200, data

    async def oauth_token(self, request: ApiRequest) -> Result:
        form = request.body if isinstance(request.body, dict) else {}
        grant = self.fake.activities.exchange(form, self.fake.application_id)
        if grant is None:
            raise ApiError(400, 0, "invalid_grant")
        return 200, grant

    async def get_activity_instance(self, request: ApiRequest) -> Result:
        self._app(request)
        instance = self.fake.activities.instances.get(request.params["instance_id"])
        if instance is None:
            raise unknown("Activity Instance", 10070)  # (code illustrative: Discord answers 404)
        return 200, instance.payload(self.fake.application_id)

    async def get_user(self, request: ApiRequest) -> Result:
        user = self.fake.world.users.get(int(request.params["user_id"]))
        if user is None:
            raise unknown("User", 10013)
        return 200, user.payload()

    async def get_gateway(self, request: ApiRequest) -> Result:
        return 200, {"url": self.fake.advertised_gateway_url or self.fake.gateway_url}

    async def get_gateway_bot(self, request: ApiRequest) -> Result:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        url = self.fake.advertised_gateway_url or self.fake.gateway_url
        return 200, {"url": url, "shards": self.fake.gateway.shard_count, "session_start_limit": limit}

    async def get_application(self, request: ApiRequest) -> Result:
        return 200, self.fake._application_payload()

    # -- application commands ----------------------------------------------------

    def _command_scope(self, request: ApiRequest) -> int | None:
        self._app(request)
        if "guild_id" in request.params:
            return self._guild(request).id
        return None

    async def list_commands(self, request: ApiRequest) -> Result:
        scope = self._command_scope(request)
        return 200, [c.payload() for c in self.fake.world.commands_for(scope)]

    async def overwrite_commands(self, request: ApiRequest) -> Result:
        scope = self._command_scope(request)
        body = request.body if isinstance(request.body, list) else []
        errors = FormErrors()
        for i, data in enumerate(body):
            _validate_command(data, (i,), errors)
        if errors:
            raise ApiError.form(errors)
        world = self.fake.world
        existing = {(c.name, c.type): c for c in world.commands_for(scope)}
        if any(t == 4 for _, t in existing) and not any(int(d.get("type", 1)) == 4 for d in body):
            # Discord keeps an app's Entry Point (Activities): a bulk overwrite must carry it along
            raise ApiError(400, 50240, "You cannot remove this app's Primary Entry Point command in a bulk update.")
        kept: list[int] = []
        for data in body:
            key = (data["name"], int(data.get("type", 1)))
            command = existing.get(key)
            if command is None:
                command = st.Command(world.ids.next(), self.fake.application_id, scope, data, world.ids.next())
                world.commands[command.id] = command
            else:
                # Discord keeps the id of a command overwritten under the same name.
                command.data, command.version = data, world.ids.next()
            kept.append(command.id)
        for command in existing.values():
            if command.id not in kept:
                del world.commands[command.id]
        return 200, [world.commands[cid].payload() for cid in kept]

    async def upsert_command(self, request: ApiRequest) -> Result:
        scope = self._command_scope(request)
        data = request.json()
        errors = FormErrors()
        _validate_command(data, (), errors)
        if errors:
            raise ApiError.form(errors)
        world = self.fake.world
        for command in world.commands_for(scope):
            if (command.name, command.type) == (data["name"], int(data.get("type", 1))):
                command.data, command.version = data, world.ids.next()
                return 200, command.payload()
        command = st.Command(world.ids.next(), self.fake.application_id, scope, data, world.ids.next())
        world.commands[command.id] = command
        return 201, command.payload()

    def _command(self, request: ApiRequest) -> st.Command:
        scope = self._command_scope(request)
        command = self.fake.world.commands.get(int(request.params["command_id"]))
        if command is None or command.guild_id != scope:
            raise unknown("application command", 10063)
        return command

    async def get_command(self, request: ApiRequest) -> Result:
        return 200, self._command(request).payload()

    async def edit_command(self, request: ApiRequest) -> Result:
        command = self._command(request)
        command.data = {**command.data, **request.json()}
        command.version = self.fake.world.ids.next()
        return 200, command.payload()

    async def delete_command(self, request: ApiRequest) -> Result:
        command = self._command(request)
        del self.fake.world.commands[command.id]
        return 204, None

    # -- channels and messages ---------------------------------------------------

    async def get_channel(self, request: ApiRequest) -> Result:
        return 200, self._channel(request).payload(self.fake.world)

    async def edit_channel(self, request: ApiRequest) -> Result:
        channel = self._channel(request)
        body = request.json()
        if "name" in body:
            channel.name = str(body["name"])
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        payload = channel.payload(self.fake.world)
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        self.fake.gateway.dispatch(event, payload, intent=st.INTENT_GUILDS)
        return 200, payload

    async def delete_channel(self, request: ApiRequest) -> Result:
        channel = self._channel(request)
        payload = channel.payload(self.fake.world)
        if channel.is_dm:
            return 200, payload  # "closing" a DM only hides it client-side
        channel.deleted = True
        if channel.is_thread:
            event_data = {k: payload[k] for k in ("id", "guild_id", "parent_id", "type")}
            self.fake.gateway.dispatch("THREAD_DELETE", event_data, intent=st.INTENT_GUILDS)
        else:
            self.fake.gateway.dispatch("CHANNEL_DELETE", payload, intent=st.INTENT_GUILDS)
        return 200, payload

    async def list_messages(self, request: ApiRequest) -> Result:
        channel = self._channel(request)
        limit = min(int(request.query.get("limit", 50)), 100)
        messages = list(self.fake.world.messages_in(channel.id))
        if "before" in request.query:
            messages = [m for m in messages if m.id < int(request.query["before"])]
        if "after" in request.query:
            messages = [m for m in messages if m.id > int(request.query["after"])]
            newest_first = list(reversed(messages[:limit]))
            return 200, [m.payload() for m in newest_first]
        return 200, [m.payload() for m in reversed(messages[-limit:])]

    async def get_message(self, request: ApiRequest) -> Result:
        channel = self._channel(request)
        return 200, self._message(request, channel).payload()

    async def create_message(self, request: ApiRequest) -> Result:
        channel = self._channel(request)
        body = request.json()
        if channel.is_dm and channel.recipient is not None and channel.recipient.dms_closed:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        _check_message_body(body, request.attachments, creating=True)
        nonce = body.get("nonce")
        if body.get("enforce_nonce") and nonce is not None:
            # Discord: a message of the same author with the same nonce in the last few minutes is returned
            # instead of creating another one
            for earlier in self.fake.world.messages_in(channel.id, include_deleted=True):
                if earlier.nonce == nonce and earlier.author.id == self.fake.bot_user.id:
                    self.fake.nonce_hits += 1
                    return 200, earlier.payload()
        message = self.fake._new_message(
            channel,
            self.fake.bot_user,
            body,
            attachments=request.attachments,
        )
        return 200, message.payload()

    async def edit_message(self, request: ApiRequest) -> Result:
        channel = self._channel(request)
        message = self._message(request, channel)
        if message.author.id != self.fake.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body = request.json()
        _check_message_body(body, request.attachments, creating=False, message=message)
        self.fake._edit_message(message, body, request.attachments)
        return 200, message.payload()

    async def delete_message(self, request: ApiRequest) -> Result:
        channel = self._channel(request)
        message = self._message(request, channel)
        self.fake._delete_message(message)
        return 204, None

    async def typing(self, request: ApiRequest) -> Result:
        self._channel(request)
        return 204, None

    # -- threads -------------------------------------------------------------------

    async def create_thread(self, request: ApiRequest) -> Result:
        parent = self._channel(request)
        if parent.is_dm or parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body = request.json()
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            errors = FormErrors()
            errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            raise ApiError.form(errors)
        thread_id = None
        thread_type = int(body.get("type", st.CH_PRIVATE_THREAD))
        if "message_id" in request.params:
            # A thread started from a message reuses the message's id, as on Discord.
            thread_id = self._message(request, parent).id
            if thread_id in self.fake.world.channels:
                raise ApiError(400, 160004, "A thread has already been created for this message")
            thread_type = st.CH_PUBLIC_THREAD
        thread = self.fake._new_thread(parent, name, thread_type, thread_id)
        return 201, thread.payload(self.fake.world)

    async def list_thread_members(self, request: ApiRequest) -> Result:
        thread = self._channel(request)
        members = [
            {"id": str(thread.id), "user_id": str(uid), "join_timestamp": thread.created_at, "flags": 0}
            for uid in sorted(thread.thread_member_ids)
        ]
        return 200, members

    def _thread_member(self, request: ApiRequest) -> tuple[st.Channel, int]:
        thread = self._channel(request)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        raw = request.params["user_id"]
        user_id = self.fake.bot_user.id if raw == "@me" else int(raw)
        if user_id not in self.fake.world.users:
            raise unknown("User", 10013)
        return thread, user_id

    async def add_thread_member(self, request: ApiRequest) -> Result:
        thread, user_id = self._thread_member(request)
        thread.thread_member_ids.add(user_id)
        return 204, None

    async def remove_thread_member(self, request: ApiRequest) -> Result:
        thread, user_id = self._thread_member(request)
        thread.thread_member_ids.discard(user_id)
        return 204, None

    # -- DMs, guilds and members ------------------------------------------------------

    async def create_dm(self, request: ApiRequest) -> Result:
        user = self.fake.world.users.get(int(request.json().get("recipient_id", 0)))
        if user is None:
            raise unknown("User", 10013)
        # Opening the channel always works; only sending into it fails when DMs are closed.
        return 200, self.fake.world.dm_channel_for(user).payload(self.fake.world)

    async def get_guild(self, request: ApiRequest) -> Result:
        guild = self._guild(request)
        data = guild.payload()
        if request.query.get("with_counts") in ("true", "1", "True"):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return 200, data

    async def get_guild_channels(self, request: ApiRequest) -> Result:
        guild = self._guild(request)
        world = self.fake.world
        return 200, [c.payload(world) for c in world.guild_channels(guild) if not c.is_thread]

    async def get_guild_roles(self, request: ApiRequest) -> Result:
        return 200, [self._guild(request).everyone_role()]

    async def list_members(self, request: ApiRequest) -> Result:
        guild = self._guild(request)
        limit = min(int(request.query.get("limit", 1)), 1000)
        after = int(request.query.get("after", 0))
        members = sorted((m for uid, m in guild.members.items() if uid > after), key=lambda m: m.user.id)
        return 200, [m.payload() for m in members[:limit]]

    async def get_member(self, request: ApiRequest) -> Result:
        guild = self._guild(request)
        member = guild.members.get(int(request.params["user_id"]))
        if member is None:
            raise unknown("Member", 10007)
        return 200, member.payload()

    # -- interactions -----------------------------------------------------------------

    async def interaction_callback(self, request: ApiRequest) -> Result:
        fake = self.fake
        record = fake.world.interactions.get(int(request.params["interaction_id"]))
        if record is None or record.token != request.params["token"]:
            raise unknown("interaction", 10062)
        if record.response_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        latency = time.monotonic() - record.dispatched_at
        if latency > fake.ack_deadline:
            fake._mark_late(record)
            if fake.enforce_ack_deadline:
                # Discord invalidates the token for the initial response after 3 seconds.
                raise unknown("interaction", 10062)
        body = request.json()
        callback_type = int(body.get("type", 0))
        data = body.get("data") or {}
        message = fake._respond_to_interaction(record, callback_type, data, request.attachments)
        fake._record_ack(record, callback_type, latency)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        interaction: JSON = {"id": str(record.id), "type": record.type}
        resource: JSON = {"type": callback_type}
        if message is not None:
            interaction.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            if callback_type in (4, 5, 7):
                resource["message"] = message.payload()
        return 200, {"interaction": interaction, "resource": resource}

    def _webhook_interaction(self, request: ApiRequest) -> st.InteractionRecord:
        self._app(request)
        record = self.fake.world.interactions_by_token.get(request.params["token"])
        # The webhook only exists once the interaction has been acknowledged.
        if record is None or record.response_type is None:
            raise unknown("Webhook", 10015)
        return record

    def _webhook_message(self, request: ApiRequest, record: st.InteractionRecord) -> st.Message:
        raw = request.params["message_id"]
        message_id = record.original_message_id if raw == "@original" else int(raw)
        allowed = {record.original_message_id, *record.followup_ids}
        message = self.fake.world.messages.get(message_id or 0)
        if message is None or message.deleted or message_id not in allowed:
            raise unknown("Message", 10008)
        return message

    async def followup(self, request: ApiRequest) -> Result:
        record = self._webhook_interaction(request)
        body = request.json()
        _check_message_body(body, request.attachments, creating=True)
        message = self.fake._followup(record, body, request.attachments)
        if request.query.get("wait") not in ("true", "1", "True"):
            return 204, None
        return 200, message.payload()

    async def get_webhook_message(self, request: ApiRequest) -> Result:
        record = self._webhook_interaction(request)
        return 200, self._webhook_message(request, record).payload()

    async def edit_webhook_message(self, request: ApiRequest) -> Result:
        record = self._webhook_interaction(request)
        message = self._webhook_message(request, record)
        body = request.json()
        _check_message_body(body, request.attachments, creating=False, message=message)
        self.fake._edit_message(message, body, request.attachments)
        return 200, message.payload()

    async def delete_webhook_message(self, request: ApiRequest) -> Result:
        record = self._webhook_interaction(request)
        self.fake._delete_message(self._webhook_message(request, record))
        return 204, None


def _check_message_body(
    body: JSON, attachments: list[JSON], *, creating: bool, message: st.Message | None = None
) -> None:
    """``attachments``: the files uploaded with the request; ``message``: the message an edit changes."""
    if creating and not attachments and is_empty_message(body):
        raise ApiError(400, 50006, "Cannot send an empty message")
    names = {str(a["filename"]) for a in attachments}
    current: JSON | None = None
    if message is not None:
        current = {
            "content": message.content,
            "embeds": message.embeds,
            "components": message.components,
            "flags": message.flags,
        }
        if "attachments" in body or attachments:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            names |= {str(a["filename"]) for a in message.attachments if a["id"] in keep}
        else:
            names |= {str(a["filename"]) for a in message.attachments}  # an edit without them keeps them all
    errors = validate_message(body, current, names)
    if errors:
        raise ApiError.form(errors)


def _png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of PNG bytes, read from the IHDR chunk; ``None`` for anything else."""
    if len(data) < 24 or not data.startswith(b"\x89PNG\r\n\x1a\n") or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _validate_command(data: Any, path: tuple[str | int, ...], errors: FormErrors) -> None:
    """Just enough of Discord's command checks to catch typos before they reach production."""
    if not isinstance(data, dict):
        errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    name = str(data.get("name", ""))
    if int(data.get("type", 1)) == 4 and data.get("handler") not in (1, 2):  # an Activity's Entry Point
        errors.add((*path, "handler"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    if int(data.get("type", 1)) == 1:
        if not _COMMAND_NAME.match(name) or name != name.lower():
            errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
        description = str(data.get("description", ""))
        if not 1 <= len(description) <= 100:
            errors.add((*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    options = data.get("options") or []
    if len(options) > 25:
        errors.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, option in enumerate(options):
        if option.get("type") in (1, 2):
            _validate_command({**option, "type": 1}, (*path, "options", i), errors)
        else:
            option_name = str(option.get("name", ""))
            if not _COMMAND_NAME.match(option_name) or option_name != option_name.lower():
                errors.add((*path, "options", i, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Invalid name")
            if len(option.get("choices") or []) > 25:
                errors.add((*path, "options", i, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")

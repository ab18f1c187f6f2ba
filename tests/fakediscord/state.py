"""In-memory world of the fake Discord: users, guilds, channels, messages, commands, interactions.

Everything here is plain data plus the functions that turn it into the JSON payloads Discord
sends. The REST layer (``rest.py``) and the gateway (``gateway.py``) only read and mutate these
objects; the test-facing helpers (``users.py``, ``server.py``) read them back. Keeping the payload
builders in one place makes sure that a channel, member or message looks the same whether the bot
receives it over REST, over the gateway or embedded inside an interaction.
"""

from __future__ import annotations

import datetime as dt
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .validation import iter_components

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits we care about (values from the Discord documentation).
PERM_VIEW_CHANNEL = 1 << 10
PERM_SEND_MESSAGES = 1 << 11
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_HISTORY = 1 << 16
PERM_USE_APP_COMMANDS = 1 << 31
PERM_SEND_IN_THREADS = 1 << 38
PERM_CREATE_PUBLIC_THREADS = 1 << 35
PERM_MANAGE_GUILD = 1 << 5
PERM_ADMINISTRATOR = 1 << 3

#: What an ordinary member may do in our fake guilds.
DEFAULT_MEMBER_PERMISSIONS = (
    PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_EMBED_LINKS
    | PERM_ATTACH_FILES
    | PERM_READ_HISTORY
    | PERM_USE_APP_COMMANDS
    | PERM_SEND_IN_THREADS
    | PERM_CREATE_PUBLIC_THREADS
)

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

# Gateway intents that decide which events a session receives.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# Channel types.
CH_GUILD_TEXT = 0
CH_DM = 1
CH_PUBLIC_THREAD = 11
CH_PRIVATE_THREAD = 12


class SnowflakeFactory:
    """Produces increasing, time-based snowflakes like Discord's.

    discord.py derives timestamps from ids (``created_at``, the "message younger than 10 s" delete
    sub-limit), so the ids must encode the real current time, not just be small counters.
    """

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0xFFF)
        # Never go backwards, even if the wall clock does or 4096 ids are made in one ms.
        value = max(value, self._last + 1)
        self._last = value
        return value


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass
class User:
    """A Discord account: the bot itself or a simulated human."""

    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False
    #: the language of the user's Discord client: what their interactions carry as ``locale``
    locale: str = "en-US"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Member:
    """A user's membership of a guild, with a precomputed permission integer."""

    user: User
    permissions: int
    joined_at: str = field(default_factory=iso_now)
    roles: list[int] = field(default_factory=list)  # role ids besides @everyone

    def payload(self, *, with_permissions: bool = False) -> JSON:
        data: JSON = {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.roles],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
        }
        if with_permissions:
            # Only interactions carry the resolved permission integer.
            data["permissions"] = str(self.permissions)
        return data


@dataclass
class Channel:
    """A guild text channel, a thread (type 11/12) or a DM channel (type 1)."""

    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: User | None = None
    position: int = 0
    created_at: str = field(default_factory=iso_now)
    thread_member_ids: set[int] = field(default_factory=set)
    last_message_id: int | None = None
    archived: bool = False
    locked: bool = False
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in (CH_PUBLIC_THREAD, CH_PRIVATE_THREAD, 10)

    @property
    def is_dm(self) -> bool:
        return self.type == CH_DM

    def payload(self, world: World) -> JSON:
        last = None if self.last_message_id is None else str(self.last_message_id)
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": CH_DM,
                "last_message_id": last,
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": last,
            "flags": 0,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
        }
        if self.is_thread:
            messages = sum(1 for m in world.messages_in(self.id))
            data.update(
                owner_id=str(self.owner_id),
                message_count=messages,
                total_message_sent=messages,
                member_count=len(self.thread_member_ids),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "create_timestamp": self.created_at,
                },
            )
            del data["permission_overwrites"], data["position"], data["nsfw"]
        else:
            data["topic"] = None
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    created_at: str = field(default_factory=iso_now)
    roles: dict[int, str] = field(default_factory=dict)  # extra roles: id -> name
    #: the server's language (Server Settings > Community): ``preferred_locale``, and interactions' ``guild_locale``
    preferred_locale: str = "en-US"

    def role_payload(self, role_id: int, name: str) -> JSON:
        """A plain role (no permissions of its own), e.g. an organiser role a bot setting refers to."""
        return {**self.everyone_role(), "id": str(role_id), "name": name, "permissions": "0", "position": 1}

    def everyone_role(self) -> JSON:
        # The @everyone role shares the guild's id, as on Discord.
        return {
            "id": str(self.id),
            "name": "@everyone",
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": 0,
            "permissions": str(DEFAULT_MEMBER_PERMISSIONS),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def payload(self) -> JSON:
        """The REST form of a guild (``GET /guilds/{id}``), without channels or members."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [self.everyone_role(), *(self.role_payload(i, n) for i, n in self.roles.items())],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }


@dataclass
class Revision:
    """One past version of a message (what it looked like before an edit)."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    flags: int
    at: float


@dataclass
class Message:
    """A stored message. Ephemeral messages live outside any channel history."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[JSON] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    edits: list[Revision] = field(default_factory=list)
    deleted: bool = False
    #: The user who can see this message when it is ephemeral.
    ephemeral_for: int | None = None
    #: The interaction this message answers, if any (for webhook/application fields).
    interaction_id: int | None = None
    #: Discord's ``interaction_metadata`` block for interaction responses and followups.
    interaction_metadata: JSON | None = None
    application_id: int | None = None
    nonce: str | int | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def is_v2(self) -> bool:
        """A Components V2 message: its text lives in text displays, its pictures in media galleries."""
        return bool(self.flags & FLAG_COMPONENTS_V2)

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": list(self.attachments),
            "embeds": list(self.embeds),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": list(self.components),
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.application_id is not None:
            # Interaction responses are sent through the application's webhook.
            data["application_id"] = str(self.application_id)
            data["webhook_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.nonce is not None:
            data["nonce"] = self.nonce
        return data

    # -- reading helpers for tests -------------------------------------------

    def buttons(self) -> list[JSON]:
        """Every button (including V2 section accessories), flattened, in display order."""
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[JSON]:
        """Every select menu (string, user, role, mentionable or channel select)."""
        return [c for c in iter_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def text(self) -> str:
        """All human-visible text: content, embeds, component labels/options/text displays.

        Meant for privacy assertions ("Bob's hand never appears in a channel message").
        """
        parts: list[str] = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts.append((embed.get("author") or {}).get("name") or "")
            parts.append((embed.get("footer") or {}).get("text") or "")
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
        for component in iter_components(self.components):
            parts += [component.get("label") or "", component.get("placeholder") or ""]
            parts.append(component.get("content") or "")  # V2 text display
            for option in component.get("options") or []:
                parts += [option.get("label") or "", option.get("description") or ""]
        return "\n".join(p for p in parts if p)

    def media_urls(self) -> list[str]:
        """The urls of every media gallery item, thumbnail and file component (V2), in display order."""
        urls: list[str] = []
        for c in iter_components(self.components):
            for item in c.get("items") or []:
                urls.append(str((item.get("media") or {}).get("url") or ""))
            for key in ("media", "file"):
                if isinstance(c.get(key), dict):
                    urls.append(str(c[key].get("url") or ""))
        return urls

    def attachment(self, filename: str) -> JSON | None:
        return next((a for a in self.attachments if a.get("filename") == filename), None)

    def snapshot(self) -> Revision:
        return Revision(
            content=self.content,
            embeds=[dict(e) for e in self.embeds],
            components=list(self.components),
            flags=self.flags,
            at=time.monotonic(),
        )


@dataclass
class Command:
    """A registered application command (as stored after a bulk overwrite)."""

    id: int
    application_id: int
    guild_id: int | None
    data: JSON
    version: int

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type", 1))

    def payload(self) -> JSON:
        data = dict(self.data)
        data.setdefault("type", 1)
        data.setdefault("description", "")
        data.setdefault("options", [])
        data.setdefault("default_member_permissions", None)
        data.setdefault("nsfw", False)
        data.update(
            id=str(self.id),
            application_id=str(self.application_id),
            version=str(self.version),
        )
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass
class InteractionRecord:
    """Server-side bookkeeping of one interaction: what was sent and how the bot answered."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    guild_id: int | None
    payload: JSON
    #: Monotonic time the INTERACTION_CREATE was dispatched.
    dispatched_at: float
    #: Component interactions: the message whose component was used.
    source_message_id: int | None = None
    #: How many edits the source message had when the interaction was sent.
    source_edits_before: int = 0
    #: Type of the first callback (4, 5, 6, 7, 9...), None until acknowledged.
    response_type: int | None = None
    acked_at: float | None = None
    #: The message that ``@original`` refers to (created by 4/5 or the source message for 6/7).
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: JSON | None = None
    autocomplete_choices: list[JSON] | None = None
    late: bool = False
    #: answered with LAUNCH_ACTIVITY (callback type 12)
    launched_activity: bool = False

    @property
    def latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.dispatched_at

    def metadata(self) -> JSON:
        """The ``interaction_metadata`` Discord attaches to messages answering this interaction."""
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": self.payload.get("authorizing_integration_owners", {}),
        }
        if self.type == 2:
            data["name"] = self.payload["data"]["name"]
            data["command_type"] = 1
        if self.source_message_id is not None:
            data["interacted_message_id"] = str(self.source_message_id)
        return data

    def describe(self) -> str:
        data = self.payload.get("data", {})
        what = data.get("name") or data.get("custom_id") or "?"
        return f"interaction {self.id} (type {self.type}, {what!r}) by {self.user.name}"


class World:
    """All mutable state of one fake Discord instance."""

    def __init__(self) -> None:
        self.ids = SnowflakeFactory()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self._channel_messages: dict[int, list[int]] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self._ephemerals: dict[int, list[int]] = {}  # user id -> ephemeral message ids
        self.commands: dict[int, Command] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.files: dict[str, bytes] = {}  # attachment id -> the uploaded bytes

    # -- users and guilds -------------------------------------------------

    def new_user(self, name: str, *, bot: bool = False, dms_closed: bool = False) -> User:
        user = User(id=self.ids.next(), name=name, bot=bot, dms_closed=dms_closed)
        self.users[user.id] = user
        return user

    def new_guild(self, name: str, owner: User, *, id_: int | None = None) -> Guild:
        guild = Guild(id=self.ids.next() if id_ is None else id_, name=name, owner_id=owner.id)
        self.guilds[guild.id] = guild
        return guild

    def new_channel(
        self,
        type_: int,
        name: str,
        *,
        guild_id: int | None = None,
        parent_id: int | None = None,
        owner_id: int | None = None,
        recipient: User | None = None,
        id_: int | None = None,
    ) -> Channel:
        channel = Channel(
            id=self.ids.next() if id_ is None else id_,
            type=type_,
            name=name,
            guild_id=guild_id,
            parent_id=parent_id,
            owner_id=owner_id,
            recipient=recipient,
        )
        self.channels[channel.id] = channel
        self._channel_messages[channel.id] = []
        if guild_id is not None:
            guild = self.guilds[guild_id]
            channel.position = len(guild.channel_ids)
            guild.channel_ids.append(channel.id)
        return channel

    def dm_channel_for(self, user: User) -> Channel:
        """The DM channel between the bot and ``user``, created on first use (like Discord)."""
        existing = self.dm_channels.get(user.id)
        if existing is not None:
            return self.channels[existing]
        channel = self.new_channel(CH_DM, "", recipient=user)
        self.dm_channels[user.id] = channel.id
        return channel

    def guild_channels(self, guild: Guild) -> Iterator[Channel]:
        return (self.channels[cid] for cid in guild.channel_ids if not self.channels[cid].deleted)

    # -- messages ----------------------------------------------------------

    def add_message(self, message: Message) -> Message:
        self.messages[message.id] = message
        if message.ephemeral_for is not None:
            self._ephemerals.setdefault(message.ephemeral_for, []).append(message.id)
        else:
            self._channel_messages.setdefault(message.channel_id, []).append(message.id)
            channel = self.channels.get(message.channel_id)
            if channel is not None:
                channel.last_message_id = message.id
        return message

    def messages_in(self, channel_id: int, *, include_deleted: bool = False) -> Iterator[Message]:
        for mid in self._channel_messages.get(channel_id, []):
            message = self.messages[mid]
            if include_deleted or not message.deleted:
                yield message

    def ephemerals_for(self, user_id: int) -> list[Message]:
        ids = self._ephemerals.get(user_id, [])
        return [m for m in (self.messages[i] for i in ids) if not m.deleted]

    # -- commands ----------------------------------------------------------

    def commands_for(self, guild_id: int | None) -> list[Command]:
        return [c for c in self.commands.values() if c.guild_id == guild_id]

"""Settings, read once from the environment (and a ``.env`` file via python-dotenv).

Every setting is documented in ``.env.example`` and the README's configuration table.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot.tables.model import MAX_TIMEOUT, MIN_TIMEOUT

# A bot token is three base64url parts separated by dots; checking the shape catches pasted client
# secrets or application ids before we ever talk to Discord.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")


class ConfigError(Exception):
    """A setting is missing or invalid; the message is one line for the operator."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    #: a SQLite path, or a ``postgresql://`` URL (kept as text: a Path would fold its ``//``)
    database: Path | str
    dev_guild: int | None
    api_base: str | None
    gateway_url: str | None
    log_level: str
    turn_timeout: int
    ai_workers: int
    #: card pictures in messages unless a server or player turns them off
    images: bool = True
    #: Discord shards of the whole bot (None: Discord's recommendation, all in this process)
    shard_count: int | None = None
    #: the shards this process runs (None: all of them)
    shard_ids: tuple[int, ...] | None = None
    #: where prepared card sprites are kept between runs (None: drawn at every start, in memory only)
    sprite_cache: Path | None = None
    #: the Activity's HTTP port (None: no Activity, nothing listens)
    activity_port: int | None = None
    #: the application's OAuth2 client secret (the Activity's code exchange; required with ``activity_port``)
    client_secret: str | None = None
    #: the Origin the Activity's pages come from (None: ``https://{application_id}.discordsays.com``)
    activity_origin: str | None = None
    #: where the Activity sees a client's own address (None: nowhere, behind Discord's proxy; ``"peer"``; or the
    #: name of a header the operator's own reverse proxy sets): the login budget per address applies only then
    activity_client_address: str | None = None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, *, dotenv: bool = True) -> Settings:
        if env is None:
            if dotenv:
                load_dotenv(override=False)
            env = dict(os.environ)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError("DISCORD_TOKEN is not set: put your bot token in .env or the environment.")
        if not _TOKEN_SHAPE.match(token):
            raise ConfigError("DISCORD_TOKEN does not look like a bot token (copy it from Bot -> Reset Token).")
        dev_guild = env.get("TAVOLO_DEV_GUILD", "").strip()
        if dev_guild and not dev_guild.isdigit():
            raise ConfigError("TAVOLO_DEV_GUILD must be a server (guild) id: digits only.")
        level = env.get("TAVOLO_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError("TAVOLO_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL.")
        database = env.get("TAVOLO_DATABASE", "").strip() or "data/tavolo.db"
        shard_count, shard_ids = _shards(env)
        activity_port, client_secret, activity_origin = _activity(env)
        return cls(
            token=token,
            database=database if database.startswith(("postgresql://", "postgres://")) else Path(database),
            dev_guild=int(dev_guild) if dev_guild else None,
            api_base=env.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
            log_level=level,
            turn_timeout=_int(env, "TAVOLO_TURN_TIMEOUT", 90, MIN_TIMEOUT, MAX_TIMEOUT),
            ai_workers=_int(env, "TAVOLO_AI_WORKERS", 1, 1, 16),
            images=_flag(env, "TAVOLO_IMAGES", True),
            shard_count=shard_count,
            shard_ids=shard_ids,
            sprite_cache=_sprite_cache(env),
            activity_port=activity_port,
            client_secret=client_secret,
            activity_origin=activity_origin,
            activity_client_address=_client_address(env),
        )


def _activity(env: dict[str, str]) -> tuple[int | None, str | None, str | None]:
    """``TAVOLO_ACTIVITY_PORT`` (unset: no Activity), ``DISCORD_CLIENT_SECRET``, ``TAVOLO_ACTIVITY_ORIGIN``."""
    port = _int(env, "TAVOLO_ACTIVITY_PORT", 0, 1, 65535) or None
    secret = env.get("DISCORD_CLIENT_SECRET", "").strip() or None
    origin = env.get("TAVOLO_ACTIVITY_ORIGIN", "").strip().rstrip("/") or None
    if port is not None and secret is None:
        raise ConfigError("TAVOLO_ACTIVITY_PORT needs DISCORD_CLIENT_SECRET (OAuth2 -> Client Secret).")
    if origin is not None and not re.match(r"^https?://[^/\s]+$", origin):
        raise ConfigError("TAVOLO_ACTIVITY_ORIGIN must be an origin such as https://123.discordsays.com.")
    return port, secret, origin


def _client_address(env: dict[str, str]) -> str | None:
    """``TAVOLO_ACTIVITY_CLIENT_ADDRESS``: empty (or ``off``), ``peer``, or a header name such as X-Forwarded-For."""
    raw = env.get("TAVOLO_ACTIVITY_CLIENT_ADDRESS", "").strip()
    if raw.lower() in ("", "off", "none", "no"):
        return None
    if raw.lower() == "peer":
        return "peer"
    if not re.match(r"^[A-Za-z][A-Za-z0-9-]{0,63}$", raw):
        raise ConfigError("TAVOLO_ACTIVITY_CLIENT_ADDRESS must be off, peer or a header name such as X-Real-IP.")
    return raw


def _sprite_cache(env: dict[str, str]) -> Path | None:
    """``TAVOLO_SPRITE_CACHE``: a folder (default ``data/cache/sprites``), or ``off``."""
    raw = env.get("TAVOLO_SPRITE_CACHE", "").strip()
    if raw.lower() in ("off", "none", "0", "false", "no"):
        return None
    return Path(raw or "data/cache/sprites")


def _flag(env: dict[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name} must be on or off.")


def _shards(env: dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``TAVOLO_SHARD_COUNT`` and ``TAVOLO_SHARD_IDS`` (``0,1`` or ``0-3``): several processes, each with its shards."""
    count = _int(env, "TAVOLO_SHARD_COUNT", 0, 1, 4096) or None
    raw = env.get("TAVOLO_SHARD_IDS", "").strip()
    if not raw:
        return count, None
    if count is None:
        raise ConfigError("TAVOLO_SHARD_IDS needs TAVOLO_SHARD_COUNT (the shards of all processes together).")
    ids: set[int] = set()
    try:
        for part in raw.split(","):
            lo, _, hi = part.strip().partition("-")
            ids.update(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise ConfigError("TAVOLO_SHARD_IDS must list shard numbers, e.g. 0,1 or 0-3.") from None
    if not ids or min(ids) < 0 or max(ids) >= count:
        raise ConfigError(f"TAVOLO_SHARD_IDS must be shard numbers from 0 to {count - 1}.")
    return count, tuple(sorted(ids))


def _int(env: dict[str, str], name: str, default: int, lo: int, hi: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number.") from None
    if not lo <= value <= hi:
        raise ConfigError(f"{name} must be between {lo} and {hi}.")
    return value

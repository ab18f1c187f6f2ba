"""An interaction that can no longer be answered is an event, not a crash: logged at INFO with what it was.

Discord gives a bot 3 s to acknowledge an interaction; after that (or after a second answer) the response fails
with ``NotFound`` 10062 "Unknown interaction", ``InteractionResponded``, or 40060 "already acknowledged". The
player has already seen "This interaction failed"; a traceback at ERROR adds nothing an operator can act on, so
it is logged as one INFO line naming the interaction (command or custom id, user, age).

discord.py logs the failures of component callbacks, listeners and the command tree itself, without the
interaction. :func:`install` wraps the gateway's INTERACTION_CREATE parser so every task started for an
interaction (all of them are created inside that parser, and inherit its context) knows which one it serves,
and :class:`ExpiredFilter` rewrites such records on the loggers that report these failures.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, MutableMapping
from datetime import UTC, datetime
from typing import Any

import discord

#: the raw INTERACTION_CREATE payload the current task was started for
CURRENT: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("interaction", default=None)

#: Discord's codes for an interaction that can no longer be answered
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060

#: where discord.py (and the bot's own command-tree handler) log a failed interaction handler
LOGGERS = ("discord.ui.view", "discord.client", "discord.app_commands.tree", "bot.transport.client")


def expired_cause(error: BaseException | None) -> BaseException | None:
    """The exception in ``error`` (or in what it wraps) saying the interaction can no longer be answered."""
    for _ in range(5):
        if error is None:
            return None
        if isinstance(error, discord.InteractionResponded):
            return error
        if isinstance(error, discord.HTTPException) and error.code in (UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED):
            return error
        error = getattr(error, "original", None) or error.__cause__
    return None


def is_expired(error: BaseException | None) -> bool:
    return expired_cause(error) is not None


def reason(error: BaseException) -> str:
    """Why the interaction could not be answered: "expired" or "already answered"."""
    cause = expired_cause(error)
    if isinstance(cause, discord.InteractionResponded) or getattr(cause, "code", None) == ALREADY_ACKNOWLEDGED:
        return "already answered"
    return "expired"


def describe(data: dict[str, Any] | discord.Interaction[Any] | None, now: datetime | None = None) -> str:
    """``slash /tournament join by user 42, 4.2 s old`` (from a raw payload or an Interaction)."""
    if data is None:
        return "an interaction"
    if isinstance(data, discord.Interaction):
        raw: dict[str, Any] = {
            "id": data.id,
            "type": data.type.value,
            "data": data.data or {},
            "user": {"id": data.user.id if data.user else "?"},
        }
    else:
        raw = data
    inner = raw.get("data") or {}
    kind = raw.get("type")
    if kind in (2, 4):
        what = "slash /" + " ".join([str(inner.get("name", "?")), *_subcommands(inner.get("options") or [])])
    elif kind in (3, 5):
        what = f"{'click' if kind == 3 else 'form'} {inner.get('custom_id', '?')!r}"
    else:
        what = f"interaction type {kind}"
    user = (raw.get("member") or {}).get("user") or raw.get("user") or {}
    try:
        created = discord.utils.snowflake_time(int(raw["id"]))
        age = f", {((now or datetime.now(UTC)) - created).total_seconds():.1f} s old"
    except (KeyError, TypeError, ValueError):
        age = ""
    return f"{what} by user {user.get('id', '?')}{age}"


def _subcommands(options: list[dict[str, Any]]) -> list[str]:
    for o in options:
        if o.get("type") in (1, 2):  # a subcommand (group): its name, then its own subcommand
            return [str(o.get("name")), *_subcommands(o.get("options") or [])]
    return []


class ExpiredFilter(logging.Filter):
    """Turns an ERROR record whose exception is an expired interaction into one INFO line without traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None or not is_expired(exc):
            return True
        record.msg = "interaction %s before it was answered: %s (%s)"
        record.args = (reason(exc), describe(CURRENT.get()), type(expired_cause(exc)).__name__)
        record.levelno, record.levelname = logging.INFO, "INFO"
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


_FILTER = ExpiredFilter()


def install(parsers: MutableMapping[str, Callable[[Any], Any]]) -> None:
    """Wraps the INTERACTION_CREATE parser (``client._connection.parsers``) and filters :data:`LOGGERS`."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
    original = parsers.get("INTERACTION_CREATE")
    if original is None or getattr(original, "_tavolo_wrapped", False):
        return

    def parse(data: Any) -> Any:
        token = CURRENT.set(data)
        try:
            return original(data)
        finally:
            CURRENT.reset(token)

    parse._tavolo_wrapped = True  # type: ignore[attr-defined]
    parsers["INTERACTION_CREATE"] = parse

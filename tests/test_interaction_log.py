"""bot/transport/interaction_log.py: which errors mean "too late to answer", and how an interaction is described."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from bot.transport import interaction_log


class _Response:
    status, reason = 404, "Not Found"


def _http(code: int, status: int = 404) -> discord.HTTPException:
    response: Any = _Response()
    response.status = status
    cls = discord.NotFound if status == 404 else discord.HTTPException
    return cls(response, {"code": code, "message": "x"})


def test_expired_errors_are_recognised_also_when_wrapped() -> None:
    unknown = _http(10062)
    assert interaction_log.is_expired(unknown) and interaction_log.reason(unknown) == "expired"
    acked = _http(40060, 400)
    assert interaction_log.is_expired(acked) and interaction_log.reason(acked) == "already answered"
    wrapped = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
    wrapped.original = unknown
    assert interaction_log.is_expired(wrapped)
    try:
        raise RuntimeError("render failed") from unknown
    except RuntimeError as e:
        assert interaction_log.is_expired(e)
    assert not interaction_log.is_expired(_http(10008))  # unknown message: a real failure, logged as such
    assert not interaction_log.is_expired(ValueError("x"))


def test_describe_names_the_command_or_custom_id_the_user_and_the_age() -> None:
    now = datetime(2026, 12, 2, 12, 0, 0, tzinfo=UTC)
    snowflake = discord.utils.time_snowflake(now - timedelta(seconds=4.2))
    slash = {
        "id": str(snowflake),
        "type": 2,
        "data": {"name": "tournament", "options": [{"type": 1, "name": "join", "options": []}]},
        "member": {"user": {"id": "42"}},
    }
    assert interaction_log.describe(slash, now) == "slash /tournament join by user 42, 4.2 s old"
    click = {"id": str(snowflake), "type": 3, "data": {"custom_id": "tb:7:act:3:x"}, "user": {"id": "9"}}
    assert interaction_log.describe(click, now) == "click 'tb:7:act:3:x' by user 9, 4.2 s old"
    assert interaction_log.describe(None) == "an interaction"


def test_the_filter_turns_a_traceback_into_one_info_line() -> None:
    logger = logging.getLogger("test.interaction_log")
    record = logger.makeRecord(
        logger.name, logging.ERROR, __file__, 1, "Ignoring exception in %r", ("item",), (None, _http(10062), None)
    )
    token = interaction_log.CURRENT.set({"id": "1", "type": 3, "data": {"custom_id": "tt:1:join"}, "user": {"id": 5}})
    try:
        assert interaction_log.ExpiredFilter().filter(record)
    finally:
        interaction_log.CURRENT.reset(token)
    assert record.levelno == logging.INFO and record.exc_info is None
    assert "'tt:1:join' by user 5" in record.getMessage() and "expired" in record.getMessage()
    other = logger.makeRecord(logger.name, logging.ERROR, __file__, 1, "boom", (), (None, ValueError("x"), None))
    assert interaction_log.ExpiredFilter().filter(other) and other.levelno == logging.ERROR and other.exc_info

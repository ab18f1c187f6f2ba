"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest_asyncio

if TYPE_CHECKING:
    from fakediscord import FakeDiscord


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started local fake Discord (REST + gateway on 127.0.0.1), stopped after the test."""
    # Imported here so that a problem in the fake cannot break collection of unrelated tests.
    from fakediscord import FakeDiscord

    fake = await FakeDiscord().start()
    try:
        yield fake
    finally:
        await fake.stop()

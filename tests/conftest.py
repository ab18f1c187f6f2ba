"""Shared pytest fixtures: the fake Discord, and the throw-away PostgreSQL server of the session."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_asyncio

if TYPE_CHECKING:
    from fakediscord import FakeDiscord
    from pgserver import PgServer

#: The database backends the DB, ledger, table-store and tournament tests run against.
BACKENDS = ("sqlite", "postgres")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers per core. The end-to-end tests spend much of their time waiting (for a bot process
    to start, for the fake Discord, for a timer), so a second worker per core keeps both cores busy: on the 2-core
    machine 4 workers ran the suite in 414 s where 2 took 543 s."""
    return 2 * (os.cpu_count() or 1)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


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


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One real PostgreSQL server for the whole session (initdb in a temp dir, Unix socket only), stopped at
    the end. Without PostgreSQL the tests that need it skip locally and FAIL in CI (CI=true)."""
    from pgserver import PgServer, PgUnavailable

    try:
        server = PgServer().start()
    except PgUnavailable as exc:
        if _in_ci():
            pytest.fail(f"PostgreSQL is required in CI but could not be started: {exc}")
        pytest.skip(f"PostgreSQL not available here: {exc}")
    try:
        yield server
    finally:
        server.stop(remove_later=True)  # the session's databases are deleted after it, not waited for


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A fresh, empty PostgreSQL database for one test."""
    return pg_server.create_database()


@pytest.fixture(params=BACKENDS)
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``Database.open`` gets, once per backend: a SQLite file, or a fresh PostgreSQL database's URL."""
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "tavolo.db")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test once per backend without touching it: on "postgres", every ``Database.open`` of a SQLite
    target opens a PostgreSQL database instead — a fresh one for ``:memory:`` (as a memory database is), the
    same one again for a path opened before (so reopen-and-resume tests keep their data)."""
    if request.param == "sqlite":
        return "sqlite"
    server: PgServer = request.getfixturevalue("pg_server")
    from bot.storage.db import Database, is_postgres_url

    original = Database.open.__func__  # type: ignore[attr-defined]
    urls: dict[str, str] = {}

    async def open_on_postgres(cls: type[Database], path: Any, **kw: Any) -> Database:
        if not is_postgres_url(path):
            key = os.fspath(path)
            if key in ("", ":memory:"):
                path = server.create_database()
            else:
                path = urls.setdefault(key, server.create_database())
        return await original(cls, path, **kw)

    monkeypatch.setattr(Database, "open", classmethod(open_on_postgres))
    return "postgres"

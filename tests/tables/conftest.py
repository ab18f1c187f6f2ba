"""Every test here runs on both database backends (SQLite and PostgreSQL): see ``backend`` in tests/conftest.py."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _both_backends(backend: str) -> str:
    return backend

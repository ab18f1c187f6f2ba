"""bot.i18n is a pure layer like the renderers that use it: no Discord, no event loop (its command-line tool, which
reads the command tree, and cogs/_translator.py are the two exceptions)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_i18n_imports_no_discord() -> None:
    for f in sorted((ROOT / "bot" / "i18n").glob("*.py")):
        if f.name == "__main__.py":
            continue
        tree = ast.parse(f.read_text(), filename=str(f))
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not names & {"discord", "asyncio", "aiosqlite", "cogs"}, f"{f.name} imports {names}"


def test_catalogues_are_package_data() -> None:
    """`pip install .` (the Docker image) ships the .po files: pyproject lists them as package data."""
    text = (ROOT / "pyproject.toml").read_text()
    assert "locales/*/LC_MESSAGES/*.po" in text and "Babel" in text

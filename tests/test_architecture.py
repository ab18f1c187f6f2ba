"""The layering of DESIGN.md, enforced: pure layers import no discord/aiosqlite/asyncio; services no discord."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = ("bot/engine", "bot/games", "bot/ai", "bot/render")
SERVICES = ("bot/tables", "bot/ledger", "bot/db.py")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def _files(rel: str) -> list[Path]:
    p = ROOT / rel
    return [p] if p.is_file() else sorted(p.rglob("*.py"))


@pytest.mark.parametrize("rel", PURE)
def test_pure_layers_import_no_io(rel: str) -> None:
    for f in _files(rel):
        bad = _imports(f) & {"discord", "aiosqlite", "asyncio", "aiohttp", "sqlite3"}
        assert not bad, f"{f.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("rel", SERVICES)
def test_services_import_no_discord(rel: str) -> None:
    for f in _files(rel):
        assert "discord" not in _imports(f), f"{f.relative_to(ROOT)} imports discord"

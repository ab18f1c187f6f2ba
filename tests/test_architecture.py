"""The layering of DESIGN.md, enforced: pure layers import no discord/aiosqlite/asyncio; services no discord."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = ("bot/engine", "bot/games", "bot/ai", "bot/render", "bot/images")
SERVICES = ("bot/tables", "bot/ledger", "bot/db.py", "bot/activity")


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


def _string_literals(path: Path) -> set[str]:
    """String constants of a module, docstrings and other bare expression statements left out."""
    tree = ast.parse(path.read_text(), filename=str(path))
    bare = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)} - {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) in bare
    }


def test_outer_code_never_names_a_game() -> None:
    """Game ids appear only in the games' own packages: everything else reads the registry's specs."""
    from bot.games import registry

    ids = set(registry.ids())
    own = {ROOT / "bot" / "games" / g for g in ids}
    for folder in ("bot", "cogs"):
        for f in sorted((ROOT / folder).rglob("*.py")):
            if any(d in f.parents for d in own):
                continue
            named = _string_literals(f) & ids
            assert not named, f"{f.relative_to(ROOT)} names {sorted(named)}"


def test_generic_computer_players_import_no_game() -> None:
    """bot/ai/ is game-agnostic (no import circle with the games' own players)."""
    for f in _files("bot/ai"):
        assert not any(m.startswith("bot.games") for m in _full_imports(f)), f"{f.relative_to(ROOT)} imports a game"


def _full_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out

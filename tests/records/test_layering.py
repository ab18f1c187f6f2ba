"""bot.records stays Discord-free and reaches the games only through its adapter, ``bot/records/_games.py``
(game modules and the registry are being moved: one file to re-point)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "bot" / "records"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def test_no_discord_or_io_frameworks() -> None:
    for f in sorted(RECORDS.glob("*.py")):
        tops = {m.split(".")[0] for m in _imports(f)}
        assert not tops & {"discord", "aiosqlite", "asyncio", "aiohttp"}, f.name


def test_only_the_adapter_touches_engines_renderers_and_agents() -> None:
    for f in sorted(RECORDS.glob("*.py")):
        if f.name == "_games.py":
            continue
        bot_imports = {m for m in _imports(f) if m == "bot" or m.startswith("bot.")}
        assert bot_imports <= {"bot.engine.protocol", "bot.engine.notation", "bot.i18n"}, (
            f"{f.name} imports {sorted(bot_imports)}"
        )

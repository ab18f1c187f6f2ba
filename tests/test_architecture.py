"""The layering of DESIGN.md, enforced: pure layers import no discord/aiosqlite/asyncio; services no discord."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = ("bot/engine", "bot/games", "bot/ai", "bot/render", "bot/images")
SERVICES = ("bot/tables", "bot/ledger", "bot/storage", "bot/activity")


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


# -- no import cycles ---------------------------------------------------------------------------------------------
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import the module can execute: at module level AND inside functions (a late import inside a
    function still ties the two modules in a circle; it only hides it), leaving out ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def import_graph(packages: tuple[str, ...] = ("bot", "cogs")) -> dict[str, set[str]]:
    """module -> the modules of ``packages`` it imports, read from the sources with ``ast``. ``from p import n``
    points at ``p.n`` when that is a module, else at ``p``; importing ``p.q`` is not counted as importing ``p``
    (Python runs ``p/__init__.py`` first, but a package's face only hands names on)."""
    files = {_module_name(f): f for pkg in packages for f in sorted((ROOT / pkg).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_pkg = path.name == "__init__.py"
        edges: set[str] = set()
        for node in _runtime_imports(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = name.split(".")[: len(name.split(".")) - node.level + (1 if is_pkg else 0)]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            edges.update(t for t in targets if t in files and t != name)
        graph[name] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_cycle_finder_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_graph_reads_late_and_relative_imports() -> None:
    graph = import_graph()
    assert "bot.i18n" in graph["cogs.help"]  # module level
    assert "cogs._translator" in graph["cogs.help"]  # relative: from ._translator import translate


def test_no_import_cycles() -> None:
    """No circle in the import graph of ``bot`` and ``cogs``, counting module-level and function-level imports
    alike (only ``if TYPE_CHECKING:`` imports are left out: they never run)."""
    assert _cycles(import_graph()) == []

"""The repository stands alone: it names no folder outside itself, and every rules citation in it resolves.

(a) No tracked file outside ``.ci/`` names the team's shared folder or a path of one particular machine: a user who
    clones the repository has everything it refers to.
(b) Every ``docs/rules/<name>.md`` the repository mentions exists; every ``§n.m`` that a game's engine, tests or
    rule book cites labels a rule in that game's rule book (``docs/rules/<game>.md``); every DECISION id cited in
    ``bot/`` and ``tests/`` is defined there; and every relative Markdown link under ``docs/`` points at a file.

The checks are functions of the rule books' text, so the last tests can show that removing a rule, an id or a whole
rule book makes them fail.
"""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = "docs/rules"
GAMES = ("mediatore", "mighty", "minchiate", "wizard")

# Spelt in pieces so that this file does not name them itself.
FORBIDDEN = ("../" + "shared/", "shared" + "/rules", "/" + "work/", "/" + "root/")
#: tracked files the ban does not apply to: CI's own scripts, and npm's lock file (registry URLs, hashes)
EXEMPT_PREFIXES = (".ci/",)
EXEMPT_FILES = frozenset({"web/package-lock.json"})

#: a rule's label in a rule book: a numbered heading (``## 5. Contracts``, ``### 5.2 Chiamo``) or a bold number at
#: the start of a rule (``**5.2.2**``)
_HEADING_LABEL = re.compile(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?(?=\s)", re.MULTILINE)
_BOLD_LABEL = re.compile(r"\*\*(\d+(?:\.\d+)+)\*\*")
_CITATION = re.compile(r"§\s?(\d+(?:\.\d+)*)")
_RULES_FILE = re.compile(r"docs/rules/([A-Za-z0-9_-]+\.md)")
_MD_LINK = re.compile(r"\]\(([^)\s#]+\.md)(?:#[^)]*)?\)")
#: "DECISION §4.4" and "§6.6.2 DECISION" (Mediatore and Mighty cite a decision by the rule that makes it)
_DECISION_AT = re.compile(r"DECISION\s+§\s?(\d+(?:\.\d+)*)|§\s?(\d+(?:\.\d+)*)[,:]?\s+DECISION\b")
#: decision ids and where they are defined
_ID_PATTERNS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"\bW-(\d+)\b"), "wizard", "DECISION W-{}"),
    (re.compile(r"\bM-(\d+)\b"), "minchiate", "DECISION M-{}"),
)
_MIGHTY_DECISION = re.compile(r"DECISION #(\d+)")
_MINCHIATE_EVENT = re.compile(r"\bE-[A-Z]+(?:-[A-Z]+)*\b")


# -- reading the repository ------------------------------------------------------------------------------------------


@functools.cache
def tracked_files() -> tuple[str, ...]:
    """Every file git tracks, as repository-relative paths."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError) as exc:  # (not a git checkout: an unpacked archive)
        pytest.skip(f"the tracked files need git and a git checkout: {exc}")
    return tuple(p for p in out.split("\0") if p)


@functools.cache
def text_of(path: str) -> str | None:
    """The file's text, or None for a binary file (or one that is not there, e.g. deleted but not yet staged)."""
    try:
        data = (ROOT / path).read_bytes()
    except OSError:
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def texts(prefixes: tuple[str, ...] = ("",)) -> Iterator[tuple[str, str]]:
    """(path, text) of every tracked text file under one of ``prefixes``, ``.ci/`` excluded."""
    for path in tracked_files():
        if path.startswith(EXEMPT_PREFIXES) or not path.startswith(prefixes):
            continue
        text = text_of(path)
        if text is not None:
            yield path, text


def game_of(path: str) -> str | None:
    """The one game a file belongs to by its path (``bot/games/wizard/…``, ``tests/games/test_mighty_rules.py``)."""
    named = [g for g in GAMES if g in path.lower()]
    return named[0] if len(named) == 1 else None


def rule_books() -> dict[str, str]:
    """The rule books as they are on disk: game -> text (a missing one is simply absent)."""
    out = {}
    for g in GAMES:
        p = ROOT / RULES / f"{g}.md"
        if p.is_file():
            out[g] = p.read_text(encoding="utf-8")
    return out


# -- the checks (pure functions of the rule books' text) -------------------------------------------------------------


def labels(doc: str) -> dict[str, str]:
    """Each label of a rule book -> the text of its rule: up to the next label that is not one of its sub-rules."""
    found = sorted(
        [(m.start(), m.group(1)) for m in _HEADING_LABEL.finditer(doc)]
        + [(m.start(), m.group(1)) for m in _BOLD_LABEL.finditer(doc)]
    )
    out: dict[str, str] = {}
    for i, (start, label) in enumerate(found):
        end = next((s for s, other in found[i + 1 :] if not other.startswith(label + ".")), len(doc))
        out.setdefault(label, doc[start:end])
    return out


def citations() -> list[tuple[str, int, str, str, bool]]:
    """Every rules citation the repository makes: (file, line, game, number, cited as a DECISION).

    A file of one game (by its path) cites its game's rule book; any other line cites the rule book it names
    (``docs/rules/mediatore.md §0``). The rule books' own cross-references count too.
    """
    out = []
    for path, text in texts():
        game = game_of(path)
        if path.startswith(RULES + "/") and path.removeprefix(RULES + "/").removesuffix(".md") not in GAMES:
            continue  # (the index names several games)
        for n, line in enumerate(text.splitlines(), 1):
            if "§" not in line:
                continue
            named = {m.group(1).removesuffix(".md") for m in _RULES_FILE.finditer(line)} & set(GAMES)
            target = game if game is not None else (named.pop() if len(named) == 1 else None)
            if target is None:
                continue
            decided = {a or b for a, b in _DECISION_AT.findall(line)}
            for m in _CITATION.finditer(line):
                out.append((path, n, target, m.group(1), m.group(1) in decided))
    return out


def decision_ids() -> list[tuple[str, int, str, str]]:
    """Every decision id cited in ``bot/`` and ``tests/``: (file, line, game, the text its rule book must hold)."""
    out = []
    for path, text in texts(("bot/", "tests/")):
        if path == "tests/test_repository_stands_alone.py":
            continue  # (this file's patterns and examples are not citations)
        game = game_of(path)
        for n, line in enumerate(text.splitlines(), 1):
            for pattern, owner, defined in _ID_PATTERNS:
                out.extend((path, n, owner, defined.format(m.group(1))) for m in pattern.finditer(line))
            if game == "mighty":
                out.extend((path, n, "mighty", f"DECISION #{m.group(1)}") for m in _MIGHTY_DECISION.finditer(line))
            if game == "minchiate":
                out.extend((path, n, "minchiate", m.group(0)) for m in _MINCHIATE_EVENT.finditer(line))
    return out


def citation_problems(books: Mapping[str, str], cited: list[tuple[str, int, str, str, bool]]) -> list[str]:
    """Citations that do not resolve in ``books`` (game -> rule book text)."""
    found = {g: labels(doc) for g, doc in books.items()}
    problems = []
    for path, n, game, number, decision in cited:
        where = f"{path}:{n}: §{number} of {RULES}/{game}.md"
        if game not in found:
            problems.append(f"{where}: the rule book is missing")
        elif number not in found[game]:
            problems.append(f"{where}: no rule has this number")
        elif decision and "DECISION" not in found[game][number]:
            problems.append(f"{where}: cited as a DECISION, but the rule makes none")
    return problems


def decision_problems(books: Mapping[str, str], cited: list[tuple[str, int, str, str]]) -> list[str]:
    """Decision ids that ``books`` do not define."""
    problems = []
    for path, n, game, defined in cited:
        doc = books.get(game)
        if doc is None or not re.search(re.escape(defined) + r"(?![\d-])", doc):
            problems.append(f"{path}:{n}: {defined!r} is not in {RULES}/{game}.md")
    return problems


# -- (a) nothing outside the repository ------------------------------------------------------------------------------


def test_no_file_names_a_path_outside_the_repository() -> None:
    offenders = [
        f"{path}:{n}: {bad}"
        for path, text in texts()
        if path not in EXEMPT_FILES
        for n, line in enumerate(text.splitlines(), 1)
        for bad in FORBIDDEN
        if bad in line
    ]
    assert not offenders, "tracked files name paths outside the repository:\n" + "\n".join(offenders)


def test_the_scan_sees_the_repository() -> None:
    """The scans above and below read the real files (a broken listing would make them pass vacuously)."""
    paths = set(tracked_files())
    assert {"README.md", "bot/games/mighty/engine.py", f"{RULES}/index.md"} <= paths
    assert len(citations()) > 500 and len(decision_ids()) > 40


# -- (b) every rules reference resolves ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_rule_book(game: str) -> None:
    book = ROOT / RULES / f"{game}.md"
    assert book.is_file(), f"{book.relative_to(ROOT)} is missing"
    index = (ROOT / RULES / "index.md").read_text(encoding="utf-8")
    assert f"]({game}.md)" in index, f"{RULES}/index.md does not link to {game}.md"


def test_every_named_rules_file_exists() -> None:
    missing = [
        f"{path}: {RULES}/{name}"
        for path, text in texts()
        for name in sorted({m.group(1) for m in _RULES_FILE.finditer(text)})
        if not (ROOT / RULES / name).is_file()
    ]
    assert not missing, "rules files named but missing:\n" + "\n".join(missing)


def test_every_section_citation_resolves() -> None:
    problems = citation_problems(rule_books(), citations())
    assert not problems, "\n".join(problems)


def test_every_decision_id_is_defined() -> None:
    problems = decision_problems(rule_books(), decision_ids())
    assert not problems, "\n".join(problems)


def test_relative_links_in_docs_resolve() -> None:
    broken = [
        f"{path}: {target}"
        for path, text in texts(("docs/",))
        if path.endswith(".md")
        for target in (m.group(1) for m in _MD_LINK.finditer(text))
        if "://" not in target and not (ROOT / path).parent.joinpath(target).resolve().is_file()
    ]
    assert not broken, "broken links:\n" + "\n".join(broken)


# -- the checks catch what they are for ------------------------------------------------------------------------------


def test_a_removed_rule_or_id_is_caught() -> None:
    books = rule_books()
    cited, ids = citations(), decision_ids()
    assert not citation_problems(books, cited) and not decision_problems(books, ids)
    # a rule's label taken away: its citations no longer resolve (and its sub-rules keep theirs)
    no_rule = dict(books, mediatore=books["mediatore"].replace("**5.2.2**", "5.2.2"))
    assert any("§5.2.2 of" in p and "no rule" in p for p in citation_problems(no_rule, cited))
    # a DECISION taken out of a rule that the code cites as one
    undecided = dict(books, mediatore=books["mediatore"].replace("**4.4** **DECISION:**", "**4.4**"))
    assert any("§4.4" in p and "DECISION" in p for p in citation_problems(undecided, cited))
    # a decision id taken away
    no_id = dict(books, wizard=re.sub(r"DECISION W-3(?!\d)", "W-3", books["wizard"]))
    assert any("'DECISION W-3'" in p for p in decision_problems(no_id, ids))
    no_m = dict(books, minchiate=re.sub(r"DECISION M-1(?!\d)", "M-1", books["minchiate"]))
    missing = decision_problems(no_m, ids)
    assert any("'DECISION M-1'" in p for p in missing)
    assert not any(re.search(r"'DECISION M-1\d'", p) for p in missing)  # (M-10 … M-16 are still there)
    # a whole rule book deleted
    without = {g: t for g, t in books.items() if g != "mighty"}
    assert any("mighty.md: the rule book is missing" in p for p in citation_problems(without, cited))
    assert any("'DECISION #7'" in p for p in decision_problems(without, ids))


def test_labels_are_read_as_written() -> None:
    doc = "## 5. Contracts\n\n### 5.2 Chiamo\n\n**5.2.1** One.\n\n**5.2.2** Two. **DECISION:** four.\n\n## 6. Play\n"
    found = labels(doc)
    assert set(found) == {"5", "5.2", "5.2.1", "5.2.2", "6"}
    assert "DECISION" in found["5.2"] and "DECISION" in found["5"]  # (a section holds its sub-rules)
    assert "DECISION" not in found["5.2.1"] and "DECISION" in found["5.2.2"]
    assert "Play" not in found["5.2.2"]

"""The README stays the project's manual: it gives CI's exact test command and documents every command group.

(A careless edit once dropped its Development and Tournaments sections without any test noticing.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_gives_the_command_ci_runs() -> None:
    lines = [ln for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines() if ln.startswith("python")]
    assert lines, ".ci/run has no command"
    for line in lines:
        assert line in README


def test_readme_documents_every_slash_command_group() -> None:
    groups: set[str] = set()
    for path in (ROOT / "cogs").rglob("*.py"):
        groups |= set(re.findall(r"app_commands\.Group\(\s*name=\"([a-z_]+)\"", path.read_text(encoding="utf-8")))
    assert groups, "no command groups found: the pattern is out of date"
    for name in sorted(groups):
        assert f"/{name}" in README, f"/{name} is not documented in the README"


def test_readme_sections() -> None:
    for heading in ("## Quick start", "## Playing", "## Computer players", "## Tournaments", "## Development"):
        assert heading in README

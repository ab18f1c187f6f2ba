"""The README stays the project's front door: it gives CI's exact test command, names every command group, and keeps
its sections; the command reference in docs/playing.md documents every group too.

(A careless edit once dropped the README's Development and Tournaments sections without any test noticing; since the
README became short, the details live in docs/ and tests/test_docs_site.py keeps that site's links whole.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMAND_REFERENCE = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")


def _command_groups() -> set[str]:
    groups: set[str] = set()
    for path in (ROOT / "cogs").rglob("*.py"):
        groups |= set(re.findall(r"app_commands\.Group\(\s*name=\"([a-z_]+)\"", path.read_text(encoding="utf-8")))
    assert groups, "no command groups found: the pattern is out of date"
    return groups


def test_readme_gives_the_command_ci_runs() -> None:
    lines = [ln for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines() if ln.startswith("python")]
    assert lines, ".ci/run has no command"
    for line in lines:
        assert line in README


def test_readme_names_every_slash_command_group() -> None:
    for name in sorted(_command_groups()):
        assert f"/{name}" in README, f"/{name} is not named in the README's command overview"


def test_command_reference_documents_every_slash_command_group() -> None:
    for name in sorted(_command_groups()):
        assert f"`/{name} " in COMMAND_REFERENCE, f"/{name} has no entry in docs/playing.md's command table"


def test_readme_sections() -> None:
    for heading in (
        "## Try a game",
        "## Run the tests",
        "## Setting up the bot",
        "## Configuration",
        "## The Activity",
        "## Commands",
        "## Documentation",
    ):
        assert heading in README

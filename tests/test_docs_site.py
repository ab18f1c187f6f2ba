"""The documentation site builds without a warning, and the README stays a short front door into it.

`mkdocs build --strict` fails on a link to a missing page or anchor, so a page moved or renamed without its links
breaks this test rather than the published site."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
MAX_README_LINES = 320

# [text](target) and ![alt](target); a target may carry a "title" after a space
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def _relative_links(markdown: str) -> list[str]:
    # fenced code shows commands, not links
    text = re.sub(r"^ *```.*?^ *```", "", markdown, flags=re.M | re.S)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def test_docs_site_builds_strictly(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.fail("mkdocs and mkdocs-material are not installed (they are part of the [test] extra)")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's end-of-life banner is not a build warning
    site = tmp_path / "site"
    build = [sys.executable, "-m", "mkdocs", "build", "--strict"]
    proc = subprocess.run(
        [*build, "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    warnings = [ln for ln in output.splitlines() if ln.startswith(("WARNING", "ERROR"))]
    assert not warnings, "\n".join(warnings)
    assert (site / "index.html").is_file()


def test_readme_is_short() -> None:
    lines = len(README.splitlines())
    assert lines <= MAX_README_LINES, (
        f"README.md has {lines} lines: move details into docs/ (at most {MAX_README_LINES})"
    )


def test_readme_links_resolve() -> None:
    links = _relative_links(README)
    assert links, "no relative link found: the pattern is out of date"
    missing = [t for t in links if not (ROOT / t.split("#", 1)[0]).is_file()]
    assert not missing, f"README.md links to files that do not exist: {missing}"


def test_link_pattern_reads_what_the_readme_writes() -> None:
    sample = 'See [Playing](docs/playing.md#commands), ![a](docs/a.png "A") and [web](https://x.org/y).\n```\n[no](nope.md)\n```'
    assert _relative_links(sample) == ["docs/playing.md#commands", "docs/a.png"]

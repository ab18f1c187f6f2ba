"""The committed client bundle (bot/activity/static) is exactly what web/src builds to with the locked esbuild:
running the bot never needs Node, and nobody can change the bundle without its source."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
STATIC = ROOT / "bot" / "activity" / "static"
FILES = ("index.html", "assets/app.js", "assets/app.css")


def test_dependencies_are_pinned() -> None:
    pkg = json.loads((WEB / "package.json").read_text())
    lock = json.loads((WEB / "package-lock.json").read_text())
    for name, version in {**pkg["dependencies"], **pkg["devDependencies"]}.items():
        assert version[0].isdigit(), f"{name} must be pinned to one version, not {version!r}"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (only needed to change the client)")
    if not (WEB / "node_modules" / "esbuild").is_dir():
        # with Node here the check runs: the locked packages come from `npm ci` (.ci/run does it; tests download
        # nothing themselves)
        pytest.fail("web/node_modules is missing: run `cd web && npm ci` (as .ci/run does)")
    return node


def test_committed_bundle_is_rebuilt_byte_for_byte(tmp_path: Path) -> None:
    subprocess.run([_node(), "build.mjs", str(tmp_path)], cwd=WEB, check=True, timeout=120)
    for name in FILES:
        built = (tmp_path / name).read_bytes()
        assert built == (STATIC / name).read_bytes(), f"{name} differs: run `cd web && npm ci && npm run build`"


def test_client_type_checks() -> None:
    tsc = WEB / "node_modules" / "typescript" / "bin" / "tsc"
    done = subprocess.run(
        [_node(), str(tsc), "--noEmit", "-p", "."], cwd=WEB, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stdout + done.stderr

"""The committed client bundle (bot/activity/static) is exactly what web/src builds to with the locked esbuild:
running the bot never needs Node, and nobody can change the bundle without its source."""

from __future__ import annotations

import fcntl
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


def _installed_as_locked() -> bool:
    """web/node_modules holds exactly the locked packages (npm's own record of what it installed agrees with the lock;
    the optional ones of other platforms are absent)."""
    installed = WEB / "node_modules" / ".package-lock.json"
    if not installed.is_file():
        return False
    locked = json.loads((WEB / "package-lock.json").read_text())["packages"]
    have = json.loads(installed.read_text())["packages"]
    return all(locked.get(k) == v for k, v in have.items()) and all(
        k in have for k, v in locked.items() if k and not v.get("optional")
    )


def _node() -> str:
    """Node with the locked packages of web/ installed: ``npm ci`` runs once if they are missing (under a lock, since
    parallel workers may both get here). Without Node at all these checks skip: they are only needed to change the
    client, and the committed bundle is what the bot serves."""
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js/npm not installed: the web client's bundle and type checks are skipped")
    with (WEB / "package-lock.json").open("rb") as lock:
        # the lock file itself is the mutex: it is in every checkout and never written
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not _installed_as_locked():
                done = subprocess.run(
                    [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                    cwd=WEB,
                    capture_output=True,
                    text=True,
                    timeout=300,
                )
                assert done.returncode == 0, f"npm ci failed in web/:\n{done.stdout}{done.stderr}"
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
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

"""A throw-away PostgreSQL server for tests and benchmarks (Debian's ``postgresql`` package, no mock).

``initdb`` into a fresh temporary folder, ``pg_ctl start`` listening only on a Unix socket in that folder
(no TCP), ``fsync=off`` (the data is thrown away), then ``pg_ctl stop`` and the folder removed (at once, or by a
detached process). PostgreSQL refuses to run as root, so as root the server runs as an unprivileged system user
(``postgres`` when the package created it, else a dedicated ``tavolo-pg`` user made with ``useradd``).

Used by ``tests/conftest.py`` (one server per test session, one fresh database per test) and by
``bench/ledger_bench.py``. :func:`find_bindir` says why PostgreSQL is unavailable instead of guessing.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["PgServer", "PgUnavailable", "find_bindir"]


#: the detached removals started by ``stop(remove_later=True)`` (kept referenced: never reaped while running)
_REMOVERS: list[subprocess.Popen[bytes]] = []


class PgUnavailable(RuntimeError):
    """PostgreSQL cannot be started here (binaries missing, or the server failed to start)."""


def find_bindir() -> Path:
    """The newest ``/usr/lib/postgresql/*/bin`` holding ``initdb``, ``pg_ctl`` and ``postgres``.

    Deliberately not ``$PATH``: a stray ``pg_ctl`` (e.g. a symlink in /usr/local/bin) may belong to a
    different or half-installed version; Debian keeps each version's tools together here."""
    env = os.environ.get("TAVOLO_PG_BINDIR")
    candidates = [Path(env)] if env else []
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    candidates += sorted((Path(p) for p in versions), key=lambda p: int(p.parent.name or 0), reverse=True)
    for bindir in candidates:
        if all((bindir / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return bindir
    raise PgUnavailable("PostgreSQL binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)")


def _run_as() -> str | None:
    """The user to run the server as: None when we are not root, else an unprivileged system user."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "tavolo-pg"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "tavolo-pg"],
        check=True,
        capture_output=True,
    )
    return "tavolo-pg"


class PgServer:
    """One temporary cluster. ``start()`` returns self; ``url(dbname)`` is an asyncpg/libpq URL."""

    def __init__(self, bindir: Path | None = None) -> None:
        self.bindir = bindir or find_bindir()
        self.user = _run_as()
        self.base: Path | None = None
        self._names = itertools.count(1)

    @property
    def socket_dir(self) -> Path:
        assert self.base is not None
        return self.base / "sock"

    def _cmd(self, *args: str) -> list[str]:
        return ["runuser", "-u", self.user, "--", *args] if self.user else list(args)

    def start(self) -> PgServer:
        # Not under pytest's tmp_path: that is private to root (0700) and the server's user must write here.
        self.base = Path(tempfile.mkdtemp(prefix="tavolo-pg-"))
        data, sock = self.base / "data", self.base / "sock"
        sock.mkdir()
        if self.user:
            entry = pwd.getpwnam(self.user)
            for p in (self.base, sock):
                os.chown(p, entry.pw_uid, entry.pw_gid)
        try:
            subprocess.run(
                self._cmd(str(self.bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
                          "-E", "UTF8", "--no-locale", "--no-sync"),
                check=True, capture_output=True, text=True,
            )  # fmt: skip
            opts = (
                f"-c listen_addresses='' -c unix_socket_directories='{sock}' -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            )
            subprocess.run(
                self._cmd(str(self.bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(self.base / "log"),
                          "-w", "-t", "60", "start"),
                check=True, capture_output=True, text=True,
            )  # fmt: skip
        except (subprocess.CalledProcessError, OSError) as exc:
            log = self.base / "log"
            detail = getattr(exc, "stderr", "") or ""
            if log.exists():
                detail += log.read_text(errors="replace")[-2000:]
            self._cleanup()
            raise PgUnavailable(f"could not start PostgreSQL: {exc}\n{detail}") from exc
        return self

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@/{dbname}?host={self.socket_dir}"

    def psql(self, sql: str, dbname: str = "postgres") -> str:
        out = subprocess.run(
            [str(self.bindir / "psql"), "-X", "-q", "-A", "-t", "-h", str(self.socket_dir), "-U", "postgres",
             "-d", dbname, "-v", "ON_ERROR_STOP=1", "-c", sql],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        return out.stdout.strip()

    def create_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its URL."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self, *, remove_later: bool = False) -> None:
        """Stop the server and remove its folder; ``remove_later``: by a detached ``rm -rf`` that outlives this
        process (a test session's hundreds of databases took minutes to delete, all of it waited for at the end)."""
        if self.base is None:
            return
        data = self.base / "data"
        if (data / "postmaster.pid").exists():
            subprocess.run(
                self._cmd(str(self.bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"),
                capture_output=True,
            )
        self._cleanup(later=remove_later)

    def _cleanup(self, *, later: bool = False) -> None:
        if self.base is None:
            return
        if later and shutil.which("rm"):
            _REMOVERS.append(
                subprocess.Popen(
                    ["rm", "-rf", "--", str(self.base)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,  # not killed with the test run, not waited for by it
                )
            )
        else:
            shutil.rmtree(self.base, ignore_errors=True)
        self.base = None

    def __enter__(self) -> PgServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

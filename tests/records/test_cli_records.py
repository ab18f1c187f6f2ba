"""``tavolo replay`` and ``tavolo play`` as subprocesses: exit codes, ``FILE:LINE:`` messages, no discord."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.records import format_record, load_record, record_from_log, replay

from .randgames import play_random

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAVOLO_"))}
    env["PYTHONPATH"] = str(ROOT)
    return env


def _run(args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=_env(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _write_record(tmp_path: Path, game_id: str = "mighty", seed: int = 3) -> Path:
    p = play_random(game_id, seed, views=False)
    path = tmp_path / f"{game_id}.txt"
    path.write_text(format_record(record_from_log(game_id, p.players, p.options, p.seed, p.log)), encoding="utf-8")
    return path


def test_replay_a_good_record(tmp_path: Path) -> None:
    for game_id in ("wizard", "mediatore", "mighty", "minchiate"):
        path = _write_record(tmp_path, game_id)
        proc = _run(["replay", str(path)], tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == ""
        out = proc.stdout
        assert "== Hand 1 ==" in out and "Trick 1: " in out
        assert "Final result" in out or "The game is not over" in out


def test_replay_one_hand(tmp_path: Path) -> None:
    path = _write_record(tmp_path, "mighty", 4)
    hands = replay(load_record(path)).hands
    proc = _run(["replay", str(path), "--hand", str(hands[-1] + 1)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"== Hand {hands[-1] + 1} ==" in proc.stdout
    if len(hands) > 1:
        assert "== Hand 1 ==" not in proc.stdout
    proc = _run(["replay", str(path), "--hand", "99"], tmp_path)
    assert proc.returncode == 2 and "there is no hand 99" in proc.stderr


def test_replay_a_tampered_record(tmp_path: Path) -> None:
    path = _write_record(tmp_path)
    lines = path.read_text(encoding="utf-8").split("\n")
    i = next(i for i, ln in enumerate(lines) if ln.startswith("2: play "))
    lines[i] = "2: play " + ("2C" if lines[i] != "2: play 2C" else "3C")
    path.write_text("\n".join(lines), encoding="utf-8")
    proc = _run(["replay", str(path)], tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{path}:{i + 1}: seat 2 (Bob) cannot `play ")
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_replay_a_missing_or_garbage_file(tmp_path: Path) -> None:
    proc = _run(["replay", str(tmp_path / "nope.txt")], tmp_path)
    assert proc.returncode == 2 and "cannot read" in proc.stderr and "Traceback" not in proc.stderr
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    proc = _run(["replay", str(bad)], tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith(f"{bad}:1: ")


def test_play_with_piped_answers_saves_a_valid_record(tmp_path: Path) -> None:
    rec = tmp_path / "w.txt"
    args = ["play", "wizard", "--seed", "5", "--players", "3", "--option", "rounds=1-2", "--record", str(rec)]
    proc = _run(args, tmp_path, stdin="1\n" * 40)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"Record saved to {rec}" in proc.stdout
    done = replay(load_record(rec))
    assert done.game.is_over
    again = _run(args, tmp_path, stdin="1\n" * 40)  # the same seed and answers: the same game
    assert again.stdout == proc.stdout
    assert rec.read_text(encoding="utf-8") == format_record(done.record)


def test_play_default_path_and_bad_arguments(tmp_path: Path) -> None:
    proc = _run(["play", "mighty", "--seed", "2", "--option", "hands=1"], tmp_path, stdin="1\n" * 80)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "tavolo-mighty-2.txt").is_file()
    proc = _run(["play", "mighty", "--seed", "2", "--option", "hands=1"], tmp_path, stdin="1\n" * 80)
    assert (tmp_path / "tavolo-mighty-2-2.txt").is_file()  # an earlier record is never overwritten
    proc = _run(["play", "mighty", "--option", "colour=red"], tmp_path)
    assert proc.returncode == 2 and "Unknown option: colour." in proc.stderr and "Traceback" not in proc.stderr
    proc = _run(["play", "mighty", "--players", "4"], tmp_path)
    assert proc.returncode == 2 and "5 players" in proc.stderr
    proc = _run(["play", "wizard", "--seat", "9"], tmp_path)
    assert proc.returncode == 2 and "--seat" in proc.stderr


def test_play_eof_leaves_cleanly_with_a_partial_record(tmp_path: Path) -> None:
    rec = tmp_path / "p.txt"
    proc = _run(["play", "mediatore", "--seed", "1", "--option", "hands=1", "--record", str(rec)], tmp_path, "1\n")
    assert proc.returncode == 1
    assert "Game abandoned." in proc.stdout and "Traceback" not in proc.stderr
    if rec.exists():  # the computers (and the one answer) may have acted before the input ran out
        assert load_record(rec).result is None
        replay(load_record(rec))


def test_records_commands_never_import_discord(tmp_path: Path) -> None:
    path = _write_record(tmp_path, "wizard")
    code = (
        "import sys\n"
        "from bot.__main__ import main\n"
        f"rc = main(['replay', {str(path)!r}])\n"
        f"rc2 = main(['play', 'wizard', '--seed', '1', '--players', '3', '--option', 'rounds=1',"
        f" '--level', 'strong', '--record', {str(tmp_path / 'x.txt')!r}])\n"
        "assert 'discord' not in sys.modules, 'discord was imported'\n"
        "sys.exit(rc or rc2)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=_env(), input="1\n" * 10, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr

"""``tavolo play`` in a pseudo-terminal, scripted with pexpect: whole games played to the end by always
answering choice 1 (after one wrong answer, which must be refused), and Ctrl-C leaving cleanly."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from bot.records import load_record, replay
from bot.records.cli import default_name

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r"\n> "
SAVED = r"Record saved to ([^\r\n]+)\r\n"
CHOICE = re.compile(r"^\s+(\d+)\) (.+?)\r?$", re.MULTILINE)


def _spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAVOLO_"))}
    env["PYTHONPATH"] = str(ROOT)
    return pexpect.spawn(
        sys.executable, ["-m", "bot", *args], cwd=str(cwd), env=env, encoding="utf-8", timeout=60, dimensions=(50, 200)
    )


def _play_to_the_end(child: pexpect.spawn) -> tuple[str, int, str]:
    """Answer every prompt with 1 (the first time: a wrong answer first).

    Returns the record's path, the number of prompts answered and everything the game printed.
    """
    prompts = 0
    transcript: list[str] = []
    while True:
        i = child.expect([PROMPT, SAVED, pexpect.EOF])
        transcript.append(child.before)
        if i == 1:
            path = child.match.group(1)
            child.expect(pexpect.EOF)
            return path, prompts, "".join(transcript)
        assert i == 0, f"the game ended without saving its record:\n{child.before}"
        # every prompt comes after its numbered choices
        assert CHOICE.search(child.before), child.before[-500:]
        if prompts == 0:
            child.sendline("xyz")
            child.expect(r"'xyz' is not one of the choices: type a number from 1 to \d+")
            child.expect(r"> ")
        child.sendline("1")
        prompts += 1
        assert prompts < 400, "the game does not end"


@pytest.mark.parametrize(
    ("args", "over"),
    [
        (["play", "wizard", "--seed", "1", "--players", "3", "--option", "rounds=1-2"], "final scores"),
        (["play", "mighty", "--seed", "1", "--option", "hands=1"], "Mighty — hand 1"),
    ],
)
def test_a_whole_game_in_the_terminal(args: list[str], over: str, tmp_path: Path) -> None:
    child = _spawn([*args, "--record", str(tmp_path / "game.txt")], tmp_path)
    path, prompts, out = _play_to_the_end(child)
    child.close()
    assert child.exitstatus == 0
    assert prompts >= 2
    assert "Trick 1: " in out and over in out and "Game over" in out
    assert path == str(tmp_path / "game.txt")
    done = replay(load_record(path))
    assert done.game.is_over
    assert done.record.players[0] == default_name()
    # the narration names the player; no "You plays" / "You's hand"
    assert f"{default_name()} " in out and "You plays" not in out and "You's" not in out


def test_ctrl_c_leaves_cleanly(tmp_path: Path) -> None:
    child = _spawn(["play", "minchiate", "--seed", "3", "--record", str(tmp_path / "m.txt")], tmp_path)
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Game abandoned.")
    child.expect(pexpect.EOF)
    out = child.before
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in out

"""The entry point: operator mistakes end with one clear line and exit code 2, never a traceback."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]


async def _run(env: dict[str, str], tmp_path: Path) -> tuple[int, str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TAVOLO_"))}
    full.update({"TAVOLO_DATABASE": str(tmp_path / "t.db"), **env})
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env={**full, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, (out + err).decode()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "not-a-token"}, "does not look like a bot token"),
        ({"DISCORD_TOKEN": "x" * 24 + ".abcdef." + "y" * 27, "TAVOLO_LOG_LEVEL": "LOUD"}, "TAVOLO_LOG_LEVEL"),
        ({"DISCORD_TOKEN": "x" * 24 + ".abcdef." + "y" * 27, "TAVOLO_TURN_TIMEOUT": "5"}, "TAVOLO_TURN_TIMEOUT"),
    ],
)
async def test_bad_settings_exit_2_with_one_line(env: dict[str, str], expected: str, tmp_path: Path) -> None:
    code, output = await _run(env, tmp_path)
    assert code == 2
    assert expected in output
    assert "Traceback" not in output and len(output.strip().splitlines()) == 1


async def test_rejected_token_exits_2(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    env = {**fake_discord.env(), "DISCORD_TOKEN": "A" * 24 + ".Bbbbbb." + "C" * 27}
    code, output = await _run(env, tmp_path)
    assert code == 2, output
    assert "rejected DISCORD_TOKEN" in output and "Traceback" not in output

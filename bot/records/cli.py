"""The ``tavolo replay`` and ``tavolo play`` subcommands (no bot token, no network, no discord).

``tavolo replay FILE [--hand N]`` validates a record and tells it trick by trick; a bad record prints
``FILE:LINE: message`` and exits with 2. ``tavolo play GAME ...`` plays one seat in the terminal against
computer players and saves the record (see :mod:`bot.records.play`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import getpass
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import _games
from .format import format_record
from .model import RecordError
from .parse import decode_option, load_record
from .play import Quit, TerminalGame
from .replay import record_from_log, replay
from .show import replay_text

LEVELS = ("easy", "normal", "strong")


def _err(msg: str) -> None:
    print(msg, file=sys.stderr)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tavolo", description="Tavolo hand records and terminal games.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="validate a hand record and tell it trick by trick")
    r.add_argument("file", help="a hand record (docs/hand-records.md)")
    r.add_argument("--hand", type=int, metavar="N", help="tell only hand N (1-based)")
    g = sub.add_parser("play", help="play a game in the terminal against computer players")
    g.add_argument("game", choices=_games.game_ids())
    g.add_argument("--seat", type=int, default=1, metavar="N", help="your seat, 1-based (default 1)")
    g.add_argument("--players", type=int, metavar="N", help="number of seats (Wizard: 3-6, default 4)")
    g.add_argument("--level", choices=LEVELS, default="normal", help="the computers' level (default normal)")
    g.add_argument("--seed", type=int, help="the game's seed (default: random, printed)")
    g.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option, e.g. rounds=1-2 (Wizard) or hands=1 (Mighty); repeatable",
    )
    g.add_argument("--name", default=None, help="your name in the narration and the record (default: your login name)")
    g.add_argument(
        "--hints", action="store_true", help="show what the strong computer would do before each of your decisions"
    )
    g.add_argument("--record", metavar="PATH", help="where to save the record (default: ./tavolo-GAME-SEED.txt)")
    return p


def default_name() -> str:
    """The player's name when ``--name`` is not given: the login name (the narration says "Anna plays Q♠"; a
    fixed "You" would read "You plays"), or "Player" when there is none usable."""
    try:
        login = getpass.getuser()
    except (OSError, KeyError):  # no login name (a container without a passwd entry)
        login = ""
    login = "".join(ch for ch in login if ch.isalnum() or ch in "-_. ")[:32].strip()
    return login[:1].upper() + login[1:] if login else "Player"


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    if args.command == "replay":
        return replay_command(args.file, args.hand)
    return play_command(args)


def replay_command(file: str, hand: int | None = None) -> int:
    try:
        rec = load_record(file)
        done = replay(rec)
    except OSError as e:
        _err(f"{file}: cannot read: {e.strerror or e}")
        return 2
    except RecordError as e:
        # the reason in the terminal's locale (English unless the caller chose one with using())
        _err(f"{file}:{e.line}: {e.reason()}")
        return 2
    if hand is not None and hand - 1 not in done.hands:
        _err(f"{file}: there is no hand {hand} (hands: {', '.join(str(h + 1) for h in done.hands) or 'none'})")
        return 2
    try:
        for line in replay_text(done, None if hand is None else hand - 1):
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:  # `tavolo replay x | head`
        pass
    return 0


def _options(game_id: str, pairs: list[str]) -> dict[str, Any]:
    """``--option`` values: JSON or a bare word, as in a record; a text option stays text (``rounds=1``)."""
    defaults = _games.option_defaults(game_id)
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or not name:
            raise ValueError(f"--option takes NAME=VALUE, not {pair!r}")
        value = decode_option(raw)
        if isinstance(defaults.get(name), str) and not isinstance(value, str):
            value = raw
        out[name] = value
    return out


def _default_path(game: str, seed: int) -> Path:
    base = Path.cwd() / f"tavolo-{game}-{seed}"
    path, n = base.with_suffix(".txt"), 1
    while path.exists():  # never overwrite an earlier game's record
        n += 1
        path = Path(f"{base}-{n}.txt")
    return path


def play_command(args: argparse.Namespace) -> int:
    game_id: str = args.game
    lo, hi = _games.seat_range(game_id)
    n = args.players if args.players is not None else max(lo, min(4, hi))
    if not lo <= n <= hi:
        _err(f"tavolo: {_games.title(game_id)} is played by {lo if lo == hi else f'{lo} to {hi}'} players")
        return 2
    if not 1 <= args.seat <= n:
        _err(f"tavolo: --seat must be from 1 to {n}")
        return 2
    try:
        options = _options(game_id, args.option)
    except ValueError as e:
        _err(f"tavolo: {e}")
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    seat = args.seat - 1
    names = [(args.name or default_name()) if s == seat else f"Bot {s + 1}" for s in range(n)]
    try:
        tg = TerminalGame(
            game_id,
            num_seats=n,
            seat=seat,
            level=args.level,
            seed=seed,
            options=options,
            names=names,
            hints=args.hints,
        )
    except _games.InvalidOptions as e:
        _err(f"tavolo: {_games.error_text(e, game_id)}")
        return 2
    print(f"{_games.title(game_id)}: you are {names[seat]} (seat {seat + 1}) against {args.level} computers.")
    print(f"Seed {seed} (the same seed and answers replay this game). Ctrl-D or Ctrl-C leaves; ? asks for a hint.")
    code = 0
    try:
        tg.run()
    except Quit as q:
        print("\nGame abandoned.")
        code = 130 if str(q) == "KeyboardInterrupt" else 1
    except KeyboardInterrupt:  # while a computer was thinking
        print("\nGame abandoned.")
        code = 130
    if tg.game.is_over:
        res = tg.game.result()
        if res is not None:
            amounts = [_games.amount_text(res.totals[s], res.currency) for s in range(n)]
            cells = ", ".join(f"{names[s]} {amounts[s]} (rank {res.ranks[s]})" for s in range(n))
            print(f"\nGame over: {cells}")
    if tg.log:
        rec = record_from_log(game_id, names, options, seed, tg.log, date=dt.date.today().isoformat())
        path = Path(args.record) if args.record else _default_path(game_id, seed)
        try:
            path.write_text(format_record(rec), encoding="utf-8")
        except OSError as e:
            _err(f"tavolo: cannot save the record to {path}: {e.strerror or e}")
            return 2
        print(f"Record saved to {path}")
    return code

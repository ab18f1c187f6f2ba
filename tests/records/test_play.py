"""The terminal game in-process: a scripted player answers by number, by name and with nonsense, in every game;
nonsense is refused and asked again, the game reaches its end and its record replays."""

from __future__ import annotations

import random
import re

import pytest

from bot.records import _games, record_from_log, replay
from bot.records.play import PROMPT, Option, TerminalGame, match

CHOICE = re.compile(r"^\s+(\d+)\) (.+)$")


class ScriptedPlayer:
    """Reads what the game writes; answers each prompt from the choices listed just before it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.listed: list[str] = []
        self.expect_refusal = False
        self.refusals = 0
        self.by_name = 0
        self.combos = 0

    def write(self, line: str = "") -> None:
        if self.expect_refusal:
            assert "is not one of the choices" in line, line
            self.expect_refusal = False
            self.refusals += 1
        m = CHOICE.match(line)
        if m:
            self.listed.append(m.group(2))
        elif line.endswith("chosen:"):
            self.listed = []
            self.combos += 1
        elif line == "Your choices:":
            self.listed = []
        self.lines.append(line)

    def read(self, prompt: str) -> str:
        assert prompt == PROMPT
        assert self.listed, "a prompt without choices"
        assert not self.expect_refusal
        r = self.rng.random()
        if r < 0.1:
            self.expect_refusal = True
            return "zz-not-a-choice"
        if r < 0.3:
            label = self.rng.choice(self.listed)
            if self.listed.count(label) == 1 and " — " not in label:
                self.by_name += 1
                return label.upper()  # names are case-insensitive
        return str(self.rng.randint(1, len(self.listed)))


@pytest.mark.parametrize("game_id", ["wizard", "mediatore", "mighty", "minchiate"])
def test_scripted_games_reach_the_end(game_id: str) -> None:
    combos = refusals = by_name = 0
    for seed in range(4):
        rng = random.Random(seed)
        lo, hi = _games.seat_range(game_id)
        n = rng.randint(lo, max(lo, min(hi, 4)))
        seat = rng.randrange(n)
        options = {"wizard": {"rounds": "1-3"}, "mediatore": {"hands": 2}, "mighty": {"hands": 2}}.get(game_id, {})
        player = ScriptedPlayer(rng)
        names = [f"P{i + 1}" for i in range(n)]
        tg = TerminalGame(
            game_id,
            num_seats=n,
            seat=seat,
            level="easy",
            seed=seed,
            options=options,
            names=names,
            write=player.write,
            read=player.read,
        )
        tg.run()
        assert tg.game.is_over
        rec = record_from_log(game_id, names, options, seed, tg.log)
        done = replay(rec)
        assert done.game.result() == tg.game.result()
        combos += player.combos
        refusals += player.refusals
        by_name += player.by_name
    assert refusals > 0 and by_name > 0
    if game_id in ("mighty", "minchiate"):
        assert combos > 0, "the combination prompt was never used"


def _opts(*labels_actions: tuple[str, dict]) -> list[Option]:
    from bot.records.play import _action_keys, _label_keys

    out = []
    for label, action in labels_actions:
        exact, loose = _action_keys("mighty", action)
        out.append(Option(label, action, exact=exact | _label_keys(label), loose=loose))
    return out


def test_match_by_number_card_label_and_notation() -> None:
    opts = _opts(
        ("Q♠", {"type": "play", "card": "QS"}),
        ("10♥", {"type": "play", "card": "TH"}),
        ("3♣", {"type": "play", "card": "3C"}),
        ("3♣ + joker call", {"type": "play", "card": "3C", "joker_call": True}),
        ("🃏 Joker → ♠", {"type": "play", "card": "JK", "suit": "S"}),
        ("🃏 Joker → ♥", {"type": "play", "card": "JK", "suit": "H"}),
    )
    assert match("1", opts) == (0, "")
    assert match(" qs ", opts)[0] == 0
    assert match("Q♠", opts)[0] == 0
    assert match("q ♠", opts)[0] == 0
    assert match("play QS", opts)[0] == 0
    assert match("th", opts)[0] == 1
    assert match("10♥", opts)[0] == 1
    assert match("3C", opts)[0] == 2  # the plain play, not the joker call
    assert match("3c call", opts)[0] == 3
    assert match("jk h", opts)[0] == 5
    i, why = match("JK", opts)
    assert i is None and "matches several choices (5, 6)" in why
    i, why = match("7", opts)
    assert i is None and "There is no choice 7" in why
    i, why = match("KS", opts)
    assert i is None and "is not one of the choices" in why

"""Hints: computed from the seat's view only (two deals that look the same to the seat get the same hint),
reproducible under a seed, always a legal action; the terminal shows them on ``?`` and with ``--hints``."""

from __future__ import annotations

import random

import pytest

from bot.ai.hints import hint
from bot.engine.protocol import Game
from bot.games import registry
from bot.i18n import using
from bot.records.play import TerminalGame
from bot.records.show import hint_text

GAMES = {"mediatore": 4, "mighty": 5, "minchiate": 4, "wizard": 4}
OPTIONS = {"mediatore": {}, "mighty": {"hands": 1}, "minchiate": {}, "wizard": {"rounds": "3"}}


def _position(game_id: str, seed: int) -> tuple[Game, int]:
    """A random position of a fresh game (random legal moves), and a seat to move with a real choice."""
    rng = random.Random(seed)
    game = registry.game_class(game_id)(GAMES[game_id], OPTIONS[game_id], seed)  # type: ignore[call-arg]
    for _ in range(rng.randrange(0, 40)):
        movers = game.to_move()
        if game.is_over or not movers:
            break
        seat = movers[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    movers = game.to_move()
    return game, movers[0] if movers else -1


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_hint_sees_only_the_seats_view(game_id: str) -> None:
    """Another deal with the same view for the seat (other hands re-dealt) gets exactly the same hint."""
    strong = registry.make_agent(game_id, "strong")
    checked = 0
    for seed in range(40):
        if checked == 8:
            break
        game, seat = _position(game_id, seed)
        if seat < 0 or game.is_over:
            continue
        other = game.determinize(seat, random.Random(seed + 1000))
        assert other.view(seat) == game.view(seat)
        a = hint(game, seat, strong, seed=seed, samples=4)
        b = hint(other, seat, strong, seed=seed, samples=4)
        assert a == b
        assert a.action in game.legal_actions(seat)
        checked += 1
    assert checked == 8


def test_a_hint_is_reproducible_and_reports_its_measure() -> None:
    game, seat = _position("mighty", 5)
    strong = registry.make_agent("mighty", "strong")
    first = hint(game, seat, strong, seed=42, samples=6)
    assert first == hint(game, seat, strong, seed=42, samples=6)
    assert first.forced or (first.samples == 6 and 0 <= first.good <= 6)
    with using("ru"):
        text = hint_text("mighty", first)
    assert text.startswith("💡") and "simulated" not in text  # worded in the reader's language


def _terminal_lines(answers: list[str], *, hints: bool = False) -> list[str]:
    """What a one-round Wizard game in the terminal prints, answered with ``answers`` then "1" forever."""
    out: list[str] = []
    feed = iter([*answers, *["1"] * 2000])
    TerminalGame(
        "wizard",
        num_seats=3,
        seat=0,
        level="normal",
        seed=9,
        options={"rounds": "1"},
        names=["Anna", "B", "C"],
        write=out.append,
        read=lambda _prompt: next(feed),
        hints=hints,
    ).run()
    return out


def test_the_terminal_answers_a_question_mark_with_a_hint() -> None:
    asked = [line for line in _terminal_lines(["?"]) if line.startswith("💡")]
    assert len(asked) == 1  # asked once; without --hints nothing else is volunteered
    # before the bid (a lone card is played at once)
    assert sum(line.startswith("💡") for line in _terminal_lines([], hints=True)) >= 1


def test_a_replay_shows_who_asked_for_a_hint_and_where() -> None:
    from bot.records import replay
    from bot.records.format import format_record
    from bot.records.parse import parse_record
    from bot.records.replay import record_from_log
    from bot.records.show import replay_text

    game = registry.game_class("wizard")(3, {"rounds": "1"}, 4)  # type: ignore[call-arg]
    log = []
    while not game.is_over:
        seat = game.to_move()[0]
        action = game.legal_actions(seat)[0]
        game.apply(seat, action)
        log.append((seat, action))
    rec = record_from_log("wizard", ["Ann", "Bob", "Cy"], {"rounds": "1"}, 4, log, tags={"Hints": "2@2"})
    text = format_record(rec)
    assert '[Hints "2@2"]' in text
    lines = list(replay_text(replay(parse_record(text))))
    asked = [i for i, line in enumerate(lines) if line == "💡 Bob asked for a hint."]
    assert len(asked) == 1
    # told just before the second action (Bob's), after the first one
    assert any("Ann" in line for line in lines[: asked[0]])

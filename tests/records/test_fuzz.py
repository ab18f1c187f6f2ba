"""Mutated records (deleted, duplicated, swapped lines, changed cards, garbage tags, stray characters) give a
``RecordError`` with a line inside the text, or a valid record — never another exception."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.records import RecordError, _games, format_record, parse_record, record_from_log, replay

from .randgames import play_random

GAMES = ("wizard", "mediatore", "mighty", "minchiate")


@cache
def base_texts() -> tuple[str, ...]:
    out = []
    for i, gid in enumerate(GAMES):
        for k in range(2):
            p = play_random(gid, 7_000 + 10 * i + k, views=False)
            rec = record_from_log(gid, p.players, p.options, p.seed, p.log, date="2026-12-01")
            out.append(format_record(rec))
    return tuple(out)


def _cards_of(text: str) -> list[str]:
    game = text.split('"')[1]
    return list(_games.deck(game))


GARBAGE = st.sampled_from(
    [
        '[Seed "x"]',
        '[Game "chess"]',
        '[Version "2"]',
        '[Players ""]',
        '[Option "hands"]',
        '[Option "nosuch=1"]',
        '[Option "hands=-4"]',
        '[Hand "0"]',
        '[Hand "99"]',
        '[Settlement "1: stake +1"]',
        '[Settlement "1: dollars +1 -1"]',
        '[Result "point"]',
        '[Result "*"]',
        '[lower "x"]',
        '[Bad "unterminated]',
        '[Esc "\\q"]',
        "== hand 0 ==",
        "== hand 2 ==",
        "1: play",
        "1: bid",
        "9: pass",
        "0: pass",
        '1: {"type": "play"}',
        '1: {"type": "play", "card": [1, 2]}',
        '1: {"type": "bid", "n": NaN}',
        "1: {not json",
        "garbage",
        "[",
        ":",
        "\x00",
        "٣: pass",
    ]
)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(base_texts()))
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "card", "garbage", "char", "truncate"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "card":
            words = lines[i].split(" ")
            if len(words) > 1:
                k = draw(st.integers(1, len(words) - 1))
                words[k] = draw(st.sampled_from([*_cards_of(text), "XX", "qs", "10", "-1", "[", "]"]))
                lines[i] = " ".join(words)
        elif op == "garbage":
            lines.insert(i, draw(GARBAGE))
        elif op == "char" and lines[i]:
            k = draw(st.integers(0, len(lines[i]) - 1))
            ch = draw(st.sampled_from(list('"\\[]:;=+- 0123456789xQ♠\t')))
            lines[i] = lines[i][:k] + ch + lines[i][k + 1 :]
        elif op == "truncate":
            lines = lines[: i + 1]
    return "\n".join(lines)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_records_fail_only_with_record_error(text: str) -> None:
    try:
        replay(parse_record(text))
    except RecordError as e:
        assert 0 <= e.line <= len(text.split("\n")), e
        assert e.message and "\n" not in e.message
        assert str(e).startswith(f"line {e.line}: ") or e.line == 0


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_fails_only_with_record_error(text: str) -> None:
    try:
        replay(parse_record(text))
    except RecordError as e:
        assert e.message


def test_the_base_records_are_valid() -> None:
    for text in base_texts():
        replay(parse_record(text))

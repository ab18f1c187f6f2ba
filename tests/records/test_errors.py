"""Precise errors for malformed and tampered records, and the notation's documented examples."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from bot.records import (
    NotationError,
    Record,
    RecordError,
    format_action,
    format_record,
    load_record,
    parse_action,
    parse_record,
    record_from_log,
    replay,
)

from .randgames import play_random


@cache
def mighty_text() -> str:
    """A two-hand Mighty session."""
    for seed in range(100):
        p = play_random("mighty", seed, views=False)
        if p.options["hands"] == 2 and len(p.settlements) == 2:
            return format_record(record_from_log("mighty", p.players, p.options, p.seed, p.log))
    raise AssertionError("no two-hand game")


def _lines() -> list[str]:
    return mighty_text().split("\n")


def _index(lines: list[str], pred: str, nth: int = 0) -> int:
    hits = [i for i, ln in enumerate(lines) if ln.startswith(pred)]
    return hits[nth]


def _error(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(parse_record(text))
    return info.value


def test_a_changed_card_names_its_line() -> None:
    lines = _lines()
    i = _index(lines, "2: play")
    card = lines[i].split()[-1]
    lines[i] = "2: play " + ("2C" if card != "2C" else "3C")
    e = _error("\n".join(lines))
    assert e.line == i + 1
    assert e.message.startswith("seat 2 (Bob) cannot `play ")


def test_wrong_settlement_result_and_missing_parts() -> None:
    lines = _lines()
    s = _index(lines, "[Settlement")
    tampered = list(lines)
    tampered[s] = tampered[s].replace(":", ": stake +1000 -1000 0 0 0;", 1).split(";")[0] + '"]'
    e = _error("\n".join(tampered))
    assert e.line == s + 1 and "declared settlement 1: stake +1000 -1000 0 0 0 but the replay gives" in e.message

    r = _index(lines, "[Result")
    tampered = list(lines)
    tampered[r] = '[Result "*"]'
    e = _error("\n".join(tampered))
    assert e.line == r + 1 and "but the replay gives 'stake" in e.message

    tampered = [ln for i, ln in enumerate(lines) if i != s]  # the first settlement left out
    e = _error("\n".join(tampered))
    assert "declared settlement 2:" in e.message or "does not declare" in e.message

    e = _error("\n".join(ln for ln in lines if not ln.startswith("[Result")))
    assert "missing [Result" in e.message


def test_hand_lines_must_match_the_engine() -> None:
    lines = _lines()
    m = _index(lines, "== hand 2 ==")
    e = _error("\n".join(ln for i, ln in enumerate(lines) if i != m))
    assert e.line == m + 1 and "hand 2 starts here" in e.message  # the action that now follows hand 1's

    moved = list(lines)
    moved.insert(m - 2, moved.pop(m))  # two actions too early
    e = _error("\n".join(moved))
    assert e.line == m - 1 and "no new hand starts here" in e.message

    renumbered = list(lines)
    renumbered[m] = "== hand 3 =="
    e = _error("\n".join(renumbered))
    assert e.line == m + 1 and "this is hand 2, not hand 3" in e.message


def test_a_hand_record_ends_with_its_hand() -> None:
    lines = _lines()
    with_tag = [*lines[:5], '[Hand "1"]', *lines[5:]]
    m = _index(with_tag, "== hand 2 ==")
    e = _error("\n".join(with_tag))
    assert e.line == m + 2 and "the record is about hand 1 ([Hand] tag) but this action belongs to hand 2" in e.message


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('[Game "mighty"]', '[Game "chess"]', "unknown game 'chess'"),
        ('[Version "1"]', '[Version "2"]', "unsupported record version '2'"),
        ('[Seed "', '[Seed "x', "the seed must be a whole number"),
        ('[Option "hands=2"]', '[Option "hands=2"]\n[Option "colour=red"]', "Unknown option: colour."),
        ('[Option "hands=2"]', '[Option "hands=-1"]', "invalid options: `hands`"),
        ('[Players "Ann; Bob; Cy; Dee; Eve"]', '[Players "Ann; Bob"]', "Mighty needs 5 players, not 2"),
    ],
)
def test_bad_header_tags_name_their_line(old: str, new: str, expected: str) -> None:
    text = mighty_text()
    assert old in text
    text = text.replace(old, new, 1)
    e = _error(text)
    line = next(i for i, ln in enumerate(text.split("\n"), 1) if ln.startswith(new.split("\n")[-1][:12]))
    assert expected in e.message
    assert e.line == line


@pytest.mark.parametrize(
    ("bad", "expected"),
    [
        ("7: pass", "seat 7 does not exist (seats 1 to 5"),
        ("1: play QX", "unknown card 'QX'"),
        ("1: bid 14", "expected `bid N TRUMP`"),
        ("1: jump", "unknown Mighty action 'jump'"),
        ("1: play", "expected `play CARD`"),
        ("1: {oops", "invalid JSON action"),
        ("[Date 2026]", "malformed tag"),
        ('[date "x"]', "tag names start with a capital letter"),
        ("hello", "expected a tag"),
    ],
)
def test_malformed_lines(bad: str, expected: str) -> None:
    lines = _lines()
    i = _index(lines, "2: ")
    lines[i] = bad
    with pytest.raises(RecordError) as info:
        replay(parse_record("\n".join(lines)))
    assert info.value.line == i + 1
    assert expected in info.value.message


def test_tags_after_the_actions_and_lines_after_the_result() -> None:
    lines = _lines()
    s = _index(lines, "[Settlement")
    e = _error("\n".join([*lines[:s], '[Date "2026-12-01"]', *lines[s:]]))
    assert e.line == s + 1 and "belongs in the header" in e.message
    e = _error(mighty_text() + "1: pass\n")
    assert "nothing may follow the [Result] tag" in e.message


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "r.txt"
    head = "\n".join(mighty_text().split("\n")[:3]).encode()
    path.write_bytes(head + b"\n\xff\xfe\n")
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert info.value.line == 4 and "not UTF-8" in info.value.message


def test_record_from_an_illegal_log_says_which_action() -> None:
    with pytest.raises(RecordError) as info:
        record_from_log("wizard", ["A", "B", "C"], {"rounds": [1]}, 1, [(0, {"type": "bid", "n": 7})])
    assert info.value.line == 0
    assert str(info.value).startswith("action 1: seat 1 (A) cannot `bid 7`")


def test_record_fields_and_tags_round_trip() -> None:
    rec = record_from_log(
        "wizard",
        ['Ann "the" \\ hand', "B;ob", ""],
        {"rounds": "1-2", "bid_mode": "open", "stake_per_point": 0, "first_dealer": None},
        -42,
        [],
        date="2026-12-01",
        tags={"Table": "12", "Server": 'Guild "x"'},
    )
    text = format_record(rec)
    assert '[Players "Ann \\"the\\" \\\\ hand; B,ob; Seat 3"]' in text
    assert '[Option "rounds=1-2"]' in text and '[Option "first_dealer=null"]' in text
    back = parse_record(text)
    assert back.players == ['Ann "the" \\ hand', "B,ob", "Seat 3"]
    assert back.options == rec.options and back.seed == -42 and back.tags == rec.tags
    assert back.result is None and back.actions == []
    assert isinstance(back, Record)


NOTATION = [
    ("wizard", "bid 2", {"type": "bid", "n": 2}),
    ("wizard", "play 10H", {"type": "play", "card": "10H"}),
    ("wizard", "play WIZ3", {"type": "play", "card": "WIZ3"}),
    ("wizard", "trump H", {"type": "trump", "suit": "H"}),
    ("wizard", "undo", {"type": "undo"}),
    ("mighty", "bid 14 S", {"type": "bid", "n": 14, "trump": "S"}),
    ("mighty", "bid 16 NT", {"type": "bid", "n": 16, "trump": "NT"}),
    ("mighty", "pass", {"type": "pass"}),
    ("mighty", "misdeal", {"type": "misdeal"}),
    ("mighty", "discard 4S 7H 9C", {"type": "discard", "cards": ["4S", "7H", "9C"]}),
    ("mighty", "contract 17 S", {"type": "contract", "n": 17, "trump": "S"}),
    ("mighty", "call AS", {"type": "call", "kind": "card", "card": "AS"}),
    ("mighty", "call first-trick", {"type": "call", "kind": "first_trick"}),
    ("mighty", "call none", {"type": "call", "kind": "none"}),
    ("mighty", "play QS", {"type": "play", "card": "QS"}),
    ("mighty", "play JK H", {"type": "play", "card": "JK", "suit": "H"}),
    ("mighty", "play 3C call", {"type": "play", "card": "3C", "joker_call": True}),
    ("mediatore", "pass", {"type": "pass"}),
    ("mediatore", "bid solissimo", {"type": "bid", "contract": "solissimo"}),
    ("mediatore", "call 3D", {"type": "call", "card": "3D"}),
    ("mediatore", "discard AD 2C 4S 7B", {"type": "discard", "discard": ["AD", "2C", "4S", "7B"]}),
    (
        "mediatore",
        "discard AD 2C 4S 7B give KD",
        {"type": "discard", "discard": ["AD", "2C", "4S", "7B"], "give": "KD"},
    ),
    (
        "mediatore",
        "discard AD 2C 4S 7B give [KD]",
        {"type": "discard", "discard": ["AD", "2C", "4S", "7B"], "give": ["KD"]},
    ),
    ("mediatore", "play 3D", {"type": "play", "card": "3D"}),
    ("mediatore", "play 3D knock", {"type": "play", "card": "3D", "signal": "knock"}),
    ("minchiate", "play T17", {"type": "play", "card": "T17"}),
    ("minchiate", "play MATTO", {"type": "play", "card": "MATTO"}),
    ("minchiate", "discard Co2", {"type": "discard", "cards": "Co2"}),
    ("minchiate", "discard [Co2]", {"type": "discard", "cards": ["Co2"]}),
    ("minchiate", "discard Co2 Sw3", {"type": "discard", "cards": ["Co2", "Sw3"]}),
    ("minchiate", "declare 0 2", {"type": "declare", "combos": [0, 2]}),
    ("minchiate", "declare none", {"type": "declare", "combos": []}),
    ("minchiate", "declare all", {"type": "declare", "combos": "all"}),
    ("minchiate", "cut 40", {"type": "cut", "k": 40}),
]


@pytest.mark.parametrize(("game", "text", "action"), NOTATION)
def test_documented_notation(game: str, text: str, action: dict) -> None:
    assert parse_action(game, text) == action
    assert format_action(game, action) == text
    doc = (Path(__file__).resolve().parents[2] / "docs" / "hand-records.md").read_text(encoding="utf-8")
    assert f"`{text}`" in doc, f"docs/hand-records.md does not show `{text}`"


def test_shapes_without_notation_are_json() -> None:
    odd = {"type": "play", "card": "3C", "joker_call": 1}  # == True for Python, not for the engine
    text = format_action("mighty", odd)
    assert text.startswith("{")
    back = parse_action("mighty", text)
    assert back == odd and type(back["joker_call"]) is int


@pytest.mark.parametrize(
    ("game", "text", "expected"),
    [
        ("wizard", "bid ٣", "a bid must be a whole number"),
        ("wizard", "trump X", "the trump suit must be one of S, H, D, C"),
        ("mighty", "call", "expected `call CARD"),
        ("mighty", "play JK X", "the suit the Joker calls must be one of"),
        ("mediatore", "bid grande", "the contract must be one of"),
        ("minchiate", "discard []", "the brackets are empty"),
        ("minchiate", "declare x", "a combination number must be a whole number"),
        ("wizard", '{"type": 3}', 'a JSON action must be an object with a "type" string'),
        ("wizard", '{"type": "bid", "n": NaN}', "NaN is not allowed"),
    ],
)
def test_notation_errors(game: str, text: str, expected: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(game, text)
    assert expected in str(info.value)

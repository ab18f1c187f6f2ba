"""Minchiate card tables and combinations (docs/rules/minchiate.md §2, §4, checklist §13.1)."""

from __future__ import annotations

import pytest

from bot.engine.cards import MINCHIATE_97
from bot.games.minchiate.rules import (
    COUNTING,
    DISCARDABLE,
    POINTS,
    ROBBABLE,
    STRENGTH,
    combo_value,
    combos_total,
    combos_with_values,
    find_combos,
    matto_payment_key,
)


def test_pack_checklist_13_1() -> None:
    assert len(MINCHIATE_97) == 97 == len(set(MINCHIATE_97))
    assert len(COUNTING) == 25
    assert sum(POINTS.values()) == 142
    assert len(ROBBABLE) == 33
    assert len(DISCARDABLE) == 71
    assert "T29" in ROBBABLE and "T29" not in DISCARDABLE and POINTS["T29"] == 0
    assert {f"T{n}" for n in range(21, 28)} <= DISCARDABLE & ROBBABLE
    assert "T20" in ROBBABLE and "T19" not in ROBBABLE and "T19" in DISCARDABLE


@pytest.mark.parametrize(
    ("card", "pts"),
    [
        ("T40", 10),
        ("T36", 10),
        ("T35", 5),
        ("T30", 5),
        ("T29", 0),
        ("T28", 5),
        ("T27", 0),
        ("T20", 5),
        ("T13", 5),
        ("T10", 5),
        ("T1", 5),
        ("T2", 3),
        ("T5", 3),
        ("T6", 0),
        ("MATTO", 5),
        ("CoK", 5),
        ("BaK", 5),
        ("CuQ", 0),
        ("Sw10", 0),
        ("Co1", 0),
    ],
)
def test_card_points(card: str, pts: int) -> None:
    assert POINTS[card] == pts


def test_rankings_round_and_long_suits() -> None:
    for suit in ("Co", "Cu"):
        order = [suit + r for r in ("K", "Q", "C", "F", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
        assert [STRENGTH[c] for c in order] == sorted((STRENGTH[c] for c in order), reverse=True)
    for suit in ("Sw", "Ba"):
        order = [suit + r for r in ("K", "Q", "C", "F", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1")]
        assert [STRENGTH[c] for c in order] == sorted((STRENGTH[c] for c in order), reverse=True)
    assert STRENGTH["T1"] > STRENGTH["CoK"]
    assert STRENGTH["T40"] > STRENGTH["T39"]


def _types(cards: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    return find_combos(cards)


def test_run_low_window_full_is_17() -> None:
    cards = ["T1", "T2", "T3", "T4", "T5", "T6"]
    combos = _types(cards)
    assert combos == [("RUN", ("T1", "T2", "T3", "T4", "T5"))]  # never crosses out of 1-5
    assert combos_total(cards) == 17


def test_run_high_window_full_is_90() -> None:
    cards = [f"T{n}" for n in range(27, 41)]
    combos = _types(cards)
    assert combos == [("RUN", tuple(f"T{n}" for n in range(28, 41)))]
    assert combos_total(cards) == 90


def test_runs_merge_and_split() -> None:
    assert _types(["T28", "T29", "T30", "T31", "T32"]) == [("RUN", ("T28", "T29", "T30", "T31", "T32"))]
    two = _types(["T28", "T29", "T30", "T32", "T33", "T34"])
    assert two == [("RUN", ("T28", "T29", "T30")), ("RUN", ("T32", "T33", "T34"))]


def test_runs_never_cross_windows_and_need_three() -> None:
    assert _types(["T4", "T5", "T6"]) == []
    assert _types(["T27", "T28", "T29"]) == []
    assert _types(["T3", "T4"]) == []
    assert _types(["T6", "T7", "T8", "T9"]) == []


def test_t29_worth_five_in_a_combination() -> None:
    assert combos_total(["T28", "T29", "T30"]) == 15
    assert combo_value(("T29", "T30", "T31"), False) == 15


@pytest.mark.parametrize(
    ("cards", "kind", "value"),
    [
        (["T1", "T40", "MATTO"], "UTM", 20),
        (["T1", "T13", "T28"], "UTV", 15),
        (["T10", "T20", "T30"], "DEC", 15),
        (["T20", "T30", "T40"], "DEC", 20),
        (["CoK", "CuK", "SwK"], "KINGS", 15),
        (["CoK", "CuK", "SwK", "BaK"], "KINGS", 20),
    ],
)
def test_reference_values(cards: list[str], kind: str, value: int) -> None:
    combos = combos_with_values(cards)
    assert [c["type"] for c in combos] == [kind]
    assert combos[0]["value"] == value


def test_four_tens_are_one_combination_worth_25() -> None:
    combos = combos_with_values(["T10", "T20", "T30", "T40"])
    assert combos == [{"type": "DEC", "cards": ["T10", "T20", "T30", "T40"], "value": 25}]


def test_incomplete_tens_are_not_combinations() -> None:
    assert _types(["T10", "T20", "T40"]) == []
    assert _types(["T10", "T30", "T40"]) == []
    assert _types(["CoK", "CuK"]) == []


def test_matto_bonus_on_every_other_combination() -> None:
    cards = ["T1", "T2", "T3", "T40", "MATTO", "T13", "T28"]
    combos = combos_with_values(cards)
    by_type = {c["type"]: c["value"] for c in combos}
    # RUN 1-3 = 11 + 5; UTM = 20 (no bonus, M-10); UTV = 15 + 5
    assert by_type == {"RUN": 16, "UTM": 20, "UTV": 20}
    assert combos_total(cards) == 56


def test_one_card_in_several_combinations() -> None:
    cards = ["T1", "T2", "T3", "T13", "T28", "T29", "T30", "T40", "MATTO", "T20", "T10"]
    types = [t for t, _ in find_combos(cards)]
    assert types == ["RUN", "RUN", "UTM", "UTV", "DEC"]


def test_matto_payment_prefers_worthless_pip() -> None:
    pile = ["T29", "T7", "CoK", "Co10", "Co9", "Sw1", "CuF"]
    assert min(pile, key=matto_payment_key) == "Co10"  # Coins first, weakest (10 is lowest in Coins)
    assert min(["T29", "T7"], key=matto_payment_key) == "T7"
    assert min(["T29", "CoK"], key=matto_payment_key) == "T29"

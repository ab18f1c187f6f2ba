"""Wizard computer players (legal, fast, sensible, better than random) and renderers (limits, privacy)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.games.wizard.ai  # noqa: F401  (registers the agents)
from bot.ai.base import RandomAgent
from bot.engine.protocol import Settlement
from bot.games.registry import agent_levels, make_agent
from bot.games.wizard import render as render
from bot.games.wizard.engine import WizardGame, _set_hands_for_test
from bot.render.base import MAX_ROWS, MAX_SELECT_OPTIONS, Panel
from bot.render.cards import wizard_label

NAMES = ["Alice", "Bob", "Carla", "Dmitri", "Eve", "Fumiko"]
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"bid_restriction": True},
    {"bid_mode": "simultaneous", "first_round_blind": True},
    {"bid_mode": "secret", "wizard_turned": "no_trump"},
    {"rounds": [1, 2, 3, 8], "stake_per_point": 2, "first_round_blind": True, "bid_restriction": True},
]


def setup(hands_in_order: list[list[str]], trump: str | None, seed: int = 0) -> tuple[WizardGame, int]:
    n, r = len(hands_in_order), len(hands_in_order[0])
    g = WizardGame(n, {"rounds": [r]}, seed)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "S"})
    lead = (g.public_view()["dealer"] + 1) % n
    hands: list[list[str]] = [[] for _ in range(n)]
    for i, h in enumerate(hands_in_order):
        hands[(lead + i) % n] = list(h)
    _set_hands_for_test(g, hands, trump)
    return g, lead


# -- computer players ------------------------------------------------------------------------------------------


def test_levels_registered() -> None:
    assert set(agent_levels("wizard")) >= {"normal", "easy"}
    assert make_agent("wizard", "normal").level == "normal"
    assert make_agent("wizard", "easy").level == "easy"


@pytest.mark.parametrize("opts", OPTION_SETS)
@pytest.mark.parametrize("n", [3, 4, 6])
def test_agents_play_legal_full_games(opts: dict[str, Any], n: int) -> None:
    agents = [make_agent("wizard", "normal" if s % 2 == 0 else "easy") for s in range(n)]
    g = WizardGame(n, opts, 1000 + n)
    rng = random.Random(n)
    times: list[float] = []
    while not g.is_over:
        seat = g.to_move()[0]
        t0 = time.perf_counter()
        a = agents[seat].choose(g, seat, rng)
        times.append(time.perf_counter() - t0)
        assert a in g.legal_actions(seat) and a["type"] != "undo"
        g.apply(seat, a)
    assert g.result() is not None
    assert sum(times) / len(times) < 0.005


def test_agent_never_reads_hidden_state() -> None:
    """The same view gives the same decision whatever the hidden cards are."""
    g = WizardGame(4, {"rounds": [6]}, 3)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "H"})
    ag = make_agent("wizard", "normal")
    seat = g.to_move()[0]
    first = ag.choose(g, seat, random.Random(0))
    for i in range(5):
        d = g.determinize(seat, random.Random(i))
        assert ag.choose(d, seat, random.Random(0)) == first


def _match(n: int, first: Any, rest: Any, games: int, opts: dict[str, Any]) -> float:
    """Average score of ``first`` minus the average of the others, rotating seats."""
    diff = 0.0
    for i in range(games):
        g = WizardGame(n, opts, 500 + i)
        rng = random.Random(i)
        hero = i % n
        while not g.is_over:
            s = g.to_move()[0]
            g.apply(s, (first if s == hero else rest).choose(g, s, rng))
        tot = g.result().totals
        diff += tot[hero] - sum(t for s, t in enumerate(tot) if s != hero) / (n - 1)
    return diff / games


def test_normal_beats_random() -> None:
    assert _match(4, make_agent("wizard", "normal"), RandomAgent(), 8, {"rounds": "1-10"}) > 100


def test_easy_beats_random() -> None:
    assert _match(4, make_agent("wizard", "easy"), RandomAgent(), 8, {"rounds": "1-10"}) > 0


def test_normal_not_worse_than_easy() -> None:
    assert _match(4, make_agent("wizard", "normal"), make_agent("wizard", "easy"), 12, {}) > 0


def test_ai_trump_choice_after_turned_wizard() -> None:
    for seed in range(400):
        g = WizardGame(4, {"rounds": [6]}, seed)
        if g.phase == "trump":
            break
    else:
        raise AssertionError("no seed with a turned Wizard")
    d = g.to_move()[0]
    g._hands[d] = ["2H", "5H", "9H", "QH", "AS", "3C"]
    assert make_agent("wizard", "normal").choose(g, d, random.Random(0)) == {"type": "trump", "suit": "H"}
    assert make_agent("wizard", "easy").choose(g, d, random.Random(0)) == {"type": "trump", "suit": "H"}


def _bid_all(g: WizardGame, bids_in_order: list[int]) -> None:
    for b in bids_in_order:
        g.apply(g.to_move()[0], {"type": "bid", "n": b})


def test_ai_ducks_with_highest_losing_card() -> None:
    hands = [["10H", "2C", "3C", "4C"], ["KH", "5C", "6C", "7C"], ["QH", "8C", "9C", "10C"], ["AH", "9H", "2H", "KC"]]
    g, lead = setup(hands, "S")
    _bid_all(g, [1, 1, 1, 0])
    for c in ("10H", "KH", "QH"):
        g.apply(g.to_move()[0], {"type": "play", "card": c})
    me = (lead + 3) % 4
    assert make_agent("wizard", "normal").choose(g, me, random.Random(0)) == {"type": "play", "card": "9H"}


def test_ai_wins_cheaply_when_it_needs_a_trick() -> None:
    hands = [["5H", "2C", "3C", "4C"], ["7H", "5C", "6C", "7C"], ["9H", "8C", "9C", "10C"], ["10H", "AH", "WIZ1", "2D"]]
    g, lead = setup(hands, "S")
    _bid_all(g, [0, 0, 0, 2])
    for c in ("5H", "7H", "9H"):
        g.apply(g.to_move()[0], {"type": "play", "card": c})
    me = (lead + 3) % 4
    assert make_agent("wizard", "normal").choose(g, me, random.Random(0)) == {"type": "play", "card": "10H"}


def test_ai_uses_wizard_when_it_must_win() -> None:
    hands = [["AS"], ["KS"], ["QS"], ["WIZ2"]]
    g, lead = setup(hands, "S")
    _bid_all(g, [0, 0, 0, 1])
    for c in ("AS", "KS", "QS"):
        g.apply(g.to_move()[0], {"type": "play", "card": c})
    me = (lead + 3) % 4
    assert make_agent("wizard", "normal").choose(g, me, random.Random(0))["card"] == "WIZ2"


def test_ai_bids_strong_hand_high_and_weak_hand_low() -> None:
    strong = ["WIZ1", "WIZ2", "AS", "KS", "AH"]
    weak = ["JES1", "2H", "3C", "4D", "2D"]
    hands = [strong, weak, ["5C", "6C", "7C", "8C", "9C"], ["5D", "6D", "7D", "8D", "9D"]]
    g, _ = setup(hands, "S")
    ag = make_agent("wizard", "normal")
    b_strong = ag.choose(g, g.to_move()[0], random.Random(0))["n"]
    g.apply(g.to_move()[0], {"type": "bid", "n": b_strong})
    b_weak = ag.choose(g, g.to_move()[0], random.Random(0))["n"]
    assert b_strong >= 4 and b_weak == 0


def test_ai_respects_bid_restriction() -> None:
    for seed in range(30):
        g = WizardGame(4, {"rounds": [5], "bid_restriction": True}, seed)
        ag = make_agent("wizard", "normal")
        while g.phase != "play":
            s = g.to_move()[0]
            a = ag.choose(g, s, random.Random(seed))
            assert g.is_legal(s, a)
            g.apply(s, a)
        assert sum(g.public_view()["bids"]) != 5


def test_blind_round_ai_bid_uses_the_visible_cards() -> None:
    g = WizardGame(3, {"first_round_blind": True, "rounds": [1]}, 0)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "S"})
    lead = g.to_move()[0]
    # the others hold the two top cards: my unknown card almost surely loses
    g._hands[(lead + 1) % 3] = ["WIZ1"]
    g._hands[(lead + 2) % 3] = ["WIZ2"]
    assert make_agent("wizard", "normal").choose(g, lead, random.Random(0)) == {"type": "bid", "n": 0}


# -- rendering ---------------------------------------------------------------------------------------------------


def check_limits(p: Panel) -> None:
    assert len(p.title) <= 256
    assert len(p.description) <= 4096
    assert len(p.sections) <= 25
    assert len(p.footer) <= 2048
    total = len(p.title) + len(p.description) + len(p.footer)
    for s in p.sections:
        assert 0 < len(s.name) <= 256 and 0 < len(s.value) <= 1024
        total += len(s.name) + len(s.value)
    assert total <= 6000
    rows = 0
    for c in p.controls:
        if c.kind == "buttons":
            assert 0 < len(c.choices) <= 25
            rows += -(-len(c.choices) // 5)
        elif c.kind == "select":
            assert 0 < len(c.choices) <= MAX_SELECT_OPTIONS
            assert len(c.placeholder) <= 150
            rows += 1
        else:
            rows += len(c.fields) + 1
        for ch in c.choices:
            assert 0 < len(ch.label) <= 80
            assert ch.description is None or len(ch.description) <= 100
    assert rows <= MAX_ROWS


def hidden_labels(g: WizardGame, exclude_seat: int | None) -> set[str]:
    """Labels of suit cards still hidden from the viewer (Wizards/Jesters share one label, so they cannot
    identify a hidden card)."""
    out = set()
    blind = g.public_view()["blind_round"]
    for s, h in enumerate(g._hands):
        if s == exclude_seat and not blind:
            continue
        if blind and exclude_seat is not None and s != exclude_seat:
            continue  # the blind round shows the others' cards by design
        out.update(wizard_label(c) for c in h if not c.startswith(("WIZ", "JES")))
    pub = g.public_view()
    if pub["last_trick"] is None and pub["round_log"]:
        # the previous round's final trick is public history; its cards may be dealt again now
        out -= {wizard_label(c) for _, c in pub["round_log"][-1]["last_trick"]["plays"]}
    return out


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_panels_within_limits_and_private(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    opts = dict(rng.choice(OPTION_SETS))
    if "rounds" not in opts:
        sizes = sorted(rng.sample(range(1, 60 // n + 1), rng.randint(1, 3)))
        opts["rounds"] = sorted({1, *sizes}) if rng.random() < 0.5 else sizes
    g = WizardGame(n, opts, seed)
    names = NAMES[:n]
    steps = 0
    while True:
        if steps % 3 == 0 or g.is_over:
            pub = render.public_panel(g.public_view(), names)
            check_limits(pub)
            text = pub.text()
            assert not {lb for lb in hidden_labels(g, None) if lb in text}, "public panel leaks"
            for s in range(n):
                priv = render.private_panel(g.view(s), names)
                check_limits(priv)
                ptext = priv.text()
                assert not {lb for lb in hidden_labels(g, s) if lb in ptext}, f"DM of {s} leaks"
        if g.is_over:
            break
        s = rng.choice(g.to_move())
        acts = [a for a in g.legal_actions(s) if a["type"] != "undo"]
        g.apply(s, rng.choice(acts))
        steps += 1
    (st_,) = g.settlements()
    txt = render.settlement_text(st_, names)
    assert 0 < len(txt) <= 2000 and names[0] in txt


def test_private_panel_controls_per_phase() -> None:
    g = WizardGame(3, {"rounds": [20]}, 4)  # 21 possible bids -> one select menu
    names = NAMES[:3]
    if g.phase == "trump":
        p = render.private_panel(g.view(g.to_move()[0]), names)
        assert [c.kind for c in p.controls] == ["buttons"] and len(p.controls[0].choices) == 4
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    s = g.to_move()[0]
    p = render.private_panel(g.view(s), names)
    assert [c.kind for c in p.controls] == ["select"] and len(p.controls[0].choices) == 21
    g.apply(s, {"type": "bid", "n": 3})
    p = render.private_panel(g.view(s), names)
    assert [c.kind for c in p.controls] == ["buttons"]
    assert p.controls[0].choices[0].action == {"type": "undo"}
    for _ in range(2):
        g.apply(g.to_move()[0], {"type": "bid", "n": 3})
    s = g.to_move()[0]
    p = render.private_panel(g.view(s), names)
    acts = g.legal_actions(s)
    assert sum(len(c.choices) for c in p.controls) == len(acts)
    assert all(c.kind == ("buttons" if len(acts) <= 20 else "select") for c in p.controls)
    check_limits(p)


def test_blind_panel_hides_own_card() -> None:
    g = WizardGame(4, {"first_round_blind": True, "rounds": [1]}, 7)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    for _ in range(4):
        g.apply(g.to_move()[0], {"type": "bid", "n": 0})
    s = g.to_move()[0]
    own = g._hands[s][0]
    p = render.private_panel(g.view(s), NAMES[:4])
    others = [wizard_label(g._hands[t][0]) for t in range(4) if t != s]
    assert all(o in p.text() for o in others)
    if not own.startswith(("WIZ", "JES")):
        assert wizard_label(own) not in p.text()
    (ctl,) = p.controls
    assert ctl.choices[0].label == "Play your hidden card"
    assert ctl.choices[0].action == {"type": "play", "card": own}


def test_public_panel_shows_hidden_bids_as_markers() -> None:
    g = WizardGame(4, {"bid_mode": "secret", "rounds": [2]}, 1)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    g.apply(1, {"type": "bid", "n": 2})
    text = render.public_panel(g.public_view(), NAMES[:4]).text()
    assert "bid ✓" in text and "bid 2" not in text
    assert "bid 2" in render.private_panel(g.view(1), NAMES[:4]).text().replace("Your bid: **2**", "bid 2")


def test_settlement_text_and_rules() -> None:
    s = Settlement(
        0,
        {"point": (120, -30, 50), "stake": (360, -390, 30)},
        {"ranks": [1, 3, 2], "rounds_played": 20, "exact_bids": [9, 3, 6]},
    )
    txt = render.settlement_text(s, NAMES[:3])
    assert txt.index("Alice") < txt.index("Carla") < txt.index("Bob")
    assert "+360" in txt and "9/20" in txt
    rules = render.rules_text()
    assert 200 < len(rules) <= 3500 and "Jester" in rules

"""Mighty computer players and renderers."""

from __future__ import annotations

import random
import time
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai.base import RandomAgent
from bot.games.mighty.ai import EasyMightyAgent, MightyAgent
from bot.games.mighty.engine import MightyGame, _set_hands_for_test
from bot.games.mighty.render import private_panel, public_panel, rules_text, settlement_text
from bot.games.registry import agent_levels, make_agent
from bot.render.base import MAX_SELECT_OPTIONS, Control

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def _play(g: MightyGame, agents: list[Any], rng: random.Random, max_hands: int) -> None:
    while not g.is_over and len(g.settlements()) < max_hands:
        (s,) = g.to_move()
        a = agents[s].choose(g, s, rng)
        if a["type"] == "discard":
            assert a in g.legal_actions(s)
        else:
            assert a in g.legal_actions(s), a
        g.apply(s, a)


def test_registry() -> None:
    assert set(agent_levels("mighty")) >= {"normal", "easy"}
    assert isinstance(make_agent("mighty", "normal"), MightyAgent)
    assert isinstance(make_agent("mighty", "easy"), EasyMightyAgent)


def test_ai_full_games_legal_and_fast() -> None:
    ag = MightyAgent()
    decisions = 0
    t = time.perf_counter()
    for seed in range(6):
        g = MightyGame(5, {"hands": 2}, seed)
        rng = random.Random(seed)
        while not g.is_over:
            (s,) = g.to_move()
            a = ag.choose(g, s, rng)
            assert a in g.legal_actions(s)
            g.apply(s, a)
            decisions += 1
    assert (time.perf_counter() - t) / decisions < 0.005


def test_easy_ai_legal() -> None:
    ag = EasyMightyAgent()
    g = MightyGame(5, {"hands": 2}, 9)
    _play(g, [ag] * 5, random.Random(9), 2)
    assert g.is_over


def test_ai_beats_random_on_average() -> None:
    total = 0
    for seed in range(12):
        g = MightyGame(5, {"hands": 2}, 100 + seed)
        agents: list[Any] = [MightyAgent()] + [RandomAgent()] * 4
        _play(g, agents, random.Random(seed), 2)
        r = g.result()
        assert r is not None
        total += r.totals[0]
    assert total > 0


def _deal(hands: list[str], kitty: str, seed: int = 0) -> MightyGame:
    g = MightyGame(5, None, seed)
    _set_hands_for_test(g, [h.split() for h in hands], kitty.split())
    return g


FULL = [
    "AS JK AH KH QH JH TH 9H 2D 3D",
    "KS QS JS TS 9S 8S 7S 6S 5S 4S",
    "AD KD QD JD TD 9D 8D 7D 6D 5D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C",
    "8H 7H 6H 5H 4H 3H 2H 2S 3S 4D",
]


def test_ai_bids_strong_hand_discards_and_calls_sensibly() -> None:
    g = _deal(FULL, "4C 3C 2C", seed=0)
    ag = MightyAgent()
    rng = random.Random(0)
    # everybody else passes; seat 0 (Mighty, Joker, 6 top hearts) must bid hearts
    while g.phase == "auction":
        (s,) = g.to_move()
        if s == 0:
            a = ag.choose(g, 0, rng)
            assert a["type"] == "bid" and a["trump"] == "H"
        else:
            a = {"type": "pass"}
        g.apply(s, a)
    a = ag.choose(g, 0, rng)
    assert a["type"] == "discard" and not {"AS", "JK", "AH", "KH"} & set(a["cards"])
    g.apply(0, a)
    a = ag.choose(g, 0, rng)
    assert a["type"] == "contract"
    g.apply(0, a)
    a = ag.choose(g, 0, rng)
    # holds Mighty and Joker and AKQJ of trump: calls a high card it lacks, never its own
    assert a["type"] == "call"
    if a["kind"] == "card":
        assert a["card"] not in g.view(0)["hand"] and a["card"] not in g.view(0)["discards"]


def test_ai_calls_mighty_when_missing() -> None:
    hands = list(FULL)
    hands[0], hands[4] = "8H 7H AH KH QH JH TH 9H 2D 3D", "AS JK 6H 5H 4H 3H 2H 2S 3S 4D"
    g = _deal(hands, "4C 3C 2C")
    ag = MightyAgent()
    while g.phase == "auction":
        (s,) = g.to_move()
        g.apply(s, {"type": "bid", "n": 13, "trump": "H"} if s == 0 else {"type": "pass"})
    g.apply(0, ag.choose(g, 0, random.Random(0)))
    g.apply(0, ag.choose(g, 0, random.Random(0)))
    assert ag.choose(g, 0, random.Random(0)) == {"type": "call", "kind": "card", "card": "AS"}


def test_ai_joker_call_as_defender() -> None:
    g = MightyGame(5, None, 0)
    hands = [h.split() for h in FULL]
    _set_hands_for_test(g, hands, ["4C", "3C", "2C"])
    while g.phase == "auction":
        (s,) = g.to_move()
        g.apply(s, {"type": "bid", "n": 13, "trump": "H"} if s == 0 else {"type": "pass"})
    g.apply(0, {"type": "discard", "cards": ["2D", "3D", "4C"]})
    g.apply(0, {"type": "contract", "n": 13, "trump": "H"})
    g.apply(0, {"type": "call", "kind": "none"})
    # put seat 3 on lead in trick 3 with the Ripper, the Joker still out
    g._trick_no = 2
    g._leader = 3
    g._hands[3] = ["3C", "5C"]
    a = MightyAgent().choose(g, 3, random.Random(0))
    assert a == {"type": "play", "card": "3C", "joker_call": True}


def _rows(controls: list[Control]) -> int:
    n = 0
    for c in controls:
        if c.kind == "buttons":
            n += -(-len(c.choices) // 5)
        elif c.kind == "select":
            n += 1
        else:
            n += len(c.fields) + 1
    return n


def _check_panel(p: Any) -> None:
    assert len(p.title) <= 256 and len(p.description) <= 4096 and len(p.sections) <= 25
    assert len(p.footer) <= 2048
    for s in p.sections:
        assert 0 < len(s.value) <= 1024 and len(s.name) <= 256
    assert _rows(p.controls) <= 5
    for c in p.controls:
        if c.kind == "select":
            assert len(c.choices) <= MAX_SELECT_OPTIONS
        if c.kind == "buttons":
            assert len(c.choices) <= 25
        for ch in c.choices:
            assert 0 < len(ch.label) <= 80
        for f in c.fields:
            assert len(f.options) <= MAX_SELECT_OPTIONS and all(len(lbl) <= 80 for lbl, _ in f.options)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_panels_within_limits_and_controls_exact(seed: int, face_up: bool) -> None:
    g = MightyGame(5, {"hands": 2, "kitty_face_up": face_up, "show_history": not face_up}, seed)
    rng = random.Random(seed)
    agents: list[Any] = [MightyAgent(), RandomAgent(), MightyAgent(), RandomAgent(), EasyMightyAgent()]
    while not g.is_over:
        (s,) = g.to_move()
        _check_panel(public_panel(g.public_view(), NAMES))
        for seat in range(5):
            v = g.view(seat)
            p = private_panel(v, NAMES)
            _check_panel(p)
            if seat == s:
                legal = g.legal_actions(s)
                if v["prompt"]["kind"] == "pick":
                    acts = [ch.action for c in p.controls for ch in c.choices]
                    assert sorted(map(str, acts)) == sorted(map(str, legal))
                else:
                    (combo,) = p.controls
                    assert combo.kind == "combo" and combo.base_action == {"type": "discard"}
                    assert [v for _, v in combo.fields[0].options] == v["hand"] and combo.fields[0].count == 3
            else:
                assert p.controls == []
        g.apply(s, agents[s].choose(g, s, rng))
    for st_ in g.settlements():
        txt = settlement_text(st_, NAMES)
        assert 0 < len(txt) <= 4096 and "Payments" in txt
    _check_panel(public_panel(g.public_view(), NAMES))
    for seat in range(5):  # the end, not "waiting for nobody"
        text = private_panel(g.view(seat), NAMES).text()
        assert "Game over" in text and "Waiting" not in text


def test_private_panel_texts() -> None:
    g = MightyGame(5, None, 0)
    _set_hands_for_test(g, [h.split() for h in FULL], ["4C", "3C", "2C"])
    while g.phase == "auction":
        (s,) = g.to_move()
        g.apply(s, {"type": "bid", "n": 13, "trump": "H"} if s == 0 else {"type": "pass"})
    g.apply(0, {"type": "discard", "cards": ["2D", "3D", "4C"]})
    g.apply(0, {"type": "contract", "n": 13, "trump": "H"})
    g.apply(0, {"type": "call", "kind": "card", "card": "AC"})
    friend = private_panel(g.view(3), NAMES).text()
    assert "You are the friend" in friend
    for s in (1, 2, 4):
        assert "friend**" not in private_panel(g.view(s), NAMES).text()
    pub = public_panel(g.public_view(), NAMES).text()
    assert "13 ♥" in pub and "A♣" in pub and "Dee" not in pub.split("Friend:")[1].split("\n")[0]
    g.apply(0, {"type": "play", "card": "AS"})
    assert "A♠" in public_panel(g.public_view(), NAMES).text()


def test_rules_text_short() -> None:
    t = rules_text()
    assert 200 < len(t) <= 3500 and "Mighty" in t and "Ripper" in t

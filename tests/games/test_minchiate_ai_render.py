"""Minchiate computer players and renderers."""

from __future__ import annotations

import math
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai.base import RandomAgent
from bot.engine.cards import MINCHIATE_97
from bot.games.minchiate import render as R
from bot.games.minchiate.ai import MinchiateEasy, MinchiateNormal
from bot.games.minchiate.engine import MinchiateGame
from bot.games.registry import agent_levels, make_agent
from bot.render.base import MAX_ROWS, MAX_SELECT_OPTIONS, Panel
from bot.render.cards import minchiate_label

from .test_minchiate_deal import crafted
from .test_minchiate_props import public_cards

NAMES = ["Ada", "Bruno", "Chiara", "Dario"]


def test_agents_registered() -> None:
    assert {"normal", "easy"} <= set(agent_levels("minchiate"))
    assert isinstance(make_agent("minchiate", "normal"), MinchiateNormal)
    assert isinstance(make_agent("minchiate", "easy"), MinchiateEasy)


def _play(seed: int, agents: list) -> MinchiateGame:
    g = MinchiateGame(4, {"manual_cut": seed % 3 == 0}, seed)
    r = random.Random(seed)
    while not g.is_over:
        s = g.to_move()[0]
        a = agents[s].choose(g, s, r)
        assert g.is_legal(s, a)
        g.apply(s, a)
    return g


def test_normal_agent_plays_legally_and_declares_all() -> None:
    for seed in range(12):
        g = MinchiateGame(4, None, seed)
        r = random.Random(seed)
        ag = MinchiateNormal()
        while not g.is_over:
            s = g.to_move()[0]
            a = ag.choose(g, s, r)
            assert a in g.legal_actions(s)
            if a["type"] == "declare":
                assert a["combos"] == list(range(len(g.view(s)["combos"])))
            if a["type"] == "discard":
                hand = g.view(s)["hand"]
                assert a["cards"][0] in hand
            g.apply(s, a)


def test_normal_beats_random() -> None:
    total = 0
    for seed in range(60):
        normal_team = seed % 2
        agents = [MinchiateNormal() if s % 2 == normal_team else RandomAgent() for s in range(4)]
        g = _play(seed, agents)
        total += g.settlements()[0].amounts["resto"][normal_team]
    assert total > 0


def test_easy_agent_legal() -> None:
    _play(7, [MinchiateEasy() for _ in range(4)])


def test_ai_ruffs_an_opponents_king_and_uses_matto() -> None:
    ag = MinchiateNormal()
    # seat 0 leads CoK; seat 1 (B) is void in Coins with trumps: it ruffs with a trump
    g = MinchiateGame._for_test(
        [["CoK", "Co2", "Co7"], ["T6", "T8", "Sw2"], ["Co3", "Co4", "Co8"], ["Co5", "Co6", "Co9"]], dealer=3
    )
    g.apply(0, {"type": "play", "card": "CoK"})
    a = ag.choose(g, 1, random.Random(0))
    assert a["card"] in ("T6", "T8")
    # seat 1 must follow Swords with only a King; the opponents already won: the Matto saves the King
    g = MinchiateGame._for_test([["Sw5", "Co2"], ["SwK", "MATTO"], ["T30", "Co4"], ["Co5", "Co6"]], dealer=2)
    g.apply(3, {"type": "play", "card": "Co5"})
    g.apply(0, {"type": "play", "card": "Co2"})
    # (Co led by seat 3; seat 0 follows; seat 1 is void in Coins and has no trump: anything)
    a = ag.choose(g, 1, random.Random(0))
    assert a == {"type": "play", "card": "MATTO"}


def test_ai_smears_its_weakest_counting_card_and_leads_its_shortest_suit() -> None:
    ag = MinchiateNormal()
    # seat 0 leads T40, which nothing can beat: seat 2 follows its partner's sure trick with the weakest
    # counting trump (T2), not the 10-point T36 that can still win a trick of its own
    g = MinchiateGame._for_test([["T40", "Co2"], ["T6", "Co3"], ["T36", "T10", "T2", "Co4"], ["Co5", "Co6"]], dealer=3)
    g.apply(0, {"type": "play", "card": "T40"})
    g.apply(1, {"type": "play", "card": "T6"})
    assert ag.choose(g, 2, random.Random(0)) == {"type": "play", "card": "T2"}
    # leading, it opens its shortest plain suit with a worthless card (a void comes sooner: then it ruffs)
    g = MinchiateGame._for_test([["Co2", "Co3", "Co4", "Sw2", "T6"], ["Co5"], ["Co6"], ["Co7"]], dealer=3)
    assert ag.choose(g, 0, random.Random(0)) == {"type": "play", "card": "Sw2"}


def _rows(panel: Panel) -> int:
    rows = 0
    for c in panel.controls:
        if c.kind == "buttons":
            rows += math.ceil(len(c.choices) / 5)
        elif c.kind == "select":
            rows += 1
        else:
            rows += len(c.fields) + 1
    return rows


def check_panel(panel: Panel) -> None:
    assert len(panel.title) <= 256
    assert len(panel.description) <= 4096
    assert len(panel.sections) <= 25
    for s in panel.sections:
        assert len(s.name) <= 256 and 0 < len(s.value) <= 1024
    assert len(panel.footer) <= 2048
    assert _rows(panel) <= MAX_ROWS
    for c in panel.controls:
        if c.kind == "select":
            assert 0 < len(c.choices) <= MAX_SELECT_OPTIONS
        if c.kind == "buttons":
            assert len(c.choices) <= 25
        for ch in c.choices:
            assert 0 < len(ch.label) <= 80
            assert ch.description is None or len(ch.description) <= 100
        for f in c.fields:
            assert 0 < f.count <= len(f.options) <= MAX_SELECT_OPTIONS
    total = len(panel.title) + len(panel.description) + len(panel.footer)
    total += sum(len(s.name) + len(s.value) for s in panel.sections)
    assert total <= 6000


def _label_re(card: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9])" + re.escape(minchiate_label(card)) + r"(?!\d)")


LABEL_RE = {c: _label_re(c) for c in MINCHIATE_97}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([1, 4]), st.booleans())
def test_panels_within_limits_and_private(seed: int, deals: int, manual: bool) -> None:
    g = MinchiateGame(4, {"deals_per_game": deals, "manual_cut": manual, "stake_per_resto": 3}, seed)
    r = random.Random(seed)
    step = 0
    while not g.is_over:
        if step % 3 == 0:
            pub = R.public_panel(g.public_view(), NAMES)
            check_panel(pub)
            text = pub.text()
            known = public_cards(g)
            for c in MINCHIATE_97:
                if c not in known:
                    assert not LABEL_RE[c].search(text), (c, text)
            for s in range(4):
                check_panel(R.private_panel(g.view(s), NAMES))
        s = r.choice(g.to_move())
        g.apply(s, r.choice(g.legal_actions(s)))
        step += 1
    check_panel(R.public_panel(g.public_view(), NAMES))
    for st_ in g.settlements():
        text = R.settlement_text(st_, NAMES)
        assert 0 < len(text) <= 4096
        assert "Team" in text or "Tie" in text


def test_private_panel_controls_per_phase() -> None:
    g, _ = crafted()
    C, D = g.cutter, g.dealer
    p = R.private_panel(g.view(C), NAMES)
    assert sum(len(c.choices) for c in p.controls) == 90 and _rows(p) == 4
    g.apply(C, {"type": "cut", "k": 10})
    p = R.private_panel(g.view(C), NAMES)
    assert p.controls[0].kind == "combo" and p.controls[0].fields[0].count == 3
    assert p.controls[0].base_action == {"type": "discard"}
    g.apply(C, {"type": "discard", "cards": g.discardable(C)[:3]})
    g.apply(D, {"type": "discard", "cards": g.discardable(D)[:5]})
    d1 = (D + 1) % 4
    p = R.private_panel(g.view(d1), NAMES)
    first = p.controls[0].choices[0]
    assert first.label.startswith("Declare all") and first.action == g.legal_actions(d1)[0]
    for s in (d1, (D + 2) % 4, (D + 3) % 4, D):
        g.apply(s, g.legal_actions(s)[0])
    p = R.private_panel(g.view(d1), NAMES)
    assert p.controls and p.controls[0].kind == "select"
    assert {ch.action["card"] for ch in p.controls[0].choices} == {a["card"] for a in g.legal_actions(d1)}
    assert R.private_panel(g.view((d1 + 1) % 4), NAMES).controls == []


def test_rules_text_short() -> None:
    assert 0 < len(R.rules_text()) <= 3500

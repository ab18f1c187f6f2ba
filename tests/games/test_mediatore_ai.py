"""Mediatore computer players and renderer."""

from __future__ import annotations

import random
import time

from bot.ai.base import RandomAgent
from bot.games.mediatore import render as render
from bot.games.mediatore.ai import (
    EasyMediatoreAgent,
    MediatoreAgent,
    choose_bid,
    choose_call,
    choose_exchange,
)
from bot.games.mediatore.engine import MediatoreGame
from bot.games.registry import agent_levels, game_class, make_agent, renderer

NAMES = ["Ada", "Bruno", "Carla", "Dario"]
MIX = [
    ["3D", "2D", "AD", "7C", "6C", "5C", "3S", "AS", "4B"],
    ["KD", "ND", "JD", "3C", "2C", "AC", "2S", "KS", "NS"],
    ["7D", "6D", "5D", "KC", "NC", "JC", "JS", "7S", "6S"],
    ["4D", "4C", "5S", "4S", "3B", "2B", "AB", "KB", "NB"],
]
MIX_MONTE = ["JB", "7B", "6B", "5B"]


def make(options: dict | None = None) -> MediatoreGame:
    return MediatoreGame._for_test(MIX, MIX_MONTE, dealer=3, options=options)


def auction(g: MediatoreGame, contract: str, bidder: int = 0) -> None:
    seat = g.to_move()[0]
    while seat != bidder:
        g.apply(seat, {"type": "pass"})
        seat = g.to_move()[0]
    g.apply(bidder, {"type": "bid", "contract": contract})
    if contract != "arcisolissimo":
        for _ in range(3):
            g.apply(g.to_move()[0], {"type": "pass"})


def run(agents: list, seed: int, hands: int) -> tuple[MediatoreGame, float, int]:
    g = MediatoreGame(4, {"hands": hands}, seed)
    rng = random.Random(seed)
    spent, n = 0.0, 0
    while not g.is_over:
        (seat,) = g.to_move()
        t = time.perf_counter()
        act = agents[seat].choose(g, seat, rng)
        spent += time.perf_counter() - t
        n += 1
        prompt = g.view(seat)["prompt"]
        if prompt["kind"] == "pick":
            assert act in g.legal_actions(seat), act
        else:
            keys = {f["key"]: f for f in prompt["fields"]}
            assert set(act) == {"type", *keys} and act["type"] == prompt["type"]
            assert len(act["discard"]) == 4 and set(act["discard"]) <= set(keys["discard"]["from"])
        g.apply(seat, act)
    return g, spent, n


def test_registry_and_levels() -> None:
    assert game_class("mediatore") is MediatoreGame
    assert {"normal", "easy"} <= set(agent_levels("mediatore"))
    assert make_agent("mediatore", "normal").level == "normal"
    assert make_agent("mediatore", "easy").level == "easy"
    assert renderer("mediatore") is render


def test_normal_and_easy_play_legally_and_fast() -> None:
    total, n_dec = 0.0, 0
    for seed in range(12):
        agents = [MediatoreAgent(), EasyMediatoreAgent(), MediatoreAgent(), EasyMediatoreAgent()]
        g, spent, n = run(agents, seed, 3)
        assert len(g.settlements()) == 3
        total += spent
        n_dec += n
    assert total / n_dec < 0.005


def test_normal_beats_random() -> None:
    score = 0
    for seed in range(16):
        agents = [MediatoreAgent(), RandomAgent(), MediatoreAgent(), RandomAgent()]
        if seed % 2:
            agents = agents[1:] + agents[:1]
        g, _, _ = run(agents, 100 + seed, 2)
        res = g.result()
        assert res is not None
        normal = [s for s in range(4) if isinstance(agents[s], MediatoreAgent)]
        score += sum(res.totals[s] for s in normal)
    assert score > 0


def test_bidding_from_strength() -> None:
    assert choose_bid(["3D", "2D", "AD", "KD", "ND", "JD", "7D", "6D", "5D"]) == "arcisolissimo"
    assert choose_bid(["4D", "5D", "6C", "7C", "JS", "4S", "5B", "6B", "7B"]) is None
    assert choose_bid(["3D", "3C", "AD", "2S", "KS", "6B", "5B", "4C", "7D"]) == "chiamo"


def test_call_a_missing_three_else_a_two() -> None:
    hand = ["3D", "2D", "AD", "3C", "2C", "KS", "NS", "7S", "4B"]
    assert choose_call(hand, "chiamo") == "3S"  # a 3 it lacks, in its best suit
    all3 = ["3D", "3C", "3S", "3B", "2D", "AD", "KD", "7C", "4B"]
    assert choose_call(all3, "chiamo")[0] == "2"


def test_exchange_keeps_aces_and_voids_short_suits() -> None:
    hand = ["3D", "2D", "AD", "KD", "7D", "AC", "6C", "5S", "4S", "AS", "3B", "2B", "7B"]
    act = choose_exchange(hand, give=False)
    assert len(act["discard"]) == 4 and not any(c[0] == "A" for c in act["discard"])
    assert "6C" in act["discard"]
    act = choose_exchange([*hand, "JB"], give=True)
    assert act["give"] not in act["discard"] and act["give"][0] in "7654"


def test_agent_gives_points_to_known_partner() -> None:
    # Arcisolissimo by seat 3: seats 0, 1, 2 are partners. Seat 0 leads the 3S (a master card);
    # seat 2 should add its Fante (a point) rather than a 7 or 6.
    g = make()
    auction(g, "arcisolissimo", bidder=3)
    g.apply(0, {"type": "play", "card": "3S"})
    g.apply(1, {"type": "play", "card": "NS"})
    act = MediatoreAgent().choose(g, 2, random.Random(0))
    assert act == {"type": "play", "card": "JS"}


def test_agent_follows_low_when_it_cannot_win() -> None:
    g = make()
    auction(g, "arcisolissimo", bidder=0)
    g.apply(0, {"type": "play", "card": "3D"})  # seat 0 plays alone; seat 1 cannot beat the 3
    act = MediatoreAgent().choose(g, 1, random.Random(0))
    assert act["card"] in ("JD", "ND")
    g.apply(1, act)
    act2 = MediatoreAgent().choose(g, 2, random.Random(0))
    assert act2 == {"type": "play", "card": "5D"}


# -- rendering ---------------------------------------------------------------------------------------------------
def test_private_panels_per_phase() -> None:
    g = make()
    p = render.private_panel(g.view(0), NAMES)
    assert p.controls and p.controls[0].kind == "buttons" and len(p.controls[0].choices) == 6
    auction(g, "mediatore")
    p = render.private_panel(g.view(0), NAMES)
    assert sum(len(c.choices) for c in p.controls) == 31 and all(c.kind == "select" for c in p.controls)
    g.apply(0, {"type": "call", "card": "KD"})
    p = render.private_panel(g.view(0), NAMES)
    (combo,) = p.controls
    assert combo.kind == "combo" and [f.key for f in combo.fields] == ["discard", "give"]
    assert [f.count for f in combo.fields] == [4, 1] and combo.base_action == {"type": "discard"}
    pub = render.public_panel(g.public_view(), NAMES).text()
    assert "Bruno handed the called card over" in pub and "Monte shown" in pub
    g.apply(0, {"type": "discard", "discard": ["7C", "6C", "5C", "4B"], "give": "5B"})
    p = render.private_panel(g.view(0), NAMES)
    kinds = [c.kind for c in p.controls]
    assert kinds == ["buttons"]  # the lone bidder gets no signal menu
    p1 = render.private_panel(g.view(1), NAMES)
    assert "Card you received" in p1.text()


def test_partner_panel_and_signal_menu() -> None:
    g = make()
    auction(g, "chiamo")
    g.apply(0, {"type": "call", "card": "3C"})
    assert "partner" in render.private_panel(g.view(1), NAMES).description
    d2 = render.private_panel(g.view(2), NAMES).description
    assert "You are a defender" in d2 and "'s partner" not in d2
    g.apply(0, {"type": "discard", "discard": ["JB", "7B", "6B", "5B"]})
    p = render.private_panel(g.view(0), NAMES)
    assert [c.kind for c in p.controls] == ["buttons", "select"]
    assert any("Stroke" in ch.label for ch in p.controls[1].choices)
    (contract,) = [x for x in render.public_panel(g.public_view(), NAMES).sections if x.name == "Contract"]
    assert "Partner: secret" in contract.value and "Bruno" not in contract.value


def test_settlement_and_rules_text() -> None:
    g = make(options={"hands": 1})
    auction(g, "chiamo")
    g.apply(0, {"type": "call", "card": "3C"})
    g.apply(0, {"type": "discard", "discard": ["JB", "7B", "6B", "5B"]})
    while not g.is_over:
        (s,) = g.to_move()
        g.apply(s, g.legal_actions(s)[0])
    text = render.settlement_text(g.settlements()[0], NAMES)
    assert "Chiamo by Ada" in text and "Partner: Bruno" in text and len(text) <= 4096
    assert "Winner" in render.public_panel(g.public_view(), NAMES).footer
    rules = render.rules_text()
    assert len(rules) <= 3500 and "Arcisolissimo" in rules

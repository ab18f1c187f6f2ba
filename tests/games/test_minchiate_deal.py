"""The Minchiate deal: cut, robbing, 10+11 deal, exposures, Fola, taking, discards, declarations (§3, §5, §6)."""

from __future__ import annotations

import pytest

from bot.engine.cards import MINCHIATE_97
from bot.engine.errors import IllegalAction, InvalidOptions
from bot.games.minchiate.engine import MinchiateGame
from bot.games.minchiate.rules import DISCARDABLE, combos_with_values

ROBBED = ["T40", "CoK", "T22"]  # robbed in this order (bottom card of the upper packet first)
EXPOSED = {1: "T36", 2: "Co5", 3: "CuK", 0: "T2"}  # by offset from the dealer
FOLA = ["T38", "T24", "Sw3", "T29", "BaK", "Co2", "T1", "Sw4", "Sw5", "Sw6"]
MUST = {1: ["T3", "T4", "T5", "MATTO"], 2: ["SwK", "T20", "T30"], 3: ["T10"], 0: []}


def crafted(seed: int = 1) -> tuple[MinchiateGame, dict[int, list[str]]]:
    """A manual-cut game whose pack is arranged so the deal is fully known. Returns game + dealt hands."""
    g = MinchiateGame(4, {"manual_cut": True}, seed)
    D = g.dealer
    used = set(ROBBED) | set(EXPOSED.values()) | set(FOLA) | {c for v in MUST.values() for c in v}
    pool = [c for c in MINCHIATE_97 if c not in used]
    hands: dict[int, list[str]] = {}
    for off in (1, 2, 3, 0):
        h = list(MUST[off])
        while len(h) < 20:
            h.append(pool.pop())
        h.append(EXPOSED[off])
        hands[(D + off) % 4] = h
    assert not pool
    order = [(D + i) % 4 for i in range(1, 5)]
    P: list[str] = []
    for s in order:
        P.extend(hands[s][:10])
    for s in order:
        P.extend(hands[s][10:])
    P.extend(FOLA)
    assert len(P) == 94
    k = 10
    lower, upper_rest = P[: 97 - k], P[97 - k :]
    g._pack = upper_rest + ROBBED[::-1] + lower  # O = upper (k cards) ++ lower
    assert len(g._pack) == 97 and set(g._pack) == set(MINCHIATE_97)
    return g, hands


def test_options_validation() -> None:
    with pytest.raises(InvalidOptions):
        MinchiateGame(4, {"deals_per_game": 2}, 1)
    with pytest.raises(InvalidOptions):
        MinchiateGame(4, {"stake_per_resto": -1}, 1)
    with pytest.raises(InvalidOptions):
        MinchiateGame(3, None, 1)
    g = MinchiateGame(4, None, 1)
    assert g.options == {"deals_per_game": 1, "manual_cut": False, "stake_per_resto": 0, "hints": False}
    assert g.phase in ("discard", "declare")  # the automatic cut happened inside the constructor


def test_manual_cut_action() -> None:
    g, _ = crafted()
    assert g.phase == "cut"
    assert g.to_move() == (g.cutter,)
    assert g.cutter == (g.dealer + 3) % 4
    acts = g.legal_actions(g.cutter)
    assert [a["k"] for a in acts] == list(range(4, 94))
    with pytest.raises(IllegalAction):
        g.apply(g.cutter, {"type": "cut", "k": 3})
    with pytest.raises(IllegalAction):
        g.apply(g.dealer, {"type": "cut", "k": 10})
    assert g.view(g.cutter)["prompt"]["kind"] == "pick"


def test_cut_robbing_deal_exposure_fola_taking() -> None:
    g, hands = crafted()
    D, C = g.dealer, g.cutter
    g.apply(C, {"type": "cut", "k": 10})
    assert g._robbed_cut == ROBBED
    # the cutter holds the 21 dealt cards plus the robbed ones; the dealer also robbed 2 and took 3
    assert sorted(g._hands[C]) == sorted(hands[C] + ROBBED)
    assert sorted(g._hands[D]) == sorted(hands[D] + ["T38", "T24", "T29", "BaK", "T1"])
    for s in range(4):
        if s not in (C, D):
            assert sorted(g._hands[s]) == sorted(hands[s])
    assert g._exposed == [EXPOSED[(s - D) % 4] for s in range(4)]
    assert g._robbed_deal == ["T38", "T24"]
    assert g._stop_card == "Sw3"
    assert g._taken == ["T29", "BaK", "T1"]
    assert g._fola_rest == ["Sw3", "Co2", "Sw4", "Sw5", "Sw6"]
    ev = [(e["reason"], e["team"], e["points"]) for e in g._score_events]
    tc, td, t1 = "AB"[C % 2], "AB"[D % 2], "AB"[(D + 1) % 2]
    assert ev == [
        ("robbing", tc, 15),  # E-ROB-CUT
        ("exposed card", t1, 10),  # E-EXPOSE D+1 (T36); D+2's Co5 scores nothing
        ("exposed card", tc, 5),  # D+3 = cutter, CuK
        ("exposed card", td, 3),  # the dealer's T2
        ("robbing", td, 10),  # E-ROB-DEAL: T38 (+T24 = 0); the taken cards do not score (M-6)
    ]
    pv = g.public_view()
    assert pv["robbed_by_cutter"] == ROBBED and pv["robbing_stop"] == "Sw3"
    assert pv["taken_by_dealer"] == ["T29", "BaK", "T1"]
    assert pv["fola"] is None
    assert g.view(D)["fola_seen"] == ["Sw3", "Co2", "Sw4", "Sw5", "Sw6"]
    assert "fola_seen" not in g.view(C)
    assert g.phase == "discard"
    assert set(g.to_move()) == {C, D}


def test_discards_rules_and_fola_of_13() -> None:
    g, _ = crafted()
    D, C = g.dealer, g.cutter
    g.apply(C, {"type": "cut", "k": 10})
    with pytest.raises(IllegalAction):
        g.apply(D, {"type": "discard", "cards": ["T29"]})  # never trump 29
    with pytest.raises(IllegalAction):
        g.apply(D, {"type": "discard", "cards": ["BaK"]})  # counting card
    with pytest.raises(IllegalAction):
        g.apply(C, {"type": "discard", "cards": ["T22", "T22"]})
    disc_c = [c for c in g.discardable(C)][:4]
    with pytest.raises(IllegalAction):
        g.apply(C, {"type": "discard", "cards": disc_c})  # 4 > 3 required
    assert all(a["cards"][0] in DISCARDABLE for a in g.legal_actions(C))
    prompt = g.view(C)["prompt"]
    assert prompt["kind"] == "combo" and prompt["fields"][0]["count"] == 3
    assert set(prompt["fields"][0]["from"]) <= DISCARDABLE
    # the robbed zero-point trump T22 may be discarded
    g.apply(C, {"type": "discard", "cards": ["T22", disc_c[0] if disc_c[0] != "T22" else disc_c[1]]})
    assert g.to_move() == tuple(sorted((C, D)))  # one more card still owed
    left = g.discardable(C)[0]
    g.apply(C, {"type": "discard", "cards": [left]})
    assert g.to_move() == (D,)
    assert g.public_view()["discard_counts"][str(C)] == 3
    assert "T22" not in str(g.public_view()["events"][-1])
    g.apply(D, {"type": "discard", "cards": g.discardable(D)[:5]})
    assert g.phase == "declare"
    assert g.to_move() == (0, 1, 2, 3)
    assert all(len(h) == 21 for h in g._hands)
    fola = g._fola_rest + g._disc[C] + g._disc[D]
    assert len(fola) == 13 and all(c in DISCARDABLE for c in fola)


def _to_declare(g: MinchiateGame) -> None:
    D, C = g.dealer, g.cutter
    g.apply(C, {"type": "cut", "k": 10})
    g.apply(C, {"type": "discard", "cards": g.discardable(C)[:3]})
    g.apply(D, {"type": "discard", "cards": g.discardable(D)[:5]})


def test_declarations_default_all_order_and_fola_reveal() -> None:
    g, _ = crafted()
    _to_declare(g)
    D = g.dealer
    combos = [combos_with_values(g._hands[s]) for s in range(4)]
    d1 = (D + 1) % 4
    assert any(c["type"] == "RUN" and c["cards"] == ["T3", "T4", "T5"] for c in combos[d1])
    run = next(c for c in combos[d1] if c["cards"] == ["T3", "T4", "T5"])
    assert run["value"] == 9 + 5  # the declarer holds the Matto: +5
    for s in range(4):
        acts = g.legal_actions(s)
        assert acts[0] == {"type": "declare", "combos": list(range(len(combos[s])))}
        assert acts[-1] == {"type": "declare", "combos": []}
        assert len(acts) == 2 ** len(combos[s])
    before = len(g._score_events)
    with pytest.raises(IllegalAction):
        g.apply(d1, {"type": "declare", "combos": [99]})
    # everyone declares everything, in the order D+2, D, D+3, D+1: resolution is still D+1 .. D
    for off in (2, 0, 3, 1):
        s = (D + off) % 4
        assert g.public_view()["phase"] == "declare"
        g.apply(s, g.legal_actions(s)[0])
    decl = g._score_events[before:]
    expected = [(D + off) % 4 for off in (1, 2, 3, 0) if combos[(D + off) % 4]]
    assert [e["seat"] for e in decl] == expected
    for e in decl:
        assert e["points"] == sum(c["value"] for c in combos[e["seat"]])
        assert e["reason"] == "declaration"
    assert g.phase == "play"
    pv = g.public_view()
    assert pv["fola"] is not None and len(pv["fola"]) == 13
    assert pv["trick"]["leader"] == d1
    assert pv["declared"][d1] == combos[d1]


def test_declaring_a_subset_and_nothing() -> None:
    g, _ = crafted()
    _to_declare(g)
    D = g.dealer
    d1 = (D + 1) % 4
    n = len(g._combos[d1])
    assert n >= 1
    g.apply(d1, {"type": "declare", "combos": []})
    for off in (2, 3, 0):
        s = (D + off) % 4
        g.apply(s, {"type": "declare", "combos": []})
    assert not any(e["reason"] == "declaration" for e in g._score_events)
    assert g.public_view()["declared"] == [[], [], [], []]


def test_impossible_discard_redeals() -> None:
    """M-8: the cutter robs 13 counting cards and was dealt only 8 discardable cards -> redeal."""
    g = MinchiateGame(4, {"manual_cut": True}, 3)
    D = g.dealer
    C = g.cutter
    counting = [
        "T40",
        "T39",
        "T38",
        "T37",
        "T36",
        "T35",
        "T34",
        "T33",
        "T32",
        "T31",
        "T30",
        "T28",
        "T20",
        "T13",
        "T10",
        "T1",
        "MATTO",
        "CoK",
        "CuK",
        "SwK",
        "BaK",
        "T2",
        "T3",
        "T4",
        "T5",
        "T29",
    ]
    robbed = counting[:13]
    cutter_hand = counting[13:] + [c for c in MINCHIATE_97 if c not in counting][:8]
    assert len(cutter_hand) == 21
    rest = [c for c in MINCHIATE_97 if c not in counting and c not in cutter_hand]
    hands = {}
    for off in (1, 2, 0):
        hands[(D + off) % 4] = [rest.pop() for _ in range(21)]
    hands[C] = cutter_hand
    order = [(D + i) % 4 for i in range(1, 5)]
    P = [c for s in order for c in hands[s][:10]] + [c for s in order for c in hands[s][10:]] + rest
    k = 20
    lower, upper_rest = P[: 97 - k], P[97 - k :]
    assert upper_rest[-1] not in counting
    g._pack = upper_rest + robbed[::-1] + lower
    g.apply(C, {"type": "cut", "k": k})
    assert g._attempt == 1
    assert g.phase == "cut"  # manual cut again, same dealer
    assert g.dealer == D
    assert g._score_events == [] and g._resti == [0, 0] and g._diff == 0
    assert any(e["kind"] == "redeal" for e in g._events)
    assert g.settlements() == []


def test_cutter_robs_at_most_13() -> None:
    g = MinchiateGame(4, {"manual_cut": True}, 5)
    robbable = ["T40", "T39", "T38", "T37", "T36", "T35", "T34", "T33", "T32", "T31", "T30", "T28", "T20", "T13", "T10"]
    others = [c for c in MINCHIATE_97 if c not in robbable]
    k = 30
    upper = others[: k - 15] + robbable  # the bottom 15 cards are all robbable
    g._pack = upper + others[k - 15 :]
    g.apply(g.cutter, {"type": "cut", "k": k})
    assert g._attempt == 0
    assert g._robbed_cut == robbable[::-1][:13]  # T20 and T28 stay in the pack
    assert g._need[g.cutter] == 13


def test_more_than_25_discardable_cards_one_at_a_time() -> None:
    """The cutter robs T21-T27 and six counting trumps and was dealt 21 zero-point cards: 28 discardable."""
    from bot.games.minchiate import render as R

    g = MinchiateGame(4, {"manual_cut": True}, 8)
    D, C = g.dealer, g.cutter
    robbed = ["T21", "T22", "T23", "T24", "T25", "T26", "T27", "T40", "T39", "T38", "T37", "T36", "T35"]
    zero = [c for c in MINCHIATE_97 if c in DISCARDABLE and c[0] != "T"]
    others = [c for c in MINCHIATE_97 if c not in robbed and c not in zero[:21]]
    hands = {C: zero[:21]}
    for off in (1, 2, 0):
        hands[(D + off) % 4] = [others.pop() for _ in range(21)]
    order = [(D + i) % 4 for i in range(1, 5)]
    P = [c for s in order for c in hands[s][:10]] + [c for s in order for c in hands[s][10:]] + others
    k = 20
    lower, upper_rest = P[: 97 - k], P[97 - k :]
    assert upper_rest[-1] not in robbed and upper_rest[-1] not in ("T28", "T29", "T30", "T31", "T32")
    g._pack = upper_rest + robbed[::-1] + lower
    g.apply(C, {"type": "cut", "k": k})
    assert g._attempt == 0 and g._need[C] == 13
    assert len(g.discardable(C)) == 28
    prompt = g.view(C)["prompt"]
    assert prompt["kind"] == "pick" and len(prompt["actions"]) == 28
    panel = R.private_panel(g.view(C), ["a", "b", "c", "d"])
    assert [c.kind for c in panel.controls] == ["select", "select"]
    # the timeout default discards the weakest cards at once (plain pips first)
    default = g.timeout_action(C)
    assert default is not None and len(default["cards"]) == 13
    assert all(not c.startswith("T") for c in default["cards"])
    for _ in range(3):
        g.apply(C, prompt["actions"][0])
        prompt = g.view(C)["prompt"]
    assert prompt["kind"] == "combo"
    assert prompt["fields"][0]["count"] == 10 and len(prompt["fields"][0]["from"]) == 25


def test_timeout_defaults() -> None:
    g, _ = crafted()
    C, D = g.cutter, g.dealer
    a = g.timeout_action(C)
    assert a is not None and a["type"] == "cut" and 4 <= a["k"] <= 93
    assert g.timeout_action(D) is None
    g.apply(C, {"type": "cut", "k": 10})
    a = g.timeout_action(D)
    assert a is not None and len(a["cards"]) == 5
    g.apply(D, a)
    g.apply(C, g.timeout_action(C))
    for s in range(4):
        a = g.timeout_action(s)
        assert a == g.legal_actions(s)[0]
        g.apply(s, a)
    assert g.phase == "play"
    assert g.timeout_action(g.to_move()[0]) is None

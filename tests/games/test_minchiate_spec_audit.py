"""Independent rules audit of the Minchiate engine against docs/rules/minchiate.md (rule and DECISION ids per test)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.engine.cards import MINCHIATE_97
from bot.games.minchiate.engine import MinchiateGame
from bot.games.minchiate.rules import (
    DISCARDABLE,
    POINTS,
    ROBBABLE,
    combos_total,
    combos_with_values,
    matto_payment_key,
)

CARD_SET = set(MINCHIATE_97)
ZERO_EXPOSED = {1: "Sw1", 2: "Sw2", 3: "Sw3", 0: "Sw4"}  # worthless 21st cards: no E-EXPOSE events
BATONS_FOLA = ["Ba1", "Ba2", "Ba3", "Ba4", "Ba5", "Ba6", "Ba7", "Ba8", "Ba9", "Ba10", "BaF", "BaC", "BaQ"]


def team(seat: int) -> str:
    return "AB"[seat % 2]


def cards_in(obj: Any) -> set[str]:
    text = json.dumps(obj)
    return {m for m in re.findall(r'"([A-Za-z0-9]+)"', text) if m in CARD_SET}


def legal(g: MinchiateGame, seat: int) -> set[str]:
    return {a["card"] for a in g.legal_actions(seat)}


def play(g: MinchiateGame, *cards: str) -> None:
    for c in cards:
        g.apply(g.to_move()[0], {"type": "play", "card": c})


def arranged(
    robbed: list[str],
    fola: list[str],
    must: dict[int, list[str]],
    exposed: dict[int, str],
    k: int,
    seed: int = 1,
) -> tuple[MinchiateGame, dict[int, list[str]]]:
    """A manual-cut game whose pack O is arranged so that cutting at ``k`` gives a fully known deal (§3.1-§3.4).

    ``robbed``: the cards the cutter robs, in robbing order (bottom of the upper packet first); ``fola``: the
    undealt rest P[84..]; ``must``/``exposed``: by offset from the dealer, the first cards / the 21st card of
    each hand (the rest is filled with zero-point cards first). Returns the game and the dealt hands by seat.
    """
    g = MinchiateGame(4, {"manual_cut": True}, seed)
    D = g.dealer
    used = [*robbed, *fola, *(c for h in must.values() for c in h), *exposed.values()]
    assert len(used) == len(set(used))
    pool = sorted((c for c in MINCHIATE_97 if c not in used), key=lambda c: c not in DISCARDABLE)
    hands: dict[int, list[str]] = {}
    for off in (1, 2, 3, 0):
        h = list(must.get(off, []))
        while len(h) < 20:
            h.append(pool.pop(0))
        h.append(exposed[off])
        hands[(D + off) % 4] = h
    assert not pool
    order = [(D + i) % 4 for i in (1, 2, 3, 4)]
    P = [c for s in order for c in hands[s][:10]] + [c for s in order for c in hands[s][10:]] + fola
    assert len(P) == 97 - len(robbed)
    m = k - len(robbed)  # what is left of the upper packet after the robbing
    lower, upper_rest = P[: len(P) - m], P[len(P) - m :]
    g._pack = upper_rest + robbed[::-1] + lower
    assert sorted(g._pack) == sorted(MINCHIATE_97)
    return g, hands


def all_declare(g: MinchiateGame, combos: dict[int, list[int]] | None = None) -> None:
    for s in range(4):
        g.apply(s, {"type": "declare", "combos": (combos or {}).get(s, [])})


# ---------------------------------------------------------------- §1, §2: dealer, cut, pack tables


def test_s1_4_m2_random_dealer_and_cut_range_are_seeded() -> None:
    """§1.3/§1.4/M-2: seeded random dealer, cutter = D+3, automatic cut depth k in 4..93, reproducible."""
    dealers: set[int] = set()
    for seed in range(40):
        g = MinchiateGame(4, None, seed)
        dealers.add(g.dealer)
        assert g._cut_k is not None and 4 <= g._cut_k <= 93
        assert g.cutter == (g.dealer + 3) % 4
        assert g.public_view()["cutter"] == (g.dealer + 3) % 4
        assert MinchiateGame(4, None, seed).public_view() == g.public_view()
    assert dealers == {0, 1, 2, 3}


def test_s2_3_points_table_card_by_card() -> None:
    """§2.3: the full points table, written out by hand for all 97 cards."""
    expected = {c: 0 for c in MINCHIATE_97}
    for n in (36, 37, 38, 39, 40):
        expected[f"T{n}"] = 10
    for n in (30, 31, 32, 33, 34, 35, 28, 20, 13, 10, 1):
        expected[f"T{n}"] = 5
    for n in (2, 3, 4, 5):
        expected[f"T{n}"] = 3
    expected["MATTO"] = 5
    for k in ("CoK", "CuK", "SwK", "BaK"):
        expected[k] = 5
    assert expected == POINTS


def test_s2_5_s2_6_robbable_and_discardable_sets_exact() -> None:
    """§2.5: the 33 robbable cards exactly; §2.6: discardable = zero-point cards except T29."""
    counting = {f"T{n}" for n in (*range(28, 41), 20, 13, 10, 1, 2, 3, 4, 5)} - {"T29"}
    counting |= {"MATTO", "CoK", "CuK", "SwK", "BaK"}
    assert len(counting) == 25
    assert counting | {"T21", "T22", "T23", "T24", "T25", "T26", "T27", "T29"} == ROBBABLE
    assert set(MINCHIATE_97) - counting - {"T29"} == DISCARDABLE
    assert "T19" not in ROBBABLE and "T6" not in ROBBABLE and "CoQ" not in ROBBABLE


# ---------------------------------------------------------------- §4 combinations


def test_s4_whole_pack_combinations_total_212() -> None:
    """§4.3/§4.5/M-9/M-10: every combination at once. RUN1-5 17+5, RUN28-40 90+5, UTM 20 (no bonus),
    UTV 15+5, DEC four tens 25+5, four Kings 20+5 = 212."""
    assert combos_total(MINCHIATE_97) == 212
    types = sorted(c["type"] for c in combos_with_values(MINCHIATE_97))
    assert types == ["DEC", "KINGS", "RUN", "RUN", "UTM", "UTV"]


def test_s4_5_matto_bonus_on_kings_and_dec() -> None:
    """§4.5: the Matto adds 5 to KINGS and DEC too (not only to runs)."""
    four = ["CoK", "CuK", "SwK", "BaK", "T10", "T20", "T30", "T40", "MATTO"]
    assert {c["type"]: c["value"] for c in combos_with_values(four)} == {"KINGS": 25, "DEC": 30}
    assert combos_total(four) == 55
    three = ["CoK", "CuK", "BaK", "T20", "T30", "T40", "MATTO"]
    assert {c["type"]: c["value"] for c in combos_with_values(three)} == {"KINGS": 20, "DEC": 25}


def test_s4_2_runs_broken_by_gaps() -> None:
    """§4.2: a run is a maximal block of consecutive numbers; a gap splits it; blocks < 3 do not count."""
    assert combos_with_values(["T28", "T30", "T31", "T32"]) == [
        {"type": "RUN", "cards": ["T30", "T31", "T32"], "value": 15}
    ]
    assert combos_total(["T28", "T29", "T31", "T32", "T33"]) == 15  # T28-T29 too short
    assert combos_total(["T2", "T3", "T4"]) == 9
    assert combos_total(["T1", "T2", "T4", "T5"]) == 0


def test_s4_6_shared_cards_score_in_every_combination() -> None:
    """§4.6: T30/T40 in the RUN and the DEC; T1 in RUN, UTM and UTV at once (with the Matto bonus)."""
    high = [f"T{n}" for n in range(28, 41)] + ["T10", "T20"]
    assert combos_total(high) == 90 + 25
    low = ["T1", "T2", "T3", "T4", "T5", "T13", "T28", "T40", "MATTO"]
    assert {c["type"]: c["value"] for c in combos_with_values(low)} == {"RUN": 22, "UTM": 20, "UTV": 20}
    assert combos_total(low) == 62


# ---------------------------------------------------------------- §3 the deal


def test_s3_2_cutter_robbing_stops_at_first_non_robbable_card() -> None:
    """§3.2.2: robbing stops at the first non-robbable card even if robbable cards lie above it; the
    robbable card left in the pack ends in the Fola and is taken (not scored, §3.6/M-6)."""
    fola = ["Ba3", "Ba4", "Ba5", "Ba6", "Ba7", "Ba8", "Ba9", "BaQ", "BaC", "T39", "Co3"]
    g, _ = arranged(["CoK", "T40"], fola, {}, ZERO_EXPOSED, k=6)
    D, C = g.dealer, g.cutter
    g.apply(C, {"type": "cut", "k": 6})
    assert g._attempt == 0
    assert g._robbed_cut == ["CoK", "T40"]
    assert g._stop_card == "Ba3" and g._robbed_deal == []
    assert g._taken == ["T39"]
    assert [(e["reason"], e["team"], e["points"]) for e in g._score_events] == [("robbing", team(C), 15)]
    assert g._need == {C: 2, D: 1}


def test_s3_2_s3_5_upper_packet_exhausted_and_dealer_robs_whole_fola() -> None:
    """§3.2.2: robbing stops when the upper packet is empty (k=4, 4 robbed); §3.5: the dealer robs the
    whole 9-card Fola (no stop card), scoring E-ROB-DEAL = 10+5+3 = 18; after discards the Fola has 13."""
    robbed = ["T22", "CoK", "T21", "T40"]
    fola = ["T39", "T23", "T24", "T29", "BaK", "T25", "T2", "T26", "T27"]
    must = {0: ["Co2", "Co3", "Co4", "Co5", "Co6", "Co7", "Co8", "Co9", "Co10", "CoF", "CoC", "CoQ"]}
    g, _ = arranged(robbed, fola, must, ZERO_EXPOSED, k=4)
    D, C = g.dealer, g.cutter
    g.apply(C, {"type": "cut", "k": 4})
    assert g._attempt == 0
    assert g._robbed_cut == robbed
    assert g._robbed_deal == fola and g._stop_card is None and g._taken == []
    assert g.public_view()["robbing_stop"] is None
    ev = [(e["reason"], e["team"], e["points"]) for e in g._score_events]
    assert ev == [("robbing", team(C), 15), ("robbing", team(D), 18)]
    assert g._need == {C: 4, D: 9}
    # §3.7 default for the dealer: the nine weakest pips (Co2 is the strongest Coins pip after the Ace)
    default = g.timeout_action(D)
    assert default is not None
    assert set(default["cards"]) == {"Co3", "Co4", "Co5", "Co6", "Co7", "Co8", "Co9", "Co10", "Sw4"}
    g.apply(D, default)
    g.apply(C, {"type": "discard", "cards": g.discardable(C)[:4]})
    all_declare(g)
    fola_seen = g.public_view()["fola"]
    assert fola_seen is not None and len(fola_seen) == 13
    assert set(default["cards"]) <= set(fola_seen)


def test_m8_dealer_impossible_discard_redeals() -> None:
    """M-8 for the dealer: robs 9 non-discardable cards (whole Fola) but holds only 8 discardable cards ->
    deal annulled, no scores, same dealer deals again."""
    robbed = ["T22", "CoK", "T21", "T40"]
    fola = ["T39", "T38", "T29", "BaK", "T2", "T3", "T37", "T36", "T35"]
    assert not set(fola) & DISCARDABLE
    must = {0: ["Co2", "Co3", "Co4", "Co5", "Co6", "Co7", "Co8"]}
    g, hands = arranged(robbed, fola, must, ZERO_EXPOSED, k=4)
    D = g.dealer
    assert sum(c in DISCARDABLE for c in hands[D]) == 8
    g.apply(g.cutter, {"type": "cut", "k": 4})
    assert g._attempt == 1
    assert g.phase == "cut" and g.dealer == D
    assert g._score_events == [] and g._resti == [0, 0] and g._diff == 0
    assert g.settlements() == []


def _timeout_game(must_cutter: list[str], exposed_cutter: str) -> MinchiateGame:
    fola = ["Ba3", "Ba4", "Ba5", "Ba6", "Ba7", "Ba8", "Ba9", "BaQ"]
    exposed = {**ZERO_EXPOSED, 3: exposed_cutter}
    g, _ = arranged(["T21", "T22", "T23", "T24", "T25"], fola, {3: must_cutter}, exposed, k=10)
    g.apply(g.cutter, {"type": "cut", "k": 10})
    assert g._attempt == 0 and g._need == {g.cutter: 5}
    return g


def test_s3_7_timeout_discards_pips_before_courts_before_trumps() -> None:
    """§3.7 timeout default: plain pips first (even the Ace of Coins, the strongest Coins pip), then the
    weakest court; the robbed zero trumps T21-T25 stay."""
    counting = ["T40", "T39", "T38", "T37", "T36", "T35", "T34", "T33", "T32", "T31", "T30", "T28", "T20", "T13"]
    g = _timeout_game(["Co1", "Sw10", "Ba2", "Cu10", "SwF", "CoQ", *counting], "T10")
    a = g.timeout_action(g.cutter)
    assert a is not None and set(a["cards"]) == {"Co1", "Sw10", "Ba2", "Cu10", "SwF"}


def test_s3_7_timeout_discards_trumps_last_lowest_number_first() -> None:
    """§3.7 timeout default: when pips and courts run out, trumps lowest number first."""
    counting = ["T40", "T39", "T38", "T37", "T36", "T35", "T34", "T33", "T32", "T31", "T30", "T29", "T28"]
    g = _timeout_game(["Co1", "SwF", *counting, "T20", "T13", "T10", "T1", "MATTO"], "CoK")
    a = g.timeout_action(g.cutter)
    assert a is not None and set(a["cards"]) == {"Co1", "SwF", "T21", "T22", "T23"}


# ---------------------------------------------------------------- §5 declarations, §8.2 order, §10 privacy


def _declare_game(must: dict[int, list[str]]) -> MinchiateGame:
    """No robbing, no taking: straight to the declarations."""
    g, _ = arranged([], BATONS_FOLA, must, ZERO_EXPOSED, k=20)
    g.apply(g.cutter, {"type": "cut", "k": 20})
    assert g._attempt == 0 and g.phase == "declare" and g._score_events == []
    return g


def test_s5_m11_declare_one_combination_with_matto_bonus() -> None:
    """§5.2/M-11 a single combination may be declared; §5.3 the declarer's Matto adds 5: three Kings = 20.
    The undeclared UTM is neither scored nor shown."""
    g = _declare_game({1: ["MATTO", "T1", "T40", "CoK", "CuK", "SwK"]})
    D = g.dealer
    d1 = (D + 1) % 4
    combos = g.view(d1)["combos"]
    assert sorted(c["type"] for c in combos) == ["KINGS", "UTM"]
    kings = next(i for i, c in enumerate(combos) if c["type"] == "KINGS")
    all_declare(g, {d1: [kings]})
    ev = [(e["reason"], e["team"], e["points"], e["seat"]) for e in g._score_events]
    assert ev == [("declaration", team(d1), 20, d1)]
    assert g._diff == (20 if team(d1) == "A" else -20)
    declared = g.public_view()["declared"][d1]
    assert [c["type"] for c in declared] == ["KINGS"] and declared[0]["value"] == 20
    assert "T1" not in cards_in(g.public_view())


def test_s8_2_m14_declarations_resolved_in_seat_order_with_conversion() -> None:
    """§5.2/§8.2/M-14: D+1 declares RUN 28-40 (90) first -> 1 resto for its team, diff 30; then D+2 declares
    RUN 1-5 + four Kings (17 + 20 = 37) -> the other team leads by 7. (Netting would give no resto.)"""
    g = _declare_game(
        {
            1: [f"T{n}" for n in range(28, 41)],
            2: ["T1", "T2", "T3", "T4", "T5", "CoK", "CuK", "SwK", "BaK"],
            3: ["T10", "T13", "T20", "MATTO"],
        }
    )
    D = g.dealer
    d1, d2 = (D + 1) % 4, (D + 2) % 4
    for s in (D, (D + 3) % 4, d2, d1):  # answer order does not matter
        g.apply(s, g.legal_actions(s)[0])  # declare everything
    ev = [(e["seat"], e["points"]) for e in g._score_events]
    assert ev == [(d1, 90), (d2, 37)]
    if team(d1) == "A":
        assert g._resti == [1, 0] and g._diff == -7
    else:
        assert g._resti == [0, 1] and g._diff == 7
    assert g.phase == "play" and g.to_move() == (d1,)


def test_s10_undeclared_combinations_and_hands_stay_private() -> None:
    """§10: during the declarations nobody else sees a seat's hand, combinations or choice; the public view
    carries no hand, no combinations and no prompt; hints go only to the seats to move."""
    g = _declare_game({1: ["MATTO", "T1", "T40", "CoK", "CuK", "SwK"]})
    D = g.dealer
    d1 = (D + 1) % 4
    g.apply(d1, {"type": "declare", "combos": []})
    secret = set(g._hands[d1]) - {g._exposed[d1]}
    pv = g.public_view()
    assert not cards_in(pv) & secret
    assert "hand" not in pv and "combos" not in pv and "prompt" not in pv
    for other in range(4):
        if other != d1:
            v = g.view(other)
            assert not cards_in(v) & secret
            assert v["prompt"] is not None  # still to answer
    assert g.view(d1)["prompt"] is None  # already answered: no hint any more


def test_s10_m7_discards_private_until_fola_reveal() -> None:
    """§10/M-7: a discard is seen only by its owner until the Fola is revealed with it after declarations;
    a seat not to move gets no prompt."""
    counting = ["T40", "T39", "T38", "T37", "T36", "T35", "T34", "T33", "T32", "T31", "T30", "T28", "T20", "T13"]
    g = _timeout_game(["Co1", "Sw10", "Ba2", "Cu10", "SwF", "CoQ", *counting], "T10")
    C, D = g.cutter, g.dealer
    g.apply(C, {"type": "discard", "cards": ["Cu10"]})
    assert g.view(C)["my_discards"] == ["Cu10"]
    assert "Cu10" not in cards_in(g.public_view())
    for s in range(4):
        if s != C:
            assert "Cu10" not in cards_in(g.view(s))
            assert "my_discards" not in g.view(s)
    assert g.view((D + 1) % 4)["prompt"] is None
    g.apply(C, {"type": "discard", "cards": ["Co1", "Sw10", "Ba2", "SwF"]})
    all_declare(g)
    fola = g.public_view()["fola"]
    assert fola is not None and len(fola) == 13
    assert {"Cu10", "Co1", "Sw10", "Ba2", "SwF"} <= set(fola)
    # revealed sorted (suit by suit), not as left-overs + each seat's discards: the order must not tell who
    # discarded what (a discard can make a void)
    suits = [c[:2] for c in fola if c[:2] in ("Co", "Cu", "Sw", "Ba")]
    assert suits == sorted(suits, key=["Co", "Cu", "Sw", "Ba"].index)
    assert fola.index("Cu10") > fola.index("Co1")


# ---------------------------------------------------------------- §7 trick play


def test_s7_3_m12_matto_lead_then_first_lead_sets_king_rule() -> None:
    """M-12 + §7.3/§7.4.2: after a Matto lead the second card opens Coins (first lead); after a trump the
    holder of CoK must play it."""
    g = MinchiateGame._for_test([["MATTO", "Sw2"], ["Co5", "Sw3"], ["T7", "Ba3"], ["CoK", "Co3"]], dealer=3)
    play(g, "MATTO", "Co5", "T7")
    assert legal(g, 3) == {"CoK"}


def test_s7_3_suit_played_under_a_trump_lead_is_not_led() -> None:
    """§7.3: only a trick whose LED suit is S counts as a lead of S; Coins discarded on a trump lead do not
    use up the first lead, so the king rule still binds in the first Coins-led trick."""
    g = MinchiateGame._for_test(
        [["T30", "Co2", "Sw2"], ["T2", "T7", "Sw9"], ["Co5", "CoK", "Co3"], ["Sw4", "Ba3", "Ba4"]], dealer=3
    )
    play(g, "T30", "T2", "Co5", "Sw4")
    assert g.to_move() == (0,)
    play(g, "Co2", "T7")
    assert legal(g, 2) == {"CoK"}


def test_s7_4_rule4_void_with_trumps_may_play_matto() -> None:
    """§7.4.4: void in the led plain suit, holding trumps -> any trump or the Matto (not Sw3)."""
    g = MinchiateGame._for_test([["Co5"], ["T7", "MATTO", "Sw3"], ["Co6"], ["Co7"]], dealer=3)
    play(g, "Co5")
    assert legal(g, 1) == {"T7", "MATTO"}


def test_s7_4_rule3_trump_led_follow_trump_or_matto() -> None:
    """§7.4.3 with trumps led: any trump (no need to overtrump) or the Matto, not the plain card."""
    g = MinchiateGame._for_test([["T9"], ["T7", "MATTO", "Co3"], ["Co6"], ["Co7"]], dealer=3)
    play(g, "T9")
    assert legal(g, 1) == {"T7", "MATTO"}


def test_m12_matto_lead_then_trump_sets_trumps() -> None:
    """M-12: Matto led, a trump second -> trumps are the led suit for the rest of the trick."""
    g = MinchiateGame._for_test([["MATTO"], ["T7"], ["T8", "Co2"], ["Co7"]], dealer=3)
    play(g, "MATTO", "T7")
    assert legal(g, 2) == {"T8"}


# ---------------------------------------------------------------- §7.6, §8 scoring


def test_m13_matto_in_last_trick_debt_paid_and_end_scores() -> None:
    """M-13/§7.6/§8.3/§8.4: B leads the Matto to trick 21 and A wins it; B owes one card and pays its weakest
    worthless pip Co7 (M-15). END A = last trick 10; END B = T40 10 + Matto 5 = 15; diff -5 -> B 1 resto."""
    g = MinchiateGame._for_test([["Co5", "Co2"], ["T40", "MATTO"], ["Co6", "Co3"], ["Co7", "Co4"]], dealer=3)
    play(g, "Co5", "T40", "Co6", "Co7")  # B wins trick 1, nothing of B's opponents counts
    assert g.to_move() == (1,)
    assert legal(g, 1) == {"MATTO"}
    play(g, "MATTO", "Co3", "Co4", "Co2")  # Co2 is the highest Coins card here: A wins the last trick
    assert g.is_over
    assert not any(e["reason"] == "capture" for e in g._score_events)  # no E-TRICK event at all
    assert sorted(g._piles[0]) == sorted(["Co3", "Co4", "Co2", "Co7"])
    assert sorted(g._piles[1]) == sorted(["Co5", "T40", "Co6", "MATTO"])
    s = g.settlements()[0].summary
    assert s["end"]["A"] == {"cards": 0, "combinations": 0, "card_count": 0, "last_trick": 10, "total": 10}
    assert s["end"]["B"] == {"cards": 15, "combinations": 0, "card_count": 0, "last_trick": 0, "total": 15}
    assert s["final_diff"] == -5
    assert s["resti"] == {"A": 0, "B": 1} and s["net_A"] == -1 and s["winner"] == "B"
    assert g.settlements()[0].amounts["resto"] == (-1, 1, -1, 1)


def test_m15_payment_key_cases() -> None:
    """M-15: (points, category, tiebreak): T29 (0 pts) before T2 (3 pts); long suits weakest = Ace; suit order
    Co, Cu, Sw, Ba; plain before trump; lowest trump number first."""
    assert min(["CoK", "T2", "T29"], key=matto_payment_key) == "T29"
    assert min(["CoK", "T2"], key=matto_payment_key) == "T2"
    assert min(["Sw2", "Sw1", "SwF", "Sw10"], key=matto_payment_key) == "Sw1"
    assert min(["Ba10", "Ba1"], key=matto_payment_key) == "Ba1"
    assert min(["Ba1", "Sw1", "Cu10", "Cu1"], key=matto_payment_key) == "Cu10"
    assert min(["T6", "BaQ"], key=matto_payment_key) == "BaQ"
    assert min(["T21", "T19", "T6"], key=matto_payment_key) == "T6"
    assert min(["CuF", "Cu1"], key=matto_payment_key) == "Cu1"


def _zero_cards(exclude: set[str]) -> list[str]:
    return [c for c in MINCHIATE_97 if c in DISCARDABLE and c not in exclude]


def test_s8_3_matto_payment_happens_before_card_count() -> None:
    """§8.3 then §8.4.3: A's Matto falls to B's T40; A's pile (43 preloaded + Matto = 44) pays Co10 (M-15:
    the first Coins pip, weakest) -> 43 cards -> card-count bonus 1, not 2. END A = 5 + 1 = 6, END B =
    10 + 10 = 20 -> diff -14 -> B 1 resto."""
    g = MinchiateGame._for_test([["MATTO"], ["T40"], ["Co2"], ["Co3"]], dealer=3)
    zero = _zero_cards({"Co2", "Co3"})
    g._piles = [zero[:43], zero[43:63]]
    assert "Co10" in g._piles[0]
    play(g, "MATTO", "T40", "Co2", "Co3")
    assert g.is_over
    assert "Co10" in g._piles[1] and "MATTO" in g._piles[0]
    assert [len(p) for p in g._piles] == [43, 24]
    s = g.settlements()[0].summary
    assert s["end"]["A"] == {"cards": 5, "combinations": 0, "card_count": 1, "last_trick": 0, "total": 6}
    assert s["end"]["B"] == {"cards": 10, "combinations": 0, "card_count": 0, "last_trick": 10, "total": 20}
    assert s["final_diff"] == -14 and s["resti"] == {"A": 0, "B": 1}


def test_s8_4_full_end_of_deal_worked_example() -> None:
    """§7.8 + §8.4 + §8.5: A's T40 takes B's CoK (E-TRICK +5). A's pile (48 cards): cards T1 5 + Matto 5 +
    T13 5 + T28 5 + T40 10 + CoK 5 = 35; UTM 20 + UTV 15+5 = 40; 6 over 42; last trick 10 -> 91. B's pile
    T2 T3 T4 + 10 zero: cards 9 + RUN 9 = 18. diff 5 + 91 - 18 = 78 -> A gets ceil(78/60) = 2 resti."""
    g = MinchiateGame._for_test([["T40"], ["CoK"], ["Co2"], ["Co3"]], dealer=3)
    zero = _zero_cards({"Co2", "Co3"})
    g._piles = [["T1", "MATTO", "T13", "T28", *zero[:40]], ["T2", "T3", "T4", *zero[40:50]]]
    play(g, "T40", "CoK", "Co2", "Co3")
    assert g.is_over
    cap = g._score_events[0]
    assert (cap["reason"], cap["team"], cap["points"], cap["cards"]) == ("capture", "A", 5, ["CoK"])
    s = g.settlements()[0].summary
    assert s["end"]["A"] == {"cards": 35, "combinations": 40, "card_count": 6, "last_trick": 10, "total": 91}
    assert s["end"]["B"] == {"cards": 9, "combinations": 9, "card_count": 0, "last_trick": 0, "total": 18}
    assert s["final_diff"] == 78
    assert s["resti"] == {"A": 2, "B": 0} and s["net_A"] == 2


@pytest.mark.parametrize(("pre", "resti_a"), [(-59, 1), (-5, 1), (-4, 2), (55, 2), (56, 3)])
def test_s8_5_m16_final_conversion_boundaries(pre: int, resti_a: int) -> None:
    """§8.5/M-16: END(A) - END(B) = 65 (T40 10 + 45 preloaded + last trick 10; no combination) is added to
    the running diff, then ceil(diff/60): 6 -> 1, 60 -> 1, 61 -> 2, 120 -> 2, 121 -> 3."""
    g = MinchiateGame._for_test([["T40"], ["Co2"], ["Co3"], ["Co4"]], dealer=3)
    g._piles = [["T36", "T37", "CoK", "CuK", "T1", "T13", "T20"], []]
    g._diff = pre
    play(g, "T40", "Co2", "Co3", "Co4")
    s = g.settlements()[0].summary
    assert s["end"]["A"]["combinations"] == 0
    assert s["end"]["A"]["total"] - s["end"]["B"]["total"] == 65
    assert s["final_diff"] == pre + 65
    assert s["resti"] == {"A": resti_a, "B": 0}


def test_s8_6_tie_when_resti_cancel() -> None:
    """§8.1 + §8.5 + §8.6: A converts a resto during play (diff 0), B then leads by 50; END +20 for A leaves
    B ahead by 30 -> 1 resto to B. net_A = 0: a tie, zero-sum ledger of zeros."""
    g = MinchiateGame._for_test([["T40"], ["Co2"], ["Co3"], ["Co4"]], dealer=3)
    g._score(0, 60, "test")
    g._score(1, 50, "test")
    assert g._resti == [1, 0] and g._diff == -50
    play(g, "T40", "Co2", "Co3", "Co4")
    st = g.settlements()[0]
    assert st.summary["final_diff"] == -30
    assert st.summary["resti"] == {"A": 1, "B": 1}
    assert st.summary["net_A"] == 0 and st.summary["winner"] is None
    assert st.amounts["resto"] == (0, 0, 0, 0)
    res = g.result()
    assert res is not None and tuple(res.totals) == (0, 0, 0, 0)

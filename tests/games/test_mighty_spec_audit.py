"""Mighty engine: independent spec audit of docs/rules/mighty.md (gaps left by the other tests)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.errors import IllegalAction
from bot.games.mighty.engine import POINT_CARDS, MightyGame, _set_hands_for_test

from .test_mighty_rules import auction_to  # everybody passes but the declarer, who bids at their first turn

# A complete, hand-checked deal (♥ is the declarer's suit; seat 3 holds ♣A, seat 4 the ♠A).
FULL_DEAL: list[str] = [
    "AH KH QH JH TH 9H 8H 7H 6H 2C",
    "3C 4C 5C 6C 7C 8C 9C 2D 3D 4D",
    "TC JC QC KC 5D 6D 7D 8D 9D TD",
    "AC JD QD KD AD 2S 3S 4S 5S 6S",
    "7S 8S 9S TS JS QS KS AS 5H 4H",
]
FULL_KITTY = "3H 2H JK"
# Same deal with ♠A (the Mighty under ♥) and ♥A swapped between seats 0 and 4.
SWAP_DEAL: list[str] = [
    "AS KH QH JH TH 9H 8H 7H 6H 2C",
    FULL_DEAL[1],
    FULL_DEAL[2],
    FULL_DEAL[3],
    "7S 8S 9S TS JS QS KS AH 5H 4H",
]


# -- helpers ------------------------------------------------------------------------------------------------
def dealt(hands: list[str], kitty: str, options: dict[str, Any] | None = None, seed: int = 0) -> MightyGame:
    g = MightyGame(5, options, seed)
    _set_hands_for_test(g, [h.split() for h in hands], kitty.split())
    return g


def ready(
    n: int,
    trump: str,
    call: dict[str, Any],
    *,
    hands: list[str] | None = None,
    discard: list[str] | None = None,
    contract: tuple[int, str] | None = None,
    options: dict[str, Any] | None = None,
) -> MightyGame:
    """Seat 0 declares ``n trump`` on FULL_DEAL (or ``hands``), discards, fixes the contract, calls."""
    g = dealt(hands or FULL_DEAL, FULL_KITTY, options)
    auction_to(g, 0, n, trump)
    g.apply(0, {"type": "discard", "cards": discard or FULL_KITTY.split()})
    c = contract or (n, trump)
    g.apply(0, {"type": "contract", "n": c[0], "trump": c[1]})
    g.apply(0, call)
    return g


CALL_AC = {"type": "call", "kind": "card", "card": "AC"}
CALL_NONE = {"type": "call", "kind": "none"}
CALL_FIRST = {"type": "call", "kind": "first_trick"}


def at(g: MightyGame, trick_no: int, hands: list[str], leader: int) -> MightyGame:
    """Move a play-phase game to trick ``trick_no`` (0-based) with made-up hands; ``leader`` to lead."""
    g._hands = [h.split() for h in hands]
    g._discards = []
    g._trick_no = trick_no
    g._leader = leader
    g._plays = []
    return g


def pos(
    trump: str, trick_no: int, hands: list[str], leader: int, n: int = 13, options: dict[str, Any] | None = None
) -> MightyGame:
    return at(ready(n, trump, CALL_NONE, options=options), trick_no, hands, leader)


def legal_cards(g: MightyGame, seat: int) -> set[str]:
    return {a["card"] for a in g.legal_actions(seat)}


def play(g: MightyGame, seat: int, card: str, **kw: Any) -> None:
    g.apply(seat, {"type": "play", "card": card, **kw})


def trick(g: MightyGame, leader: int, cards: list[str], **lead_kw: Any) -> None:
    for i, c in enumerate(cards):
        play(g, (leader + i) % 5, c, **(lead_kw if i == 0 else {}))


def last_winner(g: MightyGame) -> int:
    return int(g.public_view()["last_trick"]["winner"])


def finish_hand(g: MightyGame, captured: dict[int, int]) -> dict[str, Any]:
    """Jump to trick 10 with ``captured[seat]`` point cards already won by each seat (all point cards
    not discarded must be handed out), play a point-less last trick won by the declarer, return the
    hand summary."""
    decl = g._declarer
    free = [c for c in sorted(POINT_CARDS) if c not in g._discards]
    assert sum(captured.values()) == len(free), "test set-up: captured points must cover the rest"
    won: list[list[str]] = [[] for _ in range(5)]
    for s in range(5):
        k = captured.get(s, 0)
        won[s], free = free[:k], free[k:]
    discards = list(g._discards)
    hands = ["", "", "", "", ""]
    for i, c in enumerate(["9C", "2C", "3C", "4C", "5C"]):
        hands[(decl + i) % 5] = c
    at(g, 9, hands, decl)
    g._discards = discards
    g._won = won
    n = len(g.settlements())
    trick(g, decl, ["9C", "2C", "3C", "4C", "5C"])
    assert len(g.settlements()) == n + 1
    return dict(g.settlements()[-1].summary)


def run_hand_first_legal(g: MightyGame) -> None:
    n = len(g.settlements())
    while len(g.settlements()) == n:
        (s,) = g.to_move()
        g.apply(s, g.legal_actions(s)[0])


# -- §4 auction ---------------------------------------------------------------------------------------------
def test_4_1_thrown_in_later_hand_keeps_opener_and_dealer() -> None:
    """§4.1 / §4.7 / §8.2-8.3: in hand 2 an all-pass-twice redeal keeps dealer (= friend) and opener (= declarer)."""
    g = ready(13, "H", CALL_AC, options={"weak_hand_misdeal": False})
    run_hand_first_legal(g)
    v = g.public_view()
    assert (v["hand_number"], v["dealer"], v["opener"], g.to_move()) == (1, 3, 0, (0,))
    for i in range(10):
        g.apply(i % 5, {"type": "pass"})  # two full all-pass rounds, opener 0 first each time
    v = g.public_view()
    assert (v["hand_number"], v["redeal_number"], v["dealer"], v["opener"]) == (1, 1, 3, 0)
    assert g.to_move() == (0,) and v["auction"]["round"] == 1
    assert len(g.settlements()) == 1


def test_4_8_weak_claim_in_later_hand_keeps_opener() -> None:
    """§4.1 / §4.8: a weak-hand claim by a non-opener in hand 2: same dealer, opener stays the old declarer."""
    g = ready(13, "H", CALL_AC)
    run_hand_first_legal(g)
    assert g.to_move() == (0,) and g.public_view()["dealer"] == 3
    weak = "JK KH TH 2C 3C 4C 5C 6C 7C 8C"  # −1 + 1 + ½ = ½ → eligible
    rest = [
        c
        for c in FULL_DEAL[1].split()
        + FULL_DEAL[2].split()
        + FULL_DEAL[3].split()
        + FULL_DEAL[4].split()
        + FULL_DEAL[0].split()
        + FULL_KITTY.split()
        if c not in weak.split()
    ]
    hands = [" ".join(rest[0:10]), weak, " ".join(rest[10:20]), " ".join(rest[20:30]), " ".join(rest[30:40])]
    _set_hands_for_test(g, [h.split() for h in hands], rest[40:43])
    g.apply(0, {"type": "pass"})
    assert {"type": "misdeal"} in g.legal_actions(1)
    g.apply(1, {"type": "misdeal"})
    v = g.public_view()
    ev = [e for e in v["events"] if e["kind"] == "misdeal_claim"][-1]
    assert ev["seat"] == 1 and ev["value"] == 0.5 and sorted(ev["cards"]) == sorted(weak.split())
    assert (v["hand_number"], v["redeal_number"], v["dealer"], v["opener"]) == (1, 1, 3, 0)
    assert g.to_move() == (0,) and len(g.settlements()) == 1


def test_4_3_only_20nt_beats_20_suit() -> None:
    """§4.3: after 20 ♠ the only higher bid is 20 NT (the highest bid), after 19 NT any 20 bid."""
    g = dealt(FULL_DEAL, FULL_KITTY)
    (o,) = g.to_move()
    g.apply(o, {"type": "bid", "n": 19, "trump": "NT"})
    bids = {(a["n"], a["trump"]) for a in g.legal_actions((o + 1) % 5) if a["type"] == "bid"}
    assert bids == {(20, t) for t in ("S", "D", "H", "C", "NT")}
    g.apply((o + 1) % 5, {"type": "bid", "n": 20, "trump": "S"})
    bids = {(a["n"], a["trump"]) for a in g.legal_actions((o + 2) % 5) if a["type"] == "bid"}
    assert bids == {(20, "NT")}
    g.apply((o + 2) % 5, {"type": "bid", "n": 20, "trump": "NT"})
    assert g.phase == "discard" and g.public_view()["declarer"] == (o + 2) % 5


def test_4_7_second_round_first_passer_may_win() -> None:
    """§4.7: in round 2 earlier passes are forgotten; a round-1 passer bids 13 and wins with four passes."""
    g = dealt(FULL_DEAL, FULL_KITTY, {"weak_hand_misdeal": False})
    (o,) = g.to_move()
    for i in range(5):
        g.apply((o + i) % 5, {"type": "pass"})
    g.apply(o, {"type": "pass"})
    s = (o + 1) % 5
    g.apply(s, {"type": "bid", "n": 13, "trump": "D"})
    for i in (2, 3, 4):
        g.apply((o + i) % 5, {"type": "pass"})
    assert g.phase == "discard" and g.public_view()["declarer"] == s
    assert g.public_view()["bid"] == {"n": 13, "trump": "D"}


# -- §5 kitty, discard, change -------------------------------------------------------------------------------
def test_5_2_1_contract_fixed_once() -> None:
    """§5.2.1: the change/raise happens once; a second contract action after it is refused."""
    g = dealt(FULL_DEAL, FULL_KITTY)
    auction_to(g, 0, 14, "H")
    g.apply(0, {"type": "discard", "cards": FULL_KITTY.split()})
    g.apply(0, {"type": "contract", "n": 15, "trump": "H"})
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "contract", "n": 16, "trump": "H"})
    assert g.public_view()["contract"] == {"n": 15, "trump": "H"}


def test_5_2_2_final_trump_decides_mighty_in_play() -> None:
    """§2.3 / §5.2.2: bid ♠ (Mighty ♦A) changed to ♥: in play ♠A is the Mighty and ♦A a plain diamond."""
    g = ready(14, "S", CALL_NONE, contract=(16, "H"))
    assert g.public_view()["mighty"] == "AS"
    at(g, 3, ["KD 2C", "5D", "AD 3D", "2D", "AS 9C"], 1)
    assert legal_cards(g, 2) == set()  # not yet to move
    play(g, 1, "5D")
    assert legal_cards(g, 2) == {"AD", "3D"}  # ♦A is an ordinary diamond: follows suit
    play(g, 2, "AD")
    play(g, 3, "2D")
    assert legal_cards(g, 4) == {"AS", "9C"}  # void in ♦
    play(g, 4, "AS")
    play(g, 0, "KD")
    assert last_winner(g) == 4


def test_5_2_2_final_trump_decides_ripper() -> None:
    """§2.3 / §5.2.2 / §6.6.1: bid ♣ (Ripper ♠3) changed to ♥: only ♣3 offers the joker call."""
    g = ready(13, "C", CALL_NONE, contract=(15, "H"))
    assert g.public_view()["ripper"] == "3C"
    at(g, 2, ["3S 3C", "JK 4C", "5C", "6C", "7C"], 0)
    calls = [a for a in g.legal_actions(0) if a.get("joker_call")]
    assert calls == [{"type": "play", "card": "3C", "joker_call": True}]
    with pytest.raises(IllegalAction):
        play(g, 0, "3S", joker_call=True)


def test_5_1_2_discard_joker_and_mighty_points_5_1_3() -> None:
    """§5.1.2-5.1.3 / §2.2: Joker and Mighty may be discarded; discards count for the declarer, Joker = 0.

    13 ♥, no friend, discards JK AS(1) KH(1) → 2 points; declarer captures 11 more → P = 13, made.
    S0 = 2·0 + 0 = 0, NT no, announced none → S = 0: everybody 0.
    """
    g = dealt(SWAP_DEAL, FULL_KITTY)
    auction_to(g, 0, 13, "H")
    g.apply(0, {"type": "discard", "cards": ["JK", "AS", "KH"]})
    assert sorted(g.view(0)["discards"]) == ["AS", "JK", "KH"]
    g.apply(0, {"type": "contract", "n": 13, "trump": "H"})
    g.apply(0, CALL_NONE)
    s = finish_hand(g, {0: 11, 1: 7})
    assert s["discard_points"] == 2 and s["points"] == 13 and s["made"]
    assert s["payments"] == [0, 0, 0, 0, 0]


# -- §6 trick play -------------------------------------------------------------------------------------------
def test_6_3_4_trick1_void_follower_may_trump_and_winner_leads() -> None:
    """§6.3.4 / §6.1: in trick 1 a void follower may trump (not the Joker); the trick winner leads trick 2."""
    g = pos("H", 0, ["2C 6S", "3D 4H JK", "KC 7S", "AC 8S", "3C 9S"], 0)
    assert legal_cards(g, 0) == {"2C", "6S"}
    play(g, 0, "2C")
    assert legal_cards(g, 1) == {"3D", "4H"}
    trick(g, 1, ["4H", "KC", "AC", "3C"])
    assert last_winner(g) == 1 and g.to_move() == (1,)
    assert legal_cards(g, 1) == {"3D", "JK"}  # from trick 2 the Joker may be led


def test_6_2_3_trick1_only_mighty_of_led_suit_forced() -> None:
    """§6.2.3 + §6.3.1: in trick 1 a follower whose only card of the led suit is the Mighty must play it."""
    g = pos("H", 0, ["5S 2C", "AS JK 2D 3H", "", "", ""], 0)
    play(g, 0, "5S")
    assert legal_cards(g, 1) == {"AS"}


def test_6_3_2_trump_lead_free_after_trick1() -> None:
    """§6.3.2: the no-trump-lead rule is for trick 1 only; in trick 2 a trump may be led."""
    g = pos("H", 1, ["AH 2C", "", "", "", ""], 0)
    assert legal_cards(g, 0) == {"AH", "2C"}
    g = pos("D", 1, ["AD 2C JK", "", "", "", ""], 0)
    assert legal_cards(g, 0) == {"AD", "2C", "JK"}


def test_6_5_3_joker_led_naming_trump() -> None:
    """§6.5.3: the led Joker may name the trump suit; followers must follow trump (Mighty free); Joker wins."""
    g = pos("H", 4, ["JK 2D", "2H 3C", "4C", "AS 5H 6C", "6D"], 0)
    play(g, 0, "JK", suit="H")
    assert legal_cards(g, 1) == {"2H"}
    play(g, 1, "2H")
    assert legal_cards(g, 2) == {"4C"}
    play(g, 2, "4C")
    assert legal_cards(g, 3) == {"AS", "5H"}
    play(g, 3, "5H")
    play(g, 4, "6D")
    assert last_winner(g) == 0


def test_6_5_4_powerless_led_joker_named_trump_trick10() -> None:
    """§6.5.2 / §6.5.4 / §6.7.4: trick 10, Joker led naming ♥ (trump): lowest heart — wins only if no heart."""
    g = pos("H", 9, ["JK", "2C", "3D", "4S", "5D"], 0)
    trick(g, 0, ["JK", "2C", "3D", "4S", "5D"], suit="H")
    assert g.settlements()[-1].summary["tricks"][-1]["winner"] == 0
    g = pos("H", 9, ["JK", "2C", "2H", "4S", "5D"], 0)
    trick(g, 0, ["JK", "2C", "2H", "4S", "5D"], suit="H")
    assert g.settlements()[-1].summary["tricks"][-1]["winner"] == 2


def test_6_5_2_joker_followed_in_trick10_loses_to_led_suit() -> None:
    """§6.5.1(c) / §6.5.2: trick 10, a Joker played to a ♣ lead is powerless; highest club wins."""
    g = pos("NT", 9, ["2C", "JK", "3C", "9D", "AD"], 0)
    trick(g, 0, ["2C", "JK", "3C", "9D", "AD"])
    assert g.settlements()[-1].summary["tricks"][-1]["winner"] == 2


def test_6_6_1_joker_call_allowed_in_trick10() -> None:
    """§6.6.1: the joker call is possible in tricks 2–10, trick 10 included; the ripped Joker loses."""
    g = pos("H", 9, ["3C", "4C", "JK", "5C", "2D"], 0)
    assert {"type": "play", "card": "3C", "joker_call": True} in g.legal_actions(0)
    play(g, 0, "3C", joker_call=True)
    play(g, 1, "4C")
    assert legal_cards(g, 2) == {"JK"}
    play(g, 2, "JK")
    play(g, 3, "5C")
    play(g, 4, "2D")
    assert g.settlements()[-1].summary["tricks"][-1]["winner"] == 3


def test_6_6_2_clubs_trump_spade_ripper_rips() -> None:
    """§2.3 / §6.6.2: ♣ trump, ♠3 led with a call: Joker forced over a spade and powerless; trump wins."""
    g = pos("C", 3, ["3S 3C", "JK 4S", "2C 5D", "KS", "QS"], 0)
    assert not any(a.get("joker_call") and a["card"] == "3C" for a in g.legal_actions(0))
    play(g, 0, "3S", joker_call=True)
    assert legal_cards(g, 1) == {"JK"}
    play(g, 1, "JK")
    assert legal_cards(g, 2) == {"2C", "5D"}
    trick(g, 2, ["2C", "KS", "QS"])
    assert last_winner(g) == 2


def test_6_6_2_joker_call_forces_joker_over_mighty_default() -> None:
    """§6.6.2 DECISION: without mighty_saves_joker a Joker+Mighty holder must give the Joker; Mighty then
    not in the trick, so the ripped Joker loses to the highest club played (♣7)."""
    g = pos("D", 2, ["3C 2H", "JK AS KC", "5C", "6C", "7C"], 0)
    play(g, 0, "3C", joker_call=True)
    assert legal_cards(g, 1) == {"JK"}
    trick(g, 1, ["JK", "5C", "6C", "7C"])
    assert last_winner(g) == 4


# -- §6.8 / §7 / §8 end to end ---------------------------------------------------------------------------
WORKED: list[tuple[int, str, dict[str, Any], int, list[int]]] = [
    # (B, trump, call, P, payments seats 0..4)  — seat 0 declarer, seat 3 holds the called ♣A
    (15, "D", CALL_AC, 16, [10, -5, -5, 5, -5]),  # §7.4 row 1: S = 2·2+1 = 5
    (15, "D", CALL_AC, 13, [-4, 2, 2, -2, 2]),  # row 2: S = 2
    (16, "NT", CALL_AC, 18, [32, -16, -16, 16, -16]),  # row 3: (6+2)·2 = 16
    (17, "H", CALL_AC, 20, [44, -22, -22, 22, -22]),  # row 4: (8+3)·2 run = 22
    (16, "NT", CALL_NONE, 17, [112, -28, -28, -28, -28]),  # row 5: (6+1)·2·2 = 28
    (16, "NT", CALL_NONE, 15, [-16, 4, 4, 4, 4]),  # row 6: 1·2·2 = 4
    (14, "H", CALL_AC, 9, [-20, 10, 10, -10, 10]),  # §7.3 back-run: (14−9)·2 = 10
    (14, "H", CALL_AC, 10, [-8, 4, 4, -4, 4]),  # §7.3 no back-run at P = 10: S = 4
    (13, "S", CALL_AC, 19, [12, -6, -6, 6, -6]),  # §7.3 no run at 19: S = 0 + 6 = 6
]


@pytest.mark.parametrize(("n", "trump", "call", "p", "pay"), WORKED)
def test_7_worked_examples_end_to_end(n: int, trump: str, call: dict[str, Any], p: int, pay: list[int]) -> None:
    """§7.1-§7.4 worked examples through a played hand: P = discards (2) + declarer + friend tricks."""
    g = ready(n, trump, call, discard=["JH", "TH", "JK"])
    friend = 3 if call["kind"] == "card" else None
    side = p - 2
    f = min(2, side) if friend is not None else 0
    captured = {0: side - f, 1: 20 - p}
    if friend is not None:
        captured[3] = f
    s = finish_hand(g, captured)
    assert s["discard_points"] == 2 and s["points"] == p and s["defender_points"] == 20 - p
    assert s["payments"] == pay and list(g.settlements()[-1].amounts["stake"]) == pay
    v = g.public_view()
    assert v["dealer"] == (0 if friend is None else 3) and v["opener"] == 0  # §8.2 / §8.3


def test_7_4_stake_multiplies_worked_example() -> None:
    """§7.4 row 1 with stake 3: +30 / +15 / −15."""
    g = ready(15, "D", CALL_AC, discard=["JH", "TH", "JK"], options={"stake": 3})
    s = finish_hand(g, {0: 12, 3: 2, 1: 4})
    assert s["points"] == 16 and s["score"] == 5
    assert s["payments"] == [30, -15, -15, 15, -15] and g.result() is None


def test_7_3_secret_solo_in_discards_6_8_3() -> None:
    """§5.3.1 / §6.8.3 / §7.3-7.4 / §8.2: called card in the discards: never revealed in play, declarer
    alone without doubling (14 ♥, P = 15 → S = 2+1 = 3: +12 / −3 each) and deals next."""
    g = ready(14, "H", {"type": "call", "kind": "card", "card": "TH"}, discard=["JH", "TH", "JK"])
    assert g.view(0)["secret_solo"] and not g.public_view()["friend_revealed"]
    s = finish_hand(g, {0: 13, 2: 5})
    assert s["secret_solo"] and s["friend"] is None and "no_friend" not in s["multipliers"]
    assert "TH" in s["discards"]
    assert not any(e["kind"] == "friend_revealed" for e in g.public_view()["events"] if e["hand"] == 0)
    assert s["payments"] == [12, -3, -3, -3, -3]
    assert g.public_view()["dealer"] == 0


def test_5_3_2_first_trick_won_by_declarer_alone_no_doubling() -> None:
    """§5.3.2 / §7.3 / §7.4 / §8.2: declarer wins trick 1 with the Mighty → alone, ±4S, no doubling.
    14 ♥, P = 12 → failed, S = 2: −8 / +2 each; the declarer deals next."""
    g = ready(14, "H", CALL_FIRST, hands=SWAP_DEAL, discard=["JH", "TH", "JK"])
    assert legal_cards(g, 0) == {"AS", "2C"}
    trick(g, 0, ["AS", "2D", "5D", "2S", "7S"])
    v = g.public_view()
    assert last_winner(g) == 0 and v["friend_revealed"] and v["friend"] is None
    s = finish_hand(g, {0: 10, 1: 4, 4: 4})
    assert s["friend"] is None and s["multipliers"] == [] and s["points"] == 12
    assert s["payments"] == [-8, 2, 2, 2, 2]
    assert g.public_view()["dealer"] == 0


def test_5_3_2_first_trick_friend_shares_and_deals_next() -> None:
    """§5.3.2 / §6.8.2 / §7.4 / §8.2: ♣A (seat 3) wins trick 1 → friend; 13 ♥, P = 14 → S = 1:
    +2 / +1 / −1; the friend deals the next hand, the declarer opens."""
    g = ready(13, "H", CALL_FIRST, discard=["JH", "TH", "JK"])
    play(g, 0, "2C")
    assert not g.public_view()["friend_revealed"]
    trick(g, 1, ["3C", "TC", "AC", "7S"])
    v = g.public_view()
    assert last_winner(g) == 3 and v["friend_revealed"] and v["friend"] == 3
    assert g.view(3)["role"] == "friend" and g.to_move() == (3,)
    s = finish_hand(g, {0: 9, 3: 3, 2: 6})
    assert s["friend"] == 3 and s["points"] == 14
    assert s["payments"] == [2, -1, -1, 1, -1]
    v = g.public_view()
    assert v["dealer"] == 3 and v["opener"] == 0 and g.to_move() == (0,)


def test_8_1_end_of_hand_reveal_is_public() -> None:
    """§8.1: the public end-of-hand record shows discards, friend, captured points, P, S, doublings, payments."""
    g = ready(16, "NT", CALL_AC, discard=["JH", "TH", "JK"])
    finish_hand(g, {0: 14, 3: 2, 4: 2})
    last = g.public_view()["last_hand"]
    assert sorted(last["discards"]) == ["JH", "JK", "TH"] and last["friend"] == 3
    assert [len(c) for c in last["captured"]] == [14, 0, 0, 2, 2]
    assert last["points"] == 18 and last["score"] == 16 and last["multipliers"] == ["nt"]
    assert last["payments"] == [32, -16, -16, 16, -16]


# -- §9 hidden information options --------------------------------------------------------------------------
def _two_tricks(options: dict[str, Any]) -> MightyGame:
    g = ready(13, "H", CALL_AC, options=options)
    for _ in range(10):
        (s,) = g.to_move()
        g.apply(s, g.legal_actions(s)[0])
    assert g.public_view()["trick_number"] == 3
    return g


def test_9_2_show_history_option() -> None:
    """§9 rule 2: only the last completed trick is public unless show_history is on."""
    v = _two_tricks({}).public_view()
    assert v["history"] is None and v["last_trick"]["number"] == 2
    v = _two_tricks({"show_history": True}).public_view()
    assert [t["number"] for t in v["history"]] == [1, 2] and v["last_trick"]["number"] == 2


def test_9_2_show_captured_option() -> None:
    """§9 rule 2: captured point cards are public by default; off → not shown (trick counts only)."""
    v = _two_tricks({}).public_view()
    assert v["captured"] is not None and sum(v["tricks_won"]) == 2
    assert all(c in POINT_CARDS for cs in v["captured"] for c in cs)
    v = _two_tricks({"show_captured": False}).public_view()
    assert v["captured"] is None and v["points_won"] is None and sum(v["tricks_won"]) == 2


# -- §6.6.3: a joker call that cannot rip anything ---------------------------------------------------------
def test_6_6_3_call_by_joker_holder_is_legal_without_effect() -> None:
    """§6.6.1 (call optional on any Ripper lead, tricks 2–10) + §6.6.3 (caller holds the Joker → no effect)."""
    g = pos("H", 3, ["3C JK", "4C 5D", "6C", "7C", "8C"], 0)
    assert {"type": "play", "card": "3C", "joker_call": True} in g.legal_actions(0)
    play(g, 0, "3C", joker_call=True)
    assert legal_cards(g, 1) == {"4C"}  # plain follow: nothing is forced
    trick(g, 1, ["4C", "6C", "7C", "8C"])
    assert last_winner(g) == 4


def test_6_6_3_call_after_joker_played_is_legal_without_effect() -> None:
    """§6.6.1 + §6.6.3: the Joker already played → the call may still be announced and changes nothing."""
    g = pos("H", 3, ["3C 2D", "4C", "5C", "6C", "7C"], 0)
    g._played.add("JK")
    assert {"type": "play", "card": "3C", "joker_call": True} in g.legal_actions(0)
    play(g, 0, "3C", joker_call=True)
    trick(g, 1, ["4C", "5C", "6C", "7C"])
    assert last_winner(g) == 4


def test_9_2_older_tricks_leave_no_trace_in_the_public_view() -> None:
    """§9 rule 2: without show_history the cards of trick 1 are gone from the public view (its events feed
    included) once trick 3 is under way; with show_history they are all there."""
    g = _two_tricks({"show_captured": False})
    (s,) = g.to_move()
    g.apply(s, g.legal_actions(s)[0])  # trick 3 has begun
    first = [c for _, c in g._history[0]["plays"]]
    pub = g.public_view()
    special = {pub["mighty"], pub["ripper"], "AC"}  # named in the contract and the friend call anyway
    blob = repr(pub)
    assert [c for c in first if c not in special and f"'{c}'" in blob] == []
    assert any(e["kind"] == "trick" and e["number"] == 1 and "cards" not in e for e in pub["events"])
    g = _two_tricks({"show_captured": False, "show_history": True})
    events = g.public_view()["events"]
    assert any(e["kind"] == "trick" and e["number"] == 1 and e["cards"] for e in events)

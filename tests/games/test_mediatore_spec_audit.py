"""Independent rules audit of the Mediatore engine against docs/rules/mediatore.md (hand-derived cases)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.errors import IllegalAction
from bot.games.mediatore import render as render
from bot.games.mediatore.engine import MediatoreGame, trick_winner
from bot.render.cards import italian_label

from .test_mediatore_rules import SUITED, SUITED_MONTE  # each seat holds one suit (its 4 is in the monte)

NAMES = ["Ada", "Bruno", "Carla", "Dario"]

# -- Deal "A" (dealer 3, seat 0 speaks and leads first) ---------------------------------------------------------
# Seat 0 holds eight Denari and the 5 of Coppe; nobody else holds a Denari, so seat 0 wins tricks 1-8 by leading
# Denari, then leads 5C and seat 1 takes the 9th (last) trick with AC, together with the monte.
DEAL_A = [
    ["2D", "KD", "ND", "JD", "7D", "6D", "5D", "4D", "5C"],
    ["3C", "2C", "AC", "KC", "NC", "JC", "7C", "6C", "4C"],
    ["3S", "2S", "KS", "NS", "JS", "7S", "6S", "5S", "4S"],
    ["3B", "2B", "KB", "NB", "JB", "7B", "6B", "5B", "4B"],
]
MONTE_A = ["AD", "3D", "AS", "AB"]  # 3 + 1 + 3 + 3 = 10 thirds


def script_a(variant: str) -> list[str]:
    """36 cards in play order. Variant "A": seat 3 discards JB early and plays 7B in trick 9; "B": the reverse.

    Hand count (thirds, §2.5) for variant A:
      tricks 1-8 (seat 0): D 2D KD ND JD = 4; C 3C 2C KC NC JC (7C 6C 4C) = 5; S 2S KS NS JS = 4;
                           B 3B 2B KB NB JB (6B 5B 4B) = 5  -> 18 thirds -> 6 points.
      trick 9 (seat 1): 5C 0 + AC 3 + 3S 1 + 7B 0 = 4; monte 10; last trick 3 -> 17 thirds -> 5 points.
    Variant B moves JB (1 third) from seat 0's tricks to the last trick: 17 / 18 -> 5 / 6 points.
    """
    d = ["2D", "KD", "ND", "JD", "7D", "6D", "5D", "4D"]
    c = ["3C", "2C", "KC", "NC", "JC", "7C", "6C", "4C"]
    s = ["2S", "KS", "NS", "JS", "7S", "6S", "5S", "4S"]
    b = ["3B", "2B", "KB", "NB", "JB", "6B", "5B", "4B"]
    last_b = "7B"
    if variant == "B":
        b[b.index("JB")] = "7B"
        last_b = "JB"
    out: list[str] = []
    for i in range(8):
        out += [d[i], c[i], s[i], b[i]]
    return [*out, "5C", "AC", "3S", last_b]


# -- Deal "SIG": seat 0's holdings exercise every signal condition of §10 ------------------------------------------
SIG = [
    ["7C", "6C", "5C", "4C", "6S", "5S", "AB", "4B", "JD"],
    ["3D", "2D", "AD", "KD", "ND", "7D", "6D", "5D", "4D"],
    ["3C", "2C", "AC", "KC", "NC", "JC", "3S", "2S", "AS"],
    ["KS", "NS", "JS", "7S", "4S", "3B", "2B", "KB", "NB"],
]
SIG_MONTE = ["JB", "7B", "6B", "5B"]


def make(
    hands: list[list[str]], monte: list[str], dealer: int = 3, options: dict[str, Any] | None = None
) -> MediatoreGame:
    return MediatoreGame._for_test(hands, monte, dealer=dealer, options=options)


def act(g: MediatoreGame, action: dict[str, Any]) -> None:
    g.apply(g.to_move()[0], action)


def win_auction(g: MediatoreGame, contract: str, bidder: int) -> None:
    """Everyone passes until ``bidder`` bids ``contract``; then three passes (unless Arcisolissimo)."""
    while g.to_move()[0] != bidder:
        act(g, {"type": "pass"})
    act(g, {"type": "bid", "contract": contract})
    if contract != "arcisolissimo":
        for _ in range(3):
            act(g, {"type": "pass"})


def play_cards(g: MediatoreGame, cards: list[str]) -> None:
    for card in cards:
        act(g, {"type": "play", "card": card})


def lead_signals(g: MediatoreGame, seat: int, card: str) -> set[str]:
    return {a["signal"] for a in g.legal_actions(seat) if a.get("card") == card and "signal" in a}


# ==== §2 cards ===================================================================================================
@pytest.mark.parametrize(
    ("high", "low"),
    [("3", "2"), ("2", "A"), ("A", "K"), ("K", "N"), ("N", "J"), ("J", "7"), ("7", "6"), ("6", "5"), ("5", "4")],
)
def test_s2_2_rank_order_each_adjacent_pair(high: str, low: str) -> None:
    """§2.2: 3 > 2 > A > K > N > J > 7 > 6 > 5 > 4 in every suit, whoever plays the higher card."""
    for suit in "DCSB":
        other = "C" if suit != "C" else "D"
        assert trick_winner([(0, low + suit), (1, high + suit), (2, "3" + other), (3, "2" + other)]) == 1
        assert trick_winner([(2, high + suit), (3, low + suit), (0, "2" + other), (1, "3" + other)]) == 2


# ==== §4 auction ==================================================================================================
def test_s4_3_overbid_player_may_bid_again() -> None:
    """§4.3: a player whose bid was overbid may bid again (strictly higher) when the turn comes back."""
    g = make(DEAL_A, MONTE_A)
    act(g, {"type": "bid", "contract": "chiamo"})  # seat 0
    act(g, {"type": "bid", "contract": "mediatore"})  # seat 1
    act(g, {"type": "pass"})
    act(g, {"type": "pass"})
    assert g.to_move() == (0,)
    assert [a.get("contract") for a in g.legal_actions(0)] == [None, "solo", "solissimo", "arcisolissimo"]
    act(g, {"type": "bid", "contract": "solo"})  # seat 0 again
    act(g, {"type": "bid", "contract": "solissimo"})  # seat 1 again
    for _ in range(3):
        act(g, {"type": "pass"})
    v = g.public_view()
    assert v["contract"] == "solissimo" and v["bidder"] == 1 and v["phase"] == "play"


def test_s4_5_s4_6_three_passes_then_bid_is_not_a_throw_in() -> None:
    """§4.6: only four passes in the first four turns throw the hand in; a bid on turn 4 opens the auction."""
    g = make(DEAL_A, MONTE_A)
    for _ in range(3):
        act(g, {"type": "pass"})
    act(g, {"type": "bid", "contract": "chiamo"})  # seat 3, the dealer, on the fourth turn
    assert g.phase == "auction" and g.hand_number == 0 and g.to_move() == (0,)
    act(g, {"type": "pass"})
    act(g, {"type": "pass"})
    assert g.phase == "auction"
    act(g, {"type": "pass"})
    v = g.public_view()
    assert v["phase"] == "call" and v["bidder"] == 3 and v["contract"] == "chiamo"


def test_s4_5_passes_before_the_bid_do_not_count() -> None:
    """§4.5: the auction ends after three passes *following the last bid*, not three passes in total."""
    g = make(DEAL_A, MONTE_A)
    act(g, {"type": "pass"})  # seat 0
    act(g, {"type": "bid", "contract": "solo"})  # seat 1
    act(g, {"type": "pass"})  # seat 2
    act(g, {"type": "pass"})  # seat 3
    assert g.phase == "auction" and g.to_move() == (0,)
    act(g, {"type": "pass"})  # seat 0: third pass after the bid
    assert g.phase == "exchange" and g.public_view()["bidder"] == 1


def test_s3_4_s4_6_after_throw_in_new_dealers_right_speaks() -> None:
    """§3.4 DECISION / §4.2: after an all-pass hand the next dealer deals and *their* right speaks first."""
    g = make(DEAL_A, MONTE_A, dealer=3)
    for _ in range(4):
        act(g, {"type": "pass"})
    v = g.public_view()
    assert v["dealer"] == 0 and g.to_move() == (1,) and v["phase"] == "auction"
    assert v["auction"] == [] and v["totals"] == [0, 0, 0, 0]
    for _ in range(4):
        act(g, {"type": "pass"})
    assert g.public_view()["dealer"] == 1 and g.to_move() == (2,)


# ==== §5 contracts ================================================================================================
def test_s5_1_mediatore_call_must_not_be_in_own_hand() -> None:
    """§5.1 DECISION applies to Mediatore too: own cards cannot be called; others' and monte cards can."""
    g = make(DEAL_A, MONTE_A)
    win_auction(g, "mediatore", bidder=0)
    calls = {a["card"] for a in g.legal_actions(0)}
    assert len(calls) == 31 and not calls & set(DEAL_A[0])
    assert {"AD", "3S", "AC", "3B"} <= calls
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "call", "card": "KD"})
    assert g.phase == "call"


def test_s5_3_3_give_back_may_be_the_called_card() -> None:
    """§5.3.3: any card may be returned to the giver, including the called card itself; sizes 9 → 10 → 14 → 9."""
    g = make(DEAL_A, MONTE_A)
    win_auction(g, "mediatore", bidder=0)
    g.apply(0, {"type": "call", "card": "3S"})  # held by seat 2
    assert g.public_view()["hand_sizes"] == [14, 9, 8, 9]
    g.apply(0, {"type": "discard", "discard": ["AD", "3D", "AS", "AB"], "give": "3S"})
    assert g.public_view()["hand_sizes"] == [9, 9, 9, 9]
    assert sorted(g.view(2)["hand"]) == sorted(DEAL_A[2])
    assert g.view(2)["private"] == {"received": "3S"}


def test_s5_2_4_bidder_playing_called_card_from_monte_reveals_no_partner() -> None:
    """§5.2.3/§5.2.4/§11.3: a bidder may keep a called card found in the monte; playing it shows 'no partner'."""
    g = make(DEAL_A, MONTE_A)
    win_auction(g, "chiamo", bidder=0)
    g.apply(0, {"type": "call", "card": "AS"})  # in the monte
    g.apply(0, {"type": "discard", "discard": ["7D", "6D", "5D", "4D"]})  # keeps AS
    assert "AS" in g.view(0)["hand"]
    pub = g.public_view()
    assert pub["partner_status"] == "hidden" and pub["partner"] is None
    g.apply(0, {"type": "play", "card": "AS"})
    pub = g.public_view()
    assert pub["partner_status"] == "none" and pub["partner"] is None
    ev = [e for e in pub["events"] if e["kind"] == "partner_revealed"]
    assert ev == [{"kind": "partner_revealed", "seat": None, "bidder": 0, "card": "AS", "alone": True}]


def test_s5_6_arcisolissimo_bidder_never_sees_monte() -> None:
    """§5.6/§11: in Arcisolissimo nobody (not even the bidder) sees the monte; no exchange happens."""
    g = make(DEAL_A, MONTE_A)
    win_auction(g, "arcisolissimo", bidder=2)
    assert g.phase == "play" and g.to_move() == (0,)
    for seat in range(4):
        v = g.view(seat)
        assert "monte_seen" not in v["private"] and "discards" not in v["private"]
        assert not set(MONTE_A) & set(v["hand"])
    assert g.public_view()["monte_exposed"] is None and g.public_view()["monte_count"] == 4


@pytest.mark.parametrize(("contract", "dealer", "bidder"), [("chiamo", 1, 0), ("mediatore", 1, 3), ("solo", 0, 3)])
def test_s6_1_first_leader_is_dealers_right_whatever_the_contract(contract: str, dealer: int, bidder: int) -> None:
    """§6.1: the player to the dealer's right leads trick 1, not the bidder."""
    g = make(DEAL_A, MONTE_A, dealer=dealer)
    win_auction(g, contract, bidder=bidder)
    if g.phase == "call":
        g.apply(bidder, {"type": "call", "card": "AD" if "AD" not in g.view(bidder)["hand"] else "3D"})
    if g.phase == "exchange":
        fields = g.view(bidder)["prompt"]["fields"]
        hand = list(fields[0]["from"])
        action: dict[str, Any] = {"type": "discard", "discard": hand[:4]}
        if len(fields) == 2:
            action["give"] = hand[4]
        g.apply(bidder, action)
    assert g.phase == "play" and g.to_move() == ((dealer + 1) % 4,)


# ==== §7 counting / §8 payments: the whole table, end to end on hand-counted deals ================================
# (contract, called card, give-back card, variant, expected bidder-side thirds, expected deltas)
SCORING_CASES: list[tuple[str, str | None, str | None, str, int, list[int]]] = [
    ("chiamo", "3S", None, "A", 18, [5, -4, 3, -4]),  # partner = seat 2 (holds 3S)
    ("chiamo", "3S", None, "B", 17, [-5, 4, -3, 4]),
    ("chiamo", "AS", None, "A", 18, [12, -4, -4, -4]),  # called card in the monte: alone
    ("chiamo", "AS", None, "B", 17, [-12, 4, 4, 4]),
    ("mediatore", "3S", "3S", "A", 18, [22, -8, -6, -8]),  # giver = seat 2
    ("mediatore", "3S", "3S", "B", 17, [-22, 8, 6, 8]),
    ("mediatore", "AD", None, "A", 18, [24, -8, -8, -8]),  # called card in the monte: no giver
    ("mediatore", "AD", None, "B", 17, [-24, 8, 8, 8]),
    ("solo", None, None, "A", 18, [36, -12, -12, -12]),
    ("solo", None, None, "B", 17, [-36, 12, 12, 12]),
    ("solissimo", None, None, "A", 18, [48, -16, -16, -16]),
    ("solissimo", None, None, "B", 17, [-48, 16, 16, 16]),
    ("arcisolissimo", None, None, "A", 18, [54, -18, -18, -18]),
    ("arcisolissimo", None, None, "B", 17, [-54, 18, 18, 18]),
]


def play_deal_a(contract: str, called: str | None, give: str | None, variant: str, stake: int = 1) -> dict[str, Any]:
    g = make(DEAL_A, MONTE_A, options={"hands": 1, "stake": stake})
    win_auction(g, contract, bidder=0)
    if called is not None:
        g.apply(0, {"type": "call", "card": called})
    if g.phase == "exchange":
        action: dict[str, Any] = {"type": "discard", "discard": list(MONTE_A)}  # bury the same four cards
        if give is not None:
            action["give"] = give
        g.apply(0, action)
    assert [sorted(g.view(s)["hand"]) for s in range(4)] == [sorted(h) for h in DEAL_A]
    play_cards(g, script_a(variant))
    assert g.is_over
    (st,) = g.settlements()
    return dict(st.summary) | {"amounts": list(st.amounts["stake"])}


@pytest.mark.parametrize(("contract", "called", "give", "variant", "b_thirds", "deltas"), SCORING_CASES)
def test_s7_s8_target_boundary_and_payment_table(
    contract: str, called: str | None, give: str | None, variant: str, b_thirds: int, deltas: list[int]
) -> None:
    """§7.2-§7.3 (18 thirds = 6 points wins, 17 = 5 loses), §5.7 (monte to the last trick) and the §8 table."""
    s = play_deal_a(contract, called, give, variant)
    assert s["bidder_side_thirds"] == b_thirds and s["defender_thirds"] == 35 - b_thirds
    assert s["bidder_side_points"] == b_thirds // 3 and s["defender_points"] == (35 - b_thirds) // 3
    assert s["made"] is (b_thirds == 18)
    assert s["capotto"] is False and s["last_trick_winner"] == 1
    assert sorted(s["final_monte"]) == sorted(MONTE_A)  # 10 thirds, counted for the last trick's side
    assert s["payments"] == deltas and s["amounts"] == deltas


# Deal "C": seat 0 loses trick 1 (5C to AC), regains the lead in trick 2 and wins tricks 2-9 and the monte.
DEAL_C = [
    ["3D", "2D", "AD", "KD", "ND", "JD", "7D", "6D", "5C"],
    ["3C", "2C", "AC", "KC", "NC", "JC", "7C", "6C", "4D"],
    ["3S", "2S", "KS", "NS", "JS", "7S", "6S", "5S", "4S"],
    ["3B", "2B", "KB", "NB", "JB", "7B", "6B", "5B", "4B"],
]
MONTE_C = ["5D", "4C", "AS", "AB"]  # 6 thirds


def test_s5_7_monte_goes_to_bidder_winning_last_trick() -> None:
    """§5.7/§7.2/§2.6: trick 1 = 5C AC 3S 3B (5 thirds) to the defenders; the rest plus monte 6 + last 3 = 30.

    Scores floor(30/3) = 10 and floor(5/3) = 1 (sum 11); Solissimo made: +48 / -16 each.
    """
    g = make(DEAL_C, MONTE_C, options={"hands": 1})
    win_auction(g, "solissimo", bidder=0)
    play_cards(g, ["5C", "AC", "3S", "3B"])  # seat 1 wins
    play_cards(g, ["4D", "2S", "2B", "6D"])  # seat 1 leads; seat 0 takes it
    d = ["3D", "2D", "AD", "KD", "ND", "JD", "7D"]
    c = ["3C", "2C", "KC", "NC", "JC", "7C", "6C"]
    sp = ["KS", "NS", "JS", "7S", "6S", "5S", "4S"]
    b = ["KB", "NB", "JB", "7B", "6B", "5B", "4B"]
    for i in range(7):
        play_cards(g, [d[i], c[i], sp[i], b[i]])
    s = g.settlements()[0].summary
    assert s["last_trick_winner"] == 0 and s["bidder_side_tricks"] == 8 and s["capotto"] is False
    assert sorted(s["final_monte"]) == sorted(MONTE_C)
    assert (s["bidder_side_thirds"], s["defender_thirds"]) == (30, 5)
    assert (s["bidder_side_points"], s["defender_points"]) == (10, 1)
    assert s["payments"] == [48, -16, -16, -16]


def test_s8_stake_unit_multiplies_non_capotto_payments() -> None:
    """§0/§8: one stake unit may carry a value; every delta is multiplied by it."""
    s = play_deal_a("mediatore", "3S", "3S", "A", stake=3)
    assert s["amounts"] == [66, -24, -18, -24]


def test_s7_1_chiamo_side_membership_and_end_reveal() -> None:
    """§7.1 + §11 end of hand: the partner's side is bidder+holder; the reveal names partner and discards."""
    s = play_deal_a("chiamo", "3S", None, "A")
    assert s["partner"] == 2 and sorted(s["bidder_side"]) == [0, 2] and s["called_in_monte"] is False
    assert sorted(s["discards"]) == sorted(MONTE_A) and sorted(s["monte"]) == sorted(MONTE_A)
    alone = play_deal_a("chiamo", "AS", None, "A")
    assert alone["partner"] is None and alone["bidder_side"] == [0] and alone["called_in_monte"] is True


def test_s7_4_chiamo_side_capotto_split_between_bidder_and_partner() -> None:
    """§7.4/§8.4: bidder 8 tricks + partner the last one = all 9 for the side: capotto, 11-0, 7/5/-6/-6."""
    s = play_deal_a("chiamo", "AC", None, "A")  # seat 1 (who wins trick 9) is the partner
    assert s["partner"] == 1 and s["bidder_side_tricks"] == 9
    assert s["capotto"] is True and s["capotto_side"] == "bidder"
    assert s["bidder_side_thirds"] == 35 and s["defender_thirds"] == 0
    assert (s["bidder_side_points"], s["defender_points"]) == (11, 0) and s["made"] is True
    assert s["payments"] == [7, 5, -6, -6]


def test_s8_4_defenders_capotto_against_chiamo_pair() -> None:
    """§8.4: defenders take all 9 tricks against bidder+partner: bidder -7, partner -5, defenders +6 each."""
    g = make(SUITED, SUITED_MONTE, options={"hands": 1})
    win_auction(g, "chiamo", bidder=1)
    g.apply(1, {"type": "call", "card": "3S"})  # seat 2 is the partner
    g.apply(1, {"type": "discard", "discard": list(SUITED_MONTE)})
    cards: list[str] = []
    for i in range(9):  # seat 0 leads Denari every time; the others cannot follow
        cards += [SUITED[0][i], SUITED[1][i], SUITED[2][i], SUITED[3][i]]
    play_cards(g, cards)
    s = g.settlements()[0].summary
    assert s["partner"] == 2 and s["bidder_side_tricks"] == 0 and s["capotto_side"] == "defenders"
    assert (s["bidder_side_points"], s["defender_points"]) == (0, 11) and s["made"] is False
    assert s["payments"] == [6, -7, -5, 6]


def test_s8_4_chiamo_alone_capotto() -> None:
    """§8.4: Chiamo with the called card in the monte and all 9 tricks: bidder +18, each defender -6."""
    g = make(SUITED, SUITED_MONTE, options={"hands": 1})
    win_auction(g, "chiamo", bidder=0)
    g.apply(0, {"type": "call", "card": "4C"})  # in the monte
    g.apply(0, {"type": "discard", "discard": list(SUITED_MONTE)})
    cards: list[str] = []
    for i in range(9):
        cards += [SUITED[0][i], SUITED[1][i], SUITED[2][i], SUITED[3][i]]
    play_cards(g, cards)
    s = g.settlements()[0].summary
    assert s["partner"] is None and s["capotto"] is True and s["bidder_side_points"] == 11
    assert s["payments"] == [18, -6, -6, -6]


def test_s8_4_mediatore_giver_capotto_defenders_win() -> None:
    """§8.4: Mediatore lost by capotto: giver +8, the other two +10, bidder -28."""
    g = make(SUITED, SUITED_MONTE, options={"hands": 1})
    win_auction(g, "mediatore", bidder=1)
    g.apply(1, {"type": "call", "card": "5B"})  # seat 3 gives it
    g.apply(1, {"type": "discard", "discard": list(SUITED_MONTE), "give": "5B"})
    cards: list[str] = []
    for i in range(9):
        cards += [SUITED[0][i], SUITED[1][i], SUITED[2][i], SUITED[3][i]]
    play_cards(g, cards)
    s = g.settlements()[0].summary
    assert s["giver"] == 3 and s["capotto_side"] == "defenders"
    assert s["payments"] == [10, -28, 10, 8]


# ==== §10 signals =================================================================================================
@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("7C", {"knock"}),  # 6C 5C 4C remain: three low cards is not a Stroke
        ("4C", {"knock"}),
        ("6S", {"knock", "stroke"}),  # exactly one low card (5S) remains
        ("AB", {"knock", "stroke"}),  # the led card may be high; only what remains (4B) matters
        ("4B", {"knock"}),  # AB remains: not low
        ("JD", {"knock", "fly"}),  # last card of the suit
    ],
)
def test_s10_signal_conditions_after_the_lead(card: str, expected: set[str]) -> None:
    """§10 table: Fly = no card of the suit left; Stroke = 1 or 2 left, all 7/6/5/4; Knock always."""
    g = make(SIG, SIG_MONTE)
    win_auction(g, "arcisolissimo", bidder=3)
    assert g.to_move() == (0,)
    assert lead_signals(g, 0, card) == expected
    for sig in {"knock", "fly", "stroke"} - expected:
        with pytest.raises(IllegalAction):
            g.apply(0, {"type": "play", "card": card, "signal": sig})
    g.apply(0, {"type": "play", "card": card, "signal": sorted(expected)[-1]})
    assert g.public_view()["trick"]["signal"] == sorted(expected)[-1]


def _set_up_contract(contract: str, bidder: int) -> MediatoreGame:
    g = make(SIG, SIG_MONTE)
    win_auction(g, contract, bidder=bidder)
    if contract == "mediatore":
        called = "3D" if bidder == 0 else "3C"  # held by seat 1 / seat 2
        g.apply(bidder, {"type": "call", "card": called})
        g.apply(bidder, {"type": "discard", "discard": list(SIG_MONTE), "give": called})
    elif contract == "solo":
        g.apply(bidder, {"type": "discard", "discard": list(SIG_MONTE)})
    assert g.phase == "play" and g.to_move() == (0,)
    return g


@pytest.mark.parametrize("contract", ["mediatore", "solo", "solissimo"])
def test_s10_4_lone_bidder_gets_no_signals(contract: str) -> None:
    """§10.4: no signals for a bidder publicly known to play alone (Mediatore, Solo, Solissimo)."""
    g = _set_up_contract(contract, bidder=0)
    assert all("signal" not in a for a in g.legal_actions(0))
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "play", "card": "JD", "signal": "knock"})


@pytest.mark.parametrize("contract", ["mediatore", "solo", "solissimo"])
def test_s10_4_defenders_of_lone_bidder_may_signal(contract: str) -> None:
    """§10.4: the restriction is only for the lone bidder; a defender leading may signal."""
    g = _set_up_contract(contract, bidder=1)
    assert lead_signals(g, 0, "JD") == {"knock", "fly"}


def test_s10_4_chiamo_partner_and_defender_may_signal() -> None:
    """§10.4: in Chiamo everyone may signal: the (secret) partner leading, and a defender leading."""
    g = make(SIG, SIG_MONTE)
    win_auction(g, "chiamo", bidder=1)
    g.apply(1, {"type": "call", "card": "7C"})  # seat 0 holds it: seat 0 is the partner and leads
    g.apply(1, {"type": "discard", "discard": list(SIG_MONTE)})
    assert g.view(0)["role"] == {"side": "partner", "partner_of": 1}
    assert lead_signals(g, 0, "6S") == {"knock", "stroke"}
    g2 = make(SIG, SIG_MONTE)
    win_auction(g2, "chiamo", bidder=1)
    g2.apply(1, {"type": "call", "card": "3C"})  # seat 2: seat 0 is a defender
    g2.apply(1, {"type": "discard", "discard": list(SIG_MONTE)})
    assert g2.view(0)["role"] == {"side": "defender"}
    assert lead_signals(g2, 0, "JD") == {"knock", "fly"}


# ==== §11 hidden information ======================================================================================
def test_s11_2_public_table_does_not_show_older_tricks() -> None:
    """§11.2: during play only the current trick and the last completed trick may be shown (show_history off)."""
    g = make(SIG, SIG_MONTE)
    win_auction(g, "arcisolissimo", bidder=3)
    trick1 = ["JD", "ND", "3C", "4S"]  # seat 1 wins with ND
    trick2 = ["6D", "2C", "KS", "5C"]  # seat 1 leads 6D; seats 2, 3 and 0 are void in Denari
    play_cards(g, trick1 + trick2)
    play_cards(g, ["5D"])  # seat 1 leads trick 3
    pub = g.public_view()
    assert pub["last_trick"]["plays"] == [[1, "6D"], [2, "2C"], [3, "KS"], [0, "5C"]]
    text = render.public_panel(pub, NAMES).text()
    shown = [c for c in trick1 if italian_label(c) in text]
    assert shown == [], f"older trick cards shown on the public table: {shown}"


def test_s11_chiamo_exchange_and_call_do_not_leak_monte_publicly() -> None:
    """§11 (Chiamo call/exchange rows): public sees the called card only; the monte and discards stay hidden."""
    g = make(DEAL_A, MONTE_A)
    win_auction(g, "chiamo", bidder=0)
    g.apply(0, {"type": "call", "card": "3S"})
    g.apply(0, {"type": "discard", "discard": ["AD", "3D", "5C", "4D"]})
    pub = g.public_view()
    blob = repr(pub)
    assert pub["monte_exposed"] is None and pub["called_card"] == "3S"
    for c in ["AD", "3D", "AS", "AB", "5C", "4D"]:
        assert f"'{c}'" not in blob
    assert g.view(0)["private"]["discards"] == ["AD", "3D", "5C", "4D"]
    assert sorted(g.view(0)["private"]["monte_seen"]) == sorted(MONTE_A)
    for seat in (1, 2, 3):
        assert g.view(seat)["private"] == {}

"""Unit tests of the Mediatore rules (docs/rules/mediatore.md), one group per spec section."""

from __future__ import annotations

import json

import pytest

from bot.engine.cards import ITALIAN_40
from bot.engine.errors import IllegalAction, InvalidOptions
from bot.engine.rng import make_rng, shuffled
from bot.games.mediatore.engine import MediatoreGame, card_thirds, payments, trick_winner

# Every suit is held by one seat (its 4 is in the monte): the seat leading its own suit takes every trick.
SUITED = [
    ["3D", "2D", "AD", "KD", "ND", "JD", "7D", "6D", "5D"],
    ["3C", "2C", "AC", "KC", "NC", "JC", "7C", "6C", "5C"],
    ["3S", "2S", "AS", "KS", "NS", "JS", "7S", "6S", "5S"],
    ["3B", "2B", "AB", "KB", "NB", "JB", "7B", "6B", "5B"],
]
SUITED_MONTE = ["4D", "4C", "4S", "4B"]

MIX = [
    ["3D", "2D", "AD", "7C", "6C", "5C", "3S", "AS", "4B"],
    ["KD", "ND", "JD", "3C", "2C", "AC", "2S", "KS", "NS"],
    ["7D", "6D", "5D", "KC", "NC", "JC", "JS", "7S", "6S"],
    ["4D", "4C", "5S", "4S", "3B", "2B", "AB", "KB", "NB"],
]
MIX_MONTE = ["JB", "7B", "6B", "5B"]


def make(hands=MIX, monte=MIX_MONTE, options=None) -> MediatoreGame:
    # dealer 3: seat 0 speaks and leads first
    return MediatoreGame._for_test(hands, monte, dealer=3, options=options)


def auction(g: MediatoreGame, contract: str, bidder: int = 0) -> None:
    seat = g.to_move()[0]
    while seat != bidder:
        g.apply(seat, {"type": "pass"})
        seat = g.to_move()[0]
    g.apply(bidder, {"type": "bid", "contract": contract})
    if contract != "arcisolissimo":
        for _ in range(3):
            g.apply(g.to_move()[0], {"type": "pass"})


def snapshot(g: MediatoreGame) -> str:
    return json.dumps([g.public_view(), [g.view(s) for s in range(4)], [x.amounts for x in g.settlements()]])


def expect_illegal(g: MediatoreGame, seat: int, action: dict) -> None:
    before = snapshot(g)
    with pytest.raises(IllegalAction):
        g.apply(seat, action)
    assert snapshot(g) == before


# -- options -----------------------------------------------------------------------------------------------
def test_options_defaults_and_validation() -> None:
    g = MediatoreGame(4, None, 1)
    assert g.options == {"stake": 1, "signals": True, "hands": 0, "show_history": False, "hints": False}
    with pytest.raises(InvalidOptions):
        MediatoreGame(4, {"stake": 0}, 1)
    with pytest.raises(InvalidOptions):
        MediatoreGame(4, {"hands": -1}, 1)
    with pytest.raises(InvalidOptions):
        MediatoreGame(4, {"colour": 1}, 1)
    with pytest.raises(InvalidOptions):
        MediatoreGame(4, {"signals": "yes"}, 1)
    with pytest.raises(InvalidOptions):
        MediatoreGame(3, None, 1)
    with pytest.raises(InvalidOptions):  # 0 is not a boolean, even though 0 == False
        MediatoreGame(4, {"signals": 0}, 1)
    assert MediatoreGame(4, {"signals": False}, 1).options["signals"] is False


# -- §2 cards -----------------------------------------------------------------------------------------------
def test_card_values_in_thirds() -> None:
    assert card_thirds(list(ITALIAN_40)) == 32
    assert card_thirds(["AD"]) == 3
    assert card_thirds(["3C", "2C", "KC", "NC", "JC"]) == 5
    assert card_thirds(["7S", "6S", "5S", "4S"]) == 0


def test_trick_winner_highest_of_led_suit() -> None:
    assert trick_winner([(0, "AD"), (1, "3C"), (2, "2D"), (3, "3D")]) == 3
    assert trick_winner([(1, "4B"), (2, "3C"), (3, "3S"), (0, "AD")]) == 1  # other suits never win
    assert trick_winner([(2, "JS"), (3, "NS"), (0, "7S"), (1, "KS")]) == 1


# -- §3 dealing ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
def test_deal_mapping_and_first_dealer(seed: int) -> None:
    g = MediatoreGame(4, None, seed)
    dealer = make_rng(seed, "first_dealer").randrange(4)
    assert g.public_view()["dealer"] == dealer
    d = shuffled(ITALIAN_40, make_rng(seed, "deal", 0))
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        want = [c for r in range(3) for c in d[12 * r + 3 * i : 12 * r + 3 * i + 3]]
        assert sorted(g.view(seat)["hand"]) == sorted(want)
    assert sorted(g._monte) == sorted(d[36:40])
    assert g.to_move() == ((dealer + 1) % 4,)


def test_first_dealer_varies_with_seed() -> None:
    assert {MediatoreGame(4, None, s).public_view()["dealer"] for s in range(40)} == {0, 1, 2, 3}


# -- §4 auction ---------------------------------------------------------------------------------------------
def test_auction_order_jumps_and_overbids() -> None:
    g = make()
    assert g.to_move() == (0,)
    assert [a.get("contract") for a in g.legal_actions(0)] == [
        None, "chiamo", "mediatore", "solo", "solissimo", "arcisolissimo"
    ]  # fmt: skip
    g.apply(0, {"type": "bid", "contract": "mediatore"})
    assert g.to_move() == (1,)
    expect_illegal(g, 1, {"type": "bid", "contract": "chiamo"})
    expect_illegal(g, 1, {"type": "bid", "contract": "mediatore"})
    expect_illegal(g, 2, {"type": "pass"})  # not their turn
    g.apply(1, {"type": "bid", "contract": "solo"})  # jump past nothing, strictly higher
    assert [a.get("contract") for a in g.legal_actions(2)] == [None, "solissimo", "arcisolissimo"]


def test_pass_is_not_final_and_three_passes_end() -> None:
    g = make()
    g.apply(0, {"type": "pass"})
    g.apply(1, {"type": "bid", "contract": "chiamo"})
    g.apply(2, {"type": "pass"})
    g.apply(3, {"type": "pass"})
    g.apply(0, {"type": "bid", "contract": "mediatore"})  # seat 0 passed before and bids now
    g.apply(1, {"type": "pass"})
    g.apply(2, {"type": "pass"})
    assert g.phase == "auction"
    g.apply(3, {"type": "pass"})
    v = g.public_view()
    assert v["phase"] == "call" and v["contract"] == "mediatore" and v["bidder"] == 0
    assert v["auction"] == [[0, None], [1, "chiamo"], [2, None], [3, None], [0, "mediatore"], [1, None],
                            [2, None], [3, None]]  # fmt: skip


def test_arcisolissimo_ends_auction_at_once() -> None:
    g = make()
    g.apply(0, {"type": "pass"})
    g.apply(1, {"type": "bid", "contract": "arcisolissimo"})
    v = g.public_view()
    assert v["phase"] == "play" and v["contract"] == "arcisolissimo" and v["bidder"] == 1
    assert g.to_move() == (0,)  # §6.1: dealer's right leads whatever the contract
    assert v["monte_exposed"] is None and v["monte_count"] == 4


def test_all_pass_throws_in_without_settlement() -> None:
    g = MediatoreGame(4, {"hands": 1}, 5)
    d0 = g.public_view()["dealer"]
    for _ in range(4):
        g.apply(g.to_move()[0], {"type": "pass"})
    v = g.public_view()
    assert g.settlements() == [] and not g.is_over  # thrown-in hands do not count towards `hands`
    assert v["dealer"] == (d0 + 1) % 4 and v["hand_number"] == 1 and v["phase"] == "auction"
    assert v["totals"] == [0, 0, 0, 0]
    assert any(e["kind"] == "thrown_in" for e in v["events"])
    d = shuffled(ITALIAN_40, make_rng(5, "deal", 1))
    first = (d0 + 2) % 4
    assert sorted(g.view(first)["hand"]) == sorted(d[0:3] + d[12:15] + d[24:27])


# -- §5 contracts -------------------------------------------------------------------------------------------
def test_call_must_be_a_card_not_in_hand() -> None:
    g = make()
    auction(g, "chiamo")
    assert g.phase == "call"
    acts = g.legal_actions(0)
    assert len(acts) == 31 and all(a["card"] not in MIX[0] for a in acts)
    expect_illegal(g, 0, {"type": "call", "card": "3D"})
    expect_illegal(g, 0, {"type": "call", "card": "ZZ"})
    expect_illegal(g, 1, {"type": "call", "card": "3C"})


def test_chiamo_secret_partner() -> None:
    g = make()
    auction(g, "chiamo")
    g.apply(0, {"type": "call", "card": "3C"})  # held by seat 1
    pub = g.public_view()
    assert pub["called_card"] == "3C" and pub["partner"] is None and pub["partner_status"] == "hidden"
    assert pub["giver"] is None and pub["called_in_monte"] is None and pub["monte_exposed"] is None
    assert g.view(1)["role"] == {"side": "partner", "partner_of": 0}
    assert g.view(2)["role"] == {"side": "defender"} and g.view(3)["role"] == {"side": "defender"}
    bv = g.view(0)
    assert bv["role"]["alone"] is False and "partner_of" not in json.dumps(bv)
    assert sorted(bv["private"]["monte_seen"]) == sorted(MIX_MONTE)
    assert len(bv["hand"]) == 13 and pub["monte_count"] == 0
    prompt = bv["prompt"]
    assert prompt["kind"] == "combo" and prompt["type"] == "discard"
    assert [(f["key"], f["count"], len(f["from"])) for f in prompt["fields"]] == [("discard", 4, 13)]
    assert len(g.legal_actions(0)) == 715
    # any 4 cards, including monte cards and counting cards
    expect_illegal(g, 0, {"type": "discard", "discard": ["3D", "2D", "AD"]})
    expect_illegal(g, 0, {"type": "discard", "discard": ["3D", "3D", "2D", "AD"]})
    expect_illegal(g, 0, {"type": "discard", "discard": ["3D", "2D", "AD", "KD"]})
    g.apply(0, {"type": "discard", "discard": ["AD", "JB", "7B", "4B"]})
    assert g.phase == "play"
    assert [len(g.view(s)["hand"]) for s in range(4)] == [9, 9, 9, 9]
    assert g.public_view()["monte_count"] == 4
    assert g.view(0)["private"]["discards"] == ["AD", "JB", "7B", "4B"]
    assert not any(e["kind"] == "partner_revealed" for e in g.public_view()["events"])


def test_chiamo_called_card_in_monte_bidder_alone_privately() -> None:
    g = make()
    auction(g, "chiamo")
    g.apply(0, {"type": "call", "card": "JB"})  # in the monte
    assert g.view(0)["role"]["alone"] is True
    assert "monte" in g.view(0)["role"]["note"]
    pub = json.dumps(g.public_view())
    assert "alone" not in pub and g.public_view()["partner_status"] == "hidden"
    for s in (1, 2, 3):
        assert g.view(s)["role"] == {"side": "defender"}
    # the bidder may keep or bury the called card
    g.apply(0, {"type": "discard", "discard": ["JB", "7B", "6B", "5B"]})
    assert g.phase == "play"


def test_partner_revealed_when_called_card_played() -> None:
    g = make()
    auction(g, "chiamo")
    g.apply(0, {"type": "call", "card": "3C"})
    g.apply(0, {"type": "discard", "discard": ["JB", "7B", "6B", "5B"]})
    g.apply(0, {"type": "play", "card": "7C"})
    assert g.public_view()["partner_status"] == "hidden"
    g.apply(1, {"type": "play", "card": "3C"})
    pub = g.public_view()
    assert pub["partner_status"] == "revealed" and pub["partner"] == 1
    ev = [e for e in pub["events"] if e["kind"] == "partner_revealed"]
    assert ev == [{"kind": "partner_revealed", "seat": 1, "bidder": 0, "card": "3C", "alone": False}]


def test_mediatore_handover_exposed_monte_and_give_back() -> None:
    g = make()
    auction(g, "mediatore")
    g.apply(0, {"type": "call", "card": "KD"})  # seat 1 holds it
    pub = g.public_view()
    assert pub["giver"] == 1 and pub["called_in_monte"] is False
    assert pub["monte_exposed"] == MIX_MONTE
    assert pub["hand_sizes"] == [14, 8, 9, 9]
    assert "KD" in g.view(0)["hand"] and "KD" not in g.view(1)["hand"]
    prompt = g.view(0)["prompt"]
    assert [(f["key"], f["count"], len(f["from"])) for f in prompt["fields"]] == [("discard", 4, 14), ("give", 1, 14)]
    assert len(g.legal_actions(0)) == 1001 * 10
    expect_illegal(g, 0, {"type": "discard", "discard": ["7C", "6C", "5C", "4B"]})  # no give
    expect_illegal(g, 0, {"type": "discard", "discard": ["7C", "6C", "5C", "4B"], "give": "4B"})
    expect_illegal(g, 0, {"type": "discard", "discard": ["7C", "6C", "5C", "4B"], "give": "3C"})
    g.apply(0, {"type": "discard", "discard": ["7C", "6C", "5C", "4B"], "give": ["5B"]})
    assert g.public_view()["hand_sizes"] == [9, 9, 9, 9]
    assert "5B" in g.view(1)["hand"]
    assert g.view(1)["private"] == {"received": "5B"}
    assert g.view(0)["private"]["given_back"] == "5B"
    assert g.view(0)["private"]["discards"] == ["7C", "6C", "5C", "4B"]
    for s in (2, 3):
        assert "5B" not in json.dumps(g.view(s)["private"])
    assert "given_back" not in json.dumps(g.public_view())


def test_mediatore_called_card_in_monte_has_no_giver() -> None:
    g = make()
    auction(g, "mediatore")
    g.apply(0, {"type": "call", "card": "7B"})
    pub = g.public_view()
    assert pub["giver"] is None and pub["called_in_monte"] is True
    assert [f["key"] for f in g.view(0)["prompt"]["fields"]] == ["discard"]
    expect_illegal(g, 0, {"type": "discard", "discard": ["7C", "6C", "5C", "4B"], "give": "5B"})
    g.apply(0, {"type": "discard", "discard": ["7C", "6C", "5C", "4B"]})
    assert pub["hand_sizes"] == [13, 9, 9, 9] and g.public_view()["hand_sizes"] == [9, 9, 9, 9]


def test_solo_exposes_monte_and_bidder_discards() -> None:
    g = make()
    auction(g, "solo", bidder=2)
    pub = g.public_view()
    assert pub["phase"] == "exchange" and pub["monte_exposed"] == MIX_MONTE and pub["hand_sizes"][2] == 13
    g.apply(2, {"type": "discard", "discard": ["7D", "6D", "5D", "JB"]})
    assert g.public_view()["hand_sizes"] == [9, 9, 9, 9] and g.to_move() == (0,)


def test_solissimo_private_look_only() -> None:
    g = make()
    auction(g, "solissimo", bidder=1)
    assert g.phase == "play"
    assert sorted(g.view(1)["private"]["monte_seen"]) == sorted(MIX_MONTE)
    for s in (0, 2, 3):
        assert "monte_seen" not in g.view(s)["private"]
    pub = json.dumps(g.public_view())
    assert not any(f'"{c}"' in pub for c in MIX_MONTE)


# -- §6 play ------------------------------------------------------------------------------------------------
def test_follow_suit_and_trick_winner_leads() -> None:
    g = make()
    auction(g, "arcisolissimo", bidder=3)
    assert g.to_move() == (0,)
    g.apply(0, {"type": "play", "card": "3S"})
    assert sorted(a["card"] for a in g.legal_actions(1)) == ["2S", "KS", "NS"]
    expect_illegal(g, 1, {"type": "play", "card": "3C"})
    expect_illegal(g, 1, {"type": "play", "card": "7D"})  # not in hand
    g.apply(1, {"type": "play", "card": "2S"})
    g.apply(2, {"type": "play", "card": "JS"})
    g.apply(3, {"type": "play", "card": "5S"})
    pub = g.public_view()
    assert pub["last_trick"]["winner"] == 0 and pub["tricks_won"] == [1, 0, 0, 0] and g.to_move() == (0,)
    g.apply(0, {"type": "play", "card": "4B"})
    assert len(g.legal_actions(1)) == 8  # void in Bastoni: any of its 8 cards
    g.apply(1, {"type": "play", "card": "3C"})  # a higher rank of another suit never wins
    g.apply(2, {"type": "play", "card": "7D"})
    g.apply(3, {"type": "play", "card": "NB"})
    assert g.public_view()["last_trick"]["winner"] == 3 and g.to_move() == (3,)


# -- §10 signals ----------------------------------------------------------------------------------------------
def _lead_signals(g: MediatoreGame, seat: int, card: str) -> set[str]:
    return {a["signal"] for a in g.legal_actions(seat) if a["card"] == card and "signal" in a}


def test_signal_truthfulness() -> None:
    g = make()
    auction(g, "arcisolissimo", bidder=3)
    assert _lead_signals(g, 0, "7C") == {"knock", "stroke"}  # 6C 5C left: 2 low cards
    assert _lead_signals(g, 0, "4B") == {"knock", "fly"}  # last Bastoni
    assert _lead_signals(g, 0, "3S") == {"knock"}  # AS left is not low
    assert _lead_signals(g, 0, "3D") == {"knock"}
    expect_illegal(g, 0, {"type": "play", "card": "3S", "signal": "stroke"})
    expect_illegal(g, 0, {"type": "play", "card": "3D", "signal": "fly"})
    expect_illegal(g, 0, {"type": "play", "card": "7C", "signal": "fly"})
    expect_illegal(g, 0, {"type": "play", "card": "7C", "signal": "wink"})
    g.apply(0, {"type": "play", "card": "7C", "signal": "stroke"})
    pub = g.public_view()
    assert pub["trick"]["signal"] == "stroke"
    assert pub["events"][-1] == {"kind": "play", "seat": 0, "card": "7C", "signal": "stroke", "trick": 0}
    assert all("signal" not in a for a in g.legal_actions(1))
    expect_illegal(g, 1, {"type": "play", "card": "3C", "signal": "knock"})  # only the leader signals


def test_no_signals_for_lone_bidder_or_when_off() -> None:
    g = make()
    auction(g, "arcisolissimo", bidder=0)
    assert all("signal" not in a for a in g.legal_actions(0))
    expect_illegal(g, 0, {"type": "play", "card": "7C", "signal": "knock"})
    g2 = make(options={"signals": False})
    auction(g2, "arcisolissimo", bidder=3)
    assert all("signal" not in a for a in g2.legal_actions(0))
    expect_illegal(g2, 0, {"type": "play", "card": "7C", "signal": "knock"})


def test_chiamo_bidder_may_signal() -> None:
    g = make()
    auction(g, "chiamo")
    g.apply(0, {"type": "call", "card": "JB"})  # secretly alone: the buttons must not give it away
    g.apply(0, {"type": "discard", "discard": ["JB", "7B", "6B", "5B"]})
    assert _lead_signals(g, 0, "4B") == {"knock", "fly"}


# -- §7-§8 counting and payments -------------------------------------------------------------------------------
def test_payment_table() -> None:
    assert payments("chiamo", 0, 2, None, True, False) == [5, -4, 3, -4]
    assert payments("chiamo", 0, 2, None, False, False) == [-5, 4, -3, 4]
    assert payments("chiamo", 1, None, None, True, False) == [-4, 12, -4, -4]
    assert payments("mediatore", 0, None, 2, True, False) == [22, -8, -6, -8]
    assert payments("mediatore", 0, None, 2, False, False) == [-22, 8, 6, 8]
    assert payments("mediatore", 3, None, None, True, False) == [-8, -8, -8, 24]
    assert payments("solo", 2, None, None, True, False) == [-12, -12, 36, -12]
    assert payments("solo", 2, None, None, False, False) == [12, 12, -36, 12]
    assert payments("solissimo", 0, None, None, True, False) == [48, -16, -16, -16]
    assert payments("arcisolissimo", 0, None, None, False, False) == [-54, 18, 18, 18]


def test_capotto_payments_add_two_per_stake() -> None:
    assert payments("chiamo", 0, 2, None, True, True) == [7, -6, 5, -6]
    assert payments("chiamo", 0, 2, None, False, True) == [-7, 6, -5, 6]
    assert payments("chiamo", 0, None, None, True, True)[0] == 18
    assert payments("mediatore", 0, None, 1, True, True) == [28, -8, -10, -10]
    assert payments("mediatore", 0, None, None, True, True)[0] == 30
    assert payments("solo", 0, None, None, True, True)[0] == 42
    assert payments("solissimo", 0, None, None, True, True)[0] == 54
    assert payments("arcisolissimo", 0, None, None, False, True) == [-60, 20, 20, 20]
    for args in [("chiamo", 1, 3, None), ("mediatore", 1, None, 0), ("solo", 2, None, None)]:
        for won in (True, False):
            for cap in (True, False):
                assert sum(payments(*args, won, cap)) == 0


def _play_out(g: MediatoreGame, leader_cards: list[str] | None = None) -> None:
    """Play the hand: the leader plays in order from ``leader_cards`` if given, others play low legal cards."""
    hand0 = g.hand_number
    while g.hand_number == hand0 and not g.is_over:
        seat = g.to_move()[0]
        acts = [a for a in g.legal_actions(seat) if "signal" not in a]
        if leader_cards and not g.public_view()["trick"]["plays"] and leader_cards[0] in g.view(seat)["hand"]:
            g.apply(seat, {"type": "play", "card": leader_cards.pop(0)})
        else:
            g.apply(seat, acts[-1])


def test_capotto_worked_example_with_stake_unit() -> None:
    g = make(SUITED, SUITED_MONTE, options={"stake": 2, "hands": 1})
    auction(g, "arcisolissimo", bidder=0)
    _play_out(g, list(SUITED[0]))
    assert g.is_over
    (st,) = g.settlements()
    s = st.summary
    assert s["bidder_side_tricks"] == 9 and s["capotto"] and s["capotto_side"] == "bidder"
    assert s["bidder_side_thirds"] == 35 and s["defender_thirds"] == 0
    assert s["bidder_side_points"] == 11 and s["defender_points"] == 0 and s["made"]
    assert st.amounts == {"stake": (120, -40, -40, -40)}  # (54 + 6) x stake 2
    assert s["payments"] == [120, -40, -40, -40]
    assert g.result() is not None and g.result().totals == (120, -40, -40, -40)
    assert g.result().winners == (0,)
    assert g.legal_actions(0) == [] and g.to_move() == ()
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "pass"})


def test_defenders_capotto_and_monte_to_last_trick() -> None:
    # Seat 1 bids Solo with the Coppe; it never wins a trick: seat 0 leads Denari nine times.
    g = make(SUITED, SUITED_MONTE, options={"hands": 1})
    g.apply(0, {"type": "pass"})
    g.apply(1, {"type": "bid", "contract": "solo"})
    for _ in range(3):
        g.apply(g.to_move()[0], {"type": "pass"})
    g.apply(1, {"type": "discard", "discard": ["4D", "4S", "4B", "4C"]})
    _play_out(g, list(SUITED[0]))
    s = g.settlements()[0].summary
    assert s["bidder_side_tricks"] == 0 and s["capotto_side"] == "defenders"
    assert s["made"] is False and s["bidder_side_points"] == 0 and s["defender_points"] == 11
    assert s["last_trick_winner"] == 0 and s["defender_thirds"] == 35
    assert s["payments"] == [14, -42, 14, 14]


def test_chiamo_hand_counts_partner_side_and_floor() -> None:
    g = make(options={"hands": 1})
    auction(g, "chiamo")
    g.apply(0, {"type": "call", "card": "3C"})
    g.apply(0, {"type": "discard", "discard": ["JB", "7B", "6B", "5B"]})
    _play_out(g)
    s = g.settlements()[0].summary
    assert s["partner"] == 1 and s["bidder_side"] == [0, 1]
    tricks = s["tricks"]
    side = {0, 1}
    b = sum(card_thirds(t[1]) for t in tricks if t[2] in side)
    d = sum(card_thirds(t[1]) for t in tricks if t[2] not in side)
    bonus = card_thirds(["JB", "7B", "6B", "5B"]) + 3
    if s["last_trick_winner"] in side:
        b += bonus
    else:
        d += bonus
    assert (s["bidder_side_thirds"], s["defender_thirds"]) == (b, d)
    assert b + d == 35
    if not s["capotto"]:
        assert s["bidder_side_points"] == b // 3 and s["defender_points"] == d // 3
        assert s["bidder_side_points"] + s["defender_points"] == 11
    assert s["made"] == (s["bidder_side_points"] >= 6)
    assert sum(g.settlements()[0].amounts["stake"]) == 0
    assert g.public_view()["last_hand"]["partner"] == 1  # public at the end (§11)


def test_hands_option_counts_played_hands_and_next_dealer() -> None:
    g = MediatoreGame(4, {"hands": 2}, 3)
    d0 = g.public_view()["dealer"]
    dealers = []
    while not g.is_over:
        seat = g.to_move()[0]
        if g.phase == "auction":
            v = g.public_view()
            if v["high_bid"] is None and seat == (v["dealer"] + 1) % 4:
                dealers.append(v["dealer"])
                g.apply(seat, {"type": "bid", "contract": "arcisolissimo"})
                continue
        g.apply(seat, g.legal_actions(seat)[0])
    assert len(g.settlements()) == 2 and [s.index for s in g.settlements()] == [0, 1]
    assert dealers == [d0, (d0 + 1) % 4]
    assert g.result() is not None and sum(g.result().totals) == 0
    assert g.hand_number == 1


def test_unlimited_game_never_over() -> None:
    g = MediatoreGame(4, None, 11)
    for _ in range(3):
        seat = g.to_move()[0]
        g.apply(seat, {"type": "bid", "contract": "arcisolissimo"})
        _play_out(g)
    assert not g.is_over and g.result() is None and len(g.settlements()) == 3
    assert g.public_view()["totals"] == [sum(s.amounts["stake"][i] for s in g.settlements()) for i in range(4)]


def test_bad_action_shapes_rejected() -> None:
    g = make()
    expect_illegal(g, 0, "pass")  # type: ignore[arg-type]
    expect_illegal(g, 0, {"type": "play", "card": "3D"})
    expect_illegal(g, 0, {"type": "bid", "contract": "tutti"})
    expect_illegal(g, 0, {"type": "bid", "contract": ["solo"]})
    expect_illegal(g, 1, {"type": "pass"})
    expect_illegal(g, 0, {"type": "call", "card": "3C"})  # not the call phase
    auction(g, "solo")
    expect_illegal(g, 0, {"type": "discard", "discard": "3D2DAD7C"})
    expect_illegal(g, 0, {"type": "call", "card": "3C"})
    expect_illegal(g, 0, {"type": "discard", "discard": [["3D"], "2D", "AD", "7C"]})


def test_points_hidden_unless_show_history() -> None:
    for history in (False, True):
        g = make(options={"show_history": history})
        auction(g, "arcisolissimo", bidder=3)
        for card in ("3S", "2S", "JS", "5S", "3D"):
            g.apply(g.to_move()[0], {"type": "play", "card": card})
        pub = g.public_view()
        assert pub["tricks_won"] == [1, 0, 0, 0] and pub["last_trick"]["winner"] == 0
        assert pub["trick"] == {"leader": 0, "plays": [[0, "3D"]], "signal": None}
        if history:
            assert pub["thirds_won"] == [3, 0, 0, 0] and len(pub["history"]) == 1
        else:
            assert "thirds_won" not in pub and "history" not in pub
        # every seat remembers the tricks it watched, but the public table does not show them
        assert g.view(2)["memory"]["tricks"] == [[0, ["3S", "2S", "JS", "5S"], 0, None]]


def test_voids_are_public_memory() -> None:
    g = make()
    auction(g, "arcisolissimo", bidder=3)
    g.apply(0, {"type": "play", "card": "4B", "signal": "fly"})
    g.apply(1, {"type": "play", "card": "3C"})
    voids = g.view(2)["memory"]["voids"]
    assert voids[0] == ["B"] and voids[1] == ["B"]


def test_unhashable_fields_rejected_cleanly() -> None:
    g = make()
    auction(g, "chiamo")
    expect_illegal(g, 0, {"type": "call", "card": ["3C"]})
    g.apply(0, {"type": "call", "card": "3C"})
    g.apply(0, {"type": "discard", "discard": ["JB", "7B", "6B", "5B"]})
    expect_illegal(g, 0, {"type": "play", "card": ["3D"]})
    expect_illegal(g, 0, {"type": "play", "card": "3D", "signal": ["knock"]})


def test_is_legal_accepts_discards_in_any_order() -> None:
    """The UI sends the picked cards sorted; legality must not depend on the order of the 4 discards."""
    import random

    checked = 0
    for seed in range(400):
        g = MediatoreGame(4, None, seed)
        rng = random.Random(seed)
        while g.hand_number == 0 and not g.is_over:
            seat = g.to_move()[0]
            action = rng.choice(g.legal_actions(seat))
            if action.get("type") == "discard":
                shuffled = dict(action, discard=list(reversed(action["discard"])))
                assert g.is_legal(seat, shuffled)
                assert not g.is_legal(seat, dict(action, discard=action["discard"][:3]))
                checked += 1
            g.apply(seat, action)
        if checked >= 2:
            break
    assert checked >= 2

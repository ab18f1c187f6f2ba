"""Unit tests of the Wizard rules (docs/rules/wizard.md), one worked example per rule or decision."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.cards import WIZARD_60
from bot.engine.errors import IllegalAction, InvalidOptions
from bot.engine.rng import make_rng
from bot.games.wizard.engine import WizardGame, _set_hands_for_test, round_score, sort_hand, trick_winner


def deck_for(seed: int, k: int) -> list[str]:
    d = list(WIZARD_60)
    make_rng(seed, "deal", k).shuffle(d)
    return d


def seed_with_indicator(n: int, k: int, prefix: str, r: int | None = None) -> int:
    r = k + 1 if r is None else r
    for s in range(10_000):
        if deck_for(s, k)[n * r].startswith(prefix):
            return s
    raise AssertionError("no seed found")


_UNSET: Any = ...


def rig(
    g: WizardGame,
    hands_in_order: list[list[str]],
    trump: Any = _UNSET,
    bids_in_order: list[int] | None = None,
) -> int:
    """Replace the current round's hands (listed from the first leader, dealer + 1, onwards; ``trump`` left out:
    the engine's own) and place the bids; return the first leader's seat."""
    n = g.num_seats
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "S"})
    lead = (g.public_view()["dealer"] + 1) % n
    hands: list[list[str]] = [[] for _ in range(n)]
    for i, h in enumerate(hands_in_order):
        hands[(lead + i) % n] = list(h)
    _set_hands_for_test(g, hands, trump)
    if bids_in_order is not None:
        for i, b in enumerate(bids_in_order):
            g.apply((lead + i) % n, {"type": "bid", "n": b})
    return lead


def setup(
    hands_in_order: list[list[str]],
    trump: str | None,
    bids_in_order: list[int] | None = None,
    seed: int = 0,
    **opts: object,
) -> tuple[WizardGame, int]:
    """A one-round game with the given hands, listed from the first leader (dealer + 1) onwards."""
    g = WizardGame(len(hands_in_order), {"rounds": [len(hands_in_order[0])], **opts}, seed)
    return g, rig(g, hands_in_order, trump, bids_in_order)


def play_cards(g: WizardGame, cards: list[str]) -> None:
    for c in cards:
        g.apply(g.to_move()[0], {"type": "play", "card": c})


def cards_of(actions: list[dict]) -> set[str]:
    return {a["card"] for a in actions if a["type"] == "play"}


# -- options -----------------------------------------------------------------------------------------------


def test_default_options() -> None:
    g = WizardGame(4, {}, 1)
    assert g.options == {
        "bid_restriction": False,
        "bid_mode": "open",
        "first_round_blind": False,
        "rounds": "all",
        "wizard_turned": "dealer_chooses",
        "stake_per_point": 0,
        "first_dealer": None,
        "hints": False,
    }
    json.dumps(g.options)


@pytest.mark.parametrize(
    "opts",
    [
        {"bid_restriction": True, "bid_mode": "simultaneous"},
        {"bid_restriction": True, "bid_mode": "secret"},
        {"bid_mode": "loud"},
        {"wizard_turned": "random"},
        {"stake_per_point": -1},
        {"stake_per_point": 1.5},
        {"rounds": [3, 2]},
        {"rounds": [1, 1]},
        {"rounds": [0, 1]},
        {"rounds": [16]},
        {"rounds": []},
        {"rounds": [True]},
        {"rounds": "1-16"},
        {"rounds": "some"},
        {"rounds": 5},
        {"colour": "red"},
    ],
)
def test_invalid_options(opts: dict) -> None:
    with pytest.raises(InvalidOptions):
        WizardGame(4, opts, 0)


def test_w6_restriction_with_open_ok() -> None:
    g = WizardGame(4, {"bid_restriction": True, "bid_mode": "open"}, 0)
    assert g.options["bid_restriction"] is True


@pytest.mark.parametrize("n", [2, 7])
def test_seat_count(n: int) -> None:
    with pytest.raises(InvalidOptions):
        WizardGame(n, {}, 0)


def test_rounds_option_forms() -> None:
    assert WizardGame(4, {"rounds": [1, 2, 5]}, 0).hand_sizes == [1, 2, 5]
    assert WizardGame(4, {"rounds": "1-3,7"}, 0).hand_sizes == [1, 2, 3, 7]
    assert WizardGame(4, {"rounds": (2, 15)}, 0).hand_sizes == [2, 15]
    assert WizardGame(6, {"rounds": [10]}, 0).hand_sizes == [10]
    with pytest.raises(InvalidOptions):
        WizardGame(6, {"rounds": [11]}, 0)


# -- structure (§3, §4, checklist 1, 2, 8, 9) ------------------------------------------------------------------


@pytest.mark.parametrize(("n", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_number_of_rounds(n: int, rounds: int) -> None:
    g = WizardGame(n, {}, 5)
    assert g.hand_sizes == list(range(1, rounds + 1))
    assert g.public_view()["rounds_total"] == rounds


def test_deal_order_w2_and_indicator() -> None:
    for seed in range(5):
        g = WizardGame(4, {"rounds": [7]}, seed)
        deck = deck_for(seed, 0)
        dealer = g.public_view()["dealer"]
        assert dealer == g.first_dealer
        hands = [g.view(s) for s in range(4)]
        for s in range(4):
            mine = [deck[i] for i in range(28) if (dealer + 1 + i) % 4 == s]
            assert sorted(hands[s]["hand"]) == sorted(mine)
            assert g._hands[s] == mine  # dealt one at a time in this order
        assert g.public_view()["indicator"] == deck[28]


def test_first_dealer_is_seeded() -> None:
    dealers = {WizardGame(4, {}, s).first_dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert WizardGame(4, {}, 9).first_dealer == WizardGame(4, {}, 9).first_dealer


def test_dealer_rotation_and_first_bidder() -> None:
    g = WizardGame(5, {"rounds": [1, 2, 3]}, 11)
    fd = g.first_dealer
    for k in range(3):
        v = g.public_view()
        assert v["dealer"] == (fd + k) % 5
        assert v["hand_number"] == k and v["round"] == k + 1 and v["hand_size"] == k + 1
        if v["phase"] == "trump":
            g.apply(v["dealer"], {"type": "trump", "suit": "H"})
        assert g.to_move() == ((fd + k + 1) % 5,)
        for _ in range(5):
            g.apply(g.to_move()[0], {"type": "bid", "n": 0})
        assert g.to_move() == ((fd + k + 1) % 5,)  # dealer + 1 leads trick 1
        while g.public_view()["round"] == k + 1 and not g.is_over:
            s = g.to_move()[0]
            g.apply(s, g.legal_actions(s)[0])


def test_rounds_option_dealer_uses_played_round_index() -> None:
    g = WizardGame(4, {"rounds": [3, 15]}, 4)
    fd = g.first_dealer
    assert g.public_view()["dealer"] == fd and g.public_view()["hand_size"] == 3
    while g.public_view()["round"] == 1:
        s = g.to_move()[0]
        g.apply(s, g.legal_actions(s)[0])
    v = g.public_view()
    assert v["dealer"] == (fd + 1) % 4 and v["hand_size"] == 15
    assert v["indicator"] is None and v["trump"] is None and v["phase"] == "bid"  # N·r = 60


def test_suit_indicator_sets_trump() -> None:
    for seed in range(30):
        g = WizardGame(4, {"rounds": [2]}, seed)
        ind = g.public_view()["indicator"]
        if ind[:3] not in ("WIZ", "JES"):
            assert g.public_view()["trump"] == ind[-1]
            assert g.phase == "bid"


def test_jester_indicator_no_trump() -> None:
    seed = seed_with_indicator(4, 0, "JES")
    g = WizardGame(4, {}, seed)
    v = g.public_view()
    assert v["indicator"].startswith("JES") and v["trump"] is None and v["phase"] == "bid"


def test_wizard_indicator_dealer_chooses() -> None:
    seed = seed_with_indicator(4, 0, "WIZ")
    g = WizardGame(4, {}, seed)
    v = g.public_view()
    dealer = v["dealer"]
    assert v["phase"] == "trump" and v["trump_pending"] and g.to_move() == (dealer,)
    assert g.legal_actions(dealer) == [{"type": "trump", "suit": s} for s in "SHDC"]
    assert g.legal_actions((dealer + 1) % 4) == []
    with pytest.raises(IllegalAction):
        g.apply((dealer + 1) % 4, {"type": "bid", "n": 0})
    with pytest.raises(IllegalAction):
        g.apply(dealer, {"type": "trump", "suit": None})  # "no trump" may not be chosen
    g.apply(dealer, {"type": "trump", "suit": "D"})
    v = g.public_view()
    assert v["trump"] == "D" and v["phase"] == "bid" and g.to_move() == ((dealer + 1) % 4,)


def test_wizard_indicator_house_rule_no_trump() -> None:
    seed = seed_with_indicator(4, 0, "WIZ")
    g = WizardGame(4, {"wizard_turned": "no_trump"}, seed)
    v = g.public_view()
    assert v["phase"] == "bid" and v["trump"] is None and v["indicator"].startswith("WIZ")


def test_final_round_has_no_trump() -> None:
    for n in (3, 4, 5, 6):
        g = WizardGame(n, {"rounds": [60 // n]}, 3)
        v = g.public_view()
        assert v["indicator"] is None and v["trump"] is None and v["phase"] == "bid"
        assert sum(v["hand_counts"]) == 60


# -- bidding (§5, W-3) ------------------------------------------------------------------------------------------


def test_open_bidding_order_and_range() -> None:
    g = WizardGame(4, {"rounds": [3]}, 8)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    d = g.public_view()["dealer"]
    first = (d + 1) % 4
    assert g.legal_actions(first) == [{"type": "bid", "n": i} for i in range(4)]
    with pytest.raises(IllegalAction):
        g.apply(first, {"type": "bid", "n": 4})
    with pytest.raises(IllegalAction):
        g.apply(first, {"type": "bid", "n": -1})
    with pytest.raises(IllegalAction):
        g.apply(first, {"type": "bid", "n": True})
    with pytest.raises(IllegalAction):
        g.apply((first + 1) % 4, {"type": "bid", "n": 1})
    order = []
    for b in (3, 3, 3, 3):  # no restriction by default: totals may exceed r
        s = g.to_move()[0]
        order.append(s)
        g.apply(s, {"type": "bid", "n": b})
    assert order == [(d + 1 + i) % 4 for i in range(4)]
    v = g.public_view()
    assert v["bids"] == [3, 3, 3, 3] and v["bids_total"] == 12 and v["phase"] == "play"


def test_bid_restriction_forbids_dealer_value() -> None:
    g = WizardGame(4, {"rounds": [3], "bid_restriction": True}, 8)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    d = g.public_view()["dealer"]
    for b in (1, 1, 0):
        s = g.to_move()[0]
        assert len(g.legal_actions(s)) == 4  # only the last bidder is bound
        g.apply(s, {"type": "bid", "n": b})
    assert g.to_move() == (d,)
    assert g.public_view()["forbidden_bid"] == 1
    assert [a["n"] for a in g.legal_actions(d)] == [0, 2, 3]
    with pytest.raises(IllegalAction):
        g.apply(d, {"type": "bid", "n": 1})
    g.apply(d, {"type": "bid", "n": 2})
    assert sum(g.public_view()["bids"]) != 3


def test_bid_restriction_nothing_forbidden_when_out_of_range() -> None:
    g = WizardGame(4, {"rounds": [3], "bid_restriction": True}, 8)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    d = g.public_view()["dealer"]
    for b in (3, 2, 0):
        g.apply(g.to_move()[0], {"type": "bid", "n": b})
    assert g.public_view()["forbidden_bid"] is None
    assert [a["n"] for a in g.legal_actions(d)] == [0, 1, 2, 3]


def test_w3_undo_until_next_bid() -> None:
    g = WizardGame(4, {"rounds": [2]}, 8)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    a = g.to_move()[0]
    b = (a + 1) % 4
    g.apply(a, {"type": "bid", "n": 2})
    assert {"type": "undo"} in g.legal_actions(a)
    assert g.to_move() == (b,)
    g.apply(a, {"type": "undo"})
    assert g.to_move() == (a,) and g.public_view()["bids"][a] is None
    g.apply(a, {"type": "bid", "n": 1})
    g.apply(b, {"type": "bid", "n": 0})
    assert {"type": "undo"} not in g.legal_actions(a)
    with pytest.raises(IllegalAction):
        g.apply(a, {"type": "undo"})
    assert {"type": "undo"} in g.legal_actions(b)
    assert g.public_view()["bids"][a] == 1


def test_w3_dealer_undo_until_first_lead() -> None:
    g = WizardGame(4, {"rounds": [2]}, 8)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    d = g.public_view()["dealer"]
    for _ in range(4):
        g.apply(g.to_move()[0], {"type": "bid", "n": 1})
    assert g.phase == "play"
    assert g.legal_actions(d) == [{"type": "undo"}]
    g.apply(d, {"type": "undo"})
    assert g.phase == "bid" and g.to_move() == (d,)
    g.apply(d, {"type": "bid", "n": 0})
    leader = g.to_move()[0]
    g.apply(leader, g.legal_actions(leader)[0])
    assert g.legal_actions(d) == [] or {"type": "undo"} not in g.legal_actions(d)
    with pytest.raises(IllegalAction):
        g.apply(d, {"type": "undo"})


def test_simultaneous_bidding_hidden_until_complete() -> None:
    g = WizardGame(4, {"rounds": [2], "bid_mode": "simultaneous"}, 8)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    assert g.to_move() == (0, 1, 2, 3)
    g.apply(2, {"type": "bid", "n": 2})
    pub = g.public_view()
    assert pub["bids"] == [None] * 4 and pub["has_bid"] == [False, False, True, False]
    assert all("n" not in e for e in pub["events"] if e["kind"] == "bid")
    assert g.view(2)["bids"][2] == 2 and g.view(1)["bids"][2] is None
    assert g.to_move() == (0, 1, 3)
    assert g.legal_actions(2) == [{"type": "undo"}]  # SILENT: change = undo then bid again
    with pytest.raises(IllegalAction):
        g.apply(2, {"type": "bid", "n": 1})
    g.apply(2, {"type": "undo"})
    assert g.to_move() == (0, 1, 2, 3)
    for s in (3, 0, 2, 1):
        g.apply(s, {"type": "bid", "n": s % 3})
    pub = g.public_view()
    assert pub["phase"] == "play" and pub["bids"] == [0, 1, 2, 0]
    assert g.legal_actions(2) == [] or {"type": "undo"} not in g.legal_actions(2)


def test_secret_bids_revealed_after_last_trick() -> None:
    g = WizardGame(4, {"rounds": [2, 3], "bid_mode": "secret"}, 8)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "C"})
    for s in range(4):
        g.apply(s, {"type": "bid", "n": 1 if s % 2 else 0})
    pub = g.public_view()
    assert pub["phase"] == "play" and pub["bids"] == [None] * 4 and pub["bids_total"] is None
    text = json.dumps(pub["events"])
    assert '"n"' not in text
    for s in range(4):
        v = g.view(s)
        assert v["bids"] == [(1 if s % 2 else 0) if t == s else None for t in range(4)]
    while g.public_view()["round"] == 1:
        s = g.to_move()[0]
        g.apply(s, g.legal_actions(s)[0])
    pub = g.public_view()
    assert pub["round_log"][0]["bids"] == [0, 1, 0, 1]
    assert pub["bids"] == [None] * 4  # the new round's bids are secret again


# -- following and trick winners (§6) -----------------------------------------------------------------------------


def test_trick_winner_rules() -> None:
    assert trick_winner([(0, "5H"), (1, "WIZ1"), (2, "WIZ2"), (3, "AH")], "S") == 1
    assert trick_winner([(0, "5H"), (1, "2S"), (2, "AH"), (3, "3S")], "S") == 3
    assert trick_winner([(0, "5H"), (1, "KD"), (2, "7H"), (3, "JES1")], "C") == 2
    assert trick_winner([(2, "JES1"), (0, "JES2"), (1, "JES3")], "S") == 2
    assert trick_winner([(0, "JES1"), (1, "4D"), (2, "AH"), (3, "9D")], None) == 3
    assert trick_winner([(0, "JES1"), (1, "WIZ3"), (2, "AS")], "S") == 1
    assert trick_winner([(0, "2H"), (1, "AD"), (2, "AC")], "S") == 0
    assert trick_winner([(0, "2S"), (1, "AS"), (2, "KS")], "S") == 1
    assert trick_winner([(3, "WIZ4"), (0, "WIZ1")], None) == 3


def test_must_follow_but_wizard_and_jester_always_allowed() -> None:
    hands = [
        ["5H", "2C", "3C", "4C"],
        ["7H", "AS", "WIZ1", "JES1"],
        ["KD", "QD", "JD", "10D"],
        ["3S", "4S", "5S", "6S"],
    ]
    g, _lead = setup(hands, "S", [0, 0, 0, 0])
    play_cards(g, ["5H"])
    s = g.to_move()[0]
    assert cards_of(g.legal_actions(s)) == {"7H", "WIZ1", "JES1"}
    with pytest.raises(IllegalAction):
        g.apply(s, {"type": "play", "card": "AS"})
    g.apply(s, {"type": "play", "card": "JES1"})  # may play a Jester although holding a heart


def test_void_player_may_play_anything() -> None:
    g, _lead = setup([["5H", "2C"], ["AS", "KD"], ["KC", "QD"], ["3C", "4D"]], "S", [0, 0, 0, 0])
    play_cards(g, ["5H"])
    s = g.to_move()[0]
    assert cards_of(g.legal_actions(s)) == {"AS", "KD"}
    g.apply(s, {"type": "play", "card": "KD"})  # no obligation to trump
    assert g.public_view()["lead_suit"] == "H"


def test_wizard_led_frees_the_trick() -> None:
    g, lead = setup([["WIZ2", "2C"], ["AS", "KH"], ["KC", "QH"], ["3H", "4D"]], "S", [1, 0, 0, 0])
    play_cards(g, ["WIZ2"])
    assert g.public_view()["trick_free"] and g.public_view()["lead_suit"] is None
    assert cards_of(g.legal_actions(g.to_move()[0])) == {"AS", "KH"}
    play_cards(g, ["AS", "KC", "3H"])
    assert g.public_view()["last_trick"]["winner"] == lead  # the Wizard beats the trump ace


def test_jester_lead_next_suit_card_sets_the_suit() -> None:
    g, lead = setup([["JES1", "2C"], ["8H", "KC"], ["KH", "QC"], ["3H", "AS"]], "S", [0, 0, 0, 0])
    play_cards(g, ["JES1"])
    assert g.public_view()["lead_suit"] is None
    assert cards_of(g.legal_actions(g.to_move()[0])) == {"8H", "KC"}
    play_cards(g, ["8H"])
    assert g.public_view()["lead_suit"] == "H"
    assert cards_of(g.legal_actions(g.to_move()[0])) == {"KH"}
    play_cards(g, ["KH"])
    assert cards_of(g.legal_actions(g.to_move()[0])) == {"3H"}
    play_cards(g, ["3H"])
    assert g.public_view()["last_trick"]["winner"] == (lead + 2) % 4


def test_w4_jesters_then_wizard_frees_the_trick() -> None:
    g, lead = setup([["JES1", "2C"], ["JES2", "KC"], ["WIZ1", "QC"], ["3H", "AS"]], "D", [0, 0, 1, 0])
    play_cards(g, ["JES1", "JES2"])
    assert g.public_view()["lead_suit"] is None and not g.public_view()["trick_free"]
    play_cards(g, ["WIZ1"])
    assert g.public_view()["trick_free"]
    assert cards_of(g.legal_actions(g.to_move()[0])) == {"3H", "AS"}
    play_cards(g, ["AS"])
    assert g.public_view()["last_trick"]["winner"] == (lead + 2) % 4


def test_all_jesters_first_jester_wins() -> None:
    g, lead = setup([["JES3"], ["JES1"], ["JES4"], ["JES2"]], "H", [1, 0, 0, 0])
    play_cards(g, ["JES3", "JES1", "JES4", "JES2"])
    assert g.is_over
    log = g.public_view()["round_log"][0]
    assert log["tricks"][lead] == 1 and sum(log["tricks"]) == 1


def test_first_wizard_wins_over_later_wizards() -> None:
    g, lead = setup([["2C"], ["WIZ3"], ["WIZ1"], ["AC"]], "C", [0, 1, 0, 0])
    play_cards(g, ["2C", "WIZ3", "WIZ1", "AC"])
    assert g.public_view()["round_log"][0]["tricks"][(lead + 1) % 4] == 1


def test_trump_beats_led_suit_and_winner_leads() -> None:
    g, lead = setup([["AH", "2C"], ["3D", "KC"], ["KH", "QC"], ["4H", "AC"]], "D", [1, 1, 0, 0])
    play_cards(g, ["AH", "3D", "KH", "4H"])
    ruffer = (lead + 1) % 4
    assert g.public_view()["last_trick"]["winner"] == ruffer
    assert g.to_move() == (ruffer,)
    assert g.public_view()["tricks"][ruffer] == 1


def test_special_cards_offered_once_but_any_id_accepted() -> None:
    g, lead = setup([["WIZ1", "WIZ3", "JES2", "JES4", "5H"], ["AS", "KH", "2C", "3C", "4C"]] + [["6C"] * 5] * 2, "S")
    g.apply(lead, {"type": "bid", "n": 2})
    for _ in range(3):
        g.apply(g.to_move()[0], {"type": "bid", "n": 0})
    acts = g.legal_actions(lead)
    assert sorted(a["card"] for a in acts) == ["5H", "JES2", "WIZ1"]
    assert g.view(lead)["prompt"] == {"kind": "pick", "actions": acts}
    assert g.is_legal(lead, {"type": "play", "card": "WIZ3"})
    g.apply(lead, {"type": "play", "card": "WIZ3"})
    assert "WIZ3" not in g._hands[lead] and "WIZ1" in g._hands[lead]


def test_illegal_action_leaves_state_unchanged() -> None:
    g, _lead = setup([["5H", "2C"], ["7H", "AS"], ["KD", "QD"], ["3C", "4C"]], "S", [0, 0, 0, 0])
    play_cards(g, ["5H"])
    before = (json.dumps(g.public_view()), [json.dumps(g.view(s)) for s in range(4)])
    s = g.to_move()[0]
    for bad in (
        {"type": "play", "card": "AS"},
        {"type": "play", "card": "KD"},
        {"type": "play"},
        {"type": "bid", "n": 1},
        {"type": "undo"},
        {"type": "trump", "suit": "S"},
        {"type": "dance"},
    ):
        with pytest.raises(IllegalAction):
            g.apply(s, bad)
        with pytest.raises(IllegalAction):
            g.apply((s + 1) % 4, {"type": "play", "card": "KD"})
    assert (json.dumps(g.public_view()), [json.dumps(g.view(t)) for t in range(4)]) == before


# -- scoring, end of game, settlement (§7, §8) ---------------------------------------------------------------


def test_round_score_examples() -> None:
    assert round_score(0, 0) == 20
    assert round_score(4, 4) == 60
    assert round_score(5, 3) == -20
    assert round_score(1, 3) == -20
    assert round_score(0, 2) == -20


def test_round_scoring_in_engine_and_ties_share_the_win() -> None:
    g, lead = setup([["AS"], ["2H"], ["3H"], ["4H"]], "D", [1, 0, 0, 1])
    assert g.settlements() == [] and g.result() is None
    play_cards(g, ["AS", "2H", "3H", "4H"])
    assert g.is_over and g.to_move() == () and all(g.legal_actions(s) == [] for s in range(4))
    scores = [0] * 4
    for i, sc in enumerate([30, 20, 20, -10]):
        scores[(lead + i) % 4] = sc
    v = g.public_view()
    assert v["history"] == [scores] and v["totals"] == scores
    res = g.result()
    assert res is not None and res.currency == "point" and list(res.totals) == scores
    assert res.winners == (lead,)
    # W-5: equal highest totals share the win
    g2, lead2 = setup([["AS"], ["2H"], ["3H"], ["4H"]], "D", [0, 0, 0, 0])
    play_cards(g2, ["AS", "2H", "3H", "4H"])
    r2 = g2.result()
    assert r2 is not None and len(r2.winners) == 3 and r2.ranks[lead2] == 4


def test_single_settlement_with_pairwise_stake() -> None:
    g = WizardGame(5, {"rounds": [1, 2, 3], "stake_per_point": 3}, 21)
    while not g.is_over:
        assert g.settlements() == []
        s = g.to_move()[0]
        g.apply(s, g.legal_actions(s)[-1 if g.phase == "bid" else 0])
    (st,) = g.settlements()
    totals = list(st.amounts["point"])
    assert st.index == 0 and totals == g.public_view()["totals"]
    assert list(st.amounts["stake"]) == [(5 * t - sum(totals)) * 3 for t in totals]
    assert sum(st.amounts["stake"]) == 0
    sm = st.summary
    assert sm["totals"] == totals and sm["rounds_played"] == 3 and sm["rounds"] == 3
    assert sm["ranks"] == list(g.result().ranks)
    exact = [sum(1 for b, t in zip(sm["bids"][k], sm["tricks"][k], strict=True) if b == t) for k in range(3)]
    assert sum(sm["exact_bids"]) == sum(exact)
    assert sm["bids_made"] == sm["exact_bids"]
    json.dumps(sm)


def test_no_stake_by_default() -> None:
    g = WizardGame(3, {"rounds": [1]}, 2)
    while not g.is_over:
        s = g.to_move()[0]
        g.apply(s, g.legal_actions(s)[0])
    assert set(g.settlements()[0].amounts) == {"point"}


# -- first_round_blind ---------------------------------------------------------------------------------------------


def test_blind_round_views_and_forced_play() -> None:
    g = WizardGame(4, {"first_round_blind": True, "rounds": [1, 2]}, 12)
    pub = g.public_view()
    assert pub["blind_round"]
    for s in range(4):
        v = g.view(s)
        assert v["hand"] == [] and v["hand_hidden"]
        assert v["foreheads"][s] is None
        assert [v["foreheads"][t] for t in range(4) if t != s] == [g._hands[t][0] for t in range(4) if t != s]
        assert g._hands[s][0] not in json.dumps({k: x for k, x in v.items() if k != "prompt"})
    for _ in range(4):
        s = g.to_move()[0]
        assert [a["n"] for a in g.legal_actions(s)] == [0, 1]
        g.apply(s, {"type": "bid", "n": 0})
    s = g.to_move()[0]
    own = g._hands[s][0]
    assert g.legal_actions(s) == [{"type": "play", "card": own}]
    assert g.view(s)["prompt"] == {"kind": "pick", "actions": [{"type": "play", "card": own}]}
    while g.public_view()["round"] == 1:
        s = g.to_move()[0]
        g.apply(s, g.legal_actions(s)[0])
    v = g.view(0)
    assert not v["blind_round"] and not v["hand_hidden"] and len(v["hand"]) == 2 and v["foreheads"] is None


def test_sort_hand() -> None:
    assert sort_hand(["JES1", "AS", "2H", "WIZ2", "10S", "3C"]) == ["WIZ2", "10S", "AS", "2H", "3C", "JES1"]


def test_views_do_not_alias_engine_state() -> None:
    g = WizardGame(3, {"rounds": [1, 2]}, 6)
    while g.public_view()["round"] == 1:
        s = g.to_move()[0]
        g.apply(s, g.legal_actions(s)[0])
    before = json.dumps(g.public_view())
    v = g.view(0)
    v["round_log"][0]["bids"][0] = 99
    v["round_log"][0]["last_trick"]["plays"].clear()
    v["events"][-1]["round"] = 42
    v["hand"].clear()
    v["totals"][0] = 1234
    assert json.dumps(g.public_view()) == before


def test_secret_bids_of_last_round_shown_when_game_over() -> None:
    g = WizardGame(3, {"rounds": [1], "bid_mode": "secret"}, 4)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "H"})
    for s in range(3):
        g.apply(s, {"type": "bid", "n": s % 2})
    assert g.public_view()["bids"] == [None] * 3
    while not g.is_over:
        s = g.to_move()[0]
        g.apply(s, g.legal_actions(s)[0])
    v = g.public_view()
    assert v["bids"] == [0, 1, 0] and v["bids_total"] == 1

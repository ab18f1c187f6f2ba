"""Independent rules audit of the Wizard engine against docs/rules/wizard.md (hand-derived worked examples)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.errors import IllegalAction, InvalidOptions
from bot.games.wizard.engine import WizardGame

from .test_wizard_rules import rig
from .test_wizard_rules import setup as one_round


def find_seed(n: int, opts: dict[str, Any], prefix: str) -> int:
    """A seed whose round-1 trump indicator starts with ``prefix`` ("WIZ", "JES", or a suit letter suffix)."""
    for s in range(5000):
        ind = WizardGame(n, opts, s).public_view()["indicator"]
        if ind is None:
            continue
        if prefix in ("WIZ", "JES"):
            if ind.startswith(prefix):
                return s
        elif not ind.startswith(("WIZ", "JES")):
            return s
    raise AssertionError("no seed found")


def strings(x: Any) -> set[str]:
    """Every string inside a JSON-like structure."""
    if isinstance(x, str):
        return {x}
    if isinstance(x, dict):
        return set().union(*(strings(v) for v in x.values())) if x else set()
    if isinstance(x, (list, tuple)):
        return set().union(*(strings(v) for v in x)) if x else set()
    return set()


def play(g: WizardGame, cards: list[str]) -> None:
    for c in cards:
        g.apply(g.to_move()[0], {"type": "play", "card": c})


def legal_cards(g: WizardGame) -> set[str]:
    s = g.to_move()[0]
    return {a["card"] for a in g.legal_actions(s) if a["type"] == "play"}


def bid_values(g: WizardGame, seat: int) -> list[int]:
    return [a["n"] for a in g.legal_actions(seat) if a["type"] == "bid"]


# -- §2.2 ranking within a suit ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "winner_offset"),
    [
        (["10H", "9H", "JH", "2H"], 2),  # J above 10 (not string order)
        (["KH", "AH", "QH", "JH"], 1),  # A high
        (["2H", "10H", "3H", "9H"], 1),  # 10 above 9 and 3
        (["QH", "JH", "KH", "10H"], 2),  # K above Q
    ],
)
def test_s2_2_rank_order_within_suit(cards: list[str], winner_offset: int) -> None:
    """§2.2: A, K, Q, J, 10 … 2 within a suit; §6.4 rule 3 highest card of the led suit wins."""
    g, lead = one_round([[c] for c in cards], None, [0, 0, 0, 0])
    play(g, cards)
    assert g.public_view()["round_log"][0]["tricks"][(lead + winner_offset) % 4] == 1


# -- §4.3 trump indicator ----------------------------------------------------------------------------------------


def test_s4_3_turned_wizard_dealer_sees_hand_then_chosen_suit_is_trump() -> None:
    """§4.3 / §10: after a turned Wizard the dealer chooses trump having seen only their own hand; the suit rules."""
    opts = {"rounds": [2]}
    seed = find_seed(4, opts, "WIZ")
    g = WizardGame(4, opts, seed)
    dealer = g.public_view()["dealer"]
    dealer_hand = list(g._hands[dealer])
    dv = g.view(dealer)
    assert dv["phase"] == "trump" and sorted(dv["hand"]) == sorted(dealer_hand)
    assert [a["suit"] for a in dv["prompt"]["actions"]] == ["S", "H", "D", "C"]
    for s in range(4):
        if s != dealer:
            body = {k: v for k, v in g.view(s).items() if k != "prompt"}
            assert not set(dealer_hand) & strings(body)
            assert g.view(s)["prompt"] is None
    g.apply(dealer, {"type": "trump", "suit": "C"})
    assert all(g.view(s)["trump"] == "C" for s in range(4))
    lead = rig(g, [["AH", "KS"], ["2C", "KD"], ["KH", "QD"], ["QH", "JD"]], bids_in_order=[0, 0, 0, 0])
    play(g, ["AH", "2C", "KH", "QH"])  # the 2 of the chosen trump beats the led ace
    assert g.public_view()["last_trick"]["winner"] == (lead + 1) % 4


@pytest.mark.parametrize(
    ("opts", "prefix"),
    [({"rounds": [2]}, "JES"), ({"rounds": [2], "wizard_turned": "no_trump"}, "WIZ")],
)
def test_s4_3_no_trump_round_off_suit_cards_never_win(opts: dict[str, Any], prefix: str) -> None:
    """§4.3 (turned Jester) / §9 wizard_turned=no_trump: no trump, so the led suit wins against any discard."""
    seed = find_seed(4, opts, prefix)
    g = WizardGame(4, opts, seed)
    assert g.phase == "bid" and g.public_view()["trump"] is None
    dealer = g.public_view()["dealer"]
    assert all(a["type"] != "trump" for a in g.legal_actions(dealer))
    lead = rig(g, [["2H", "3H"], ["AS", "KS"], ["AD", "KD"], ["AC", "KC"]], bids_in_order=[0, 0, 0, 0])
    play(g, ["2H", "AS", "AD", "AC"])
    assert g.public_view()["last_trick"]["winner"] == lead


def test_s4_4_final_round_no_trump_in_play() -> None:
    """§4.4: in the final round (N·r = 60) nothing is trump: aces of other suits lose to the led 2."""
    hearts = [f"{r}H" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    h0 = [*hearts, "2S", "3S"]
    h1 = [f"{r}S" for r in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")] + ["2D", "3D", "4D", "5D"]
    h2 = [f"{r}D" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")] + [f"{r}C" for r in "234567"]
    h3 = [f"{r}C" for r in ("8", "9", "10", "J", "Q", "K", "A")] + [f"WIZ{i}" for i in range(1, 5)]
    h3 += [f"JES{i}" for i in range(1, 5)]
    assert len({*h0, *h1, *h2, *h3}) == 60 and all(len(h) == 15 for h in (h0, h1, h2, h3))
    g = WizardGame(4, {"rounds": [15]}, 3)
    assert g.phase == "bid" and g.public_view()["indicator"] is None
    lead = rig(g, [h0, h1, h2, h3], bids_in_order=[1, 0, 0, 0])  # the engine's own trump (none) is kept
    play(g, ["2H", "AS", "AD", "AC"])
    assert g.public_view()["last_trick"]["winner"] == lead


def test_s11_choose_trump_rejected_when_indicator_is_a_suit_card() -> None:
    """§11: ChooseTrump exists only after a turned Wizard; with a suit indicator the dealer cannot pick trump."""
    opts = {"rounds": [3]}
    g = WizardGame(4, opts, find_seed(4, opts, "suit"))
    v = g.public_view()
    assert v["phase"] == "bid" and v["trump"] == v["indicator"][-1]
    other = next(s for s in "SHDC" if s != v["trump"])
    with pytest.raises(IllegalAction):
        g.apply(v["dealer"], {"type": "trump", "suit": other})
    assert g.public_view()["trump"] == v["trump"]


# -- §5 bidding ------------------------------------------------------------------------------------------------


def test_s5_2_no_restriction_by_default_dealer_may_hit_r() -> None:
    """§5.2: base game, the dealer may bid the value that makes the total exactly r."""
    g, _lead = one_round([["2C", "3C", "4C"]] * 4, "S")
    dealer = g.public_view()["dealer"]
    for b in (1, 1, 0):
        g.apply(g.to_move()[0], {"type": "bid", "n": b})
    assert g.public_view()["forbidden_bid"] is None
    assert bid_values(g, dealer) == [0, 1, 2, 3]
    g.apply(dealer, {"type": "bid", "n": 1})
    assert g.public_view()["bids_total"] == 3 and g.phase == "play"


def test_s5_3_open_bids_public_at_once_and_summary_before_lead() -> None:
    """§5.3 / §10: open bids are visible to everyone as made; before the lead all bids and the total vs r are shown."""
    g, lead = one_round([["2C", "3C", "4C"]] * 4, "S")
    g.apply(lead, {"type": "bid", "n": 2})
    for s in range(4):
        assert g.view(s)["bids"][lead] == 2
    assert g.public_view()["bids"][lead] == 2
    for b in (2, 0, 1):
        g.apply(g.to_move()[0], {"type": "bid", "n": b})
    complete = [e for e in g.public_view()["events"] if e["kind"] == "bids_complete"]
    assert len(complete) == 1
    ev = complete[0]
    expected = [0] * 4
    for i, b in enumerate((2, 2, 0, 1)):
        expected[(lead + i) % 4] = b
    assert ev["bids"] == expected and ev["total"] == 5 and ev["hand_size"] == 3  # over by 2


def test_s9_restriction_round_one_all_zero_dealer_must_bid_zero() -> None:
    """§9 bid_restriction: r=1, previous bids 0,0,0 → the dealer may not bid 1 (total would be r)."""
    g, _lead = one_round([["2C"], ["3C"], ["4C"], ["5C"]], "S", bid_restriction=True)
    dealer = g.public_view()["dealer"]
    for _ in range(3):
        g.apply(g.to_move()[0], {"type": "bid", "n": 0})
    assert g.to_move() == (dealer,)
    assert g.public_view()["forbidden_bid"] == 1
    assert bid_values(g, dealer) == [0]  # at least one legal bid remains
    with pytest.raises(IllegalAction):
        g.apply(dealer, {"type": "bid", "n": 1})


def test_s9_restriction_forbids_zero_when_previous_bids_already_sum_to_r() -> None:
    """§9 bid_restriction: r=3, previous bids 2,1,0 → forbidden value r − 3 = 0."""
    g, _lead = one_round([["2C", "3C", "4C"]] * 4, "S", bid_restriction=True)
    dealer = g.public_view()["dealer"]
    for b in (2, 1, 0):
        g.apply(g.to_move()[0], {"type": "bid", "n": b})
    assert bid_values(g, dealer) == [1, 2, 3]
    with pytest.raises(IllegalAction):
        g.apply(dealer, {"type": "bid", "n": 0})


def test_w3_restriction_recomputed_after_undo() -> None:
    """W-3 with §9 bid_restriction: after an undo and a new bid the dealer's forbidden value follows the new sum."""
    g, lead = one_round([["2C", "3C"]] * 4, "S", bid_restriction=True)
    dealer = g.public_view()["dealer"]
    third = (lead + 2) % 4
    for b in (1, 0, 0):
        g.apply(g.to_move()[0], {"type": "bid", "n": b})
    assert bid_values(g, dealer) == [0, 2]  # 2 − 1 = 1 forbidden
    g.apply(third, {"type": "undo"})
    assert g.to_move() == (third,)
    assert bid_values(g, third) == [0, 1, 2]  # not the last bidder: unrestricted
    g.apply(third, {"type": "bid", "n": 1})
    assert bid_values(g, dealer) == [1, 2]  # 2 − 2 = 0 forbidden
    g.apply(dealer, {"type": "bid", "n": 2})
    assert g.phase == "play"
    g.apply(dealer, {"type": "undo"})  # dealer: until the first lead
    assert g.phase == "bid" and g.public_view()["forbidden_bid"] == 0
    with pytest.raises(IllegalAction):
        g.apply(dealer, {"type": "bid", "n": 0})


def test_w3_withdrawn_next_bid_does_not_reopen_earlier_bid() -> None:
    """W-3: once the next player has bid, the earlier bid is final, even if that next player then undoes."""
    g, a = one_round([["2C", "3C"]] * 4, "S")
    b, c = (a + 1) % 4, (a + 2) % 4
    g.apply(a, {"type": "bid", "n": 1})
    g.apply(b, {"type": "bid", "n": 2})
    g.apply(b, {"type": "undo"})
    assert {"type": "undo"} not in g.legal_actions(a)
    with pytest.raises(IllegalAction):
        g.apply(a, {"type": "undo"})
    g.apply(b, {"type": "bid", "n": 0})
    with pytest.raises(IllegalAction):
        g.apply(c, {"type": "undo"})  # only the bidder may take back their own bid
    assert g.public_view()["bids"][a] == 1 and g.public_view()["bids"][b] == 0


def test_w3_undo_not_available_after_round_ends() -> None:
    """W-3: after the first lead nobody may undo; the next round starts with no undo right anywhere."""
    g = WizardGame(4, {"rounds": [1, 2]}, 5)
    rig(g, [["AS"], ["2H"], ["3H"], ["4H"]], None, [1, 0, 0, 0])
    play(g, ["AS", "2H", "3H", "4H"])
    assert g.public_view()["round"] == 2
    assert all({"type": "undo"} not in g.legal_actions(s) for s in range(4))
    assert g.public_view()["undo_seat"] is None


# -- §6 trick play ---------------------------------------------------------------------------------------------


def test_s6_2_seed_jester_immediately_followed_by_wizard_frees_trick() -> None:
    """§6.2 (seed): Jester led and immediately followed by a Wizard → the rest may play anything; the Wizard wins."""
    g, lead = one_round([["JES1", "2C"], ["WIZ1", "3C"], ["5H", "KS"], ["4D", "QC"]], "S", [0, 1, 0, 0])
    play(g, ["JES1", "WIZ1"])
    assert g.public_view()["trick_free"] and g.public_view()["lead_suit"] is None
    assert legal_cards(g) == {"5H", "KS"}
    play(g, ["KS", "QC"])  # a trump does not beat the Wizard
    assert g.public_view()["last_trick"]["winner"] == (lead + 1) % 4


def test_s6_2_jesters_then_suit_card_sets_the_led_suit() -> None:
    """§6.2: while only Jesters are out there is no led suit; the first suit card after them sets it."""
    g, lead = one_round([["JES1", "2D"], ["JES2", "3D"], ["5C", "AH"], ["9C", "KH"]], None, [0, 0, 0, 0])
    play(g, ["JES1", "JES2"])
    assert g.public_view()["lead_suit"] is None and not g.public_view()["trick_free"]
    assert legal_cards(g) == {"5C", "AH"}
    play(g, ["5C"])
    assert g.public_view()["lead_suit"] == "C"
    assert legal_cards(g) == {"9C"}  # must follow clubs now
    with pytest.raises(IllegalAction):
        g.apply(g.to_move()[0], {"type": "play", "card": "KH"})
    play(g, ["9C"])
    assert g.public_view()["last_trick"]["winner"] == (lead + 3) % 4


def test_s6_3_wizard_after_the_lead_does_not_free_the_trick() -> None:
    """§6.2/§6.3: only a leading Wizard (or first non-Jester) frees the trick; a later Wizard leaves the led suit."""
    g, lead = one_round([["5H", "2C"], ["WIZ1", "3C"], ["7H", "AS"], ["8D", "9D"]], "S", [0, 1, 0, 0])
    play(g, ["5H", "WIZ1"])
    assert g.public_view()["lead_suit"] == "H" and not g.public_view()["trick_free"]
    assert legal_cards(g) == {"7H"}
    with pytest.raises(IllegalAction):
        g.apply(g.to_move()[0], {"type": "play", "card": "AS"})
    play(g, ["7H", "8D"])
    assert g.public_view()["last_trick"]["winner"] == (lead + 1) % 4


def test_s6_4_wizard_after_trumps_still_wins() -> None:
    """§6.4 rule 1 before rule 2: a Wizard played after trumps beats them (and a later trump)."""
    g, lead = one_round([["5H"], ["AS"], ["WIZ2"], ["KS"]], "S", [0, 0, 1, 0])
    play(g, ["5H", "AS", "WIZ2", "KS"])
    log = g.public_view()["round_log"][0]
    assert log["tricks"][(lead + 2) % 4] == 1
    assert log["scores"][(lead + 2) % 4] == 30


def test_s6_4_jesters_lose_to_any_suit_card_then_winner_leads() -> None:
    """§6.4 note: a Jester never wins unless all are Jesters; JES, JES, 2H → the 2H wins and leads next (§6.1)."""
    g, lead = one_round([["JES1", "3D"], ["JES2", "4D"], ["2H", "5D"]], None, [0, 0, 0])
    play(g, ["JES1", "JES2", "2H"])
    winner = (lead + 2) % 3
    assert g.public_view()["last_trick"]["winner"] == winner
    assert g.to_move() == (winner,)
    assert g.public_view()["tricks"][winner] == 1


def test_s6_4_highest_trump_among_several_ruffs() -> None:
    """§6.4 rule 2: with two ruffs the higher trump wins, even played before the led suit's ace."""
    g, lead = one_round([["KH"], ["9S"], ["AH"], ["10S"], ["2S"]], "S", [0, 0, 0, 0, 0])
    play(g, ["KH", "9S", "AH", "10S", "2S"])
    assert g.public_view()["round_log"][0]["tricks"][(lead + 3) % 5] == 1


# -- §7 / §8 scoring, end of game, stakes ---------------------------------------------------------------------------


def test_s7_scores_accumulate_over_rounds_and_may_go_negative() -> None:
    """§7: per-round scores (exact: 20+10t; else −10|t−b|) add up over rounds; totals may be negative."""
    g = WizardGame(3, {"rounds": [1, 2]}, 7)
    fd = g.first_dealer
    l1 = rig(g, [["AS"], ["2H"], ["3H"]], None, [1, 1, 0])
    assert l1 == (fd + 1) % 3
    play(g, ["AS", "2H", "3H"])
    # round 1 (by hand): L1 30, L1+1 −10, L1+2 20
    r1 = [0] * 3
    r1[l1], r1[(l1 + 1) % 3], r1[(l1 + 2) % 3] = 30, -10, 20
    assert g.public_view()["history"] == [r1]
    l2 = rig(g, [["AH", "KH"], ["2H", "3H"], ["4H", "5H"]], None, [0, 2, 0])
    assert l2 == (fd + 2) % 3
    play(g, ["AH", "2H", "4H", "KH", "3H", "5H"])
    assert g.is_over
    # round 2: L2 took 2 with bid 0 → −20; L2+1 bid 2 took 0 → −20; L2+2 bid 0 took 0 → +20
    r2 = [0] * 3
    r2[l2], r2[(l2 + 1) % 3], r2[(l2 + 2) % 3] = -20, -20, 20
    v = g.public_view()
    assert v["history"] == [r1, r2]
    totals = [0] * 3
    totals[(fd + 1) % 3], totals[(fd + 2) % 3], totals[fd] = 50, -30, 0
    assert v["totals"] == totals
    res = g.result()
    assert res is not None and res.winners == ((fd + 1) % 3,)
    assert res.ranks[(fd + 2) % 3] == 3


def test_s8_1_winner_may_have_negative_total_and_stake_settles_pairwise() -> None:
    """§8.1 a negative total can win; §8.3 pairwise settlement (score_i − score_j) × stake, zero-sum."""
    g, lead = one_round([["AH", "KH"], ["2H", "3H"], ["4H", "5H"]], None, [0, 1, 2], stake_per_point=5)
    play(g, ["AH", "2H", "4H", "KH", "3H", "5H"])
    # leader: bid 0 took 2 → −20; next: bid 1 took 0 → −10; last: bid 2 took 0 → −20
    pts = [0] * 3
    pts[lead], pts[(lead + 1) % 3], pts[(lead + 2) % 3] = -20, -10, -20
    res = g.result()
    assert res is not None and list(res.totals) == pts and res.winners == ((lead + 1) % 3,)
    (st,) = g.settlements()
    assert list(st.amounts["point"]) == pts
    # −20 vs −10, −20 vs −20: (−10 + 0) × 5 = −50; −10 vs both −20: (10 + 10) × 5 = +100
    stake = [0] * 3
    stake[lead], stake[(lead + 1) % 3], stake[(lead + 2) % 3] = -50, 100, -50
    assert list(st.amounts["stake"]) == stake
    assert st.summary["winners"] == [(lead + 1) % 3]


def test_w5_two_way_tie_for_first_shares_the_win() -> None:
    """W-5: two equal highest totals are co-winners (no tie-break); stake 2 settles −120 / +60 / +60."""
    g, lead = one_round([["AH", "KH"], ["2H", "3H"], ["4H", "5H"]], None, [1, 0, 0], stake_per_point=2)
    play(g, ["AH", "2H", "4H", "KH", "3H", "5H"])
    # leader bid 1 took 2 → −10; the others bid 0 took 0 → +20 each
    a, b = (lead + 1) % 3, (lead + 2) % 3
    res = g.result()
    assert res is not None and res.winners == tuple(sorted((a, b)))
    assert res.ranks[a] == res.ranks[b] == 1 and res.ranks[lead] == 3
    (st,) = g.settlements()
    stake = [0] * 3
    stake[lead], stake[a], stake[b] = -120, 60, 60
    assert list(st.amounts["stake"]) == stake
    assert sorted(st.summary["winners"]) == sorted((a, b))
    v = g.public_view()
    assert sorted(v["winners"]) == sorted((a, b))


# -- §9 options ------------------------------------------------------------------------------------------------


def test_s9_blind_round_only_with_one_card_hands() -> None:
    """§9 first_round_blind (interpretation): it applies to the 1-card round; a short game without it has none."""
    g = WizardGame(4, {"first_round_blind": True, "rounds": [2, 3]}, 4)
    v = g.view(0)
    assert not v["blind_round"] and not v["hand_hidden"] and len(v["hand"]) == 2
    g1 = WizardGame(4, {"first_round_blind": True, "rounds": [1, 3]}, 4)
    assert g1.public_view()["blind_round"] and g1.view(0)["hand"] == []


def test_s9_blind_round_bid_phase_prompt_does_not_name_own_card() -> None:
    """§9 first_round_blind / §10: during bidding no part of a seat's view (prompt included) shows its own card."""
    g = WizardGame(4, {"first_round_blind": True, "rounds": [1]}, 12)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "H"})
    for _ in range(4):
        s = g.to_move()[0]
        own = g._hands[s][0]
        assert own not in json.dumps(g.view(s))
        others = [g._hands[t][0] for t in range(4) if t != s]
        assert [c for c in g.view(s)["foreheads"] if c is not None] == others
        g.apply(s, {"type": "bid", "n": 0})


def test_s9_simultaneous_bids_revealed_together_with_total() -> None:
    """§9 bid_mode=simultaneous: hidden from others until the last bid arrives, then all bids and the total show."""
    g, _lead = one_round([["2C", "3C", "4C"]] * 4, "S", bid_mode="simultaneous")
    for s, b in ((1, 3), (0, 2), (3, 0)):
        g.apply(s, {"type": "bid", "n": b})
        assert g.public_view()["bids_total"] is None
        assert g.view(2)["bids"] == [None] * 4
    g.apply(2, {"type": "bid", "n": 1})
    assert g.phase == "play"
    for s in range(4):
        assert g.view(s)["bids"] == [2, 3, 1, 0]
    assert g.public_view()["bids_total"] == 6


@pytest.mark.parametrize("n", [3, 4, 6])
def test_w1_first_dealer_is_an_input(n: int) -> None:
    """DECISION W-1 / §3.3: ``first_dealer`` given as an input deals round 1; round r is dealt by
    ``(first_dealer + r - 1) mod N``, and the player after the dealer bids first."""
    for fd in range(n):
        g = WizardGame(n, {"first_dealer": fd, "rounds": "1-3"}, 5)
        assert g.first_dealer == fd
        for r in (1, 2, 3):
            dealer = (fd + r - 1) % n
            assert g.public_view()["dealer"] == dealer
            first = dealer if g.public_view()["phase"] == "trump" else (dealer + 1) % n  # a turned Wizard (§4.3)
            assert g.to_move() == (first,)
            while g.public_view()["round"] == r and not g.is_over:
                (s,) = g.to_move()
                g.apply(s, g.legal_actions(s)[0])
    for bad in (-1, n, True, "0"):
        with pytest.raises(InvalidOptions):
            WizardGame(n, {"first_dealer": bad}, 5)

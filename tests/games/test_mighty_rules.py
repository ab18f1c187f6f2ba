"""Mighty engine: unit tests of every rule of docs/rules/mighty.md (§ numbers in test names)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.cards import FRENCH_52_JOKER
from bot.engine.errors import IllegalAction, InvalidOptions
from bot.engine.rng import make_rng, shuffled
from bot.games.mighty.engine import (
    POINT_CARDS,
    MightyGame,
    _set_hands_for_test,
    base_score,
    bid_value,
    mighty_of,
    payments,
    ripper_of,
    trick_winner,
    weak_hand_halves,
)

ORDER = list(FRENCH_52_JOKER)


# -- helpers ----------------------------------------------------------------------------------------------
def make(
    spec: dict[int, str] | None = None, kitty: str = "", options: dict[str, Any] | None = None, seed: int = 0
) -> MightyGame:
    """A fresh game whose deal is replaced: ``spec`` gives some cards per seat, the rest is filled in."""
    spec = spec or {}
    hands = {s: c.split() for s, c in spec.items()}
    k = kitty.split()
    used = {c for h in hands.values() for c in h} | set(k)
    rest = [c for c in ORDER if c not in used]
    full = []
    for s in range(5):
        h = list(hands.get(s, []))
        need = 10 - len(h)
        full.append(h + rest[:need])
        rest = rest[need:]
    k += rest[: 3 - len(k)]
    g = MightyGame(5, options, seed)
    _set_hands_for_test(g, full, k)
    return g


def auction_to(g: MightyGame, declarer: int, n: int, trump: str) -> None:
    done = False
    while g.phase == "auction":
        s = g.to_move()[0]
        if s == declarer and not done:
            g.apply(s, {"type": "bid", "n": n, "trump": trump})
            done = True
        else:
            g.apply(s, {"type": "pass"})


def to_play(
    spec: dict[int, str] | None = None,
    kitty: str = "",
    declarer: int = 0,
    n: int = 13,
    trump: str = "H",
    discard: list[str] | None = None,
    contract: tuple[int, str] | None = None,
    call: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> MightyGame:
    g = make(spec, kitty, options, seed)
    kit = list(g._kitty)
    auction_to(g, declarer, n, trump)
    g.apply(declarer, {"type": "discard", "cards": discard or kit})
    c = contract or (n, trump)
    g.apply(declarer, {"type": "contract", "n": c[0], "trump": c[1]})
    g.apply(declarer, call or {"type": "call", "kind": "none"})
    return g


def position(
    trump: str, trick_no: int, hands: list[str], leader: int, options: dict[str, Any] | None = None
) -> MightyGame:
    """A play-phase game with arbitrary hands, at trick ``trick_no`` (0-based), ``leader`` to lead."""
    g = to_play(trump=trump, options=options)
    g._hands = [h.split() for h in hands]
    g._discards = []  # the filler put the Joker there: forget it, these hands are made up
    g._trick_no = trick_no
    g._leader = leader
    g._plays = []
    return g


def cards_of(g: MightyGame, seat: int) -> set[str]:
    return {a["card"] for a in g.legal_actions(seat)}


def play(g: MightyGame, seat: int, card: str, **kw: Any) -> None:
    g.apply(seat, {"type": "play", "card": card, **kw})


def snapshot(g: MightyGame) -> Any:
    return (g.public_view(), [g.view(s) for s in range(5)], g.legal_actions(g.to_move()[0]))


# -- §2 deck, §3 deal ---------------------------------------------------------------------------------
def test_deck_and_points_checklist_1_2() -> None:
    assert len(ORDER) == 53 == len(set(ORDER))
    assert len(POINT_CARDS) == 20 and "JK" not in POINT_CARDS
    assert all(c[0] in "AKQJT" for c in POINT_CARDS)


def test_special_cards_follow_trump_2_3() -> None:
    assert (mighty_of("S"), ripper_of("S")) == ("AD", "3C")
    assert (mighty_of("C"), ripper_of("C")) == ("AS", "3S")
    for t in ("D", "H", "NT"):
        assert (mighty_of(t), ripper_of(t)) == ("AS", "3C")


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
def test_deal_mapping_3_3_and_first_dealer_3_1(seed: int) -> None:
    g = MightyGame(5, None, seed)
    dealer = make_rng(seed, "first_dealer").randrange(5)
    assert g.public_view()["dealer"] == dealer
    assert g.public_view()["opener"] == dealer  # §4.1: the dealer bids first in hand 1
    assert g.to_move() == (dealer,)
    d = shuffled(FRENCH_52_JOKER, make_rng(seed, "deal", 0, 0))
    exp: list[list[str]] = [[] for _ in range(5)]
    pos = 0
    for b in (1, 2, 3, 4):
        for i in range(1, 6):
            exp[(dealer + i) % 5] += d[pos : pos + b]
            pos += b
    assert g._hands == exp
    assert g._kitty == d[50:53]
    assert all(len(h) == 10 for h in g._hands)


def test_options_validation() -> None:
    g = MightyGame(5, None, 1)
    assert g.options == {
        "weak_hand_misdeal": True,
        "kitty_face_up": True,
        "first_trick_friend": True,
        "no_friend": True,
        "mighty_saves_joker": False,
        "show_history": False,
        "show_captured": True,
        "stake": 1,
        "hands": 0,
        "hints": False,
    }
    with pytest.raises(InvalidOptions):
        MightyGame(4, None, 1)
    with pytest.raises(InvalidOptions):
        MightyGame(5, {"stake": 0}, 1)
    with pytest.raises(InvalidOptions):
        MightyGame(5, {"hands": -1}, 1)
    with pytest.raises(InvalidOptions):
        MightyGame(5, {"kitty_face_up": "yes"}, 1)
    with pytest.raises(InvalidOptions):
        MightyGame(5, {"bogus": 1}, 1)


# -- §4 auction ---------------------------------------------------------------------------------------
def test_bid_order_4_3() -> None:
    assert bid_value(15, "NT") > bid_value(15, "H") == bid_value(15, "S")
    assert bid_value(16, "S") > bid_value(15, "NT")
    g = make(seed=3)
    o = g.to_move()[0]
    g.apply(o, {"type": "bid", "n": 15, "trump": "H"})
    s = g.to_move()[0]
    assert s == (o + 1) % 5
    before = snapshot(g)
    for bad in (
        {"type": "bid", "n": 15, "trump": "S"},
        {"type": "bid", "n": 14, "trump": "NT"},
        {"type": "bid", "n": 21, "trump": "NT"},
        {"type": "bid", "n": 12, "trump": "S"},
        {"type": "bid", "n": 16, "trump": "X"},
        {"type": "bid", "n": True, "trump": "S"},
    ):
        with pytest.raises(IllegalAction):
            g.apply(s, bad)
        assert snapshot(g) == before  # illegal actions leave the state unchanged
    with pytest.raises(IllegalAction):
        g.apply((s + 1) % 5, {"type": "pass"})  # not your turn
    bids = [(a["n"], a["trump"]) for a in g.legal_actions(s) if a["type"] == "bid"]
    assert (15, "NT") in bids and (15, "S") not in bids and (16, "S") in bids and min(bids)[0] == 15
    g.apply(s, {"type": "bid", "n": 15, "trump": "NT"})


def test_first_bid_any_number_and_pass_is_final_4_4() -> None:
    g = make(seed=4)
    o = g.to_move()[0]
    assert {(a["n"], a["trump"]) for a in g.legal_actions(o) if a["type"] == "bid"} == {
        (n, t) for n in range(13, 21) for t in ("S", "D", "H", "C", "NT")
    }
    g.apply(o, {"type": "pass"})
    g.apply((o + 1) % 5, {"type": "bid", "n": 13, "trump": "S"})
    g.apply((o + 2) % 5, {"type": "bid", "n": 14, "trump": "S"})
    g.apply((o + 3) % 5, {"type": "pass"})
    g.apply((o + 4) % 5, {"type": "pass"})
    assert g.to_move() == ((o + 1) % 5,)  # o and o+3, o+4 passed: skipped for good
    g.apply((o + 1) % 5, {"type": "bid", "n": 15, "trump": "D"})
    assert g.to_move() == ((o + 2) % 5,)
    g.apply((o + 2) % 5, {"type": "pass"})
    assert g.phase == "discard" and g.public_view()["declarer"] == (o + 1) % 5
    assert g.public_view()["bid"] == {"n": 15, "trump": "D"}


def test_last_silent_player_still_speaks_4_6() -> None:
    g = make(seed=5)
    o = g.to_move()[0]
    for i in range(4):
        g.apply((o + i) % 5, {"type": "pass"})
    assert g.to_move() == ((o + 4) % 5,) and g.phase == "auction"
    g.apply((o + 4) % 5, {"type": "bid", "n": 13, "trump": "C"})
    assert g.phase == "discard" and g.public_view()["declarer"] == (o + 4) % 5


def test_20nt_ends_auction_at_once_4_5() -> None:
    g = make(seed=6)
    o = g.to_move()[0]
    g.apply(o, {"type": "bid", "n": 20, "trump": "NT"})
    assert g.phase == "discard" and g.to_move() == (o,)


def test_all_pass_twice_redeals_same_dealer_4_7() -> None:
    g = MightyGame(5, {"weak_hand_misdeal": False}, 8)
    dealer, o = g.public_view()["dealer"], g.to_move()[0]
    hands0 = [list(h) for h in g._hands]
    for i in range(5):
        g.apply((o + i) % 5, {"type": "pass"})
    v = g.public_view()
    assert v["auction"]["round"] == 2 and v["auction"]["passed"] == [] and g.to_move() == (o,)
    assert g._hands == hands0  # same deal
    assert {"type": "bid", "n": 13, "trump": "S"} in g.legal_actions(o)  # minimum stays 13 (DECISION #7)
    for i in range(5):
        g.apply((o + i) % 5, {"type": "pass"})
    v = g.public_view()
    assert v["redeal_number"] == 1 and v["hand_number"] == 0 and v["auction"]["round"] == 1
    assert v["dealer"] == dealer and g.to_move() == (o,)
    assert g._hands != hands0
    d = shuffled(FRENCH_52_JOKER, make_rng(8, "deal", 0, 1))
    assert g._kitty == d[50:53]
    assert g.settlements() == []


def test_weak_hand_value_4_8() -> None:
    assert weak_hand_halves(["JK", "AS", "2C"]) == -2
    assert weak_hand_halves(["AH", "KD", "QC", "JS"]) == 8
    assert weak_hand_halves(["TH", "TD", "9C"]) == 2
    assert weak_hand_halves(["AS", "TC", "2D"]) == 1


def test_weak_hand_misdeal_claim_4_8() -> None:
    weak = "AS TC 2D 3D 4D 5D 6D 7D 8D 9D"  # worth ½: eligible
    strong = "TD 2C 3C 4C 5C 6C 7C 8C 9C 2H"  # worth ½ too
    g = make({0: weak}, seed=0)
    o = g.to_move()[0]
    claimant = o
    g = make({claimant: weak, (claimant + 1) % 5: "AH " + strong.replace("TD ", "")}, seed=0)
    assert {"type": "misdeal"} in g.legal_actions(claimant)
    # the next seat holds an ace: value ≥ 1 -> not offered
    nxt = (claimant + 1) % 5
    g.apply(claimant, {"type": "pass"})
    assert {"type": "misdeal"} not in g.legal_actions(nxt)
    with pytest.raises(IllegalAction):
        g.apply(nxt, {"type": "misdeal"})
    # claim it at the first turn: hand shown publicly, same dealer redeals, no settlement
    g = make({claimant: weak}, seed=0)
    dealer = g.public_view()["dealer"]
    g.apply(claimant, {"type": "misdeal"})
    v = g.public_view()
    ev = [e for e in v["events"] if e["kind"] == "misdeal_claim"][-1]
    assert ev["seat"] == claimant and sorted(ev["cards"]) == sorted(weak.split()) and ev["value"] == 0.5
    assert v["redeal_number"] == 1 and v["dealer"] == dealer and g.to_move() == (o,)
    assert g.settlements() == []


def test_weak_hand_misdeal_only_first_turn_round_1_and_option() -> None:
    weak = "AS TC 2D 3D 4D 5D 6D 7D 8D 9D"
    g = make({0: weak}, seed=0)
    o = g.to_move()[0]
    g = make({o: weak}, seed=0)
    # everybody passes round 1 -> round 2: no claim any more
    for i in range(5):
        g.apply((o + i) % 5, {"type": "pass"})
    assert {"type": "misdeal"} not in g.legal_actions(o)
    with pytest.raises(IllegalAction):
        g.apply(o, {"type": "misdeal"})
    g = make({o: weak}, options={"weak_hand_misdeal": False}, seed=0)
    assert {"type": "misdeal"} not in g.legal_actions(o)
    # a later first turn (after others bid) still may claim
    s2 = (o + 1) % 5
    g = make({s2: weak}, seed=0)
    g.apply(o, {"type": "bid", "n": 14, "trump": "S"})
    assert {"type": "misdeal"} in g.legal_actions(s2)


# -- §5 kitty, discard, change, call ----------------------------------------------------------------------
def test_kitty_public_then_discard_5_1() -> None:
    g = make({0: "AH KH QH JH TH 9H 8H 7H 6H 5H"}, kitty="AC KC 2S", seed=0)
    auction_to(g, 0, 14, "H")
    v = g.public_view()
    assert sorted(v["kitty"]) == ["2S", "AC", "KC"]
    assert [e for e in v["events"] if e["kind"] == "kitty"][-1]["cards"] is not None
    assert len(g.view(0)["hand"]) == 13
    p = g.view(0)["prompt"]
    assert p["kind"] == "combo" and p["type"] == "discard" and p["fields"][0]["count"] == 3
    assert len(p["fields"][0]["from"]) == 13 and p["fixed"] == {}
    assert len(g.legal_actions(0)) == 286  # C(13, 3)
    for bad in (["AC", "KC"], ["AC", "AC", "KC"], ["AC", "KC", "AD"]):
        with pytest.raises(IllegalAction):
            g.apply(0, {"type": "discard", "cards": bad})
    g.apply(0, {"type": "discard", "cards": ["AH", "KC", "AC"]})  # point cards may be discarded
    v = g.public_view()
    assert v["discarded"] and "discards" not in v
    assert "AH" not in str(v)
    assert sorted(g.view(0)["discards"]) == ["AC", "AH", "KC"]
    assert g.view(1)["discards"] is None
    assert len(g.view(0)["hand"]) == 10


def test_kitty_face_down_option_5_1() -> None:
    g = make({}, kitty="AC KC 2S", options={"kitty_face_up": False}, seed=0)
    auction_to(g, 2, 14, "H")
    v = g.public_view()
    assert v["kitty"] is None
    assert [e for e in v["events"] if e["kind"] == "kitty"][-1]["cards"] is None
    assert sorted(g.view(2)["kitty_private"]) == ["2S", "AC", "KC"]
    assert g.view(1)["kitty_private"] is None
    for s in (0, 1, 3, 4):
        assert "KC" not in str(g.view(s))


def _change_set(n: int, t: str) -> set[tuple[int, str]]:
    g = make(seed=1)
    auction_to(g, 1, n, t)
    g.apply(1, {"type": "discard", "cards": list(g._kitty)})
    return {(a["n"], a["trump"]) for a in g.legal_actions(1)}


def test_trump_change_rules_5_2() -> None:
    got = _change_set(14, "H")
    exp = {(n, "H") for n in range(14, 21)} | {(n, "NT") for n in range(15, 21)}
    exp |= {(n, t) for t in "SDC" for n in range(16, 21)}
    assert got == exp
    got = _change_set(14, "NT")
    assert got == {(n, "NT") for n in range(14, 21)} | {(n, t) for t in "SDHC" for n in range(16, 21)}
    assert _change_set(19, "S") == {(19, "S"), (20, "S"), (20, "NT")}
    assert _change_set(20, "NT") == {(20, "NT")}


def test_final_trump_sets_special_cards_5_2_2() -> None:
    g = make(seed=1)
    auction_to(g, 1, 14, "S")
    g.apply(1, {"type": "discard", "cards": list(g._kitty)})
    with pytest.raises(IllegalAction):
        g.apply(1, {"type": "contract", "n": 15, "trump": "C"})  # needs +2
    g.apply(1, {"type": "contract", "n": 16, "trump": "C"})
    v = g.public_view()
    assert v["contract"] == {"n": 16, "trump": "C"} and v["mighty"] == "AS" and v["ripper"] == "3S"
    ev = [e for e in v["events"] if e["kind"] == "contract"][-1]
    assert ev["changed"] and ev["mighty"] == "AS" and ev["ripper"] == "3S"


def test_card_friend_secrecy_5_3_1() -> None:
    g = to_play({0: "AH KH QH JH TH 9H 8H 7H 6H 5H", 3: "AS"}, call={"type": "call", "kind": "card", "card": "AS"})
    roles = [g.view(s)["role"] for s in range(5)]
    assert roles == ["declarer", "defender", "defender", "friend", "defender"]
    assert g.view(3)["you_are_friend"] and not g.view(1)["you_are_friend"]
    assert not g.view(0)["secret_solo"]
    v = g.public_view()
    assert v["friend"] is None and not v["friend_revealed"] and v["friend_call"] == {"kind": "card", "card": "AS"}
    for s in (1, 2, 4):
        assert g.view(s)["friend"] is None


def test_secret_solo_in_hand_and_in_discards_5_3_1() -> None:
    g = to_play({0: "AS KH QH JH TH 9H 8H 7H 6H 5H"}, call={"type": "call", "kind": "card", "card": "AS"})
    assert g.view(0)["secret_solo"]
    assert not any(g.view(s)["secret_solo"] for s in range(1, 5))
    assert all(g.view(s)["role"] == "defender" for s in range(1, 5))
    pv = g.public_view()
    assert "secret_solo" not in pv and pv["friend"] is None and not pv["friend_revealed"]
    # called card in the discards
    g = to_play(
        {0: "KH QH JH TH 9H 8H 7H 6H 5H 4H"}, kitty="AS 2C 3D", call={"type": "call", "kind": "card", "card": "AS"}
    )
    assert g.view(0)["secret_solo"] and g._friend is None


def test_friend_call_options_5_3() -> None:
    g = make(options={"first_trick_friend": False, "no_friend": False}, seed=2)
    auction_to(g, 0, 13, "H")
    g.apply(0, {"type": "discard", "cards": list(g._kitty)})
    g.apply(0, {"type": "contract", "n": 13, "trump": "H"})
    acts = g.legal_actions(0)
    assert len(acts) == 53 and all(a["kind"] == "card" for a in acts)
    for kind in ("first_trick", "none"):
        with pytest.raises(IllegalAction):
            g.apply(0, {"type": "call", "kind": kind})
    g2 = make(seed=2)
    auction_to(g2, 0, 13, "H")
    g2.apply(0, {"type": "discard", "cards": list(g2._kitty)})
    g2.apply(0, {"type": "contract", "n": 13, "trump": "H"})
    assert len(g2.legal_actions(0)) == 55
    assert g2.view(0)["prompt"]["kind"] == "pick"


# -- §6 trick play ----------------------------------------------------------------------------------------
def test_declarer_leads_trick1_no_trump_lead_6_3() -> None:
    g = to_play({0: "AH KH QH JH TH 9H 8H 7H 2C JK"}, kitty="3S 4S 5S")
    assert g.to_move() == (0,)
    assert cards_of(g, 0) == {"2C"}  # no trump lead, no Joker in trick 1
    with pytest.raises(IllegalAction):
        play(g, 0, "AH")
    with pytest.raises(IllegalAction):
        play(g, 0, "JK", suit="H")
    # only trumps (and the Joker) -> a trump lead is forced
    g = to_play({0: "AH KH QH JH TH 9H 8H 7H 6H JK"}, kitty="3S 4S 5S")
    assert cards_of(g, 0) == {"AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H"}
    # the Mighty is not a trump: holding it means a non-trump lead exists
    g = to_play({0: "AH KH QH JH TH 9H 8H 7H 6H AS"}, kitty="3S 4S 5S")
    assert cards_of(g, 0) == {"AS"}
    # NT: everything but the Joker
    g = position("NT", 0, ["AH 2C JK", "", "", "", ""], 0)
    assert cards_of(g, 0) == {"AH", "2C"}


def test_joker_banned_in_trick_1_even_when_void_6_3_1() -> None:
    g = position("H", 0, ["2C 3C", "JK 4D 5D", "6C", "7C", "8C"], 0)
    play(g, 0, "2C")
    assert cards_of(g, 1) == {"4D", "5D"}
    with pytest.raises(IllegalAction) as info:
        play(g, 1, "JK")
    assert info.value.code == "joker_first_trick"
    assert not any(a.get("joker_call") for a in position("H", 0, ["3C 4C", "", "", "", ""], 0).legal_actions(0))


def test_follow_suit_mighty_free_joker_free_6_2() -> None:
    g = position("H", 3, ["2C", "4C AS JK 2D", "5C KC", "2H 3D", "3S AS"], 0)
    play(g, 0, "2C")
    assert cards_of(g, 1) == {"4C", "AS", "JK"}  # Mighty and Joker always free from trick 2
    play(g, 1, "4C")
    assert cards_of(g, 2) == {"5C", "KC"}
    play(g, 2, "KC")
    assert cards_of(g, 3) == {"2H", "3D"}  # void: anything


def test_mighty_counts_as_its_suit_6_2_3() -> None:
    # ♥ trump: Mighty = ♠A. Spade led: a player whose only spade is the Mighty must play it (or the Joker).
    g = position("H", 3, ["5S", "AS 2D 3H", "AS JK 2D", "", ""], 0)
    play(g, 0, "5S")
    assert cards_of(g, 1) == {"AS"}
    g = position("H", 3, ["5S", "AS JK 2D", "", "", ""], 0)
    play(g, 0, "5S")
    assert cards_of(g, 1) == {"AS", "JK"}
    # ♠ trump: Mighty = ♦A, counts as a diamond
    g = position("S", 3, ["5D", "AD 2S 3H", "", "", ""], 0)
    play(g, 0, "5D")
    assert cards_of(g, 1) == {"AD"}
    # leading the Mighty leads its printed suit
    g = position("H", 3, ["AS 2C", "4S 3C", "", "", ""], 0)
    play(g, 0, "AS")
    assert cards_of(g, 1) == {"4S"}


def _full_trick(trump: str, trick_no: int, cards: list[str], leader: int = 0, **lead_kw: Any) -> int:
    hands = [""] * 5
    for i, c in enumerate(cards):
        hands[(leader + i) % 5] = c
    g = position(trump, trick_no, hands, leader)
    for i, c in enumerate(cards):
        play(g, (leader + i) % 5, c, **(lead_kw if i == 0 else {}))
    # after trick 10 the hand is over and the next one dealt: read the recorded last trick
    lt = g.settlements()[-1].summary["tricks"][-1] if trick_no == 9 else g.public_view()["last_trick"]
    assert lt["number"] == trick_no + 1
    return int(lt["winner"])


def test_trick_winner_6_7() -> None:
    # highest of the led suit; other suits never win
    assert _full_trick("H", 3, ["5C", "KC", "AD", "2C", "QS"]) == 1
    # any trump beats the led suit; highest trump wins
    assert _full_trick("H", 3, ["AC", "2H", "KC", "5H", "QC"]) == 3
    # Mighty beats trumps and the Joker, in trick 1 and the last trick too
    assert _full_trick("H", 3, ["AH", "JK", "AS", "KH", "2C"]) == 2
    assert _full_trick("H", 0, ["2C", "AS", "KC", "AC", "2H"]) == 1
    assert _full_trick("H", 9, ["AH", "2C", "3C", "4C", "AS"]) == 4
    # the powered Joker beats trumps (tricks 2-9)
    assert _full_trick("H", 4, ["AH", "KH", "JK", "QH", "2C"]) == 2
    # NT: the led suit only
    assert _full_trick("NT", 3, ["5D", "2H", "KD", "AH", "3D"]) == 2
    # ♠ trump: ♠A is an ordinary top trump, ♦A the Mighty
    assert _full_trick("S", 3, ["AS", "KS", "AD", "2S", "3S"]) == 2


def test_joker_powerless_in_trick_10_6_5_2() -> None:
    assert _full_trick("H", 9, ["5C", "JK", "KC", "2C", "3C"]) == 2
    assert _full_trick("H", 8, ["5C", "JK", "KC", "2C", "3C"]) == 1  # trick 9: still powered


def test_led_joker_names_suit_6_5_3() -> None:
    g = position("H", 4, ["JK 2D", "3D 4C AS", "5C 6C", "7H 8S", "9D"], 0)
    assert {(a["card"], a.get("suit")) for a in g.legal_actions(0)} == {
        ("JK", "S"),
        ("JK", "D"),
        ("JK", "H"),
        ("JK", "C"),
        ("2D", None),
    }
    with pytest.raises(IllegalAction):
        play(g, 0, "JK")  # must name a suit
    with pytest.raises(IllegalAction):
        play(g, 0, "2D", suit="H")
    play(g, 0, "JK", suit="C")
    assert g.public_view()["trick"]["joker_suit"] == "C"
    assert g.public_view()["events"][-1] == {
        "kind": "play",
        "seat": 0,
        "card": "JK",
        "suit": "C",
        "hand": 0,
        "redeal": 0,
        "trick": 5,
    }
    assert cards_of(g, 1) == {"4C", "AS"}  # follow the named suit; Mighty free
    play(g, 1, "4C")
    assert cards_of(g, 2) == {"5C", "6C"}
    play(g, 2, "6C")
    assert cards_of(g, 3) == {"7H", "8S"}
    play(g, 3, "7H")
    play(g, 4, "9D")
    assert g.public_view()["last_trick"]["winner"] == 0  # powered Joker


def test_powerless_led_joker_is_lowest_of_named_suit_6_5_4() -> None:
    # trick 10: nobody plays the named suit or a trump -> the Joker's leader wins
    assert _full_trick("H", 9, ["JK", "2C", "3C", "4S", "5S"], suit="D") == 0
    # a 2 of the named suit beats it
    assert _full_trick("H", 9, ["JK", "2C", "2D", "4S", "5S"], suit="D") == 2
    # a trump beats it
    assert _full_trick("H", 9, ["JK", "2H", "3C", "4S", "5S"], suit="D") == 1
    # pure function agrees
    assert trick_winner([(0, "JK"), (1, "2C"), (2, "3S")], "D", "H", 9, False) == 0
    assert trick_winner([(0, "JK"), (1, "2D")], "D", "H", 9, False) == 1


def test_joker_call_6_6() -> None:
    # ♥ trump, Ripper ♣3, trick 3: the call forces the Joker, which loses its power
    g = position("H", 2, ["3C 2D", "JK 4C 5C", "AC 6D", "7C", "8C"], 0)
    acts = g.legal_actions(0)
    assert {"type": "play", "card": "3C", "joker_call": True} in acts
    assert {"type": "play", "card": "3C"} in acts
    play(g, 0, "3C", joker_call=True)
    assert g.public_view()["trick"]["joker_call"]
    assert g.public_view()["events"][-1]["joker_call"] is True
    assert cards_of(g, 1) == {"JK"}
    with pytest.raises(IllegalAction) as info:
        play(g, 1, "4C")
    assert info.value.code == "joker_called"
    play(g, 1, "JK")
    assert cards_of(g, 2) == {"AC"}
    play(g, 2, "AC")
    play(g, 3, "7C")
    play(g, 4, "8C")
    assert g.public_view()["last_trick"]["winner"] == 2


def test_no_call_joker_keeps_power_6_6_1() -> None:
    g = position("H", 2, ["3C 2D", "JK 4C 5C", "AC 6D", "7C", "8C"], 0)
    play(g, 0, "3C")
    assert cards_of(g, 1) == {"JK", "4C", "5C"}
    play(g, 1, "JK")
    for s, c in ((2, "AC"), (3, "7C"), (4, "8C")):
        play(g, s, c)
    assert g.public_view()["last_trick"]["winner"] == 1


def test_joker_call_not_in_trick_1_and_only_with_ripper_6_6() -> None:
    g = position("H", 0, ["3C 2D", "JK", "", "", ""], 0)
    assert not any(a.get("joker_call") for a in g.legal_actions(0))
    with pytest.raises(IllegalAction):
        play(g, 0, "3C", joker_call=True)
    g = position("H", 3, ["3S 4C", "JK", "", "", ""], 0)  # 3S is not the Ripper with ♥ trump
    with pytest.raises(IllegalAction):
        play(g, 0, "3S", joker_call=True)
    # clubs trump: the Ripper is ♠3
    g = position("C", 3, ["3S 3C", "JK", "", "", ""], 0)
    calls = [a for a in g.legal_actions(0) if a.get("joker_call")]
    assert calls == [{"type": "play", "card": "3S", "joker_call": True}]
    # §6.6.3: a call by a leader holding the Joker, or after it was played, or with it in the declarer's own
    # discards is still a legal call - it has no effect (tested in test_mighty_spec_audit.py)
    g = position("H", 3, ["3C JK", "", "", "", ""], 0)
    assert {"type": "play", "card": "3C", "joker_call": True} in g.legal_actions(0)
    g = position("H", 3, ["3C", "", "", "", ""], 0)
    g._played.add("JK")
    assert {"type": "play", "card": "3C", "joker_call": True} in g.legal_actions(0)
    g = position("H", 3, ["3C", "JK", "", "", ""], 0)
    g._discards = ["JK", "2S", "3S"]
    assert {"type": "play", "card": "3C", "joker_call": True} in g.legal_actions(0)


def test_mighty_saves_joker_option_6_6_2() -> None:
    hands = ["3C 2D", "JK AS 5C", "AC", "7C", "8C"]
    g = position("H", 2, hands, 0)
    play(g, 0, "3C", joker_call=True)
    assert cards_of(g, 1) == {"JK"}
    g = position("H", 2, hands, 0, options={"mighty_saves_joker": True})
    play(g, 0, "3C", joker_call=True)
    assert cards_of(g, 1) == {"JK", "AS"}
    play(g, 1, "AS")
    for s, c in ((2, "AC"), (3, "7C"), (4, "8C")):
        play(g, s, c)
    assert g.public_view()["last_trick"]["winner"] == 1


def test_called_card_reveals_friend_6_8() -> None:
    g = to_play(
        {0: "AH KH QH JH TH 9H 8H 7H 6H 2C", 2: "3C 4C 5C 6C 7C 8C 9C TC JC QC"},
        kitty="2S 3S 4S",
        call={"type": "call", "kind": "card", "card": "QC"},
    )
    assert g.view(2)["role"] == "friend"
    play(g, 0, "2C")
    play(g, 1, g.legal_actions(1)[0]["card"])
    assert not g.public_view()["friend_revealed"]
    play(g, 2, "QC")
    v = g.public_view()
    assert v["friend_revealed"] and v["friend"] == 2
    assert v["events"][-1]["kind"] == "friend_revealed" and v["events"][-1]["seat"] == 2
    assert g.view(4)["role"] == "defender"


def test_secret_solo_revealed_when_declarer_plays_card_6_8_1() -> None:
    g = to_play(
        {0: "AH KH QH JH TH 9H 8H 7H 6H 2C"}, kitty="2S 3S 4S", call={"type": "call", "kind": "card", "card": "2C"}
    )
    play(g, 0, "2C")
    v = g.public_view()
    assert v["friend_revealed"] and v["friend"] is None
    ev = [e for e in v["events"] if e["kind"] == "friend_revealed"][-1]
    assert ev["seat"] is None and ev["card"] == "2C"


def test_first_trick_friend_6_8_2() -> None:
    g = to_play(
        {0: "AH KH QH JH TH 9H 8H 7H 6H 2C", 3: "AC"}, kitty="2S 3S 4S", call={"type": "call", "kind": "first_trick"}
    )
    assert all(g.view(s)["role"] in ("declarer", "defender") for s in range(5))
    play(g, 0, "2C")
    for s in (1, 2, 3, 4):
        assert not g.public_view()["friend_revealed"]
        acts = g.legal_actions(s)
        card = "AC" if s == 3 else acts[0]["card"]
        play(g, s, card, **({"suit": acts[0]["suit"]} if "suit" in acts[0] and card == "JK" else {}))
    v = g.public_view()
    winner = v["last_trick"]["winner"]
    assert v["friend_revealed"] and v["friend"] == winner
    assert g.view(winner)["role"] == "friend"


def test_first_trick_won_by_declarer_means_alone() -> None:
    g = to_play({0: "AS KH QH JH TH 9H 8H 7H 6H 2C"}, kitty="2S 3S 4S", call={"type": "call", "kind": "first_trick"})
    play(g, 0, "AS")
    for s in (1, 2, 3, 4):
        play(g, s, g.legal_actions(s)[0]["card"])
    v = g.public_view()
    assert v["friend_revealed"] and v["friend"] is None and v["last_trick"]["winner"] == 0


# -- §7 scoring -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("n", "trump", "alone", "p", "s", "pay_decl", "pay_friend", "pay_def"),
    [
        (15, "D", False, 16, 5, 10, 5, -5),
        (15, "D", False, 13, 2, -4, -2, 2),
        (16, "NT", False, 18, 16, 32, 16, -16),
        (17, "H", False, 20, 22, 44, 22, -22),
        (16, "NT", True, 17, 28, 112, None, -28),
        (16, "NT", True, 15, 4, -16, None, 4),
    ],
)
def test_worked_examples_7_4(
    n: int, trump: str, alone: bool, p: int, s: int, pay_decl: int, pay_friend: int | None, pay_def: int
) -> None:
    _, _, score, made = base_score(n, trump, p, alone)
    assert score == s
    pay = payments(0, None if alone else 1, score, made)
    assert pay[0] == pay_decl and sum(pay) == 0
    if pay_friend is not None:
        assert pay[1] == pay_friend
    assert all(x == pay_def for x in pay[(1 if alone else 2) :])


def test_scoring_branches_7_2_7_3() -> None:
    assert base_score(13, "S", 13, False) == (0, [], 0, True)  # S can be 0
    assert base_score(14, "S", 9, False) == (5, ["back_run"], 10, False)  # back-run
    assert base_score(14, "S", 10, False) == (4, [], 4, False)
    assert base_score(14, "NT", 9, True) == (5, ["nt", "no_friend", "back_run"], 40, False)
    assert base_score(20, "NT", 20, True) == (14, ["nt", "no_friend", "run"], 112, True)
    assert base_score(13, "H", 20, False) == (7, ["run"], 14, True)
    assert base_score(13, "H", 19, False) == (6, [], 6, True)  # no run below 20
    assert base_score(15, "C", 10, False) == (5, [], 5, False)  # no back-run at 10
    # secret solo / first-trick solo: ±4S, no doubling (the caller passes announced_alone=False)
    assert payments(2, None, 3, True) == [-3, -3, 12, -3, -3]
    assert payments(2, 4, 3, False) == [3, 3, -6, 3, -3]


def _random_finish(g: MightyGame, seed: int = 0) -> None:
    import random

    rng = random.Random(seed)
    n = len(g.settlements())
    while len(g.settlements()) == n:
        s = g.to_move()[0]
        g.apply(s, rng.choice(g.legal_actions(s)))


def test_hand_settlement_and_next_dealer_8() -> None:
    g = to_play(
        {0: "AH KH QH JH TH 9H 8H 7H 6H 2C", 3: "AS"},
        kitty="KC QC 2S",
        discard=["KC", "QC", "2S"],
        n=14,
        call={"type": "call", "kind": "card", "card": "AS"},
        options={"stake": 3},
    )
    _random_finish(g, 1)
    (st,) = g.settlements()
    s = st.summary
    assert st.index == 0 and s["declarer"] == 0 and s["friend"] == 3 and s["friend_call"] == "card"
    assert s["friend_card"] == "AS" and s["discard_points"] == 2 and s["bid"] == 14 and s["trump"] == "H"
    p = 2 + len(s["captured"][0]) + len(s["captured"][3])
    assert s["points"] == p and s["defender_points"] == 20 - p
    assert sum(len(c) for c in s["captured"]) == 18
    s0, mults, score, made = base_score(14, "H", p, False)
    assert (s["base"], s["multipliers"], s["score"], s["made"]) == (s0, mults, score, made)
    assert list(st.amounts["stake"]) == [3 * x for x in payments(0, 3, score, made)] == s["payments"]
    v = g.public_view()
    assert v["dealer"] == 3 and v["opener"] == 0 and g.to_move() == (0,)  # §8.2, §8.3
    assert v["hand_number"] == 1 and v["totals"] == s["payments"] and v["last_hand"]["points"] == p


def test_no_friend_hand_doubles_and_declarer_deals_8_2() -> None:
    g = to_play({}, declarer=2, n=13, trump="S", call={"type": "call", "kind": "none"}, seed=3)
    assert g.public_view()["friend_revealed"]  # nothing hidden: announced
    _random_finish(g, 2)
    s = g.settlements()[0].summary
    assert "no_friend" in s["multipliers"] and s["friend"] is None
    assert s["payments"][2] == 4 * (1 if s["made"] else -1) * s["score"]
    assert g.public_view()["dealer"] == 2 and g.to_move() == (2,)


def test_secret_solo_scores_alone_without_doubling() -> None:
    g = to_play(
        {0: "AH KH QH JH TH 9H 8H 7H 6H 2C"}, kitty="2S 3S 4S", call={"type": "call", "kind": "card", "card": "AH"}
    )
    _random_finish(g, 5)
    s = g.settlements()[0].summary
    assert s["secret_solo"] and s["friend"] is None and "no_friend" not in s["multipliers"]
    assert s["payments"][0] == 4 * (1 if s["made"] else -1) * s["score"]


def test_hands_limit_ends_game() -> None:
    import random

    g = MightyGame(5, {"hands": 2}, 11)
    rng = random.Random(0)
    while not g.is_over:
        assert g.result() is None
        s = g.to_move()[0]
        g.apply(s, rng.choice(g.legal_actions(s)))
    assert len(g.settlements()) == 2 and g.to_move() == () and g.legal_actions(0) == []
    r = g.result()
    assert r is not None and r.currency == "stake"
    assert list(r.totals) == [sum(st.amounts["stake"][i] for st in g.settlements()) for i in range(5)]
    assert g.public_view()["phase"] == "over"
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "pass"})


def test_joker_call_without_joker_in_play_has_no_effect_6_6_3() -> None:
    # the Joker lies in the declarer's discards: a defender's call changes nothing
    g = position("H", 3, ["2D", "3C 4D", "5C 6C", "KC", "2H"], 1)
    g._discards = ["JK", "2S", "3S"]
    play(g, 1, "3C", joker_call=True)
    assert cards_of(g, 2) == {"5C", "6C"}
    play(g, 2, "6C")
    play(g, 3, "KC")
    play(g, 4, "2H")  # void: trumps in
    play(g, 0, "2D")
    assert g.public_view()["last_trick"]["winner"] == 4


def test_ripped_joker_as_called_card_reveals_friend_6_8_1() -> None:
    g = to_play(
        {0: "AH KH QH JH TH 9H 8H 7H 6H 2C", 2: "JK 3D", 3: "3C"},
        kitty="2S 4S 5S",
        call={"type": "call", "kind": "card", "card": "JK"},
    )
    assert g.view(2)["role"] == "friend"
    g._trick_no = 1
    g._leader = 3
    play(g, 3, "3C", joker_call=True)
    play(g, 4, g.legal_actions(4)[0]["card"])
    play(g, 0, "2C")
    play(g, 1, g.legal_actions(1)[0]["card"])
    assert cards_of(g, 2) == {"JK"}
    play(g, 2, "JK")
    v = g.public_view()
    assert v["friend_revealed"] and v["friend"] == 2
    assert v["last_trick"]["winner"] != 2  # ripped: no power


def test_joker_led_with_power_loses_only_to_mighty_6_5_1() -> None:
    assert _full_trick("H", 5, ["JK", "AH", "KH", "QH", "2C"], suit="H") == 0
    assert _full_trick("H", 5, ["JK", "AH", "AS", "QH", "2C"], suit="H") == 2

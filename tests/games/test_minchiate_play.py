"""Minchiate trick play, the king rule, the Matto and scoring (§7, §8)."""

from __future__ import annotations

import pytest

from bot.engine.errors import IllegalAction
from bot.games.minchiate.engine import MinchiateGame, winner_of

# dealer 3 -> seat 0 leads; team A = 0, 2; team B = 1, 3


def legal(g: MinchiateGame, seat: int) -> set[str]:
    return {a["card"] for a in g.legal_actions(seat)}


def play(g: MinchiateGame, *cards: str) -> None:
    for c in cards:
        s = g.to_move()[0]
        g.apply(s, {"type": "play", "card": c})


def test_follow_suit_else_trump_else_anything() -> None:
    g = MinchiateGame._for_test([["Co5", "Sw2"], ["Co6", "T7"], ["Sw3", "T8"], ["Sw4", "Ba2"]], dealer=3)
    assert legal(g, 0) == {"Co5", "Sw2"}
    play(g, "Co5")
    assert legal(g, 1) == {"Co6"}
    play(g, "Co6")
    assert legal(g, 2) == {"T8"}  # void in Coins: must trump
    play(g, "T8")
    assert legal(g, 3) == {"Sw4", "Ba2"}  # no Coins, no trumps: anything
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "play", "card": "Sw2"})  # not your turn
    play(g, "Ba2")
    assert g.public_view()["last_trick"]["winner"] == 2


def test_trump_led_must_follow_trump_no_obligation_to_overtrump() -> None:
    g = MinchiateGame._for_test([["T30", "Co1"], ["T2", "T39"], ["Co2", "Co3"], ["Sw1", "Sw2"]], dealer=3)
    play(g, "T30")
    assert legal(g, 1) == {"T2", "T39"}
    play(g, "T2")
    assert legal(g, 2) == {"Co2", "Co3"}


def test_king_rule_forces_king_after_a_trump_on_first_lead() -> None:
    g = MinchiateGame._for_test(
        [["Co5", "Sw2", "Sw5"], ["T7", "Ba3", "Ba5"], ["CoK", "Co3", "Ba4"], ["CoQ", "Sw9", "Sw8"]], dealer=3
    )
    play(g, "Co5", "T7")
    assert legal(g, 2) == {"CoK"}  # not Co3
    with pytest.raises(IllegalAction):
        g.apply(2, {"type": "play", "card": "Co3"})


def test_king_rule_beats_the_matto() -> None:
    g = MinchiateGame._for_test([["Cu5", "Sw2"], ["T7", "Ba3"], ["CuK", "MATTO"], ["CuQ", "Sw9"]], dealer=3)
    play(g, "Cu5", "T7")
    assert legal(g, 2) == {"CuK"}


def test_king_rule_needs_a_trump_first() -> None:
    g = MinchiateGame._for_test([["Co5", "Sw2"], ["Co7", "Ba3"], ["CoK", "Co3"], ["CoQ", "Sw9"]], dealer=3)
    play(g, "Co5", "Co7")
    assert legal(g, 2) == {"CoK", "Co3"}


def test_king_rule_only_binds_players_after_the_trump() -> None:
    g = MinchiateGame._for_test([["Co5", "Sw2"], ["CoK", "Co3"], ["T9", "Ba4"], ["CoQ", "Sw9"]], dealer=3)
    play(g, "Co5")
    assert legal(g, 1) == {"CoK", "Co3"}  # before any trump: free choice


def test_king_rule_only_on_first_lead_of_the_suit() -> None:
    g = MinchiateGame._for_test(
        [["Co5", "Sw2"], ["T7", "Ba3"], ["CoK", "Co3"], ["CoQ", "Sw9"]], dealer=3, led_before={"Co"}
    )
    play(g, "Co5", "T7")
    assert legal(g, 2) == {"CoK", "Co3"}


def test_king_rule_not_in_second_coins_trick() -> None:
    g = MinchiateGame._for_test(
        [["Co1", "Co6", "Sw2"], ["Co8", "T7", "Sw3"], ["Co9", "CoK", "Co3"], ["Co4", "Sw9", "Sw8"]], dealer=3
    )
    play(g, "Co1", "Co8", "Co9", "Co4")  # first Coins trick, no trump; the Ace is the top Coins pip
    assert g.to_move() == (0,)
    play(g, "Co6", "T7")
    assert legal(g, 2) == {"CoK", "Co3"}  # second Coins lead: the King is an ordinary card


def test_winner_rules() -> None:
    assert winner_of([(0, "Co5"), (1, "Co1"), (2, "CoK"), (3, "SwK")]) == 2
    assert winner_of([(0, "Co5"), (1, "Co1"), (2, "Co9"), (3, "SwK")]) == 1  # Ace highest pip in Coins
    assert winner_of([(0, "Sw5"), (1, "Sw1"), (2, "Sw10"), (3, "CoK")]) == 2  # 10 highest pip in Swords
    assert winner_of([(0, "Sw5"), (1, "T1"), (2, "SwK"), (3, "T2")]) == 3
    assert winner_of([(0, "MATTO"), (1, "Ba2"), (2, "Ba3"), (3, "CuK")]) == 2
    assert winner_of([(0, "Ba2"), (1, "MATTO"), (2, "Ba3"), (3, "Ba1")]) == 2


def test_matto_led_next_card_sets_suit() -> None:
    g = MinchiateGame._for_test([["MATTO", "Sw2"], ["Co7", "Sw3"], ["Co3", "T9"], ["Cu1", "Sw9"]], dealer=3)
    play(g, "MATTO")
    assert legal(g, 1) == {"Co7", "Sw3"}  # free
    play(g, "Sw3")
    assert legal(g, 2) == {"T9"}  # Swords led: void -> trump


def test_matto_stays_with_team_and_debt_paid_with_worthless_card() -> None:
    # trick 1: A's Matto into a trick B wins (T10 by seat 1); trick 2: A wins with T20.
    g = MinchiateGame._for_test([["MATTO", "T20"], ["T10", "Co9"], ["Co2", "Co3"], ["Co4", "Co10"]], dealer=3)
    play(g, "MATTO", "T10", "Co2", "Co4")
    pv = g.public_view()
    assert pv["last_trick"]["winner"] == 1
    assert pv["matto_debt"] == "A"
    assert g._piles[0] == ["MATTO"] and len(g._piles[1]) == 3
    # no E-TRICK for the Matto; T10 was B's own card: nothing "dies"
    assert g._score_events == []
    assert g.to_move() == (1,)
    play(g, "Co9", "Co3", "Co10", "T20")
    s = g.settlements()[0].summary
    # A's pile had MATTO, T20, Co9, Co3, Co10: the weakest Coins pip (Co10) goes to B
    assert "Co10" in g._piles[1] and "MATTO" in g._piles[0]
    assert len(g._piles[0]) + len(g._piles[1]) == 8
    assert s["end"]["A"]["cards"] == 10 and s["end"]["B"]["cards"] == 5
    assert s["end"]["A"]["last_trick"] == 10
    assert any(e["kind"] == "matto_paid" and e["card"] == "Co10" for e in g._events)


def test_matto_given_away_when_team_took_no_trick() -> None:
    g = MinchiateGame._for_test([["MATTO", "Co5"], ["T10", "T20"], ["Co2", "Co3"], ["Co4", "Co6"]], dealer=3)
    play(g, "MATTO", "T10", "Co2", "Co4")
    assert g.to_move() == (1,)
    play(g, "T20", "Co3", "Co6", "Co5")
    assert g.is_over
    assert g._piles[0] == []
    assert "MATTO" in g._piles[1]
    s = g.settlements()[0].summary
    assert s["end"]["B"]["cards"] == 5 + 5 + 5  # T10, T20 and the Matto


def test_matto_no_debt_when_own_team_wins() -> None:
    g = MinchiateGame._for_test([["MATTO"], ["Co9"], ["T3"], ["Co4"]], dealer=3)
    play(g, "MATTO", "Co9", "T3", "Co4")
    assert sorted(g._piles[0]) == sorted(["MATTO", "Co9", "T3", "Co4"])
    assert g.public_view()["matto_debt"] is None


def test_capture_scores_only_opponents_counting_cards() -> None:
    g = MinchiateGame._for_test([["CoK", "Co9"], ["T40", "Sw8"], ["T5", "Sw7"], ["T36", "Sw6"]], dealer=3)
    play(g, "CoK", "T40", "T5", "T36")  # B wins with T40: A's CoK (5) and T5 (3) die; B's T36 at home
    ev = g._score_events[-1]
    assert (ev["reason"], ev["team"], ev["points"]) == ("capture", "B", 8)
    assert sorted(ev["cards"]) == ["CoK", "T5"]


def test_resti_conversion_after_every_event() -> None:
    g = MinchiateGame._for_test([["Co2"], ["Co3"], ["Co4"], ["Co5"]], dealer=3)
    g._score(0, 30, "test")
    g._score(0, 30, "test")
    assert g._resti == [1, 0] and g._diff == 0
    g._score(1, 30, "test")
    assert g._resti == [1, 0] and g._diff == -30
    g._score(1, 150, "test")  # -180 -> two B resti, -60 converts too
    assert g._resti == [1, 3] and g._diff == 0
    g._score(0, 59, "test")
    assert g._resti == [1, 3] and g._diff == 59
    # order matters: A+30, B+30, A+30 never reaches 60
    h = MinchiateGame._for_test([["Co2"], ["Co3"], ["Co4"], ["Co5"]], dealer=3)
    for team in (0, 1, 0):
        h._score(team, 30, "test")
    assert h._resti == [0, 0] and h._diff == 30


@pytest.mark.parametrize(("pre", "resti"), [(41, [2, 0]), (40, [1, 0]), (-20, [0, 0]), (-21, [0, 1]), (-80, [0, 1])])
def test_final_conversion_ceil(pre: int, resti: list[int]) -> None:
    # one trick, A wins with T40 (10 card points + 10 last trick) -> END diff +20
    g = MinchiateGame._for_test([["T40"], ["Co2"], ["Co3"], ["Co4"]], dealer=3)
    g._diff = pre
    play(g, "T40", "Co2", "Co3", "Co4")
    st = g.settlements()[0]
    assert st.summary["final_diff"] == pre + 20
    assert [st.summary["resti"]["A"], st.summary["resti"]["B"]] == resti
    net = resti[0] - resti[1]
    assert st.amounts["resto"] == (net, -net, net, -net)
    assert "stake" not in st.amounts
    assert g.result() is not None and g.result().totals == (net, -net, net, -net)


def test_stake_per_resto() -> None:
    g = MinchiateGame._for_test([["T40"], ["Co2"], ["Co3"], ["Co4"]], dealer=3, options={"stake_per_resto": 7})
    play(g, "T40", "Co2", "Co3", "Co4")
    st = g.settlements()[0]
    assert st.amounts["resto"] == (1, -1, 1, -1)
    assert st.amounts["stake"] == (7, -7, 7, -7)


def test_end_scores_combinations_in_pile_with_matto_bonus() -> None:
    # A captures T1, T2, T3 (RUN 11) and holds the Matto: +5 bonus; UTM needs T40
    g = MinchiateGame._for_test([["T1", "MATTO"], ["T2", "Co2"], ["T3", "Co3"], ["T4", "Co4"]], dealer=3)
    play(g, "T1", "T2", "T3", "T4")  # seat 3's T4 wins (B)
    assert g.to_move() == (3,)
    play(g, "Co4", "MATTO", "Co2", "Co3")  # Co2 beats Co3 and Co4 (B again)
    assert g.is_over
    s = g.settlements()[0].summary
    # B's pile: T1 T2 T3 T4 (RUN 1-4 = 14) + Co4 Co2 Co3 + MATTO received as A took no trick -> +5 bonus
    assert s["end"]["B"]["combinations"] == 14 + 5
    assert s["end"]["B"]["cards"] == 5 + 3 + 3 + 3 + 5


def test_card_count_bonus_formula() -> None:
    g = MinchiateGame._for_test([["Co2"], ["Co3"], ["Co4"], ["Co5"]], dealer=3)
    g._piles = [["Sw2"] * 50, ["Sw3"] * 30]
    play(g, "Co2", "Co3", "Co4", "Co5")
    s = g.settlements()[0].summary
    assert s["end"]["A"]["card_count"] == 54 - 42
    assert s["end"]["B"]["card_count"] == 0


def test_four_deals_rotate_dealer_and_sum() -> None:
    import random

    g = MinchiateGame(4, {"deals_per_game": 4}, 11)
    dealers = [g.dealer]
    r = random.Random(1)
    while not g.is_over:
        s = g.to_move()[0]
        g.apply(s, r.choice(g.legal_actions(s)))
        if not g.is_over and g.dealer != dealers[-1]:
            dealers.append(g.dealer)
    assert len(g.settlements()) == 4
    assert [st.index for st in g.settlements()] == [0, 1, 2, 3]
    assert dealers == [(dealers[0] + i) % 4 for i in range(4)]
    tot = [sum(st.amounts["resto"][s] for st in g.settlements()) for s in range(4)]
    res = g.result()
    assert res is not None and list(res.totals) == tot and res.currency == "resto"

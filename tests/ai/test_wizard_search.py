"""Wizard's strong level: its deal sampling never contradicts the seat's view, depends only on what the seat can
see, is reproducible under a seed, and leans towards hands that explain the bids made; its trick-aware rollout
follows its rule and plays legal cards; its bids are weighed by playouts that play legal moves, the searching seat
as the rollouts do and the others as the heuristic does."""

from __future__ import annotations

import collections
import random

from bot.engine.cards import WIZARD_60
from bot.engine.sampling import deal_constrained
from bot.games.registry import make_agent
from bot.games.wizard.ai import _voids
from bot.games.wizard.engine import SUIT, SUIT_BIT, WIZ_SET, WizardGame, _deal_fast, _set_hands_for_test
from bot.games.wizard.search import (
    ERRATIC_MISS,
    ERRATIC_ROUNDS,
    SEARCH,
    BidInference,
    BidPlayout,
    erratic_seats,
    hit_reward,
    rollout_policy,
    sim_rollout_policy,
    strong_agent,
    trick_aware_card,
)


def _position(seed: int) -> tuple[WizardGame, int]:
    """A random position (random options, random legal moves, sometimes into the card play), a seat to move."""
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    size = rng.randint(1, 60 // n)
    options = {"rounds": str(size), "bid_mode": rng.choice(["open", "open", "simultaneous", "secret"])}
    game = WizardGame(n, options, seed)
    normal = make_agent("wizard", "normal")
    for _ in range(rng.randrange(0, n * (size + 1) + 1)):
        movers = game.to_move()
        if game.is_over or not movers:
            break
        seat = movers[0]
        acts = [a for a in game.legal_actions(seat) if a["type"] != "undo"]
        game.apply(seat, normal.choose(game, seat, rng) if rng.random() < 0.7 else rng.choice(acts))
    movers = game.to_move()
    return game, movers[0] if movers else -1


def test_inferred_deals_agree_with_the_seats_view() -> None:
    """Over many random positions: every sampled deal shows the seat exactly its view (its hand, the cards
    played, the bids it may see), gives every seat its number of cards, deals no card twice and no card of a
    suit a seat has shown void in."""
    checked = 0
    for seed in range(400):
        game, seat = _position(seed)
        if seat < 0 or game.is_over:
            continue
        view = game.view(seat)
        sample = BidInference(tries=4)(game, seat)
        rng = random.Random(seed)
        voids = _voids(view)
        for _ in range(5):
            det = sample(rng)
            assert isinstance(det, WizardGame)
            assert det.view(seat) == view
            hands = [det.search_hand(s) for s in range(game.num_seats)]
            assert [len(h) for h in hands] == view["hand_counts"]
            seen = [c for t in view["round_tricks"] for _, c in t["plays"]] + [c for _, c in view["trick"]["plays"]]
            every = [c for h in hands for c in h] + seen + ([view["indicator"]] if view["indicator"] else [])
            assert len(every) == len(set(every))
            for s, h in enumerate(hands):
                assert not any(SUIT[c] and voids[s] & SUIT_BIT[SUIT[c]] for c in h)
        checked += 1
    assert checked > 300


def test_inferred_deals_depend_only_on_the_seats_view_and_the_seed() -> None:
    """Two deals that look the same from the seat give the same samples under the same seed (what a hint needs),
    and the same seed gives the same samples again."""
    checked = 0
    for seed in range(60):
        game, seat = _position(seed)
        if seat < 0 or game.is_over or game.phase != "play":
            continue
        other = game.determinize(seat, random.Random(seed + 1000))
        draws = []
        for g in (game, other, game):
            sample = BidInference(tries=4)(g, seat)
            rng = random.Random(seed)
            draws.append([[sorted(sample(rng).search_hand(s)) for s in range(g.num_seats)] for _ in range(3)])
        assert draws[0] == draws[1] == draws[2]
        checked += 1
    assert checked > 10


def test_a_high_bid_draws_the_wizards() -> None:
    """Seat 1 bid all 3 tricks of a 3-card round: the samples give it Wizards more often than uniform deals do;
    seat 3 bid 0: less often."""
    game = WizardGame(4, {"rounds": "3", "first_dealer": 0}, 5)
    hands = [["WIZ1", "WIZ2", "AS"], ["2H", "3H", "4D"], ["5C", "6C", "7D"], ["8S", "9S", "JES1"]]
    game._hands = hands
    game._indicator = "2C"
    game._trump = "C"
    for seat, n in ((1, 3), (2, 0), (3, 0), (0, 2)):
        game.apply(seat, {"type": "bid", "n": n})
    uniform = collections.Counter[int]()
    inferred = collections.Counter[int]()
    sample = BidInference(tries=4)(game, 2)
    rng = random.Random(1)
    for _ in range(1000):
        for s, h in enumerate(game.determinize(2, rng).search_hand(s) for s in range(4)):
            uniform[s] += sum(c in WIZ_SET for c in h)
        det = sample(rng)
        for s in range(4):
            inferred[s] += sum(c in WIZ_SET for c in det.search_hand(s))
    assert inferred[1] > uniform[1] * 1.3  # bid 3 of 3
    assert inferred[3] < uniform[3] * 0.8  # bid 0
    assert inferred[2] == uniform[2] == 0  # the searching seat's own hand


def test_fast_deal_has_the_distribution_of_the_general_sampler() -> None:
    """Wizard's own sampler places cards like ``deal_constrained`` does: the share of deals that put each card
    in each place agrees within sampling noise."""
    unseen = ["AS", "KS", "2S", "3H", "4H", "5D", "WIZ1", "JES1", "9C", "8C"]
    caps = {0: 3, 1: 3, 2: 2, -1: 2}
    voids = [SUIT_BIT["S"], SUIT_BIT["H"], 0]

    def allowed(place: int, card: str) -> bool:
        return place < 0 or not (SUIT[card] and voids[place] & SUIT_BIT[SUIT[card]])

    fast = collections.Counter[tuple[int, str]]()
    general = collections.Counter[tuple[int, str]]()
    rng = random.Random(3)
    runs = 6000
    for _ in range(runs):
        deal = _deal_fast(unseen, caps, voids, rng)
        assert deal is not None
        for p, cards in deal.items():
            assert len(cards) == caps[p]
            fast.update((p, c) for c in cards)
        for p, cards in deal_constrained(unseen, caps, allowed, rng).items():
            general.update((p, c) for c in cards)
    assert set(fast) == set(general)
    for key in general:
        assert abs(fast[key] - general[key]) / runs < 0.03, key
    assert all(c in WIZARD_60 for c in unseen)


def _trick(hands: list[list[str]], bids: list[int], plays: list[str], trump: str | None = "H") -> WizardGame:
    """Four seats, 3-card round, seat 1 leads (dealer 0): the given hands (seats 0..3), bids (seats 1, 2, 3, 0) and
    the cards played so far in the first trick (by seats 1, 2, ...)."""
    game = WizardGame(4, {"rounds": "3", "first_dealer": 0}, 11)
    _set_hands_for_test(game, hands, trump)
    for i, n in enumerate(bids):
        game.apply((1 + i) % 4, {"type": "bid", "n": n})
    for i, c in enumerate(plays):
        game.apply((1 + i) % 4, {"type": "play", "card": c})
    return game


HANDS = [["5S", "QS", "2H"], ["9S", "KD", "3C"], ["JS", "4D", "JES1"], ["AS", "WIZ1", "7H"]]


def test_trick_aware_rollout_short_of_the_bid_wins_cheaply() -> None:
    # seat 3 needs a trick over 9S, JS: AS wins cheaper than the trump 7H or the Wizard
    assert trick_aware_card(_trick(HANDS, [1, 1, 1, 0], ["9S", "JS"]), 3, HANDS[3]) == "AS"
    # seat 0 needs a trick over 9S, JS, WIZ1: nothing wins, it throws its weakest (5S under QS)
    assert trick_aware_card(_trick(HANDS, [1, 1, 1, 1], ["9S", "JS", "WIZ1"]), 0, ["5S", "QS"]) == "5S"
    # leading while short: its strongest card (9S, KD, 3C with hearts trump: the king)
    assert trick_aware_card(_trick(HANDS, [1, 0, 0, 1], []), 1, HANDS[1]) == "KD"


def test_trick_aware_rollout_with_the_bid_made_ducks_high() -> None:
    # seat 0 bid 0 (made so far): over 9S, JS, AS the highest card that still loses is QS, not 5S
    assert trick_aware_card(_trick(HANDS, [1, 1, 1, 0], ["9S", "JS", "AS"]), 0, ["5S", "QS"]) == "QS"
    # seat 2 bid 0 over 9S: JS would win, the Jester loses
    assert trick_aware_card(_trick(HANDS, [1, 0, 1, 1], ["9S"]), 2, ["JS", "JES1"]) == "JES1"
    # seat 3 bid 0 over 3C, 4D: AS (off suit) is the only card that loses
    game = _trick(HANDS, [1, 1, 0, 1], ["3C", "4D"])
    assert trick_aware_card(game, 3, HANDS[3]) == "AS"
    # ... and with only the Wizard and a trump, both win: the weaker, the trump
    assert trick_aware_card(game, 3, ["WIZ1", "7H"]) == "7H"
    # leading with the bid made: the weakest card
    assert trick_aware_card(_trick(HANDS, [0, 0, 1, 0], []), 1, HANDS[1]) == "3C"


def test_rollout_policies_return_legal_moves_and_agree() -> None:
    """On random positions the rollout over display actions and the one over compact moves choose the same card
    with the same random draws, and it is always a legal one."""
    checked = 0
    for seed in range(70):
        game, seat = _position(seed)
        if seat < 0 or game.phase != "play":
            continue
        state = game.determinize(seat, random.Random(seed))
        mover = state.to_move()[0]
        actions = [a for a in state.legal_actions(mover) if a["type"] != "undo"]
        moves = state.sim_legal(mover)
        for k in range(4):
            a = rollout_policy(state, mover, actions, random.Random(k))
            m = sim_rollout_policy(state, mover, moves, random.Random(k))
            assert a in actions
            assert m in moves
            assert m == a["card"]
        checked += 1
    assert checked > 20


def _bid_position(seed: int) -> tuple[WizardGame, int]:
    """A random position where a seat is to bid (random options and earlier bids)."""
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    size = rng.randint(1, 60 // n)
    options = {"rounds": str(size), "bid_mode": rng.choice(["open", "simultaneous", "secret"])}
    if options["bid_mode"] == "open" and rng.random() < 0.4:
        options["bid_restriction"] = True
    game = WizardGame(n, options, seed)
    normal = make_agent("wizard", "normal")
    stop = rng.randrange(n)
    while True:
        seat = game.to_move()[0]
        acts = [a for a in game.legal_actions(seat) if a["type"] != "undo"]
        if acts[0]["type"] == "bid":
            if stop == 0:
                return game, seat
            stop -= 1
        game.apply(seat, normal.choose(game, seat, rng))


def test_bid_playouts_play_legal_moves_the_searching_seat_as_the_rollouts_the_others_as_the_heuristic() -> None:
    """From many random bidding positions, each candidate bid played out on a sampled deal to the end of the
    round: every move is legal, the searching seat's cards are the trick-aware rollout's (same random draws), the
    other seats' cards the heuristic's, and a later seat's bid the legal bid nearest its estimate."""
    normal = make_agent("wizard", "normal")
    seats_checked = collections.Counter[str]()
    for seed in range(60):
        game, seat = _bid_position(seed)
        playout = BidPlayout(game, seat, normal)
        rng = random.Random(seed)
        state = game.determinize(seat, rng)
        state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a["type"] == "bid"]))
        while not state.is_over:
            mover = state.to_move()[0]
            moves = state.sim_legal(mover)
            k = rng.getrandbits(32)
            move = playout.sim_choose(state, mover, random.Random(k))
            assert move in moves
            if len(moves) > 1 and type(move) is str:
                expect = (
                    sim_rollout_policy(state, mover, moves, random.Random(k))
                    if mover == seat
                    else normal.sim_choose(state, mover, random.Random(k))  # type: ignore[attr-defined]
                )
                assert move == expect
                seats_checked["self" if mover == seat else "other"] += 1
            elif len(moves) > 1:
                target = playout.bid_estimate(state, mover)
                assert all(abs(move["n"] - target) <= abs(m["n"] - target) for m in moves)
                seats_checked["bid"] += 1
            state.sim_apply(mover, move)
    assert min(seats_checked.values()) > 30, seats_checked


def test_bid_estimate_reads_the_hand() -> None:
    """Four Wizards in a 4-card round are worth about four tricks; four Jesters none; the estimate uses the
    seat's sampled hand, not the searching seat's."""
    game = WizardGame(4, {"rounds": "4", "first_dealer": 0}, 5)
    _set_hands_for_test(
        game,
        [
            ["2H", "3H", "4D", "5D"],
            ["WIZ1", "WIZ2", "WIZ3", "WIZ4"],
            ["JES1", "JES2", "JES3", "JES4"],
            ["2C", "3C", "4C", "5C"],
        ],
    )
    playout = BidPlayout(game, 0, make_agent("wizard", "normal"))
    state = game.clone(for_search=True)
    assert playout.bid_estimate(state, 1) > 3.3
    assert playout.bid_estimate(state, 2) == 0.0


def test_bid_candidates_are_the_heuristics_bid_and_those_up_to_two_away() -> None:
    game = WizardGame(4, {"rounds": "6"}, 3)
    seat = game.to_move()[0]
    actions = [a for a in game.legal_actions(seat) if a["type"] == "bid"]
    cands = SEARCH.candidates(actions, {"type": "bid", "n": 1}, None)
    assert [a["n"] for a in cands] == [0, 2, 3]
    cands = SEARCH.candidates(actions, {"type": "bid", "n": 4}, None)
    assert [a["n"] for a in cands] == [3, 5, 2, 6]


def test_strong_bids_are_reproducible_and_legal() -> None:
    """The strong level's bid is a pure function of the position and the seed."""
    agent = strong_agent()
    for seed in range(3):
        game, seat = _bid_position(100 + seed)
        legal = [a for a in game.legal_actions(seat) if a["type"] == "bid"]
        a = agent.choose(game.clone(), seat, random.Random(seed))
        b = agent.choose(game.clone(), seat, random.Random(seed))
        assert a == b
        assert a in legal


def test_hit_reward_is_one_for_the_seats_that_took_their_bid() -> None:
    normal = make_agent("wizard", "normal")
    for seed in range(20):
        game = WizardGame(4, {"rounds": [1 + seed % 5, 6]}, seed)
        root = game.clone()
        rng = random.Random(seed)
        while game.view(0)["round_log"] == []:
            seat = game.to_move()[0]
            game.apply(seat, normal.choose(game, seat, rng))
        last = game.view(0)["round_log"][-1]
        assert hit_reward(root, game) == [
            1.0 if b == t else 0.0 for b, t in zip(last["bids"], last["tricks"], strict=True)
        ]


def _game_with_a_random_seat(seed: int, rounds: int) -> WizardGame:
    """A 4-seat game after ``rounds`` whole rounds (1, 2, 3 … cards): seat 3 bids and plays at random, the others
    as ``normal``; stopped at the first bid of the next round."""
    game = WizardGame(4, {"rounds": f"1-{rounds + 1}"}, seed)
    normal = make_agent("wizard", "normal")
    rng = random.Random(seed)
    while len(game.bid_misses(0)) < rounds:
        seat = game.to_move()[0]
        acts = [a for a in game.legal_actions(seat) if a["type"] != "undo"]
        game.apply(seat, rng.choice(acts) if seat == 3 else normal.choose(game, seat, rng))
    return game


def test_erratic_seats_are_the_ones_whose_bids_missed_widely() -> None:
    """After 8 rounds, a seat that bids and plays at random is read as erratic in most games, a ``normal`` seat in
    few; nobody is before ``ERRATIC_ROUNDS`` rounds of two cards or more; a seat never calls itself erratic."""
    flagged = collections.Counter[str]()
    for seed in range(40):
        game = _game_with_a_random_seat(seed, 8)
        misses = [(r, m) for r, m in game.bid_misses(3)]
        assert [r for r, _ in misses] == list(range(1, 9))
        erratic = erratic_seats(game, 0)
        flagged["random"] += 3 in erratic
        flagged["normal"] += len(erratic & {1, 2})
        assert 0 not in erratic and 3 not in erratic_seats(game, 3)
        assert (3 in erratic) == (sum(m for r, m in misses if r >= 2) >= ERRATIC_MISS * 7)
    assert flagged["random"] >= 30 and flagged["normal"] <= 8, flagged
    for seed in range(10):
        early = _game_with_a_random_seat(seed, ERRATIC_ROUNDS)  # one round of one card: too few
        assert erratic_seats(early, 0) == frozenset()


def test_erratic_seats_bid_and_play_at_random_in_bid_playouts_and_inform_no_deal() -> None:
    """In the playouts that weigh a bid, an erratic seat's moves are uniform draws (the same draws as
    ``rng.choice``); the deals of a search are uniform when every seat that bid is erratic."""
    normal = make_agent("wizard", "normal")
    checked = 0
    for seed in range(40):
        game = _game_with_a_random_seat(seed, 8)
        if 3 not in erratic_seats(game, 0):
            continue
        while game.to_move()[0] != 0:  # seat 0 to bid; seat 3 (erratic) may have bid before it
            seat = game.to_move()[0]
            game.apply(seat, normal.choose(game, seat, random.Random(seed)))
        if game.legal_actions(0)[0]["type"] != "bid":  # the dealer names the trump first
            continue
        playout = BidPlayout(game, 0, normal)
        assert 3 in playout.erratic
        rng = random.Random(seed)
        state = game.determinize(0, rng)
        state.apply(0, rng.choice([a for a in state.legal_actions(0) if a["type"] == "bid"]))
        while not state.is_over and state.hand_number == game.hand_number:
            mover = state.to_move()[0]
            moves = state.sim_legal(mover)
            k = rng.getrandbits(32)
            move = playout.sim_choose(state, mover, random.Random(k))
            if mover == 3 and len(moves) > 1:
                assert move == random.Random(k).choice(moves)
                checked += 1
            state.sim_apply(mover, move)
    assert checked > 100
    checked = 0
    # every seat that bid before the searching one is erratic: its bid weighs no deal
    for seed in range(40):
        game = _game_with_a_random_seat(seed, 8)
        if 3 not in erratic_seats(game, 0) or game.to_move()[0] != 3:
            continue
        game.apply(3, {"type": "bid", "n": 0})
        if game.to_move()[0] != 0 or game.legal_actions(0)[0]["type"] != "bid":
            continue
        sample = BidInference(tries=4)(game, 0)
        a, b = random.Random(seed), random.Random(seed)
        assert [sorted(sample(a).search_hand(3)) for _ in range(3)] == [
            sorted(game.determinize(0, b).search_hand(3)) for _ in range(3)
        ]
        checked += 1
    assert checked >= 3

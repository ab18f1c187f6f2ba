"""Mighty's inferring sampler (``bot/games/mighty/search.py``): deals weighted by what the auction said never
contradict the seat's view, depend only on what the seat can see, are reproducible, and do lean towards the
holdings the bids announce."""

from __future__ import annotations

import random
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.mighty.ai import MightyAgent, estimate_points
from bot.games.mighty.engine import MightyGame
from bot.games.mighty.search import AuctionModel, inferring_deal
from tests.games.test_mighty_props import CARDS, OPTION_SETS, Checker


def _consistent(g: MightyGame, d: MightyGame, seat: int) -> None:
    assert d.view(seat) == g.view(seat)
    assert d.public_view() == g.public_view()
    held = [x for h in d._hands for x in h]
    kitty = [] if d._kitty_taken else list(d._kitty)
    assert sorted(held + kitty + list(d._discards) + list(d._played)) == sorted(CARDS)
    for s in range(5):
        assert len(d._hands[s]) == len(g._hands[s])
        assert not any(x != "JK" and x[-1] in g._void[s] for x in d._hands[s])
        if g._no_joker[s]:
            assert "JK" not in d._hands[s]
    if g._decl_trump_lead:
        trump = g._contract[1]
        assert all(x == "JK" or x[-1] == trump for x in d._hands[g._declarer])
    if g._kitty_taken and g.options["kitty_face_up"] and seat != g._declarer:
        for x in g._kitty:
            if x not in g._played:
                assert x in d._hands[g._declarer] or x in d._discards
    if g._call_kind == "card" and not g._friend_public:
        holder = next((s for s in range(5) if g._call_card in d._hands[s]), g._declarer)
        assert d._friend == (None if holder == g._declarer else holder)
    assert d.auction_record() == g.auction_record()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(range(len(OPTION_SETS))))
def test_inferred_deals_agree_with_everything_public(seed: int, opt: int) -> None:
    """Random legal games (so random bids and passes, voids, joker calls, face-up or hidden kitty): every
    inferred deal keeps each constraint of the view and plays on legally."""
    c = Checker(seed, OPTION_SETS[opt], hands=1)
    c.run(keep_every=2)
    rng = random.Random(seed)
    for g in c.states:
        if g.is_over:
            continue
        seat = rng.randrange(5)
        d = inferring_deal(g, seat, rng, 40)
        _consistent(g, d, seat)
        r = random.Random(seed + 1)
        n = len(d.settlements())
        while len(d.settlements()) == n:
            (s,) = d.to_move()
            d.apply(s, r.choice(d.legal_actions(s)))


def _heuristic_game(seed: int, plays: int) -> MightyGame:
    g = MightyGame(5, {"hands": 1}, seed)
    agent = MightyAgent()
    rng = random.Random(seed)
    while g.phase != "play" or plays > 0:
        (s,) = g.to_move()
        if g.phase == "play":
            plays -= 1
        g.apply(s, agent.choose(g.clone(), s, rng))
    return g


def test_an_inferred_deal_sees_only_the_seats_view() -> None:
    """Two games that look the same from the seat (hidden cards swapped between two other hands) give the
    same inferred deal under the same seed."""
    for seed in range(6):
        g = _heuristic_game(seed, 7)
        seat = (g._declarer + 1) % 5
        a, b = [s for s in range(5) if s not in (seat, g._declarer)][:2]
        h = g.clone()
        # a swap that keeps every public constraint: two cards of a suit neither seat has shown void in
        ca = next((x for x in h._hands[a] if x != "JK" and x[-1] not in h._void[b]), None)
        cb = next((x for x in h._hands[b] if x != "JK" and x[-1] not in h._void[a]), None)
        assert ca is not None and cb is not None
        h._hands[a][h._hands[a].index(ca)] = cb
        h._hands[b][h._hands[b].index(cb)] = ca
        if h._call_card in (ca, cb):
            continue  # the friend seat would change: not the same view for the friend's neighbours' logic
        da = inferring_deal(g, seat, random.Random(99), 60)
        db = inferring_deal(h, seat, random.Random(99), 60)
        assert da._hands == db._hands
        assert da._discards == db._discards


def test_inference_is_reproducible_under_a_seed() -> None:
    g = _heuristic_game(4, 3)
    seat = (g._declarer + 2) % 5
    assert inferring_deal(g, seat, random.Random(5), 50)._hands == inferring_deal(g, seat, random.Random(5), 50)._hands


def test_inferred_deals_lean_towards_what_the_auction_said() -> None:
    """Over heuristic auctions, the declarer's sampled holding is valued nearer its bid than in uniform deals,
    and the deal's auction likelihood is higher."""
    uniform: list[float] = []
    inferred: list[float] = []
    w_uniform: list[float] = []
    w_inferred: list[float] = []
    for seed in range(12):
        g = _heuristic_game(seed, 0)
        decl, trump = g._declarer, g._bid[1]
        seat = (decl + 1) % 5
        model = AuctionModel(g)
        rng = random.Random(seed)
        for _ in range(8):
            u = g.determinize(seat, rng)
            i = inferring_deal(g, seat, rng, 60)
            uniform.append(estimate_points(u.dealt_hand(decl), trump))
            inferred.append(estimate_points(i.dealt_hand(decl), trump))
            w_uniform.append(model.weight(u, seat))
            w_inferred.append(model.weight(i, seat))
    assert statistics.fmean(inferred) > statistics.fmean(uniform) + 0.5
    assert statistics.fmean(w_inferred) > 1.5 * statistics.fmean(w_uniform)


def test_dealt_hand_is_the_hand_before_the_kitty() -> None:
    for seed in range(5):
        g = MightyGame(5, {"hands": 1}, seed)
        dealt = [list(h) for h in g._hands]
        agent = MightyAgent()
        rng = random.Random(seed)
        for _ in range(60):
            if g.phase == "play" and g._trick_no >= 3:
                break
            (s,) = g.to_move()
            g.apply(s, agent.choose(g.clone(), s, rng))
        if g._redeal_no:
            continue  # thrown in: a new deal
        for s in range(5):
            assert sorted(g.dealt_hand(s)) == sorted(dealt[s])


def test_where_the_heuristic_passes_the_auction_also_simulates_its_best_cheapest_bid() -> None:
    from bot.ai.strong import declaration_candidates
    from bot.games.mighty.search import SEARCH

    found = 0
    for seed in range(40):
        g = MightyGame(5, {"hands": 1}, seed)
        (seat,) = g.to_move()
        v = g.decision_view(seat)
        base = MightyAgent().choose(g.clone(), seat, random.Random(0))
        if base != {"type": "pass"}:
            continue
        cands = declaration_candidates(SEARCH, g.legal_actions(seat), base, g.view(seat))
        assert cands[0] == base and len(cands) == 2
        bid = cands[1]
        est = {t: estimate_points(v["hand"], t) for t in ("S", "D", "H", "C", "NT")}
        assert bid["type"] == "bid" and bid["n"] == 13  # nothing bid yet: the cheapest open bid
        assert est[bid["trump"]] == max(est.values())
        found += 1
    assert found >= 5

"""Property tests over random legal Minchiate games: the engine checklist §13, replay, privacy, determinize."""

from __future__ import annotations

import json
import math
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import MATTO, MINCHIATE_97
from bot.engine.protocol import replay
from bot.games.minchiate.engine import MinchiateGame
from bot.games.minchiate.rules import COUNTING, DISCARDABLE, POINTS, STRENGTH, SUIT

CARD_SET = set(MINCHIATE_97)
OPTIONS = st.fixed_dictionaries(
    {
        "deals_per_game": st.sampled_from([1, 4]),
        "manual_cut": st.booleans(),
        "stake_per_resto": st.integers(0, 5),
    }
)


def ref_legal(hand: list[str], plays: list[tuple[int, str]], led_before: set[str]) -> set[str]:
    """An independent reading of §7.4."""
    real = [c for _, c in plays if c != MATTO]
    if not real:
        return set(hand)
    led = SUIT[real[0]]
    trump_played = any(SUIT[c] == "T" for c in real)
    if led != "T" and led not in led_before and trump_played and led + "K" in hand:
        return {led + "K"}
    same = {c for c in hand if SUIT[c] == led}
    if same:
        return same | ({MATTO} & set(hand))
    if led != "T":
        trumps = {c for c in hand if SUIT[c] == "T"}
        if trumps:
            return trumps | ({MATTO} & set(hand))
    return set(hand)


def ref_winner(plays: list[tuple[int, str]]) -> int:
    trumps = [(int(c[1:]), s) for s, c in plays if SUIT[c] == "T"]
    if trumps:
        return max(trumps)[1]
    real = [(s, c) for s, c in plays if c != MATTO]
    led = SUIT[real[0][1]]
    return max((STRENGTH[c], s) for s, c in real if SUIT[c] == led)[1]


def public_cards(g: MinchiateGame) -> set[str]:
    """Cards the whole table has seen (§10), tracked from the engine's public facts."""
    known: set[str] = set(g._robbed_cut) | set(g._robbed_deal) | set(g._taken)
    known |= {c for c in g._exposed if c}
    if g._stop_card and g.phase != "cut":
        known.add(g._stop_card)
    for combos in g._declared:
        for combo in combos:
            known |= set(combo["cards"])
            if combo.get("value", 0) > sum(5 if c == "T29" else POINTS[c] for c in combo["cards"]):
                known.add(MATTO)
    if g._fola is not None:
        known |= set(g._fola)
    for p in g._piles:
        known |= set(p)
    if g._trick:
        known |= {c for _, c in g._trick.plays}
    return known


def cards_in(obj: Any) -> set[str]:
    text = json.dumps(obj)
    return {m for m in re.findall(r'"([A-Za-z0-9]+)"', text) if m in CARD_SET}


def check_play_start(g: MinchiateGame) -> None:
    assert all(len(h) == 21 for h in g._hands)
    assert g._fola is not None and len(g._fola) == 13
    assert all(c in DISCARDABLE for c in g._fola)
    held = {c for h in g._hands for c in h}
    assert COUNTING | {"T29"} <= held
    assert len(held) == 84


def run_game(seed: int, options: dict[str, Any], hook: Any = None) -> tuple[MinchiateGame, list[tuple[int, dict]]]:
    """Random legal play with every checklist invariant checked along the way."""
    g = MinchiateGame(4, options, seed)
    r = random.Random(seed)
    log: list[tuple[int, dict]] = []
    resti_seen = [0, 0]
    deal = -1
    while not g.is_over:
        if g.hand_number != deal:
            deal = g.hand_number
            led_before: set[str] = set()
            played: list[str] = []
            resti_seen = [0, 0]
            checked_start = False
        if g.phase != "cut":
            assert len(g._robbed_cut) <= 13
        if g.phase == "play" and not checked_start:
            check_play_start(g)
            checked_start = True
        movers = g.to_move()
        assert movers
        s = r.choice(movers)
        acts = g.legal_actions(s)
        for other in range(4):
            if other not in movers:
                assert g.legal_actions(other) == []
        if g.phase == "play":
            plays = list(g._trick.plays)
            assert {a["card"] for a in acts} == ref_legal(g._hands[s], plays, led_before)
        if hook:
            hook(g, s)
        a = r.choice(acts)
        before_phase, before_deal = g.phase, g.hand_number
        n_events = len(g._score_events)
        trick_before = list(g._trick.plays) if g._trick else []
        g.apply(s, a)
        log.append((s, a))
        if before_phase == "play":
            played.append(a["card"])
            plays = [*trick_before, (s, a["card"])]
            if len(plays) == 4:
                led_before.add(SUIT[next(c for _, c in plays if c != MATTO)])  # after the trick
                w = ref_winner(plays)
                lt = g._last_trick if g.hand_number == before_deal else None
                if lt is not None:
                    assert lt.winner == w and len(lt.plays) == 4
                assert w != next((p for p, c in plays if c == MATTO), -1)
        if g.hand_number == before_deal and g.phase != "done":
            for ev in g._score_events[n_events:]:
                assert -60 < ev["diff"] < 60
            assert all(x >= y for x, y in zip(g._resti, resti_seen, strict=True))
            resti_seen = list(g._resti)
    return g, log


def check_settlement(g: MinchiateGame, log_piles: Any = None) -> None:
    for st_ in g.settlements():
        s = st_.summary
        assert json.loads(json.dumps(s)) == s
        assert sum(st_.amounts["resto"]) == 0
        assert s["piles"]["A"] + s["piles"]["B"] == 84
        assert s["end"]["A"]["cards"] + s["end"]["B"]["cards"] == 142
        bonus = [s["end"]["A"]["card_count"], s["end"]["B"]["card_count"]]
        assert min(bonus) == 0
        assert bonus[0] == max(0, s["piles"]["A"] - 42) and bonus[1] == max(0, s["piles"]["B"] - 42)
        assert s["end"]["A"]["last_trick"] + s["end"]["B"]["last_trick"] == 10
        evs = s["events"]
        tricks = [e for e in evs if e["reason"] == "capture"]
        assert sum(e["points"] for e in tricks) <= 137
        for e in tricks:
            assert MATTO not in e["cards"]
            assert sum(POINTS[c] for c in e["cards"]) == e["points"]
        # the resti converted during play plus ceil(|final diff| / 60)
        during = [0, 0]
        for e in evs:
            if "resti" in e:
                during = e["resti"]
        fd = s["final_diff"]
        add = math.ceil(abs(fd) / 60)
        expect = [during[0] + (add if fd > 0 else 0), during[1] + (add if fd < 0 else 0)]
        assert [s["resti"]["A"], s["resti"]["B"]] == expect
        assert _order_ok(s)
        if st_.amounts.get("stake"):
            assert st_.amounts["stake"] == tuple(x * g.options["stake_per_resto"] for x in st_.amounts["resto"])


def _order_ok(summary: dict[str, Any]) -> bool:
    """§8.2: cutter's robbing, exposures, dealer's robbing, declarations, tricks 1..21, end."""
    key = []
    for e in summary["events"]:
        r = e["reason"]
        off = (e.get("seat", summary["dealer"]) - summary["dealer"] - 1) % 4  # D+1 -> 0 ... D -> 3
        if r == "robbing":
            key.append((0, 0) if e["seat"] == summary["cutter"] else (2, 0))
        elif r == "exposed card":
            key.append((1, off))
        elif r == "declaration":
            key.append((3, off))
        elif r == "capture":
            key.append((4, e["trick"]))
        else:
            key.append((5, 0))
    return key == sorted(key) and len(set(key)) == len(key)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), OPTIONS)
def test_checklist_random_games(seed: int, options: dict[str, Any]) -> None:
    g, _log = run_game(seed, options)
    assert g.is_over
    assert all(not h for h in g._hands)
    assert len(g.settlements()) == options["deals_per_game"]
    check_settlement(g)
    res = g.result()
    assert res is not None
    assert list(res.totals) == [sum(s.amounts["resto"][i] for s in g.settlements()) for i in range(4)]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), OPTIONS)
def test_replay_identical(seed: int, options: dict[str, Any]) -> None:
    g, log = run_game(seed, options)
    h = replay(MinchiateGame, 4, options, seed, log)
    assert h.public_view() == g.public_view()
    assert h.settlements() == g.settlements()
    assert h.result() == g.result()


def _privacy_hook(g: MinchiateGame, _s: int) -> None:
    known = public_cards(g)
    pv = g.public_view()
    assert cards_in(pv) <= known
    for seat in range(4):
        v = g.view(seat)
        # the computer players' card-play view is that view's own values, nothing more
        assert g.card_play_view(seat) == {k: v[k] for k in ("hand", "trick", "fola", "played")}
        mine = set(g._hands[seat]) | set(g._disc.get(seat, []))
        if seat == g.dealer and g._fola is None:
            mine |= set(g._fola_rest)
        assert cards_in(v) <= known | mine
        for other in range(4):
            if other != seat:
                hidden = set(g._hands[other]) - known
                assert not (cards_in(v) & hidden)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_privacy_of_views(seed: int, manual: bool) -> None:
    run_game(seed, {"manual_cut": manual}, hook=_privacy_hook)


def _determinize_hook(g: MinchiateGame, s: int) -> None:
    rng = random.Random(len(g._events) + s)
    if rng.random() > 0.25:
        return
    for seat in range(4):
        d = g.determinize(seat, rng)
        assert d.public_view() == g.public_view()
        assert d.view(seat) == g.view(seat)
        assert sorted(d._hands[seat]) == sorted(g._hands[seat])
        if g.phase == "cut":
            continue  # nothing dealt yet
        assert [len(h) for h in d._hands] == [len(h) for h in g._hands]
        all_cards = [c for h in d._hands for c in h] + [c for p in d._piles for c in p]
        all_cards += [c for _, c in d._trick.plays] if d._trick else []
        if d._fola is not None:
            all_cards += d._fola
        else:
            all_cards += d._fola_rest + [c for v in d._disc.values() for c in v]
        assert len(all_cards) == 97 and set(all_cards) == CARD_SET
        owner = g.public_owner()
        for c, o in owner.items():
            if c in g._hands[o]:
                assert c in d._hands[o] or c in d._disc.get(o, [])
        for other in range(4):
            for c in d._hands[other]:
                assert SUIT[c] not in g._voids[other]
                assert c not in g._not_cards[other]
        if g._fola is None:
            for v in d._disc.values():
                assert all(c in DISCARDABLE for c in v)
            assert all(c in DISCARDABLE for c in d._fola_rest)
        # the determinized state keeps working
        r = random.Random(seed_of(d))
        steps = 0
        while not d.is_over and steps < 30:
            m = r.choice(d.to_move())
            d.apply(m, r.choice(d.legal_actions(m)))
            steps += 1


def seed_of(d: MinchiateGame) -> int:
    return len(d._events)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), OPTIONS)
def test_determinize_consistent(seed: int, options: dict[str, Any]) -> None:
    run_game(seed, options, hook=_determinize_hook)


def test_playout_speed_smoke() -> None:
    import time

    t = time.perf_counter()
    n = 0
    for seed in range(60):
        g = MinchiateGame(4, None, seed)
        r = random.Random(seed)
        while not g.is_over:
            s = r.choice(g.to_move())
            g.apply(s, r.choice(g.legal_actions(s)))
        n += 1
    rate = n / (time.perf_counter() - t)
    assert rate > 50  # deals per second; ~1000 on the dev machine

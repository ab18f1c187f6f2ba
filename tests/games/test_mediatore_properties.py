"""Property tests of the Mediatore engine checklist (§14) over many random legal games, plus replay,
privacy (views and rendered panels), determinization and rendering limits."""

from __future__ import annotations

import json
import math
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import ITALIAN_40
from bot.engine.errors import IllegalAction
from bot.engine.protocol import replay
from bot.games.mediatore import render as render
from bot.games.mediatore.engine import CONTRACTS, STRENGTH, THIRDS, MediatoreGame
from bot.render.base import Panel
from bot.render.cards import italian_label

NAMES = ["Ada", "Bruno", "Carla", "Dario"]
SEEDS = st.integers(0, 2**32 - 1)

# The test's own copy of §8 (not the engine's function).
BASE = {"chiamo": 4, "mediatore": 8, "solo": 12, "solissimo": 16, "arcisolissimo": 18}


def expected_payments(s: dict[str, Any]) -> list[int]:
    b, p, won, cap = s["bidder"], s["partner"], s["made"], s["capotto"]
    sign = 1 if won else -1
    bonus = 2 if cap else 0
    out = [0] * 4
    if s["contract"] == "chiamo" and p is not None:
        for x in range(4):
            out[x] = sign * (5 + bonus) if x == b else sign * (3 + bonus) if x == p else -sign * (4 + bonus)
    else:
        for x in range(4):
            if x != b:
                base = 6 if (s["contract"] == "mediatore" and x == s["giver"]) else BASE[s["contract"]]
                out[x] = -sign * (base + bonus)
        out[b] = -sum(out)
    return [v * s["stake_unit"] for v in out]


def random_action(g: MediatoreGame, seat: int, rng: random.Random) -> dict[str, Any]:
    ph = g.phase
    if ph == "exchange":
        prompt = g.view(seat)["prompt"]
        hand = list(prompt["fields"][0]["from"])
        rng.shuffle(hand)
        act: dict[str, Any] = {"type": "discard", "discard": hand[:4]}
        if len(prompt["fields"]) == 2:
            act["give"] = hand[4]
        return act
    acts = g.legal_actions(seat)
    if ph == "auction":
        if rng.random() < 0.55 or len(acts) == 1:
            return acts[0]
        bids = acts[1:]
        return bids[min(rng.randrange(len(bids)), rng.randrange(len(bids)))]
    return rng.choice(acts)


def check_conservation(g: MediatoreGame) -> None:
    cards = [c for h in g._hands for c in h] + g._monte + [c for _, c in g._plays]
    cards += [c for w in g._won for c in w]
    assert sorted(cards) == sorted(ITALIAN_40)
    if g.phase in ("auction", "call", "play"):
        if g.phase == "play":
            done = len(g._tricks)
            for s in range(4):
                in_trick = 1 if any(p == s for p, _ in g._plays) else 0
                assert len(g._hands[s]) == 9 - done - in_trick
            assert len(g._monte) == 4
        else:
            assert [len(h) for h in g._hands] == [9, 9, 9, 9] and len(g._monte) == 4


def check_hand_summary(summary: dict[str, Any], amounts: tuple[int, ...]) -> None:
    s = summary
    assert sum(amounts) == 0 and list(amounts) == s["payments"] == expected_payments(s)
    # auction: strictly increasing bids, ended by 3 passes or Arcisolissimo
    bids = [CONTRACTS.index(c) for _, c in s["bids"] if c is not None]
    assert bids == sorted(set(bids)) and CONTRACTS[bids[-1]] == s["contract"]
    tail = s["bids"][-3:]
    assert s["contract"] == "arcisolissimo" or all(c is None for _, c in tail)
    assert s["bids"][0][0] == (s["dealer"] + 1) % 4
    # tricks
    tricks = s["tricks"]
    assert len(tricks) == 9
    leader = (s["dealer"] + 1) % 4
    side = set(s["bidder_side"])
    bt = dt = 0
    seen: set[str] = set()
    for ld, cards, w, _sig in tricks:
        assert ld == leader and len(cards) == 4
        seen.update(cards)
        led = cards[0][1]
        best = max(range(4), key=lambda i: STRENGTH[cards[i][0]] if cards[i][1] == led else -1)
        assert w == (ld + best) % 4
        pts = sum(THIRDS[c[0]] for c in cards)
        if w in side:
            bt += pts
        else:
            dt += pts
        leader = w
    assert len(seen) == 36 and not seen & set(s["final_monte"])
    bonus = sum(THIRDS[c[0]] for c in s["final_monte"]) + 3
    if s["last_trick_winner"] in side:
        bt += bonus
    else:
        dt += bonus
    assert (bt, dt) == (s["bidder_side_thirds"], s["defender_thirds"]) and bt + dt == 35
    cc = s["counting_cards"]
    assert sum(THIRDS[c[0]] for c in cc["bidder_side"] + cc["defenders"]) == 32
    assert sum(THIRDS[c[0]] for c in cc["bidder_side"]) + (3 if s["last_trick_winner"] in side else 0) == bt
    assert s["bidder_side_points"] + s["defender_points"] == 11
    assert (s["bidder_side_points"] >= 6) != (s["defender_points"] >= 6)
    if s["capotto"]:
        assert 11 in (s["bidder_side_points"], s["defender_points"])
        n = s["bidder_side_tricks"]
        assert n in (0, 9) and (s["bidder_side_points"] == 11) == (n == 9)
    else:
        assert s["bidder_side_points"] == bt // 3 and 0 < s["bidder_side_tricks"] < 9
    assert s["made"] == (s["bidder_side_points"] >= 6)
    if s["contract"] == "chiamo":
        assert (s["partner"] is None) == s["called_in_monte"]
        assert len(side) == (1 if s["partner"] is None else 2)
    else:
        assert s["partner"] is None and side == {s["bidder"]}
    if s["contract"] == "mediatore":
        assert (s["giver"] is None) == s["called_in_monte"]


def play_checked(g: MediatoreGame, rng: random.Random, max_hands: int) -> list[tuple[int, dict[str, Any]]]:
    """Random legal play with the §14 checks at every step; returns the action log."""
    log: list[tuple[int, dict[str, Any]]] = []
    n_settled = 0
    while not g.is_over and n_settled < max_hands:
        check_conservation(g)
        (seat,) = g.to_move()
        for other in range(4):
            if other != seat:
                assert g.legal_actions(other) == [] and g.view(other)["prompt"] is None
        act = random_action(g, seat, rng)
        if g.phase == "call":
            assert act["card"] not in g._hands[seat]
            holder = next((s for s in range(4) if act["card"] in g._hands[s]), None)
        if g.phase == "play":
            hand = g._hands[seat]
            led = g._plays[0][1][1] if g._plays else None
            follow = [c for c in hand if led is not None and c[1] == led]
            assert sorted({a["card"] for a in g.legal_actions(seat)}) == sorted(follow or hand)
            if follow and len(follow) < len(hand):
                bad = next(c for c in hand if c[1] != led)
                try:
                    g.apply(seat, {"type": "play", "card": bad})
                    raise AssertionError("revoke accepted")
                except IllegalAction:
                    pass
        phase = g.phase
        g.apply(seat, act)
        log.append((seat, act))
        if phase == "call":
            if g._contract == "chiamo":
                assert g._partner == holder
            else:
                assert g._giver == holder
            assert g._called_in_monte == (holder is None)
        if phase == "exchange":
            assert [len(h) for h in g._hands] == [9, 9, 9, 9] and len(g._monte) == 4
        if len(g.settlements()) > n_settled:
            st_ = g.settlements()[-1]
            assert st_.index == n_settled
            check_hand_summary(dict(st_.summary), tuple(st_.amounts["stake"]))
            n_settled += 1
    return log


@settings(max_examples=1000, deadline=None)
@given(SEEDS, st.sampled_from([1, 2, 3]))
def test_random_games_satisfy_checklist(seed: int, stake: int) -> None:
    g = MediatoreGame(4, {"hands": 2, "stake": stake}, seed)
    play_checked(g, random.Random(seed), 2)
    assert g.is_over and len(g.settlements()) == 2
    res = g.result()
    assert res is not None and sum(res.totals) == 0
    assert list(res.totals) == [sum(s.amounts["stake"][i] for s in g.settlements()) for i in range(4)]


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.booleans(), st.booleans())
def test_replay_reproduces_everything(seed: int, signals: bool, history: bool) -> None:
    opts = {"hands": 2, "signals": signals, "show_history": history}
    g = MediatoreGame(4, opts, seed)
    log = play_checked(g, random.Random(seed ^ 0x5A5A), 2)
    r = replay(MediatoreGame, 4, opts, seed, json.loads(json.dumps(log)))
    assert json.dumps(r.public_view()) == json.dumps(g.public_view())
    assert [s.amounts for s in r.settlements()] == [s.amounts for s in g.settlements()]
    assert [s.summary for s in r.settlements()] == [s.summary for s in g.settlements()]


# -- privacy --------------------------------------------------------------------------------------------------
def strings_in(obj: Any) -> set[str]:
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
            stack.extend(x.keys())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return out


def current_hand_part(v: dict[str, Any]) -> dict[str, Any]:
    """The view without the previous hand's public reveal and events from before the current deal."""
    v = dict(v)
    v.pop("last_hand", None)
    evs = v["events"]
    start = max((i for i, e in enumerate(evs) if e["kind"] == "deal"), default=0)
    v["events"] = evs[start:]
    return v


def public_cards(g: MediatoreGame) -> set[str]:
    pub = {c for t in g._tricks for _, c in t[1]} | {c for _, c in g._plays} | set(g._exposed)
    if g._called:
        pub.add(g._called)
    return pub


def known_to(g: MediatoreGame, seat: int) -> set[str]:
    k = public_cards(g) | set(g._hands[seat])
    if seat == g._bidder and g._contract is not None:
        if g._contract == "chiamo" and g._called is not None:
            k |= set(g._monte_orig)
        if g._contract == "solissimo":
            k |= set(g._monte)
        k |= set(g._discards)
        if g._returned:
            k.add(g._returned)
    if g._contract == "mediatore" and seat == g._giver and g._returned:
        k.add(g._returned)
    return k


def check_panel_limits(p: Panel) -> None:
    assert 0 < len(p.title) <= 256 and len(p.description) <= 4096 and len(p.footer) <= 2048
    assert len(p.sections) <= 25
    total = len(p.title) + len(p.description) + len(p.footer)
    for s in p.sections:
        assert 0 < len(s.name) <= 256 and 0 < len(s.value) <= 1024
        total += len(s.name) + len(s.value)
    assert total <= 6000
    rows = 0
    for c in p.controls:
        if c.kind == "buttons":
            assert 0 < len(c.choices) <= 25
            rows += math.ceil(len(c.choices) / 5)
        elif c.kind == "select":
            assert 0 < len(c.choices) <= 25
            rows += 1
        else:
            assert c.fields and c.base_action is not None
            for f in c.fields:
                assert 0 < len(f.options) <= 25 and 1 <= f.count <= len(f.options)
                assert all(0 < len(lbl) <= 80 for lbl, _ in f.options)
            rows += len(c.fields) + 1
        for ch in c.choices:
            assert 0 < len(ch.label) <= 80
            assert ch.description is None or len(ch.description) <= 100
        assert len(c.placeholder) <= 150
    assert rows <= 5


def check_privacy(g: MediatoreGame) -> None:
    hidden_all = set(ITALIAN_40) - public_cards(g)
    pub = g.public_view()
    assert not strings_in(current_hand_part(pub)) & hidden_all
    text = render.public_panel(pub, NAMES).text()
    for c in hidden_all:
        assert italian_label(c) not in text, c
    check_panel_limits(render.public_panel(pub, NAMES))
    # the secret Chiamo partner is public only once the called card was played
    if g._contract == "chiamo" and not g._partner_public:
        assert pub["partner"] is None and pub["partner_status"] == "hidden"
        assert not any(e["kind"] == "partner_revealed" for e in current_hand_part(pub)["events"])
        assert "alone" not in json.dumps(current_hand_part(pub))
    for seat in range(4):
        v = g.view(seat)
        secret = set(ITALIAN_40) - known_to(g, seat)
        part = current_hand_part(v)
        prompt = part.pop("prompt")
        assert not strings_in(part) & secret
        if g.phase != "call":  # the call list is simply every card not in one's hand
            assert not strings_in(prompt) & secret
        role = v["role"] or {}
        if "partner_of" in role:
            assert g._contract == "chiamo" and seat == g._partner
        if role.get("alone") and g._contract == "chiamo":
            assert seat == g._bidder and g._called_in_monte
        pp = render.private_panel(v, NAMES)
        check_panel_limits(pp)
        if g.phase == "call":
            pp.controls = []  # the call menu lists every card not in one's hand
        ptext = pp.text()
        for c in secret:
            assert italian_label(c) not in ptext, (seat, c)


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.booleans())
def test_views_and_panels_never_leak(seed: int, history: bool) -> None:
    g = MediatoreGame(4, {"hands": 2, "show_history": history}, seed)
    rng = random.Random(seed)
    while not g.is_over:
        check_privacy(g)
        seat = g.to_move()[0]
        g.apply(seat, random_action(g, seat, rng))
    check_privacy(g)
    for s in g.settlements():
        text = render.settlement_text(s, NAMES)
        assert len(text) <= 4096 and render.contract_title(s.summary["contract"]) in text


# -- determinization --------------------------------------------------------------------------------------------
def check_determinization(g: MediatoreGame, seat: int, rng: random.Random) -> None:
    d = g.determinize(seat, rng)
    assert json.dumps(d.view(seat)) == json.dumps(g.view(seat))  # everything the seat knows is kept
    assert json.dumps(d.public_view()) == json.dumps(g.public_view())
    allc = [c for h in d._hands for c in h] + d._monte + [c for _, c in d._plays] + [c for w in d._won for c in w]
    assert sorted(allc) == sorted(ITALIAN_40)
    assert [len(h) for h in d._hands] == [len(h) for h in g._hands] and len(d._monte) == len(g._monte)
    exposed = set(g._exposed) | ({g._called} if g._contract == "mediatore" and g._called else set())
    for p in range(4):
        if p == seat:
            continue
        for c in d._hands[p]:
            assert c[1] not in g._voids[p], (p, c)  # shown voids respected
        for sp, suit, n0 in g._strokes:
            if sp == p:
                held = [c for c in d._hands[p] if c[1] == suit]
                assert all(c[0] in "7654" for c in held)
                assert 1 <= len(held) + g._suit_played[p][suit] - n0 <= 2
        if exposed and seat != g._bidder and p not in (g._bidder, g._giver):
            assert not set(d._hands[p]) & exposed  # exposed monte cards stay with the bidder (or giver)
    ret = g._returned
    if seat == g._bidder and g._contract == "mediatore" and ret is not None and ret in g._hands[g._giver]:
        assert ret in d._hands[g._giver]  # the bidder knows where the returned card is
    if g._contract == "chiamo" and g._called is not None:
        holder = next((p for p in range(4) if p != d._bidder and g._called in d._hands[p]), None)
        if not d._partner_public:
            assert d._partner == holder
    # the sampled world is playable to the end of the hand
    hn = d.hand_number
    while d.hand_number == hn and not d.is_over:
        s = d.to_move()[0]
        d.apply(s, random_action(d, s, rng))


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_determinize_is_consistent(seed: int) -> None:
    g = MediatoreGame(4, {"hands": 1}, seed)
    rng = random.Random(seed)
    step = 0
    while not g.is_over:
        if step % 5 == 0:
            for seat in range(4):
                check_determinization(g, seat, rng)
        seat = g.to_move()[0]
        act = random_action(g, seat, rng)
        # prefer truthful signals so the stroke/fly constraints get exercised
        if g.phase == "play" and not g._plays and rng.random() < 0.5:
            sig = [a for a in g.legal_actions(seat) if a.get("signal") in ("fly", "stroke")]
            if sig:
                act = rng.choice(sig)
        g.apply(seat, act)
        step += 1


def test_clone_is_independent() -> None:
    g = MediatoreGame(4, None, 99)
    rng = random.Random(1)
    for _ in range(30):
        s = g.to_move()[0]
        g.apply(s, random_action(g, s, rng))
    before = json.dumps([g.public_view(), [g.view(s) for s in range(4)]])
    c = g.clone()
    for _ in range(30):
        s = c.to_move()[0]
        c.apply(s, random_action(c, s, rng))
    assert json.dumps([g.public_view(), [g.view(s) for s in range(4)]]) == before

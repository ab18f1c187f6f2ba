"""Property tests of the Wizard engine checklist (docs/rules/wizard.md §12) over many random legal games:
invariants, replay, privacy of every view, and determinization."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import WIZARD_60
from bot.engine.protocol import replay
from bot.engine.rng import make_rng
from bot.games.wizard.engine import WizardGame

SUITS = "SHDC"
RANKV = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"], start=2)}


def is_wiz(c: str) -> bool:
    return c.startswith("WIZ")


def is_jes(c: str) -> bool:
    return c.startswith("JES")


def suit(c: str) -> str:
    return "" if is_wiz(c) or is_jes(c) else c[-1]


def ref_winner(plays: list[list[Any]], trump: str | None) -> int:
    """Independent reference of §6.4."""
    wiz = [s for s, c in plays if is_wiz(c)]
    if wiz:
        return wiz[0]
    non_jes = [c for _, c in plays if not is_jes(c)]
    if not non_jes:
        return plays[0][0]
    lead = suit(non_jes[0])
    for want in (trump, lead):
        cand = [(RANKV[c[:-1]], s) for s, c in plays if want and suit(c) == want]
        if cand:
            return max(cand)[1]
    raise AssertionError("no winner")


def ref_lead(plays: list[Any]) -> str | None:
    """The suit to follow (§6.2): the first non-Jester card's suit, none if it is a Wizard."""
    for _, c in plays:
        if not is_jes(c):
            return None if is_wiz(c) else suit(c)
    return None


def random_options(rng: random.Random, n: int, short: bool = True) -> dict[str, Any]:
    r_max = 60 // n
    opts: dict[str, Any] = {
        "bid_mode": rng.choice(["open", "open", "simultaneous", "secret"]),
        "first_round_blind": rng.random() < 0.3,
        "wizard_turned": rng.choice(["dealer_chooses", "dealer_chooses", "no_trump"]),
        "stake_per_point": rng.choice([0, 0, 1, 5]),
    }
    if opts["bid_mode"] == "open":
        opts["bid_restriction"] = rng.random() < 0.5
    if short:
        k = rng.randint(1, 3)
        sizes = sorted(rng.sample(range(1, r_max + 1), k))
        if rng.random() < 0.3:
            sizes = sorted({1, *sizes})
        if rng.random() < 0.2:
            sizes = sorted({*sizes, r_max})
        opts["rounds"] = sizes
    return opts


def strings(x: Any, out: set[str]) -> set[str]:
    """Every string in a structure of dicts, lists and tuples."""
    # a loop over a stack, exact types first, not a call per element: the privacy checks walk thousands of views
    stack = [x]
    while stack:
        y = stack.pop()
        kind = type(y)
        if kind is str:
            out.add(y)
        elif kind is dict:
            stack.extend(y.values())
        elif kind is list or kind is tuple:
            stack.extend(y)
        elif kind is int or y is None:
            continue
        elif isinstance(y, str):
            out.add(y)
        elif isinstance(y, dict):
            stack.extend(y.values())
        elif isinstance(y, list | tuple):
            stack.extend(y)
    return out


def current_part(view: dict[str, Any]) -> dict[str, Any]:
    """The view without the parts that describe earlier rounds (their cards are public history and may
    have been dealt again since)."""
    cur = view["round"]
    out = {k: v for k, v in view.items() if k not in ("round_log", "events")}
    out["events"] = [e for e in view["events"] if e["round"] == cur]
    return out


class Checker:
    """Drives a random game and checks the §12 invariants after every action."""

    def __init__(self, g: WizardGame, rng: random.Random, privacy_rate: float = 0.15, undo_rate: float = 0.05):
        self.g = g
        self.rng = rng
        self.n = g.num_seats
        self.privacy_rate = privacy_rate
        self.undo_rate = undo_rate
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.seen_round = -1
        self.bid_order: list[int] = []
        self.tricks_checked = 0
        self.start_round()

    def start_round(self) -> None:
        g, n = self.g, self.n
        v = g.public_view()
        k, r = v["hand_number"], v["hand_size"]
        assert r == g.hand_sizes[k]
        self.seen_round = k
        self.bid_order = []
        self.tricks_checked = 0
        # 1, 2: r cards each, N·r dealt, indicator iff N·r < 60, 60 distinct cards
        assert all(len(h) == r for h in g._hands)
        dealt = [c for h in g._hands for c in h]
        ind = v["indicator"]
        assert (ind is None) == (n * r == 60)
        every = dealt + ([ind] if ind else [])
        assert len(set(every)) == len(every) and set(every) <= set(WIZARD_60)
        # 8: dealer rotation; first bidder is dealer + 1
        assert v["dealer"] == (g.first_dealer + k) % n
        # 9: trump
        if ind is None or is_jes(ind):
            assert v["trump"] is None and v["phase"] == "bid"
        elif is_wiz(ind):
            if g.options["wizard_turned"] == "dealer_chooses":
                assert v["phase"] == "trump" and v["trump"] is None and g.to_move() == (v["dealer"],)
            else:
                assert v["trump"] is None and v["phase"] == "bid"
        else:
            assert v["trump"] == ind[-1]
        if v["phase"] == "bid" and g.options["bid_mode"] == "open":
            assert g.to_move() == ((v["dealer"] + 1) % n,)
        # the deal itself is the seeded one (W-2)
        deck = list(WIZARD_60)
        make_rng(g._seed, "deal", k).shuffle(deck)
        self.stock = set(deck[n * r + 1 :])

    def step(self) -> None:
        g, rng = self.g, self.rng
        movers = g.to_move()
        seat = rng.choice(movers)
        acts = g.legal_actions(seat)
        assert acts, "a seat to move must have a legal action"
        sample = rng.random() < self.privacy_rate
        if sample:
            assert g.view(seat)["prompt"] == {"kind": "pick", "actions": acts}
        undoers = [s for s in range(self.n) if {"type": "undo"} in g.legal_actions(s)]
        if undoers and rng.random() < self.undo_rate:
            seat = rng.choice(undoers)
            action: dict[str, Any] = {"type": "undo"}
        else:
            non_undo = [a for a in acts if a["type"] != "undo"]
            action = rng.choice(non_undo)
        pre_lead = ref_lead(g._plays)
        pre_rounds = len(g._round_log)
        hand_before = list(g._hands[seat])
        g.apply(seat, action)
        self.log.append((seat, action))
        self.after(seat, action, pre_lead, pre_rounds, hand_before)
        if sample:
            self.check_privacy()

    def after(
        self, seat: int, action: dict[str, Any], lead: str | None, pre_rounds: int, hand_before: list[str]
    ) -> None:
        g, n = self.g, self.n
        t = action["type"]
        if t == "bid":
            self.bid_order.append(seat)
        elif t == "undo":
            assert (self.bid_order and self.bid_order[-1] == seat) or g.options["bid_mode"] != "open"
            if seat in self.bid_order:
                self.bid_order.remove(seat)
        elif t == "play":
            c = action["card"]
            if lead and any(suit(x) == lead for x in hand_before):  # 5: following
                assert suit(c) == lead or is_wiz(c) or is_jes(c)
        # trick checks (4, 6) for the round in progress
        if len(g._round_log) == pre_rounds:
            rt = g._round_tricks
            for tr in rt[self.tricks_checked :]:
                assert len(tr["plays"]) == n
                assert tr["winner"] == ref_winner(tr["plays"], g._trump)
                assert [p[0] for p in tr["plays"]] == [(tr["leader"] + i) % n for i in range(n)]
            self.tricks_checked = len(rt)
        else:
            self.check_round_end(g._round_log[-1])
            if not g.is_over:
                self.start_round()

    def check_round_end(self, rl: dict[str, Any]) -> None:
        g, n = self.g, self.n
        r = rl["hand_size"]
        bids, tricks, scores = rl["bids"], rl["tricks"], rl["scores"]
        assert sum(tricks) == r  # 4
        assert all(0 <= b <= r for b in bids)  # 3
        if g.options["bid_mode"] == "open":
            assert self.bid_order == [(rl["dealer"] + 1 + i) % n for i in range(n)]
        else:
            assert sorted(self.bid_order) == list(range(n))
        if g.options["bid_restriction"]:
            assert sum(bids) != r
        for b, t, sc in zip(bids, tricks, scores, strict=True):  # 7
            assert sc % 10 == 0
            if b == t:
                assert sc == 20 + 10 * t and sc >= 20
            else:
                assert sc == -10 * abs(t - b) and sc <= -10
        if n * r == 60:
            assert rl["trump"] is None and rl["indicator"] is None
        assert rl["last_trick"]["winner"] == ref_winner(rl["last_trick"]["plays"], rl["trump"])

    def check_privacy(self) -> None:
        g, n = self.g, self.n
        if g.is_over:
            return
        hands = [set(h) for h in g._hands]
        hidden_all = set().union(*hands) | self.stock
        pub = g.public_view()
        json.dumps(pub)
        assert not strings(current_part(pub), set()) & hidden_all, "public view leaks a hidden card"
        mode = g.options["bid_mode"]
        if mode == "secret" or (mode == "simultaneous" and pub["phase"] != "play"):
            assert pub["bids"] == [None] * n
        blind = pub["blind_round"]
        for s in range(n):
            v = g.view(s)
            json.dumps(v)
            body = current_part(v)
            prompt = body.pop("prompt")
            allowed = set() if blind else hands[s]
            if blind:
                allowed = set().union(*(hands[t] for t in range(n) if t != s))
            leak = strings(body, set()) & hidden_all - allowed
            assert not leak, f"view({s}) leaks {leak}"
            if prompt is not None:
                assert strings(prompt, set()) & hidden_all <= hands[s]  # only the seat's own cards
            if mode != "open" and g._bids[s] is not None:
                assert v["bids"][s] == g._bids[s]

    def run(self, max_steps: int = 100_000) -> None:
        for _ in range(max_steps):
            if self.g.is_over:
                break
            self.step()
        self.finish()

    def finish(self) -> None:
        g = self.g
        assert g.is_over and g.to_move() == ()
        v = g.public_view()
        sts = g.settlements()
        assert len(sts) == 1 and sts[0].index == 0
        totals = [sum(h[s] for h in v["history"]) for s in range(self.n)]
        assert list(sts[0].amounts["point"]) == totals == v["totals"]
        assert len(v["round_log"]) == len(g.hand_sizes)
        assert [rl["hand_size"] for rl in v["round_log"]] == g.hand_sizes
        if g.options["stake_per_point"]:
            stake = sts[0].amounts["stake"]
            assert sum(stake) == 0
            assert list(stake) == [(self.n * t - sum(totals)) * g.options["stake_per_point"] for t in totals]
        res = g.result()
        assert res is not None and list(res.totals) == totals
        json.dumps(sts[0].summary)


@settings(max_examples=1400, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_short_random_games_invariants(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    g = WizardGame(n, random_options(rng, n), seed)
    Checker(g, rng, privacy_rate=0.2).run()


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_full_random_games_invariants(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    g = WizardGame(n, random_options(rng, n, short=False), seed)
    Checker(g, rng, privacy_rate=0.02, undo_rate=0.02).run()


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_replay_reproduces_the_game(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    opts = random_options(rng, n)
    g = WizardGame(n, opts, seed)
    ch = Checker(g, rng, privacy_rate=0.0)
    stop = rng.randint(0, 400)
    for _ in range(stop):
        if g.is_over:
            break
        ch.step()
    r = replay(WizardGame, n, opts, seed, ch.log)
    assert json.dumps(r.public_view(), sort_keys=True) == json.dumps(g.public_view(), sort_keys=True)
    for s in range(n):
        assert json.dumps(r.view(s), sort_keys=True) == json.dumps(g.view(s), sort_keys=True)
    assert r.settlements() == g.settlements()


def test_replay_full_game_exact() -> None:
    rng = random.Random(5)
    g = WizardGame(4, {}, 77)
    ch = Checker(g, rng, privacy_rate=0.0)
    ch.run()
    r = replay(WizardGame, 4, {}, 77, ch.log)
    assert r.result() == g.result() and r.settlements() == g.settlements()


def voids_from_view(v: dict[str, Any]) -> list[set[str]]:
    out: list[set[str]] = [set() for _ in range(v["num_seats"])]
    for plays in [t["plays"] for t in v["round_tricks"]] + [v["trick"]["plays"]]:
        non_jes = [c for _, c in plays if not is_jes(c)]
        if not non_jes or is_wiz(non_jes[0]):
            continue
        lead = suit(non_jes[0])
        for s, c in plays:
            if suit(c) and suit(c) != lead:
                out[s].add(lead)
    return out


@settings(max_examples=250, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_determinize_is_consistent_with_the_view(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    g = WizardGame(n, random_options(rng, n), seed)
    ch = Checker(g, rng, privacy_rate=0.0)
    for _ in range(rng.randint(0, 150)):
        if g.is_over:
            break
        ch.step()
    if g.is_over:
        return
    seat = rng.randrange(n)
    before = json.dumps(g.view(seat), sort_keys=True)
    true_hands = [list(h) for h in g._hands]
    d = g.determinize(seat, random.Random(seed + 1))
    assert json.dumps(g.view(seat), sort_keys=True) == before  # the original is untouched
    assert [sorted(h) for h in g._hands] == [sorted(h) for h in true_hands]
    v = g.view(seat)
    dv = d.view(seat)
    if v["blind_round"]:
        v.pop("prompt")
        dv.pop("prompt")
        for t in range(n):
            if t != seat:
                assert d._hands[t] == true_hands[t]
    else:
        assert sorted(d._hands[seat]) == sorted(true_hands[seat])
    assert json.dumps(dv, sort_keys=True) == json.dumps(v, sort_keys=True)
    assert [len(h) for h in d._hands] == [len(h) for h in true_hands]
    played = [c for t in v["round_tricks"] for _, c in t["plays"]] + [c for _, c in v["trick"]["plays"]]
    every = [c for h in d._hands for c in h] + played + ([v["indicator"]] if v["indicator"] else [])
    assert len(every) == len(set(every))
    voids = voids_from_view(v)
    for t in range(n):
        assert not any(suit(c) in voids[t] for c in d._hands[t])
    # hidden bids never leak into the sample through the clone
    if g.options["bid_mode"] == "secret":
        for t in range(n):
            if t != seat and g._bids[t] is not None:
                assert 0 <= d._bids[t] <= v["hand_size"]
    # the sample is a playable game
    drng = random.Random(seed)
    for _ in range(60):
        if d.is_over:
            break
        s = drng.choice(d.to_move())
        d.apply(s, drng.choice([a for a in d.legal_actions(s) if a["type"] != "undo"]))


def test_determinize_varies_hidden_cards() -> None:
    g = WizardGame(4, {"rounds": [10]}, 3)
    if g.phase == "trump":
        g.apply(g.to_move()[0], {"type": "trump", "suit": "S"})
    samples = {tuple(sorted(g.determinize(0, random.Random(i))._hands[1])) for i in range(10)}
    assert len(samples) > 1
    assert all(sorted(g.determinize(0, random.Random(i))._hands[0]) == sorted(g._hands[0]) for i in range(5))


def test_clone_is_independent() -> None:
    g = WizardGame(4, {"rounds": [3, 4]}, 9)
    c = g.clone()
    rng = random.Random(1)
    while not c.is_over:
        s = c.to_move()[0]
        c.apply(s, rng.choice([a for a in c.legal_actions(s) if a["type"] != "undo"]))
    assert not g.is_over and g.public_view()["round"] == 1
    assert all(len(h) == 3 for h in g._hands)

"""Mighty engine: property tests of the spec's engine checklist (§13) over many random legal games,
plus replay, privacy and determinization."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import FRENCH_52_JOKER
from bot.engine.errors import IllegalAction
from bot.engine.protocol import replay
from bot.games.mighty.engine import MightyGame
from bot.games.mighty.render import private_panel, public_panel
from bot.render.cards import mighty_label

CARDS = set(FRENCH_52_JOKER)
RANKS = "23456789TJQKA"
POINTS = {c for c in CARDS if c[0] in "AKQJT" and c != "JK"}
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"kitty_face_up": False, "mighty_saves_joker": True},
    {"first_trick_friend": False, "no_friend": False, "weak_hand_misdeal": False},
    {"show_history": True, "show_captured": False, "stake": 5},
]


def ref_winner(plays: list[tuple[int, str]], led: str, trump: str, idx: int, called: bool) -> int:
    """Independent re-statement of §6.7 for checking the engine."""
    mighty = "AD" if trump == "S" else "AS"
    for s, c in plays:
        if c == mighty:
            return s
    for s, c in plays:
        if c == "JK" and idx != 9 and not called:
            return s
    trumps = [(RANKS.index(c[0]), s) for s, c in plays if c != "JK" and c[1] == trump]
    if trumps:
        return max(trumps)[1]
    cands = [(RANKS.index(c[0]), s) for s, c in plays if c != "JK" and c[1] == led]
    if plays[0][1] == "JK":
        cands.append((-1, plays[0][0]))
    return max(cands)[1]


class Checker:
    """Drives a game with random legal actions and checks §13 invariants after every step."""

    def __init__(self, seed: int, options: dict[str, Any], hands: int = 1) -> None:
        self.g = MightyGame(5, {**options, "hands": hands}, seed)
        self.rng = random.Random(seed)
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.states: list[MightyGame] = []

    def run(self, keep_every: int = 0) -> None:
        g = self.g
        steps = 0
        while not g.is_over:
            (seat,) = g.to_move()
            acts = g.legal_actions(seat)
            assert acts
            for other in range(5):
                if other != seat:
                    assert g.legal_actions(other) == []
            a = self.rng.choice(acts)
            self.step(seat, a)
            steps += 1
            if keep_every and steps % keep_every == 0:
                self.states.append(g.clone())

    def step(self, seat: int, a: dict[str, Any]) -> None:
        g = self.g
        before = g.public_view()
        n_settled = len(g.settlements())
        hand_before = list(g._hands[seat])
        trump = g._trump
        if a["type"] == "bid" and before["auction"]["high"]:
            hi = before["auction"]["high"]
            assert (a["n"], a["trump"] == "NT") > (hi["n"], hi["trump"] == "NT")  # §4.3
        if before["phase"] == "auction":
            assert seat not in before["auction"]["passed"]  # passes are final (§4.4)
        if a["type"] == "play":
            self.check_play(seat, a, before, hand_before, trump)
        g.apply(seat, a)
        self.log.append((seat, a))
        self.check_cards()
        if a["type"] == "play" and len(before["trick"]["plays"]) == 4:
            plays = [(s, c) for s, c in before["trick"]["plays"]] + [(seat, a["card"])]
            tr = before["trick"]
            led = tr["led_suit"] if plays[0][1] != "JK" else tr["joker_suit"]
            exp = ref_winner(plays, led, trump, before["trick_number"] - 1, tr["joker_call"])
            if len(g.settlements()) > n_settled:
                rec = g.settlements()[-1].summary["tricks"][-1]
            else:
                rec = g.public_view()["last_trick"]
            assert rec["winner"] == exp
        if len(g.settlements()) > n_settled:
            self.check_settlement(before)

    def check_play(self, seat: int, a: dict[str, Any], v: dict[str, Any], hand: list[str], trump: str) -> None:
        card = a["card"]
        idx = v["trick_number"] - 1
        plays = v["trick"]["plays"]
        if idx == 0:
            assert card != "JK" and not a.get("joker_call")  # §6.3
            if not plays:
                assert seat == v["declarer"]  # §6.1
                if card[-1] == trump:
                    assert all(c[-1] == trump for c in hand if c != "JK")  # §6.3.2
        if plays and v["trick"]["joker_call"] and "JK" in hand:
            mighty = v["mighty"]
            ok = {"JK", mighty} if v["options"]["mighty_saves_joker"] and mighty in hand else {"JK"}
            assert card in ok  # §6.6.2
        if plays and not (v["trick"]["joker_call"] and "JK" in hand):
            led = v["trick"]["led_suit"]
            if any(c[-1] == led for c in hand if c != "JK"):
                assert card[-1] == led or card in ("JK", v["mighty"])  # §6.2
        if a.get("suit"):
            assert card == "JK" and not plays
        # friend reveal exactly when the called card is played (§6.8.1)
        fc = v["friend_call"]
        if fc and fc["kind"] == "card":
            assert v["friend_revealed"] == (fc["card"] in self.played_cards())

    def played_cards(self) -> set[str]:
        return set(self.g._played)

    def check_cards(self) -> None:
        g = self.g
        if g.is_over:
            return
        held = [c for h in g._hands for c in h]
        kitty = [] if g._kitty_taken else list(g._kitty)
        all_cards = held + kitty + list(g._discards) + list(g._played)
        assert len(all_cards) == 53 and set(all_cards) == CARDS  # §13.1
        ph = g.phase
        if ph == "play":
            done = g._trick_no
            for s in range(5):
                in_trick = any(p == s for p, _ in g._plays)
                assert len(g._hands[s]) == 10 - done - (1 if in_trick else 0)
            assert len(g._discards) == 3
        elif ph == "auction":
            assert all(len(h) == 10 for h in g._hands) and len(g._kitty) == 3

    def check_settlement(self, before: dict[str, Any]) -> None:
        g = self.g
        st_ = g.settlements()[-1]
        s = st_.summary
        pay = list(st_.amounts["stake"])
        assert sum(pay) == 0 and pay == s["payments"]  # §13.10
        assert s["points"] + s["defender_points"] == 20  # §13.2
        side = {s["declarer"]} | ({s["friend"]} if s["friend"] is not None else set())
        captured = sum(len(c) for c in s["captured"])
        assert captured + s["discard_points"] == 20
        assert s["points"] == s["discard_points"] + sum(len(s["captured"][x]) for x in side)
        assert all(c in POINTS for cs in s["captured"] for c in cs)
        # independent restatement of §7.2-§7.4
        b, p = s["bid"], s["points"]
        made = p >= b
        score = (2 * (b - 13) + (p - b)) if made else (b - p)
        for cond in (s["trump"] == "NT", s["friend_call"] == "none", made and p == 20, not made and p <= 9):
            score *= 2 if cond else 1
        assert (s["score"], s["made"]) == (score, made)
        sign = 1 if made else -1
        k = s["stake"]
        for seat in range(5):
            if seat == s["declarer"]:
                exp = sign * (4 if s["friend"] is None else 2) * score * k
            elif seat == s["friend"]:
                exp = sign * score * k
            else:
                exp = -sign * score * k
            assert pay[seat] == exp
        if s["friend_call"] == "first_trick":
            w = s["tricks"][0]["winner"]
            assert s["friend"] == (None if w == s["declarer"] else w)
        if s["friend_call"] == "card":
            holder_is_decl = s["friend"] is None
            assert holder_is_decl == s["secret_solo"]
        # contract change legal (§13.5)
        n0, t0, n, t = s["original_bid"], s["original_trump"], s["bid"], s["trump"]
        need = n0 if t == t0 else (n0 + 1 if t == "NT" else n0 + 2)
        assert need <= n <= 20
        # next dealer/opener (§8)
        v = g.public_view()
        assert v["dealer"] == (s["friend"] if s["friend"] is not None else s["declarer"])
        assert v["opener"] == s["declarer"]
        if not g.is_over:
            assert g.to_move() == (s["declarer"],) and v["hand_number"] == s["hand"] + 1


@settings(max_examples=800, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(range(len(OPTION_SETS))))
def test_random_games_checklist(seed: int, opt: int) -> None:
    Checker(seed, OPTION_SETS[opt], hands=3).run()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_illegal_actions_rejected_and_state_unchanged(seed: int) -> None:
    c = Checker(seed, {}, hands=1)
    c.run(keep_every=3)
    rng = random.Random(seed)
    for g in c.states[:20]:
        if g.is_over:
            continue
        (seat,) = g.to_move()
        legal = g.legal_actions(seat)
        before = json.dumps([g.public_view(), [g.view(s) for s in range(5)]], sort_keys=True)
        junk: list[dict[str, Any]] = [
            {"type": "play", "card": rng.choice(sorted(CARDS))},
            {"type": "bid", "n": rng.randint(10, 22), "trump": rng.choice(["S", "NT", "X"])},
            {"type": "pass"},
            {"type": "contract", "n": rng.randint(12, 21), "trump": "H"},
            {"type": "call", "kind": "card", "card": "ZZ"},
            {"type": "discard", "cards": rng.sample(sorted(CARDS), 3)},
            {"type": "nonsense"},
        ]
        for a in junk:
            if a in legal:
                continue
            try:
                g.apply(seat, a)
            except IllegalAction:
                pass
            else:  # accepted: must have been a legal action under another spelling (discard order)
                assert a["type"] == "discard"
                break
            assert json.dumps([g.public_view(), [g.view(s) for s in range(5)]], sort_keys=True) == before
        other = (seat + 1) % 5
        try:
            g.apply(other, legal[0])
            raise AssertionError("acted out of turn")
        except IllegalAction:
            pass


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(range(len(OPTION_SETS))))
def test_replay_reproduces(seed: int, opt: int) -> None:
    c = Checker(seed, OPTION_SETS[opt], hands=2)
    c.run()
    g2 = replay(MightyGame, 5, {**OPTION_SETS[opt], "hands": 2}, seed, c.log)
    assert g2.settlements() == c.g.settlements()
    assert g2.public_view() == c.g.public_view()
    assert [g2.view(s) for s in range(5)] == [c.g.view(s) for s in range(5)]


# -- privacy (§9, §13.12) -------------------------------------------------------------------------------
def _current(v: dict[str, Any], strip_names: bool = True) -> dict[str, Any]:
    """The view without what is public from earlier deals (last hand's reveal, old events)."""
    v = dict(v)
    v.pop("last_hand", None)
    v["events"] = [
        # the called card is a name, not a place: stripped for the card-id scan
        {k: x for k, x in e.items() if not (strip_names and e["kind"] == "friend_call" and k == "card")}
        for e in v["events"]
        if (e["hand"], e["redeal"]) == (v["hand_number"], v["redeal_number"])
    ]
    return v


def _card_strings(obj: Any, skip: tuple[str, ...] = ()) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, str):
        if obj in CARDS:
            out.add(obj)
    elif isinstance(obj, dict):
        for k, x in obj.items():
            if k not in skip:
                out |= _card_strings(x, skip)
    elif isinstance(obj, list | tuple):
        for x in obj:
            out |= _card_strings(x, skip)
    return out


def _hidden(g: MightyGame) -> set[str]:
    hidden = {c for h in g._hands for c in h} | set(g._discards)
    if not g._kitty_taken:
        hidden |= set(g._kitty)
    elif g.options["kitty_face_up"]:
        hidden -= set(g._kitty)  # shown to everybody (wherever they are now: hand or discards)
    return hidden


NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(range(len(OPTION_SETS))))
def test_privacy(seed: int, opt: int) -> None:
    c = Checker(seed, OPTION_SETS[opt], hands=2)
    c.run(keep_every=2)
    for g in c.states:
        if g.is_over:
            continue
        pv = g.public_view()
        hidden = _hidden(g)
        shown = _card_strings(_current(pv), skip=("mighty", "ripper", "friend_call"))
        assert not shown & hidden, (shown & hidden, pv["phase"])
        # the friend is public only once revealed; the public view has no role data
        assert "role" not in pv and "secret_solo" not in pv and "hand" not in pv
        if not pv["friend_revealed"]:
            assert pv["friend"] is None
        text = public_panel(_current(pv, strip_names=False), NAMES).text()
        named = {pv.get("mighty"), pv.get("ripper"), (pv.get("friend_call") or {}).get("card")}
        for card in hidden - named:
            assert mighty_label(card) not in text, card
        for s in range(5):
            v = g.view(s)
            mine = set(v["hand"]) | set(v["discards"] or []) | set(v["kitty_private"] or [])
            others = {c for o in range(5) if o != s for c in g._hands[o]}
            if g._kitty_taken and g.options["kitty_face_up"]:
                others -= set(g._kitty)
            leaked = _card_strings(_current(v), skip=("mighty", "ripper", "friend_call", "prompt")) - mine
            assert not leaked & (others | hidden - mine)
            # the friend role is known only to the holder of the called card
            if v["role"] == "friend" and not pv["friend_revealed"]:
                assert g._call_card in g._hands[s]
            private_panel(v, NAMES)


# -- determinize -----------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(range(len(OPTION_SETS))))
def test_determinize_consistent(seed: int, opt: int) -> None:
    c = Checker(seed, OPTION_SETS[opt], hands=1)
    c.run(keep_every=3)
    rng = random.Random(seed)
    for g in c.states:
        if g.is_over:
            continue
        seat = rng.randrange(5)
        d = g.determinize(seat, rng)
        assert d.view(seat) == g.view(seat)
        assert d.public_view() == g.public_view()
        held = [x for h in d._hands for x in h]
        kitty = [] if d._kitty_taken else list(d._kitty)
        assert sorted(held + kitty + list(d._discards) + list(d._played)) == sorted(CARDS)
        for s in range(5):
            assert len(d._hands[s]) == len(g._hands[s])
            for x in d._hands[s]:
                if x != "JK":
                    assert x[-1] not in g._void[s]
            if g._no_joker[s]:
                assert "JK" not in d._hands[s]
        if g._kitty_taken and g.options["kitty_face_up"] and seat != g._declarer:
            for x in g._kitty:
                if x not in g._played:
                    assert x in d._hands[g._declarer] or x in d._discards
        if g._call_kind == "card" and not g._friend_public:
            holder = next((s for s in range(5) if g._call_card in d._hands[s]), g._declarer)
            assert d._friend == (None if holder == g._declarer else holder)
        # the determinized state plays on legally to the end
        r = random.Random(seed + 1)
        n = len(d.settlements())
        while len(d.settlements()) == n:
            (s,) = d.to_move()
            d.apply(s, r.choice(d.legal_actions(s)))
        # the original is untouched by playing the clone
        assert g.view(seat)["hand"] == c_view_hand(g, seat)


def c_view_hand(g: MightyGame, seat: int) -> list[str]:
    from bot.games.mighty.engine import sort_cards

    return sort_cards(g._hands[seat])


def test_void_inference_feeds_determinize() -> None:
    g = MightyGame(5, None, 0)
    # play until someone shows a void, then check all determinizations respect it
    rng = random.Random(3)
    while not any(g._void[s] for s in range(5)):
        (s,) = g.to_move()
        g.apply(s, rng.choice(g.legal_actions(s)))
    seat = next(s for s in range(5) if not g._void[s])
    for i in range(30):
        d = g.determinize(seat, random.Random(i))
        for s in range(5):
            assert not any(x != "JK" and x[-1] in g._void[s] for x in d._hands[s])

"""Heuristic computer players for Mighty (``normal`` and ``easy``).

They read only what ``game.view(seat)`` shows, through narrow parts of it (``decision_view`` for the
declarations, ``play_facts`` and the compact ``sim_legal`` moves for the card play: a search runs them for every
simulated card, where building the whole view was most of its time). The normal player bids from a hand
value per trump, keeps the Mighty, the Joker and its top trumps when discarding, calls the Mighty or the
Joker (else the top trump) as friend, and in play captures point cards, feeds points to a known partner,
spends the Joker before the powerless last trick, and makes a joker call when the other side likely holds
the Joker. The easy player bids/discards/calls the same way but plays a random legal card.
"""

from __future__ import annotations

import random
from typing import Any

from bot.engine.cards import JOKER
from bot.engine.protocol import Action, Game, Move
from bot.games.mighty.engine import (
    CALL,
    HIGHER,
    LAST_TRICK,
    POINT_CARDS,
    RANK,
    SUIT,
    SUITS,
    MightyGame,
    PlayFacts,
    mighty_of,
    trick_winner,
)

_HIGH_TRUMP = {14: 2.5, 13: 2.0, 12: 1.5, 11: 1.0}


def hand_value(hand: list[str], trump: str) -> float:
    """Rough strength of ``hand`` as declarer with ``trump`` (in 'useful card' units)."""
    mighty = mighty_of(trump)
    v = 0.0
    if mighty in hand:
        v += 3.0
    if JOKER in hand:
        v += 3.0
    n_trumps = 0
    for c in hand:
        if c in (mighty, JOKER):
            continue
        s, r = SUIT[c], RANK[c]
        if s == trump:
            n_trumps += 1
            v += _HIGH_TRUMP.get(r, 0.8)
        elif r == 14:
            v += 2.5 if trump == "NT" else 1.5
        elif r == 13:
            v += 1.0 if trump == "NT" else 0.5
    if n_trumps >= 5:
        v += 0.6 * (n_trumps - 4)
    return v


def estimate_points(hand: list[str], trump: str) -> float:
    """Points the declarer's side may expect with this hand (kitty and friend included, roughly)."""
    est = 8.5 + 0.55 * hand_value(hand, trump)
    if trump == "NT":
        est -= 1.0  # no trump suit to ruff with: riskier
    return est


def _discard_keep_value(card: str, hand: list[str], trump: str) -> float:
    mighty = mighty_of(trump)
    if card in (mighty, JOKER):
        return 1000.0
    s, r = SUIT[card], RANK[card]
    if s == trump:
        return 100.0 + r
    suit_len = sum(1 for c in hand if SUIT[c] == s and c != mighty)
    if r == 14:
        base = 40.0
    elif r == 13:
        base = 12.0 if ("A" + s) in hand else 7.0
    elif card in POINT_CARDS:
        base = 5.0  # a discarded point card is banked for the declarer (§5.1.3)
    else:
        base = r / 3.0
    return base + 2.0 * suit_len


class MightyAgent:
    level = "normal"

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        assert isinstance(game, MightyGame)
        if game.phase == "play":
            return game.sim_action(self.play_move(game, seat, rng))
        return self._declare(game, seat)

    def sim_choose(self, game: Game, seat: int, rng: random.Random) -> Move:
        """:meth:`choose` as a move of ``game.sim_legal(seat)`` (the same choice, the same randomness)."""
        assert isinstance(game, MightyGame)
        if game.phase == "play":
            return self.play_move(game, seat, rng)
        return self._declare(game, seat)

    def play_move(self, game: MightyGame, seat: int, rng: random.Random) -> Move:
        moves = game.sim_legal(seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal action")
        return self._play(game.play_facts(seat), moves, rng)

    def _declare(self, game: MightyGame, seat: int) -> Action:
        v = game.decision_view(seat)
        phase = v["phase"]
        if phase == "discard":
            return self._discard(v)
        acts = game.legal_actions(seat)
        if not acts:
            raise ValueError(f"seat {seat} has no legal action")
        if phase == "auction":
            return self._auction(v, acts)
        if phase == "change":
            return self._change(v, acts)
        return self._call(v, acts)

    # -- auction -----------------------------------------------------------------------------------
    def _auction(self, v: dict[str, Any], acts: list[Action]) -> Action:
        hand = v["hand"]
        limits = {t: int(estimate_points(hand, t)) for t in ("S", "D", "H", "C", "NT")}
        if {"type": "misdeal"} in acts and max(limits.values()) < 12:
            return {"type": "misdeal"}
        bids = [a for a in acts if a["type"] == "bid" and limits[a["trump"]] >= a["n"]]
        if not bids:
            return {"type": "pass"}
        # the cheapest bid in the trump with the most spare strength
        return min(bids, key=lambda a: (a["n"] - limits[a["trump"]], a["n"]))

    def _discard(self, v: dict[str, Any]) -> Action:
        hand = v["hand"]
        trump = v["bid"]["trump"]
        ranked = sorted(hand, key=lambda c: _discard_keep_value(c, hand, trump))
        drop = set(ranked[:3])
        return {"type": "discard", "cards": [c for c in hand if c in drop]}

    def _change(self, v: dict[str, Any], acts: list[Action]) -> Action:
        n0, t0 = v["bid"]["n"], v["bid"]["trump"]
        hand = v["hand"]
        keep = {"type": "contract", "n": n0, "trump": t0}
        cur = estimate_points(hand, t0)
        best, best_gain = keep, 0.0
        for a in acts:
            if a["trump"] == t0:
                continue
            est = estimate_points(hand, a["trump"])
            if est >= a["n"] + 0.5 and est - cur - (a["n"] - n0) > best_gain + 1.5:
                best, best_gain = a, est - cur - (a["n"] - n0)
        # only the cheapest number for the chosen trump
        if best is not keep:
            cands = [a for a in acts if a["trump"] == best["trump"]]
            best = min(cands, key=lambda a: a["n"])
        return best

    def _call(self, v: dict[str, Any], acts: list[Action]) -> Action:
        mine = set(v["hand"]) | set(v.get("discards") or [])
        trump = v["contract"]["trump"]
        wanted = [mighty_of(trump), JOKER]
        suits = [trump] if trump != "NT" else []
        suits += [s for s in SUITS if s != trump]
        wanted += [r + s for s in suits for r in "AKQ"]
        for c in wanted:
            if c not in mine:
                return {"type": "call", "kind": "card", "card": c}
        for kind in ("first_trick", "none"):
            if {"type": "call", "kind": kind} in acts:
                return {"type": "call", "kind": kind}
        return acts[0]

    # -- play --------------------------------------------------------------------------------------
    def _play(self, f: PlayFacts, moves: list[Move], rng: random.Random) -> Move:
        seat = f.seat
        trump = f.trump
        mighty = mighty_of(trump)
        plays = f.plays
        idx = f.trick_index
        decl = f.declarer
        role = f.role
        friend = f.friend
        partners: set[int] = set()
        opponents: set[int] = set()
        if role == "declarer":
            if friend is not None:
                partners.add(friend)
            # before the reveal every other seat is more likely a defender (3 in 4)
            opponents = {s for s in range(5) if s != seat and s not in partners}
        elif role == "friend":
            partners.add(decl)
            opponents = {s for s in range(5) if s not in (seat, decl)}
        else:
            opponents.add(decl)
            if f.friend_revealed:
                if friend is not None:
                    opponents.add(friend)
                partners = {s for s in range(5) if s != seat and s not in opponents}
        seen = set(f.hand)
        seen.update(c for _, c in plays)
        if f.points_seen is not None:
            seen |= f.points_seen  # the captured point cards (the current trick's are in already)
        if f.discards:
            seen.update(f.discards)
        if f.last_plays is not None:
            seen.update(c for _, c in f.last_plays)
        # a sorted list, not a set: iteration order must not depend on PYTHONHASHSEED (ties are common)
        cards = sorted({m if type(m) is str else m[0] for m in moves})

        if not plays:
            return self._lead(f, moves, cards, trump, mighty, idx, role, seen)

        led = f.led_suit
        called = f.joker_call
        cur = trick_winner(plays, led, trump, idx, called)
        after = 4 - len(plays)  # players still to play after me
        pts = sum(1 for _, c in plays if c in POINT_CARDS)
        winning_card = dict(plays).get(cur)
        joker_live = idx < LAST_TRICK and not called
        mighty_out = mighty not in seen

        def hold_chance(c: str, n_after: int) -> float:
            """How likely card ``c`` (winning now) keeps the trick with ``n_after`` players still to play."""
            if n_after == 0 or c == mighty:
                return 1.0
            if c == JOKER and joker_live:
                return 0.85 if mighty_out else 1.0
            sure = seen.issuperset(HIGHER[c])
            if sure and (SUIT[c] == trump or trump == "NT"):
                return 0.8
            if sure:
                return 0.65
            if SUIT[c] == trump:
                return max(0.2, 0.55 - 0.05 * n_after)
            return max(0.1, 0.45 - 0.1 * n_after)

        def keep_value(c: str) -> float:
            """What holding ``c`` is worth for later tricks (in points, roughly)."""
            if c == mighty:
                return 3.5 if idx < LAST_TRICK else 0.0
            if c == JOKER:
                return 3.0 if idx < LAST_TRICK - 1 else 0.0
            r = RANK[c]
            if SUIT[c] == trump:
                return 0.5 + (r - 2) / 6.0
            return 1.0 if r == 14 else (0.4 if r == 13 else r / 60.0)

        cur_hold = hold_chance(winning_card, after + 1) if winning_card else 0.5
        if cur in partners:
            keep_p = cur_hold
        elif cur in opponents:
            keep_p = (1.0 - cur_hold) * 0.5
        else:
            keep_p = 0.4
        expected_more = 0.35 * after  # points the players still to come may add
        best_c, best_u = "", -1e9
        for c in cards:
            total = pts + (1 if c in POINT_CARDS else 0) + expected_more
            wins = trick_winner([*plays, (seat, c)], led, trump, idx, called) == seat
            p_side = hold_chance(c, after) if wins else keep_p
            u = total * (2.0 * p_side - 1.0) - keep_value(c) + rng.random() * 1e-3
            if u > best_u:
                best_c, best_u = c, u
        return self._act(moves, best_c)

    @staticmethod
    def _sure(card: str, trump: str, seen: set[str]) -> bool:
        """No unseen card of the same suit ranks above ``card`` (and the Mighty/Joker may still beat it)."""
        return seen.issuperset(HIGHER[card])

    def _lead(
        self,
        f: PlayFacts,
        moves: list[Move],
        cards: list[str],
        trump: str,
        mighty: str,
        idx: int,
        role: str,
        seen: set[str],
    ) -> Move:
        hand = f.hand
        my_side = role in ("declarer", "friend")
        # 1. Joker: lead it before the last trick (it is powerless there).
        if JOKER in cards and (idx >= LAST_TRICK - 2 or (my_side and idx >= 1)):
            name = trump if trump != "NT" else self._richest_suit(seen)
            return (JOKER, name)
        # 2. joker call when the other side likely holds the Joker.
        call = next((m for m in moves if type(m) is tuple and m[1] == CALL), None)
        # (legal with any Ripper lead, but only worth making while the Joker may be in another hand: not played,
        # and not among the cards this seat has seen - its hand, the declarer's discards)
        if call is not None and JOKER not in seen and not f.joker_played:
            likely_theirs = (role == "declarer" and f.friend_card != JOKER) or role == "defender"
            if likely_theirs:
                return call
        # 3. the declarer's side pulls trumps with winning trumps.
        if my_side and trump != "NT":
            trumps = [c for c in cards if SUIT[c] == trump]
            top = [c for c in trumps if seen.issuperset(HIGHER[c])]
            if top and len([c for c in hand if SUIT[c] == trump]) >= 2:
                return self._act(moves, max(top, key=RANK.__getitem__))
        # 4. a sure side-suit winner (ace or promoted card).
        side = [c for c in cards if c not in (JOKER, mighty) and SUIT[c] != trump]
        sure = [c for c in side if seen.issuperset(HIGHER[c])]
        if sure:
            return self._act(moves, max(sure, key=RANK.__getitem__))
        # 5. the Mighty late in the hand, so it is not wasted.
        if mighty in cards and idx >= LAST_TRICK - 1:
            return self._act(moves, mighty)
        # 6. a low card of the longest side suit (non-point first).
        pool = side or [c for c in cards if c not in (JOKER, mighty)] or list(cards)
        if JOKER in pool and JOKER in cards and pool == [JOKER]:
            return (JOKER, trump if trump != "NT" else SUITS[0])

        def key(c: str) -> tuple[int, int, int]:
            if c == JOKER:
                return (2, 0, 0)
            length = sum(1 for x in hand if SUIT[x] == SUIT[c])
            return (1 if c in POINT_CARDS else 0, -length, RANK[c])

        return self._act(moves, min(pool, key=key))

    @staticmethod
    def _richest_suit(seen: set[str]) -> str:
        return max(SUITS, key=lambda s: sum(1 for c in POINT_CARDS if c[-1] == s and c not in seen))

    @staticmethod
    def _act(moves: list[Move], card: str) -> Move:
        """The plain play of ``card`` (no joker call; a led Joker gets its first offered suit)."""
        for m in moves:
            if m == card or (type(m) is tuple and m[0] == card and m[1] != CALL):
                return m
        raise ValueError(f"{card} is not playable")


class EasyMightyAgent(MightyAgent):
    """Bids, discards and calls like the normal player, then plays a random legal card."""

    level = "easy"

    def _play(self, f: PlayFacts, moves: list[Move], rng: random.Random) -> Move:
        return rng.choice(moves)

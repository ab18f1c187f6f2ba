"""Computer players for Wizard: a heuristic "normal" agent and a greedy "easy" one.

Both read only ``game.view(seat)`` and ``game.legal_actions(seat)``; to play a card, only the part
``game.card_play_view(seat)`` and the compact moves ``game.sim_legal(seat)`` (``sim_choose``: the same choice as
a compact move, which a search's playouts apply without building a display action).

normal:
* bids the sum of per-card winning chances (Wizards, high trumps, side aces/kings discounted by the number
  of opponents and the chance of being ruffed, ruffing chances of spare trumps in short suits), plus its
  share of the tricks the whole table's yardstick leaves unclaimed in long rounds; in open bidding shaded by
  how much the earlier bidders over/underbid; snapped to the nearest legal bid (so the ``bid_restriction``
  forbidden value is avoided);
* after a turned Wizard names its longest/strongest suit;
* in play estimates, for every legal card, the chance that it wins the trick (opponents who already have
  their bid are assumed to duck more often), then wins cheaply while it still needs tricks (Wizard when it
  must), or ducks once its bid is reached (highest card that still loses, keeping Jesters for later).

easy: bids Wizards + Aces, plays its highest card while short of the bid and its lowest otherwise.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import Any

from bot.engine.cards import WIZARD_60, WIZARD_SUITS
from bot.engine.protocol import Action, Game, Move
from bot.games.wizard.engine import JES_SET, RANK, SUIT, SUIT_BIT, WIZ_SET, WizardGame, trick_winner


def _not_undo(actions: list[Action]) -> list[Action]:
    return [a for a in actions if a["type"] != "undo"]


def _nearest_bid(actions: list[Action], target: float) -> Action:
    """The legal bid closest to ``target`` (ties: the lower one)."""
    return min(actions, key=lambda a: (abs(a["n"] - target), a["n"]))


def _voids(view: dict[str, Any]) -> list[int]:
    """Suits each seat has shown void in this round (bitmask), from the public trick history."""
    out = [0] * view["num_seats"]
    tricks = [t["plays"] for t in view["round_tricks"]] + [view["trick"]["plays"]]
    for plays in tricks:
        lead: str | None = None
        free = False
        for s, c in plays:
            if lead is not None:
                if SUIT[c] and SUIT[c] != lead:
                    out[s] |= SUIT_BIT[lead]
            elif not free and c not in JES_SET:
                if c in WIZ_SET:
                    free = True
                else:
                    lead = SUIT[c]
    return out


# Bid calibration (tuned in self-play): per-card chances undercount long rounds, where every trick still
# goes to somebody; from hand size SHARE_FROM the unclaimed tricks are shared out, fully from
# SHARE_FROM + SHARE_RAMP. BIAS shades every bid slightly down (an overbid is as costly as an underbid,
# but a surplus trick is easier to avoid by ducking than a missing one is to find).
SHARE = 1.0
SHARE_FROM = 5.0
SHARE_RAMP = 8.0
BIAS = 0.05


class _Ctx:
    """What the seat knows, pre-digested for the heuristics."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.n: int = view["num_seats"]
        self.r: int = view["hand_size"]
        self.trump: str | None = view["trump"]
        self.hand: list[str] = list(view["hand"])
        known = set(self.hand)
        for t in view["round_tricks"]:
            known.update(c for _, c in t["plays"])
        known.update(c for _, c in view["trick"]["plays"])
        if view["indicator"]:
            known.add(view["indicator"])
        if view.get("foreheads"):
            known.update(c for c in view["foreheads"] if c)
        self.unseen = [c for c in WIZARD_60 if c not in known]
        # unseen ranks per suit ("" for Wizards and Jesters), sorted: the play heuristic asks "how many unseen
        # cards of this suit are higher" for every legal card, and a count over the unseen list each time cost
        # most of a decision
        ranks: dict[str, list[int]] = {}
        for c in self.unseen:
            ranks.setdefault(SUIT[c], []).append(RANK[c])
        for rs in ranks.values():
            rs.sort()
        self._ranks = ranks
        counts = view["hand_counts"]
        self.opp_cards = sum(counts[s] for s in range(self.n) if s != self.seat)
        u = max(1, len(self.unseen))
        self.U = u
        self.f = min(1.0, self.opp_cards / u)  # chance an unseen card sits in an opponent's hand
        self.unseen_wiz = sum(1 for c in self.unseen if c in WIZ_SET)
        self.voids = _voids(view)
        self.counts = counts

    def higher_unseen(self, card: str) -> int:
        rs = self._ranks.get(SUIT[card])
        return len(rs) - bisect_right(rs, RANK[card]) if rs else 0

    def suit_unseen(self, suit: str) -> int:
        rs = self._ranks.get(suit)
        return len(rs) if rs else 0

    # -- bidding strength ------------------------------------------------------------------------------
    def card_value(self, card: str, leader: bool) -> float:
        """Rough chance that ``card`` (mine) takes a trick over the round (to bid, and as a keep-value)."""
        if card in WIZ_SET or card in JES_SET:
            return 0.95 if card in WIZ_SET else 0.0
        mine = sum(1 for c in self.hand if SUIT[c] == SUIT[card])
        return self._value(card, self.higher_unseen(card), mine, leader)

    def _value(self, card: str, h: int, length: float, leader: bool) -> float:
        if card in WIZ_SET or card in JES_SET:
            return 0.95 if card in WIZ_SET else 0.0
        f, r = self.f, max(1, self.r)
        wiz = (1 - f * min(1.0, 1.2 / r)) ** self.unseen_wiz
        p = (1 - 0.6 * f) ** h * wiz
        if card[-1] == self.trump:
            return p
        if self.trump is not None:
            u = self.U
            rem = self.suit_unseen(SUIT[card])
            trumps = self.suit_unseen(self.trump)
            cpo = self.opp_cards / max(1, self.n - 1)
            # a later round of the suit is more likely to be ruffed: longer holdings ruff sooner
            void_p = ((u - rem) / u) ** (cpo / max(1.0, length))
            has_trump = 1 - ((u - trumps) / u) ** cpo
            p *= (1 - void_p * has_trump) ** (self.n - 1)
        if self.r == 1 and not leader:
            p *= 0.3  # somebody else picks the suit; an off-suit card cannot win
        elif self.r == 2 and not leader:
            p *= 0.75
        return p

    def _raw_estimate(self, leader: bool) -> float:
        est = sum(self.card_value(c, leader) for c in self.hand)
        if self.trump is not None and self.r >= 3:
            trumps = [c for c in self.hand if SUIT[c] == self.trump]
            spare = sum(1 for c in trumps if self.card_value(c, leader) < 0.5)
            short = 0.0
            for s in WIZARD_SUITS:
                if s == self.trump:
                    continue
                k = sum(1 for c in self.hand if SUIT[c] == s)
                short += 1.0 if k == 0 else 0.5 if k == 1 else 0.0
            est += 0.45 * min(spare, short) * min(1.0, self.r / 6)
        return est

    def field_estimate(self) -> float:
        """What the opponents' hands are worth together by the same yardstick (each unseen card counted
        with the chance it is in an opponent's hand)."""
        pool = self.unseen + self.hand
        tot = 0.0
        avg_len = max(1.0, self.opp_cards / max(1, self.n - 1) * 13 / 60)
        for c in self.unseen:
            h = sum(1 for x in pool if SUIT[x] == SUIT[c] and RANK[x] > RANK[c]) if SUIT[c] else 0
            tot += self._value(c, h, avg_len, False)
        return self.f * tot

    def estimate_tricks(self, leader: bool) -> float:
        """My expected tricks: my own yardstick, plus my share of the tricks nobody's yardstick claims
        (in long rounds the per-card chances undercount: somebody must win every trick)."""
        est = self._raw_estimate(leader)
        deficit = self.r - est - self.field_estimate()
        weight = SHARE * min(1.0, max(0.0, (self.r - SHARE_FROM) / SHARE_RAMP))
        return max(0.0, est + weight * deficit / self.n - BIAS)

    # -- play ------------------------------------------------------------------------------------------------
    def win_chance(self, card: str, satisfied: frozenset[int] = frozenset(), calm: float = 0.5) -> float:
        """Chance that ``card`` played now ends up winning the current trick. Seats in ``satisfied`` have
        reached their bid and will rather duck, so they beat the card less often (factor ``calm``)."""
        view = self.view
        plays = [(s, c) for s, c in view["trick"]["plays"]]
        me = self.seat
        after = [*plays, (me, card)]
        if trick_winner(after, self.trump) != me:
            return 0.0
        if card in WIZ_SET:
            return 1.0  # the first Wizard can no longer be beaten
        later = [(me + i) % self.n for i in range(1, self.n - len(plays))]
        if not later:
            return 1.0
        if card in JES_SET:
            return 0.02  # only if everybody else also plays a Jester
        lead: str | None = None
        for _, c in after:
            if c not in JES_SET:
                lead = SUIT[c] if c not in WIZ_SET else None
                break
        u = self.U
        wiz = self.unseen_wiz
        higher = self.higher_unseen(card)
        trump = self.trump
        ruffers = 0
        if trump is not None and SUIT[card] != trump:
            ruffers = self.suit_unseen(trump)
        rem_lead = self.suit_unseen(lead) if lead else 0
        p = 1.0
        for j in later:
            h = self.counts[j]
            if h <= 0:
                continue
            void_known = lead is not None and bool(self.voids[j] & SUIT_BIT[lead])
            beaters = wiz + (0 if void_known else higher)
            p_ok = max(0.0, (u - beaters) / u) ** h
            if ruffers:
                p_void = 1.0 if void_known else max(0.0, (u - rem_lead) / u) ** h
                p_trump = 1 - max(0.0, (u - ruffers) / u) ** h
                p_ok *= 1 - p_void * p_trump
            if j in satisfied:
                p_ok = 1 - (1 - p_ok) * calm
            p *= p_ok
        return p


class WizardAgent:
    """Heuristic player that tries to take exactly its bid."""

    level = "normal"
    #: how much a seat that already has its bid still overtakes (it would rather duck)
    calm = 0.5
    #: keep-value of a Jester when discarding while still short of the bid (they are precious later)
    jester_keep = 0.15
    #: win-chance needed to spend a card on a trick: ``thr0 - thr_slope * need / tricks_left``
    thr0 = 0.8
    thr_slope = 0.35
    #: open bidding: shade the bid by this much per trick the table over/underbids (capped at ±0.5)
    slack_adj = 0.15

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        assert isinstance(game, WizardGame)
        if game.phase == "play":
            return game.sim_action(self.sim_choose(game, seat, rng))
        actions = _not_undo(game.legal_actions(seat))
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        view = game.view(seat)
        kind = actions[0]["type"]
        if kind == "trump":
            return self._trump(view, actions)
        return self._bid(view, actions)

    def sim_choose(self, game: Game, seat: int, rng: random.Random) -> Move:
        """:meth:`choose` as a move of ``game.sim_legal(seat)``."""
        assert isinstance(game, WizardGame)
        if game.phase != "play":
            return game.sim_move(self.choose(game, seat, rng))
        cards: list[str] = game.sim_legal(seat)
        if not cards:
            raise ValueError(f"seat {seat} has no legal action")
        if len(cards) == 1:
            return cards[0]
        return self._play(game.card_play_view(seat), cards)

    # -- trump after a turned Wizard -------------------------------------------------------------------------
    def _trump(self, view: dict[str, Any], actions: list[Action]) -> Action:
        if view.get("hand_hidden"):
            # blind round: own card unknown; pick the trump that makes the outcome most predictable
            return max(actions, key=lambda a: abs(_blind_win_fraction(view, a["suit"]) - 0.5))
        hand = view["hand"]

        def strength(suit: str) -> float:
            cards = [c for c in hand if SUIT[c] == suit]
            return len(cards) + 0.25 * sum(max(0, RANK[c] - 9) for c in cards)

        return max(actions, key=lambda a: strength(a["suit"]))

    # -- bidding -----------------------------------------------------------------------------------
    def _bid(self, view: dict[str, Any], actions: list[Action]) -> Action:
        if view.get("hand_hidden"):
            p = _blind_win_fraction(view, view["trump"])
            return _nearest_bid(actions, 1.0 if p > 0.5 else 0.0)
        ctx = _Ctx(view)
        leader = view["leader"] == view["seat"]
        est = ctx.estimate_tricks(leader)
        if view["bid_mode"] == "open":
            # Late bidders see the table: if the others already claim more tricks than exist, the fight
            # for tricks gets harder, so shade down a little (and up when the table underbids).
            others = [b for s, b in enumerate(view["bids"]) if b is not None and s != view["seat"]]
            if len(others) >= 2 and ctx.r >= 3:
                slack = ctx.r - sum(others) - est
                est += max(-0.5, min(0.5, self.slack_adj * slack))
        return _nearest_bid(actions, est)

    # -- card play ---------------------------------------------------------------------------------
    def _play(self, view: dict[str, Any], cards: list[str]) -> str:
        seat = view["seat"]
        ctx = _Ctx(view)
        bid = view["bids"][seat] or 0
        need = bid - view["tricks"][seat]
        left = max(1, len(ctx.hand))
        leader = not view["trick"]["plays"]
        bids = view["bids"]
        satisfied = frozenset(
            s for s in range(ctx.n) if s != seat and bids[s] is not None and view["tricks"][s] >= bids[s]
        )
        win = {c: ctx.win_chance(c, satisfied, self.calm) for c in cards}
        keep = {c: self.jester_keep if c in JES_SET else ctx.card_value(c, True) for c in cards}
        if need > 0:
            urgency = need / left
            if urgency >= 1:
                best = max(cards, key=lambda c: (win[c], -keep[c]))
            else:
                thr = self.thr0 - self.thr_slope * urgency
                good = [c for c in cards if win[c] >= thr]
                if good:
                    best = min(good, key=lambda c: (keep[c], -win[c]))
                elif leader:
                    # nothing strong to lead: lead the best chance unless it is precious
                    best = max(cards, key=lambda c: win[c] - 0.5 * keep[c])
                else:
                    best = min(cards, key=lambda c: (keep[c], RANK[c]))  # throw the least useful card
        else:
            # duck: least chance to win; among safe cards dump the most dangerous; keep Jesters for later.
            def duck(c: str) -> float:
                return win[c] - 0.05 * keep[c] - 0.003 * RANK[c] + (0.08 if c in JES_SET else 0.0)

            best = min(cards, key=duck)
        return best


def _blind_win_fraction(view: dict[str, Any], trump: str | None) -> float:
    """first_round_blind: the exact chance that my unknown card wins the single trick, given the others."""
    seat, n = view["seat"], view["num_seats"]
    fore = view["foreheads"] or [None] * n
    known = {c for c in fore if c}
    if view["indicator"]:
        known.add(view["indicator"])
    known.update(c for _, c in view["trick"]["plays"])
    unseen = [c for c in WIZARD_60 if c not in known]
    if not unseen:
        return 0.0
    played = {s: c for s, c in view["trick"]["plays"]}
    leader = view["trick"]["leader"]
    order = [(leader + i) % n for i in range(n)]
    wins = 0
    for mine in unseen:
        plays = []
        for s in order:
            c = mine if s == seat else played.get(s) or fore[s]
            if c is None:
                break
            plays.append((s, c))
        else:
            if trick_winner(plays, trump) == seat:
                wins += 1
    return wins / len(unseen)


def _power(card: str, trump: str | None, lead: str | None) -> int:
    if card in WIZ_SET:
        return 100
    if card in JES_SET:
        return 0
    if SUIT[card] == trump:
        return 50 + RANK[card]
    if SUIT[card] == lead:
        return 25 + RANK[card]
    return RANK[card]


class EasyWizardAgent:
    """Greedy: bid Wizards + Aces; play the highest card while short of the bid, else the lowest."""

    level = "easy"

    def sim_choose(self, game: Game, seat: int, rng: random.Random) -> Move:
        """:meth:`choose` as a move of ``game.sim_legal(seat)``."""
        assert isinstance(game, WizardGame)
        if game.phase != "play":
            return game.sim_move(self.choose(game, seat, rng))
        cards: list[str] = game.sim_legal(seat)
        if not cards:
            raise ValueError(f"seat {seat} has no legal action")
        if len(cards) == 1:
            return cards[0]
        view = game.card_play_view(seat)
        need = (view["bids"][seat] or 0) - view["tricks"][seat]
        trump, lead = view["trump"], view["lead_suit"]
        pick = max if need > 0 else min
        return pick(cards, key=lambda c: _power(c, trump, lead))

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        assert isinstance(game, WizardGame)
        if game.phase == "play":
            return game.sim_action(self.sim_choose(game, seat, rng))
        actions = _not_undo(game.legal_actions(seat))
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        view = game.view(seat)
        kind = actions[0]["type"]
        hand = view["hand"]
        if kind == "trump":
            return max(actions, key=lambda a: sum(1 for c in hand if SUIT[c] == a["suit"]))
        strong = sum(1 for c in hand if c in WIZ_SET or RANK[c] == 14)
        return _nearest_bid(actions, strong)

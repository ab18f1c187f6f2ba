"""Wizard's adapter for the strong level: ISMCTS card play with cheap rollouts, the round score as reward."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.ai.base import Agent
from bot.ai.ismcts import ActionKey, SearchSpec, action_key
from bot.ai.strong import Budget, DeclarationPlan, GameSearch, StrongAgent
from bot.engine.cards import WIZARD_60
from bot.engine.protocol import Action, Game, Move

from .ai import BIAS, SHARE, SHARE_FROM, SHARE_RAMP, WizardAgent, _Ctx
from .engine import RANK, SUIT, WizardGame, trick_winner


def hit_reward(root: Game, state: Game) -> list[float]:
    """1 for every seat that took exactly its bid in the round played out (its score rose: a hit scores at least
    +20, a miss at most -10), else 0."""
    before = root.totals  # type: ignore[attr-defined]
    after = state.totals  # type: ignore[attr-defined]
    return [1.0 if a > b else 0.0 for a, b in zip(after, before, strict=True)]


class RoundReward:
    """Wizard: the round score of every seat, from the public totals before and after the round.

    The totals are read from the engine (``totals``, the same list as ``public_view()["totals"]``), which is cheap,
    so nothing is cached: the earlier cache keyed by ``(id(root), settlements)`` could return a previous root's
    totals, since a freed root's ``id`` is reused and Wizard books its one settlement at the end of the game
    (within a game every key looked alike, so later rounds were scored against stale totals)."""

    def __call__(self, root: Game, state: Game) -> Sequence[float]:
        before = root.totals  # type: ignore[attr-defined]
        after = state.totals  # type: ignore[attr-defined]
        return [0.5 + 0.5 * math.tanh((a - b) / 30.0) for a, b in zip(after, before, strict=True)]


def action_identity(action: Action) -> ActionKey:
    """The four Wizards (and the four Jesters) are interchangeable: one edge for all of them."""
    card = action.get("card")
    if isinstance(card, str) and (card.startswith("WIZ") or card.startswith("JES")):
        return ("play", card[:3])
    return action_key(action)


def move_identity(move: Move) -> ActionKey:
    """:func:`action_identity` of a compact move (the same classes: one key for the four Wizards, one for the
    four Jesters)."""
    if type(move) is str:
        return ("play", move[:3]) if move.startswith(("WIZ", "JES")) else move
    return action_key(move)


def trick_aware_card(game: WizardGame, seat: int, cards: Sequence[str]) -> str:
    """The trick-aware rollout choice among ``cards`` (legal card ids, at least one) for ``seat``:

    * short of its bid: the cheapest card that wins the trick as it stands; leading, its strongest card; if no
      card wins, its weakest (a card that cannot win is best spent as a small one);
    * bid already made: the highest card that still loses the trick (keeping the low ones for later ducks); if
      none loses (or it leads), its weakest.

    "Cheap", "strong" and "weak" go by one yardstick: Jester, plain suits, the led suit, trumps, Wizard. A seat
    without a bid yet (not in a card-play rollout) gets its first card. It reads only public facts of the
    determinized state (bids, tricks won, trump, led suit, the trick's plays), as the cheap rollout must."""
    bid = game.bids[seat]
    if bid is None:
        return cards[0]
    trump, lead = game.trump_suit, game.lead_suit

    def value(c: str) -> int:
        r = RANK[c]
        if r in (0, 15):
            return r * 7  # Jester 0, Wizard 105
        suit = SUIT[c]
        return r + (50 if suit == trump else 25 if suit == lead else 0)

    plays = game.trick_plays
    short = game.tricks_won[seat] < bid
    if not plays:
        return max(cards, key=value) if short else min(cards, key=value)
    wins = [c for c in cards if trick_winner([*plays, (seat, c)], trump) == seat]
    if short:
        return min(wins, key=value) if wins else min(cards, key=value)
    loses = [c for c in cards if c not in wins]
    return max(loses, key=value) if loses else min(cards, key=value)


def sim_rollout_policy(game: Game, seat: int, moves: list[Move], rng: random.Random) -> Move:
    """:func:`rollout_policy` over compact moves (card ids; bids stay actions): the same choices, the same
    random draws."""
    if type(moves[0]) is not str or rng.random() < EPSILON:
        return rng.choice(moves)
    assert isinstance(game, WizardGame)
    return trick_aware_card(game, seat, moves)  # type: ignore[arg-type]


def rollout_policy(game: Game, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """Cheap trick-aware Wizard rollout (:func:`trick_aware_card`); ``EPSILON`` of the moves are random. It reads
    the bids, tricks, trump and trick of the *determinized* state directly (the engine's public ``bids``,
    ``tricks_won``, ``trump_suit``, ``lead_suit``, ``trick_plays``) because building a view per rollout move would
    cost more than the whole rollout; these are public facts."""
    if actions[0]["type"] != "play" or rng.random() < EPSILON:
        return rng.choice(actions)
    assert isinstance(game, WizardGame)
    card = trick_aware_card(game, seat, [a["card"] for a in actions])
    return next(a for a in actions if a["card"] == card)


#: share of random rollout moves (0.1 with the trick-aware policy and 300 iterations, against 0.2 and 200 before;
#: 0.05 and 0 were tried by an earlier attempt and dropped)
EPSILON = 0.1


def bid_time_values(n: int, r: int, trump: str | None, indicator: str | None, leader: bool) -> dict[str, float]:
    """What each card is worth to a bidder by the ``normal`` heuristic's yardstick (its chance of taking a
    trick), seen from a hand not yet known: every card but the indicator unseen, an average suit length."""
    view: dict[str, Any] = {
        "seat": 0,
        "num_seats": n,
        "hand_size": r,
        "trump": trump,
        "hand": [],
        "round_tricks": [],
        "trick": {"plays": []},
        "indicator": indicator,
        "foreheads": None,
        "hand_counts": [0] + [r] * (n - 1),
    }
    ctx = _Ctx(view)
    length = max(1.0, r * 13 / 60)
    return {c: ctx._value(c, ctx.higher_unseen(c), length, leader) for c in WIZARD_60 if c != indicator}


class BidYardstick:
    """The ``normal`` heuristic's bid by its bid-time yardstick (:func:`bid_time_values`) in one round: the hand's
    card values summed plus, in long rounds, its share of the tricks the table's values leave unclaimed, as
    ``estimate_tricks`` reckons - a sum instead of a whole view, for the many hands a search reads."""

    def __init__(self, n: int, r: int, indicator: str | None) -> None:
        self.n, self.r, self.indicator = n, r, indicator
        self.f = min(1.0, (n - 1) * r / max(1, 59 - r))
        self.share = SHARE * min(1.0, max(0.0, (r - SHARE_FROM) / SHARE_RAMP))
        self._tables: dict[tuple[str | None, bool], tuple[dict[str, float], float]] = {}

    def values(self, trump: str | None, leader: bool) -> tuple[dict[str, float], float]:
        """Every card's value under ``trump`` (for the first trick's leader or not) and their sum."""
        key = (trump, leader)
        if key not in self._tables:
            vals = bid_time_values(self.n, self.r, trump, self.indicator, leader)
            self._tables[key] = vals, sum(vals.values())
        return self._tables[key]

    def bid(self, est: float, total: float) -> float:
        """The bid for a hand worth ``est`` when all the cards are worth ``total``."""
        return max(0.0, est + self.share * (self.r - est - self.f * (total - est)) / self.n - BIAS)


#: a seat whose bids missed its tricks by at least this much on average, over at least ``ERRATIC_ROUNDS`` rounds of
#: two cards or more, is read as erratic: its bids say nothing of its cards, its play is no heuristic's (a random
#: seat, or a player who does not try to hit). Over 120 seats of whole games (15 rounds, 4 seats): 7% of ``normal``
#: seats flagged after 4 such rounds and 2% after 12; 83% of random seats after 4 and all after 12
ERRATIC_MISS = 1.0
ERRATIC_ROUNDS = 4


def erratic_seats(game: WizardGame, seat: int) -> frozenset[int]:
    """The other seats whose earlier bids missed by ``ERRATIC_MISS`` tricks on average (public score sheet)."""
    out = set()
    for s in range(len(game.tricks_won)):
        if s == seat:
            continue
        misses = [m for r, m in game.bid_misses(s) if r >= 2]
        if len(misses) >= ERRATIC_ROUNDS and sum(misses) >= ERRATIC_MISS * len(misses):
            out.add(s)
    return frozenset(out)


class BidInference:
    """Deals weighted by the bids made: a seat that bid 3 of 3 more likely holds Wizards than one that bid 0.

    Prepared once per search (``SearchSpec.sampler``): each sample draws ``tries`` uniform deals
    (``determinize``, so voids and every card seen are respected) and keeps one with probability proportional to
    how well it explains the public bids: ``exp(-(bid - estimate)^2 / (2 sigma^2))`` per opponent, where the
    estimate is the ``normal`` heuristic's trick count for that seat's hand when it bid (its cards now plus those
    it played this round). A soft weight, since a human does not bid like the heuristic; an erratic seat
    (:func:`erratic_seats`) is not read at all."""

    def __init__(self, tries: int = 4, sigma: float = 1.0) -> None:
        self.tries = tries
        self.sigma = sigma

    def __call__(self, root: Game, seat: int) -> Callable[[random.Random], Game]:
        assert isinstance(root, WizardGame)
        view = root.card_play_view(seat)
        n, r = view["num_seats"], view["hand_size"]

        def uniform(rng: random.Random) -> Game:
            return root.determinize(seat, rng)

        bids: list[int | None] = view["bids"]
        erratic = erratic_seats(root, seat)
        opps = [s for s in range(n) if s != seat and bids[s] is not None and s not in erratic]
        if self.tries <= 1 or view["hand_hidden"] or not opps:
            return uniform
        first_leader = (root.view(seat)["dealer"] + 1) % n if r <= 2 else -1
        yard = BidYardstick(n, r, view["indicator"])
        tables = {lead: yard.values(view["trump"], lead)[0] for lead in {False, first_leader >= 0}}
        total_v = yard.values(view["trump"], False)[1]
        played: dict[int, list[str]] = {s: [] for s in opps}
        for t in view["round_tricks"]:
            for s, c in t["plays"]:
                if s in played:
                    played[s].append(c)
        for s, c in view["trick"]["plays"]:
            if s in played:
                played[s].append(c)
        inv = 1.0 / (2 * self.sigma * self.sigma)
        tries = self.tries

        def log_weight(state: WizardGame) -> float:
            lw = 0.0
            for s in opps:
                vals = tables[s == first_leader]
                est = sum(vals.get(c, 0.0) for c in state.search_hand(s)) + sum(vals.get(c, 0.0) for c in played[s])
                e = yard.bid(est, total_v)
                lw -= (bids[s] - e) ** 2 * inv  # type: ignore[operator]
            return lw

        def sample(rng: random.Random) -> Game:
            states = [root.determinize(seat, rng) for _ in range(tries)]
            lws = [log_weight(st) for st in states]  # type: ignore[arg-type]
            top = max(lws)
            ws = [math.exp(lw - top) for lw in lws]
            x = rng.random() * sum(ws)
            for st, w in zip(states, ws, strict=True):
                x -= w
                if x <= 0:
                    return st
            return states[-1]

        return sample


class BidPlayout:
    """Who plays the playouts that weigh a bid (``StrongAgent`` simulates each candidate bid over sampled deals):

    * the bidding seat plays its cards as the card-play search's rollouts do (:func:`sim_rollout_policy`,
      trick-aware): the strong level steers its tricks towards its bid far better than the heuristic, so a bid
      weighed with the heuristic's card play undervalues the bids that need steering;
    * the other seats play their cards as the ``normal`` heuristic (``base``) does: with the cheap trick-aware
      policy at those seats too, the chosen bids hit 80.8% and scored +25.8 points per round on the tuning table
      of ``bench/wizard_bids.py`` (seed 11), against 82.8% and +27.8 with the heuristic there;
    * a seat still to bid after the searching one bids its hand's worth by the heuristic's yardstick
      (:class:`BidYardstick`, as :class:`BidInference` reads the bids), a sum instead of a whole view per bid,
      so that a bid affords 17 to 128 sampled deals per candidate;
    * an erratic seat (:func:`erratic_seats`: its bids have missed widely) bids and plays at random: weighed
      against heuristic play, bids against random seats scored 40 +- 18 points per game less than before."""

    def __init__(self, root: WizardGame, seat: int, base: Agent) -> None:
        view = root.view(seat)
        self.seat = seat
        self.base = base
        self.r = view["hand_size"]
        self.first_leader = (view["dealer"] + 1) % view["num_seats"]
        self.yard = BidYardstick(view["num_seats"], self.r, view["indicator"])
        self.erratic = erratic_seats(root, seat)

    def bid_estimate(self, state: WizardGame, seat: int) -> float:
        """The heuristic's trick estimate for ``seat``'s sampled hand, by the bid-time yardstick."""
        vals, total = self.yard.values(state.trump_suit, seat == self.first_leader and self.r <= 2)
        return self.yard.bid(sum(vals.get(c, 0.0) for c in state.search_hand(seat)), total)

    def sim_choose(self, game: Game, seat: int, rng: random.Random) -> Move:
        assert isinstance(game, WizardGame)
        moves = game.sim_legal(seat)
        if len(moves) == 1:
            return moves[0]
        if seat in self.erratic:
            return rng.choice(moves)
        if type(moves[0]) is not str:
            if moves[0]["type"] == "bid":
                target = self.bid_estimate(game, seat)
                return min(moves, key=lambda a: (abs(a["n"] - target), a["n"]))
            return self.base.sim_choose(game, seat, rng)  # type: ignore[attr-defined]
        if seat == self.seat:
            return sim_rollout_policy(game, seat, moves, rng)
        return self.base.sim_choose(game, seat, rng)  # type: ignore[attr-defined]

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        assert isinstance(game, WizardGame)
        return game.sim_action(self.sim_choose(game, seat, rng))


#: simulated bids (:class:`BidPlayout`): sampled deals per candidate are about ``BID_WORK / (candidates x hand
#: size)`` (a playout's cost grows with the hand), at least ``BID_MIN_SAMPLES``, at most the budget's
#: ``declare_samples``; with 5 candidates that is 128 deals up to 2 cards, 32 at 8 cards, 17 at 15
BID_WORK = 1280
BID_MIN_SAMPLES = 12
#: a simulated bid replaces the heuristic's only if it hits more often by this share of the sampled deals
BID_MARGIN = 0.1
#: the trump named after a turned Wizard is weighed by the heuristic's playouts at every seat (its own bids
#: included): this many deals, fewer in long rounds
TRUMP_SAMPLES = 8


class WizardSearch(GameSearch):
    budget = Budget(play=300, agent_rollouts=False, declare_samples=128)
    #: deals drawn per sample by :class:`BidInference` (1: uniform deals); 4 measured +5.7 points per round
    #: against uniform deals (40 duplicate deals of every hand size, 4 rotations, strong against 3 normal seats)
    inference_tries = 4
    #: the heuristic's bid and the bids up to 2 away from it
    max_candidates = 5

    def search_spec(self, base: Agent, budget: Budget) -> SearchSpec:
        return SearchSpec(
            sampler=BidInference(self.inference_tries) if self.inference_tries > 1 else None,
            reward=RoundReward(),
            key=action_identity,
            policy=rollout_policy,
            sim_key=move_identity,
            sim_policy=sim_rollout_policy,
        )

    def candidates(self, actions: list[Action], base_choice: Action, view: dict[str, Any] | None) -> list[Action]:
        kind = base_choice["type"]
        if kind == "bid":
            near = [a for a in actions if a["type"] == "bid" and 1 <= abs(a["n"] - base_choice["n"]) <= 2]
            return sorted(near, key=lambda a: (abs(a["n"] - base_choice["n"]), a["n"]))
        if kind == "trump":
            return [a for a in actions if a["type"] == "trump"]
        return []

    def declaration_plan(
        self, game: Game, seat: int, candidates: list[Action], base: Agent, spec: SearchSpec, budget: Budget
    ) -> DeclarationPlan:
        assert isinstance(game, WizardGame)
        cards = max(1, len(game.view(seat)["hand"]))
        if candidates[0]["type"] != "bid":
            # the trump: a heuristic playout costs about one heuristic decision per card left (under ~0.25 s)
            return DeclarationPlan(max(3, min(TRUMP_SAMPLES, 64 // cards)), base, spec, budget.margin)
        samples = max(BID_MIN_SAMPLES, min(budget.declare_samples, BID_WORK // (len(candidates) * cards)))
        return DeclarationPlan(samples, BidPlayout(game, seat, base), replace(spec, reward=hit_reward), BID_MARGIN)


SEARCH = WizardSearch()


def strong_agent() -> Agent:
    """Searched play and declarations over the ``normal`` heuristic (see :mod:`bot.ai.strong`)."""
    return StrongAgent(SEARCH, WizardAgent())

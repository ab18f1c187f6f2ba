"""The ``strong`` computer players: searched card play and simulated declarations over the heuristics.

Card play, per game (:data:`BUDGETS`):

* Wizard: ISMCTS (:func:`~bot.ai.ismcts.ismcts`) with cheap "take tricks while short of the bid" rollouts;
* Mediatore, Mighty, Minchiate: every legal card is played out on the same sampled deals (common random
  numbers) by the heuristic ``normal`` agent at every seat, and the best mean wins ("flat" mode: a one-step
  policy improvement of the heuristic). ISMCTS with heuristic rollouts works for them too (``play_mode``),
  but at the budgets the speed target allows it measured weaker on duplicate deals (Mediatore, 40 deals vs
  ``normal``: +0.82 +- 1.10 stake/hand for ISMCTS, +1.25 +- 0.91 for flat; contracts made 80% vs 90%).
  Minchiate, with up to 21 legal cards, spends the same kind of playouts by sequential halving
  (:func:`halving_choice`): most of them go to the few most promising cards. (Playouts cut 5 tricks after the
  decision and scored by the standing then - twice as many for the time - measured clearly weaker: -96 +- 47
  points/deal over 16 duplicate deals against whole-deal playouts.)

Declarations are pruned to a few candidates by the heuristic agent, its own choice first, then simulated
over sampled deals (:func:`simulate_choice`): Wizard bid (heuristic +-1) and trump after a turned Wizard;
Mediatore auction (the heuristic's call or pass / the cheapest contract); Mighty auction (a veto: bid or
pass). Combinatorial declarations (``Budget.declare_kinds``) are first pruned by the heuristic's own hand
evaluator (its keep values) to at most :data:`COMBO_CANDIDATES`: Mighty 3 discards out of 13 (sets drawn
from the 6 least valuable cards), trump change (keep / the heuristic's / the best other trump) and friend
call (the first cards of the heuristic's wish list, the first-trick friend); Mediatore called card (the
same rank in other suits, the next rank) and monte exchange (sets drawn from the 6-7 least valuable cards);
Minchiate discards (made one card at a time: the cheapest discardable card of each suit, since what differs
is which suit goes void) and declarations (declare everything, or nothing and keep the hand hidden).

Endgame (``Budget.endgame_tricks``, :mod:`bot.ai.endgame`): once the sides are public and every hand holds
at most that many cards, each sampled deal is solved exactly to the end of the hand instead of played out
(minimax with alpha-beta pruning between the two sides).

Rewards are per seat in ``0..1`` and come only from the *current* hand (a rollout stops when it ends):
* Mediatore / Mighty: the seat's stake for the hand, mostly its sign (a won hand is what counts), a little
  of its size;
* Minchiate: the deal's result in resti for the seat's team (its sign) and its whole point difference;
* Wizard: the seat's score for the round (read from the public ``totals`` before and after).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai.base import Agent
from bot.ai.endgame import cards_left, endgame_choice, sides_known
from bot.ai.ismcts import ActionKey, SearchSpec, action_key, ismcts, searchable
from bot.engine.protocol import Action, Game
from bot.games.wizard import RANK as WIZ_RANK
from bot.games.wizard import SUIT as WIZ_SUIT

# -- rewards ----------------------------------------------------------------------------------------------


def _new_settlement_amounts(root: Game, state: Game) -> Any:
    settled = state.settlements()
    i = len(root.settlements())
    return settled[i] if len(settled) > i else None


def _squash(x: float, scale: float, sign_weight: float) -> float:
    """Map a signed result to 0..1: ``sign_weight`` of the range for winning/losing, the rest for the size."""
    sign = (x > 0) - (x < 0)
    return 0.5 + 0.5 * sign_weight * sign + 0.5 * (1 - sign_weight) * math.tanh(x / scale)


def stake_reward(root: Game, state: Game) -> Sequence[float]:
    """Mediatore / Mighty: the hand's stake per seat (scaled by the table's stake unit)."""
    n = state.num_seats
    st = _new_settlement_amounts(root, state)
    if st is None:
        return [0.5] * n  # thrown-in hand (misdeal) or the game ended otherwise: nobody gained
    amounts = st.amounts.get("stake") or (0,) * n
    unit = max(1, int(root.options.get("stake", 1)))  # type: ignore[attr-defined]
    return [_squash(a / unit, 6.0, 0.7) for a in amounts]


def minchiate_reward(root: Game, state: Game) -> Sequence[float]:
    """Minchiate: half for the deal's result in resti (who wins it), half for its whole point difference.

    The points are the deal's total (``points_diff``: resti converted during play count 60 points each), not
    the residual ``final_diff`` left after those conversions, which would hide every converted resto."""
    st = _new_settlement_amounts(root, state)
    if st is None:
        return [0.5] * 4
    net_a = int(st.summary.get("net_A", 0))
    points = float(st.summary.get("points_diff", 0))
    sign = (net_a > 0) - (net_a < 0)
    a = 0.5 + 0.25 * sign + 0.25 * math.tanh(points / 90.0)
    return [a if s % 2 == 0 else 1.0 - a for s in range(4)]


class WizardRoundReward:
    """Wizard: the round score of every seat, from the public totals before and after the round.

    The root totals are cached per root state (one search reuses the same root). The key includes the number
    of rounds settled: a later root may reuse the ``id`` of a freed one, and the totals change only when a
    round is settled, so an equal key means equal totals."""

    def __init__(self) -> None:
        self._root_key: tuple[int, int] = (-1, -1)
        self._root_totals: list[int] = []

    def __call__(self, root: Game, state: Game) -> Sequence[float]:
        key = (id(root), len(root.settlements()))
        if key != self._root_key:
            self._root_totals = list(root.public_view()["totals"])
            self._root_key = key
        after = state.public_view()["totals"]
        return [0.5 + 0.5 * math.tanh((a - b) / 30.0) for a, b in zip(after, self._root_totals, strict=True)]

    def __getstate__(self) -> dict[str, Any]:
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]


# -- action identity ---------------------------------------------------------------------------------------


def wizard_key(action: Action) -> ActionKey:
    """The four Wizards (and the four Jesters) are interchangeable: one edge for all of them."""
    card = action.get("card")
    if isinstance(card, str) and (card.startswith("WIZ") or card.startswith("JES")):
        return ("play", card[:3])
    return action_key(action)


# -- rollout policies --------------------------------------------------------------------------------------


class AgentPolicy:
    """Rollouts by a heuristic agent for every seat, with some randomness (``epsilon`` of the moves are random
    legal ones) so that the samples cover the plausible lines, not only the heuristic's favourite one.

    The heuristic agents read only ``state.view(seat)``: in a determinized state that is the sampled deal as
    that seat would see it, so the rollout seats play on their own information, not on the full deal."""

    def __init__(self, agent: Agent, epsilon: float) -> None:
        self.agent = agent
        self.epsilon = epsilon

    def __call__(self, game: Game, seat: int, actions: list[Action], rng: random.Random) -> Action:
        if rng.random() < self.epsilon:
            return declaring_random_policy(game, seat, actions, rng)
        return self.agent.choose(game, seat, rng)


def wizard_policy(game: Game, seat: int, actions: list[Action], rng: random.Random) -> Action:
    """Cheap Wizard rollout: a seat short of its bid plays its strongest card, one that has it plays its
    weakest; ``WIZARD_EPSILON`` of the moves are random. It reads the bids, tricks and trump of the
    *determinized* state directly (the engine's attributes) because building a view per rollout move would
    cost more than the whole rollout; a sampled state holds no secret of the real game, so nothing leaks."""
    if actions[0]["type"] != "play" or rng.random() < WIZARD_EPSILON:
        return rng.choice(actions)
    bids = getattr(game, "_bids", None)
    tricks = getattr(game, "_tricks", None)
    if bids is None or tricks is None or bids[seat] is None:
        return rng.choice(actions)
    trump = getattr(game, "_trump", None)
    lead = getattr(game, "_lead", None)

    def value(a: Action) -> int:
        c: str = a["card"]
        r = WIZ_RANK[c]
        if r in (0, 15):
            return r * 7  # Jester 0, Wizard 105
        suit = WIZ_SUIT[c]
        return r + (50 if suit == trump else 25 if suit == lead else 0)

    if tricks[seat] < bids[seat]:
        return max(actions, key=value)
    return min(actions, key=value)


WIZARD_EPSILON = 0.2


def declaring_random_policy(game: Game, seat: int, actions: list[Action], rng: random.Random) -> Action:
    # declaring every combination is always right (the first action lists all of them)
    if actions[0]["type"] == "declare":
        return actions[0]
    return rng.choice(actions)


# -- the games ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Budget:
    """Deterministic effort of one decision (counted in iterations/samples, never seconds)."""

    #: ISMCTS iterations per card play
    play: int
    #: rollouts by the heuristic agent (with ``epsilon`` random moves) instead of random legal moves
    agent_rollouts: bool
    #: sampled deals per candidate of a searched declaration (0 = take the heuristic's declaration)
    declare_samples: int
    epsilon: float = 0.15
    #: a simulated declaration replaces the heuristic's only if its mean reward is higher by this much
    margin: float = 0.04
    #: card play: "ismcts" (tree search), "flat" (every legal card evaluated on the same sampled deals by
    #: heuristic playouts - a one-step policy improvement of the heuristic; ``play`` playouts in total) or
    #: "halving" (the same playouts allocated by sequential halving: most go to the most promising cards)
    play_mode: str = "ismcts"
    #: flat mode: a card replaces the heuristic's own only if its mean reward is higher by this much (with many
    #: legal cards each gets few samples, and the best of many noisy means is optimistic)
    play_margin: float = 0.0
    #: team games: once the sides are public and every hand holds at most this many cards, cards are compared
    #: by an exact (max-n) search of each sampled deal to the end of the hand (0 = off; see ``endgame.py``)
    endgame_tricks: int = 0
    #: sampled deals solved per endgame decision, and the node cap of one sample (above it: playouts)
    endgame_samples: int = 12
    endgame_nodes: int = 3000
    #: combinatorial declarations simulated over the evaluator's candidates (others: the heuristic's choice)
    declare_kinds: tuple[str, ...] = ()


#: iteration budgets of the strong level, chosen to meet the speed targets on one core (see README)
BUDGETS: dict[str, Budget] = {
    "wizard": Budget(play=200, agent_rollouts=False, declare_samples=8),
    "mediatore": Budget(play=120, agent_rollouts=True, declare_samples=24, margin=0.08, play_mode="flat"),
    "mighty": Budget(
        play=200,
        agent_rollouts=True,
        declare_samples=20,
        margin=0.08,
        play_mode="flat",
        endgame_tricks=3,
        endgame_nodes=2000,
        declare_kinds=("discard", "contract", "call"),
    ),
    "minchiate": Budget(
        play=150,
        agent_rollouts=True,
        declare_samples=12,
        play_mode="halving",
        play_margin=0.05,
        endgame_tricks=3,
        endgame_samples=8,
        declare_kinds=("discard", "declare"),
    ),
}


def search_spec(game_id: str, base: Agent, budget: Budget) -> SearchSpec:
    policy: Any = AgentPolicy(base, budget.epsilon) if budget.agent_rollouts else declaring_random_policy
    if game_id == "wizard":
        return SearchSpec(reward=WizardRoundReward(), key=wizard_key, policy=wizard_policy)
    if game_id == "minchiate":
        return SearchSpec(reward=minchiate_reward, policy=policy)
    return SearchSpec(reward=stake_reward, policy=policy)


# -- declarations by simulation ----------------------------------------------------------------------------


#: at most this many candidates for a combinatorial declaration (discards, monte exchange, called card)
COMBO_CANDIDATES = 4


def _lowest_combos(ranked: list[str], k: int, pool: int, value: Any) -> list[list[str]]:
    """``k``-card sets from the ``pool`` least valuable cards (``ranked`` is sorted by ``value``), the
    cheapest total value first: the hand evaluator's pruning before simulation."""
    low = ranked[:pool]
    combos = sorted(
        itertools.combinations(low, k), key=lambda cs: (sum(value(c) for c in cs), [ranked.index(c) for c in cs])
    )
    return [list(cs) for cs in combos[:COMBO_CANDIDATES]]


def _mighty_candidates(kind: str, actions: list[Action], base: Action, view: dict[str, Any]) -> list[Action]:
    from bot.ai import mighty as mh

    hand: list[str] = view["hand"]
    if kind == "discard":
        trump = view["bid"]["trump"]
        keep = {c: mh._discard_keep_value(c, hand, trump) for c in hand}
        ranked = sorted(hand, key=lambda c: keep[c])
        return [
            {"type": "discard", "cards": [c for c in hand if c in drop]}
            for drop in _lowest_combos(ranked, 3, 6, keep.__getitem__)
        ]
    if kind == "contract":
        n0, t0 = view["bid"]["n"], view["bid"]["trump"]
        out: list[Action] = [{"type": "contract", "n": n0, "trump": t0}]
        by_trump: dict[str, Action] = {}
        for a in actions:
            if a["trump"] != t0 and (a["trump"] not in by_trump or a["n"] < by_trump[a["trump"]]["n"]):
                by_trump[a["trump"]] = a
        if by_trump:
            out.append(max(by_trump.values(), key=lambda a: (mh.estimate_points(hand, a["trump"]) - a["n"], -a["n"])))
        return out
    if kind == "call":
        mine = set(hand) | set(view.get("discards") or [])
        trump = view["contract"]["trump"]
        wanted = [mh.mighty_of(trump), mh.JOKER]
        suits = ([trump] if trump != "NT" else []) + [s for s in mh.SUITS if s != trump]
        wanted += [r + s for s in suits for r in "AKQ"]
        out = [{"type": "call", "kind": "card", "card": c} for c in wanted if c not in mine][:3]
        if {"type": "call", "kind": "first_trick"} in actions:
            out.append({"type": "call", "kind": "first_trick"})
        return out
    return []


def _mediatore_candidates(kind: str, base: Action, view: dict[str, Any]) -> list[Action]:
    from bot.ai import mediatore as md

    hand: list[str] = view["hand"]
    if kind == "call":
        called: str = base["card"]
        same_rank = [called[0] + s for s in "DCSB" if called[0] + s not in hand and called[0] + s != called]
        nxt = md.RANKS_HIGH_FIRST.index(called[0]) + 1
        lower = [md.RANKS_HIGH_FIRST[nxt] + called[1]] if nxt < len(md.RANKS_HIGH_FIRST) else []
        cands = [c for c in [*same_rank, *lower] if c not in hand]
        return [{"type": "call", "card": c} for c in cands[: COMBO_CANDIDATES - 1]]
    if kind == "discard":
        suits = md._by_suit(hand)
        keep = {c: md._keep_value(c, suits) for c in hand}
        ranked = sorted(hand, key=lambda c: (keep[c], c))
        if "give" not in base:
            return [
                {"type": "discard", "discard": [c for c in hand if c in d]}
                for d in _lowest_combos(ranked, 4, 6, keep.__getitem__)
            ]
        out: list[Action] = []
        for five in _lowest_combos(ranked, 5, 7, keep.__getitem__):
            g = min(five, key=lambda c: (md.THIRDS[c[0]], md.STRENGTH[c[0]], c))
            out.append({"type": "discard", "discard": [c for c in hand if c in five and c != g], "give": g})
        return out
    return []


def _minchiate_candidates(kind: str, actions: list[Action], base: Action, view: dict[str, Any]) -> list[Action]:
    from bot.ai import minchiate as mc

    if kind == "discard":
        # one card at a time (the engine's form): the cheapest discardable card of each other suit, because
        # what a discard changes is which suit goes void (ruffing) and which combinations stay in hand
        cards = [a["cards"][0] for a in actions]
        hand: list[str] = view["hand"]
        best_of_suit: dict[str, str] = {}  # filled cheapest first, so its values stay in that order
        for c in sorted(cards, key=lambda c: mc._discard_key(c, hand)):
            best_of_suit.setdefault(mc.SUIT[c], c)
        return [{"type": "discard", "cards": [c]} for c in best_of_suit.values()]
    if kind == "declare" and base.get("combos"):
        # declaring scores now but shows the cards: against keeping them hidden
        return [{"type": "declare", "combos": []}]
    return []


def declaration_candidates(
    game_id: str, actions: list[Action], base_choice: Action, view: dict[str, Any] | None = None
) -> list[Action]:
    """The declarations worth simulating, the heuristic's own choice first (it wins ties). An empty list
    means "take the heuristic's choice" (a forced choice). Combinatorial choices (Mighty discards, trump
    change and friend call; Mediatore called card and monte exchange) are pruned by the heuristic's own hand
    evaluator to a few candidates (``view``: the deciding seat's view, needed for them)."""
    kind = base_choice["type"]
    out: list[Action] = [base_choice]
    if game_id == "wizard":
        if kind == "bid":
            near = [a for a in actions if a["type"] == "bid" and abs(a["n"] - base_choice["n"]) == 1]
            out += near
        elif kind == "trump":
            out += [a for a in actions if a["type"] == "trump"]
    elif game_id in ("mediatore", "mighty") and kind in ("pass", "bid"):
        # Auction: only "the heuristic's call or the other option" (bid <-> pass). With a handful of sampled
        # deals, picking the best of many noisy candidates overbids (the winner's curse), and measured worse.
        if kind == "bid":
            out += [a for a in actions if a["type"] == "pass"]
        elif game_id == "mediatore":
            out += [a for a in actions if a["type"] == "bid"][:1]  # the cheapest contract still open
    elif game_id == "mighty" and view is not None and kind in DECLARE_KINDS["mighty"]:
        out += _mighty_candidates(kind, actions, base_choice, view)
    elif game_id == "mediatore" and view is not None and kind in DECLARE_KINDS["mediatore"]:
        out += _mediatore_candidates(kind, base_choice, view)
    elif game_id == "minchiate" and view is not None and kind in DECLARE_KINDS["minchiate"]:
        out += _minchiate_candidates(kind, actions, base_choice, view)
    unique: list[Action] = []
    for a in out:
        if a not in unique and _same_declaration(a, unique):
            unique.append(a)
    return unique[: max(2, COMBO_CANDIDATES)] if len(unique) > 1 else []


#: the combinatorial declarations simulated per game (the ``declare_kinds`` budget can switch them off)
#: (Mediatore's are off in its budget: simulated, its called card and monte exchange measured worse than the
#: heuristic's own - 200 duplicate deals: -0.88 +- 0.85 stake/hand, contracts made 66% against 76%.)
DECLARE_KINDS: dict[str, tuple[str, ...]] = {
    "mighty": ("discard", "contract", "call"),
    "mediatore": ("call", "discard"),
    "minchiate": ("discard", "declare"),
}


def _same_declaration(a: Action, seen: list[Action]) -> bool:
    """True if ``a`` is new: card lists compare as sets (the heuristic's order may differ)."""

    def norm(x: Action) -> Any:
        return tuple(sorted((k, tuple(sorted(v)) if isinstance(v, list) else v) for k, v in x.items()))

    return all(norm(a) != norm(b) for b in seen)


def _playout(game: Game, det: Game, seat: int, first: Action, spec: SearchSpec, agent: Agent, seed: int) -> float:
    """``seat``'s reward when it plays ``first`` on the sampled deal ``det`` and ``agent`` plays every seat to
    the end of the hand (its randomness seeded by ``seed``, so candidates meet the same playout luck)."""
    state = det.clone()
    state.apply(seat, first)
    prng = random.Random(seed)
    steps = 0
    while steps < spec.max_rollout_steps and not spec.hand_over(game, state):
        movers = state.to_move()
        if not movers:
            break
        mover = movers[0]
        state.apply(mover, agent.choose(state, mover, prng))
        steps += 1
    return spec.reward(game, state)[seat]


def halving_choice(
    game: Game,
    seat: int,
    rng: random.Random,
    candidates: list[Action],
    spec: SearchSpec,
    playout_agent: Agent,
    budget: int,
    margin: float = 0.0,
) -> tuple[Action, list[float]]:
    """Sequential halving (Karnin, Koren and Somekh 2013) over the candidates: the playout budget is split
    into ``ceil(log2(k))`` rounds; each round plays every surviving candidate out on the same fresh sampled
    deals and keeps the better half. The final few candidates get most of the samples, so with many legal
    cards the best one is found with far fewer playouts than sampling all of them equally. Survivors have
    always met exactly the same deals (common random numbers). The heuristic's own choice (index 0) keeps a
    ``margin`` bonus against the winner's curse."""
    k = len(candidates)
    alive = list(range(k))
    totals = [0.0] * k
    counts = [0] * k
    rounds = max(1, math.ceil(math.log2(k)))
    per_round = max(1, budget // rounds)
    while True:
        n = max(2, per_round // len(alive))
        for _ in range(n):
            det = game.determinize(seat, rng)
            seed = rng.getrandbits(64)
            for j in alive:
                totals[j] += _playout(game, det, seat, candidates[j], spec, playout_agent, seed)
                counts[j] += 1

        def score(j: int) -> tuple[float, int]:
            return (totals[j] / counts[j] + (margin if j == 0 else 0.0), -j)

        alive.sort(key=score, reverse=True)
        if len(alive) <= 2:
            break
        alive = alive[: math.ceil(len(alive) / 2)]
    means = [totals[j] / counts[j] if counts[j] else 0.0 for j in range(k)]
    return candidates[alive[0]], means


def simulate_choice(
    game: Game,
    seat: int,
    rng: random.Random,
    candidates: list[Action],
    spec: SearchSpec,
    playout_agent: Agent,
    samples: int,
    margin: float = 0.0,
) -> tuple[Action, list[float]]:
    """The candidate with the best mean reward for ``seat`` over ``samples`` sampled deals, each candidate
    played out to the end of the hand by ``playout_agent`` at every seat. Every candidate meets the same
    deals and the same playout randomness (common random numbers), so the comparison is much less noisy
    than independent samples would be."""
    totals = [0.0] * len(candidates)
    for _ in range(samples):
        det = game.determinize(seat, rng)
        seed = rng.getrandbits(64)
        for j, cand in enumerate(candidates):
            totals[j] += _playout(game, det, seat, cand, spec, playout_agent, seed)
    means = [t / max(1, samples) for t in totals]
    # The best of several noisy means is optimistic (winner's curse): leave the heuristic's choice (index 0)
    # only for a clear gain.
    best = max(range(len(candidates)), key=lambda j: (means[j] - (0 if j == 0 else margin), -j))
    return candidates[best], means


class StrongAgent:
    """ISMCTS card play; declarations simulated over the heuristic's candidates (or the heuristic's own)."""

    level = "strong"

    def __init__(
        self,
        game_id: str,
        base: Agent,
        budget: Budget | None = None,
        prune: Callable[[Game, int, list[Action]], list[Action]] | None = None,
    ) -> None:
        self.game_id = game_id
        self.base = base
        self.budget = budget or BUDGETS[game_id]
        #: card play: drops cards interchangeable with another candidate (a module-level function, so that the
        #: agent pickles into the worker processes)
        self.prune = prune
        self._spec: SearchSpec | None = None

    @property
    def spec(self) -> SearchSpec:
        if self._spec is None:
            self._spec = search_spec(self.game_id, self.base, self.budget)
        return self._spec

    def _playout_agent(self) -> Agent:
        return self.base

    def __getstate__(self) -> dict[str, Any]:
        # the spec is rebuilt in the worker process (it holds caches)
        return {"game_id": self.game_id, "base": self.base, "budget": self.budget, "prune": self.prune}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.game_id = state["game_id"]
        self.base = state["base"]
        self.budget = state["budget"]
        self.prune = state.get("prune")
        self._spec = None

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        actions = searchable(game.legal_actions(seat))
        if not actions:
            raise ValueError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]  # forced: instant
        if actions[0]["type"] == "play":
            b = self.budget
            if b.endgame_tricks and cards_left(game, seat) <= b.endgame_tricks and sides_known(self.game_id, game):
                first = self.base.choose(game, seat, rng)
                ordered = [first, *(a for a in actions if a != first)]
                solved = endgame_choice(
                    game, seat, rng, ordered, self.spec, b.endgame_samples, b.endgame_nodes, self.game_id
                )
                if solved is not None:
                    return solved[0]
            mode = b.play_mode
            # the heuristic's own card (only where it is used: the rng stream of the others stays as measured)
            if self.prune is not None or mode == "halving" or (mode == "flat" and b.play_margin > 0):
                first = self.base.choose(game, seat, rng)
            if self.prune is not None:
                # the heuristic's own card stays (its class is then represented by it)
                kept = self.prune(game, seat, actions)
                actions = [a for a in actions if a in kept or a == first]
                if len(actions) == 1:
                    return actions[0]
            if mode == "halving":
                cands = [first, *(a for a in actions if a != first)]
                best, _ = halving_choice(
                    game, seat, rng, cands, self.spec, self._playout_agent(), b.play, b.play_margin
                )
                return best
            if mode == "flat":
                samples = max(3, b.play // len(actions))
                cands = actions
                if b.play_margin > 0:
                    cands = [first, *(a for a in actions if a != first)]
                best, _ = simulate_choice(
                    game, seat, rng, cands, self.spec, self._playout_agent(), samples, b.play_margin
                )
                return best
            return ismcts(game, seat, rng, self.spec, self.budget.play).action
        base_choice = self.base.choose(game, seat, rng)
        samples = self.budget.declare_samples
        if self.game_id == "wizard":
            # a playout costs about one heuristic decision per card left: keep bids under ~0.25 s
            samples = max(3, min(samples, 64 // max(1, len(game.view(seat)["hand"]))))
        if samples <= 0:
            return base_choice
        view = game.view(seat) if base_choice["type"] in self.budget.declare_kinds else None
        cands = declaration_candidates(self.game_id, actions, base_choice, view)
        if not cands:
            return base_choice
        best, _ = simulate_choice(game, seat, rng, cands, self.spec, self.base, samples, self.budget.margin)
        return best

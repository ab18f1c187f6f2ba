"""The ``strong`` computer players: searched card play and simulated declarations over the heuristics.

Game-agnostic: what differs per game (rewards, rollout policy, budgets, the declarations worth simulating)
comes from the game's :class:`GameSearch` adapter in its own package (``bot/games/<id>/search.py``), which
reads only the engine's public API. Card play, per game (each adapter's ``budget``):

* Wizard: ISMCTS (:func:`~bot.ai.ismcts.ismcts`) with cheap trick-aware rollouts;
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
over sampled deals (:func:`simulate_choice`, each game's :meth:`GameSearch.declaration_plan` saying who plays
the playouts and what scores them): Wizard bid (heuristic +-2, by its chance of being hit) and trump after a
turned Wizard;
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
from bot.ai.endgame import cards_left, endgame_choice
from bot.ai.ismcts import SearchSpec, deal_sampler, ismcts, searchable
from bot.engine.protocol import Action, Game

# -- rewards ----------------------------------------------------------------------------------------------


def new_settlement(root: Game, state: Game) -> Any:
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
    st = new_settlement(root, state)
    if st is None:
        return [0.5] * n  # thrown-in hand (misdeal) or the game ended otherwise: nobody gained
    amounts = st.amounts.get("stake") or (0,) * n
    unit = max(1, int(root.options.get("stake", 1)))  # type: ignore[attr-defined]
    return [_squash(a / unit, 6.0, 0.7) for a in amounts]


# -- rollout policies --------------------------------------------------------------------------------------


class AgentPolicy:
    """Rollouts by a heuristic agent for every seat, with some randomness (``epsilon`` of the moves are random
    legal ones) so that the samples cover the plausible lines, not only the heuristic's favourite one.

    The heuristic agents read only what ``state.view(seat)`` shows (through narrow parts of it, such as a
    ``card_play_view``): in a determinized state that is the sampled deal as that seat would see it, so the
    rollout seats play on their own information, not on the full deal."""

    def __init__(self, agent: Agent, epsilon: float) -> None:
        self.agent = agent
        self.epsilon = epsilon

    def __call__(self, game: Game, seat: int, actions: list[Action], rng: random.Random) -> Action:
        if rng.random() < self.epsilon:
            return declaring_random_policy(game, seat, actions, rng)
        return self.agent.choose(game, seat, rng)


def declaring_random_policy(game: Game, seat: int, actions: list[Action], rng: random.Random) -> Action:
    # declaring every combination is always right (the first action lists all of them)
    if actions[0]["type"] == "declare":
        return actions[0]
    return rng.choice(actions)


# -- budgets -------------------------------------------------------------------------------------------------


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
    #: inference: a game's own sampler (``SearchSpec.sampler``) may move each sampled deal by this many steps
    #: towards the deals that explain what the other seats declared (Mighty: the auction; 0 = uniform deals)
    infer_steps: int = 0


#: iteration budgets of the strong level, chosen to meet the speed targets on one core (docs/computer-players.md)
# -- what a game tells the search ---------------------------------------------------------------------------


#: at most this many candidates for a combinatorial declaration (discards, monte exchange, called card)
COMBO_CANDIDATES = 4


class GameSearch:
    """A game's adapter for the strong level. Subclasses (one per game, in the game's package) override what
    differs; the defaults suit a game scored by the hand's stake with heuristic rollouts."""

    #: the iteration budgets of the strong level (benchmarks may replace it)
    budget: Budget
    #: the combinatorial declarations this game can simulate (the budget's ``declare_kinds`` switches them on)
    declare_kinds: tuple[str, ...] = ()
    #: at most this many declaration candidates are simulated, the heuristic's own included
    max_candidates: int = COMBO_CANDIDATES

    def search_spec(self, base: Agent, budget: Budget) -> SearchSpec:
        return SearchSpec(reward=stake_reward, policy=default_policy(base, budget))

    def candidates(self, actions: list[Action], base_choice: Action, view: dict[str, Any] | None) -> list[Action]:
        """Declarations worth simulating besides the heuristic's ``base_choice`` (``view``: the seat's view,
        given only for the kinds in the budget's ``declare_kinds``)."""
        return []

    def declare_samples(self, game: Game, seat: int, samples: int) -> int:
        """Sampled deals per declaration candidate (a game may cap it where playouts are long)."""
        return samples

    def declaration_plan(
        self, game: Game, seat: int, candidates: list[Action], base: Agent, spec: SearchSpec, budget: Budget
    ) -> DeclarationPlan:
        """How ``candidates`` are weighed: by default the heuristic plays every seat, the card play's reward
        scores, and the budget sets the samples and the margin."""
        return DeclarationPlan(self.declare_samples(game, seat, budget.declare_samples), base, spec, budget.margin)


@dataclass(frozen=True, slots=True)
class DeclarationPlan:
    """How the candidates of one declaration are weighed (:func:`simulate_choice`)."""

    #: sampled deals per candidate (0: take the heuristic's choice)
    samples: int
    #: plays every seat in the playouts
    agent: Agent
    #: its sampler and reward
    spec: SearchSpec
    #: the heuristic's choice is replaced only by a candidate whose mean reward is higher by this much
    margin: float


def default_policy(base: Agent, budget: Budget) -> Any:
    """Rollouts by the heuristic agent (with some random moves) or, without ``agent_rollouts``, random ones."""
    return AgentPolicy(base, budget.epsilon) if budget.agent_rollouts else declaring_random_policy


def auction_candidates(actions: list[Action], base_choice: Action, *, cheapest_bid: bool) -> list[Action]:
    """Auction: only "the heuristic's call or the other option" (bid <-> pass). With a handful of sampled deals,
    picking the best of many noisy candidates overbids (the winner's curse), and measured worse. With
    ``cheapest_bid``, a heuristic pass is also tried against the cheapest bid still open."""
    kind = base_choice["type"]
    if kind == "bid":
        return [a for a in actions if a["type"] == "pass"]
    if kind == "pass" and cheapest_bid:
        return [a for a in actions if a["type"] == "bid"][:1]
    return []


# -- declarations by simulation ----------------------------------------------------------------------------


def lowest_combos(ranked: list[str], k: int, pool: int, value: Any) -> list[list[str]]:
    """``k``-card sets from the ``pool`` least valuable cards (``ranked`` is sorted by ``value``), the
    cheapest total value first: the hand evaluator's pruning before simulation."""
    low = ranked[:pool]
    combos = sorted(
        itertools.combinations(low, k), key=lambda cs: (sum(value(c) for c in cs), [ranked.index(c) for c in cs])
    )
    return [list(cs) for cs in combos[:COMBO_CANDIDATES]]


def declaration_candidates(
    search: GameSearch, actions: list[Action], base_choice: Action, view: dict[str, Any] | None = None
) -> list[Action]:
    """The declarations worth simulating, the heuristic's own choice first (it wins ties). An empty list
    means "take the heuristic's choice" (a forced choice). Combinatorial choices (e.g. Mighty discards, trump
    change and friend call) are pruned by the game's own hand evaluator to a few candidates (``view``: the
    deciding seat's view, needed for them)."""
    out: list[Action] = [base_choice, *search.candidates(actions, base_choice, view)]
    unique: list[Action] = []
    for a in out:
        if a not in unique and _same_declaration(a, unique):
            unique.append(a)
    return unique[: max(2, search.max_candidates)] if len(unique) > 1 else []


def _same_declaration(a: Action, seen: list[Action]) -> bool:
    """True if ``a`` is new: card lists compare as sets (the heuristic's order may differ)."""

    def norm(x: Action) -> Any:
        return tuple(sorted((k, tuple(sorted(v)) if isinstance(v, list) else v) for k, v in x.items()))

    return all(norm(a) != norm(b) for b in seen)


def _playout(game: Game, det: Game, seat: int, first: Action, spec: SearchSpec, agent: Agent, seed: int) -> float:
    """``seat``'s reward when it plays ``first`` on the sampled deal ``det`` and ``agent`` plays every seat to
    the end of the hand (its randomness seeded by ``seed``, so candidates meet the same playout luck).

    An agent with ``sim_choose`` (the same choice as ``choose``, as a compact move) plays through the engine's
    simulation interface: no display action is built or re-validated for a simulated card."""
    state = det.clone()
    state.apply(seat, first)
    prng = random.Random(seed)
    steps = 0
    hand_over = spec.hand_over
    sim_choose = getattr(agent, "sim_choose", None)
    while steps < spec.max_rollout_steps and not hand_over(game, state):
        movers = state.to_move()
        if not movers:
            break
        mover = movers[0]
        if sim_choose is not None:
            state.sim_apply(mover, sim_choose(state, mover, prng))
        else:
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
    sample = deal_sampler(spec, game, seat)
    while True:
        n = max(2, per_round // len(alive))
        for _ in range(n):
            det = sample(rng)
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
    sample = deal_sampler(spec, game, seat)
    for _ in range(samples):
        det = sample(rng)
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
        search: GameSearch,
        base: Agent,
        budget: Budget | None = None,
        prune: Callable[[Game, int, list[Action]], list[Action]] | None = None,
    ) -> None:
        self.search = search
        self.base = base
        self.budget = budget or search.budget
        #: card play: drops cards interchangeable with another candidate (a module-level function, so that the
        #: agent pickles into the worker processes)
        self.prune = prune
        self._spec: SearchSpec | None = None

    @property
    def spec(self) -> SearchSpec:
        if self._spec is None:
            self._spec = self.search.search_spec(self.base, self.budget)
        return self._spec

    def _playout_agent(self) -> Agent:
        return self.base

    def __getstate__(self) -> dict[str, Any]:
        # the spec is rebuilt in the worker process (it holds caches)
        return {"search": self.search, "base": self.base, "budget": self.budget, "prune": self.prune}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.search = state["search"]
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
            if b.endgame_tricks and cards_left(game, seat) <= b.endgame_tricks and game.sides_public():
                first = self.base.choose(game, seat, rng)
                ordered = [first, *(a for a in actions if a != first)]
                solved = endgame_choice(
                    game, seat, rng, ordered, self.spec, b.endgame_samples, b.endgame_nodes, sides=True
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
        if self.budget.declare_samples <= 0:
            return base_choice
        view = game.view(seat) if base_choice["type"] in self.budget.declare_kinds else None
        cands = declaration_candidates(self.search, actions, base_choice, view)
        if not cands:
            return base_choice
        plan = self.search.declaration_plan(game, seat, cands, self.base, self.spec, self.budget)
        if plan.samples <= 0:
            return base_choice
        best, _ = simulate_choice(game, seat, rng, cands, plan.spec, plan.agent, plan.samples, plan.margin)
        return best

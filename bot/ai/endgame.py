"""Exact search of the last few tricks over sampled deals (the team games' endgame).

Once the sides are public (``game.sides_public()``) and only a few cards are left in every hand, each sampled
deal (``game.determinize``) is small enough to be solved exactly: every seat, in turn, picks the card that is
best for its side on that deal. With the sides known (``sides=True``: the sample's ``sides()``) that is
minimax with alpha-beta pruning on the searching seat's reward; without them, max-n (each seat maximises
its own reward). The searching seat's cards are compared by their mean exact value over the same
sampled deals, which replaces the noisy heuristic playouts where they are least needed.

Only used when the sides are public: before the friend / partner is revealed, a solver that sees the
sampled deal would let every seat "know" who its partner is, which overestimates cooperation.
A node cap keeps the cost bounded; if a sample would exceed it the caller falls back to playouts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.ismcts import ActionKey, SearchSpec, action_key, deal_sampler
from bot.engine.protocol import Action, Game, Move


class NodeCapExceeded(Exception):
    """The exact search of one sample would visit more nodes than allowed."""


def cards_left(game: Game, seat: int) -> int:
    return game.hand_size(seat)


class _Solver:
    """Max-n search to the end of the hand; with ``sides`` it is minimax with alpha-beta pruning on the
    searching seat's reward (every seat of a side wants the same result, the other side the opposite, so the
    values are exact where max-n's are and most of the tree is never visited)."""

    def __init__(self, root: Game, spec: SearchSpec, node_cap: int, seat: int, sides: list[int] | None) -> None:
        self.root = root
        self.spec = spec
        self.node_cap = node_cap
        self.nodes = 0
        self.seat = seat
        self.sides = sides

    def _children(self, state: Game) -> tuple[int, list[Move]] | None:
        self.nodes += 1
        if self.nodes > self.node_cap:
            raise NodeCapExceeded
        if self.spec.hand_over(self.root, state):
            return None
        movers = state.to_move()
        if not movers:
            return None
        acts = state.sim_legal(movers[0])  # compact moves, in legal_actions order (no undo)
        return (movers[0], acts) if acts else None

    def value(self, state: Game) -> Sequence[float]:
        """The reward vector of ``state`` under max-n play to the end of the hand."""
        node = self._children(state)
        if node is None:
            return self.spec.reward(self.root, state)
        mover, acts = node
        best: Sequence[float] | None = None
        for a in acts:
            child = state.clone()
            child.sim_apply(mover, a)
            v = self.value(child)
            if best is None or v[mover] > best[mover]:
                best = v
        assert best is not None
        return best

    def minimax(self, state: Game, alpha: float = -1.0, beta: float = 2.0) -> float:
        """The searching seat's exact reward (its side maximises, the other minimises), within alpha..beta."""
        node = self._children(state)
        if node is None:
            return self.spec.reward(self.root, state)[self.seat]
        mover, acts = node
        assert self.sides is not None
        maximise = self.sides[mover] == self.sides[self.seat]
        best = -1.0 if maximise else 2.0
        for a in acts:
            child = state.clone()
            child.sim_apply(mover, a)
            v = self.minimax(child, alpha, beta)
            if maximise:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def exact(self, state: Game) -> float:
        return self.minimax(state) if self.sides is not None else self.value(state)[self.seat]


def endgame_choice(
    game: Game,
    seat: int,
    rng: random.Random,
    actions: list[Action],
    spec: SearchSpec,
    samples: int,
    node_cap: int,
    *,
    sides: bool = False,
) -> tuple[Action, dict[ActionKey, float]] | None:
    """The action with the best mean exact value for ``seat`` over ``samples`` sampled deals, ties to the
    earliest action in ``actions`` (put the heuristic's choice first). ``None`` if a sample is too big for
    ``node_cap`` (the caller then uses its playouts)."""
    totals = [0.0] * len(actions)
    sample = deal_sampler(spec, game, seat)
    try:
        for _ in range(samples):
            det = sample(rng)
            solver = _Solver(game, spec, node_cap, seat, det.sides() if sides else None)
            for j, a in enumerate(actions):
                state = det.clone()
                state.apply(seat, a)
                totals[j] += solver.exact(state)
    except NodeCapExceeded:
        return None
    means = [t / max(1, samples) for t in totals]
    best = max(range(len(actions)), key=lambda j: (means[j], -j))
    return actions[best], {action_key(a): m for a, m in zip(actions, means, strict=True)}

"""Exact search of the last few tricks over sampled deals (the team games' endgame).

Once the sides are public and only a few cards are left in every hand, each sampled deal
(``game.determinize``) is small enough to be solved exactly: every seat, in turn, picks the card that is
best for *itself* on that deal (max-n search to the end of the hand; with two sides this is plain minimax
for the side's shared reward). The searching seat's cards are compared by their mean exact value over
the same sampled deals, which replaces the noisy heuristic playouts where they are least needed.

Only used when the sides are public: before the friend / partner is revealed, a solver that sees the
sampled deal would let every seat "know" who its partner is, which overestimates cooperation.
A node cap keeps the cost bounded; if a sample would exceed it the caller falls back to playouts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.ismcts import ActionKey, SearchSpec, action_key, searchable
from bot.engine.protocol import Action, Game


class NodeCapExceeded(Exception):
    """The exact search of one sample would visit more nodes than allowed."""


def sides_known(game_id: str, game: Game) -> bool:
    """Whether both sides of the current hand are public (read from public flags of the real game)."""
    if game_id == "minchiate":
        return True  # fixed partnerships
    if game_id == "mighty":
        return bool(getattr(game, "_friend_public", False))
    if game_id == "mediatore":
        status = getattr(game, "_partner_status", None)
        return status is None or status()[0] != "hidden"
    return False


def cards_left(game: Game, seat: int) -> int:
    return len(game.view(seat)["hand"])


class _Solver:
    def __init__(self, root: Game, spec: SearchSpec, node_cap: int) -> None:
        self.root = root
        self.spec = spec
        self.node_cap = node_cap
        self.nodes = 0

    def value(self, state: Game) -> Sequence[float]:
        """The reward vector of ``state`` under max-n play to the end of the hand."""
        self.nodes += 1
        if self.nodes > self.node_cap:
            raise NodeCapExceeded
        spec = self.spec
        if spec.hand_over(self.root, state):
            return spec.reward(self.root, state)
        movers = state.to_move()
        if not movers:
            return spec.reward(self.root, state)
        mover = movers[0]
        acts = searchable(state.legal_actions(mover))
        if not acts:
            return spec.reward(self.root, state)
        best: Sequence[float] | None = None
        for a in acts:
            child = state.clone()
            child.apply(mover, a)
            v = self.value(child)
            if best is None or v[mover] > best[mover]:
                best = v
        assert best is not None
        return best


def endgame_choice(
    game: Game,
    seat: int,
    rng: random.Random,
    actions: list[Action],
    spec: SearchSpec,
    samples: int,
    node_cap: int,
) -> tuple[Action, dict[ActionKey, float]] | None:
    """The action with the best mean exact value for ``seat`` over ``samples`` sampled deals, ties to the
    earliest action in ``actions`` (put the heuristic's choice first). ``None`` if a sample is too big for
    ``node_cap`` (the caller then uses its playouts)."""
    totals = [0.0] * len(actions)
    try:
        for _ in range(samples):
            det = game.determinize(seat, rng)
            solver = _Solver(game, spec, node_cap)
            for j, a in enumerate(actions):
                state = det.clone()
                state.apply(seat, a)
                totals[j] += solver.value(state)[seat]
    except NodeCapExceeded:
        return None
    means = [t / max(1, samples) for t in totals]
    best = max(range(len(actions)), key=lambda j: (means[j], -j))
    return actions[best], {action_key(a): m for a, m in zip(actions, means, strict=True)}

"""Single-observer Information Set Monte Carlo Tree Search over the :class:`~bot.engine.protocol.Game` protocol.

The searching seat never looks at hidden cards: every iteration starts from ``game.determinize(seat, rng)``,
a full state consistent with what that seat can see, and walks one shared tree whose edges are *actions*
(not states), so statistics gathered in different sampled deals pool together (Cowling, Powley & Whitehouse,
2012). Because an action may be legal in one sample and not in another, selection uses the
"availability" count of a child instead of its parent's visit count in the UCB formula.

Every node stores the reward of the seat that chose the edge leading to it, so opponents pick moves that are
good for *them* and partners for their side: rewards come as one value in ``0..1`` per seat.

A rollout plays on with a cheap policy until the current hand ends (detected by ``hand_over``), then the
game-specific ``reward`` scores the finished hand. Budgets are counted in iterations, never seconds, so a
decision is a pure function of ``(state, seat, rng state)`` and tests can replay it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.protocol import Action, Game, Move

ActionKey = Hashable
#: ``(state, seat, legal actions, rng) -> action``: how seats move outside the tree.
Policy = Callable[[Game, int, list[Action], random.Random], Action]
#: the same over the compact moves of ``state.sim_legal(seat)``
SimPolicy = Callable[[Game, int, list[Move], random.Random], Move]
#: ``(root state, finished state) -> reward in 0..1 per seat``.
Reward = Callable[[Game, Game], Sequence[float]]
#: ``(root state, current state) -> True once the hand being searched is over``.
HandOver = Callable[[Game, Game], bool]


def _freeze(value: Any) -> Hashable:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value  # type: ignore[no-any-return]


def action_key(action: Action) -> ActionKey:
    """A hashable identity for an action dict (list values become tuples, keys sorted)."""
    return _freeze(action)


def random_policy(game: Game, seat: int, actions: list[Action], rng: random.Random) -> Action:
    return rng.choice(actions)


def searchable(actions: list[Action]) -> list[Action]:
    """Actions worth searching: an ``undo`` only takes back what the seat itself just chose."""
    return [a for a in actions if a.get("type") != "undo"]


class HandTracker:
    """Default end-of-hand test: a new settlement, a new hand number, or the end of the game."""

    def __call__(self, root: Game, state: Game) -> bool:
        return (
            state.is_over or state.hand_number != root.hand_number or state.num_settlements() != root.num_settlements()
        )


@dataclass(slots=True)
class SearchSpec:
    """What the generic search needs to know about one game."""

    reward: Reward
    policy: Policy = random_policy
    hand_over: HandOver = field(default_factory=HandTracker)
    key: Callable[[Action], ActionKey] = action_key
    #: UCB exploration constant (rewards are in 0..1)
    exploration: float = 0.7
    #: below the root, a node with more legal actions than this is not expanded (rollout takes over); it keeps
    #: huge combinatorial choices (e.g. 3 discards out of 13) from swallowing the budget
    max_branch: int = 40
    #: safety net for rollouts (a bug in hand_over must not hang a table)
    max_rollout_steps: int = 2000
    #: the simulation interface (both or neither): below the root the tree and the rollouts then walk compact
    #: moves (``sim_legal`` / ``sim_apply``), keyed by ``sim_key`` and played out by ``sim_policy``; they must
    #: make the same choices as ``key`` and ``policy`` on the display actions (the same classes, the same order)
    sim_key: Callable[[Move], ActionKey] | None = None
    sim_policy: SimPolicy | None = None
    #: ``(state, seat, rng) -> sampled deal`` for the flat playouts and the endgame (None: the engine's
    #: ``determinize``); a game may weight its samples by what the auction said (Mighty)
    sample: Callable[[Game, int, random.Random], Game] | None = None


class Node:
    """One edge of the tree (the action that led here) with its statistics."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat that chose the action leading to this node
        self.children: dict[ActionKey, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


@dataclass(slots=True)
class SearchResult:
    action: Action
    #: root action key -> (visits, mean reward for the searching seat)
    stats: dict[ActionKey, tuple[int, float]]
    iterations: int


def ismcts(
    game: Game,
    seat: int,
    rng: random.Random,
    spec: SearchSpec,
    iterations: int,
    candidates: list[Action] | None = None,
) -> SearchResult:
    """Search ``iterations`` determinized iterations from ``seat``'s point of view and return the most
    visited root action. ``candidates`` restricts the root (declaration search after pruning)."""
    root_actions = candidates if candidates is not None else searchable(game.legal_actions(seat))
    if not root_actions:
        raise ValueError(f"seat {seat} has no legal action")
    key = spec.key
    root_keyed = {key(a): a for a in root_actions}
    if len(root_keyed) == 1:
        only = next(iter(root_keyed.values()))
        return SearchResult(only, {}, 0)
    root = Node(-1)
    c = spec.exploration
    hand_over = spec.hand_over
    policy = spec.policy
    sim_key, sim_policy = spec.sim_key, spec.sim_policy
    lean = sim_key is not None and sim_policy is not None
    for _ in range(iterations):
        state = game.determinize(seat, rng)
        node = root
        path: list[Node] = []
        # -- selection and expansion (one new node per iteration) ---------------------------------------
        while True:
            if node is root:
                mover, keyed = seat, root_keyed
            else:
                if hand_over(game, state):
                    break
                movers = state.to_move()
                if not movers:
                    break
                mover = movers[0]
                if lean:
                    moves = state.sim_legal(mover)
                    if len(moves) > spec.max_branch or not moves:
                        break
                    keyed = {sim_key(m): m for m in moves}  # type: ignore[misc]
                else:
                    acts = searchable(state.legal_actions(mover))
                    if len(acts) > spec.max_branch or not acts:
                        break
                    keyed = {key(a): a for a in acts}
            children = node.children
            untried = [k for k in keyed if k not in children]
            if untried:
                k = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                for k2 in keyed:
                    ch = children.get(k2)
                    if ch is not None:
                        ch.avail += 1
                child = children[k] = Node(mover)
                if lean and node is not root:
                    state.sim_apply(mover, keyed[k])
                else:
                    state.apply(mover, keyed[k])
                path.append(child)
                break
            best_k: ActionKey = None
            best_u = -1.0
            for k2 in keyed:
                ch = children[k2]
                u = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best_u:
                    best_u, best_k = u, k2
                ch.avail += 1
            if lean and node is not root:
                state.sim_apply(mover, keyed[best_k])
            else:
                state.apply(mover, keyed[best_k])
            node = children[best_k]
            path.append(node)
        # -- rollout to the end of the hand -------------------------------------------------------------
        steps = 0
        while steps < spec.max_rollout_steps and not hand_over(game, state):
            movers = state.to_move()
            if not movers:
                break
            mover = movers[0]
            if lean:
                moves = state.sim_legal(mover)
                if not moves:
                    break
                state.sim_apply(mover, moves[0] if len(moves) == 1 else sim_policy(state, mover, moves, rng))  # type: ignore[misc]
            else:
                acts = searchable(state.legal_actions(mover))
                if not acts:
                    break
                state.apply(mover, acts[0] if len(acts) == 1 else policy(state, mover, acts, rng))
            steps += 1
        reward = spec.reward(game, state)
        for n in path:
            n.visits += 1
            n.total += reward[n.seat]
    stats = {k: (ch.visits, ch.total / ch.visits) for k, ch in root.children.items() if ch.visits}
    # most visited, ties broken by mean reward, then by the candidate order (deterministic)
    order = {k: i for i, k in enumerate(root_keyed)}
    best = max(stats, key=lambda k: (stats[k][0], stats[k][1], -order[k])) if stats else next(iter(root_keyed))
    return SearchResult(root_keyed[best], stats, iterations)

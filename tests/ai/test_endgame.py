"""The exact endgame search and the simulated combinatorial declarations of the strong level."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.ai.endgame import cards_left, endgame_choice
from bot.ai.ismcts import searchable
from bot.ai.strong import StrongAgent, declaration_candidates, simulate_choice
from bot.engine.protocol import Game
from bot.games.registry import game_class, make_agent, search

SETUPS: dict[str, tuple[int, dict[str, Any]]] = {
    "mediatore": (4, {"hands": 1}),
    "mighty": (5, {"hands": 1}),
    "minchiate": (4, {"deals_per_game": 1}),
}


def _late(game_id: str, seed: int, left: int) -> tuple[Game, int] | None:
    """Normal agents play until a seat with a real choice holds ``left`` cards and the sides are public."""
    n, opts = SETUPS[game_id]
    game = game_class(game_id)(n, opts, seed)  # type: ignore[call-arg]
    normal = make_agent(game_id, "normal")
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_move()[0]
        acts = searchable(game.legal_actions(seat))
        if acts[0]["type"] == "play" and len(acts) > 1 and cards_left(game, seat) <= left and game.sides_public():
            return game, seat
        game.apply(seat, normal.choose(game, seat, rng))
    return None


def _first_late(game_id: str, left: int) -> tuple[Game, int]:
    for seed in range(1, 40):
        found = _late(game_id, seed, left)
        if found is not None:
            return found
    raise AssertionError("no late position found")


@pytest.mark.parametrize("game_id", list(SETUPS))
def test_endgame_choice_is_legal_best_and_deterministic(game_id: str) -> None:
    game, seat = _first_late(game_id, 2)
    actions = searchable(game.legal_actions(seat))
    spec = StrongAgent(search(game_id), make_agent(game_id, "normal"), search(game_id).budget).spec
    r1 = endgame_choice(game.clone(), seat, random.Random(3), actions, spec, 6, 100_000)
    r2 = endgame_choice(game.clone(), seat, random.Random(3), actions, spec, 6, 100_000)
    assert r1 is not None and r2 is not None
    assert r1[0] == r2[0]
    assert game.is_legal(seat, r1[0])
    means = r1[1]
    assert len(means) == len({str(a) for a in actions})
    assert all(0.0 <= m <= 1.0 for m in means.values())
    assert max(means.values()) == pytest.approx(means[next(k for k in means if means[k] == max(means.values()))])


def test_endgame_node_cap_falls_back() -> None:
    game, seat = _first_late("mighty", 3)
    actions = searchable(game.legal_actions(seat))
    spec = StrongAgent(search("mighty"), make_agent("mighty", "normal"), search("mighty").budget).spec
    assert endgame_choice(game, seat, random.Random(1), actions, spec, 4, 1) is None


def test_endgame_beats_playouts_on_the_solved_value() -> None:
    """On the same sampled deals, the solver's card is at least as good as any other card (by exact value)."""
    game, seat = _first_late("minchiate", 2)
    actions = searchable(game.legal_actions(seat))
    spec = StrongAgent(search("minchiate"), make_agent("minchiate", "normal"), search("minchiate").budget).spec
    res = endgame_choice(game, seat, random.Random(9), actions, spec, 8, 100_000)
    assert res is not None
    best, means = res
    from bot.ai.ismcts import action_key

    assert means[action_key(best)] == max(means.values())


def _at_phase(game_id: str, phase: str) -> tuple[Game, int]:
    n, opts = SETUPS[game_id]
    for seed in range(1, 60):
        game = game_class(game_id)(n, opts, seed)  # type: ignore[call-arg]
        normal = make_agent(game_id, "normal")
        rng = random.Random(seed)
        while not game.is_over and game.phase not in (phase, "play"):
            seat = game.to_move()[0]
            game.apply(seat, normal.choose(game, seat, rng))
        if game.phase == phase:
            return game, game.to_move()[0]
    raise AssertionError(f"no {phase} phase reached")


def _norm(a: Any) -> Any:
    return tuple(sorted((k, tuple(sorted(v)) if isinstance(v, list) else v) for k, v in a.items()))


@pytest.mark.parametrize(
    ("game_id", "phase"),
    [("mighty", "discard"), ("mighty", "change"), ("mighty", "call"), ("mediatore", "call"), ("mediatore", "exchange")],
)
def test_declaration_candidates_are_legal_and_pruned(game_id: str, phase: str) -> None:
    game, seat = _at_phase(game_id, phase)
    normal = make_agent(game_id, "normal")
    base = normal.choose(game, seat, random.Random(0))
    actions = searchable(game.legal_actions(seat))
    cands = declaration_candidates(search(game_id), actions, base, game.view(seat))
    assert cands, "a combinatorial declaration should offer alternatives"
    assert cands[0] == base
    assert 2 <= len(cands) <= 4
    legal = {_norm(a) for a in actions}
    for a in cands:
        assert _norm(a) in legal, a  # card lists in any order (the engine accepts any)
    spec = StrongAgent(search(game_id), normal, search(game_id).budget).spec
    best, means = simulate_choice(game, seat, random.Random(4), cands, spec, normal, 2, 0.05)
    assert best in cands and len(means) == len(cands)


@pytest.mark.parametrize("game_id", ["mighty", "mediatore"])
def test_strong_declarations_are_legal(game_id: str) -> None:
    """A whole hand of strong seats with simulated declarations (tiny budgets) stays legal and finishes."""
    n, opts = SETUPS[game_id]
    game = game_class(game_id)(n, opts, 21)  # type: ignore[call-arg]
    budget = replace(
        search(game_id).budget,
        play=10,
        declare_samples=2,
        endgame_samples=2,
        declare_kinds=("discard", "contract", "call"),
    )
    agent = StrongAgent(search(game_id), make_agent(game_id, "normal"), budget)
    step = 0
    while not game.is_over:
        seat = game.to_move()[0]
        action = agent.choose(game.clone(), seat, random.Random(step))
        assert _norm(action) in {_norm(a) for a in game.legal_actions(seat)}
        game.apply(seat, action)
        step += 1
    assert game.settlements()


@pytest.mark.parametrize("game_id", list(SETUPS))
def test_alpha_beta_by_sides_equals_max_n(game_id: str) -> None:
    """Pruning by sides changes the cost, never the value: both searches give every card the same mean."""

    game, seat = _first_late(game_id, 3)
    actions = searchable(game.legal_actions(seat))
    spec = StrongAgent(search(game_id), make_agent(game_id, "normal"), search(game_id).budget).spec
    by_sides = endgame_choice(game.clone(), seat, random.Random(5), actions, spec, 4, 1_000_000, sides=True)
    max_n = endgame_choice(game.clone(), seat, random.Random(5), actions, spec, 4, 1_000_000)
    assert by_sides is not None and max_n is not None
    assert game.sides() is not None
    assert by_sides[1] == pytest.approx(max_n[1])
    assert by_sides[0] == max_n[0]


def test_alpha_beta_visits_fewer_nodes() -> None:
    from bot.ai import endgame

    game, seat = _first_late("minchiate", 4)
    spec = StrongAgent(search("minchiate"), make_agent("minchiate", "normal"), search("minchiate").budget).spec
    det = game.determinize(seat, random.Random(2))
    plain = endgame._Solver(game, spec, 10**7, seat, None)
    pruned = endgame._Solver(game, spec, 10**7, seat, det.sides())
    assert pruned.exact(det.clone()) == pytest.approx(plain.exact(det.clone()))
    assert pruned.nodes < plain.nodes


@pytest.mark.parametrize("phase", ["discard", "declare"])
def test_minchiate_declarations_are_simulated(phase: str) -> None:
    """Minchiate discards (one card at a time) and declarations have simulated alternatives that are legal."""
    game, seat = _minchiate_choice(phase)
    normal = make_agent("minchiate", "normal")
    base = normal.choose(game, seat, random.Random(0))
    actions = searchable(game.legal_actions(seat))
    cands = declaration_candidates(search("minchiate"), actions, base, game.view(seat))
    assert cands and cands[0] == base and len(cands) >= 2
    legal = {_norm(a) for a in actions}
    assert all(_norm(a) in legal for a in cands)
    if phase == "discard":
        from bot.games.minchiate.rules import SUIT

        assert len({SUIT[a["cards"][0]] for a in cands}) == len(cands)  # one per suit: different voids
    else:
        assert {"type": "declare", "combos": []} in cands
    spec = StrongAgent(search("minchiate"), normal, search("minchiate").budget).spec
    best, means = simulate_choice(game, seat, random.Random(4), cands, spec, normal, 2, 0.05)
    assert best in cands and len(means) == len(cands)


def _minchiate_choice(phase: str) -> tuple[Game, int]:
    """A Minchiate position where a seat has a real choice in ``phase``."""
    for seed in range(1, 80):
        game = game_class("minchiate")(4, {"deals_per_game": 1}, seed)
        normal = make_agent("minchiate", "normal")
        rng = random.Random(seed)
        while not game.is_over and game.phase in ("discard", "declare"):
            seat = game.to_move()[0]
            acts = game.legal_actions(seat)
            if game.phase == phase and len(acts) > 1 and (phase != "declare" or acts[0]["combos"]):
                return game, seat
            game.apply(seat, normal.choose(game, seat, rng))
    raise AssertionError(f"no {phase} choice found")


def test_halving_is_reproducible_and_spends_its_budget() -> None:
    """Sequential halving is reproducible under its seed, spends about its playout budget (not k times it), and
    the heuristic's margin keeps the heuristic's own card (index 0) when the margin dwarfs every difference."""
    from bot.ai.strong import halving_choice

    game, seat = _first_late("minchiate", 6)
    actions = searchable(game.legal_actions(seat))
    assert len(actions) >= 3
    normal = make_agent("minchiate", "normal")
    spec = StrongAgent(search("minchiate"), normal, search("minchiate").budget).spec
    calls = [0]

    def counting(root: Game, state: Game) -> Any:
        calls[0] += 1
        return spec.reward(root, state)

    counted = replace(spec, reward=counting)
    a1, m1 = halving_choice(game.clone(), seat, random.Random(7), actions, counted, normal, 60)
    a2, m2 = halving_choice(game.clone(), seat, random.Random(7), actions, counted, normal, 60)
    assert a1 == a2 and m1 == m2
    assert game.is_legal(seat, a1)
    assert len(m1) == len(actions) and all(0.0 <= m <= 1.0 for m in m1)
    assert calls[0] <= 2 * (60 + 2 * len(actions))
    kept, _ = halving_choice(game.clone(), seat, random.Random(7), actions, spec, normal, 60, margin=1.0)
    assert kept == actions[0]

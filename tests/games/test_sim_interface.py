"""The lean simulation interface agrees with the display interface, for every game.

For random positions of random games (hypothesis draws the seed and the options): ``sim_legal`` lists the
legal actions in compact form, in the same order; applying the same moves through ``sim_apply`` and through
``apply`` gives the same public and private views (events included on a display state) and the same
settlements; a search clone (``clone(for_search=True)``) and ``determinize`` log no events and otherwise follow
the same path. The heuristic agents' narrow accessors (Mighty's ``play_facts`` / ``decision_view``, the
``sim_choose`` of every agent that has one) agree with the views and with ``choose``.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai.base import Agent
from bot.engine.protocol import Action, Game
from bot.games.mighty.engine import MightyGame, sort_cards
from bot.games.registry import game_class, make_agent

SEATS = {"wizard": 4, "mediatore": 4, "mighty": 5, "minchiate": 4}
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "wizard": [
        {"rounds": [1, 2, 3, 5]},
        {"rounds": [1, 4], "first_round_blind": True, "bid_mode": "secret"},
        {"rounds": [2, 6], "bid_mode": "simultaneous", "wizard_turned": "no_trump"},
        {"rounds": [3, 8], "bid_restriction": True},
    ],
    "mediatore": [{"hands": 3}, {"hands": 2, "signals": False}, {"hands": 1, "show_history": True, "stake": 3}],
    "mighty": [
        {"hands": 2},
        {"hands": 2, "kitty_face_up": False, "mighty_saves_joker": True},
        {"hands": 1, "first_trick_friend": False, "no_friend": False, "weak_hand_misdeal": False},
        {"hands": 1, "show_history": True, "show_captured": False, "stake": 5},
    ],
    "minchiate": [{"deals_per_game": 4}, {"deals_per_game": 1, "manual_cut": True, "stake_per_resto": 2}],
}


def _searchable(actions: list[Action]) -> list[Action]:
    return [a for a in actions if a.get("type") != "undo"]


def _without_events(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "events"}


def _check_position(game: Game, lean: Game, search: Game) -> None:
    """The three states stand at the same position."""
    assert lean.public_view() == game.public_view()
    assert _without_events(search.public_view()) == _without_events(game.public_view())
    for s in range(game.num_seats):
        assert lean.view(s) == game.view(s)
        assert _without_events(search.view(s)) == _without_events(game.view(s))
        acts = _searchable(game.legal_actions(s))
        for st_ in (lean, search):
            moves = st_.sim_legal(s)
            assert moves == [st_.sim_move(a) for a in acts]
            assert [st_.sim_action(m) for m in moves] == acts
    if not game.is_over:
        # the facts learnt for determinization (voids, cards not held...) agree too: the same sample
        seat = game.to_move()[0]
        dets = [st_.determinize(seat, random.Random(7)) for st_ in (game, lean, search)]
        for s in range(game.num_seats):
            views = [_without_events(d.view(s)) for d in dets]
            assert views[1] == views[0] and views[2] == views[0]
    for st_ in (lean, search):
        assert st_.settlements() == game.settlements()
        assert st_.num_settlements() == len(game.settlements())
        assert st_.to_move() == game.to_move()
        assert st_.is_over == game.is_over
        assert st_.hand_number == game.hand_number


def _walk(game_id: str, seed: int, opt: int, max_steps: int = 500) -> int:
    cls = game_class(game_id)
    game = cls(SEATS[game_id], OPTIONS[game_id][opt], seed)  # type: ignore[call-arg]
    lean = game.clone()
    search = game.clone(for_search=True)
    rng = random.Random(seed)
    events_at_start = list(search._events)  # type: ignore[attr-defined]
    steps = 0
    while not game.is_over and steps < max_steps:
        seat = game.to_move()[0]
        # the views of every seat are compared at a share of the positions (they cost more than the moves)
        if rng.random() < 0.35 or (game.phase == "play" and rng.random() < 0.5):  # type: ignore[attr-defined]
            _check_position(game, lean, search)
        acts = _searchable(game.legal_actions(seat))
        moves = lean.sim_legal(seat)
        assert len(moves) == len(acts)
        i = rng.randrange(len(acts))
        game.apply(seat, acts[i])
        lean.sim_apply(seat, moves[i])
        search.sim_apply(seat, search.sim_legal(seat)[i])
        steps += 1
    _check_position(game, lean, search)
    assert search._events == events_at_start  # type: ignore[attr-defined]  # a search state logs nothing
    return steps


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_wizard_lean_and_display_agree(seed: int, opt: int) -> None:
    _walk("wizard", seed, opt % len(OPTIONS["wizard"]))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_mediatore_lean_and_display_agree(seed: int, opt: int) -> None:
    _walk("mediatore", seed, opt % len(OPTIONS["mediatore"]))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_mighty_lean_and_display_agree(seed: int, opt: int) -> None:
    _walk("mighty", seed, opt % len(OPTIONS["mighty"]))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_minchiate_lean_and_display_agree(seed: int, opt: int) -> None:
    _walk("minchiate", seed, opt % len(OPTIONS["minchiate"]))


def test_determinize_is_a_search_state() -> None:
    for game_id, n in SEATS.items():
        game = game_class(game_id)(n, OPTIONS[game_id][0], 5)  # type: ignore[call-arg]
        rng = random.Random(1)
        for _ in range(30):  # into the hand
            seat = game.to_move()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        det = game.determinize(game.to_move()[0], rng)
        before = list(det._events)  # type: ignore[attr-defined]
        for _ in range(10):
            if det.is_over:
                break
            seat = det.to_move()[0]
            det.sim_apply(seat, rng.choice(det.sim_legal(seat)))
        assert det._events == before, game_id  # type: ignore[attr-defined]
        assert det.clone()._events == before  # type: ignore[attr-defined]


# -- the agents' narrow accessors ------------------------------------------------------------------------------


def _mighty_facts_match_view(game: MightyGame, seat: int) -> None:
    v = game.view(seat)
    f = game.play_facts(seat)
    trick = v["trick"]
    assert f.seat == v["seat"]
    assert f.trump == v["contract"]["trump"]
    assert [list(p) for p in f.plays] == trick["plays"]
    assert f.trick_index == v["trick_number"] - 1
    assert (f.led_suit or None) == trick["led_suit"]
    assert f.joker_call == trick["joker_call"]
    assert f.declarer == v["declarer"]
    assert f.role == v["role"]
    assert f.friend_revealed == v["friend_revealed"]
    assert f.friend == (v["friend"] if v["friend_revealed"] else None)
    assert f.friend_card == (v["friend_call"] or {}).get("card")
    assert sort_cards(f.hand) == v["hand"]
    if v["captured"] is None:
        assert f.points_seen is None
    else:
        # the captured point cards; the current trick's point cards are in the trick anyway
        current = {c for _, c in trick["plays"]}
        assert {c for cap in v["captured"] for c in cap} == set(f.points_seen or ()) - current
    assert (f.discards or None) == (v["discards"] or None)
    assert f.last_plays == (v["last_trick"]["plays"] if v["last_trick"] else None)
    assert f.joker_played == v["joker_played"]


def _same_choice(agent: Agent, game: Game, seat: int, seed: int) -> None:
    """``sim_choose`` is ``choose`` in compact form, drawing the same random numbers."""
    r1, r2 = random.Random(seed), random.Random(seed)
    action = agent.choose(game, seat, r1)
    move = agent.sim_choose(game, seat, r2)  # type: ignore[attr-defined]
    assert game.sim_action(move) == action
    # (a combo, e.g. Mediatore's exchange, is built by the agent in its own card order)
    assert move in game.sim_legal(seat) or game.is_legal(seat, action)
    assert r1.random() == r2.random()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_mighty_agent_accessors_match_the_views(seed: int, opt: int) -> None:
    game = MightyGame(5, OPTIONS["mighty"][opt], seed)
    agents = [make_agent("mighty", lv) for lv in ("normal", "easy")]
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_move()[0]
        if game.phase == "play":
            _mighty_facts_match_view(game, seat)
        else:
            v = game.view(seat)
            assert game.decision_view(seat) == {k: v[k] for k in ("phase", "hand", "bid", "contract", "discards")}
        for agent in agents:
            _same_choice(agent, game, seat, rng.getrandbits(32))
        acts = game.legal_actions(seat)
        game.apply(seat, agents[0].choose(game, seat, rng) if rng.random() < 0.7 else rng.choice(acts))


def _card_play_view_matches(game: Game, seat: int) -> None:
    """A ``card_play_view`` holds the view's values under the view's keys (of nested dicts: the keys it has)."""
    part = game.card_play_view(seat)  # type: ignore[attr-defined]
    view = game.view(seat)
    keep = {"private": {"discards", "monte_seen"}}  # what the heuristic reads of the seat's private facts
    for k, x in part.items():
        if isinstance(x, dict) and isinstance(view[k], dict):
            assert x == {kk: v for kk, v in view[k].items() if kk in keep.get(k, set(x))}, k
        else:
            assert x == view[k], k


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["wizard", "mediatore", "minchiate"]), st.integers(0, 3))
def test_sim_choose_is_choose(seed: int, game_id: str, opt: int) -> None:
    options = OPTIONS[game_id][opt % len(OPTIONS[game_id])]
    game = game_class(game_id)(SEATS[game_id], options, seed)  # type: ignore[call-arg]
    agents = [make_agent(game_id, lv) for lv in ("normal", "easy")]
    agents = [a for a in agents if hasattr(a, "sim_choose")]
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and steps < 300:
        seat = game.to_move()[0]
        if game.phase == "play" and hasattr(game, "card_play_view"):  # type: ignore[attr-defined]
            _card_play_view_matches(game, seat)
        for agent in agents:
            _same_choice(agent, game, seat, rng.getrandbits(32))
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        steps += 1

"""No engine's view shares a container with the engine: whatever a caller does to a ``public_view()`` or a
``view(seat)`` — every list and dict in it changed — the engine's next views (and its settlements) are unchanged.

The engines copy their stored records (tricks, rounds, events, hand summaries) with one function per shape
(cheaper than a generic deep copy, and a view is built after every action); a shape that grows a container its
copy misses fails here.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.engine.protocol import Game, View
from bot.records import _games
from tests.records.randgames import choose

#: per game: short games (seats, options, engine seed, chooser seed) that between them reach every event kind,
#: a finished hand (its summary is in the view) and the game's end
GAMES: dict[str, list[tuple[int, dict[str, Any], int, int]]] = {
    "wizard": [
        (4, {"rounds": [1, 2], "bid_mode": "open", "wizard_turned": "dealer_chooses"}, 100, 0),
        (3, {"rounds": [1, 3], "bid_mode": "simultaneous", "first_round_blind": True}, 101, 1),
        (5, {"rounds": [2], "bid_mode": "secret"}, 102, 2),
    ],
    # a Mediatore (handover, give back), a Chiamo (partner revealed), two hands (the last hand shown in play)
    "mediatore": [
        (4, {"hands": 1, "show_history": True}, 386, 286),
        (4, {"hands": 1}, 204, 104),
        (4, {"hands": 2}, 100, 0),
    ],
    # a misdeal claim with every trick shown; two hands with the default options
    "mighty": [(5, {"hands": 1, "show_history": True}, 216, 116), (5, {"hands": 2}, 100, 0)],
    # one deal (four would take four times as long; a deal's summary is in the view once it is over)
    "minchiate": [(4, {"manual_cut": True}, 104, 4)],
}

#: the event kinds each game's runs above must show, so that every stored shape was copied at least once (the few
#: kinds left out, such as a Mediatore hand thrown in, hold scalars only)
KINDS: dict[str, set[str]] = {
    "wizard": {"deal", "bid", "bids_complete", "trick", "round_end", "game_over"},
    "mediatore": {
        *("deal", "bid", "pass", "contract", "call", "handover", "monte_exposed", "give_back", "exchange"),
        *("play", "partner_revealed", "trick", "hand_end", "game_over"),
    },
    "mighty": {
        *("deal", "bid", "pass", "misdeal_claim", "auction_won", "kitty", "discard", "contract", "friend_call"),
        *("play", "friend_revealed", "trick", "hand_end"),
    },
    "minchiate": {
        *("cut", "exposed", "dealer_robbing", "taken", "discarded", "declared", "fola", "score", "trick"),
        *("matto_paid", "deal_end"),
    },
}

#: how many finished hands (rounds, deals) one of each game's runs must reach
HANDS = {"wizard": 2, "mediatore": 2, "mighty": 2, "minchiate": 1}


def _containers(view: View) -> list[Any]:
    """Every list and dict in ``view`` (a stack, not a recursion: the views hold thousands of scalars)."""
    out: list[Any] = []
    stack: list[Any] = [view]
    while stack:
        c = stack.pop()
        if type(c) is not tuple:  # (a tuple cannot be changed, but what it holds can)
            out.append(c)
        stack.extend(x for x in (c.values() if type(c) is dict else c) if type(x) in _NESTED)
    return out


_NESTED = (dict, list, tuple)


def _vandalize(view: View) -> None:
    # every container grows a marker (all collected first, so that no marker is walked into)
    for c in _containers(view):
        if isinstance(c, dict):
            c["__vandal__"] = 1
        else:
            c.append("__vandal__")


def _where(a: Any, b: Any, path: str = "") -> str:
    """The first place where two states differ (``[0][0]`` is the public view, ``[0][1]`` seat 0's view and so on,
    ``[1]`` the settlements)."""
    if type(a) is dict and type(b) is dict:
        for k in {**a, **b}:
            if a.get(k, _MISSING) != b.get(k, _MISSING):
                return _where(a.get(k), b.get(k), f"{path}.{k}")
    elif type(a) is list and type(b) is list and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _where(x, y, f"{path}[{i}]")
    return path


_MISSING = object()


def _views(game: Game) -> list[View]:
    return [game.public_view(), *(game.view(s) for s in range(game.num_seats))]


def _state(game: Game, views: list[View]) -> str:
    return json.dumps([views, [dict(s.summary) for s in game.settlements()]], default=list)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_views_share_no_container_with_the_engine(game_id: str) -> None:
    kinds: set[str] = set()
    hands_ended = 0
    for n, options, seed, choice_seed in GAMES[game_id]:
        game = _games.engine_class(game_id)(n, options, seed)  # type: ignore[call-arg]
        rng = random.Random(choice_seed)
        while True:
            views = _views(game)
            before = _state(game, views)
            kinds.update(e["kind"] for e in views[0]["events"])
            # (Wizard settles once, at the end; its finished rounds are in the view's round_log)
            hands_ended = max(hands_ended, len(game.settlements()), len(views[0].get("round_log", ())))
            for v in views:
                _vandalize(v)
            after = _state(game, _views(game))
            if after != before:
                pytest.fail(
                    f"{game_id} (seed {seed}): the engine shares {_where(json.loads(before), json.loads(after))}"
                )
            if game.is_over:
                break
            game.apply(*choose(game, rng))
    assert kinds >= KINDS[game_id], kinds
    assert hands_ended >= HANDS[game_id]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_settlements_share_no_container_with_the_engine(game_id: str) -> None:
    """A caller changing every list and dict of a settlement's summary (the ledger and the records read them)
    changes none of the engine's views, and the game plays on."""
    vandalized = 0
    for n, options, seed, choice_seed in GAMES[game_id]:
        game = _games.engine_class(game_id)(n, options, seed)  # type: ignore[call-arg]
        rng = random.Random(choice_seed)
        done = 0
        while True:
            settled = game.settlements()
            if len(settled) > done:
                before = json.dumps(_views(game))
                for s in settled[done:]:
                    _vandalize(s.summary)  # type: ignore[arg-type]
                    vandalized += 1
                done = len(settled)
                after = json.dumps(_views(game))
                if after != before:
                    pytest.fail(
                        f"{game_id} (seed {seed}): a settlement shares "
                        f"{_where(json.loads(before), json.loads(after))} with the engine"
                    )
            if game.is_over:
                break
            game.apply(*choose(game, rng))
    assert vandalized >= HANDS[game_id]

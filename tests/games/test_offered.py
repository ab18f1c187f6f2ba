"""bot.engine.offered over random games of every engine: each offered action maps to the engine's own object,
anything else to None (a key of its own, another JSON type, a card not in hand, another seat's action)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from bot.engine.offered import offered, why_not
from bot.engine.protocol import Game
from bot.games import registry
from bot.images import sprites

GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "wizard": (3, {"rounds": "1-3"}),
    "mighty": (5, {"hands": 1, "weak_hand_misdeal": False}),
    "mediatore": (4, {"hands": 1}),
    "minchiate": (4, {}),
}


def _game(game_id: str, seed: int) -> Game:
    n, options = GAMES[game_id]
    cls = registry.game_class(game_id)
    return cls(n, cls.normalize_options(options, n), seed)


def _combo_picks(rng: random.Random, prompt: dict[str, Any]) -> dict[str, Any]:
    """A combination as a page might send it: the picks in any order (several ids always as a list)."""
    action: dict[str, Any] = {"type": prompt["type"], **{k: v for k, v in prompt["fixed"].items() if v is not None}}
    for f in prompt["fields"]:
        picked = rng.sample(f["from"], f["count"])
        action[f["key"]] = picked[0] if f["count"] == 1 and rng.random() < 0.5 else picked
    return action


def _forgeries(action: dict[str, Any], hand: list[str], deck: list[str]) -> list[Any]:
    """Variants of an offered action that must all be refused."""
    out: list[Any] = [{**action, "zz_forged": "marker"}, {**action, "type": action["type"] + "x"}, [action], None]
    for key, value in action.items():
        if key == "type":
            continue
        if isinstance(value, bool):
            out.append({**action, key: int(value)})
        elif isinstance(value, int):
            out += [{**action, key: str(value)}, {**action, key: float(value) + 0.5}]
            if value in (0, 1):
                out.append({**action, key: bool(value)})
        elif isinstance(value, str):
            out.append({**action, key: [value, value]})
            outside = next((c for c in deck if c not in hand and c != value), None)
            if value in hand and outside is not None:
                out.append({**action, key: outside})  # a card not in hand
        elif isinstance(value, list):
            out.append({**action, key: value[:-1]})
            if value:
                out.append({**action, key: [*value[:-1], value[0]]})  # a pick twice
    return out


@pytest.mark.parametrize("game_id", list(GAMES))
def test_offered_actions_canonicalise_and_nothing_else_passes(game_id: str) -> None:
    rng = random.Random(f"offered-{game_id}")
    deck = list(sprites.DECKS[registry.get(game_id).deck])
    combos = 0
    for seed in range(2):
        game = _game(game_id, seed)
        steps = 0
        while not game.is_over and steps < 400:
            steps += 1
            seat = rng.choice(game.to_move())
            view = game.view(seat)
            hand = list(view.get("hand") or [])
            legal = game.legal_actions(seat)
            prompt = view.get("prompt") or {}
            for entry in rng.sample(legal, min(4, len(legal))):
                sent = copy.deepcopy(entry)
                got = offered(game, seat, sent)
                assert got == entry and got is not sent, (game_id, entry, got)
                for forged in _forgeries(entry, hand, deck):
                    if forged in legal and isinstance(forged, dict) and offered(game, seat, forged) == forged:
                        continue  # (a variant that happens to be another offered action, e.g. bid 1 -> bid 0)
                    assert offered(game, seat, forged) is None, (game_id, entry, forged)
                # another seat may not send it (unless it is offered that seat too, e.g. simultaneous bids)
                for other in range(game.num_seats):
                    if other != seat and entry not in game.legal_actions(other):
                        assert offered(game, other, copy.deepcopy(entry)) is None
                        assert why_not(game, other, entry).code
            action: dict[str, Any] = rng.choice(legal)
            bids = [a for a in legal if a["type"] == "bid"]
            if bids:  # a low contract, soon passed: a walk at random rarely reaches the cards to discard
                action = bids[0] if rng.random() < 0.25 else next((a for a in legal if a["type"] == "pass"), action)
            if prompt.get("kind") == "combo":
                for _ in range(20):
                    sent = _combo_picks(rng, prompt)
                    got = offered(game, seat, sent)
                    if got is None:
                        continue
                    combos += 1
                    # the canonical form: exactly the prompt's keys, one id as text, several in the prompt's order
                    for f in prompt["fields"]:
                        value = got[f["key"]]
                        if f["count"] == 1:
                            assert type(value) is str
                        else:
                            assert value == [c for c in f["from"] if c in value]
                    assert set(got) == set(sent) and game.is_legal(seat, got)
                    assert offered(game, seat, {**sent, "zz_forged": "marker"}) is None
                    action = got
                    break
            game.apply(seat, action)
        assert steps > 20
    # the games with a combination prompt (the cards to discard) met one
    assert combos > 0 or game_id == "wizard"


def test_why_not_gives_the_engines_own_reason() -> None:
    game = _game("wizard", 240)
    seat = game.to_move()[0]
    other = (seat + 1) % game.num_seats
    assert why_not(game, other, game.legal_actions(seat)[0]).code != "unknown_action"
    # an action the engine itself would have taken (a key of its own): no reason of the engine's
    assert why_not(game, seat, {**game.legal_actions(seat)[0], "zz_forged": 1}).code == "unknown_action"
    assert why_not(game, seat, "play").code == "unknown_action"

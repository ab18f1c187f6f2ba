"""The engines' refusals are codes with data parameters (the words are the renderers'): a few of each game."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.errors import IllegalAction, InvalidOptions
from bot.engine.protocol import Action, Game
from bot.games import registry


def _new(game_id: str, seats: int, options: dict[str, Any] | None = None, seed: int = 3) -> Game:
    return registry.game_class(game_id)(seats, options or {}, seed)  # type: ignore[call-arg]


def _refused(game: Game, seat: int, action: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    return info.value


def _options_refused(game_id: str, seats: int, options: dict[str, Any]) -> InvalidOptions:
    with pytest.raises(InvalidOptions) as info:
        registry.game_class(game_id).normalize_options(options, seats)
    return info.value


@pytest.mark.parametrize("game_id", ["wizard", "mighty", "mediatore", "minchiate"])
def test_generic_codes(game_id: str) -> None:
    spec = registry.get(game_id)
    g = _new(game_id, spec.max_seats)
    mover = g.to_move()[0]
    other = next(s for s in range(g.num_seats) if s not in g.to_move())
    legal: Action = g.legal_actions(mover)[0]
    assert _refused(g, other, legal).code in ("not_your_turn", "not_your_bid_turn", "already_bid")
    assert _refused(g, mover, "play").code == "unknown_action"
    err = _options_refused(game_id, spec.max_seats, {"colour": "red"})
    assert (err.code, err.params) == ("unknown_options", {"names": ("colour",), "n": 1})
    err = _options_refused(game_id, spec.max_seats + 1, {})
    assert err.code in ("seats_exact", "seats_range") and err.params["game"] == spec.title


def test_wizard_codes() -> None:
    g = _new("wizard", 3, {"rounds": [2]})
    seat = g.to_move()[0]
    assert (_refused(g, seat, {"type": "bid", "n": 9}).params) == {"lo": 0, "hi": 2}
    assert _refused(g, seat, {"type": "play", "card": "WIZ1"}).code == "not_play_time"
    assert _refused(g, seat, {"type": "trump", "suit": "H"}).code == "not_trump_time"
    for options, code, params in [
        ({"rounds": "x"}, "rounds_format", {"option": "rounds"}),
        ({"rounds": []}, "rounds_empty", {"option": "rounds"}),
        ({"rounds": [3, 1]}, "rounds_order", {"option": "rounds"}),
        ({"rounds": [99]}, "rounds_size", {"option": "rounds", "hi": 20}),
        ({"first_dealer": 7}, "first_dealer_range", {"option": "first_dealer", "hi": 2}),
        ({"bid_mode": "loud"}, "option_choice", {"option": "bid_mode", "choices": ("open", "simultaneous", "secret")}),
        ({"stake_per_point": -1}, "option_range", {"option": "stake_per_point", "lo": 0, "hi": 1_000_000}),
        ({"first_round_blind": 1}, "option_bool", {"option": "first_round_blind"}),
    ]:
        err = _options_refused("wizard", 3, options)
        assert (err.code, err.params) == (code, params), options
    err = _options_refused("wizard", 3, {"bid_restriction": True, "bid_mode": "secret"})
    assert err.code == "hook_needs_open"


def test_mighty_codes() -> None:
    g = _new("mighty", 5)
    seat = g.to_move()[0]
    assert _refused(g, seat, {"type": "bid", "n": 25, "trump": "S"}).params == {"lo": 13, "hi": 20}
    assert _refused(g, seat, {"type": "bid", "n": 15, "trump": "X"}).code == "choose_trump"
    assert _refused(g, seat, {"type": "play", "card": "AS"}).code == "not_now"


def test_mediatore_codes() -> None:
    g = _new("mediatore", 4)
    seat = g.to_move()[0]
    assert _refused(g, seat, {"type": "bid", "contract": "grande"}).code == "unknown_contract"
    assert _refused(g, seat, {"type": "play", "card": "AD"}).code == "bid_or_pass"
    g.apply(seat, {"type": "bid", "contract": "solo"})
    nxt = g.to_move()[0]
    assert _refused(g, nxt, {"type": "bid", "contract": "chiamo"}).code == "bid_not_higher"


def test_str_stays_an_english_sentence() -> None:
    g = _new("mediatore", 4)
    err = _refused(g, g.to_move()[0], {"type": "bid", "contract": "grande"})
    assert str(err) == "There is no such contract."
    assert repr(err) == "IllegalAction('unknown_contract')"

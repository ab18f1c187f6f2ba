"""The Activity's VIEW as data a page lays out (bot/activity/views.py, asks.py): choices by their shape with none of
Discord's limits, seat plates, the reasons of dimmed cards, and only the table buttons its reader may use."""

from __future__ import annotations

import json
import random

import pytest
from activity_client.tables import advance, new_table

from bot.activity import views
from bot.i18n import using
from bot.tables.model import Seat, Table


def _at(game: str, until: object) -> Table:
    for seed in range(1, 60):
        t = new_table(game, seed)
        if advance(random.Random(seed), t, until):  # type: ignore[arg-type]
            return t
    raise AssertionError("state not reached")


def _phase(t: Table) -> str:
    assert t.game is not None
    return str(t.game.public_view().get("phase"))


def _view(t: Table, seat: int | None = 0, user: int | None = 1, locale: str = "en") -> dict[str, object]:
    with using(locale):
        return views.view_of(t, seat, None, user)


def test_mightys_bids_are_one_number_ask_holding_every_bid() -> None:
    t = _at("mighty", lambda t: _phase(t) == "auction" and 0 in t.game.to_move())  # type: ignore[union-attr]
    assert t.game is not None
    asks = _view(t)["private"]["asks"]  # type: ignore[index]
    numbers = [a for a in asks if a["kind"] == "number"]
    assert len(numbers) == 1 and numbers[0]["symbol_key"] == "trump"
    bids = [a for a in t.game.legal_actions(0) if a["type"] == "bid"]
    assert len(bids) > 25  # Discord needs two menus for these
    assert sorted(map(json.dumps, (o["action"] for o in numbers[0]["options"]))) == sorted(map(json.dumps, bids))
    # the symbols: the four suits by their signs, no trump in the reader's words
    texts = {s["value"]: s["text"] for s in numbers[0]["symbols"]}
    assert texts["S"] == "♠" and texts["NT"] == "No trump"
    with using("ko"):
        ko = views.view_of(t, 0, None, 1)["private"]["asks"]
    assert next(a for a in ko if a["kind"] == "number")["symbols"][-1]["text"] != "No trump"


def test_wizards_bid_is_a_number_and_a_friend_call_a_card_picker() -> None:
    t = _at("wizard", lambda t: _phase(t) == "bid" and 0 in t.game.to_move())  # type: ignore[union-attr]
    assert t.game is not None
    (ask,) = _view(t)["private"]["asks"]  # type: ignore[index]
    assert ask["kind"] == "number" and [o["value"] for o in ask["options"]] == [a["n"] for a in t.game.legal_actions(0)]
    m = _at("mighty", lambda t: _phase(t) == "call" and 0 in t.game.to_move())  # type: ignore[union-attr]
    kinds = [a["kind"] for a in _view(m)["private"]["asks"]]  # type: ignore[index]
    assert kinds == ["cards", "buttons"]


def test_dimmed_cards_carry_the_engines_reason_and_the_game_is_untouched() -> None:
    t = _at(
        "wizard",
        lambda t: (
            _phase(t) == "play"
            and 0 in t.game.to_move()  # type: ignore[union-attr]
            and len(t.game.legal_actions(0)) < len(t.game.view(0)["hand"])  # type: ignore[union-attr]
        ),
    )
    assert t.game is not None
    before = json.dumps(t.game.view(0), sort_keys=True)
    hand = _view(t)["private"]["hand"]  # type: ignore[index]
    legal = {a["card"] for a in t.game.legal_actions(0)}
    assert set(hand["why"]) == set(hand["cards"]) - legal
    assert all("follow suit" in r for r in hand["why"].values())
    assert json.dumps(t.game.view(0), sort_keys=True) == before


@pytest.mark.parametrize("game", ["wizard", "mighty", "mediatore", "minchiate"])
def test_every_seat_has_a_plate_with_its_words(game: str) -> None:
    t = _at(game, lambda t: _phase(t) == "play")
    scene = _view(t)["scene"]
    plates = scene["plates"]  # type: ignore[index]
    assert len(plates) == len(t.seats)
    assert all(any(c["kind"] == "score" for c in p["chips"]) for p in plates)
    assert [p["computer"] for p in plates] == [s.is_computer for s in t.seats]
    assert sum(p["dealer"] for p in plates) == 1


def test_table_buttons_only_for_who_may_use_them() -> None:
    t = _at("wizard", lambda t: _phase(t) == "play")
    ops = lambda seat, user: [b["op"] for b in _view(t, seat, user)["buttons"]]  # noqa: E731
    assert "end" in ops(0, 1)  # the host
    assert "end" not in ops(1, 2)  # another player
    assert ops(None, 99) == []  # a spectator
    lobby = new_table("wizard", 1)
    lobby.status, lobby.game = "lobby", None
    lobby.seats = [Seat(1, "Alice"), Seat(2, "Bruno")]
    assert "join" not in ops_of(lobby, 1) and {"start", "leave", "cancel"} <= set(ops_of(lobby, 1))
    assert "join" not in ops_of(lobby, 2) and "start" not in ops_of(lobby, 2) and "leave" in ops_of(lobby, 2)
    assert ops_of(lobby, 3) == ["join"]


def ops_of(t: Table, user: int) -> list[str]:
    return [b["op"] for b in _view(t, t.seat_of(user), user)["buttons"]]

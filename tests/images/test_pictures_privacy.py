"""Privacy of the pictures' inputs: over many random positions of all four games, a table picture shows only cards
its public view shows, and a hand picture only that seat's cards and public ones; and every scene renders."""

from __future__ import annotations

import json
import random

import pytest

from bot.games import registry
from bot.games.spec import pictures_of
from bot.images import DECKS
from bot.images.scene import HandScene, TableScene

SEATS = {"wizard": 4, "mediatore": 4, "mighty": 5, "minchiate": 4}


def _named(view: object, deck: str) -> set[str]:
    """The cards of ``deck`` a view names anywhere (as JSON strings)."""
    text = json.dumps(view)
    return {c for c in DECKS[deck] if f'"{c}"' in text}


@pytest.mark.parametrize("game_id", sorted(SEATS))
@pytest.mark.parametrize("seed", range(3))
def test_pictures_show_only_what_their_view_may(game_id: str, seed: int) -> None:
    spec = registry.get(game_id)
    pictures = pictures_of(spec.renderer)
    assert pictures is not None and spec.deck is not None
    rng = random.Random(seed)
    game = spec.engine(SEATS[game_id], None, seed)
    names = [f"P{i}" for i in range(game.num_seats)]
    rendered = 0
    for step in range(400):
        movers = game.to_move()
        if not movers:
            break
        public = game.public_view()
        table = pictures.table_picture(public, names)
        if table is not None:
            assert isinstance(table, TableScene) and table.deck == spec.deck
            assert len(table.seats) == game.num_seats
            assert table.cards() <= _named(public, spec.deck), "a table picture shows a card its view does not"
            hands = [set(game.view(s)["hand"]) for s in range(game.num_seats)]
            hidden = set().union(*hands) - _named(public, spec.deck)
            assert not table.cards() & hidden
        for seat in range(game.num_seats):
            view = game.view(seat)
            hand = pictures.hand_picture(view)
            if hand is None:
                continue
            assert isinstance(hand, HandScene) and hand.deck == spec.deck
            assert hand.cards() <= set(view["hand"]) | _named(public, spec.deck)
            assert hand.legal is None or hand.legal <= set(view["hand"])
            if step % 40 == seat:  # render a sample: every scene is valid renderer input
                assert hand.render(None).startswith(b"\x89PNG")
                rendered += 1
        if table is not None and step % 40 == 0:
            assert table.render(None).startswith(b"\x89PNG")
        seat = movers[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert rendered > 0

"""Every private panel of every game becomes components Discord accepts (ids, rows, option counts).

Renders many random states of each game through the same code the cog uses and checks Discord's rules:
unique custom_ids (Discord rejects duplicates with COMPONENT_CUSTOM_ID_DUPLICATED), at most 5 rows and
5 buttons per row, 1-25 options per select, custom_ids and option values of at most 100 characters, and
that every offered action decodes back to a legal action of that seat.
"""

from __future__ import annotations

import random

import discord
import pytest

from bot.games.registry import game_class, renderer
from cogs._components import decode_action, view_of

SETUPS = {"wizard": 4, "mediatore": 4, "mighty": 5, "minchiate": 4}


@pytest.mark.parametrize("game_id", list(SETUPS))
def test_panels_are_valid_discord_components(game_id: str) -> None:
    cls = game_class(game_id)
    render = renderer(game_id)
    n = SETUPS[game_id]
    names = [f"Player {i + 1}" for i in range(n)]
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = cls(n, {}, seed)  # type: ignore[call-arg]
        for step in range(400):
            if game.is_over or not game.to_move():
                break
            for seat in game.to_move():
                panel = render.private_panel(game.view(seat), names)
                legal = game.legal_actions(seat)
                view = view_of(panel, 7, step, legal)
                if view is None:
                    continue
                checked += 1
                _check(view, game, seat, legal)
            seat = game.to_move()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked > 50


def _check(view: discord.ui.View, game: object, seat: int, legal: list[dict[str, object]]) -> None:
    rows = view.to_components()
    assert 1 <= len(rows) <= 5
    ids: list[str] = []
    for row in rows:
        children = row["components"]
        assert 1 <= len(children) <= 5
        for c in children:
            cid = c["custom_id"]
            assert len(cid) <= 100
            ids.append(cid)
            if c["type"] == 3:
                assert len(children) == 1 and 1 <= len(c["options"]) <= 25
                for o in c["options"]:
                    assert len(o["value"]) <= 100 and len(o["label"]) <= 100
                    if ":pick:" in cid:
                        action = decode_action(o["value"], lambda: legal)
                        assert action in legal, action
            elif ":act:" in cid:
                action = decode_action(cid.split(":", 4)[4], lambda: legal)
                assert action in legal, action
    assert len(ids) == len(set(ids)), f"duplicate custom_ids: {ids}"

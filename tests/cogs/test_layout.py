"""Every panel of every game as a Components V2 message passes the fake Discord's V2 checks, and those checks
refuse what Discord refuses (content or embeds with the flag, bad nesting, over 40 components or 4000 characters,
long custom ids, an ``attachment://`` nobody uploaded), in Discord's nested error structure."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fakediscord.validation import FLAG_COMPONENTS_V2, count_components, v2_text_length, validate_message

from bot.games.registry import game_class, renderer
from bot.render.base import Panel, Section
from cogs._components import control_rows
from cogs._layout import MAX_TEXT, layout_message

SETUPS = {"wizard": 4, "mediatore": 4, "mighty": 5, "minchiate": 4}


def _body(panel: Panel, rows: list[Any], picture: str | None) -> dict[str, Any]:
    msg = layout_message(panel, 0x123456, rows, picture=picture, author="Game — table #7 — seat 1")
    assert msg.view is not None and msg.v2
    return {"components": msg.view.to_components(), "flags": FLAG_COMPONENTS_V2}


@pytest.mark.parametrize("game_id", list(SETUPS))
def test_every_private_and_public_panel_is_a_valid_v2_message(game_id: str) -> None:
    cls, render, n = game_class(game_id), renderer(game_id), SETUPS[game_id]
    names = [f"Player {i + 1}" for i in range(n)]
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        game = cls(n, {}, seed)  # type: ignore[call-arg]
        for step in range(300):
            if game.is_over or not game.to_move():
                break
            body = _body(render.public_panel(game.public_view(), names), [], "table-x.png")
            assert not validate_message(body, None, {"table-x.png"}).items
            for seat in game.to_move():
                panel = render.private_panel(game.view(seat), names)
                rows = control_rows(panel, 7, step, game.legal_actions(seat))
                body = _body(panel, rows, "hand-x.png")
                errors = validate_message(body, None, {"hand-x.png"})
                assert not errors.items, errors.body()
                assert count_components(body["components"]) <= 40
                checked += 1
            seat = game.to_move()[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked > 50


def test_long_panels_are_cut_to_the_text_limit() -> None:
    panel = Panel("T", "d" * 3000, [Section(f"s{i}", "v" * 1000) for i in range(6)], footer="f" * 500)
    body = _body(panel, [], None)
    assert v2_text_length(body["components"]) <= MAX_TEXT
    assert not validate_message(body).items


def _errors(body: dict[str, Any], current: dict[str, Any] | None = None, names: set[str] | None = None) -> Any:
    return validate_message(body, current, names if names is not None else set()).body()


def _text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def test_v2_checks_refuse_what_discord_refuses() -> None:
    v2 = FLAG_COMPONENTS_V2
    ok = {"flags": v2, "components": [{"type": 17, "components": [_text("hi")]}]}
    assert _errors(ok)["errors"] == {}
    # no content or embeds with the flag
    e = _errors({**ok, "content": "x", "embeds": [{"title": "t"}]})
    assert e["code"] == 50035 and set(e["errors"]) >= {"content", "embeds"}
    # a button may not stand at the top level, a container not in a container
    e = _errors({"flags": v2, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "c"}]})
    assert "type" in e["errors"]["components"]["0"]
    e = _errors({"flags": v2, "components": [{"type": 17, "components": [{"type": 17, "components": []}]}]})
    assert "type" in e["errors"]["components"]["0"]["components"]["0"]
    # 41 components, 4001 characters
    e = _errors({"flags": v2, "components": [_text("x")] * 41})
    assert e["errors"]["components"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    e = _errors({"flags": v2, "components": [_text("x" * 2001), _text("y" * 2000)]})
    assert e["errors"]["components"]["_errors"][0]["code"] == "COMPONENT_MAX_TOTAL_TEXT_LENGTH"
    # a custom id of 101 characters inside a container's action row
    button = {"type": 2, "style": 1, "label": "b", "custom_id": "c" * 101}
    e = _errors({"flags": v2, "components": [{"type": 17, "components": [{"type": 1, "components": [button]}]}]})
    assert "custom_id" in e["errors"]["components"]["0"]["components"]["0"]["components"]["0"]
    # a gallery pointing at a file that is neither uploaded nor kept
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://a.png"}}]}
    e = _errors({"flags": v2, "components": [gallery]})
    assert "url" in e["errors"]["components"]["0"]["items"]["0"]["media"]
    assert _errors({"flags": v2, "components": [gallery]}, names={"a.png"})["errors"] == {}
    # an edit of a V2 message is checked as the message it makes: the flag stays, embeds stay out
    current = {"content": "", "embeds": [], "components": ok["components"], "flags": v2}
    assert "embeds" in _errors({"embeds": [{"title": "t"}]}, current)["errors"]
    assert "flags" in _errors({"flags": 0}, current)["errors"]

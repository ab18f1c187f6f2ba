"""Every card of every deck is drawn, has the sheet's size, and looks different from every other card."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.engine.cards import FRENCH_52_JOKER, ITALIAN_40, MINCHIATE_97, WIZARD_60
from bot.games import registry
from bot.images import card_png, sprites
from bot.images.sprites import BASE_HEIGHT, DECKS, card_size, sheet


def test_decks_are_the_engine_decks() -> None:
    expected = {"french": FRENCH_52_JOKER, "wizard60": WIZARD_60, "italian": ITALIAN_40, "minchiate97": MINCHIATE_97}
    assert expected == DECKS
    assert {s.deck for s in registry.specs()} == set(DECKS)
    assert len(DECKS["minchiate97"]) == 97 and len(DECKS["wizard60"]) == 60


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_every_card_is_drawn_and_distinct(deck: str) -> None:
    sh = sheet(deck)
    assert list(sh.faces) == list(DECKS[deck])
    pixels: dict[bytes, str] = {}
    for card, img in sh.faces.items():
        assert img.size == card_size(BASE_HEIGHT) and img.mode == "RGBA"
        raw = img.tobytes()
        assert raw not in pixels, f"{card} looks exactly like {pixels.get(raw)}"
        pixels[raw] = card
        # a card is opaque inside (only its rounded corners are transparent) and not blank
        assert img.getpixel((img.width // 2, img.height // 2))[3] == 255  # type: ignore[index]
        assert len(img.convert("RGB").getcolors(maxcolors=1 << 20) or ()) > 20
    # the dimmed faces differ from the plain ones and from each other
    assert len({im.tobytes() for im in sh.dimmed.values()}) == len(sh.dimmed)
    assert all(sh.dimmed[c].tobytes() != sh.faces[c].tobytes() for c in sh.faces)


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_downscaled_sheets_stay_distinct(deck: str) -> None:
    sh = sheet(deck, 78)  # the smallest size used (the table's last trick)
    assert len({im.tobytes() for im in sh.faces.values()}) == len(DECKS[deck])
    assert sheet(deck, 78) is sh  # drawn once


def test_wizards_and_jesters_are_told_apart() -> None:
    faces = sheet("wizard60").faces
    assert len({faces[c].tobytes() for c in ("WIZ1", "WIZ2", "WIZ3", "WIZ4")}) == 4
    assert len({faces[c].tobytes() for c in ("JES1", "JES2", "JES3", "JES4")}) == 4


@pytest.mark.parametrize(
    ("deck", "card"), [("french", "TD"), ("wizard60", "WIZ3"), ("italian", "NB"), ("minchiate97", "T40")]
)
def test_card_png(deck: str, card: str) -> None:
    data = card_png(deck, card)
    assert data.startswith(b"\x89PNG") and len(data) < 150_000
    img = Image.open(io.BytesIO(data))
    assert img.size[1] == BASE_HEIGHT + 12
    assert card_png(deck, card) == data


def test_unknown_deck_and_card() -> None:
    with pytest.raises(KeyError):
        sheet("tarot")
    with pytest.raises(KeyError):
        card_png("french", "10H")  # a Wizard id, not a Mighty one
    with pytest.raises(KeyError):
        sprites.draw_card("uno", "R1")

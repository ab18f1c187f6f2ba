"""Every word drawn in a picture comes from the catalogue, in the reader's language.

The pictures (bot/games/*/pictures.py drawn by bot/images: table plates and centre, hand, end-of-hand reveal, the
standings) are rendered in the pseudo-locale (``qps``: every catalogue text comes out accented and wrapped in
``⟦…⟧``). Every string handed to the text drawing function (:func:`bot.images.text.draw_text`) is captured — no
OCR. Once the wrapped parts, the players' names and the card symbols are removed, no letter may be left: a letter
outside a wrapper is English that a Korean, Polish, Russian or Italian reader would see in the picture. Names are
the issue's first evening (five scripts, an emoji) plus a computer seat, whose stored English name is shown in the
reader's language.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from records.randgames import Played, play_random

from bot.i18n import PSEUDO, using
from bot.images import text as itext
from bot.images.scene import RevealScene, TableScene
from bot.images.standings import Rating, StandingRow, Standings, render_standings
from bot.images.table import SeatInfo
from bot.ledger.texts import amount_text
from bot.records import _games
from bot.tables.model import COMPUTER_NAME, display_name

GAMES = _games.game_ids()
PEOPLE = ["민수", "Алексей", "Łukasz Żółw", "李雷", "Zoë 🎲", "Ann"]
#: a catalogue text, or one clipped to fit (an ellipsis where its end was cut off)
WRAPPED = re.compile(r"⟦[^⟦⟧]*(?:⟧|…$)")


def leftover(text: str, names: list[str]) -> str:
    """The letters of a drawn string outside catalogue texts and the players' names."""
    prev = None
    while prev != text:  # innermost first: a translated text may be a placeholder of another
        prev, text = text, WRAPPED.sub("", text)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
        for k in range(len(name) - 1, 0, -1):  # a name clipped to fit its plate
            text = text.replace(name[:k] + "…", "")
    return "".join(c for c in text if c.isalpha())


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string drawn from now on (the drawing still happens)."""
    seen: list[str] = []
    real: Callable[..., Any] = itext.draw_text

    def spy(img: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(text)
        return real(img, xy, text, *args, **kwargs)

    monkeypatch.setattr(itext, "draw_text", spy)
    return seen


def _names(n: int) -> list[str]:
    # the last seat is a computer: its stored name is English, the reader sees it in their language
    return [*PEOPLE[: n - 1], display_name(COMPUTER_NAME.format(n=1))]


def _scenes(p: Played, names: list[str], steps: int) -> Iterator[Any]:
    r = _games.renderer(p.game_id)
    idx = sorted(random.Random(p.seed).sample(range(len(p.publics)), min(steps, len(p.publics))))
    for i in idx:
        public = p.publics[i]
        for scene in (r.table_picture(public, names), r.reveal_picture(public, names)):
            if scene is not None:
                yield scene
        for view in p.views[i][:1]:
            hand = r.hand_picture(view)
            if hand is not None:
                yield hand


@pytest.mark.parametrize("game_id", GAMES)
def test_every_drawn_word_is_from_the_catalogue(game_id: str, drawn: list[str]) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        p = play_random(game_id, seed)
        with using(PSEUDO):
            names = _names(p.num_seats)
            for scene in _scenes(p, names, steps=14):
                kinds.add(type(scene).__name__)
                scene.render(cache=None)
        for text in drawn:
            left = leftover(text, names)
            assert not left, f"{game_id} seed {seed}: {left!r} drawn in English in {text!r}"
        drawn.clear()
    assert "TableScene" in kinds, "no table picture was drawn"


def test_standings_draw_only_the_callers_words(drawn: list[str]) -> None:
    with using(PSEUDO):
        names = _names(4)
        rows = tuple(
            StandingRow(i + 1, n, 5 - 3 * i, amount_text(5 - 3 * i, "stake"), Rating(25.0, 8.3, "25 ± 8"), (1, -2))
            for i, n in enumerate(names)
        )
        render_standings(Standings(amount_text(2, "resto"), rows))
    assert drawn
    for text in drawn:
        assert not leftover(text, names), text


def test_the_check_catches_english_in_a_picture(drawn: list[str]) -> None:
    with using(PSEUDO):
        seats = (SeatInfo("Ann", "3 tricks", True, None), SeatInfo("Bob", "", False, None))
        seats += (SeatInfo("Cy", "", False, None),)
        TableScene("french", seats, centre_text="20 NT").render(cache=None)
        RevealScene("french", ()).render(cache=None)
    lefts = {leftover(t, ["Ann", "Bob", "Cy"]) for t in drawn}
    assert "tricks" in lefts and "NT" in lefts
    assert leftover("⟦téám {x}⟧ A · 3/21", []) == "A"  # a letter outside the wrapper is caught
    assert leftover("⟦Láss tríç…", []) == ""  # clipped to fit: still the catalogue's


@pytest.mark.parametrize("locale", ["en", "it", "ko", "pl", "ru"])
def test_a_no_trump_contract_fits_the_middle_of_the_table(locale: str, drawn: list[str]) -> None:
    from bot.i18n import _p

    with using(locale):
        label = "20 " + _p("mighty short", "NT")
        seats = tuple(SeatInfo(n, "0/10", False, None) for n in PEOPLE[:5])
        TableScene("french", seats, centre_text=label).render(cache=None)
    assert label in drawn  # drawn whole, not clipped

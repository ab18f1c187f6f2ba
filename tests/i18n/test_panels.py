"""Every text the renderers produce comes from the catalogue, and fits Discord's limits in every language.

Random games of all four engines are rendered in the pseudo-locale (``qps``: every catalogue text comes out
wrapped in ``⟦…⟧``): public and private panels after every action, settlements, rules, lobby notes, replay
narration, the table service's screens. Whatever is left once the wrapped parts are removed must be data — player
names, card symbols, numbers, punctuation — so a letter outside a wrapper is a hard-coded string. The same
positions are rendered in every supported language and checked against Discord's lengths.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator

import pytest
from records.randgames import Played, play_random

from bot.i18n import PSEUDO, SUPPORTED, using
from bot.records import _games
from bot.render import base
from bot.render.base import Panel
from bot.tables import screens
from bot.tables.model import COMPUTER_NAME, Seat, Table

GAMES = _games.game_ids()
WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")


def leftover(text: str, data: Iterable[str]) -> str:
    """The letters of ``text`` outside catalogue texts and ``data`` (names, card labels)."""
    prev = None
    while prev != text:  # innermost first: a translated text may be a placeholder of another
        prev, text = text, WRAPPED.sub("", text)
    for d in sorted(data, key=len, reverse=True):
        text = text.replace(d, "")
    return "".join(c for c in text if c.isalpha())


def _panels(p: Played, steps: int | None = None) -> Iterator[Panel]:
    r = _games.renderer(p.game_id)
    idx = range(len(p.publics)) if steps is None else sorted(random.Random(7).sample(range(len(p.publics)), steps))
    for i in idx:
        yield r.public_panel(p.publics[i], p.players)
        for v in p.views[i]:
            yield r.private_panel(v, p.players)


def _texts(p: Played) -> Iterator[str]:
    """Everything but panels: settlements, rules, lobby note, replay narration, screens."""
    r = _games.renderer(p.game_id)
    for s in p.settlements:
        yield r.settlement_text(s, p.players)
    yield r.rules_text()
    yield r.lobby_note(p.num_seats)
    before = p.initial
    assert before is not None
    for (_, action), after in zip(p.log, p.publics, strict=True):
        text = r.describe(action, before)
        if text is not None:
            yield text
        yield from r.after_action(before, after, p.players)
        before = after
    seats = [Seat(10 + i, n) for i, n in enumerate(p.players)]
    # the last seat is a computer: its stored English name must reach every text in the reader's language
    seats[-1] = Seat(None, COMPUTER_NAME.format(n=1), "strong")
    table = Table(1, 1, 1, p.game_id, 10, p.options, p.seed, "lobby", seats, 90)
    yield screens.table_screen(table).panel.text()
    table.status, table.game = "finished", p.game
    yield screens.table_screen(table).panel.text()
    yield screens.final_text(table)
    for level in screens.LEVEL_HELP:
        yield screens.LEVEL_HELP[level] + screens.level_name(level)


def _data(p: Played) -> set[str]:
    r = _games.renderer(p.game_id)
    labels = {r.card_label(c) for c in _games.deck(p.game_id)}
    # the lobby lists options as typed in /<game> new (name=value) and cards as ids in combinations (T1+T13)
    options = {f"{k}={v}" for k, v in p.options.items()}
    return set(p.players) | labels | options | {"OpenSkill", "ISMCTS"}


def _check_pseudo(texts: Iterable[str], data: set[str], where: str) -> None:
    for text in texts:
        for line in text.splitlines():
            left = leftover(line, data)
            assert not left, f"{where}: hard-coded text {left!r} in {line!r}"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_text_is_from_the_catalogue(game_id: str) -> None:
    for seed in range(12):
        p = play_random(game_id, seed)
        with using(PSEUDO):
            data = _data(p)
            _check_pseudo((panel.text() for panel in _panels(p)), data, f"{game_id} seed {seed}")
            _check_pseudo(_texts(p), data, f"{game_id} seed {seed}")


def test_the_check_catches_a_hard_coded_text() -> None:
    with using(PSEUDO):
        assert leftover("⟦Láss tríçk⟧ Ann: Q♠", {"Ann", "Q♠"}) == ""
        assert leftover("Ann: Q♠ — won by Bob", {"Ann", "Q♠", "Bob"}) == "wonby"
        assert leftover("⟦Wáítíñg ⟦Cháñéé⟧ {x}⟧ yes", set()) == "yes"


def _check_limits(panel: Panel, where: str) -> None:
    assert len(panel.title) <= base.TITLE_MAX, where
    assert len(panel.description) <= base.DESCRIPTION_MAX, where
    assert len(panel.footer) <= base.FOOTER_MAX, where
    for s in panel.sections:
        assert len(s.name) <= base.FIELD_NAME_MAX and len(s.value) <= base.FIELD_VALUE_MAX, f"{where}: {s.name}"
    for c in panel.controls:
        assert len(c.placeholder) <= base.PLACEHOLDER_MAX, f"{where}: {c.placeholder}"
        for ch in c.choices:
            assert len(ch.label) <= base.BUTTON_LABEL_MAX, f"{where}: {ch.label}"
            assert ch.description is None or len(ch.description) <= base.OPTION_DESCRIPTION_MAX, where
        for f in c.fields:
            assert len(f.placeholder) <= base.PLACEHOLDER_MAX, where
            assert all(len(label) <= base.OPTION_LABEL_MAX for label, _ in f.options), where


@pytest.mark.parametrize("locale", SUPPORTED)
@pytest.mark.parametrize("game_id", GAMES)
def test_discord_limits_in_every_language(game_id: str, locale: str) -> None:
    for seed in range(3):
        p = play_random(game_id, 100 + seed)
        with using(locale):
            for panel in _panels(p, steps=min(60, len(p.publics))):
                _check_limits(panel, f"{game_id}/{locale}/{seed}")
            assert len(_games.renderer(game_id).rules_text()) <= base.DESCRIPTION_MAX
            for s in p.settlements:
                assert len(_games.renderer(game_id).settlement_text(s, p.players)) <= base.DESCRIPTION_MAX


def test_fit_clips_after_translation() -> None:
    panel = Panel("t" * 300, "d" * 5000, [base.Section("n" * 300, "v" * 2000)], footer="f" * 3000)
    panel.controls.append(base.Control("buttons", "p" * 200, [base.Choice("l" * 120, {}, description="x" * 150)]))
    base.fit(panel)
    _check_limits(panel, "fit")
    assert panel.sections[0].value.endswith("…") and len(panel.controls[0].choices[0].label) == 80

"""``/table replay`` pages reveal nothing the hand did not make public, apart from the viewer's own cards."""

from __future__ import annotations

import json
import re

import pytest

from bot.records import _games
from bot.records.pages import finished_hands, replay_pages
from bot.records.replay import record_from_log, replay

from .randgames import play_random

GAMES = ("mediatore", "mighty", "minchiate", "wizard")


def _page_text(page: object) -> str:
    parts = [page.title, *page.lines, page.public.text()]  # type: ignore[attr-defined]
    if page.own is not None:  # type: ignore[attr-defined]
        parts.append(page.own.text())  # type: ignore[attr-defined]
    parts += [f"{n} {c}" for n, c in page.hands]  # type: ignore[attr-defined]
    return "\n".join(parts)


def _shown(label: str, text: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(label) + r"(?!\w)", text) is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_replay_pages_show_only_public_cards_and_the_viewers_own(game_id: str) -> None:
    deck = _games.deck(game_id)
    # interchangeable cards (the four Wizards, the four Jesters) share a label that also names the game
    counts: dict[str, int] = {}
    for c in deck:
        counts[_games.card_label(game_id, c)] = counts.get(_games.card_label(game_id, c), 0) + 1
    checked = 0
    # 6 random games per engine, every finished hand of each seen by every seat (the views' own privacy is
    # property-tested per engine over many more games)
    for seed in range(6):
        played = play_random(game_id, 1000 + seed, views=False)
        rec = record_from_log(game_id, played.players, played.options, played.seed, played.log)
        done = replay(rec, views=True, check=False)
        for hand in finished_hands(done):
            steps = done.steps_of(hand)
            start = steps[0].index
            publics = [done.initial if start == 0 else done.steps[start - 1].public] + [s.public for s in steps]
            public_text = json.dumps(publics)
            for viewer in range(rec.num_seats):
                before_views = done.initial_views if start == 0 else done.steps[start - 1].views
                assert before_views is not None
                own = json.dumps([before_views[viewer]] + [s.views[viewer] for s in steps if s.views])
                allowed = {c for c in deck if f'"{c}"' in public_text or f'"{c}"' in own}
                hidden = set(deck) - allowed
                text = "\n".join(_page_text(p) for p in replay_pages(rec, hand, viewer=viewer))
                for card in hidden:
                    label = _games.card_label(game_id, card)
                    if counts[label] > 1:
                        continue
                    assert not _shown(label, text), (seed, hand, viewer, card)
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_open_records_show_every_hand_and_a_page_per_trick(game_id: str) -> None:
    played = play_random(game_id, 7, views=False)
    rec = record_from_log(game_id, played.players, played.options, played.seed, played.log)
    done = replay(rec, views=True, check=False)
    hand = finished_hands(done)[0]
    pages = replay_pages(rec, hand, open_records=True)
    assert [n for n, _ in pages[0].hands] == rec.players
    assert all(p.own is None for p in pages)
    tricks = sum(1 for p in pages for line in p.lines if line.startswith("Trick "))
    assert tricks == len(pages) or (len(pages) == 1 and tricks == 0)

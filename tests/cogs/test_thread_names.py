"""Tournament table threads are named in the server's language, and found again under any language's name."""

from __future__ import annotations

from bot.i18n import SUPPORTED, using
from cogs.tournament import thread_name, thread_names


def test_a_thread_is_named_in_the_current_language() -> None:
    with using("it"):
        assert thread_name(3, 2, 1) == "T3 · turno 2 · tavolo 1"
    with using("ko"):
        assert thread_name(3, 2, 1) == "T3 · 2라운드 · 1번 테이블"
    with using("en"):
        assert thread_name(1234, 2, 1) == "T1234 · round 2 · table 1"  # an id is not a number to group


def test_a_restart_finds_the_thread_whatever_language_it_was_opened_in() -> None:
    known = thread_names(3, 2, 1)
    assert len(known) == len(SUPPORTED)  # one name per language, all different
    for locale in SUPPORTED:
        with using(locale):
            assert thread_name(3, 2, 1) in known
    assert thread_name(3, 2, 2) not in known and thread_name(4, 2, 1) not in known

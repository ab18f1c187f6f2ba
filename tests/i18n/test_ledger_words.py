"""The ledger's words read right in every language (issue 38): a payment message names each player once (not
``@A: @A paid @B``), a margin has no sign after "by" (not ``by +144 stakes``), the settle-up title names its unit
as a plural noun, a season's most-played game counts in the game's own unit (hands, games) rather than "hands or
games", the unmatched rest of a settle-up is a sentence, and no internal jargon (``no channel factory``, a
"process") reaches a user."""

from __future__ import annotations

import re
import string

import pytest

from bot.i18n import SUPPORTED, _, using
from bot.i18n import catalog as cat
from bot.ledger.recap import Closest, MostPlayed, Records
from bot.ledger.texts import currency_plural
from cogs.seasons import hands_and_games, record_lines

#: the payment messages and the players each one names (exactly once)
PAYMENT_TEXTS = {
    "💸 {payee}, {payer} says they paid you {amount}. Is that right? (until {deadline})": ("payer", "payee"),
    "💸 {payer}, {payee} says you paid them {amount}. Is that right? (until {deadline})": ("payer", "payee"),
    "✅ Recorded: {payer} paid {payee} {amount}.": ("payer", "payee"),
    "❌ {payer} declined: no payment of {amount} to {payee} is recorded.": ("payer", "payee"),
    "❌ {payee} declined: no payment of {amount} from {payer} is recorded.": ("payer", "payee"),
}
#: words of the code, not of the players
JARGON = re.compile(r"\b(factory|callback|payload|handler|listener|outbox|cog|process|traceback|snowflake)\b", re.I)


def _fields(text: str) -> list[str]:
    return [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]


@pytest.mark.parametrize("locale", SUPPORTED)
def test_a_payment_message_names_each_player_once(locale: str) -> None:
    with using(locale):
        for msgid, players in PAYMENT_TEXTS.items():
            text = _(msgid)
            for name in players:
                assert _fields(text).count(name) == 1, f"{locale}: {text!r} names {{{name}}} twice or not at all"
            assert "{proposer}" not in text and "{who}" not in text


def test_the_proposals_are_the_ones_the_cog_sends() -> None:
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "cogs" / "ledger" / "payments.py").read_text(encoding="utf-8")
    for msgid in PAYMENT_TEXTS:
        assert msgid in source


@pytest.mark.parametrize("locale", SUPPORTED)
def test_a_margin_reads_without_a_sign(locale: str) -> None:
    closest = Closest("mighty", 3, "Anna", "Marco", 144, "stake")
    with using(locale):
        (line,) = record_lines(Records(closest=closest))
    assert "144" in line and "+144" not in line, line
    if locale == "en":
        assert "by 144 stakes" in line


def test_most_played_counts_in_the_games_own_unit() -> None:
    with using("en"):
        assert hands_and_games(3, 0) == "3 hands" and hands_and_games(1, 0) == "1 hand"
        assert hands_and_games(0, 2) == "2 games" and hands_and_games(0, 1) == "1 game"
        assert hands_and_games(3, 2) == "3 hands and 2 games"
        (line,) = record_lines(Records(most_played=MostPlayed("mighty", 3, 3)))
        assert line == "Most-played game: Mighty, 3 hands"
    for locale in SUPPORTED:
        with using(locale):
            assert hands_and_games(3, 0) != hands_and_games(0, 3), locale  # hands and games are told apart
            (line,) = record_lines(Records(most_played=MostPlayed("wizard", 2, 0)))
            assert hands_and_games(0, 2) in line


@pytest.mark.parametrize("locale", SUPPORTED)
def test_the_settle_up_title_names_the_unit_as_a_plural_noun(locale: str) -> None:
    with using(locale):
        title = _("Settling up: {currency}", currency=currency_plural("stake"))
    if locale == "en":
        assert title == "Settling up: stakes"
    assert "{" not in title


def test_the_rest_of_a_settle_up_is_a_sentence() -> None:
    with using("en"):
        won = _("Nobody here owes the remaining {units}, won from computer players or added by adjustments.",
                units="5 stakes")  # fmt: skip
    assert won == "Nobody here owes the remaining 5 stakes, won from computer players or added by adjustments."
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in cat.read(cat.TEMPLATE) if m.id}
    assert not [i for i in ids if "by nobody here" in i or "to nobody here" in i]


def test_no_internal_jargon_reaches_a_user() -> None:
    """Every msgid of the catalogue (the command names and descriptions included) is free of the code's words."""
    ids = [m.id if isinstance(m.id, str) else m.id[0] for m in cat.read(cat.TEMPLATE) if m.id]
    found = [i for i in ids if JARGON.search(i)]
    assert not found, found

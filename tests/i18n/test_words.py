"""Words as players read them: numbers with nouns take plural forms, and a sentence names buttons, slash commands
and choices the way that reader sees them (from the same catalogue entries), never in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bot.errors import Refusal
from bot.i18n import SUPPORTED, N_n, _, _p, po_path, tr, using
from bot.i18n import catalog as cat
from bot.i18n import names as ui
from bot.ledger.texts import amount_text
from bot.render.errors import error_text

TRANSLATED = [loc for loc in SUPPORTED if loc != "en"]
ROOT = Path(__file__).resolve().parents[2]

#: placeholders that hold a count or an amount, and the nouns a count can stand before in an English msgid
NUMERIC = r"(?:n|amount|count|total|lo|hi|max|min|votes|seconds|points|found)"
NOUNS = (
    r"(?:points?|stakes?|resto|resti|players?|characters?|amounts?|settlements?|rounds?|seconds?|minutes?|cards?"
    r"|tricks?|hands?|games?|tables?|votes?|wins?|entries|entry|deals?|bids?)"
)
NUMBER_NOUN = re.compile(r"\{" + NUMERIC + r"\}\**\s+(?:more\s+)?" + NOUNS + r"\b")


@pytest.fixture(scope="module")
def template() -> Catalog:
    return cat.read(cat.TEMPLATE)


@pytest.fixture(scope="module")
def catalogues() -> dict[str, Catalog]:
    return {loc: cat.read(po_path(loc), loc) for loc in TRANSLATED}


def test_the_scan_finds_a_number_before_a_noun() -> None:
    assert NUMBER_NOUN.search("{amount} stake") and NUMBER_NOUN.search("at least {n} players.")
    assert NUMBER_NOUN.search("between {lo} and {hi} **seconds**") is None  # bold noun: not a count we know
    assert NUMBER_NOUN.search("Trick {n} goes to {name}.") is None and NUMBER_NOUN.search("Seat {n}") is None


def test_every_number_with_a_noun_is_a_plural_entry(template: Catalog) -> None:
    singular = [m.id for m in template if m.id and isinstance(m.id, str) and m.context is None]
    offenders = [msgid for msgid in singular if NUMBER_NOUN.search(msgid)]
    assert offenders == []


AMOUNTS = (1, 2, 5, 11, 21, 22, 25, -1, -2, -5, -22)


@pytest.mark.parametrize(
    ("locale", "currency", "expected"),
    [
        (
            "ru",
            "stake",
            [
                "+1 ставка",
                "+2 ставки",
                "+5 ставок",
                "+11 ставок",
                "+21 ставка",
                "+22 ставки",
                "+25 ставок",
                "-1 ставка",
                "-2 ставки",
                "-5 ставок",
                "-22 ставки",
            ],
        ),
        (
            "pl",
            "stake",
            [
                "+1 stawka",
                "+2 stawki",
                "+5 stawek",
                "+11 stawek",
                "+21 stawek",
                "+22 stawki",
                "+25 stawek",
                "-1 stawka",
                "-2 stawki",
                "-5 stawek",
                "-22 stawki",
            ],
        ),
        (
            "ru",
            "resto",
            [
                "+1 ресто",
                "+2 рести",
                "+5 рести",
                "+11 рести",
                "+21 ресто",
                "+22 рести",
                "+25 рести",
                "-1 ресто",
                "-2 рести",
                "-5 рести",
                "-22 рести",
            ],
        ),
        (
            "ru",
            "point",
            [
                "1 очко",
                "2 очка",
                "5 очков",
                "11 очков",
                "21 очко",
                "22 очка",
                "25 очков",
                "-1 очко",
                "-2 очка",
                "-5 очков",
                "-22 очка",
            ],
        ),
        (
            "en",
            "stake",
            [
                "+1 stake",
                "+2 stakes",
                "+5 stakes",
                "+11 stakes",
                "+21 stakes",
                "+22 stakes",
                "+25 stakes",
                "-1 stake",
                "-2 stakes",
                "-5 stakes",
                "-22 stakes",
            ],
        ),
    ],
)
def test_amounts_take_the_form_of_their_size(locale: str, currency: str, expected: list[str]) -> None:
    with using(locale):
        got = [amount_text(v, currency) for v in AMOUNTS]
    assert got == expected


def test_every_plural_entry_is_translated_in_every_form(catalogues: dict[str, Catalog]) -> None:
    for loc, c in catalogues.items():
        for m in c:
            if m.id and isinstance(m.id, tuple):
                assert isinstance(m.string, tuple) and len(m.string) == c.num_plurals and all(m.string), (loc, m.id)


def test_a_refusal_with_a_count_takes_its_plural_form() -> None:
    err = Refusal(N_n("A tournament needs at least {n} player.", "A tournament needs at least {n} players."), n=5)
    with using("ru"):
        assert error_text(err) == "Для турнира нужно не меньше 5 игроков."
    with using("pl"):
        assert tr(err.msgid, n=1) == "Turniej wymaga co najmniej 1 gracza."
    assert str(err) == "A tournament needs at least 5 players."  # English for the log, its plural too
    assert str(Refusal(err.msgid, n=1)) == "A tournament needs at least 1 player."


# -- names of buttons, commands and choices -------------------------------------------------------------------
LABELS = (ui.JOIN, ui.LEAVE, ui.START, ui.ADD_COMPUTER, ui.MY_HAND, ui.BACK, ui.VOTE)


def _commands(template: Catalog) -> set[str]:
    return {m.id for m in template if m.context == "command-name" and isinstance(m.id, str)}


def test_no_english_sentence_writes_a_button_or_command_name(template: Catalog) -> None:
    """The English msgids take labels and command names as placeholders, so a rename follows everywhere."""
    commands = "|".join(sorted(map(re.escape, _commands(template)), key=len, reverse=True))
    mention = re.compile(r"(?<![\w/<])/(" + commands + r")(?=[\s`:.,)]|$)")
    labels = [f"**{label}**" for label in LABELS]
    for m in template:
        if not m.id or m.context in ("command-name", "option-name", "choice-name"):
            continue
        for text in m.id if isinstance(m.id, tuple) else (m.id,):
            assert not any(label in text for label in labels), text
            assert mention.search(text) is None, text


def test_no_translation_keeps_an_english_name_its_language_translates(
    template: Catalog, catalogues: dict[str, Catalog]
) -> None:
    for loc, c in catalogues.items():
        with using(loc):
            labels = [label for label in LABELS if _(label) != label]
            commands = [n for n in _commands(template) if _p("command-name", n) != n]
        mention = re.compile(r"(?<![\w/<])/(" + "|".join(map(re.escape, commands)) + r")(?=[\s`:.,)]|$)")
        for m in c:
            if not m.id or m.context in ("command-name", "option-name", "choice-name"):
                continue
            for text in m.string if isinstance(m.string, tuple) else (m.string,):
                assert not any(f"**{label}**" in text for label in labels), (loc, text)
                assert not any(re.search(rf"\b(use|click|press)\s+{label}\b", text) for label in labels), (loc, text)
                assert mention.search(text) is None, (loc, text)


def test_command_names_follow_the_readers_discord(template: Catalog) -> None:
    with using("en"):
        assert ui.command("table replay", file="") == "/table replay file:"
        assert ui.command("ledger balance", season=ui.choice("all seasons")) == "/ledger balance season:all seasons"
    for loc in TRANSLATED:
        with using(loc):
            expected = "/" + " ".join(
                _p("command-name", p) if ui.valid_name(_p("command-name", p)) else p for p in ("table", "replay")
            )
            assert ui.command("table replay") == expected
            assert ui.label(ui.JOIN) == _(ui.JOIN)
    with using("it"):
        assert ui.command("table replay") != "/table replay"  # Italian renames the command: the text follows


def test_every_named_command_and_choice_exists(template: Catalog) -> None:
    """``ui.command("…")`` and ``ui.choice("…")`` in the source name real commands and choices."""
    commands = _commands(template)
    choices = {m.id for m in template if m.context == "choice-name"}
    options = {m.id for m in template if m.context == "option-name"}
    found = 0
    for path in [*ROOT.joinpath("bot").rglob("*.py"), *ROOT.joinpath("cogs").rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        for qualified, opts in re.findall(r"ui\.command\(\"([^\"]+)\"((?:, \w+=)?)", text):
            assert all(part in commands for part in qualified.split()), (path, qualified)
            if opts:
                assert opts[2:-1] in options, (path, opts)
            found += 1
        for name in re.findall(r"ui\.choice\(\"([^\"]+)\"\)", text):
            assert name in choices, (path, name)
    assert found >= 5

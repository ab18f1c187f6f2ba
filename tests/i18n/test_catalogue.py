"""The catalogue is complete in every language (and the check catches a broken one), the API's locale handling,
plural forms and number formats."""

from __future__ import annotations

import asyncio
import copy
import io
import re
import threading

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.i18n import PSEUDO, SUPPORTED, _, _n, _p, current, normalize, num, po_path, pseudo, signed, using
from bot.i18n import catalog as cat
from bot.i18n.__main__ import current_template

TRANSLATED = [loc for loc in SUPPORTED if loc != "en"]


@pytest.fixture(scope="module")
def template() -> Catalog:
    return cat.read(cat.TEMPLATE)


def test_supported_languages() -> None:
    assert SUPPORTED == ("en", "it", "ko", "pl", "ru")
    for loc in TRANSLATED:
        assert po_path(loc).is_file(), f"no catalogue for {loc}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_msgid_translated(locale: str, template: Catalog) -> None:
    """No missing, empty or fuzzy entry, the same placeholders on both sides, every plural form."""
    problems = cat.problems(cat.read(po_path(locale), locale), template)
    assert not problems, "\n".join(problems[:40])


def test_template_matches_the_source(template: Catalog) -> None:
    """Every _() call, slash-command string and game title is in tavolo.pot (run `python -m bot.i18n extract`)."""
    stale = cat.stale_template(current_template(), template)
    assert not stale, "\n".join(stale[:40])


def test_check_fails_on_a_broken_catalogue(template: Catalog) -> None:
    good = cat.read(po_path("ru"), "ru")
    assert cat.problems(good, template) == []
    broken = copy.deepcopy(good)
    by_id = {m.id: m for m in broken if m.id}
    by_id["Previous trick"].string = ""
    by_id["Partner: {name}"].string = "Партнёр: {nom}"
    by_id["{name} wins the trick."].flags.add("fuzzy")
    plural = next(m for m in broken if isinstance(m.id, tuple) and m.id[0] == "{n} King")
    plural.string = (plural.string[0], "", plural.string[2])
    broken.delete("Tricks won")
    problems = "\n".join(cat.problems(broken, template))
    assert "'Previous trick': empty" in problems
    assert "'Partner: {name}': placeholders ['nom']" in problems
    assert "'{name} wins the trick.': fuzzy" in problems
    assert "'{n} King': empty" in problems
    assert "'Tricks won': missing" in problems
    # a catalogue whose header declares the wrong number of plural forms
    buf = io.BytesIO()
    write_po(buf, good)
    text = re.sub(r"nplurals=3;[^\\]*", "nplurals=2; plural=(n != 1);", buf.getvalue().decode())
    two = read_po(io.StringIO(text), locale="ru")
    assert any("Plural-Forms has 2 forms, the language has 3" in p for p in cat.problems(two, template))


def test_fields() -> None:
    assert cat.fields("{name} plays {card} — {signal}.") == {"name", "card", "signal"}
    assert cat.fields("no placeholders") == set()


def test_normalize_discord_locales() -> None:
    assert [normalize(c) for c in ("it", "ko", "pl", "ru", "en-US", "en-GB")] == ["it", "ko", "pl", "ru", "en", "en"]
    assert normalize("pt-BR") == normalize("zh-TW") == normalize(None) == normalize("") == "en"

    class FakeLocale:  # discord.Locale: the code is its value
        value = "ko"

    assert normalize(FakeLocale()) == "ko"


def test_using_sets_and_restores_the_locale() -> None:
    assert current() == "en"
    with using("ru"):
        assert _("Previous trick") == "Предыдущая взятка"
        with using("ko"):
            assert _("Previous trick") == "지난 트릭"
        assert current() == "ru"
    assert current() == "en" and _("Previous trick") == "Previous trick"
    with using("pt-BR"):
        assert current() == "en"


def test_locale_is_per_task_and_per_thread() -> None:
    seen: dict[str, str] = {}

    async def render(loc: str) -> None:
        with using(loc):
            await asyncio.sleep(0.01)  # the other task switches its locale meanwhile
            seen[loc] = _("Previous trick")

    async def both() -> None:
        await asyncio.gather(render("it"), render("pl"))

    asyncio.run(both())
    assert seen == {"it": "Presa precedente", "pl": "Poprzednia lewa"}
    out: list[str] = []
    with using("ru"):
        t = threading.Thread(target=lambda: out.append(_("Previous trick")))
        t.start()
        t.join()
    assert out == ["Previous trick"]  # a new thread starts in English


def test_msgctxt_separates_short_words() -> None:
    with using("it"):
        assert _p("auction", "pass") == "passo" and _p("button", "Pass") == "Passo"
        assert _p("card", "Wizard") == "Mago"


def test_plural_forms() -> None:
    def forms(loc: str, ns: tuple[int, ...]) -> list[str]:
        with using(loc):
            return [_n("{name}: {n} trick", "{name}: {n} tricks", n, name="A") for n in ns]

    assert forms("ru", (1, 2, 5, 11, 21, 22)) == [
        "A: 1 взятка",
        "A: 2 взятки",
        "A: 5 взяток",
        "A: 11 взяток",
        "A: 21 взятка",
        "A: 22 взятки",
    ]
    assert forms("pl", (1, 2, 5, 12, 22)) == ["A: 1 lewa", "A: 2 lewy", "A: 5 lew", "A: 12 lew", "A: 22 lewy"]
    assert forms("ko", (1, 7)) == ["A: 1트릭", "A: 7트릭"]
    assert forms("it", (1, 2)) == ["A: 1 presa", "A: 2 prese"]
    assert forms("en", (1, 2)) == ["A: 1 trick", "A: 2 tricks"]


def test_numbers_in_the_locale() -> None:
    expected = {"en": "+1,000", "it": "+1.000", "ko": "+1,000", "pl": "+1\xa0000", "ru": "+1\xa0000"}
    for loc, text in expected.items():
        with using(loc):
            assert signed(1000) == text
            assert num(7) == "7" and signed(0) == "+0" and signed(-3) == "-3"
    with using("ru"):  # integer placeholders are formatted too
        assert _("Total: {total}", total=12345) == "Итого: 12\xa0345"


def test_pseudo_locale() -> None:
    assert pseudo("Seat {n}") == "⟦Séát {n}⟧"
    with using(PSEUDO):
        assert _("Seat {n}", n=3) == "⟦Séát 3⟧"
        assert _n("{n} trick", "{n} tricks", 2) == "⟦2 tríçks⟧"
        assert _p("card", "Wizard") == "⟦Wízárd⟧"
        assert signed(1000) == "+1,000"

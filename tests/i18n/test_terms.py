"""The words fixed by issue 38, pinned as classes (docs/words.md): one term for the trick just played, no nested
brackets, no 당신 in Korean, a Wizard bid is 예측, Polish and Russian plural forms (seated, resto), "your hands"
as cards in hand (not deals), one Italian term for playing alone; a number before a noun reads naturally (no
"the 1 tricks"), split menus labelled by what they hold, computers named in the reader's language, and every
game's trick count as its rules have it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from records.randgames import play_random

from bot.games.mediatore.engine import TRICKS as MEDIATORE_TRICKS
from bot.games.mighty.engine import TRICKS as MIGHTY_TRICKS
from bot.games.minchiate.engine import TRICKS as MINCHIATE_TRICKS
from bot.i18n import SUPPORTED, _n, po_path, using
from bot.i18n import catalog as cat
from bot.records import _games
from bot.tables import screens
from bot.tables.model import COMPUTER_NAME, Seat, Table, display_name

TRANSLATED = [loc for loc in SUPPORTED if loc != "en"]


@pytest.fixture(scope="module")
def template() -> Catalog:
    return cat.read(cat.TEMPLATE)


@pytest.fixture(scope="module")
def catalogues() -> dict[str, Catalog]:
    return {loc: cat.read(po_path(loc), loc) for loc in TRANSLATED}


def _ids(m: Message) -> tuple[str, ...]:
    return m.id if isinstance(m.id, tuple) else (m.id,)


def _strings(m: Message) -> tuple[str, ...]:
    return m.string if isinstance(m.string, tuple) else (m.string,)


def _entries(c: Catalog) -> list[Message]:
    return [m for m in c if m.id]


# -- the trick just played -------------------------------------------------------------------------------------
#: per language, the word for "previous" (the trick or hand just over) and for "final" (the hand's last trick)
PREVIOUS = {"it": "precedente", "ko": "지난", "pl": "oprzedni", "ru": "редыдущ"}
FINAL = {"it": "ultim", "ko": "마지막", "pl": "statni", "ru": "оследн"}


def test_no_msgid_says_last_trick_or_last_hand(template: Catalog) -> None:
    """ "Last trick" read as the hand's final trick in every translation: the trick just played is the *previous*
    trick (hand), the hand's last one the *final* trick."""
    bad = [i for m in _entries(template) for i in _ids(m) if re.search(r"\blast (trick|hand|one)\b", i, re.I)]
    assert bad == []


@pytest.mark.parametrize("locale", TRANSLATED)
def test_previous_and_final_trick_keep_their_words(locale: str, catalogues: dict[str, Catalog]) -> None:
    for m in _entries(catalogues[locale]):
        msgid = _ids(m)[0]
        for s in _strings(m):
            if re.search(r"\bprevious (trick|hand|one)\b", msgid, re.I):
                assert PREVIOUS[locale] in s.lower() and FINAL[locale] not in s.lower(), f"{msgid!r}: {s!r}"
            if re.search(r"\bfinal trick\b", msgid, re.I):
                assert FINAL[locale] in s.lower() and PREVIOUS[locale] not in s.lower(), f"{msgid!r}: {s!r}"


def test_the_activity_says_previous_trick() -> None:
    from bot.activity.texts import client_texts

    for loc in SUPPORTED:
        with using(loc):
            from bot.i18n import _

            assert client_texts()["last_trick"] == _("Previous trick")


# -- brackets --------------------------------------------------------------------------------------------------
#: inflection markers written inside a word: ko 을(를), (으)로; pl/ru zagrał(a), сыграл(а)
MARKER = re.compile(r"(?<=[\w}])\([^\s()]{1,3}\)")


def nested(text: str) -> bool:
    depth = 0
    for ch in MARKER.sub("", text):
        if ch == "(":
            depth += 1
            if depth > 1:
                return True
        elif ch == ")":
            depth = max(0, depth - 1)
    return False


def test_the_bracket_check() -> None:
    assert nested("(a Wizard was turned (house rule))")
    assert not nested("(합계 제한 규칙: {name} 님은 {n}을(를) 예측할 수 없습니다.)")
    assert not nested("{name} zagrał(a) kartę (wywołaną)") and not nested("(a) (b)")


def test_no_nested_brackets(template: Catalog, catalogues: dict[str, Catalog]) -> None:
    bad = [i for m in _entries(template) for i in _ids(m) if nested(i)]
    for loc, c in catalogues.items():
        bad += [f"{loc}: {s}" for m in _entries(c) for s in _strings(m) if nested(s)]
    assert bad == []


# -- per language ----------------------------------------------------------------------------------------------
def test_korean_never_says_dangsin(catalogues: dict[str, Catalog]) -> None:
    bad = [(_ids(m)[0], s) for m in _entries(catalogues["ko"]) for s in _strings(m) if "당신" in s]
    assert bad == []
    with using("ko"):
        from bot.activity.texts import client_texts

        assert client_texts()["your_turn"] == "내 차례"


def test_a_wizard_bid_is_yechuk_in_korean(catalogues: dict[str, Catalog]) -> None:
    wizard = [
        m
        for m in _entries(catalogues["ko"])
        if any("wizard" in path for path, _ in m.locations) or "bid accuracy" in _ids(m)[0].lower()
    ]
    assert wizard
    assert [(_ids(m)[0], _strings(m)) for m in wizard if any("비드" in s for s in _strings(m))] == []


def _plural(c: Catalog, singular: str) -> tuple[str, ...]:
    m = next(m for m in _entries(c) if isinstance(m.id, tuple) and m.id[0] == singular)
    return _strings(m)


def test_polish_seated_agrees_with_the_number(catalogues: dict[str, Catalog]) -> None:
    assert _plural(catalogues["pl"], "{n} seated") == ("siedzi {n}", "siedzą {n}", "siedzi {n}")
    with using("pl"):
        got = [_n("{n} seated", "{n} seated", n) for n in (1, 2, 4, 5, 12, 22, 25)]
    assert got == ["siedzi 1", "siedzą 2", "siedzą 4", "siedzi 5", "siedzi 12", "siedzą 22", "siedzi 25"]


@pytest.mark.parametrize(
    ("locale", "one", "many"), [("it", "resto", "resti"), ("pl", "resto", "resti"), ("ru", "ресто", "рести")]
)
def test_resto_is_declined_one_way(locale: str, one: str, many: str, catalogues: dict[str, Catalog]) -> None:
    """``1 resto``, ``2 resti``, ``5 resti`` in every plural entry that counts resti (the glossaries' forms)."""
    found = 0
    for m in _entries(catalogues[locale]):
        if not isinstance(m.id, tuple) or not re.search(r"\{(n|amount)\} rest[oi]", m.id[1]):
            continue
        found += 1
        forms = _strings(m)
        assert one in forms[0] and many not in forms[0], (m.id, forms)
        assert all(many in f for f in forms[1:]), (m.id, forms)
    assert found >= 4


def test_english_counts_resti_too(template: Catalog) -> None:
    for m in _entries(template):
        if isinstance(m.id, tuple) and re.search(r"\{(n|amount)\} rest[oi]", m.id[1]):
            assert re.search(r"\{(n|amount)\} resto\b", m.id[0]), m.id


YOUR_HANDS = re.compile(r"your hands|hands and DMs|messages and hands")


def test_your_hands_are_cards_in_hand_not_deals(catalogues: dict[str, Catalog]) -> None:
    """The picture setting is about the messages with a player's cards: pl *karty na ręce*, ru *карты на руке*."""
    for loc, deals, hand in (("pl", "rozdani", "rę"), ("ru", "раздач", "рук")):
        entries = [m for m in _entries(catalogues[loc]) if YOUR_HANDS.search(_ids(m)[0])]
        assert len(entries) >= 5
        for m in entries:
            s = _strings(m)[0]
            assert deals not in s and hand in s, (m.id, s)


def test_polish_sentences_do_not_mix_gendered_forms(catalogues: dict[str, Catalog]) -> None:
    """A sentence that writes *zagrał(a)* / *sam(a)* for anyone must not then call the same player *partnerem* or
    *rozgrywającym* (masculine only): one sentence, one form that fits anyone (*gra w parze z graczem*,
    *rozgrywasz*)."""
    masculine = re.compile(r"\b(partnerem|rozgrywającym|przyjacielem|obrońcą)\b")
    bad = [s for m in _entries(catalogues["pl"]) for s in _strings(m) if "(a)" in s and masculine.search(s)]
    assert bad == []


def test_italian_plays_alone_in_one_term(catalogues: dict[str, Catalog]) -> None:
    it = _entries(catalogues["it"])
    assert [s for m in it for s in _strings(m) if re.search(r"\bda sol[oa]\b", s, re.I)] == []
    assert sum("in solitario" in s for m in it for s in _strings(m)) >= 8
    assert [s for m in it for s in _strings(m) if "è contato" in s] == []


# -- numbers before nouns --------------------------------------------------------------------------------------
NOUN_AFTER = re.compile(r"\{(n|amount|count|total)\}\**\s+(tricks|points|players|cards|stakes|resti|rounds|hands)\b")


def test_a_plural_entry_has_a_singular_of_its_own(template: Catalog) -> None:
    """``_n("… {n} tricks", "… {n} tricks")`` prints "the 1 tricks": the singular must be a singular. The one
    exception is only ever called with two or more (a one-card round has its own sentence)."""
    allowed = {"**Your bid:** how many of the {n} tricks will you take exactly?"}
    bad = [
        m.id[0]
        for m in _entries(template)
        if isinstance(m.id, tuple) and m.id[0] == m.id[1] and NOUN_AFTER.search(m.id[0]) and m.id[0] not in allowed
    ]
    assert bad == []


def _wizard_bid_view(hand_size: int) -> dict[str, Any]:
    game = _games.engine_class("wizard")(3, {"rounds": str(hand_size)}, 5)  # type: ignore[call-arg]
    seat = game.to_move()[0]
    view = game.view(seat)
    while view["phase"] != "bid":  # a turned Wizard: the dealer picks the trump first
        game.apply(seat, game.legal_actions(seat)[0])
        seat = game.to_move()[0]
        view = game.view(seat)
    return view


@pytest.mark.parametrize("locale", SUPPORTED)
def test_a_one_card_round_asks_for_the_only_trick(locale: str) -> None:
    one, three = _wizard_bid_view(1), _wizard_bid_view(3)
    assert one["hand_size"] == 1 and three["hand_size"] == 3
    r = _games.renderer("wizard")
    with using(locale):
        text_one = r.private_panel(one, ["A", "B", "C"]).description
        text_three = r.private_panel(three, ["A", "B", "C"]).description
    assert "1 tricks" not in text_one and " 1 " not in text_one.split("\n")[-1]
    assert "3" in text_three and text_one != text_three


def test_split_menus_are_labelled_by_what_they_hold() -> None:
    """Mighty's bids 15–20 in two menus say (15–19) and (20), not (1-25) and (26-30)."""
    r = _games.renderer("mighty")
    seen = 0
    for seed in range(8):
        p = play_random("mighty", seed)
        for views in p.views:
            for v in views:
                for c in r.private_panel(v, p.players).controls:
                    m = re.search(r"\((\d+)(?:–(\d+))?\)$", c.placeholder) if c.kind == "select" else None
                    if m is None:
                        continue
                    bids = [int(ch.action["n"]) for ch in c.choices]
                    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
                    assert (lo, hi) == (min(bids), max(bids)), (c.placeholder, bids)
                    seen += 1
    assert seen


# -- names -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("locale", SUPPORTED)
def test_the_game_over_post_names_computers_in_the_readers_language(locale: str) -> None:
    p = play_random("mediatore", 3)
    seats = [Seat(10 + i, n) for i, n in enumerate(p.players[:3])] + [Seat(None, COMPUTER_NAME.format(n=1))]
    table = Table(1, 1, 1, "mediatore", 10, p.options, p.seed, "finished", seats, 90)
    table.game = p.game
    with using(locale):
        text = screens.final_text(table)
        computer = display_name(COMPUTER_NAME.format(n=1))
    assert computer in text
    if locale in ("ko", "pl", "ru"):  # (Italian says "computer" too)
        assert "Computer" not in text and computer != COMPUTER_NAME.format(n=1)


# -- trick counts ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game_id", "tricks"), [("mediatore", MEDIATORE_TRICKS), ("mighty", MIGHTY_TRICKS), ("minchiate", MINCHIATE_TRICKS)]
)
def test_every_hand_has_the_rules_number_of_tricks(game_id: str, tricks: int) -> None:
    """Mediatore 9 (40 cards, 9 each, a monte of 4), Mighty 10 (53 cards, 10 each, a kitty of 3), Minchiate 21;
    the table picture counts against the same number."""
    assert (MEDIATORE_TRICKS, MIGHTY_TRICKS, MINCHIATE_TRICKS) == (9, 10, 21)
    r = _games.renderer(game_id)
    for seed in range(4):
        p = play_random(game_id, seed)
        # the cards in hand when play starts are the hand's tricks (nobody holds more during play)
        held = [len(v.get("hand") or []) for views in p.views for v in views if v["phase"] == "play"]
        assert held and max(held) == tricks
        for v in p.publics:
            assert sum(v["tricks_won"]) <= tricks
            scene = r.table_picture(v, p.players)
            for seat in scene.seats if scene is not None else ():
                m = re.search(r"(\d+)/(\d+)", seat.line)
                if m:
                    assert int(m.group(2)) == tricks, seat.line


def test_a_wizard_round_has_as_many_tricks_as_cards() -> None:
    """Wizard's round with r cards has r tricks: the plate counts tricks against the bid, the bid prompt against
    the hand size."""
    for seed in range(4):
        p = play_random("wizard", seed)
        for v in p.publics:
            if v["phase"] == "bid":
                assert set(v["hand_counts"]) == {v["hand_size"]}
            if v["phase"] != "over":
                assert sum(v["tricks"]) <= v["hand_size"]


@pytest.mark.parametrize("locale", ["ko", "pl", "ru"])
def test_a_replay_names_computers_in_the_readers_language(locale: str) -> None:
    from bot.records.replay import record_from_log, replay
    from bot.records.show import replay_text

    p = play_random("mediatore", 3)
    stored = [*p.players[:3], COMPUTER_NAME.format(n=1)]
    record = record_from_log("mediatore", stored, p.options, p.seed, p.log, hand=0)
    with using(locale):
        text = "\n".join(replay_text(replay(record), hand=0))
        computer = display_name(COMPUTER_NAME.format(n=1))
    assert computer in text and "Computer" not in text


def test_the_activity_plate_names_each_games_bid_in_its_own_word() -> None:
    # a Wizard bid is a prediction (예측), a Mighty bid a promise (공약); 비드 is Mediatore's auction word only
    from bot.games import registry
    from bot.i18n import _p, using

    def words() -> dict[str, str]:
        out = {}
        for game, n in (("wizard", 4), ("mighty", 5), ("mediatore", 4)):
            view = registry.game_class(game)(n, {}, 3).public_view()
            plate = registry.renderer(game).seat_plates(view, [f"p{i}" for i in range(n)])[0]
            out[game] = plate.bid_label or _p("seat plate", "Bid")
        return out

    with using("ko"):
        assert words() == {"wizard": "예측", "mighty": "공약", "mediatore": "비드"}
    with using("pl"):
        w = words()
        assert w["wizard"] != w["mighty"]  # Deklaracja (no auction) vs Odzywka

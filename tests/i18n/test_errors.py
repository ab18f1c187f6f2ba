"""Engines' illegal-action and option codes: every code has a text, and every text comes from the catalogue.

The codes are read from the raise sites themselves (``IllegalAction("code", ...)`` in the engines' source), so
a new code without a msgid fails here. Random games then try illegal actions in every phase — a seat that is
not to move, a card not held, a card that does not follow, bids out of range, unknown action types — and
render the errors in the pseudo-locale (nothing outside the catalogue may be left, as in ``test_panels``) and
in every supported language (Discord's 2000 characters of a message).
"""

from __future__ import annotations

import io
import random
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from records.randgames import choose, num_seats, random_options

from bot.engine.errors import EngineError, IllegalAction, InvalidOptions
from bot.engine.protocol import Action, Game
from bot.games import registry
from bot.i18n import PSEUDO, SUPPORTED, _, _p, using
from bot.records import _games
from bot.render.errors import FALLBACK, GENERIC, error_text

from .test_panels import leftover

ROOT = Path(__file__).resolve().parents[2]
GAMES = _games.game_ids()
ERRORS = ("IllegalAction", "InvalidOptions")
MESSAGE_MAX = 2000
_SKIP = {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT}
#: the action types of all the games (each phase of each game is sent all of them)
KINDS = ("play", "bid", "pass", "call", "discard", "contract", "misdeal", "trump", "undo", "declare", "cut")


def _codes_in(path: Path) -> Iterator[tuple[str, set[str], int]]:
    """``(code, parameter names, line)`` of every ``IllegalAction(...)`` / ``InvalidOptions(...)`` in ``path``.

    Read from the tokens, not with ``ast``: CPython 3.11.7's AST builder can fail ("recursion depth mismatch")
    once other tests of the session have run."""
    toks = [t for t in tokenize.generate_tokens(io.StringIO(path.read_text()).readline) if t.type not in _SKIP]
    for i, tok in enumerate(toks):
        if tok.type != tokenize.NAME or tok.string not in ERRORS or toks[i + 1].string != "(":
            continue
        if toks[i - 1].string in ("class", "import", "except") or toks[i - 1].string == ",":
            continue
        depth, args, current = 0, [], []
        for t in toks[i + 1 :]:
            depth += t.string in "([{" and t.type == tokenize.OP
            depth -= t.string in ")]}" and t.type == tokenize.OP
            if depth == 0:
                break
            if depth == 1 and t.type == tokenize.OP and t.string in ",(":
                if t.string == ",":
                    args.append(current)
                current = [] if t.string == "," else current
                continue
            current.append(t)
        args.append(current)
        first, where = args[0], f"{path.relative_to(ROOT)}:{tok.start[0]}"
        assert first and first[0].type == tokenize.STRING, f"{where}: the code must be a literal string"
        codes = [first[0]]
        if len(first) > 1:  # "a" if cond else "b"
            assert first[1].string == "if" and first[-2].string == "else", f"{where}: a code must be a literal"
            codes.append(first[-1])
        params = {a[0].string for a in args[1:] if len(a) > 1 and a[1].string == "="}
        for c in codes:
            assert c.type == tokenize.STRING, f"{where}: the code must be a literal string"
            assert c.string[0] in "'\"" and c.string[0] == c.string[-1], f"{where}: a plain string, please"
            yield c.string[1:-1], params, tok.start[0]


def raised_codes(game_id: str | None) -> dict[str, set[str]]:
    """The codes the game's package (``None``: the shared engine code) can raise, with their parameters."""
    folder = ROOT / "bot" / ("engine" if game_id is None else f"games/{game_id}")
    out: dict[str, set[str]] = {}
    for f in sorted(folder.glob("*.py")):
        for code, params, _line in _codes_in(f):
            out.setdefault(code, set()).update(params)
    return out


def _sample(game_id: str, name: str) -> Any:
    """A plausible value of a parameter for the rendering check (a real card id, a suit the game knows)."""
    spec = registry.get(game_id)
    show = (spec.errors.params if spec.errors else {}).get(name)
    if name == "card":
        return _games.deck(game_id)[-1]
    if name == "suit":
        for s in ("H", "D", "Co", "Sw"):
            try:
                if show is not None:
                    show(s)
                return s
            except KeyError:
                continue
    samples: dict[str, Any] = {
        "signal": "knock",
        "option": "rounds",
        "names": ("colour",),
        "choices": ("open", "secret"),
        "game": spec.title,
        "mode": "bid_mode",
        "value": "open",
    }
    return samples.get(name, 3)


def test_the_raise_sites_are_found() -> None:
    assert "not_your_turn" in raised_codes("wizard") and raised_codes("wizard")["must_follow"] == {"suit"}
    assert {"option_bool", "seats_range", "unknown_options"} <= set(raised_codes(None))
    assert "stale" in {c for c, _, _ in _codes_in(ROOT / "bot" / "tables" / "screens.py")}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_code_an_engine_raises_has_a_text(game_id: str) -> None:
    spec = registry.get(game_id)
    own = spec.errors.messages if spec.errors else {}
    codes = raised_codes(game_id) | raised_codes(None)
    missing = sorted(c for c in codes if c not in own and c not in GENERIC.messages)
    assert not missing, f"{game_id}: codes without a msgid: {missing}"
    unused = sorted(c for c in own if c not in codes and c not in GENERIC.messages)
    assert not unused, f"{game_id}: texts no engine raises: {unused}"
    for code, params in sorted(codes.items()):
        err = IllegalAction(code, **{p: _sample(game_id, p) for p in params})
        with using(PSEUDO):
            text = error_text(err, game_id)
            if code != "not_now":
                assert text != error_text(IllegalAction("not_now")), f"{game_id}/{code}: fell back"
            assert not leftover(text, {_games.card_label(game_id, c) for c in _games.deck(game_id)}), text
        for loc in SUPPORTED:
            with using(loc):
                text = error_text(err, game_id)
                assert text and "{" not in text and len(text) <= MESSAGE_MAX, f"{loc}/{game_id}/{code}: {text!r}"


def test_shared_codes_have_texts() -> None:
    screens_codes = {c for c, _, _ in _codes_in(ROOT / "bot" / "tables" / "screens.py")}
    for code in set(raised_codes(None)) | screens_codes:
        assert code in GENERIC.messages, code


# -- illegal actions in random games ---------------------------------------------------------------------------
def _illegal_tries(game: Game, rng: random.Random, game_id: str) -> Iterator[tuple[int, Any]]:
    """Actions that should not be legal now: wrong seat, cards not held or not following, bad numbers."""
    movers = list(game.to_move())
    others = [s for s in range(game.num_seats) if s not in movers]
    seat = rng.choice(movers)
    legal = game.legal_actions(seat)
    kinds = sorted({a["type"] for a in legal})
    if others:
        yield rng.choice(others), rng.choice(legal)
    yield seat, "play"
    yield seat, {"type": "no-such-action"}
    yield game.num_seats + 3, rng.choice(legal)
    hand = list(game.view(seat).get("hand") or [])
    deck = list(_games.deck(game_id))
    not_held = [c for c in deck if c not in hand]
    legal_cards = {a.get("card") for a in legal if a["type"] == "play"}
    yield seat, {"type": "play", "card": rng.choice(not_held)}
    yield seat, {"type": "play", "card": "??"}
    for c in hand:
        if "play" in kinds and c not in legal_cards:
            yield seat, {"type": "play", "card": c}  # not following (or otherwise not playable)
    for kind in kinds:
        yield seat, {"type": kind, "n": 99, "trump": "X", "k": -1, "contract": "grande", "card": "??", "suit": "X"}
        yield seat, {"type": kind, "cards": [rng.choice(not_held)], "discard": hand[:2], "combos": [42]}
    yield seat, {"type": "play", "card": hand[0] if hand else "??", "signal": "shout"}
    yield seat, {"type": "bid", "n": -1}
    yield seat, {"type": "undo"}
    # every kind of action in every phase, bare
    for kind in KINDS:
        yield seat, {"type": kind}
    # numbers across the range, the lowest bids (not higher than one made), a bad trump
    for k in range(12):
        yield seat, {"type": "bid", "n": k}
    yield seat, {"type": "bid", "contract": "chiamo"}
    yield seat, {"type": "bid", "n": 13, "trump": "S"}
    yield seat, {"type": "bid", "n": 15, "trump": "X"}
    # calls: a held card, a card not in the pack
    for c in hand[:2]:
        yield seat, {"type": "call", "kind": "card", "card": c}
    yield seat, {"type": "call", "kind": "card", "card": "??"}
    yield seat, {"type": "call", "kind": "??"}
    # discards: too few, not held, overlapping a give, a give that is not held, one card at a time
    if len(hand) >= 5:
        yield seat, {"type": "discard", "discard": hand[:3], "cards": hand[:2]}
        yield seat, {"type": "discard", "discard": not_held[:4], "cards": not_held[:3]}
        yield seat, {"type": "discard", "discard": hand[:4], "give": hand[0]}
        yield seat, {"type": "discard", "discard": hand[:4], "give": "??"}
        yield seat, {"type": "discard", "discard": hand[:4], "give": hand[4]}
    for c in hand:
        yield seat, {"type": "discard", "cards": [c]}
    yield seat, {"type": "discard", "cards": hand}
    yield seat, {"type": "contract", "n": 1, "trump": "X"}
    # plays with the wrong extras: a suit named, a joker call, a signal that may not be true
    for a in legal:
        if a["type"] != "play":
            continue
        yield seat, {"type": "play", "card": a["card"]}
        yield seat, {"type": "play", "card": a["card"], "suit": "S"}
        yield seat, {"type": "play", "card": a["card"], "joker_call": True}
        for sig in ("knock", "fly", "stroke"):
            yield seat, {"type": "play", "card": a["card"], "signal": sig}


def _try_all(game_id: str, seed: int) -> Iterator[EngineError]:
    rng = random.Random(seed)
    n = num_seats(game_id, rng)
    game = _games.engine_class(game_id)(n, random_options(game_id, rng, n), rng.randrange(2**40))  # type: ignore[call-arg]
    for _step in range(400):
        if game.is_over or not game.to_move():
            break
        for seat, action in _illegal_tries(game, rng, game_id):
            try:
                game.clone().apply(seat, action)
            except IllegalAction as e:
                yield e
        seat, act = choose(game, rng)
        passes = [a for a in game.legal_actions(seat) if a["type"] == "pass"]
        if passes and seed % 2 and rng.random() < 0.7:  # low contracts too, with their calls and exchanges
            act = passes[0]
        game.apply(seat, act)
    if game.is_over:
        try:
            game.apply(0, {"type": "play", "card": "??"})
        except IllegalAction as e:
            yield e


def _bad_options(game_id: str) -> Iterator[EngineError]:
    """Every option of the game set to values of the wrong kind or out of range, unknown options, bad seats."""
    cls = _games.engine_class(game_id)
    lo, hi = _games.seat_range(game_id)
    tries: list[tuple[dict[str, Any], int]] = [({"colour": "red"}, lo), ({"a": 1, "b": 2}, lo), ({}, hi + 1)]
    bad = ("zzz", "", -5, 10**9, True, [], [3, 1], [99], "5-1", "1,x", 1.5, 9, {"x": 1})
    tries += [({spec.name: v}, n) for spec in cls.option_specs for v in bad for n in (lo, hi)]
    tries += [({a.name: True, b.name: v}, lo) for a in cls.option_specs for b in cls.option_specs for v in ("secret",)]
    for opts, n in tries:
        try:
            cls(n, opts, 1)  # type: ignore[call-arg]
        except InvalidOptions as e:
            yield e
        except (TypeError, ValueError, AttributeError):
            pass  # (not this test's business: options of a wrong type the engine does not expect)


def _seen(game_id: str, seeds: range) -> list[EngineError]:
    return [e for seed in seeds for e in _try_all(game_id, seed)] + list(_bad_options(game_id))


@pytest.mark.parametrize("game_id", GAMES)
def test_illegal_actions_in_random_games_are_worded_from_the_catalogue(game_id: str) -> None:
    errors = _seen(game_id, range(8))
    codes = {e.code for e in errors}
    own = registry.get(game_id).errors
    known = set(GENERIC.messages) | set(own.messages if own else ())
    assert codes <= known, f"{game_id}: unworded codes {sorted(codes - known)}"
    assert {"not_your_turn", "unknown_action", "not_in_hand"} <= codes, sorted(codes)
    labels = {_games.card_label(game_id, c) for c in _games.deck(game_id)} | {"??"}
    fallback = {}
    for loc in (PSEUDO, *SUPPORTED):
        with using(loc):
            fallback[loc] = _(FALLBACK)
    for e in {(e.code, repr(e.params)): e for e in errors}.values():
        with using(PSEUDO):
            text = error_text(e, game_id)
            assert not leftover(text, labels), f"{game_id}: {e!r} -> {text!r}"
            assert e.code == "not_now" or text != fallback[PSEUDO], f"{game_id}: {e!r} fell back"
        for loc in SUPPORTED:
            with using(loc):
                text = error_text(e, game_id)
                assert text and "{" not in text and len(text) <= MESSAGE_MAX, f"{loc}: {e!r} -> {text!r}"
        assert str(e) and str(e) != e.code, f"{e!r} has no English text"


def test_the_trick_games_report_the_suit_to_follow() -> None:
    for game_id in GAMES:
        follows = [e for seed in range(3) for e in _try_all(game_id, seed) if e.code == "must_follow"]
        assert follows, f"{game_id}: no must_follow in random games"
        assert all(isinstance(e.params["suit"], str) for e in follows)


# -- parameters in the reader's language -----------------------------------------------------------------------
def _game_with(title: str) -> str:
    return next(s.id for s in registry.specs() if s.title == title)


def test_parameters_render_in_the_locale() -> None:
    wizard, mediatore, minchiate = _game_with("Wizard"), _game_with("Mediatore"), _game_with("Minchiate")
    with using("ko"):
        assert "하트" in error_text(IllegalAction("must_follow", suit="H"), wizard)
        assert "데나리" in error_text(IllegalAction("must_follow", suit="D"), mediatore)
    with using("ru"):
        text = error_text(IllegalAction("must_trump", suit="Cu"), minchiate)
        assert "Кубки" in text and "козырь" in text
        wide = error_text(IllegalAction("bid_range", lo=0, hi=1000), wizard)
        assert wide == "Заявите число взяток от 0 до 1\u00a0000."  # (the locale's digit grouping)
    with using("it"):
        assert "Mago" in error_text(IllegalAction("must_follow", suit="S"), wizard)
        assert "Picche" in error_text(IllegalAction("must_follow", suit="S"), wizard)


def test_plural_texts() -> None:
    minchiate = _game_with("Minchiate")
    with using("ru"):
        assert error_text(IllegalAction("discard_count", n=1), minchiate) == "Снести осталось только 1 карту."
        assert error_text(IllegalAction("discard_count", n=3), minchiate) == "Снести осталось только 3 карты."
        assert error_text(IllegalAction("discard_count", n=5), minchiate) == "Снести осталось только 5 карт."
    with using("pl"):
        assert error_text(InvalidOptions("unknown_options", names=("a", "b"), n=2)) == "Nieznane opcje: a, b."


def test_options_are_worded_with_the_game_title_translated() -> None:
    spec = registry.get(_game_with("Mighty"))
    with pytest.raises(InvalidOptions) as info:
        spec.engine.normalize_options({}, 3)
    assert info.value.code == "seats_exact" and info.value.params["n"] == 5
    assert str(info.value) == "Mighty needs exactly 5 players."
    with using("ko"):
        assert error_text(info.value, spec.id) == f"{_p('game', 'Mighty')}에는 정확히 5명이 필요합니다."
    with pytest.raises(InvalidOptions) as info:
        spec.engine.normalize_options({"colour": "red"}, 5)
    assert info.value.code == "unknown_options" and str(info.value) == "Unknown option: colour."


def test_unknown_codes_and_games_fall_back_and_never_crash() -> None:
    wizard = _game_with("Wizard")
    with using("pl"):
        fallback = _(FALLBACK)
        assert error_text(IllegalAction("no-such-code", card="ZZ"), wizard) == fallback
        assert error_text(IllegalAction("not_your_turn"), "no-such-game") == _("It is not your turn.")
        # a game's own code with no game named: the generic texts only
        assert error_text(IllegalAction("must_follow", suit="H")) == fallback
        # a parameter the game cannot name (a tampered record) is shown as it came
        assert "Q?" in error_text(IllegalAction("call_own_card", card="Q?"), _game_with("Mediatore"))
        # a text whose parameter the raise site forgot
        assert error_text(IllegalAction("bid_range"), wizard) == fallback
    # in logs an unknown code stays visible
    assert str(IllegalAction("no-such-code", n=1)) == "no-such-code (n=1)"


def test_str_is_english_and_follows_the_raising_game() -> None:
    wizard = registry.get(_game_with("Wizard"))
    game = wizard.engine(3, {"rounds": [2]}, 5)  # type: ignore[call-arg]
    seat = game.to_move()[0]
    with using("ko"), pytest.raises(IllegalAction) as info:
        game.apply(seat, {"type": "bid", "n": 9})
    assert info.value.code == "bid_range" and info.value.params == {"lo": 0, "hi": 2}
    assert str(info.value) == "Bid a number of tricks from 0 to 2."
    # raised by Wizard's engine: Wizard's wording, even though other games also have a must_follow
    try:
        raise _raise_in_wizard(game)
    except IllegalAction as e:
        assert str(e) == "You must follow suit (Hearts) or play a Wizard or a Jester."


def _raise_in_wizard(game: Game) -> IllegalAction:
    """A must_follow raised inside the Wizard package's own code (its ``_validate``) when one can be found."""
    for seed in range(50):
        rng = random.Random(seed)
        g = type(game)(3, {"rounds": [5]}, seed)  # type: ignore[call-arg]
        for _step in range(40):
            if g.is_over:
                break
            seat = g.to_move()[0]
            legal: list[Action] = g.legal_actions(seat)
            plays = {a.get("card") for a in legal if a["type"] == "play"}
            for c in g.view(seat).get("hand") or []:
                if plays and c not in plays:
                    try:
                        g.apply(seat, {"type": "play", "card": c})
                    except IllegalAction as e:
                        if e.code == "must_follow" and e.params["suit"] == "H":
                            return e
            g.apply(seat, rng.choice([a for a in legal if a["type"] != "undo"] or legal))
    raise AssertionError("no Wizard must_follow in hearts found")


def test_mighty_defenders_have_their_own_korean_word() -> None:
    """Korean Mighty players say 야당 for the defenders, Mediatore's panels 수비: one msgid per game."""
    with using("ko"):
        assert _p("mighty", "You are a defender.") == "야당입니다."
        assert _("You are a defender.") == "수비입니다."
    mighty = (ROOT / "bot" / "games" / registry.get(_game_with("Mighty")).id / "render.py").read_text()
    assert '_p("mighty", "You are a defender.")' in mighty


def test_engines_stay_pure_and_errors_keep_their_data() -> None:
    """No text and no i18n in the engines: they import neither ``bot.i18n`` nor the renderers."""
    import copy
    import pickle

    files = [ROOT / "bot" / "games" / g / "engine.py" for g in GAMES] + sorted((ROOT / "bot" / "engine").glob("*.py"))
    for f in files:
        imports = [line for line in f.read_text().splitlines() if line.startswith(("from ", "import "))]
        assert not [i for i in imports if "bot.i18n" in i or "bot.render" in i], f.relative_to(ROOT)
    err = IllegalAction("bid_range", lo=0, hi=3)
    for back in (pickle.loads(pickle.dumps(err)), copy.copy(err)):
        assert type(back) is IllegalAction and (back.code, back.params) == ("bid_range", {"lo": 0, "hi": 3})

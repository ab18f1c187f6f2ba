"""An error a user may see, as text in the current locale: service refusals and engines' illegal-action codes.

Engines raise ``IllegalAction("must_follow", suit="H")``: a code and data. The codes every engine shares are
worded in :mod:`bot.render.error_texts` (:data:`GENERIC`); each game words its own in
``bot/games/<id>/errors.py``, exposed as its spec's ``errors``, with how its parameters read (a card id by the
game's card label, a suit by its name). A code that
nobody words reads as the generic "That is not possible now." — an error text never fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import TracebackType
from typing import Any

from bot.engine import errors as engine_errors
from bot.engine.errors import EngineError
from bot.errors import Refusal
from bot.games import registry
from bot.i18n import SOURCE, _, tr, using
from bot.render.error_texts import FALLBACK, GENERIC, ErrorTexts, Message

__all__ = ["FALLBACK", "GENERIC", "ErrorTexts", "Message", "error_text", "game_texts"]


def game_texts(game_id: str | None) -> ErrorTexts | None:
    """The game's own error texts, ``None`` for no game, an unknown one, or a game without a table."""
    if game_id is None:
        return None
    return registry.get(game_id).errors if registry.exists(game_id) else None


def _shown(params: Mapping[str, Any], own: ErrorTexts | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in params.items():
        show = (own.params.get(k) if own is not None else None) or GENERIC.params.get(k)
        if show is None:
            out[k] = v  # numbers stay numbers: _() formats them for the locale
            continue
        try:
            out[k] = show(v)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            out[k] = str(v)  # an id the game does not know (a tampered action): shown as it came
    return out


def _engine_text(err: EngineError, game_id: str | None) -> str:
    own = game_texts(game_id)
    msg = own.messages.get(err.code) if own is not None else None
    if msg is None:
        msg = GENERIC.messages.get(err.code)
    if msg is None:
        return _(FALLBACK)
    params = _shown(err.params, own)
    try:
        # (without parameters _() leaves the text unformatted: format it anyway, so a missing one is caught)
        return msg(params) if callable(msg) else _(msg, **params) if params else _(msg).format()
    except (KeyError, IndexError, TypeError, ValueError):  # a raise site without a parameter its text needs
        return _(FALLBACK)


def error_text(err: BaseException, game_id: str | None = None) -> str:
    """``err`` in the current locale (call inside ``using(locale)``); ``game_id`` names the game whose engine
    raised it, for games' own refusal codes."""
    if isinstance(err, Refusal):
        return tr(err.msgid, **err.resolved_params())
    if isinstance(err, EngineError):
        return _engine_text(err, game_id)
    return str(err)


# -- str(err) in English ---------------------------------------------------------------------------------------
def _raised_in(tb: TracebackType | None) -> str | None:
    """The game whose package raised the error (its innermost frame under ``bot.games.<id>``), if any."""
    found = None
    while tb is not None:
        parts = str(tb.tb_frame.f_globals.get("__name__", "")).split(".")
        if len(parts) > 2 and parts[:2] == ["bot", "games"]:
            found = parts[2]
        tb = tb.tb_next
    return found


def _owner(err: EngineError) -> str | None:
    """For an error not raised yet (or raised outside a game): the first game that words its code."""
    game = _raised_in(err.__traceback__)
    if game is not None and registry.exists(game):
        return game
    if err.code in GENERIC.messages:
        return None
    return next((s.id for s in registry.specs() if s.errors is not None and err.code in s.errors.messages), None)


def _english(err: EngineError) -> str:
    game = _owner(err)
    own = game_texts(game)
    if err.code not in GENERIC.messages and (own is None or err.code not in own.messages):
        # a code nobody words: the log keeps the code itself (players see the generic text)
        raise LookupError(err.code)
    with using(SOURCE):
        return error_text(err, game)


engine_errors.set_english(_english)

"""An error a user may see, as text in the current locale: service refusals and engines' illegal-action codes."""

from __future__ import annotations

from bot.errors import Refusal
from bot.i18n import _

__all__ = ["error_text"]


def error_text(err: BaseException, game_id: str | None = None) -> str:
    """``err`` in the current locale (call inside ``using(locale)``); ``game_id`` names the game whose engine
    raised it, for games' own refusal codes."""
    if isinstance(err, Refusal):
        return _(err.msgid, **err.resolved_params())
    return str(err)

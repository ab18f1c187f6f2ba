"""Refusals a user may see, as catalogue message ids with parameters: the text is made in the reader's language.

A service raises ``TableError(N_("Hand {n} is not finished."), n=3)``; the cog that answers the user turns it
into text with :func:`bot.render.errors.error_text` inside the reader's locale. A parameter may be a
zero-argument callable (e.g. a game's title), evaluated when the text is made, so it follows that locale too.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import english

__all__ = ["Refusal"]


class Refusal(Exception):
    """A request refused with a reason for the user: ``msgid`` (English, the catalogue's key) and parameters."""

    def __init__(self, msgid: str, **params: Any) -> None:
        super().__init__(msgid)
        self.msgid = msgid
        self.params = params

    def resolved_params(self) -> dict[str, Any]:
        """The parameters with lazy ones evaluated (in the locale current now)."""
        return {k: v() if callable(v) else v for k, v in self.params.items()}

    def __str__(self) -> str:
        # English, for logs and for callers outside Discord; users get error_text() in their locale
        try:
            return english(self.msgid, **self.resolved_params())
        except (KeyError, IndexError, ValueError):
            return self.msgid

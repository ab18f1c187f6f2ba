"""Typed errors raised by engines: a code and data parameters, never text (renderers word them per locale)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["EngineError", "IllegalAction", "InvalidOptions", "set_english"]

#: turns an error into its English sentence; set by ``bot.render.errors`` when it is imported (engines stay
#: free of texts and of ``bot.i18n``, yet ``str(err)`` reads well in logs and tests)
_english: Callable[[EngineError], str] | None = None


def set_english(fn: Callable[[EngineError], str] | None) -> None:
    """Register how ``str(err)`` words an error in English (``None``: the bare code)."""
    global _english
    _english = fn


class EngineError(Exception):
    """Base class of every error an engine raises on purpose: ``code`` (``"not_your_turn"``) and ``params``.

    Parameters are data — card ids, suit letters, numbers, option names — so any locale can word them.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        if _english is not None:
            try:
                return _english(self)
            except Exception:  # str() of an error must never raise (it runs inside logging and tracebacks)
                pass
        if not self.params:
            return self.code
        return f"{self.code} ({', '.join(f'{k}={v!r}' for k, v in self.params.items())})"

    def __reduce__(self) -> tuple[Any, ...]:
        # pickling and copying keep the parameters (Exception's default rebuilds from ``args`` = the code alone)
        return _rebuild, (type(self), self.code, self.params)

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({self.code!r}{args})"


def _rebuild(cls: type[EngineError], code: str, params: dict[str, Any]) -> EngineError:
    return cls(code, **params)


class IllegalAction(EngineError):
    """The action is not legal now (wrong seat, wrong phase, a card not in hand, ...)."""


class InvalidOptions(EngineError):
    """The table options are not valid for this game (unknown key, bad value, bad combination)."""

"""Typed errors raised by engines; their messages are fit to show a player."""


class EngineError(Exception):
    """Base class of every error an engine raises on purpose."""


class IllegalAction(EngineError):
    """The action is not legal now (wrong seat, wrong phase, a card not in hand, ...).

    ``str(err)`` is a short sentence that can be shown to the player as it is.
    """


class InvalidOptions(EngineError):
    """The table options are not valid for this game (unknown key, bad value, bad combination)."""

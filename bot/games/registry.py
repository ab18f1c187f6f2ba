"""The registry of games: every package under ``bot/games/`` that exposes a ``SPEC`` plugs in by itself.

Outer code asks the registry (``get``, ``specs``) and reads the :class:`~bot.games.spec.GameSpec`; it never
names a game. Tests and plug-ins may ``register`` a spec of their own (e.g. a toy game defined under
``tests/``) and ``unregister`` it afterwards.
"""

from __future__ import annotations

import importlib
import pkgutil

from bot.ai.base import Agent
from bot.ai.strong import GameSearch
from bot.engine.protocol import Game

from .spec import GameSpec, Renderer

_SPECS: dict[str, GameSpec] = {}
_discovered = False


class UnknownGame(KeyError):
    """No game is registered under that id."""


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import bot.games as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{pkg.__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, GameSpec):
            _SPECS.setdefault(spec.id, spec)


def register(spec: GameSpec) -> None:
    """Add a game (its id must be new)."""
    _discover()
    if spec.id in _SPECS and _SPECS[spec.id] is not spec:
        raise ValueError(f"a game with id {spec.id!r} is already registered")
    _SPECS[spec.id] = spec


def unregister(game_id: str) -> None:
    _SPECS.pop(game_id, None)


def specs() -> list[GameSpec]:
    """Every registered game, in a stable order (by id)."""
    _discover()
    return [_SPECS[k] for k in sorted(_SPECS)]


def ids() -> list[str]:
    return [s.id for s in specs()]


def get(game_id: str) -> GameSpec:
    _discover()
    try:
        return _SPECS[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None


def exists(game_id: str) -> bool:
    _discover()
    return game_id in _SPECS


# -- shorthands -------------------------------------------------------------------------------------------------
def game_class(game_id: str) -> type[Game]:
    return get(game_id).engine


def renderer(game_id: str) -> Renderer:
    return get(game_id).renderer


def make_agent(game_id: str, level: str | None = None) -> Agent:
    return get(game_id).make_agent(level)


def agent_levels(game_id: str) -> list[str]:
    return get(game_id).levels


def search(game_id: str) -> GameSearch:
    """The game's strong-level search adapter (tests and benchmarks tune its ``budget``)."""
    adapter = get(game_id).search
    if adapter is None:
        raise UnknownGame(f"{game_id} has no search adapter")
    return adapter


def currency(game_id: str) -> str:
    """The game's main currency; "stake" for a game no longer registered (old ledger rows)."""
    spec = _SPECS.get(game_id) if exists(game_id) else None
    return spec.currency if spec is not None else "stake"


def title(game_id: str) -> str:
    """The game's title; the id itself for a game no longer registered (old ledger rows)."""
    return get(game_id).title if exists(game_id) else game_id

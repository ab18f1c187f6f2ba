"""Game id -> engine class, computer-player module and renderer module, imported lazily.

Lazy imports keep start-up cheap and let a game be developed without breaking the others.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from bot.engine.protocol import Game


@dataclass(frozen=True, slots=True)
class GameEntry:
    game_id: str
    title: str
    engine: str  # "module:Class"
    ai: str
    render: str


GAMES: dict[str, GameEntry] = {
    "wizard": GameEntry("wizard", "Wizard", "bot.games.wizard:WizardGame", "bot.ai.wizard", "bot.render.wizard"),
    "mediatore": GameEntry(
        "mediatore", "Mediatore", "bot.games.mediatore:MediatoreGame", "bot.ai.mediatore", "bot.render.mediatore"
    ),
    "mighty": GameEntry("mighty", "Mighty", "bot.games.mighty:MightyGame", "bot.ai.mighty", "bot.render.mighty"),
    "minchiate": GameEntry(
        "minchiate", "Minchiate", "bot.games.minchiate:MinchiateGame", "bot.ai.minchiate", "bot.render.minchiate"
    ),
}


def game_class(game_id: str) -> type[Game]:
    entry = GAMES[game_id]
    module, _, name = entry.engine.partition(":")
    cls = getattr(importlib.import_module(module), name)
    importlib.import_module(entry.ai)  # registers the game's agents
    return cls  # type: ignore[no-any-return]


def renderer(game_id: str) -> ModuleType:
    return importlib.import_module(GAMES[game_id].render)

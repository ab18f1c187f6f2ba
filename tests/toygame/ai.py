"""Toy's computer player: the lowest legal card."""

from __future__ import annotations

import random

from bot.engine.protocol import Action, Game


class LowestCard:
    level = "normal"

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        return min(game.legal_actions(seat), key=lambda a: (int(a["card"][0]), a["card"]))

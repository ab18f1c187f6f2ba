"""Random legal games of every engine, with varied short options, for the hand-record tests.

Besides the listed legal actions they send what the Discord controls send: combination actions built from a
combo prompt (a Mighty discard in any card order, a Mediatore discard and give, a multi-card Minchiate
discard) and, now and then, a Wizard undo by a seat that is not to move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import IllegalAction
from bot.engine.protocol import Action, Game, Settlement, View
from bot.records import _games

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]


def random_options(game_id: str, rng: random.Random, n: int) -> dict[str, Any]:
    if game_id == "wizard":
        sizes = sorted(rng.sample(range(1, 60 // n + 1), rng.randint(1, 3)))
        mode = rng.choice(["open", "simultaneous", "secret"])
        opts: dict[str, Any] = {
            "rounds": rng.choice([sizes, ",".join(map(str, sizes))]),
            "bid_mode": mode,
            "first_round_blind": rng.random() < 0.3,
            "wizard_turned": rng.choice(["dealer_chooses", "no_trump"]),
            "stake_per_point": rng.choice([0, 0, 2]),
        }
        if mode == "open" and rng.random() < 0.5:
            opts["bid_restriction"] = True
        if rng.random() < 0.3:
            opts["first_dealer"] = rng.randrange(n)
        return opts
    if game_id == "mediatore":
        return {"hands": rng.randint(1, 3), "signals": rng.random() < 0.7, "stake": rng.choice([1, 3])}
    if game_id == "mighty":
        opts = {"hands": rng.randint(1, 3), "stake": rng.choice([1, 2])}
        for name in ("kitty_face_up", "weak_hand_misdeal", "first_trick_friend", "no_friend", "mighty_saves_joker"):
            if rng.random() < 0.5:
                opts[name] = rng.random() < 0.5
        return opts
    opts = {"manual_cut": rng.random() < 0.3, "stake_per_resto": rng.choice([0, 1])}
    if rng.random() < 0.1:
        opts["deals_per_game"] = 4
    return opts


def num_seats(game_id: str, rng: random.Random) -> int:
    lo, hi = _games.seat_range(game_id)
    return rng.randint(lo, hi)


def _combo(game: Game, seat: int, rng: random.Random) -> Action | None:
    prompt = game.view(seat).get("prompt")
    if not prompt or prompt.get("kind") != "combo":
        return None
    action: Action = {"type": prompt["type"], **prompt.get("fixed", {})}
    for f in prompt["fields"]:
        picked = rng.sample(list(f["from"]), f["count"])
        action[f["key"]] = picked if f["count"] > 1 else picked[0]
    try:
        game.clone().apply(seat, action)
    except IllegalAction:
        return None
    return action


def choose(game: Game, rng: random.Random) -> tuple[int, Action]:
    """A random legal move (seat, action)."""
    seats = list(game.to_move())
    if rng.random() < 0.1:  # a seat not to move may still act (the Wizard undo)
        others = [s for s in range(game.num_seats) if s not in seats and game.legal_actions(s)]
        if others:
            s = rng.choice(others)
            return s, rng.choice(game.legal_actions(s))
    seat = rng.choice(seats)
    if rng.random() < 0.5:
        combo = _combo(game, seat, rng)
        if combo is not None:
            return seat, combo
    legal = game.legal_actions(seat)
    undo = [a for a in legal if a["type"] == "undo"]
    rest = [a for a in legal if a["type"] != "undo"]
    # an undo now and then, not so often that a game never ends
    if undo and (not rest or rng.random() < 0.05):
        return seat, undo[0]
    return seat, rng.choice(rest)


@dataclass
class Played:
    game_id: str
    num_seats: int
    options: dict[str, Any]
    seed: int
    log: list[tuple[int, Action]] = field(default_factory=list)
    initial: View | None = None
    publics: list[View] = field(default_factory=list)
    views: list[tuple[View, ...]] = field(default_factory=list)
    settlements: list[Settlement] = field(default_factory=list)
    legal_seen: list[Action] = field(default_factory=list)
    game: Game | None = None

    @property
    def players(self) -> list[str]:
        return NAMES[: self.num_seats]


def play_random(
    game_id: str,
    seed: int,
    *,
    views: bool = True,
    publics: bool = True,
    collect_legal: bool = False,
    max_actions: int = 2000,
) -> Played:
    """Play one random game to its end (or ``max_actions``), keeping the states after every step (the public
    views unless ``publics`` is false, every seat's views too with ``views``)."""
    rng = random.Random(seed)
    n = num_seats(game_id, rng)
    opts = random_options(game_id, rng, n)
    game_seed = rng.randrange(2**40)
    game = _games.engine_class(game_id)(n, opts, game_seed)  # type: ignore[call-arg]
    p = Played(game_id, n, opts, game_seed, initial=game.public_view(), game=game)
    while not game.is_over and len(p.log) < max_actions:
        if collect_legal:
            for s in range(n):
                p.legal_seen.extend(game.legal_actions(s))
        seat, action = choose(game, rng)
        game.apply(seat, action)
        p.log.append((seat, action))
        if publics:
            p.publics.append(game.public_view())
        if views:
            p.views.append(tuple(game.view(s) for s in range(n)))
    p.settlements = game.settlements()
    return p

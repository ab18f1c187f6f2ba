"""Heuristic computer players for Minchiate.

``normal``: discards worthless pips (shortest suit first, to make voids for ruffing), declares every
combination, protects its counting cards, leads its shortest suit, smears its weakest counting card onto a
partner's sure trick, wins opponents' tricks as cheaply as possible (ruffing their Kings) and uses the Matto
to save points.
``easy``: a random legal card, but it still declares everything and discards sensibly.
Both read only ``game.view(seat)`` (to play a card, its part ``game.card_play_view(seat)``) and
``game.legal_actions(seat)`` (to play a card, the compact ``game.sim_legal(seat)``: ``sim_choose`` is the same
choice as a compact move, which a search's playouts apply without building a display action).
"""

from __future__ import annotations

import random
from typing import Any

from bot.engine.cards import MATTO, MINCHIATE_97
from bot.engine.protocol import Action, Game, Move
from bot.games.minchiate.engine import winner_of
from bot.games.minchiate.rules import POINTS, STRENGTH, SUIT, TRUMP

ALL_CARDS = frozenset(MINCHIATE_97)


def _discard_key(card: str, hand: list[str]) -> tuple[int, int, int]:
    """Lower = discard first: plain pips of short suits, then courts, then trumps."""
    s = SUIT[card]
    if s == TRUMP:
        return (2, 0, STRENGTH[card])
    if STRENGTH[card] > 10:  # a court
        return (1, 0, STRENGTH[card])
    length = sum(1 for c in hand if SUIT[c] == s)
    return (0, length, STRENGTH[card])


def _unseen(view: dict[str, Any]) -> set[str]:
    """Cards that may still be in another player's hand: not mine, not in the Fola, not played."""
    trick = view["trick"] or {"plays": []}
    seen = {*view["hand"], *(view.get("fola") or ()), *view.get("played", ()), *(c for _, c in trick["plays"])}
    return set(ALL_CARDS - seen)


def _master(card: str, unseen: set[str]) -> bool:
    """A trump no card still out can beat: it wins the trick whatever the later players hold."""
    return SUIT[card] == TRUMP and all(SUIT[c] != TRUMP or STRENGTH[c] < STRENGTH[card] for c in unseen)


#: cards whose pile scores more than their points: members of some combination (§4.1) and the Matto (§4.5)
COMBO_MEMBERS = frozenset(
    [*(f"T{n}" for n in (*range(1, 6), *range(28, 41), 10, 13, 20)), MATTO, *(c for c in ALL_CARDS if c.endswith("K"))]
)


def equivalent_plays(view: dict[str, Any], cards: list[str]) -> list[str]:
    """One card per class of interchangeable legal cards (the weakest), for the search.

    Two cards of the same suit are interchangeable when they score the same, neither belongs to a
    combination, and no card that is still out or already in this trick ranks between them: whichever is
    played, every trick ends the same way. Searching one of each leaves the playouts to the cards that differ
    (about one legal card in eight is such a duplicate over whole deals; more late in a deal)."""
    unseen = _unseen(view)
    trick = view["trick"] or {"plays": []}
    separators = unseen | {c for _, c in trick["plays"]}
    by_suit: dict[str, list[str]] = {}
    for c in cards:
        by_suit.setdefault(SUIT[c], []).append(c)
    out: list[str] = []
    for suit, mine in by_suit.items():
        mine.sort(key=lambda c: STRENGTH[c])
        between = sorted(STRENGTH[c] for c in separators if SUIT[c] == suit)
        prev: str | None = None
        for c in mine:
            if (
                prev is not None
                and c not in COMBO_MEMBERS
                and prev not in COMBO_MEMBERS
                and POINTS[c] == POINTS[prev]
                and not any(STRENGTH[prev] < x < STRENGTH[c] for x in between)
            ):
                continue  # same class as ``prev`` (the weakest card of the class represents it)
            out.append(c)
            prev = c
    return out


#: a trump from T18 up is "solid" enough to win a trick with points in it before the last player
SOLID_TRUMP = STRENGTH["T18"]


def _value_key(card: str) -> tuple[int, int]:
    """Cheapest card to give away: fewest points, then weakest (the Matto is never "cheap" here)."""
    return (5 if card == "T29" else POINTS[card], STRENGTH[card])  # T29 scores 5 in combinations (§4.3)


class MinchiateNormal:
    level = "normal"

    def sim_choose(self, game: Game, seat: int, rng: random.Random) -> Move:
        """:meth:`choose` as a move of ``game.sim_legal(seat)``."""
        if game.phase == "play":  # type: ignore[attr-defined]
            return self._play_move(game, seat)
        return self.choose(game, seat, rng)

    def _play_move(self, game: Game, seat: int) -> str:
        cards: list[str] = game.sim_legal(seat)  # the card ids, in legal_actions order
        if not cards:
            raise ValueError(f"seat {seat} has no legal action")
        return self._play(game.card_play_view(seat), seat, cards)  # type: ignore[attr-defined]

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        if game.phase == "play":  # type: ignore[attr-defined]
            return {"type": "play", "card": self._play_move(game, seat)}
        acts = game.legal_actions(seat)
        if not acts:
            raise ValueError(f"seat {seat} has no legal action")
        kind = acts[0]["type"]
        if kind == "declare":
            return acts[0]  # declare all (the first action)
        if kind == "cut":
            return rng.choice(acts)
        view = game.view(seat) if kind == "discard" else game.card_play_view(seat)  # type: ignore[attr-defined]
        if kind == "discard":
            hand = view["hand"]
            return min(acts, key=lambda a: _discard_key(a["cards"][0], hand))
        return {"type": "play", "card": self._play(view, seat, [a["card"] for a in acts])}

    def _play(self, view: dict[str, Any], seat: int, legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        hand: list[str] = view["hand"]
        plays = [(int(s), c) for s, c in (view["trick"] or {"plays": []})["plays"]]
        real = [(s, c) for s, c in plays if c != MATTO]
        non_matto = [c for c in legal if c != MATTO]
        if not real:
            return self._lead(hand, non_matto or legal)
        me = seat % 2
        w = winner_of(plays)
        pos = len(plays)
        trick_pts = sum(POINTS[c] for _, c in real)
        # the cards that would win the trick (winner_of of the trick with the card added): a card beats the
        # winning one if it is a trump above it, or of the led suit above it while no trump is in
        led = SUIT[real[0][1]]
        best = max(STRENGTH[c] + (1000 if SUIT[c] == TRUMP else 0) for _, c in real if SUIT[c] in (TRUMP, led))
        wins = [
            c for c in non_matto if SUIT[c] in (TRUMP, led) and STRENGTH[c] + (1000 if SUIT[c] == TRUMP else 0) > best
        ]
        if w % 2 == me:
            unseen = _unseen(view)  # (only needed here)
            partner_card = next(c for s, c in plays if s == w)
            safe = pos == 3 or _master(partner_card, unseen)
            if safe and non_matto:
                # smear: counting cards die at home and score for us at the end. The weakest one: a strong trump
                # wins a trick of its own later and brings that trick's cards home too (smearing the most
                # points instead, i.e. the 10-point trumps, won 76% of deals against random players, this 82%)
                return max(non_matto, key=lambda c: (POINTS[c] > 0 and not _master(c, unseen), -STRENGTH[c]))
            return min(non_matto or legal, key=_value_key)
        if wins:
            if pos == 3:
                return min(wins, key=lambda c: (STRENGTH[c], -POINTS[c]))
            trumps = [c for c in wins if SUIT[c] == TRUMP]
            if trumps:
                # an opponent may still overtrump: with points at stake use a solid trump
                if trick_pts >= 5:
                    strong = [c for c in trumps if STRENGTH[c] >= SOLID_TRUMP]
                    if strong:
                        return min(strong, key=lambda c: (POINTS[c], STRENGTH[c]))
                return min(trumps, key=lambda c: (POINTS[c], STRENGTH[c]))
            safe_wins = [c for c in wins if POINTS[c] == 0]
            if safe_wins:
                return max(safe_wins, key=lambda c: STRENGTH[c])
            if trick_pts >= 5:
                return wins[0]
        cheapest = min(non_matto or legal, key=_value_key)
        if MATTO in legal and POINTS[cheapest] > 0:
            return MATTO  # the excuse saves our counting card (one worthless card owed)
        return cheapest

    def _lead(self, hand: list[str], legal: list[str]) -> str:
        plain = [c for c in legal if SUIT[c] not in (TRUMP, "M") and POINTS[c] == 0]
        if plain:

            def length(c: str) -> int:
                return sum(1 for x in hand if SUIT[x] == SUIT[c])

            # the shortest suit: its void comes sooner, and then we ruff (measured better than the longest)
            return max(plain, key=lambda c: (-length(c), -STRENGTH[c]))
        trumps = [c for c in legal if SUIT[c] == TRUMP and POINTS[c] == 0]
        if trumps:
            return min(trumps, key=lambda c: STRENGTH[c])
        no_matto = [c for c in legal if c != MATTO] or legal
        return min(no_matto, key=_value_key)


class MinchiateEasy:
    level = "easy"

    def sim_choose(self, game: Game, seat: int, rng: random.Random) -> Move:
        """:meth:`choose` as a move of ``game.sim_legal(seat)`` (the same random draw)."""
        if game.phase == "play":  # type: ignore[attr-defined]
            moves = game.sim_legal(seat)
            if not moves:
                raise ValueError(f"seat {seat} has no legal action")
            return rng.choice(moves)
        return self.choose(game, seat, rng)

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        acts = game.legal_actions(seat)
        if not acts:
            raise ValueError(f"seat {seat} has no legal action")
        if acts[0]["type"] in ("declare", "discard"):
            return MinchiateNormal().choose(game, seat, rng)
        return rng.choice(acts)


def prune_plays(game: Game, seat: int, actions: list[Action]) -> list[Action]:
    """The strong search's candidate cards: one per class of interchangeable cards (:func:`equivalent_plays`)."""
    keep = set(equivalent_plays(game.view(seat), [a["card"] for a in actions]))
    return [a for a in actions if a["card"] in keep]

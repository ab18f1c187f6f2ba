"""Constrained random dealing: place hidden cards into seats consistently with what a viewer knows.

Search-based computer players sample a full state consistent with one seat's view ("determinization"):
each unseen card must go to a hand (or the kitty/monte/stock) with a known number of free slots, and
some cards cannot go to some places (a player showed a void, a card's holder is known to be someone else).
This module solves that as a random bipartite matching, so a valid deal is always found when one exists.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


class NoConsistentDeal(ValueError):
    """No placement of the cards satisfies the constraints (a bug in how they were derived)."""


def deal_constrained(
    cards: Sequence[str],
    capacities: Mapping[K, int],
    allowed: Callable[[K, str], bool],
    rng: random.Random,
) -> dict[K, list[str]]:
    """Randomly assign every card in ``cards`` to a place in ``capacities`` so that each place ``k`` gets
    exactly ``capacities[k]`` cards and ``allowed(k, card)`` holds for every assignment.

    The capacities must add up to ``len(cards)``. Raises :class:`NoConsistentDeal` if impossible.
    """
    places = list(capacities)
    if sum(capacities.values()) != len(cards):
        raise NoConsistentDeal(f"{len(cards)} cards for {sum(capacities.values())} slots")
    # sorted first: the deal is then a function of the set of hidden cards and the rng alone, never of the order
    # the real hands hold them in (a search, or a hint, must not depend on what the seat cannot see)
    order = sorted(cards)
    rng.shuffle(order)
    # Fast path: greedy fill, most constrained cards first, random among places with room.
    options = {c: [p for p in places if allowed(p, c)] for c in order}
    order.sort(key=lambda c: len(options[c]))
    room = dict(capacities)
    out: dict[K, list[str]] = {p: [] for p in places}
    greedy_ok = True
    for c in order:
        choices = [p for p in options[c] if room[p] > 0]
        if not choices:
            greedy_ok = False
            break
        # weight by free room so the result is close to a uniform deal
        p = rng.choices(choices, weights=[room[q] for q in choices])[0]
        out[p].append(c)
        room[p] -= 1
    if greedy_ok:
        return out
    return _matching(order, capacities, options, rng)


def _matching(
    order: list[str], capacities: Mapping[K, int], options: dict[str, list[K]], rng: random.Random
) -> dict[K, list[str]]:
    """Exact fallback: augmenting-path matching of cards to place slots."""
    slots: list[K] = [p for p, n in capacities.items() for _ in range(n)]
    slot_of_place: dict[K, list[int]] = {}
    for i, p in enumerate(slots):
        slot_of_place.setdefault(p, []).append(i)
    owner: list[str | None] = [None] * len(slots)

    def augment(card: str, seen: set[int]) -> bool:
        cand = [i for p in options[card] for i in slot_of_place.get(p, [])]
        rng.shuffle(cand)
        for i in cand:
            if i in seen:
                continue
            seen.add(i)
            if owner[i] is None or augment(owner[i], seen):  # type: ignore[arg-type]
                owner[i] = card
                return True
        return False

    for c in order:
        if not augment(c, set()):
            raise NoConsistentDeal(f"no place can take {c}")
    out: dict[K, list[str]] = {p: [] for p in capacities}
    for i, card in enumerate(owner):
        assert card is not None
        out[slots[i]].append(card)
    return out

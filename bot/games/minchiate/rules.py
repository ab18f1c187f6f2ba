"""Static Minchiate card facts and the combination (versicola) finder (docs/rules/minchiate.md §2 and §4).

Kept apart from the engine so the computer player and the renderer can use the same tables without
touching game state.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from bot.engine.cards import MATTO, MINCHIATE_97, MINCHIATE_SUITS

TRUMP = "T"
#: suit key of the Matto (it belongs to no suit and is not a trump, §2.1)
FOOL = "M"
SUIT_ORDER = {s: i for i, s in enumerate(MINCHIATE_SUITS)}
KINGS = tuple(s + "K" for s in MINCHIATE_SUITS)
COURT_STRENGTH = {"F": 11, "C": 12, "Q": 13, "K": 14}


def _suit(card: str) -> str:
    if card == MATTO:
        return FOOL
    if card[0] == "T":
        return TRUMP
    return card[:2]


def _strength(card: str) -> int:
    """§2.2 engine strength: trumps 101..140, courts 11..14, pips reversed in Coins/Cups."""
    if card == MATTO:
        return 0
    if card[0] == "T":
        return 100 + int(card[1:])
    rank = card[2:]
    if rank in COURT_STRENGTH:
        return COURT_STRENGTH[rank]
    n = int(rank)
    return 11 - n if card[:2] in ("Co", "Cu") else n


def _points(card: str) -> int:
    """§2.3 card points."""
    if card == MATTO:
        return 5
    if card[0] == "T":
        n = int(card[1:])
        if n >= 36:
            return 10
        if 30 <= n <= 35 or n in (28, 20, 13, 10, 1):
            return 5
        if 2 <= n <= 5:
            return 3
        return 0
    return 5 if card[2:] == "K" else 0


SUIT: dict[str, str] = {c: _suit(c) for c in MINCHIATE_97}
STRENGTH: dict[str, int] = {c: _strength(c) for c in MINCHIATE_97}
POINTS: dict[str, int] = {c: _points(c) for c in MINCHIATE_97}
COUNTING: frozenset[str] = frozenset(c for c in MINCHIATE_97 if POINTS[c] > 0)
#: §2.5: counting cards plus every trump above 20
ROBBABLE: frozenset[str] = COUNTING | frozenset(f"T{n}" for n in range(21, 41))
#: §2.6: zero-point cards except T29
DISCARDABLE: frozenset[str] = frozenset(c for c in MINCHIATE_97 if POINTS[c] == 0 and c != "T29")
#: cards the dealer takes from the Fola (§3.6, DECISION M-5)
TAKEABLE: frozenset[str] = COUNTING | {"T29"}


def display_key(card: str) -> tuple[int, int, int]:
    """Sort key for showing a hand: trumps high to low, the Matto, then each suit strongest first."""
    s = SUIT[card]
    if s == TRUMP:
        return (0, 0, -STRENGTH[card])
    if s == FOOL:
        return (1, 0, 0)
    return (2, SUIT_ORDER[s], -STRENGTH[card])


#: each card's place in the display order (a dict lookup sorts a hand several times faster than the key
#: function: hands are sorted for every view and every list of legal cards, thousands of times per search)
_DISPLAY_RANK: dict[str, int] = {c: i for i, c in enumerate(sorted(MINCHIATE_97, key=display_key))}


def sort_hand(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=_DISPLAY_RANK.__getitem__)


def matto_payment_key(card: str) -> tuple[int, int, int, int]:
    """DECISION M-15: the captured card given for the Matto debt minimises this key."""
    s = SUIT[card]
    if s == TRUMP:
        return (POINTS[card], 2 if card == "T29" else 1, 0, STRENGTH[card])
    return (POINTS[card], 0, SUIT_ORDER[s], STRENGTH[card])


# --- combinations (§4) --------------------------------------------------------------------------


def combo_points(card: str) -> int:
    """Card points inside a combination: T29 counts 5 (§2.4)."""
    return 5 if card == "T29" else POINTS[card]


#: the two windows of trumps in which runs count (§4.2), each closed by a None (searches score piles per deal)
_RUN_WINDOWS: tuple[tuple[str | None, ...], ...] = tuple(
    (*(f"T{n}" for n in range(lo, hi + 1)), None) for lo, hi in ((1, 5), (28, 40))
)


def find_combos(cards: Collection[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Every combination present in ``cards`` as ``(type, members)`` in a stable order (§4.7)."""
    held = set(cards)
    out: list[tuple[str, tuple[str, ...]]] = []
    for window in _RUN_WINDOWS:
        run: list[str] = []
        for c in window:  # the trailing None closes the last run; a run never leaves its window (§4.2)
            if c is not None and c in held:
                run.append(c)
                continue
            if len(run) >= 3:
                out.append(("RUN", tuple(run)))
            run = []
    if "T1" in held and "T40" in held and MATTO in held:
        out.append(("UTM", ("T1", "T40", MATTO)))
    if "T1" in held and "T13" in held and "T28" in held:
        out.append(("UTV", ("T1", "T13", "T28")))
    if {"T20", "T30"} <= held:
        # DECISION M-9: all four tens are one combination worth 25.
        if "T10" in held and "T40" in held:
            out.append(("DEC", ("T10", "T20", "T30", "T40")))
        elif "T10" in held:
            out.append(("DEC", ("T10", "T20", "T30")))
        elif "T40" in held:
            out.append(("DEC", ("T20", "T30", "T40")))
    kings = tuple(k for k in KINGS if k in held)
    if len(kings) >= 3:
        out.append(("KINGS", kings))
    return out


def combo_value(members: Iterable[str], matto_in_set: bool) -> int:
    """§4.3 value plus the §4.5 Matto bonus (never on a combination containing the Matto, M-10)."""
    members = tuple(members)
    value = sum(combo_points(c) for c in members)
    if matto_in_set and MATTO not in members:
        value += 5
    return value


def combos_with_values(cards: Collection[str]) -> list[dict[str, object]]:
    """Combinations of ``cards`` as JSON dicts ``{"type", "cards", "value"}``."""
    matto = MATTO in cards
    return [{"type": t, "cards": list(m), "value": combo_value(m, matto)} for t, m in find_combos(cards)]


def combos_total(cards: Collection[str]) -> int:
    matto = MATTO in cards
    return sum(combo_value(m, matto) for _, m in find_combos(cards))


def combo_name(combo: dict[str, object]) -> str:
    """Short English name of a combination dict (for prompts and narration)."""
    cards = list(combo["cards"])  # type: ignore[call-overload]
    t = combo["type"]
    if t == "RUN":
        return f"Run {cards[0]}–{cards[-1]}"
    if t == "UTM":
        return "T1+T40+Matto"
    if t == "UTV":
        return "T1+T13+T28"
    if t == "DEC":
        return "+".join(cards)
    return f"{len(cards)} Kings"

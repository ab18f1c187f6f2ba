"""The four decks Tavolo needs, as tuples of stable short card identifiers.

Identifiers are the ones the rules documents use (``docs/rules/<game>.md``); they are what actions, logs and
views carry. How a card *looks* on Discord lives in ``bot.render.cards``; what a card is *worth* lives
in each game.
"""

from __future__ import annotations

# --- Italian 40 (Mediatore): suits Denari, Coppe, Spade, Bastoni; rank letters as in docs/rules/mediatore.md §0.
ITALIAN_SUITS = ("D", "C", "S", "B")
ITALIAN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "N", "K")
ITALIAN_40: tuple[str, ...] = tuple(r + s for s in ITALIAN_SUITS for r in ITALIAN_RANKS)

# --- French 52 + joker (Mighty): ranks A K Q J T 9..2, joker "JK" (docs/rules/mighty.md §0).
FRENCH_SUITS = ("S", "D", "H", "C")
FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
JOKER = "JK"
FRENCH_52_JOKER: tuple[str, ...] = (*(r + s for s in FRENCH_SUITS for r in FRENCH_RANKS), JOKER)

# --- Wizard 60: rank then suit (``10H``, ``QS``); four numbered Wizards and Jesters (docs/rules/wizard.md §0).
WIZARD_SUITS = ("S", "H", "D", "C")
WIZARD_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
WIZARDS = ("WIZ1", "WIZ2", "WIZ3", "WIZ4")
JESTERS = ("JES1", "JES2", "JES3", "JES4")
WIZARD_60: tuple[str, ...] = (*(r + s for s in WIZARD_SUITS for r in WIZARD_RANKS), *WIZARDS, *JESTERS)

# --- Minchiate 97: trumps T1..T40, MATTO, suits Co Cu Sw Ba with ranks 1..10 F C Q K (docs/rules/minchiate.md §0.2).
MINCHIATE_SUITS = ("Co", "Cu", "Sw", "Ba")
MINCHIATE_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "F", "C", "Q", "K")
MATTO = "MATTO"
MINCHIATE_97: tuple[str, ...] = (
    *(f"T{i}" for i in range(1, 41)),
    MATTO,
    *(s + r for s in MINCHIATE_SUITS for r in MINCHIATE_RANKS),
)

DECKS: dict[str, tuple[str, ...]] = {
    "italian40": ITALIAN_40,
    "french53": FRENCH_52_JOKER,
    "wizard60": WIZARD_60,
    "minchiate97": MINCHIATE_97,
}


def italian_split(card: str) -> tuple[str, str]:
    """``"3D"`` -> ``("3", "D")``."""
    return card[:-1], card[-1]


def french_split(card: str) -> tuple[str, str]:
    """``"TD"`` -> ``("T", "D")``; the joker has no suit and returns ``("JK", "")``."""
    if card == JOKER:
        return JOKER, ""
    return card[:-1], card[-1]


def wizard_split(card: str) -> tuple[str, str]:
    """``"10H"`` -> ``("10", "H")``; Wizards and Jesters return ``("WIZ", "")`` / ``("JES", "")``."""
    if card.startswith(("WIZ", "JES")):
        return card[:3], ""
    return card[:-1], card[-1]


def minchiate_split(card: str) -> tuple[str, str]:
    """``"CuK"`` -> ``("K", "Cu")``; trumps return ``("17", "T")``; the Matto ``("MATTO", "")``."""
    if card == MATTO:
        return MATTO, ""
    if card[0] == "T":
        return card[1:], "T"
    return card[2:], card[:2]

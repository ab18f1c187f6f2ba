"""How cards look on Discord: one place for every deck's text forms.

Each deck's ``*_label(card)`` is the short form used everywhere (buttons, tables, logs), e.g. ``Q♠``, ``10♥``,
``3🪙`` (Italian Denari), ``K🏆`` (Coppe), ``T17`` (Minchiate trump), ``🧙`` / ``🃏``.
``long_name(card)`` spells it out for select-menu descriptions.
Suit symbols for Italian and Minchiate suits: Denari/Coins 🪙, Coppe/Cups 🏆, Spade/Swords ⚔️, Bastoni/Batons 🪵.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

FRENCH_SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ITALIAN_SUIT = {"D": "🪙", "C": "🏆", "S": "⚔️", "B": "🪵"}
MINCHIATE_SUIT = {"Co": "🪙", "Cu": "🏆", "Sw": "⚔️", "Ba": "🪵"}

ITALIAN_SUIT_NAME = {"D": "Denari", "C": "Coppe", "S": "Spade", "B": "Bastoni"}
ITALIAN_RANK_NAME = {
    "A": "Asso",
    "2": "Due",
    "3": "Tre",
    "4": "Quattro",
    "5": "Cinque",
    "6": "Sei",
    "7": "Sette",
    "J": "Fante",
    "N": "Cavallo",
    "K": "Re",
}
FRENCH_SUIT_NAME = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
FRENCH_RANK_NAME = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
MINCHIATE_SUIT_NAME = {"Co": "Coins", "Cu": "Cups", "Sw": "Swords", "Ba": "Batons"}
MINCHIATE_RANK_NAME = {"1": "Ace", "F": "Fante", "C": "Cavallo", "Q": "Regina", "K": "Re"}


def wizard_label(card: str) -> str:
    if card.startswith("WIZ"):
        return "🧙 Wizard"
    if card.startswith("JES"):
        return "🃏 Jester"
    return card[:-1] + FRENCH_SUIT[card[-1]]


def mighty_label(card: str) -> str:
    if card == "JK":
        return "🃏 Joker"
    rank = "10" if card[0] == "T" else card[:-1]
    return rank + FRENCH_SUIT[card[-1]]


def italian_label(card: str) -> str:
    rank = {"N": "C"}.get(card[:-1], card[:-1])  # Cavallo shown as C, as on Italian packs
    return rank + ITALIAN_SUIT[card[-1]]


def italian_long(card: str) -> str:
    return f"{ITALIAN_RANK_NAME[card[:-1]]} di {ITALIAN_SUIT_NAME[card[-1]]}"


def minchiate_label(card: str) -> str:
    if card == "MATTO":
        return "🤡 Matto"
    if card[0] == "T":
        return card
    return card[2:] + MINCHIATE_SUIT[card[:2]]


def minchiate_long(card: str) -> str:
    if card == "MATTO":
        return "Il Matto (the Fool)"
    if card[0] == "T":
        return f"Trump {card[1:]}"
    rank = card[2:]
    return f"{MINCHIATE_RANK_NAME.get(rank, rank)} of {MINCHIATE_SUIT_NAME[card[:2]]}"


def french_long(card: str) -> str:
    if card == "JK":
        return "Joker"
    rank = card[:-1]
    return f"{FRENCH_RANK_NAME.get(rank, rank)} of {FRENCH_SUIT_NAME[card[-1]]}"


def joined(label: Callable[[str], str], cards: Iterable[str]) -> str:
    """Cards in one deck's short form joined with spaces, or an em dash when there are none."""
    return " ".join(label(c) for c in cards) or "—"

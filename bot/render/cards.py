"""How cards look on Discord: one place for every deck's text forms.

Each deck's ``*_label(card)`` is the short form used everywhere (buttons, tables, logs), e.g. ``Q♠``, ``10♥``,
``3🪙`` (Italian Denari), ``K🏆`` (Coppe), ``T17`` (Minchiate trump), ``🧙 Wizard`` / ``🃏 Jester``: symbols stay
the same in every language, only the named cards' words are translated. ``*_long(card)`` spells a card out for
select-menu descriptions in the reader's language (``bot.i18n``), e.g. ``Tre di Denari``, ``Queen of Spades``,
``Trump 38 (Sun)`` — Minchiate trumps by their traditional names (the Papi, the virtues, the elements, the zodiac).
Suit symbols for Italian and Minchiate suits: Denari/Coins 🪙, Coppe/Cups 🏆, Spade/Swords ⚔️, Bastoni/Batons 🪵.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.i18n import _, _p

FRENCH_SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ITALIAN_SUIT = {"D": "🪙", "C": "🏆", "S": "⚔️", "B": "🪵"}
MINCHIATE_SUIT = {"Co": "🪙", "Cu": "🏆", "Sw": "⚔️", "Ba": "🪵"}

# The name tables are functions so that each name is looked up in the reader's locale when it is shown
# (a dict of strings would be translated once, at import, in whatever locale was current then).
_ITALIAN_SUIT_NAME: dict[str, Callable[[], str]] = {
    "D": lambda: _p("italian suit", "Denari"),
    "C": lambda: _p("italian suit", "Coppe"),
    "S": lambda: _p("italian suit", "Spade"),
    "B": lambda: _p("italian suit", "Bastoni"),
}
_ITALIAN_RANK_NAME: dict[str, Callable[[], str]] = {
    "A": lambda: _p("italian rank", "Asso"),
    "2": lambda: _p("italian rank", "Due"),
    "3": lambda: _p("italian rank", "Tre"),
    "4": lambda: _p("italian rank", "Quattro"),
    "5": lambda: _p("italian rank", "Cinque"),
    "6": lambda: _p("italian rank", "Sei"),
    "7": lambda: _p("italian rank", "Sette"),
    "J": lambda: _p("italian rank", "Fante"),
    "N": lambda: _p("italian rank", "Cavallo"),
    "K": lambda: _p("italian rank", "Re"),
}
_FRENCH_SUIT_NAME: dict[str, Callable[[], str]] = {
    "S": lambda: _p("french suit", "Spades"),
    "H": lambda: _p("french suit", "Hearts"),
    "D": lambda: _p("french suit", "Diamonds"),
    "C": lambda: _p("french suit", "Clubs"),
}
_FRENCH_RANK_NAME: dict[str, Callable[[], str]] = {
    "A": lambda: _p("french rank", "Ace"),
    "K": lambda: _p("french rank", "King"),
    "Q": lambda: _p("french rank", "Queen"),
    "J": lambda: _p("french rank", "Jack"),
}
_MINCHIATE_SUIT_NAME: dict[str, Callable[[], str]] = {
    "Co": lambda: _p("minchiate suit", "Coins"),
    "Cu": lambda: _p("minchiate suit", "Cups"),
    "Sw": lambda: _p("minchiate suit", "Swords"),
    "Ba": lambda: _p("minchiate suit", "Batons"),
}
_MINCHIATE_RANK_NAME: dict[str, Callable[[], str]] = {
    "1": lambda: _p("minchiate rank", "Ace"),
    "F": lambda: _p("minchiate rank", "Fante"),
    "C": lambda: _p("minchiate rank", "Cavallo"),
    "Q": lambda: _p("minchiate rank", "Regina"),
    "K": lambda: _p("minchiate rank", "Re"),
}
#: the 40 Minchiate trumps by their traditional names (1-5 the Papi, 20-23 the elements, 24-35 the zodiac)
_MINCHIATE_TRUMP_NAME: dict[int, Callable[[], str]] = {
    1: lambda: _p("minchiate trump", "Papa I"),
    2: lambda: _p("minchiate trump", "Papa II"),
    3: lambda: _p("minchiate trump", "Papa III"),
    4: lambda: _p("minchiate trump", "Papa IV"),
    5: lambda: _p("minchiate trump", "Papa V"),
    6: lambda: _p("minchiate trump", "Temperance"),
    7: lambda: _p("minchiate trump", "Fortitude"),
    8: lambda: _p("minchiate trump", "Justice"),
    9: lambda: _p("minchiate trump", "Wheel of Fortune"),
    10: lambda: _p("minchiate trump", "Chariot"),
    11: lambda: _p("minchiate trump", "Time"),
    12: lambda: _p("minchiate trump", "Hanged Man"),
    13: lambda: _p("minchiate trump", "Death"),
    14: lambda: _p("minchiate trump", "Devil"),
    15: lambda: _p("minchiate trump", "House of the Devil"),
    16: lambda: _p("minchiate trump", "Hope"),
    17: lambda: _p("minchiate trump", "Prudence"),
    18: lambda: _p("minchiate trump", "Faith"),
    19: lambda: _p("minchiate trump", "Charity"),
    20: lambda: _p("minchiate trump", "Fire"),
    21: lambda: _p("minchiate trump", "Water"),
    22: lambda: _p("minchiate trump", "Earth"),
    23: lambda: _p("minchiate trump", "Air"),
    24: lambda: _p("minchiate trump", "Libra"),
    25: lambda: _p("minchiate trump", "Virgo"),
    26: lambda: _p("minchiate trump", "Scorpio"),
    27: lambda: _p("minchiate trump", "Aries"),
    28: lambda: _p("minchiate trump", "Capricorn"),
    29: lambda: _p("minchiate trump", "Sagittarius"),
    30: lambda: _p("minchiate trump", "Cancer"),
    31: lambda: _p("minchiate trump", "Pisces"),
    32: lambda: _p("minchiate trump", "Aquarius"),
    33: lambda: _p("minchiate trump", "Leo"),
    34: lambda: _p("minchiate trump", "Taurus"),
    35: lambda: _p("minchiate trump", "Gemini"),
    36: lambda: _p("minchiate trump", "Star"),
    37: lambda: _p("minchiate trump", "Moon"),
    38: lambda: _p("minchiate trump", "Sun"),
    39: lambda: _p("minchiate trump", "World"),
    40: lambda: _p("minchiate trump", "Trumpets"),
}


def italian_suit_name(suit: str) -> str:
    """``Denari``, ``Coppe``, ``Spade``, ``Bastoni`` in the reader's language."""
    return _ITALIAN_SUIT_NAME[suit]()


def french_suit_name(suit: str) -> str:
    """``Spades``, ``Hearts``, ``Diamonds``, ``Clubs`` in the reader's language."""
    return _FRENCH_SUIT_NAME[suit]()


def minchiate_suit_name(suit: str) -> str:
    """``Coins``, ``Cups``, ``Swords``, ``Batons`` in the reader's language."""
    return _MINCHIATE_SUIT_NAME[suit]()


def minchiate_trump_name(number: int) -> str:
    """The traditional name of Minchiate trump ``number`` (1-40)."""
    return _MINCHIATE_TRUMP_NAME[number]()


def wizard_label(card: str) -> str:
    if card.startswith("WIZ"):
        return "🧙 " + _p("card", "Wizard")
    if card.startswith("JES"):
        return "🃏 " + _p("card", "Jester")
    return card[:-1] + FRENCH_SUIT[card[-1]]


def mighty_label(card: str) -> str:
    if card == "JK":
        return "🃏 " + _p("card", "Joker")
    rank = "10" if card[0] == "T" else card[:-1]
    return rank + FRENCH_SUIT[card[-1]]


def italian_label(card: str) -> str:
    rank = {"N": "C"}.get(card[:-1], card[:-1])  # Cavallo shown as C, as on Italian packs
    return rank + ITALIAN_SUIT[card[-1]]


# "<rank> of <suit>" is one msgid per suit: languages decline the suit (Russian "Дама пик", "Пики")
_ITALIAN_OF: dict[str, Callable[[str], str]] = {
    "D": lambda rank: _("{rank} di Denari", rank=rank),
    "C": lambda rank: _("{rank} di Coppe", rank=rank),
    "S": lambda rank: _("{rank} di Spade", rank=rank),
    "B": lambda rank: _("{rank} di Bastoni", rank=rank),
}
_FRENCH_OF: dict[str, Callable[[str], str]] = {
    "S": lambda rank: _("{rank} of Spades", rank=rank),
    "H": lambda rank: _("{rank} of Hearts", rank=rank),
    "D": lambda rank: _("{rank} of Diamonds", rank=rank),
    "C": lambda rank: _("{rank} of Clubs", rank=rank),
}
_MINCHIATE_OF: dict[str, Callable[[str], str]] = {
    "Co": lambda rank: _("{rank} of Coins", rank=rank),
    "Cu": lambda rank: _("{rank} of Cups", rank=rank),
    "Sw": lambda rank: _("{rank} of Swords", rank=rank),
    "Ba": lambda rank: _("{rank} of Batons", rank=rank),
}


def italian_long(card: str) -> str:
    return _ITALIAN_OF[card[-1]](_ITALIAN_RANK_NAME[card[:-1]]())


def minchiate_label(card: str) -> str:
    if card == "MATTO":
        return "🤡 " + _p("card", "Matto")
    if card[0] == "T":
        return card
    return card[2:] + MINCHIATE_SUIT[card[:2]]


def minchiate_long(card: str) -> str:
    if card == "MATTO":
        return _("Il Matto (the Fool)")
    if card[0] == "T":
        number = int(card[1:])
        return _("Trump {number} ({name})", number=number, name=minchiate_trump_name(number))
    rank = card[2:]
    name = _MINCHIATE_RANK_NAME[rank]() if rank in _MINCHIATE_RANK_NAME else rank
    return _MINCHIATE_OF[card[:2]](name)


def french_long(card: str) -> str:
    if card == "JK":
        return _p("card", "Joker")
    rank = card[:-1]
    name = _FRENCH_RANK_NAME[rank]() if rank in _FRENCH_RANK_NAME else ("10" if rank == "T" else rank)
    return _FRENCH_OF[card[-1]](name)


def joined(label: Callable[[str], str], cards: Iterable[str]) -> str:
    """Cards in one deck's short form joined with spaces, or an em dash when there are none."""
    return " ".join(label(c) for c in cards) or "—"

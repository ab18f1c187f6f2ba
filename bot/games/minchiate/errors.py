"""Minchiate's own illegal-action codes, worded for the reader (``bot.render.errors`` reads them)."""

from __future__ import annotations

from bot.i18n import N_, _n
from bot.render.cards import minchiate_label, minchiate_suit_name
from bot.render.error_texts import ErrorTexts

ERRORS = ErrorTexts(
    messages={
        "must_follow": N_("You must follow suit ({suit})."),
        "must_follow_trump": N_("You must follow with a trump."),
        "must_trump": N_("You have no {suit}: you must play a trump."),
        "king_forced": N_("This suit is led for the first time and a trump is in the trick: you must play {card}."),
        "discard_first": N_("Choose your discards first."),
        "discard_pick": N_("Pick the cards to discard."),
        # raised when more cards are picked than are still to go
        "discard_count": lambda p: _n(
            "You have only {n} more card to discard.", "You have only {n} more cards to discard.", **p
        ),
        "discard_scoring": N_("{card} cannot be discarded: only cards worth no points (never trump 29)."),
        "declare_choose": N_("Choose which combinations to declare."),
        "declare_unknown": N_("That is not one of your combinations."),
        "cut_first": N_("Cut the pack first."),
        "cut_range": lambda p: _n("Cut between {lo} and {hi} card.", "Cut between {lo} and {hi} cards.", p["hi"], **p),
    },
    params={"card": minchiate_label, "suit": minchiate_suit_name},
)

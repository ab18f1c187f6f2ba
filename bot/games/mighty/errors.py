"""Mighty's own illegal-action codes, worded for the reader (``bot.render.errors`` reads them)."""

from __future__ import annotations

from bot.i18n import N_, _n, _p
from bot.render.cards import french_suit_name, mighty_label
from bot.render.error_texts import ErrorTexts

ERRORS = ErrorTexts(
    messages={
        "no_misdeal": N_("You cannot claim a misdeal now."),
        "bid_range": N_("A bid is a number from {lo} to {hi}."),
        # Mighty's own word for a bid in some languages (Korean 공약, not Mediatore's 비드)
        "bid_not_higher": lambda p: _p("mighty", "Your bid must be higher than the current one.", **p),
        "choose_trump": N_("Choose a trump suit or no trump."),
        "discard_count": lambda p: _n(
            "Choose exactly {n} different card to discard.", "Choose exactly {n} different cards to discard.", **p
        ),
        "change_not_allowed": N_("That contract change is not allowed."),
        "friend_call_not_allowed": N_("That friend call is not allowed."),
        "joker_first_trick": N_("The Joker cannot be played in the first trick."),
        "joker_called": N_("The Joker is called: you must play it."),
        "no_trump_lead": N_("You may not lead a trump ({suit}) in the first trick."),
        "must_follow": N_("You must follow suit ({suit})."),
        "joker_suit": N_("Leading the Joker, you must name a suit."),
        "suit_only_joker_lead": N_("Only a led Joker names a suit."),
        "joker_call_ripper": N_("A joker call is made only when leading the Ripper."),
        "joker_call_not_now": N_("A joker call is not possible now."),
    },
    params={"card": mighty_label, "suit": french_suit_name},
)

"""Wizard's own illegal-action and option codes, worded for the reader (``bot.render.errors`` reads them)."""

from __future__ import annotations

from bot.i18n import N_
from bot.render.cards import french_suit_name
from bot.render.error_texts import ErrorTexts

ERRORS = ErrorTexts(
    messages={
        "no_undo": N_("You cannot take back a bid now."),
        "not_play_time": N_("It is not time to play cards."),
        "must_follow": N_("You must follow suit ({suit}) or play a Wizard or a Jester."),
        "not_bid_time": N_("It is not time to bid."),
        "not_your_bid_turn": N_("It is not your turn to bid."),
        "already_bid": N_("You have already bid."),
        "bid_range": N_("Bid a number of tricks from {lo} to {hi}."),
        "bid_hook": N_("The bids may not add up to {tricks}: you cannot bid {n}."),
        "not_trump_time": N_("It is not time to choose trump."),
        "choose_suit": N_("Choose one of the four suits."),
        # options
        "rounds_format": N_("`{option}` must be `all` or a list of hand sizes such as 1,2,3 or 1-5."),
        "rounds_empty": N_("`{option}` must list at least one hand size."),
        "rounds_size": N_("`{option}`: every hand size must be a whole number from 1 to {hi}."),
        "rounds_order": N_("`{option}` must be strictly increasing."),
        "first_dealer_range": N_("`{option}` must be a seat from 0 to {hi}."),
        "hook_needs_open": N_("`{option}` needs `{mode}` {value} (bids made one after another)."),
    },
    params={"suit": french_suit_name},
)

"""Mediatore's own illegal-action codes, worded for the reader (``bot.render.errors`` reads them)."""

from __future__ import annotations

from bot.i18n import N_, _n
from bot.render.cards import italian_label, italian_suit_name
from bot.render.error_texts import ErrorTexts

from .render import signal_title

ERRORS = ErrorTexts(
    messages={
        "bid_or_pass": N_("Bid a contract or pass."),
        "unknown_contract": N_("There is no such contract."),
        "call_a_card": N_("Name the card to call."),
        "call_own_card": N_("{card} is in your hand: call a card you do not hold."),
        "monte_choose": N_("Choose the cards for the new monte."),
        "monte_count": lambda p: _n(
            "Choose exactly {n} different card for the monte.", "Choose exactly {n} different cards for the monte.", **p
        ),
        "give_back_choose": N_("Choose 1 card from your hand to give back."),
        "give_back_in_monte": N_("{card} cannot be both given back and put in the monte."),
        "nobody_to_give": N_("There is nobody to give a card back to."),
        "must_follow": N_("You must follow suit ({suit})."),
        "signal_leader_only": N_("Only the leader of a trick may signal."),
        "signal_unavailable": N_("Signals are not available to you."),
        "unknown_signal": N_("There is no such signal."),
        "signal_untrue": N_("You cannot truthfully signal {signal} with {card}."),
    },
    params={"card": italian_label, "suit": italian_suit_name, "signal": signal_title},
)

"""Every word the Activity shows that is not a table's own: the page's words (sent in ``welcome.texts``) and the
refusals (``refused`` / ``error`` frames and the HTTP errors), all from the catalogue in the reader's language."""

from __future__ import annotations

from bot.errors import Refusal
from bot.i18n import N_, _, _p
from bot.i18n import names as ui
from bot.render.errors import error_text
from bot.tables.service import StaleAction

__all__ = ["CLIENT_TEXTS", "NOT_SEATED", "client_texts", "refusal_code", "refusal_text", "service_text"]

NOT_SEATED = N_("You are not playing at this table.")

#: the page's own words: key -> msgid (a ``{seconds}`` in a text is filled in by the page)
CLIENT_TEXTS: dict[str, str] = {
    "connecting": N_("Connecting…"),
    "reconnecting": N_("Reconnecting…"),
    "disconnected": N_("The connection was lost. Reopen the Activity to play on."),
    "your_turn": N_("Your turn"),
    "waiting": N_("Waiting for the other players…"),
    "no_table": N_("No table here yet: open one in this channel with a game's /… new command."),
    "spectating": N_("You are watching this table."),
    "which_way": N_("Play it how?"),
    "confirm": N_("Confirm"),
    "hint": ui.HINT,
    "seconds_left": N_("{seconds} s left"),
    # the trick just played (never the hand's final one): one term with the Discord messages' "Previous trick"
    "last_trick": N_("Previous trick"),
    "finished": N_("This table is over."),
    "score_sheet": N_("Score sheet"),
    "menu": N_("Table menu"),
    "close": N_("Close"),
    "turn_of": N_("{name} to move"),
    "played": N_("{name} played {card}."),
    "won_trick": N_("{name} won a trick."),
    "tap_again": N_("Tap again to play"),
    "your_hand": N_("Your hand"),
    "chosen": N_("{n} of {count} chosen"),
    # the confirmations the Discord message asks for (cogs/tables.py), in the same words
    "yes": N_("Yes"),
    "yes_leave": N_("Yes, leave"),
    "confirm_cancel": N_("Really cancel this table?"),
    "confirm_end": N_("Really end this table now (an unfinished hand is not scored)?"),
}
_CONFIRM_LEAVE = N_("Leave the game? The computer will play your seat (you can come back with **{back}**).")

#: refusal and error codes -> msgid
_TEXTS: dict[str, str] = {
    "bad_session": N_("This session is not valid. Reopen the Activity."),
    "expired": N_("This session has expired; reconnecting…"),
    "replayed": N_("This session was already used; reconnecting…"),
    "wrong_origin": N_("This page may not connect to Tavolo."),
    "hello_timeout": N_("The page did not introduce itself in time."),
    "bad_hello": N_("The page must introduce itself first."),
    "bad_frame": N_("The page sent something Tavolo cannot read; nothing was changed."),
    "too_large": N_("That message is too large; nothing was changed."),
    "rate_limited": N_("Not so fast: wait a moment and try again."),
    "no_table": N_("There is no such table in this channel."),
    "not_participant": N_("You are not in this Activity."),
    "no_channel": N_("Tavolo plays in server channels: start the Activity in a channel of a server."),
    "bad_code": N_("Discord did not confirm who you are. Reopen the Activity."),
    "bad_token": N_("Discord did not confirm who you are. Reopen the Activity."),
    "no_instance": N_("Discord does not know this Activity. Reopen it."),
    "discord_unavailable": N_("Discord cannot be reached right now; try again in a moment."),
    "elsewhere": N_("This table cannot be played in the Activity right now: play it from the Discord messages."),
    "bad_request": N_("The page sent something Tavolo cannot read; nothing was changed."),
    "not_seated": NOT_SEATED,
    "stale": N_("That choice is out of date: use the latest message."),
    "shutting_down": N_("Tavolo is restarting; reconnecting…"),
    "failed": N_("Something went wrong; nothing was changed."),
}

# the service's refusals whose meaning a page may want to act on, by their msgid
_SERVICE_CODES = {
    "It is not your turn.": "not_your_turn",
    "You are not playing at this table.": "not_seated",
    "You are not seated at this table.": "not_seated",
    "You have no seat to take back here.": "not_seated",
}


def client_texts() -> dict[str, str]:
    """The page's words in the current locale."""
    words = {key: _(msgid) for key, msgid in CLIENT_TEXTS.items()}
    # the seat plates' marks (a plate's own values and labels come with each view)
    words["dealer"] = _p("seat plate", "Dealer")
    words["computer"] = _p("seat plate", "Computer")
    words["away"] = _p("seat plate", "Away")
    words["passed"] = _p("seat plate", "Passed")
    words["confirm_leave"] = _(_CONFIRM_LEAVE, back=ui.label(ui.BACK))
    return words


def vote_text(votes: int, humans: int) -> str:
    """The answer to a vote to stop, as the Discord button's."""
    return _("Your vote is counted ({votes}/{humans}).", votes=votes, humans=humans)


def refusal_text(code: str) -> str:
    return _(_TEXTS.get(code, "That is not possible now."))


def refusal_code(err: Refusal) -> str:
    """A service refusal's code for the page: ``stale``, ``not_your_turn``, ``not_seated``, ``illegal`` (the
    game's own refusal) or ``refused``."""
    if isinstance(err, StaleAction):
        return "stale"
    msgid = getattr(err, "msgid", "")
    if msgid in _SERVICE_CODES:
        return _SERVICE_CODES[msgid]
    if msgid == "{reason}":
        return "illegal"
    return "refused"


def service_text(err: Exception, game_id: str | None) -> str:
    """A service refusal in the current locale (the game's words for an engine's code)."""
    return error_text(err, game_id)

"""What a sentence calls a button, a slash command or a choice, in the reader's language.

A text that tells players "click **Join**" or "use `/table replay`" must name the button or command the way the
reader sees it: the button's own label, the command name Discord shows that reader (the sync localises names
from the catalogue, ``command-name`` / ``option-name`` contexts) and the choice names of an option. The labels
are defined here once and the buttons take them from here too, so renaming a button renames it in every sentence.

Pure (no discord): the services' refusals and the games' renderers use it as well as the cogs.
"""

from __future__ import annotations

import re

from . import N_, SOURCE, _, _p, current

__all__ = [
    "ADD_COMPUTER",
    "BACK",
    "HINT",
    "JOIN",
    "LEAVE",
    "MY_HAND",
    "OPEN_ACTIVITY",
    "START",
    "VOTE",
    "choice",
    "command",
    "label",
    "valid_name",
]

# -- buttons: the label msgids (the buttons themselves are built from these) -----------------------------------
JOIN = N_("Join")
LEAVE = N_("Leave")
START = N_("Start")
ADD_COMPUTER = N_("Add computer")
MY_HAND = N_("My hand")
BACK = N_("I'm back")
VOTE = N_("Vote to stop")
HINT = N_("Hint")
#: the table message's button that opens the Activity (when the bot has one configured)
OPEN_ACTIVITY = N_("Open in Activity")


def label(msgid: str) -> str:
    """A button's label in the current locale (``msgid`` is one of this module's constants)."""
    return _(msgid)


# -- slash commands ---------------------------------------------------------------------------------------------
# Discord's rule for command and option names (\w covers letters and digits of every script, Hangul included)
_NAME = re.compile(r"[-_\w]{1,32}")


def valid_name(text: str) -> bool:
    """Whether Discord accepts ``text`` as a command or option name."""
    return _NAME.fullmatch(text) is not None and text == text.lower()


def _localized(name: str, context: str) -> str:
    """``name`` as Discord shows it to a reader of the current locale: the sync's translation when it is a valid
    name (an invalid one is not synced, so Discord shows the English), else the English name."""
    if current() == SOURCE:
        return name
    text = _p(context, name)
    return text if text != name and valid_name(text) else name


def command(qualified: str, **options: str) -> str:
    """``/table replay`` as the reader's Discord shows it (``/partita riproduci``), with ``options`` written
    ``name:value`` after it (``file=""`` gives ``file:``; values are shown as given, e.g. a :func:`choice`)."""
    text = "/" + " ".join(_localized(part, "command-name") for part in qualified.split())
    for opt, value in options.items():
        text += f" {_localized(opt, 'option-name')}:{value}"
    return text


def choice(name: str) -> str:
    """An option's choice as the reader's Discord lists it (the choice's name, translated at sync)."""
    return _p("choice-name", name) if current() != SOURCE else name

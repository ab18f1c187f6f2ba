"""Discord-free descriptions of what one message shows: text sections and the controls a seat may use.

Limits mirror Discord's: at most 25 options per select menu, 5 buttons per row, 5 rows per message,
embed field values of at most 1024 characters. ``split_choices`` keeps long choice lists inside them; :func:`fit`
clips every text of a finished panel to Discord's lengths — after translation, since a text is only as long as the
reader's language makes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine.protocol import Action

MAX_SELECT_OPTIONS = 25
MAX_BUTTONS_PER_ROW = 5
MAX_ROWS = 5
#: Discord's text lengths (embed title, description, field name and value, footer; component texts)
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
BUTTON_LABEL_MAX = 80
OPTION_LABEL_MAX = 100
OPTION_DESCRIPTION_MAX = 100
PLACEHOLDER_MAX = 150

Style = Literal["primary", "secondary", "success", "danger"]


@dataclass(slots=True)
class Choice:
    """One clickable choice: a button, or an option of a select menu. ``action`` is what it does."""

    label: str
    action: Action
    style: Style = "secondary"
    description: str | None = None


@dataclass(slots=True)
class ComboField:
    """One multi-pick part of a combination action, e.g. "the 4 cards to discard".

    The cog shows a select with ``min_values == max_values == count``; the picked values (card ids)
    are put in the action under ``key`` (a list when ``count > 1``, a single id when ``count == 1``).
    """

    key: str
    placeholder: str
    options: list[tuple[str, str]]  # (label, value)
    count: int


@dataclass(slots=True)
class Control:
    """A group of choices shown together.

    * ``buttons``: one button per choice (at most 25 in total, 5 per row);
    * ``select``: one select menu (at most 25 options) where picking an option applies its action;
    * ``combo``: one select per :class:`ComboField` and a Confirm button that sends
      ``{**base_action, field.key: picked, ...}``.
    """

    kind: Literal["buttons", "select", "combo"]
    placeholder: str = ""
    choices: list[Choice] = field(default_factory=list)
    base_action: Action | None = None
    fields: list[ComboField] = field(default_factory=list)
    #: the placeholder of the whole list when :func:`split_choices` cut it into menus (each says its range); a
    #: front-end without Discord's limits shows the list as one control under this
    title: str = ""


@dataclass(frozen=True, slots=True)
class SeatPlate:
    """What a front-end's seat plate shows of one seat, from the public view only: values without words (the
    front-end labels them), except ``role``, which is already in the reader's language."""

    #: the seat's bid or contract as text (``?``: made but secret), ``None``: none to show
    bid: str | None = None
    #: the game's own word for that bid, in the reader's language (a Wizard bid is a prediction, a Mighty bid a
    #: promise: 예측 and 공약 in Korean); ``None``: the front-end's generic "Bid"
    bid_label: str | None = None
    tricks: int | None = None
    #: card points taken in this hand (games that count points, not tricks)
    points: int | None = None
    #: the running total of the game
    score: int | None = None
    dealer: bool = False
    #: the seat's public side, e.g. "Declarer", "Friend" once revealed, "Team A"
    role: str | None = None
    #: the seat passed in the auction
    passed: bool = False


@dataclass(slots=True)
class Section:
    name: str
    value: str
    inline: bool = False


@dataclass(slots=True)
class Panel:
    """Everything one message shows."""

    title: str
    description: str = ""
    sections: list[Section] = field(default_factory=list)
    controls: list[Control] = field(default_factory=list)
    footer: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """All visible text (for tests that check what a message reveals)."""
        parts = [self.title, self.description, self.footer]
        for s in self.sections:
            parts += [s.name, s.value]
        for c in self.controls:
            parts.append(c.placeholder)
            parts += [ch.label + " " + (ch.description or "") for ch in c.choices]
            for f in c.fields:
                parts.append(f.placeholder)
                parts += [lbl for lbl, _ in f.options]
        return "\n".join(p for p in parts if p)


def split_choices(
    choices: Sequence[Choice],
    placeholder: str,
    prefer_buttons: bool = True,
    span: Callable[[Sequence[Choice]], str] | None = None,
) -> list[Control]:
    """Lay out single-pick choices within Discord's limits.

    Up to 20 choices become buttons (4 rows of 5, leaving a row for other controls) when
    ``prefer_buttons``; otherwise one or more select menus of at most 25 options each. Split menus are labelled
    by what they hold, never by option positions (a menu of bids 15–19 must not say 1-25): ``span`` words a
    chunk (e.g. ``15–19`` from the bids' numbers); by default, its first and last labels.
    """
    choices = list(choices)
    if not choices:
        return []
    if prefer_buttons and len(choices) <= 20:
        return [Control("buttons", placeholder, choices, title=placeholder)]
    out: list[Control] = []
    for i in range(0, len(choices), MAX_SELECT_OPTIONS):
        chunk = choices[i : i + MAX_SELECT_OPTIONS]
        if len(choices) <= MAX_SELECT_OPTIONS:
            ph = placeholder
        else:
            words = span(chunk) if span is not None else _label_span(chunk)
            ph = f"{placeholder} ({words})"
        out.append(Control("select", ph, chunk, title=placeholder))
    return out


def _label_span(chunk: Sequence[Choice]) -> str:
    first, last = chunk[0].label, chunk[-1].label
    return first if first == last else f"{first} – {last}"


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit(panel: Panel) -> Panel:
    """Clip every text of ``panel`` to Discord's limits, in place (and return it).

    A choice's label is clipped to a button's 80 characters whether it becomes a button or a select option, so
    the cog may lay it out either way.
    """
    panel.title = clip(panel.title, TITLE_MAX)
    panel.description = clip(panel.description, DESCRIPTION_MAX)
    panel.footer = clip(panel.footer, FOOTER_MAX)
    for s in panel.sections:
        s.name = clip(s.name, FIELD_NAME_MAX)
        s.value = clip(s.value, FIELD_VALUE_MAX)
    for c in panel.controls:
        c.placeholder = clip(c.placeholder, PLACEHOLDER_MAX)
        for ch in c.choices:
            ch.label = clip(ch.label, BUTTON_LABEL_MAX)
            if ch.description is not None:
                ch.description = clip(ch.description, OPTION_DESCRIPTION_MAX)
        for f in c.fields:
            f.placeholder = clip(f.placeholder, PLACEHOLDER_MAX)
            f.options = [(clip(label, OPTION_LABEL_MAX), value) for label, value in f.options]
    return panel

"""A finished hand as pages to leaf through (``/table replay``): the deal and auction, then one page per trick.

Built from a record's replay and nothing else: every page shows the table's public panel after its last action
(the game's own renderer, from the public view), the public narration of its actions, and — for one viewer —
that viewer's own hand at that moment (their private panel, controls removed). With ``open_records`` every
seat's cards at the deal are shown too. Hidden cards the rules never show (e.g. unplayed discards) appear only
where they were public, so a replay reveals nothing the hand did not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.protocol import View
from bot.i18n import N_, _

from . import _games
from .model import Record, RecordError
from .replay import Replayed, Step, kept, replay
from .show import Narrator, plain


@dataclass(slots=True)
class ReplayPage:
    """One page: its title, the narration of its actions, the public panel after them, the viewer's hand."""

    title: str
    lines: list[str]
    public: _games.Panel
    own: _games.Panel | None = None
    #: with open records: every seat's cards at the deal (name, cards as shown)
    hands: list[tuple[str, str]] = field(default_factory=list)


def finished_hands(done: Replayed) -> list[int]:
    """The hands of a replay that are over: a later hand began, or the game ended."""
    hands = done.hands
    if not hands:
        return []
    return hands if done.game.is_over else hands[:-1]


def replay_pages(
    record: Record, hand: int, *, viewer: int | None = None, open_records: bool = False
) -> list[ReplayPage]:
    """The pages of ``hand`` (0-based), which must be finished — or ``record`` is already cut at that hand
    (``record.hand``), the caller having checked on the whole log. ``viewer``: the seat whose own cards are shown."""
    # only this hand's states: a page never shows another hand, and building every seat's view at every step of
    # a long game was most of the work
    done = replay(record, views=True, check=False, states=hand)
    if hand not in done.hands or (record.hand != hand and hand not in finished_hands(done)):
        raise RecordError(0, N_("hand {n} is not finished"), n=hand + 1)
    steps = done.steps_of(hand)
    game_id, names = record.game, [_games.display_name(n) for n in record.players]
    before: View = _before(done, steps[0])
    narrator = Narrator(game_id, names)
    narrator.hand_start(hand, before)
    pages: list[ReplayPage] = []
    lines: list[str] = []
    title = _("Hand {n} — the deal", n=hand + 1)
    last: Step | None = None
    for step in steps:
        tricks = narrator.trick_no
        after = kept(step.public)
        lines.extend(narrator.step(step.seat, step.action, before, after, step.settlements))
        before, last = after, step
        if narrator.trick_no != tricks:  # a trick is complete: it closes a page
            pages.append(_page(record, title, lines, step, viewer))
            title, lines = _("Hand {n} — trick {trick}", n=hand + 1, trick=narrator.trick_no + 1), []
    if lines and last is not None:
        if pages:
            pages[-1].lines.extend(lines)  # what follows the last trick (the settlement) ends the hand
        else:
            pages.append(_page(record, title, lines, last, viewer))
    _retitle(pages, hand)
    if open_records and pages:
        first = _before_views(done, steps[0])
        if first is not None:
            pages[0].hands = [(names[s], _cards_text(game_id, v)) for s, v in enumerate(first)]
    return pages


def _page(record: Record, title: str, lines: list[str], step: Step, viewer: int | None) -> ReplayPage:
    game_id, names = record.game, [_games.display_name(n) for n in record.players]
    public = _games.public_panel(game_id, kept(step.public), names)
    public.controls = []
    own = None
    if viewer is not None and step.views is not None and 0 <= viewer < len(step.views):
        own = _games.private_panel(game_id, step.views[viewer], names)
        own.controls = []
    return ReplayPage(title, [plain(x) for x in lines if x.strip()], public, own)


def _retitle(pages: list[ReplayPage], hand: int) -> None:
    # the first page holds the deal, the auction and the first trick; the others one trick each
    for i, page in enumerate(pages):
        if i == 0:
            page.title = _("Hand {n} — the deal and trick 1", n=hand + 1)
        else:
            page.title = _("Hand {n} — trick {trick}", n=hand + 1, trick=i + 1)


def _before(done: Replayed, first: Step) -> View:
    i = first.index
    return kept(done.initial if i == 0 else done.steps[i - 1].public)


def _before_views(done: Replayed, first: Step) -> tuple[View, ...] | None:
    i = first.index
    return done.initial_views if i == 0 else done.steps[i - 1].views


def _cards_text(game_id: str, view: View) -> str:
    return " ".join(_games.card_label(game_id, c) for c in view.get("hand") or []) or "—"

"""Mighty — the Korean 5-player point-trick game with a hidden friend (engine).

Authoritative rules: ``docs/rules/mighty.md`` (cited below as §x.y; decisions as DECISION #n of
its §11 table). One game is an open-ended series of hands (table option ``hands`` caps it); every played
hand books one zero-sum ``stake`` settlement, thrown-in hands (all-pass twice, weak-hand claim) book none.

Phases of a hand: ``auction`` -> ``discard`` -> ``change`` (trump change / raise, or keep) -> ``call``
(friend) -> ``play`` (10 tricks) -> scoring, then the next hand is dealt inside the same ``apply``.

Action shapes::

    {"type": "bid", "n": 15, "trump": "H"}          # trump in S D H C NT
    {"type": "pass"}
    {"type": "misdeal"}                             # weak-hand claim (§4.8)
    {"type": "discard", "cards": ["2C", "4D", "9H"]}
    {"type": "contract", "n": 17, "trump": "S"}     # final contract; the current one = keep it
    {"type": "call", "kind": "card", "card": "AS"} | {"type": "call", "kind": "first_trick"}
                                                    | {"type": "call", "kind": "none"}
    {"type": "play", "card": "QS"}
    {"type": "play", "card": "JK", "suit": "H"}     # leading the Joker names a suit (§6.5.3)
    {"type": "play", "card": "3C", "joker_call": True}   # Ripper lead with a joker call (§6.6)

Prompts: the discard phase is a combo (``{"kind": "combo", "type": "discard", "fields": [{"key": "cards",
"from": <13 cards>, "count": 3}], "fixed": {}}``); every other phase is a pick list (≤ 55 actions).
Public events carry ``"hand"`` and ``"redeal"`` so a renderer can tell the current deal's events apart.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Self

from bot.engine.cards import FRENCH_52_JOKER, JOKER
from bot.engine.errors import IllegalAction
from bot.engine.protocol import HINTS, Action, Game, GameResult, Move, OptionSpec, Settlement, View, copy_with_lists
from bot.engine.rng import make_rng, shuffled
from bot.engine.sampling import deal_constrained
from bot.engine.seats import Direction

NUM = 5
SUITS = ("S", "D", "H", "C")
TRUMPS = ("S", "D", "H", "C", "NT")
MIN_BID = 13
MAX_BID = 20
TRICKS = 10
LAST_TRICK = TRICKS - 1
EVENTS_SHOWN = 12

RANK: dict[str, int] = {c: "23456789TJQKA".index(c[0]) + 2 for c in FRENCH_52_JOKER if c != JOKER}
RANK[JOKER] = 0
SUIT: dict[str, str] = {c: c[-1] for c in FRENCH_52_JOKER if c != JOKER}
SUIT[JOKER] = ""
POINT_CARDS = frozenset(c for c in FRENCH_52_JOKER if c[0] in "AKQJT" and c != JOKER)
# SILENT: display order of a hand — suits alternate in colour (♠ ♥ ♣ ♦), high to low, Joker last.
_SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3, "": 4}
_SORT_KEY = {c: (_SUIT_ORDER[SUIT[c]], -RANK[c]) for c in FRENCH_52_JOKER}


#: the cards of the same suit ranking above each card (the Joker has none)
HIGHER: dict[str, frozenset[str]] = {
    c: frozenset(x for x in FRENCH_52_JOKER if x != JOKER and SUIT[x] == SUIT[c] and RANK[x] > RANK[c])
    for c in FRENCH_52_JOKER
}
#: a compact joker-call lead of the simulation interface: ``(ripper, CALL)``
CALL = "call"


class PlayFacts(NamedTuple):
    """What ``view(seat)`` tells a seat about the trick play, without building the view (computer players read
    it for every simulated card). Each field holds the value of the view keys named in its comment."""

    seat: int
    trump: str  # contract.trump
    plays: list[tuple[int, str]]  # trick.plays
    trick_index: int  # trick_number - 1
    led_suit: str  # trick.led_suit ("" when leading)
    joker_call: bool  # trick.joker_call
    declarer: int
    role: str
    friend: int | None  # friend once friend_revealed, else None
    friend_revealed: bool
    friend_card: str | None  # friend_call.card
    hand: list[str]  # hand (unsorted: the same cards)
    #: the point cards of every trick so far (captured, plus the current trick's); None without show_captured
    points_seen: frozenset[str] | set[str] | None
    discards: list[str] | None  # discards (the declarer's own)
    last_plays: list[list[Any]] | None  # last_trick.plays
    joker_played: bool


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in display order (by suit ♠ ♥ ♣ ♦, high to low, Joker last)."""
    return sorted(cards, key=_SORT_KEY.__getitem__)


def mighty_of(trump: str) -> str:
    """§2.3: ♦A when spades are trump, else ♠A (DECISION #11)."""
    return "AD" if trump == "S" else "AS"


_MIGHTY = {t: mighty_of(t) for t in TRUMPS}


def ripper_of(trump: str) -> str:
    """§2.3: ♠3 when clubs are trump, else ♣3."""
    return "3S" if trump == "C" else "3C"


def bid_value(n: int, trump: str) -> int:
    """§4.3: higher number wins; at the same number NT beats a suit; suits are unranked."""
    return 2 * n + (1 if trump == "NT" else 0)


def weak_hand_halves(hand: Sequence[str]) -> int:
    """§4.8 hand value in half points: Joker −1, ♠A 0, other A/K/Q/J +1, tens +½."""
    v = 0
    for c in hand:
        if c == JOKER:
            v -= 2
        elif c == "AS":
            continue
        elif c[0] in "AKQJ":
            v += 2
        elif c[0] == "T":
            v += 1
    return v


def card_points(cards: Sequence[str]) -> int:
    return len(POINT_CARDS.intersection(cards))  # (the cards of a deck are distinct)


def trick_winner(
    plays: Sequence[tuple[int, str]] | Sequence[Sequence[Any]],
    led_suit: str,
    trump: str,
    trick_index: int,
    joker_called: bool,
) -> int:
    """The seat winning a (possibly partial) trick, by the §6.7 algorithm.

    Mighty > Joker with power (not trick 10, not ripped) > highest trump > highest card of the led
    suit; a powerless *led* Joker counts as the lowest card of its named suit (§6.5.4).
    """
    # one pass (searches score every trick of every playout): the Mighty wins at once, a Joker with power once
    # every card is seen (the Mighty may come after it), else the best key
    mighty = _MIGHTY[trump]
    joker_seat = -1
    best_seat = -1
    best_key = -1
    first = True
    for s, c in plays:
        if c == mighty:
            return int(s)
        if c == JOKER:
            joker_seat = s
            key = 1 if first else -1
        else:
            suit = SUIT[c]
            key = 100 + RANK[c] if suit == trump else RANK[c] if suit == led_suit else -1
        if key > best_key:
            best_key = key
            best_seat = s
        first = False
    if joker_seat >= 0 and trick_index != LAST_TRICK and not joker_called:
        return int(joker_seat)
    return int(best_seat)


def base_score(n: int, trump: str, points: int, announced_alone: bool) -> tuple[int, list[str], int, bool]:
    """§7.2–§7.3: ``(S0, doublings, S, made)`` for final contract ``n``/``trump`` and ``points`` = P."""
    made = points >= n
    s0 = 2 * (n - MIN_BID) + (points - n) if made else n - points
    mults: list[str] = []
    if trump == "NT":
        mults.append("nt")
    if announced_alone:
        mults.append("no_friend")
    if made and points == 20:
        mults.append("run")
    if not made and points <= 9:
        mults.append("back_run")
    return s0, mults, s0 * (2 ** len(mults)), made


def payments(declarer: int, friend: int | None, score: int, made: bool) -> list[int]:
    """§7.4: ±2S/±S/∓S with a friend, ±4S/∓S alone (zero-sum)."""
    sign = 1 if made else -1
    out = [-sign * score] * NUM
    if friend is None:
        out[declarer] = 4 * sign * score
    else:
        out[declarer] = 2 * sign * score
        out[friend] = sign * score
    return out


def _event_copy(ev: dict[str, Any]) -> dict[str, Any]:
    """A copy of an event as ``_event`` stores it: scalars and flat lists under ``cards`` (``None`` for a face-down
    kitty) and ``payments``."""
    return copy_with_lists(ev, ("cards", "payments"))


def _trick_copy(t: dict[str, Any]) -> dict[str, Any]:
    """A copy of a trick record as ``_finish_trick`` stores it: scalars and its ``plays`` pairs."""
    out = dict(t)
    out["plays"] = [[s, c] for s, c in t["plays"]]
    return out


def _hand_copy(h: dict[str, Any]) -> dict[str, Any]:
    """A copy of a hand summary as ``_score_hand`` stores it (the view's ``last_hand``; the engine's one is also a
    settlement's): its flat lists, the captured cards per seat, the auction's entries and the tricks are fresh."""
    out = dict(h)
    for k in ("discards", "multipliers", "payments"):
        out[k] = list(h[k])
    out["captured"] = [list(c) for c in h["captured"]]
    out["auction"] = [dict(a) for a in h["auction"]]
    out["tricks"] = [_trick_copy(t) for t in h["tricks"]]
    return out


def _bool_opt(name: str, default: bool, help_: str) -> OptionSpec:
    return OptionSpec(name, default, choices=(True, False), help=help_)


class MightyGame(Game):
    game_id: ClassVar[str] = "mighty"
    title: ClassVar[str] = "Mighty"
    min_seats: ClassVar[int] = NUM
    max_seats: ClassVar[int] = NUM
    direction: ClassVar[Direction] = Direction.CLOCKWISE
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        _bool_opt("weak_hand_misdeal", True, "A player with a very weak hand may claim a misdeal (default on)"),
        _bool_opt("kitty_face_up", True, "Show the kitty to everybody before the declarer takes it (default on)"),
        _bool_opt("first_trick_friend", True, "The declarer may call 'whoever wins trick 1' as friend (default on)"),
        _bool_opt("no_friend", True, "The declarer may announce playing alone for double (default on)"),
        _bool_opt(
            "mighty_saves_joker",
            False,
            "Joker call: a holder of Joker and Mighty may play the Mighty instead (default off)",
        ),
        _bool_opt("show_history", False, "Show every trick of the hand, not only the previous one (default off)"),
        _bool_opt("show_captured", True, "Show each player's captured point cards (default on)"),
        OptionSpec("stake", 1, lo=1, hi=1_000_000, help="Stake unit; every payment is multiplied by it (default 1)"),
        OptionSpec("hands", 0, lo=0, hi=10_000, help="Hands to play; 0 = until the host ends the session (default 0)"),
        HINTS,
    )

    # ------------------------------------------------------------------------------------------------
    def __init__(self, num_seats: int, options: Mapping[str, Any] | None, seed: int) -> None:
        self.options = self.normalize_options(options, num_seats)
        self._seed = seed
        self._opt_weak = bool(self.options["weak_hand_misdeal"])
        self._opt_saves = bool(self.options["mighty_saves_joker"])
        self._stake = int(self.options["stake"])
        self._hands_limit = int(self.options["hands"])
        self._hand_no = 0
        self._redeal_no = 0
        self._dealer = make_rng(seed, "first_dealer").randrange(NUM)  # §3.1 DECISION #10
        self._opener = self._dealer  # §4.1: the dealer opens the first hand
        self._totals = [0] * NUM
        self._settlements: list[Settlement] = []
        self._events: list[dict[str, Any]] = []
        self._last_hand: dict[str, Any] | None = None
        self._over = False
        self._search = False  # a search state (clone(for_search=True), determinize): no display events
        self._deal()

    # -- dealing ---------------------------------------------------------------------------------------
    def _deal(self) -> None:
        """§3.3: batches of 1, 2, 3, 4 cards, dealer's left first and dealer last; kitty = d[50..52]."""
        deck = shuffled(FRENCH_52_JOKER, make_rng(self._seed, "deal", self._hand_no, self._redeal_no))
        hands: list[list[str]] = [[] for _ in range(NUM)]
        pos = 0
        for batch in (1, 2, 3, 4):
            for i in range(1, NUM + 1):
                hands[(self._dealer + i) % NUM].extend(deck[pos : pos + batch])
                pos += batch
        self._hands = hands
        self._kitty = deck[50:53]
        self._phase = "auction"
        self._round = 1
        self._passed = [False] * NUM
        self._spoken = [False] * NUM  # acted in round 1 (weak-hand claims only at the first turn)
        self._high: tuple[int, str, int] | None = None
        self._turn = self._opener
        self._auction: list[dict[str, Any]] = []
        self._declarer = -1
        self._bid: tuple[int, str] | None = None
        self._contract: tuple[int, str] | None = None
        self._kitty_taken = False
        self._discards: list[str] = []
        self._call_kind: str | None = None
        self._call_card: str | None = None
        self._friend: int | None = None  # true friend seat (never a public fact before the reveal)
        self._friend_public = False
        self._trick_no = 0
        self._leader = -1
        self._plays: list[tuple[int, str]] = []
        self._led_suit = ""
        self._joker_suit: str | None = None
        self._joker_call = False
        self._last_trick: dict[str, Any] | None = None
        self._history: list[dict[str, Any]] = []
        self._won: list[list[str]] = [[] for _ in range(NUM)]  # all cards of the tricks won
        self._tricks_won = [0] * NUM
        self._played: set[str] = set()
        # what the table has learnt about hands (for determinize): voids and "has no Joker"
        self._void: list[set[str]] = [set() for _ in range(NUM)]
        self._no_joker = [False] * NUM
        self._decl_trump_lead = False
        self._event({"kind": "deal", "dealer": self._dealer, "opener": self._opener, "redeal": self._redeal_no})

    def _event(self, ev: dict[str, Any]) -> None:
        if self._search:
            return  # nothing renders a search state
        ev["hand"] = self._hand_no
        ev["redeal"] = self._redeal_no
        self._events.append(ev)
        if len(self._events) > 4 * EVENTS_SHOWN:
            del self._events[:-EVENTS_SHOWN]

    # -- protocol basics ------------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return NUM

    @property
    def hand_number(self) -> int:
        return self._hand_no

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def phase(self) -> str:
        return self._phase

    def _mover(self) -> int:
        """The one seat to act now (every phase has a single actor), -1 once over."""
        if self._over:
            return -1
        if self._phase == "play":
            return (self._leader + len(self._plays)) % NUM
        if self._phase == "auction":
            return self._turn
        return self._declarer

    def to_move(self) -> tuple[int, ...]:
        m = self._mover()
        return () if m < 0 else (m,)

    def num_settlements(self) -> int:
        return len(self._settlements)

    def hand_size(self, seat: int) -> int:
        return len(self._hands[seat])

    def settlements(self) -> list[Settlement]:
        return list(self._settlements)

    def result(self) -> GameResult | None:
        if not self._over:
            return None
        return GameResult.from_totals("stake", self._totals)

    # -- helpers -------------------------------------------------------------------------------------
    @property
    def _trump(self) -> str:
        if self._contract is not None:
            return self._contract[1]
        return self._high[1] if self._high is not None else "NT"

    def _can_claim_misdeal(self, seat: int) -> bool:
        # SILENT: "first turn" = the seat has not yet bid or passed in round 1 (earlier bids by others
        # do not matter); never in the second round (§4.8).
        return (
            self._opt_weak and self._round == 1 and not self._spoken[seat] and weak_hand_halves(self._hands[seat]) <= 1
        )

    def _change_allowed(self, n: int, trump: str) -> bool:
        """§5.2 / checklist 5: same trump any raise; suit→NT +1; suit→suit or NT→suit +2; ≤ 20."""
        assert self._bid is not None
        n0, t0 = self._bid
        if not MIN_BID <= n <= MAX_BID or trump not in TRUMPS:
            return False
        if trump == t0:
            return n >= n0
        if trump == "NT":
            return n >= n0 + 1
        return n >= n0 + 2

    def _joker_call_allowed(self, seat: int) -> bool:
        # §6.6.1/§6.6.3: a call may go with any Ripper lead from trick 2 on; it simply has no effect when the
        # Joker is already played, in the discards or in the caller's own hand. So a call tells the table nothing
        # about the caller's hand (a Joker holder may call too).
        return self._trick_no != 0

    def _playable(self, seat: int) -> list[str]:
        """Cards ``seat`` may play now (§6.2, §6.3, §6.6)."""
        hand = self._hands[seat]
        trump = self._contract[1]  # type: ignore[index]  # (the play phase has a contract)
        first = self._trick_no == 0
        if not self._plays:
            cards = [c for c in hand if c != JOKER] if first else list(hand)
            if first and trump != "NT":  # (§6.3.1 DECISION #2: no Joker at all in trick 1, handled above)
                # §6.3.2: the declarer may not lead a trump unless the hand (but the Joker) is all trumps.
                non_trump = [c for c in cards if SUIT[c] != trump]
                if non_trump:
                    cards = non_trump
            return cards
        if self._joker_call and JOKER in hand:
            # §6.6.2: the called Joker must be played (option: the Mighty may save it).
            mighty = _MIGHTY[trump]
            if self._opt_saves and mighty in hand:
                return [mighty, JOKER]
            return [JOKER]
        led = self._led_suit
        follow = [c for c in hand if SUIT[c] == led]
        if follow:
            # §6.2.3/§6.2.4: the Mighty and (from trick 2) the Joker are always free to play.
            mighty = _MIGHTY[trump]
            if mighty in hand and SUIT[mighty] != led:
                follow.append(mighty)
            if not first and JOKER in hand:
                follow.append(JOKER)
            return follow
        return [c for c in hand if c != JOKER] if first else list(hand)

    # -- legal actions -------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self._mover():
            return []
        ph = self._phase
        if ph == "auction":
            out: list[Action] = []
            floor = bid_value(*self._high[:2]) if self._high is not None else -1
            for n in range(MIN_BID, MAX_BID + 1):
                for t in TRUMPS:
                    if bid_value(n, t) > floor:
                        out.append({"type": "bid", "n": n, "trump": t})
            out.append({"type": "pass"})
            if self._can_claim_misdeal(seat):
                out.append({"type": "misdeal"})
            return out
        if ph == "discard":
            hand = sort_cards(self._hands[seat])
            return [{"type": "discard", "cards": list(c)} for c in itertools.combinations(hand, 3)]
        if ph == "change":
            # One decision (§5.2.1): re-sending the current contract keeps it; only legal changes listed.
            return [
                {"type": "contract", "n": n, "trump": t}
                for t in TRUMPS
                for n in range(MIN_BID, MAX_BID + 1)
                if self._change_allowed(n, t)
            ]
        if ph == "call":
            acts: list[Action] = [{"type": "call", "kind": "card", "card": c} for c in FRENCH_52_JOKER]
            if self.options["first_trick_friend"]:
                acts.append({"type": "call", "kind": "first_trick"})
            if self.options["no_friend"]:
                acts.append({"type": "call", "kind": "none"})
            return acts
        # play
        leading = not self._plays
        ripper = ripper_of(self._trump)
        acts = []
        for c in self._playable(seat):
            if leading and c == JOKER:
                acts.extend({"type": "play", "card": c, "suit": s} for s in SUITS)
                continue
            acts.append({"type": "play", "card": c})
            if leading and c == ripper and self._joker_call_allowed(seat):
                acts.append({"type": "play", "card": c, "joker_call": True})
        return acts

    # -- apply ---------------------------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        if self._over:
            raise IllegalAction("game_over")
        if not isinstance(action, dict):
            raise IllegalAction("unknown_action")
        if seat != self._mover():
            raise IllegalAction("not_your_turn")
        kind = action.get("type")
        ph = self._phase
        if ph == "auction" and kind in ("bid", "pass", "misdeal"):
            self._apply_auction(seat, kind, action)
        elif ph == "discard" and kind == "discard":
            self._apply_discard(seat, action)
        elif ph == "change" and kind == "contract":
            self._apply_contract(action)
        elif ph == "call" and kind == "call":
            self._apply_call(action)
        elif ph == "play" and kind == "play":
            self._apply_play(seat, action)
        else:
            raise IllegalAction("not_now")

    # auction (§4)
    def _apply_auction(self, seat: int, kind: str, action: Action) -> None:
        if kind == "misdeal":
            if not self._can_claim_misdeal(seat):
                raise IllegalAction("no_misdeal")
            hand = sort_cards(self._hands[seat])
            # §4.8: the claimant's hand is shown publicly as proof; same dealer deals again.
            self._event({"kind": "misdeal_claim", "seat": seat, "cards": hand, "value": weak_hand_halves(hand) / 2})
            self._redeal()
            return
        if kind == "bid":
            n, t = action.get("n"), action.get("trump")
            if isinstance(n, bool) or not isinstance(n, int) or not MIN_BID <= n <= MAX_BID:
                raise IllegalAction("bid_range", lo=MIN_BID, hi=MAX_BID)
            if t not in TRUMPS:
                raise IllegalAction("choose_trump")
            if self._high is not None and bid_value(n, t) <= bid_value(*self._high[:2]):
                raise IllegalAction("bid_not_higher")
            self._high = (n, t, seat)
            self._auction.append({"seat": seat, "n": n, "trump": t, "round": self._round})
            self._event({"kind": "bid", "seat": seat, "n": n, "trump": t})
        else:
            self._passed[seat] = True
            self._auction.append({"seat": seat, "pass": True, "round": self._round})
            self._event({"kind": "pass", "seat": seat})
        self._spoken[seat] = True
        high = self._high
        if high is not None and (high[0], high[1]) == (MAX_BID, "NT"):
            self._end_auction()  # §4.5: 20 NT ends the auction at once
            return
        passes = sum(self._passed)
        if high is not None and passes >= NUM - 1:
            self._end_auction()
            return
        if passes == NUM:
            if self._round == 1:
                # §4.7: second round, same opener, passes forgotten.
                self._round = 2
                self._passed = [False] * NUM
                self._turn = self._opener
                self._event({"kind": "all_pass", "round": 1})
            else:
                self._event({"kind": "all_pass", "round": 2})
                self._redeal()
            return
        nxt = (seat + 1) % NUM
        while self._passed[nxt]:
            nxt = (nxt + 1) % NUM
        self._turn = nxt

    def _redeal(self) -> None:
        """Thrown-in hand: same dealer, same opener, no payment (§4.1, §4.7, §4.8)."""
        self._redeal_no += 1
        self._deal()

    def _end_auction(self) -> None:
        assert self._high is not None
        n, t, seat = self._high
        self._declarer = seat
        self._bid = (n, t)
        self._event({"kind": "auction_won", "seat": seat, "n": n, "trump": t})
        # §5.1: the kitty is turned face up (option), then the declarer takes it.
        self._event(
            {
                "kind": "kitty",
                "seat": seat,
                "cards": sort_cards(self._kitty) if self.options["kitty_face_up"] else None,
            }
        )
        self._hands[seat] = self._hands[seat] + self._kitty
        self._kitty_taken = True
        self._phase = "discard"

    def _apply_discard(self, seat: int, action: Action) -> None:
        cards = action.get("cards")
        if not isinstance(cards, list) or len(cards) != 3 or len(set(cards)) != 3:
            raise IllegalAction("discard_count", n=3)
        hand = self._hands[seat]
        if any(c not in hand for c in cards):
            raise IllegalAction("discard_not_in_hand")
        self._hands[seat] = [c for c in hand if c not in cards]
        self._discards = sort_cards(cards)
        self._phase = "change"
        self._event({"kind": "discard", "seat": seat})

    def _apply_contract(self, action: Action) -> None:
        n, t = action.get("n"), action.get("trump")
        if not isinstance(n, int) or isinstance(n, bool) or not isinstance(t, str) or not self._change_allowed(n, t):
            raise IllegalAction("change_not_allowed")
        assert self._bid is not None
        self._contract = (n, t)
        self._phase = "call"
        self._event(
            {
                "kind": "contract",
                "seat": self._declarer,
                "n": n,
                "trump": t,
                "changed": (n, t) != self._bid,
                "mighty": mighty_of(t),
                "ripper": ripper_of(t),
            }
        )

    def _apply_call(self, action: Action) -> None:
        kind = action.get("kind")
        decl = self._declarer
        if kind == "card":
            card = action.get("card")
            if card not in RANK:
                raise IllegalAction("unknown_card")
            self._call_kind = "card"
            self._call_card = card
            holder = next((s for s in range(NUM) if card in self._hands[s]), decl)
            # §5.3.1: a card in the declarer's own hand or discards means a secret solo.
            self._friend = None if holder == decl else holder
            self._event({"kind": "friend_call", "seat": decl, "call": "card", "card": card})
        elif kind == "first_trick" and self.options["first_trick_friend"]:  # §5.3.2, DECISION
            self._call_kind = "first_trick"
            self._event({"kind": "friend_call", "seat": decl, "call": "first_trick"})
        elif kind == "none" and self.options["no_friend"]:
            self._call_kind = "none"
            self._friend_public = True
            self._event({"kind": "friend_call", "seat": decl, "call": "none"})
        else:
            raise IllegalAction("friend_call_not_allowed")
        self._phase = "play"
        self._leader = decl  # §6.1: the declarer leads trick 1
        self._plays = []

    # trick play (§6)
    def _apply_play(self, seat: int, action: Action) -> None:
        card = action.get("card")
        if not isinstance(card, str) or card not in self._hands[seat]:
            raise IllegalAction("not_in_hand")
        extra = set(action) - {"type", "card", "suit", "joker_call"}
        if extra:
            raise IllegalAction("unknown_action")
        if card not in self._playable(seat):
            raise self._why_not(seat, card)
        leading = not self._plays
        suit = action.get("suit")
        call = action.get("joker_call")
        if leading and card == JOKER:
            if suit not in SUITS:
                raise IllegalAction("joker_suit")
        elif suit is not None:
            raise IllegalAction("suit_only_joker_lead")
        if call is not None:
            if call is not True or not leading or card != ripper_of(self._trump):
                raise IllegalAction("joker_call_ripper")
            if not self._joker_call_allowed(seat):
                raise IllegalAction("joker_call_not_now")
        self._play(seat, card, suit, bool(call))

    def _play(self, seat: int, card: str, suit: str | None, call: bool) -> None:
        """Play a card known to be legal (both interfaces end here, so they cannot drift apart)."""
        plays = self._plays
        leading = not plays
        trump = self._contract[1]  # type: ignore[index]
        hand = self._hands[seat]
        # learn public facts before the card leaves the hand (used by determinize)
        if leading:
            self._leader = seat
            if card == JOKER:
                self._led_suit = suit  # type: ignore[assignment]
                self._joker_suit = suit  # type: ignore[assignment]
            else:
                self._led_suit = SUIT[card]
                self._joker_suit = None
            self._joker_call = call
            if self._trick_no == 0 and SUIT[card] == trump:
                self._decl_trump_lead = True
        elif card != JOKER:
            mighty = _MIGHTY[trump]
            if self._joker_call and not (self._opt_saves and card == mighty):
                self._no_joker[seat] = True
            if SUIT[card] != self._led_suit and card != mighty and not (self._joker_call and JOKER in hand):
                self._void[seat].add(self._led_suit)
        hand.remove(card)
        self._played.add(card)
        plays.append((seat, card))
        if not self._search:
            ev: dict[str, Any] = {"kind": "play", "seat": seat, "card": card, "trick": self._trick_no + 1}
            if leading and card == JOKER:
                ev["suit"] = suit
            if call:
                ev["joker_call"] = True
            self._event(ev)
        if card == self._call_card and self._call_kind == "card" and not self._friend_public:
            # §6.8.1: the called card reveals the friend (or the secret solo) the moment it is played.
            self._friend_public = True
            self._event({"kind": "friend_revealed", "seat": self._friend, "card": card, "declarer": self._declarer})
        if len(plays) == NUM:
            self._finish_trick()

    def _why_not(self, seat: int, card: str) -> IllegalAction:
        """Why ``card`` is not among the seat's playable cards."""
        if self._trick_no == 0 and card == JOKER:
            return IllegalAction("joker_first_trick")
        if self._joker_call and JOKER in self._hands[seat]:
            return IllegalAction("joker_called")
        if not self._plays:
            return IllegalAction("no_trump_lead", suit=self._contract[1])  # type: ignore[index]
        return IllegalAction("must_follow", suit=self._led_suit)

    def _finish_trick(self) -> None:
        trump = self._contract[1]  # type: ignore[index]
        winner = trick_winner(self._plays, self._led_suit, trump, self._trick_no, self._joker_call)
        cards = [c for _, c in self._plays]
        record = {
            "number": self._trick_no + 1,
            "leader": self._leader,
            "plays": [[s, c] for s, c in self._plays],
            "winner": winner,
            "joker_suit": self._joker_suit,
            "joker_call": self._joker_call,
            "points": card_points(cards),
        }
        self._last_trick = record
        self._history.append(record)
        self._won[winner].extend(cards)
        self._tricks_won[winner] += 1
        if not self._search:
            self._event({"kind": "trick", "number": self._trick_no + 1, "winner": winner, "cards": cards})
        if self._trick_no == 0 and self._call_kind == "first_trick":
            # §5.3.2 / §6.8.2: the winner of trick 1 is the friend (the declarer -> plays alone).
            self._friend = None if winner == self._declarer else winner
            self._friend_public = True
            self._event({"kind": "friend_revealed", "seat": self._friend, "card": None, "declarer": self._declarer})
        self._trick_no += 1
        self._plays = []
        self._leader = winner
        self._led_suit = ""
        self._joker_suit = None
        self._joker_call = False
        if self._trick_no == TRICKS:
            self._score_hand()

    # scoring (§7) and next hand (§8)
    def _score_hand(self) -> None:
        assert self._contract is not None and self._bid is not None
        decl, friend = self._declarer, self._friend
        n, trump = self._contract
        captured = [POINT_CARDS.intersection(won) for won in self._won]  # per seat (listed sorted below)
        discard_points = card_points(self._discards)
        p = discard_points + len(captured[decl]) + (len(captured[friend]) if friend not in (None, decl) else 0)
        s0, mults, score, made = base_score(n, trump, p, self._call_kind == "none")
        pay = [x * self._stake for x in payments(decl, friend, score, made)]
        for s in range(NUM):
            self._totals[s] += pay[s]
        secret_solo = self._call_kind == "card" and friend is None
        summary: dict[str, Any] = {
            "hand": self._hand_no,
            "dealer": self._dealer,
            "declarer": decl,
            "bid": n,
            "trump": trump,
            "original_bid": self._bid[0],
            "original_trump": self._bid[1],
            "friend": friend,
            "friend_call": self._call_kind,
            "friend_card": self._call_card,
            "secret_solo": secret_solo,
            "discards": list(self._discards),
            "discard_points": discard_points,
            "captured": [sort_cards(c) for c in captured],
            "points": p,
            "defender_points": 20 - p,
            "made": made,
            "base": s0,
            "multipliers": mults,
            "multiplier": 2 ** len(mults),
            "score": score,
            "stake": self._stake,
            "payments": pay,
            "auction": [dict(a) for a in self._auction],
            "tricks": [dict(t) for t in self._history],
        }
        self._settlements.append(Settlement(len(self._settlements), {"stake": tuple(pay)}, _hand_copy(summary)))
        self._last_hand = summary
        self._event(
            {
                "kind": "hand_end",
                "declarer": decl,
                "friend": friend,
                "points": p,
                "made": made,
                "score": score,
                "payments": pay,
            }
        )
        # §8.2/§8.3: the friend deals next (else the declarer); the declarer opens the next auction.
        self._dealer = decl if friend is None else friend
        self._opener = decl
        # SILENT: the `hands` option counts played hands only (thrown-in hands are not hands played).
        if self._hands_limit and len(self._settlements) >= self._hands_limit:
            self._over = True
            self._phase = "over"
            return
        self._hand_no += 1
        self._redeal_no = 0
        self._deal()

    # -- views ---------------------------------------------------------------------------------------
    def _public_events(self) -> list[dict[str, Any]]:
        """The recent events; during play without ``show_history`` (§9.2) the cards of tricks older than the
        last completed one are left out (who won each trick stays). Copies: a caller may change its view."""
        events = [_event_copy(e) for e in self._events[-EVENTS_SHOWN:]]
        if self.options["show_history"] or self._phase != "play":
            return events
        out = []
        for e in events:
            current = e["hand"] == self._hand_no and e["redeal"] == self._redeal_no
            old = e.get("trick") if e["kind"] == "play" else e.get("number") if e["kind"] == "trick" else None
            if current and old is not None and old < self._trick_no:  # tricks 1.._trick_no are complete
                if e["kind"] == "play":
                    continue
                del e["cards"]
            out.append(e)
        return out

    def public_view(self) -> View:
        ph = self._phase
        in_hand = ph in ("discard", "change", "call", "play")
        contract = None
        if self._contract is not None:
            contract = {"n": self._contract[0], "trump": self._contract[1]}
        high = None
        if self._high is not None:
            high = {"n": self._high[0], "trump": self._high[1], "seat": self._high[2]}
        trump_now = self._contract[1] if self._contract is not None else None
        show_captured = bool(self.options["show_captured"])
        call: dict[str, Any] | None = None
        if self._call_kind is not None:
            call = {"kind": self._call_kind, "card": self._call_card}
        v: View = {
            "game": self.game_id,
            "phase": ph,
            "to_move": list(self.to_move()),
            "hand_number": self._hand_no,
            "redeal_number": self._redeal_no,
            "hands_limit": self._hands_limit,
            "dealer": self._dealer,
            "opener": self._opener,
            "num_seats": NUM,
            "stake": self._stake,
            "options": dict(self.options),
            "auction": {
                "round": self._round,
                "history": [dict(a) for a in self._auction],
                "passed": [s for s in range(NUM) if self._passed[s]],
                "high": high,
            },
            "declarer": self._declarer if self._declarer >= 0 else None,
            "bid": {"n": self._bid[0], "trump": self._bid[1]} if self._bid is not None else None,
            "contract": contract,
            "contract_final": self._contract is not None,
            # SILENT: Mighty/Ripper are announced with the final contract (§5.2.2), not before.
            "mighty": mighty_of(trump_now) if trump_now else None,
            "ripper": ripper_of(trump_now) if trump_now else None,
            # SILENT: a face-up kitty stays on display for the whole hand (it was shown to all anyway).
            "kitty": sort_cards(self._kitty) if in_hand and self.options["kitty_face_up"] else None,
            "discarded": bool(self._discards) and in_hand,
            "friend_call": call,
            "friend_revealed": self._friend_public and self._call_kind is not None,
            "friend": self._friend if self._friend_public else None,
            "trick_number": self._trick_no + 1 if ph == "play" else None,
            "trick": {
                "leader": self._leader,
                "plays": [[s, c] for s, c in self._plays],
                "joker_suit": self._joker_suit,
                "joker_call": self._joker_call,
                "led_suit": self._led_suit or None,
            }
            if ph == "play"
            else None,
            "last_trick": _trick_copy(self._last_trick) if self._last_trick is not None else None,
            "history": [_trick_copy(t) for t in self._history] if self.options["show_history"] else None,
            "tricks_won": list(self._tricks_won),
            # §9.2 option show_captured; SILENT: when off only the trick counts are public.
            "captured": [sort_cards([c for c in w if c in POINT_CARDS]) for w in self._won] if show_captured else None,
            "points_won": [card_points(w) for w in self._won] if show_captured else None,
            "totals": list(self._totals),
            "hands_played": len(self._settlements),
            "last_hand": _hand_copy(self._last_hand) if self._last_hand is not None else None,
            "events": self._public_events(),
            # the Joker's fate is what every player keeps track of (a joker call after it has no effect, §6.6.3)
            "joker_played": JOKER in self._played,
        }
        return v

    def view(self, seat: int) -> View:
        v = self.public_view()
        v["seat"] = seat
        v["hand"] = sort_cards(self._hands[seat])
        role = "none"
        decl = self._declarer
        if self._phase in ("discard", "change", "call", "play"):
            if seat == decl:
                role = "declarer"
            elif self._call_kind == "card" and self._friend == seat:
                role = "friend"  # only the card holder learns it (§5.3.1, §9)
            elif self._friend_public and self._friend == seat:
                role = "friend"
            else:
                role = "defender"
        v["role"] = role
        v["you_are_friend"] = role == "friend"
        v["secret_solo"] = seat == decl and self._call_kind == "card" and self._friend is None
        v["discards"] = list(self._discards) if seat == decl else None
        v["kitty_private"] = sort_cards(self._kitty) if seat == decl and self._kitty_taken else None
        v["weak_hand_value"] = weak_hand_halves(self._hands[seat]) / 2 if self._phase == "auction" else None
        acts = self.legal_actions(seat)
        if not acts:
            v["prompt"] = None
        elif self._phase == "discard":
            v["prompt"] = {
                "kind": "combo",
                "type": "discard",
                "fields": [{"key": "cards", "from": sort_cards(self._hands[seat]), "count": 3}],
                "fixed": {},
            }
        else:
            v["prompt"] = {"kind": "pick", "actions": acts}
        return v

    # -- search support ------------------------------------------------------------------------------
    @property
    def open_ended(self) -> bool:
        return self.options["hands"] == 0

    def sides(self) -> list[int] | None:
        if self._declarer < 0:
            return None
        return [0 if s in (self._declarer, self._friend) else 1 for s in range(NUM)]

    def sides_public(self) -> bool:
        return self._friend_public

    # the simulation interface: plays are card ids, ``(JOKER, suit)`` for a led Joker and ``(ripper, CALL)`` for a
    # joker call; the other decisions keep their display actions (a few per hand)
    def sim_legal(self, seat: int) -> list[Move]:
        if self._phase != "play" or self._over:
            return self.legal_actions(seat)
        plays = self._plays
        if seat != (self._leader + len(plays)) % NUM:
            return []
        if plays and not self._joker_call:
            # _playable's following case, inlined (a playout asks it for 4 cards of 5)
            hand = self._hands[seat]
            led = self._led_suit
            follow = [c for c in hand if SUIT[c] == led]
            if not follow:
                return [c for c in hand if c != JOKER] if self._trick_no == 0 else list(hand)
            mighty = _MIGHTY[self._contract[1]]  # type: ignore[index]
            if mighty in hand and SUIT[mighty] != led:
                follow.append(mighty)
            if self._trick_no != 0 and JOKER in hand:
                follow.append(JOKER)
            return follow  # type: ignore[return-value]
        cards = self._playable(seat)
        if plays:
            return cards  # type: ignore[return-value]
        ripper = ripper_of(self._contract[1])  # type: ignore[index]
        call = self._trick_no != 0  # _joker_call_allowed
        out: list[Move] = []
        for c in cards:
            if c == JOKER:
                out.extend((c, s) for s in SUITS)
                continue
            out.append(c)
            if c == ripper and call:
                out.append((c, CALL))
        return out

    def sim_apply(self, seat: int, move: Move) -> None:
        if type(move) is str:
            self._play(seat, move, None, False)
        elif type(move) is tuple:
            card, extra = move
            if extra == CALL:
                self._play(seat, card, None, True)
            else:
                self._play(seat, card, extra, False)
        else:
            self.apply(seat, move)

    def sim_action(self, move: Move) -> Action:
        if type(move) is str:
            return {"type": "play", "card": move}
        if type(move) is tuple:
            card, extra = move
            if extra == CALL:
                return {"type": "play", "card": card, "joker_call": True}
            return {"type": "play", "card": card, "suit": extra}
        return move  # type: ignore[no-any-return]

    def sim_move(self, action: Action) -> Move:
        if action.get("type") != "play":
            return action
        if action.get("joker_call"):
            return (action["card"], CALL)
        if action.get("suit") is not None:
            return (action["card"], action["suit"])
        return action["card"]

    def play_facts(self, seat: int) -> PlayFacts:
        """The card-play part of ``view(seat)`` (see :class:`PlayFacts`; a test checks it against the view)."""
        decl = self._declarer
        friend = self._friend
        public = self._friend_public
        if seat == decl:
            role = "declarer"
        elif friend == seat and (public or self._call_kind == "card"):
            role = "friend"
        else:
            role = "defender"
        lt = self._last_trick
        return PlayFacts(
            seat,
            self._trump,
            self._plays,
            self._trick_no,
            self._led_suit,
            self._joker_call,
            decl,
            role,
            friend if public and self._call_kind is not None else None,
            public and self._call_kind is not None,
            self._call_card,
            self._hands[seat],
            self._played & POINT_CARDS if self.options["show_captured"] else None,
            self._discards if seat == decl and self._discards else None,
            lt["plays"] if lt is not None else None,
            JOKER in self._played,
        )

    def decision_view(self, seat: int) -> View:
        """The keys of ``view(seat)`` a computer player reads for the declarations (phase, hand, bid, contract,
        discards) with the same values, without building the whole view (a test checks it)."""
        decl = self._declarer
        return {
            "phase": self._phase,
            "hand": sort_cards(self._hands[seat]),
            "bid": {"n": self._bid[0], "trump": self._bid[1]} if self._bid is not None else None,
            "contract": {"n": self._contract[0], "trump": self._contract[1]} if self._contract is not None else None,
            "discards": list(self._discards) if seat == decl else None,
        }

    def auction_record(self) -> list[dict[str, Any]]:
        """The current deal's auction, in order (public): ``{"seat", "n", "trump", "round"}`` for a bid,
        ``{"seat", "pass": True, "round"}`` for a pass (the search infers holdings from it)."""
        return [dict(a) for a in self._auction]

    def dealt_hand(self, seat: int) -> list[str]:
        """The cards ``seat`` held before the kitty: its hand and the cards it played (the declarer: also its
        discards, less the kitty when that was shown face up; a hidden kitty stays in, 13 cards). Meant for
        determinized states, where it is the sampled holding; for another seat of the real game it would
        name hidden cards, so only a search reads it."""
        cards = list(self._hands[seat])
        cards.extend(c for t in self._history for s, c in t["plays"] if s == seat)
        cards.extend(c for s, c in self._plays if s == seat)
        if seat == self._declarer and self._kitty_taken:
            if self._phase != "discard":
                cards.extend(self._discards)
            if self.options["kitty_face_up"]:
                kitty = set(self._kitty)
                cards = [c for c in cards if c not in kitty]
        return cards

    def clone(self, for_search: bool = False) -> Self:
        g = object.__new__(type(self))
        d = self.__dict__.copy()
        g.__dict__.update(d)
        g._hands = [list(h) for h in self._hands]
        g._kitty = list(self._kitty)
        g._passed = list(self._passed)
        g._spoken = list(self._spoken)
        g._auction = list(self._auction)
        g._discards = list(self._discards)
        g._plays = list(self._plays)
        g._history = list(self._history)
        g._won = [list(w) for w in self._won]
        g._tricks_won = list(self._tricks_won)
        g._played = set(self._played)
        g._void = [set(v) for v in self._void]
        g._no_joker = list(self._no_joker)
        g._totals = list(self._totals)
        g._settlements = list(self._settlements)
        if for_search:
            g._search = True
        # a search state never logs an event, so its clones may share its (frozen) list
        g._events = self._events if self._search else list(self._events)
        return g

    def _hidden_places(self, seat: int) -> dict[tuple[str, int], list[str]]:
        """Where the cards hidden from ``seat`` lie: other hands ``("h", s)``, the kitty ``("k", 0)`` before it
        is taken, the declarer's discards ``("d", 0)`` (hidden from everyone else)."""
        places: dict[tuple[str, int], list[str]] = {}
        for s in range(NUM):
            if s != seat:
                places[("h", s)] = self._hands[s]
        if not self._kitty_taken:
            places[("k", 0)] = self._kitty
        elif self._discards and seat != self._declarer:
            places[("d", 0)] = self._discards
        return places

    def _may_hold(self, seat: int) -> Callable[[tuple[str, int], str], bool]:
        """``(place, card) -> bool``: may ``card`` lie there, given everything ``seat`` has seen?"""
        decl = self._declarer
        public_kitty = self._kitty_taken and bool(self.options["kitty_face_up"])
        trump = self._trump
        kitty_set = set(self._kitty) if public_kitty and seat != decl else set()
        void = self._void
        no_joker = self._no_joker
        trump_only = self._decl_trump_lead

        def allowed(place: tuple[str, int], card: str) -> bool:
            kind, s = place
            if card in kitty_set and not ((kind == "h" and s == decl) or kind == "d"):
                return False  # the face-up kitty went to the declarer (hand or discards)
            if kind != "h":
                return True
            if card == JOKER:
                return not no_joker[s]
            if SUIT[card] in void[s]:
                return False
            return not (trump_only and s == decl and SUIT[card] != trump)

        return allowed

    def determinize(self, seat: int, rng: random.Random) -> Self:
        g = self.clone(for_search=True)
        if self._over:
            return g
        sizes = {p: len(cards) for p, cards in self._hidden_places(seat).items()}
        hidden = [c for cards in self._hidden_places(seat).values() for c in cards]
        if not hidden:
            return g
        deal = deal_constrained(hidden, sizes, self._may_hold(seat), rng)
        for (kind, s), cards in deal.items():
            if kind == "h":
                g._hands[s] = cards
            elif kind == "k":
                g._kitty = cards
            else:
                g._discards = sort_cards(cards)
        g._place_friend()
        return g

    def _place_friend(self) -> None:
        """A sampled deal's friend: whoever holds the called card (hidden until it is played)."""
        if self._call_kind == "card" and not self._friend_public:
            card = self._call_card
            holder = next((s for s in range(NUM) if card in self._hands[s]), self._declarer)
            self._friend = None if holder == self._declarer else holder

    def reweigh_deal(self, seat: int, rng: random.Random, factor: Callable[[Self, int], float], steps: int) -> None:
        """Move this *sampled* deal (``determinize``) towards one that explains what the other seats declared:
        ``steps`` Metropolis swaps of two hidden cards between two hidden places (each swap keeps every
        public constraint), accepted by the ratio of ``factor(self, s)`` - a per-seat likelihood of seat ``s``'s
        holding (``dealt_hand``) - over the seats the swap touches. The walk's stationary law is the uniform
        consistent deal weighted by the product of the factors."""
        places = self._hidden_places(seat)
        keys = [p for p, cards in places.items() if cards]
        if len(keys) < 2:
            return
        allowed = self._may_hold(seat)
        decl = self._declarer

        def owner(place: tuple[str, int]) -> int | None:
            kind, s = place
            return s if kind == "h" else decl if kind == "d" else None

        cur = {s: factor(self, s) for s in range(NUM) if s != seat}
        for _ in range(steps):
            pa, pb = rng.sample(keys, 2)
            la, lb = places[pa], places[pb]
            ia, ib = rng.randrange(len(la)), rng.randrange(len(lb))
            ca, cb = la[ia], lb[ib]
            if not (allowed(pa, cb) and allowed(pb, ca)):
                continue
            la[ia], lb[ib] = cb, ca
            touched = {s for s in (owner(pa), owner(pb)) if s is not None and s != seat}
            new = {s: factor(self, s) for s in touched}
            old_w = new_w = 1.0
            for s in touched:
                old_w *= cur[s]
                new_w *= new[s]
            if new_w >= old_w or rng.random() * old_w < new_w:
                cur.update(new)
            else:
                la[ia], lb[ib] = ca, cb
        if ("d", 0) in places:
            self._discards = sort_cards(self._discards)
        self._place_friend()


def _set_hands_for_test(game: MightyGame, hands: Sequence[Sequence[str]], kitty: Sequence[str]) -> None:
    """Test helper: replace the fresh deal (auction phase, nothing said yet) with given hands and kitty."""
    cards = [c for h in hands for c in h] + list(kitty)
    if sorted(cards) != sorted(FRENCH_52_JOKER) or any(len(h) != 10 for h in hands) or len(kitty) != 3:
        raise ValueError("hands must be 5 x 10 cards and a kitty of 3 covering the whole pack")
    if game._phase != "auction" or game._auction:
        raise ValueError("only at the start of an auction")
    game._hands = [list(h) for h in hands]
    game._kitty = list(kitty)

"""Wizard (Ken Fisher, 1984): 3–6 players bid the exact number of tricks they will take, round after round.

Authoritative rules: ``docs/rules/wizard.md`` (DECISION ids W-1 … W-6 are cited in comments).

Round ``k`` (0-based, = ``hand_number``) deals ``hand_sizes[k]`` cards to each seat; the next card of the
60-card deck is turned as trump indicator. Phases per round: ``trump`` (only after a turned Wizard, the
dealer picks a suit), ``bid`` (open / simultaneous / secret), ``play``. Finishing the last trick scores the
round and deals the next one inside the same ``apply``. One :class:`Settlement` covers the whole game.

Card ids come from :data:`bot.engine.cards.WIZARD_60`; the four Wizards / Jesters are numbered
``WIZ1..4`` / ``JES1..4`` only so that every card is distinct. Legal-action lists offer one action per
identical special card held (the first id in hand), but ``apply`` accepts any of them.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from bot.engine.cards import JESTERS, WIZARD_60, WIZARD_RANKS, WIZARD_SUITS, WIZARDS
from bot.engine.errors import IllegalAction, InvalidOptions
from bot.engine.protocol import HINTS, Action, CardIdMoves, GameResult, OptionSpec, Settlement, View
from bot.engine.rng import make_rng
from bot.engine.sampling import deal_constrained
from bot.engine.seats import Direction

#: card -> suit letter ('' for Wizards and Jesters)
SUIT: dict[str, str] = {}
#: card -> strength: 2..14 for suit cards (A = 14), 15 for a Wizard, 0 for a Jester
RANK: dict[str, int] = {}
for _c in WIZARD_60:
    if _c in WIZARDS:
        SUIT[_c], RANK[_c] = "", 15
    elif _c in JESTERS:
        SUIT[_c], RANK[_c] = "", 0
    else:
        SUIT[_c], RANK[_c] = _c[-1], WIZARD_RANKS.index(_c[:-1]) + 2
WIZ_SET = frozenset(WIZARDS)
JES_SET = frozenset(JESTERS)
SUIT_BIT = {"S": 1, "H": 2, "D": 4, "C": 8}
_SUIT_ORDER = {s: i for i, s in enumerate(WIZARD_SUITS)}
#: display order: Wizards, then ♠ ♥ ♦ ♣ ascending, then Jesters
_SORT_KEY = {c: (0 if c in WIZ_SET else 5 if c in JES_SET else 1 + _SUIT_ORDER[SUIT[c]], RANK[c], c) for c in WIZARD_60}

BID_MODES = ("open", "simultaneous", "secret")
WIZARD_TURNED = ("dealer_chooses", "no_trump")
MAX_EVENTS = 12


def sort_hand(cards: list[str]) -> list[str]:
    """Cards in display order (Wizards, suits ♠ ♥ ♦ ♣ low to high, Jesters)."""
    return sorted(cards, key=_SORT_KEY.__getitem__)


# Views copy the engine's tricks, rounds and events with one function per shape (the shapes are fixed where they
# are stored) rather than a generic deep copy: a view copies every trick of the round, and a call per card made
# copying most of a view's cost (a record's replay builds one per action). tests/games/test_views_isolated.py
# mutates every container of every view and fails if any of them is the engine's own.


def _trick_copy(t: dict[str, Any]) -> dict[str, Any]:
    """A copy of a finished trick as ``_play`` stores it."""
    return {"leader": t["leader"], "plays": [[s, c] for s, c in t["plays"]], "winner": t["winner"]}


def _event_copy(ev: dict[str, Any]) -> dict[str, Any]:
    """A copy of an event as ``_event`` stores it: scalars and flat lists (cards, bids, scores) only."""
    return {k: list(v) if type(v) is list else v for k, v in ev.items()}


def _round_copy(r: dict[str, Any]) -> dict[str, Any]:
    """A copy of a ``_round_log`` entry as ``_end_round`` stores it: its lists and its trick are fresh."""
    out = dict(r)
    out["bids"], out["tricks"], out["scores"] = list(r["bids"]), list(r["tricks"]), list(r["scores"])
    out["last_trick"] = _trick_copy(r["last_trick"])
    return out


def round_score(bid: int, tricks: int) -> int:
    """§7: exact → 20 + 10 per trick; otherwise −10 per trick of difference."""
    return 20 + 10 * tricks if tricks == bid else -10 * abs(tricks - bid)


@functools.lru_cache(maxsize=1024)
def _round_deck(seed: int, k: int) -> tuple[str, ...]:
    """The shuffled deck of round ``k`` of the game of ``seed``. Remembered: a search plays the same round end in
    thousands of playouts, and seeding a generator and shuffling 60 cards cost more than the rest of a round end."""
    deck = list(WIZARD_60)
    make_rng(seed, "deal", k).shuffle(deck)
    return tuple(deck)


def trick_winner(plays: list[tuple[int, str]], trump: str | None) -> int:
    """§6.4: first Wizard; else highest trump; else highest card of the led suit; else the first Jester."""
    lead: str | None = None
    for s, c in plays:
        if c in WIZ_SET:
            return s
        if lead is None and c not in JES_SET:
            lead = SUIT[c]
    best_seat, best = -1, -1
    if trump is not None:
        for s, c in plays:
            if SUIT[c] == trump and RANK[c] > best:
                best_seat, best = s, RANK[c]
        if best_seat >= 0:
            return best_seat
    if lead is not None:
        for s, c in plays:
            if SUIT[c] == lead and RANK[c] > best:
                best_seat, best = s, RANK[c]
        return best_seat
    return plays[0][0]  # only Jesters: the first one wins


def _parse_rounds(value: Any, max_round: int) -> Any:
    """``"all"`` or a strictly increasing list of hand sizes in ``1..max_round`` (also "1-5" / "1,3,5")."""
    if value is None or value == "all":
        return "all"
    items: list[Any]
    if isinstance(value, str):
        items = []
        for part in value.replace(" ", "").split(","):
            m = re.fullmatch(r"(\d+)-(\d+)", part)
            if m:
                items.extend(range(int(m.group(1)), int(m.group(2)) + 1))
            elif part.isdigit():
                items.append(int(part))
            else:
                raise InvalidOptions("rounds_format", option="rounds")
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise InvalidOptions("rounds_format", option="rounds")
    if not items:
        raise InvalidOptions("rounds_empty", option="rounds")
    for x in items:
        if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= max_round:
            raise InvalidOptions("rounds_size", option="rounds", hi=max_round)
    if any(b <= a for a, b in itertools.pairwise(items)):
        raise InvalidOptions("rounds_order", option="rounds")
    return items


class WizardGame(CardIdMoves):
    game_id: ClassVar[str] = "wizard"
    title: ClassVar[str] = "Wizard"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 6
    direction: ClassVar[Direction] = Direction.CLOCKWISE
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "bid_restriction",
            False,
            (False, True),
            help="Hook rule: the dealer may not make the bids add up to the number of tricks",
        ),
        OptionSpec(
            "bid_mode",
            "open",
            BID_MODES,
            help="When bids are shown: each at once (default), all together, or at the end of the round",
        ),
        OptionSpec("first_round_blind", False, (False, True), help="Round 1: see everyone's card but your own"),
        OptionSpec(
            "rounds", "all", None, help="Hand sizes to play: all (default), a range like 1-5, or a list like 1,2,3"
        ),
        OptionSpec(
            "wizard_turned",
            "dealer_chooses",
            WIZARD_TURNED,
            help="When a Wizard is turned: the dealer chooses trump (default), or no trump",
            labels=("dealer chooses trump", "no trump"),
        ),
        OptionSpec(
            "stake_per_point",
            0,
            None,
            0,
            1_000_000,
            help="Settle pairwise score differences at this many stake units per point (default 0)",
        ),
        # DECISION W-1: the engine takes the first dealer as an input; None (tables) = drawn with the seeded RNG
        OptionSpec("first_dealer", None, help="The seat that deals round 1 (default: drawn at random).", command=False),
        HINTS,
    )

    # -- construction ----------------------------------------------------------------------------------
    @classmethod
    def normalize_options(cls, options: Mapping[str, Any] | None, num_seats: int) -> dict[str, Any]:
        out = super().normalize_options(options, num_seats)
        out["bid_restriction"] = bool(out["bid_restriction"])
        out["first_round_blind"] = bool(out["first_round_blind"])
        out["rounds"] = _parse_rounds(out["rounds"], 60 // num_seats)
        fd = out["first_dealer"]
        if fd is not None and (isinstance(fd, bool) or not isinstance(fd, int) or not 0 <= fd < num_seats):
            raise InvalidOptions("first_dealer_range", option="first_dealer", hi=num_seats - 1)
        if out["bid_restriction"] and out["bid_mode"] != "open":
            # DECISION W-6: with hidden bids there is no well-defined last bidder.
            raise InvalidOptions("hook_needs_open", option="bid_restriction", mode="bid_mode", value="open")
        return out

    def __init__(self, num_seats: int, options: Mapping[str, Any] | None, seed: int) -> None:
        self.options = self.normalize_options(options, num_seats)
        self._n = num_seats
        self._seed = seed
        rounds = self.options["rounds"]
        self._sizes: list[int] = list(range(1, 60 // num_seats + 1)) if rounds == "all" else list(rounds)
        self._restrict: bool = self.options["bid_restriction"]
        self._mode: str = self.options["bid_mode"]
        # DECISION W-1: the first dealer is an input; tables leave it to the seeded RNG (the draw for the deal).
        fd = self.options["first_dealer"]
        self._first_dealer = make_rng(seed, "first_dealer").randrange(num_seats) if fd is None else fd
        self._totals = [0] * num_seats
        self._history: list[list[int]] = []
        self._round_log: list[dict[str, Any]] = []
        self._events: list[dict[str, Any]] = []
        self._settlements: list[Settlement] = []
        self._k = 0
        self._search = False  # a search state (clone(for_search=True), determinize): no display events
        self._deal()

    def _deal(self) -> None:
        """Deal round ``self._k`` (§4) and set up trump and bidding."""
        n, k = self._n, self._k
        r = self._sizes[k]
        self._r = r
        self._dealer = (self._first_dealer + k) % n
        deck = _round_deck(self._seed, k)
        hands: list[list[str]] = [[] for _ in range(n)]
        first = self._dealer + 1
        # DECISION W-2: one card at a time, clockwise, starting with dealer + 1.
        for i in range(n * r):
            hands[(first + i) % n].append(deck[i])
        self._hands = hands
        self._indicator: str | None = deck[n * r] if n * r < 60 else None  # §4.3 / §4.4
        self._phase = "bid"
        self._trump: str | None = None
        ind = self._indicator
        if ind is not None:
            if ind in WIZ_SET:
                if self.options["wizard_turned"] == "dealer_chooses":
                    self._phase = "trump"
            elif ind not in JES_SET:
                self._trump = SUIT[ind]
        # SILENT: first_round_blind applies to the played round of one card (only the first played round can
        # have one); if the `rounds` option skips hand size 1 there is no blind round.
        self._blind = bool(self.options["first_round_blind"]) and r == 1
        self._bids: list[int | None] = [None] * n
        self._bid_count = 0
        self._undoable: int | None = None
        self._tricks = [0] * n
        self._leader = first % n
        self._plays: list[tuple[int, str]] = []
        self._lead: str | None = None  # led suit of the current trick
        self._free = False  # trick made free by a Wizard (§6.2)
        self._voids = [0] * n  # bitmask of suits each seat has shown void in, this round
        self._round_tricks: list[dict[str, Any]] = []
        self._event(
            {
                "kind": "deal",
                "hand_size": r,
                "dealer": self._dealer,
                "indicator": ind,
                "trump": self._trump,
                "trump_pending": self._phase == "trump",
            }
        )

    def _event(self, ev: dict[str, Any]) -> None:
        if self._search:
            return  # nothing renders a search state
        # SILENT: events are tagged with their round; earlier rounds' trick events stay in the short log
        # (their cards are public history even though the same ids are dealt again later).
        ev["round"] = self._k + 1
        self._events.append(ev)
        if len(self._events) > 2 * MAX_EVENTS:
            del self._events[:-MAX_EVENTS]

    # -- basic properties --------------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return self._n

    @property
    def hand_number(self) -> int:
        return min(self._k, len(self._sizes) - 1)

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def hand_sizes(self) -> list[int]:
        return list(self._sizes)

    @property
    def first_dealer(self) -> int:
        return self._first_dealer

    def to_move(self) -> tuple[int, ...]:
        ph = self._phase
        if ph == "play":
            return ((self._leader + len(self._plays)) % self._n,)
        if ph == "bid":
            if self._mode == "open":
                return ((self._dealer + 1 + self._bid_count) % self._n,)
            return tuple(s for s in range(self._n) if self._bids[s] is None)
        if ph == "trump":
            return (self._dealer,)
        return ()

    # -- legality ----------------------------------------------------------------------------------------
    def _forbidden_bid(self) -> int | None:
        """With ``bid_restriction`` the last (open) bidder may not make the total equal the hand size."""
        if not self._restrict or self._phase != "bid" or self._bid_count != self._n - 1:
            return None
        x = self._r - sum(b for b in self._bids if b is not None)
        return x if 0 <= x <= self._r else None

    def _can_undo(self, seat: int) -> bool:
        if self._mode == "open":
            # DECISION W-3: cleared when the next player bids or the first card is led.
            return self._undoable == seat and self._phase in ("bid", "play")
        # SILENT: in simultaneous/secret mode a seat may withdraw (then re-enter) its own bid until the last
        # bid is in; "changing" a bid is undo + bid.
        return self._phase == "bid" and self._bids[seat] is not None

    def _playable(self, seat: int) -> list[str]:
        """Every card ``seat`` may play now (§6.3), all ids."""
        hand = self._hands[seat]
        lead = self._lead
        if lead is not None:
            follow = [c for c in hand if SUIT[c] == lead or c in WIZ_SET or c in JES_SET]
            if len(follow) != len(hand) and any(SUIT[c] == lead for c in follow):
                return follow
        return list(hand)

    def legal_actions(self, seat: int) -> list[Action]:
        ph = self._phase
        out: list[Action] = []
        if ph == "play":
            if seat == (self._leader + len(self._plays)) % self._n:
                seen_w = seen_j = False
                for c in self._playable(seat):
                    # one action per identical special card kind; SILENT: the first id in the seat's hand
                    # (deal) order is offered, any id is accepted by apply().
                    if c in WIZ_SET:
                        if seen_w:
                            continue
                        seen_w = True
                    elif c in JES_SET:
                        if seen_j:
                            continue
                        seen_j = True
                    out.append({"type": "play", "card": c})
        elif ph == "bid":
            if seat in self.to_move():
                bad = self._forbidden_bid()
                out = [{"type": "bid", "n": i} for i in range(self._r + 1) if i != bad]
        elif ph == "trump" and seat == self._dealer:
            out = [{"type": "trump", "suit": s} for s in WIZARD_SUITS]
        # SILENT: the undo right (W-3) belongs to a seat that is usually *not* in to_move() (the previous
        # bidder, or the dealer before the first lead); it is listed in that seat's legal actions/prompt.
        if ph != "over" and self._can_undo(seat):
            out.append({"type": "undo"})
        return out

    def _validate(self, seat: int, action: Action) -> str:
        """Raise :class:`IllegalAction` unless ``action`` is legal; return its type."""
        if not isinstance(action, Mapping):
            raise IllegalAction("unknown_action")
        kind = action.get("type")
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise IllegalAction("no_such_seat")
        if self._phase == "over":
            raise IllegalAction("game_over")
        if kind == "undo":
            if not self._can_undo(seat):
                raise IllegalAction("no_undo")
            return kind
        if kind == "play":
            if self._phase != "play":
                raise IllegalAction("not_play_time")
            if seat != (self._leader + len(self._plays)) % self._n:
                raise IllegalAction("not_your_turn")
            card = action.get("card")
            hand = self._hands[seat]
            if not isinstance(card, str) or card not in hand:
                raise IllegalAction("not_in_hand")
            lead = self._lead
            if (
                lead is not None
                and SUIT[card] != lead
                and card not in WIZ_SET
                and card not in JES_SET
                and any(SUIT[c] == lead for c in hand)
            ):
                raise IllegalAction("must_follow", suit=lead)
            return kind
        if kind == "bid":
            if self._phase != "bid":
                raise IllegalAction("not_bid_time")
            if seat not in self.to_move():
                raise IllegalAction("not_your_bid_turn" if self._mode == "open" else "already_bid")
            n = action.get("n")
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= self._r:
                raise IllegalAction("bid_range", lo=0, hi=self._r)
            if n == self._forbidden_bid():
                raise IllegalAction("bid_hook", tricks=self._r, n=n)
            return kind
        if kind == "trump":
            if self._phase != "trump" or seat != self._dealer:
                raise IllegalAction("not_trump_time")
            if action.get("suit") not in WIZARD_SUITS:
                raise IllegalAction("choose_suit")
            return kind
        raise IllegalAction("unknown_action")

    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self._validate(seat, action)
        except IllegalAction:
            return False
        return True

    # -- applying actions ------------------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        kind = self._validate(seat, action)
        if kind == "play":
            self._play(seat, action["card"])
        elif kind == "bid":
            self._bid(seat, action["n"])
        elif kind == "undo":
            self._undo(seat)
        else:
            self._trump = action["suit"]
            self._phase = "bid"
            self._event({"kind": "trump_chosen", "seat": seat, "suit": self._trump})

    def _bid(self, seat: int, n: int) -> None:
        self._bids[seat] = n
        self._bid_count += 1
        if self._mode == "open":
            self._undoable = seat
            self._event({"kind": "bid", "seat": seat, "n": n})
        else:
            self._event({"kind": "bid", "seat": seat})  # the value stays private (§10)
        if self._bid_count == self._n:
            self._phase = "play"
            if self._mode == "secret":
                self._event({"kind": "bids_complete"})
            else:
                bids = [b for b in self._bids if b is not None]
                self._event(
                    {
                        "kind": "bids_complete",
                        "bids": list(self._bids),
                        "total": sum(bids),
                        "hand_size": self._r,
                    }
                )

    def _undo(self, seat: int) -> None:
        self._bids[seat] = None
        self._bid_count -= 1
        self._undoable = None
        self._phase = "bid"
        self._event({"kind": "undo", "seat": seat})

    def _play(self, seat: int, card: str) -> None:
        self._undoable = None  # W-3: the first lead makes the dealer's bid final
        self._hands[seat].remove(card)
        lead = self._lead
        if lead is not None:
            if SUIT[card] and SUIT[card] != lead:
                self._voids[seat] |= SUIT_BIT[lead]
        elif not self._free and card not in JES_SET:
            # §6.2 / W-4: the first non-Jester card fixes the led suit, or frees the trick if a Wizard.
            if card in WIZ_SET:
                self._free = True
            else:
                self._lead = SUIT[card]
        self._plays.append((seat, card))
        if len(self._plays) < self._n:
            return
        plays = self._plays
        winner = trick_winner(plays, self._trump)
        self._tricks[winner] += 1
        trick = {"leader": self._leader, "plays": [[s, c] for s, c in plays], "winner": winner}
        self._round_tricks.append(trick)
        if not self._search:
            self._event({"kind": "trick", "winner": winner, "cards": [c for _, c in plays], "leader": self._leader})
        self._leader = winner
        self._plays = []
        self._lead = None
        self._free = False
        if len(self._round_tricks) == self._r:
            self._end_round()

    def _end_round(self) -> None:
        bids = [b if b is not None else 0 for b in self._bids]
        scores = [round_score(b, t) for b, t in zip(bids, self._tricks, strict=True)]
        for i, sc in enumerate(scores):
            self._totals[i] += sc
        self._history.append(scores)
        self._round_log.append(
            {
                "round": self._k + 1,
                "hand_size": self._r,
                "dealer": self._dealer,
                "indicator": self._indicator,
                "trump": self._trump,
                "bids": bids,
                "tricks": list(self._tricks),
                "scores": scores,
                "last_trick": self._round_tricks[-1],
            }
        )
        self._event(
            {
                "kind": "round_end",
                "bids": bids,
                "tricks": list(self._tricks),
                "scores": scores,
                "totals": list(self._totals),
            }
        )
        if self._k + 1 < len(self._sizes):
            self._k += 1
            self._deal()
            return
        self._phase = "over"
        self._event({"kind": "game_over", "totals": list(self._totals)})
        self._settlements.append(self._final_settlement())

    def _final_settlement(self) -> Settlement:
        totals = self._totals
        n = self._n
        res = GameResult.from_totals("point", totals)
        amounts: dict[str, tuple[int, ...]] = {"point": tuple(totals)}
        stake = self.options["stake_per_point"]
        if stake > 0:
            # §8.3: every pair settles (score_i − score_j) × stake, i.e. N·(score_i − mean)·stake; zero-sum.
            amounts["stake"] = tuple(sum((totals[i] - totals[j]) * stake for j in range(n)) for i in range(n))
        exact = [sum(1 for rl in self._round_log if rl["bids"][s] == rl["tricks"][s]) for s in range(n)]
        summary = {
            "ranks": list(res.ranks),
            "totals": list(totals),
            "winners": list(res.winners),
            "rounds_played": len(self._round_log),
            "rounds": len(self._round_log),
            "exact_bids": exact,
            "bids_made": list(exact),
            "hand_sizes": list(self._sizes),
            "first_dealer": self._first_dealer,
            "bids": [list(rl["bids"]) for rl in self._round_log],
            "tricks": [list(rl["tricks"]) for rl in self._round_log],
            "history": [list(h) for h in self._history],
            "stake_per_point": stake,
            "bid_mode": self._mode,
        }
        return Settlement(0, amounts, summary)

    # -- results -----------------------------------------------------------------------------------------
    def settlements(self) -> list[Settlement]:
        return list(self._settlements)

    def result(self) -> GameResult | None:
        if not self.is_over:
            return None
        return GameResult.from_totals("point", self._totals)

    # -- views -------------------------------------------------------------------------------------------
    def _bids_public(self) -> list[int | None]:
        """Bids as the table may see them (§10)."""
        if self._mode == "open" or self._phase == "over" or (self._mode == "simultaneous" and self._phase == "play"):
            return list(self._bids)  # secret bids of the last round are revealed once it is over
        return [None] * self._n  # simultaneous before all are in; secret until the round ends

    def public_view(self) -> View:
        bids = self._bids_public()
        visible = all(b is not None for b in bids) or self._mode == "open"
        total = sum(b for b in bids if b is not None) if visible else None
        over = self._phase == "over"
        v: View = {
            "game": self.game_id,
            "phase": self._phase,
            "to_move": list(self.to_move()),
            "num_seats": self._n,
            "hand_number": self.hand_number,
            "round": self.hand_number + 1,
            "rounds_total": len(self._sizes),
            "hand_size": self._r,
            "hand_sizes": list(self._sizes),
            "dealer": self._dealer,
            "first_dealer": self._first_dealer,
            "leader": self._leader,
            "indicator": self._indicator,
            "trump": self._trump,
            "trump_pending": self._phase == "trump",
            "bid_mode": self._mode,
            "bid_restriction": self._restrict,
            "blind_round": self._blind,
            "bids": bids,
            "has_bid": [b is not None for b in self._bids],
            "bids_total": total,
            "forbidden_bid": self._forbidden_bid(),
            "undo_seat": self._undoable if self._mode == "open" and not over else None,
            "tricks": list(self._tricks),
            "hand_counts": [len(h) for h in self._hands],
            "trick": {"leader": self._leader, "plays": [[s, c] for s, c in self._plays]},
            "lead_suit": self._lead,
            "trick_free": self._free,
            "last_trick": _trick_copy(self._round_tricks[-1]) if self._round_tricks else None,
            "round_tricks": [_trick_copy(t) for t in self._round_tricks],
            "totals": list(self._totals),
            "history": [list(h) for h in self._history],
            "round_log": [_round_copy(r) for r in self._round_log],
            "events": [_event_copy(e) for e in self._events[-MAX_EVENTS:]],
            "stake_per_point": self.options["stake_per_point"],
        }
        if over:
            res = GameResult.from_totals("point", self._totals)
            v["ranks"] = list(res.ranks)
            v["winners"] = list(res.winners)
        return v

    def view(self, seat: int) -> View:
        v = self.public_view()
        v["seat"] = seat
        if self._mode != "open" and self._bids[seat] is not None and v["bids"][seat] is None:
            v["bids"][seat] = self._bids[seat]  # each player always sees their own bid
        if self._blind and self._phase != "over":
            # first_round_blind: own card hidden, every other unplayed card shown (by design). SILENT: the
            # prompt still names the card id (the only legal play); renderers must not print it.
            v["hand"] = []
            v["hand_hidden"] = True
            v["foreheads"] = [None if s == seat or not self._hands[s] else self._hands[s][0] for s in range(self._n)]
        else:
            v["hand"] = sort_hand(self._hands[seat])
            v["hand_hidden"] = False
            v["foreheads"] = None
        acts = self.legal_actions(seat)
        v["prompt"] = {"kind": "pick", "actions": acts} if acts else None
        return v

    def card_play_view(self, seat: int) -> View:
        """The part of ``view(seat)`` a computer player reads to play a card: the same values under the same keys
        (a test checks it), built without the rest (a search builds it for every simulated card). Do not mutate:
        ``round_tricks`` is the engine's own list."""
        bids = self._bids_public()
        if self._mode != "open" and self._bids[seat] is not None and bids[seat] is None:
            bids[seat] = self._bids[seat]
        blind = self._blind and self._phase != "over"
        return {
            "seat": seat,
            "num_seats": self._n,
            "hand_size": self._r,
            "trump": self._trump,
            "lead_suit": self._lead,
            "indicator": self._indicator,
            "bids": bids,
            "tricks": list(self._tricks),
            "hand_counts": [len(h) for h in self._hands],
            "trick": {"leader": self._leader, "plays": [[s, c] for s, c in self._plays]},
            "round_tricks": self._round_tricks,
            "hand": [] if blind else sort_hand(self._hands[seat]),
            "hand_hidden": blind,
            "foreheads": [None if s == seat or not self._hands[s] else self._hands[s][0] for s in range(self._n)]
            if blind
            else None,
        }

    # -- search support ------------------------------------------------------------------------------------
    # -- public facts for cheap search rollouts (building a view per simulated card costs more than the rollout)
    @property
    def bids(self) -> list[int | None]:
        return self._bids

    @property
    def tricks_won(self) -> list[int]:
        return self._tricks

    def bid_misses(self, seat: int) -> list[tuple[int, int]]:
        """``(hand size, |bid - tricks taken|)`` of ``seat`` in every round played: public facts (the score
        sheet), read by the strong level to tell how well a seat's bids foretell its tricks."""
        return [(r["hand_size"], abs(r["bids"][seat] - r["tricks"][seat])) for r in self._round_log]

    @property
    def trump_suit(self) -> str | None:
        return self._trump

    @property
    def lead_suit(self) -> str | None:
        return self._lead

    @property
    def trick_plays(self) -> list[tuple[int, str]]:
        """The current trick's plays so far, ``(seat, card)`` in order (``public_view()["trick"]["plays"]``; do not
        mutate)."""
        return self._plays

    def search_hand(self, seat: int) -> list[str]:
        """A seat's hand in a *search state* (a clone for search or a ``determinize`` sample, whose hidden hands
        are sampled); a real game refuses, so no agent can read a hidden hand through it. Do not mutate."""
        if not self._search:
            raise ValueError("search_hand reads only search states")
        return self._hands[seat]

    @property
    def totals(self) -> list[int]:
        """The public running totals (``public_view()["totals"]``; do not mutate)."""
        return self._totals

    def num_settlements(self) -> int:
        return len(self._settlements)

    # the simulation interface: a play is its card id; bids and trump keep their display actions
    def sim_legal(self, seat: int) -> list[Any]:
        if self._phase != "play":
            return [a for a in self.legal_actions(seat) if a["type"] != "undo"]
        if seat != (self._leader + len(self._plays)) % self._n:
            return []
        hand = self._hands[seat]
        lead = self._lead
        if lead is not None:
            # _playable: follow suit (Wizards and Jesters, whose suit is "", always allowed) if possible
            cards = [c for c in hand if SUIT[c] in (lead, "")]
            if len(cards) == len(hand) or not any(SUIT[c] for c in cards):
                cards = hand
        else:
            cards = hand
        out: list[Any] = []
        seen_w = seen_j = False
        for c in cards:
            # one move per kind of identical special card, the first in hand order (as legal_actions)
            if not SUIT[c]:
                if c in WIZ_SET:
                    if seen_w:
                        continue
                    seen_w = True
                elif seen_j:
                    continue
                else:
                    seen_j = True
            out.append(c)
        return out

    def clone(self, for_search: bool = False) -> Self:
        g = self.__class__.__new__(self.__class__)
        g.__dict__.update(self.__dict__)
        g._hands = [list(h) for h in self._hands]
        g._bids = list(self._bids)
        g._tricks = list(self._tricks)
        g._plays = list(self._plays)
        g._voids = list(self._voids)
        g._round_tricks = list(self._round_tricks)  # dicts inside are never mutated
        g._totals = list(self._totals)
        g._history = list(self._history)
        g._round_log = list(self._round_log)
        if for_search:
            g._search = True
        # a search state never logs an event, so its clones may share its (frozen) list
        g._events = self._events if self._search else list(self._events)
        g._settlements = list(self._settlements)
        return g

    def determinize(self, seat: int, rng: random.Random) -> Self:
        g = self.clone(for_search=True)
        if self._phase == "over":
            return g
        known: set[str] = set()
        if self._indicator is not None:
            known.add(self._indicator)
        for t in self._round_tricks:
            known.update(c for _, c in t["plays"])
        known.update(c for _, c in self._plays)
        if self._blind:
            hidden_places = [seat]  # the seat sees every card but its own
            for s in range(self._n):
                if s != seat:
                    known.update(self._hands[s])
        else:
            hidden_places = [s for s in range(self._n) if s != seat]
            known.update(self._hands[seat])
        unseen = [c for c in WIZARD_60 if c not in known]
        caps: dict[int, int] = {s: len(self._hands[s]) for s in hidden_places}
        caps[-1] = len(unseen) - sum(caps.values())  # the undealt stock
        voids = self._voids

        def allowed(place: int, card: str) -> bool:
            return place < 0 or not (SUIT[card] and voids[place] & SUIT_BIT[SUIT[card]])

        deal = _deal_fast(unseen, caps, voids, rng)
        if deal is None:
            deal = deal_constrained(unseen, caps, allowed, rng)
        for s in hidden_places:
            g._hands[s] = deal[s]
        # SILENT: hidden bids (secret round, simultaneous before all are in) must not leak through the clone
        # either: they are replaced by uniform guesses in 0..r.
        pub = self._bids_public()
        for s in range(self._n):
            if s != seat and pub[s] is None and self._bids[s] is not None:
                g._bids[s] = rng.randint(0, self._r)
        return g


def _deal_fast(
    unseen: list[str], caps: dict[int, int], voids: list[int], rng: random.Random
) -> dict[int, list[str]] | None:
    """:func:`deal_constrained` for Wizard's only constraint (suits shown void), with the same distribution at a
    fraction of the cost (a search samples a deal per iteration): the cards of a suit somebody is void in are
    placed one by one, weighted by the room left where they are allowed (most constrained first, as there),
    then the free cards fill the remaining room in one shuffled slice (which is what placing them one by one,
    weighted by room, amounts to). ``None`` when the greedy placement gets stuck (the caller then matches
    exactly). Like there, the deal depends only on the set of hidden cards and the rng."""
    order = sorted(unseen)
    rng.shuffle(order)
    places = list(caps)
    room = dict(caps)
    out: dict[int, list[str]] = {p: [] for p in places}
    void_any = 0
    for p in places:
        if p >= 0:
            void_any |= voids[p]
    if void_any:
        constrained: list[tuple[int, str, list[int]]] = []
        free: list[str] = []
        for c in order:
            bit = SUIT_BIT.get(SUIT[c], 0)
            if bit & void_any:
                opts = [p for p in places if p < 0 or not voids[p] & bit]
                constrained.append((len(opts), c, opts))
            else:
                free.append(c)
        constrained.sort(key=lambda t: t[0])  # stable: the shuffled order within a count
        for _, c, opts in constrained:
            choices = [p for p in opts if room[p] > 0]
            if not choices:
                return None
            p = choices[0] if len(choices) == 1 else rng.choices(choices, weights=[room[q] for q in choices])[0]
            out[p].append(c)
            room[p] -= 1
        order = free  # still in shuffled order
    i = 0
    for p in places:
        k = room[p]
        out[p].extend(order[i : i + k])
        i += k
    return out


def _set_hands_for_test(game: WizardGame, hands: list[list[str]], trump: str | object | None = ...) -> None:
    """Test helper: replace the current round's hands (and optionally the trump) before any card is played."""
    assert len(hands) == game.num_seats
    game._hands = [list(h) for h in hands]
    if trump is not ...:
        game._trump = trump  # type: ignore[assignment]

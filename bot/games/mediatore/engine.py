"""Mediatore: the 4-player Italian trick-taking game with a bidding auction and a called partner.

Authoritative rules: ``docs/rules/mediatore.md`` (section numbers and DECISION ids below refer to it).
Seats are numbered in playing order (anticlockwise at the table, §0/§1): next = ``s + 1 mod 4``.

Phases of one hand: ``auction`` -> [``call`` (Chiamo, Mediatore)] -> [``exchange`` (Chiamo, Mediatore,
Solo)] -> ``play`` (9 tricks) -> settlement and the next deal, all inside the ``apply`` that ends a phase.
The game is ``over`` once the ``hands`` option (if > 0) of *played* hands have been settled.

Card points are kept in thirds (§2.5): A = 3, 3/2/K/N/J = 1, 7/6/5/4 = 0; last trick = 3 thirds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import Any, ClassVar

from bot.engine.cards import ITALIAN_40
from bot.engine.errors import IllegalAction
from bot.engine.protocol import HINTS, Action, Game, GameResult, Move, OptionSpec, Settlement, View, copy_with_lists
from bot.engine.rng import make_rng, shuffled
from bot.engine.sampling import NoConsistentDeal, deal_constrained
from bot.engine.seats import Direction

CONTRACTS: tuple[str, ...] = ("chiamo", "mediatore", "solo", "solissimo", "arcisolissimo")
CONTRACT_TITLES = {
    "chiamo": "Chiamo",
    "mediatore": "Mediatore",
    "solo": "Solo",
    "solissimo": "Solissimo",
    "arcisolissimo": "Arcisolissimo",
}
SIGNALS: tuple[str, ...] = ("knock", "fly", "stroke")
SUIT_ORDER = "DCSB"
RANK_ORDER = "32AKNJ7654"  # §2.2, high to low
#: trick-taking strength of a rank (higher wins)
STRENGTH = {r: 10 - i for i, r in enumerate(RANK_ORDER)}
#: card value in thirds of a point (§2.5)
THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "N": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}
LOW_RANKS = frozenset("7654")
#: the compact signalled leads of the simulation interface, built once: (card, signal)
_SIGNALLED = {c: {sig: (c, sig) for sig in SIGNALS} for c in ITALIAN_40}
#: per card, its strength in its suit (trick_winner looks it up four times a trick)
_CARD_STRENGTH = {c: STRENGTH[c[0]] for c in ITALIAN_40}
#: per card, 1 if it is not of a low rank (a stroke lead allows at most itself among those, §10)
_HIGH = {c: int(c[0] not in LOW_RANKS) for c in ITALIAN_40}
HIGH_RANKS = frozenset("32AKNJ")
CARD_SET = frozenset(ITALIAN_40)
LAST_TRICK_THIRDS = 3
#: tricks in a hand (§6.1: 40 cards, 9 to each of 4 players, 4 in the monte)
TRICKS = 9
TARGET = 6
#: §8: what each defender pays/receives in a 1 v 3 hand (the Mediatore giver uses MEDIATORE_GIVER)
SOLO_BASE = {"chiamo": 4, "mediatore": 8, "solo": 12, "solissimo": 16, "arcisolissimo": 18}
MEDIATORE_GIVER = 6
CAPOTTO_BONUS = 2
EVENTS_SHOWN = 12


#: the keys under which an event holds a list (the rest of its values are scalars)
_EVENT_LISTS = ("cards", "payments", "totals")


def _event_copy(ev: dict[str, Any]) -> dict[str, Any]:
    """A copy of an event as ``_event`` stores it: scalars and flat lists."""
    return copy_with_lists(ev, _EVENT_LISTS)


def _hand_copy(h: dict[str, Any]) -> dict[str, Any]:
    """A copy of a hand summary as ``_finish_hand`` stores it (the view's ``last_hand``): its lists, the auction's
    pairs, the tricks' card lists and the counting cards are fresh (the engine's one is also a settlement's)."""
    out = dict(h)
    for k in ("monte", "discards", "final_monte", "bidder_side", "payments"):
        out[k] = list(h[k])
    out["bids"] = [list(b) for b in h["bids"]]
    out["tricks"] = [[ld, list(cards), w, sig] for ld, cards, w, sig in h["tricks"]]
    cc = h["counting_cards"]
    out["counting_cards"] = {"bidder_side": list(cc["bidder_side"]), "defenders": list(cc["defenders"])}
    return out


def card_thirds(cards: list[str] | tuple[str, ...]) -> int:
    return sum(map(_CARD_THIRDS.__getitem__, cards))


_CARD_THIRDS: dict[str, int] = {c: THIRDS[c[0]] for c in ITALIAN_40}
_SORT_KEYS: dict[str, tuple[int, int]] = {c: (SUIT_ORDER.index(c[1]), -STRENGTH[c[0]]) for c in ITALIAN_40}


def sort_key(card: str) -> tuple[int, int]:
    """Display order: suit (D C S B) then rank high to low."""
    return _SORT_KEYS[card]


def trick_winner(plays: list[tuple[int, str]] | tuple[tuple[int, str], ...]) -> int:
    """§6.3: the highest card of the led suit wins; other suits never win."""
    best_seat, first = plays[0]
    led = first[1]
    best = _CARD_STRENGTH[first]
    for s, c in plays:  # (the lead compares equal to itself: no slice to allocate)
        if c[1] == led and _CARD_STRENGTH[c] > best:
            best_seat, best = s, _CARD_STRENGTH[c]
    return best_seat


def payments(contract: str, bidder: int, partner: int | None, giver: int | None, won: bool, capotto: bool) -> list[int]:
    """Per-seat deltas of one hand in stake units (before the table's stake multiplier), §8."""
    out = [0, 0, 0, 0]
    bonus = CAPOTTO_BONUS if capotto else 0
    sign = 1 if won else -1
    if contract == "chiamo" and partner is not None:
        # §8 table + note 4: every individual stake grows by 2 on capotto.
        for s in range(4):
            if s == bidder:
                out[s] = sign * (5 + bonus)
            elif s == partner:
                out[s] = sign * (3 + bonus)
            else:
                out[s] = -sign * (4 + bonus)
        return out
    # §8 note 5: 1 v 3 (Chiamo alone included).
    for s in range(4):
        if s == bidder:
            continue
        base = MEDIATORE_GIVER if (contract == "mediatore" and s == giver) else SOLO_BASE[contract]
        out[s] = -sign * (base + bonus)
    out[bidder] = -sum(out)
    return out


class MediatoreGame(Game):
    game_id: ClassVar[str] = "mediatore"
    title: ClassVar[str] = "Mediatore"
    min_seats: ClassVar[int] = 4
    max_seats: ClassVar[int] = 4
    direction: ClassVar[Direction] = Direction.ANTICLOCKWISE
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "stake",
            1,
            lo=1,
            hi=1_000_000,
            help="Value of one stake unit; every payment is multiplied by it (default 1)",
        ),
        OptionSpec(
            "signals",
            True,
            choices=(True, False),
            help="Allow the trick leader's Knock / Fly / Stroke signals (default on)",
        ),
        OptionSpec("hands", 0, lo=0, hi=1000, help="Hands to play; 0 = until the host ends the session (default 0)"),
        OptionSpec(
            "show_history",
            False,
            choices=(True, False),
            help="Show every trick of the hand, not only the previous one (default off)",
        ),
        HINTS,
    )

    @classmethod
    def normalize_options(cls, options: Mapping[str, Any] | None, num_seats: int) -> dict[str, Any]:
        opts = super().normalize_options(options, num_seats)
        # ``1 in (True, False)`` passes the generic check; store real booleans.
        opts["signals"] = bool(opts["signals"])
        opts["show_history"] = bool(opts["show_history"])
        return opts

    # ------------------------------------------------------------------------------------------------
    def __init__(self, num_seats: int, options: Mapping[str, Any] | None, seed: int) -> None:
        self.options = self.normalize_options(options, num_seats)
        self._seed = seed
        self._stake: int = self.options["stake"]
        self._signals_on: bool = self.options["signals"]
        self._hands_limit: int = self.options["hands"]
        self._show_history: bool = self.options["show_history"]
        self._events: list[dict[str, Any]] = []
        self._settlements: list[Settlement] = []
        self._totals = [0, 0, 0, 0]
        self._played_hands = 0
        self._last_hand: dict[str, Any] | None = None
        self._hand_no = 0
        self._dealer = make_rng(seed, "first_dealer").randrange(4)  # §3.1
        self._search = False  # a search state (clone(for_search=True), determinize): no display events
        self._deal()

    # -- dealing ---------------------------------------------------------------------------------------
    def _deal(self) -> None:
        """§3.2-3.3: 3 rounds of 3 cards from the dealer's right; the last 4 cards are the monte."""
        d = shuffled(ITALIAN_40, make_rng(self._seed, "deal", self._hand_no))
        hands: list[list[str]] = [[], [], [], []]
        for r in range(3):
            for i in range(4):
                hands[(self._dealer + 1 + i) % 4].extend(d[12 * r + 3 * i : 12 * r + 3 * i + 3])
        self._hands = hands
        self._monte: list[str] = d[36:40]
        self._monte_orig: list[str] = list(self._monte)
        self._phase = "auction"
        self._auction: list[tuple[int, str | None]] = []
        self._high = -1
        self._bidder: int | None = None
        self._passes = 0
        self._turn = (self._dealer + 1) % 4
        self._contract: str | None = None
        self._called: str | None = None
        self._partner: int | None = None
        self._giver: int | None = None
        self._called_in_monte = False
        self._returned: str | None = None
        self._discards: list[str] = []
        self._exposed: list[str] = []
        self._partner_public = False
        self._leader = (self._dealer + 1) % 4  # §6.1
        self._plays: list[tuple[int, str]] = []
        self._lead_signal: str | None = None
        self._tricks: list[tuple[int, tuple[tuple[int, str], ...], int, str | None]] = []
        self._won: list[list[str]] = [[], [], [], []]
        self._voids: list[set[str]] = [set(), set(), set(), set()]
        self._suit_played: list[dict[str, int]] = [dict.fromkeys(SUIT_ORDER, 0) for _ in range(4)]
        # (seat, suit, cards of the suit that seat had played including the stroked lead)
        self._strokes: list[tuple[int, str, int]] = []
        self._event({"kind": "deal", "hand": self._hand_no, "dealer": self._dealer})

    def _event(self, ev: dict[str, Any]) -> None:
        if self._search:
            return  # nothing renders a search state
        self._events.append(ev)
        if len(self._events) > 4 * EVENTS_SHOWN:
            del self._events[:-EVENTS_SHOWN]

    # -- protocol basics -------------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return 4

    @property
    def hand_number(self) -> int:
        return self._hand_no

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def phase(self) -> str:
        return self._phase

    def _actor(self) -> int:
        """The one seat to act now, or -1 once the game is over (every phase has a single actor)."""
        ph = self._phase
        if ph == "play":
            return (self._leader + len(self._plays)) % 4
        if ph == "auction":
            return self._turn
        if ph == "over":
            return -1
        assert self._bidder is not None
        return self._bidder  # call / exchange

    def to_move(self) -> tuple[int, ...]:
        if self._phase == "play":  # (searches ask it per card)
            return ((self._leader + len(self._plays)) % 4,)
        a = self._actor()
        return () if a < 0 else (a,)

    def settlements(self) -> list[Settlement]:
        return list(self._settlements)

    def result(self) -> GameResult | None:
        if not self.is_over:
            return None
        return GameResult.from_totals("stake", self._totals)

    # -- legality helpers ------------------------------------------------------------------------------
    def _may_signal(self, seat: int) -> bool:
        """§10.4: no signals for a bidder publicly known to play alone; in Chiamo everyone may signal."""
        if not self._signals_on:
            return False
        return self._contract == "chiamo" or seat != self._bidder

    def _legal_signals(self, hand: list[str], card: str) -> list[str]:
        """§10 table, checked after the lead card has left the hand."""
        suit = card[1]
        rest = [c for c in hand if c[1] == suit and c != card]
        out = ["knock"]
        if not rest:
            out.append("fly")
        elif len(rest) <= 2 and all(c[0] in LOW_RANKS for c in rest):
            out.append("stroke")
        return out

    def _playable(self, seat: int) -> list[str]:
        hand = self._hands[seat]
        if not self._plays:
            return list(hand)
        led = self._plays[0][1][1]
        follow = [c for c in hand if c[1] == led]
        return follow or list(hand)

    def _exchange_fields(self) -> list[dict[str, Any]]:
        assert self._bidder is not None
        hand = sorted(self._hands[self._bidder], key=sort_key)
        fields: list[dict[str, Any]] = [{"key": "discard", "from": hand, "count": 4}]
        if self._contract == "mediatore" and self._giver is not None:
            fields.append({"key": "give", "from": hand, "count": 1})
        return fields

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self._actor():
            return []
        ph = self._phase
        if ph == "auction":
            return [{"type": "pass"}] + [{"type": "bid", "contract": c} for c in CONTRACTS[self._high + 1 :]]
        if ph == "call":
            hand = self._hands[seat]
            return [{"type": "call", "card": c} for c in ITALIAN_40 if c not in hand]
        if ph == "exchange":
            hand = sorted(self._hands[seat], key=sort_key)
            combos = combinations(hand, 4)
            if self._contract == "mediatore" and self._giver is not None:
                return [{"type": "discard", "discard": list(d), "give": g} for d in combos for g in hand if g not in d]
            return [{"type": "discard", "discard": list(d)} for d in combos]
        if ph == "play":
            cards = self._playable(seat)
            if self._plays or not self._may_signal(seat):
                return [{"type": "play", "card": c} for c in cards]
            out: list[Action] = []
            hand = self._hands[seat]
            for c in cards:
                out.append({"type": "play", "card": c})
                for sig in self._legal_signals(hand, c):
                    out.append({"type": "play", "card": c, "signal": sig})
            return out
        return []

    # -- apply -----------------------------------------------------------------------------------------
    def is_legal(self, seat: int, action: Action) -> bool:
        # apply() validates every field (e.g. the 4 discards in any order); trying it on a cheap clone keeps a
        # single source of truth instead of comparing against order-specific entries of legal_actions().
        try:
            self.clone().apply(seat, action)
        except IllegalAction:
            return False
        return True

    def apply(self, seat: int, action: Action) -> None:
        if not isinstance(action, dict):
            raise IllegalAction("unknown_action")
        if self._phase == "over":
            raise IllegalAction("game_over")
        if seat != self._actor():
            raise IllegalAction("not_your_turn")
        kind = action.get("type")
        ph = self._phase
        if ph == "auction":
            self._apply_auction(seat, kind, action)
        elif ph == "call":
            self._apply_call(seat, kind, action)
        elif ph == "exchange":
            self._apply_exchange(seat, kind, action)
        else:
            self._apply_play(seat, kind, action)

    def _apply_auction(self, seat: int, kind: Any, action: Action) -> None:
        if kind == "pass":
            # DECISION §4.4: a pass is not final; the seat keeps getting turns while the auction is open.
            self._auction.append((seat, None))
            self._event({"kind": "pass", "seat": seat})
            self._passes += 1
            self._turn = (seat + 1) % 4
            if self._high < 0 and self._passes == 4:
                self._throw_in()  # §4.6
            elif self._high >= 0 and self._passes == 3:
                self._end_auction()  # §4.5
            return
        if kind != "bid":
            raise IllegalAction("bid_or_pass")
        contract = action.get("contract")
        if not isinstance(contract, str) or contract not in CONTRACTS:
            raise IllegalAction("unknown_contract")
        level = CONTRACTS.index(contract)
        if level <= self._high:
            raise IllegalAction("bid_not_higher")
        self._auction.append((seat, contract))
        self._event({"kind": "bid", "seat": seat, "contract": contract})
        self._high = level
        self._bidder = seat
        self._passes = 0
        self._turn = (seat + 1) % 4
        if contract == "arcisolissimo":
            self._end_auction()  # §4.5: nothing can beat it

    def _throw_in(self) -> None:
        # §4.6 / DECISION §3.4: no payments, no settlement; the next dealer deals.
        # SILENT: a thrown-in hand does not count towards the ``hands`` option (only played, settled hands
        # do), but it does advance ``hand_number`` so the redeal uses a fresh ``make_rng(seed, "deal", n)``.
        self._event({"kind": "thrown_in", "hand": self._hand_no, "dealer": self._dealer})
        self._next_deal()

    def _end_auction(self) -> None:
        assert self._bidder is not None
        b = self._bidder
        self._contract = contract = CONTRACTS[self._high]
        self._event({"kind": "contract", "seat": b, "contract": contract})
        if contract in ("chiamo", "mediatore"):
            self._phase = "call"  # §4.7: the card is named after the auction
        elif contract == "solo":
            # §5.4 (DECISION §13.2: the bidder, not the dealer): monte exposed to everyone, the bidder takes it.
            self._exposed = list(self._monte)
            self._event({"kind": "monte_exposed", "cards": list(self._monte)})
            self._hands[b].extend(self._monte)
            self._monte = []
            self._phase = "exchange"
        else:
            # §5.5 Solissimo: the bidder's private look is in their view only; §5.6 Arcisolissimo: untouched.
            self._phase = "play"

    def _apply_call(self, seat: int, kind: Any, action: Action) -> None:
        if kind != "call":
            raise IllegalAction("call_a_card")
        card = action.get("card")
        if not isinstance(card, str) or card not in CARD_SET:
            raise IllegalAction("unknown_card")
        hand = self._hands[seat]
        if card in hand:
            raise IllegalAction("call_own_card", card=card)  # DECISION §5.1
        holder = next((s for s in range(4) if card in self._hands[s]), None)
        self._called = card
        self._called_in_monte = holder is None
        self._event({"kind": "call", "seat": seat, "card": card})
        if self._contract == "chiamo":
            # §5.2: secret partner (or none); the bidder always takes the monte (DECISION §5.2.2), unseen.
            self._partner = holder
            hand.extend(self._monte)
            self._monte = []
        else:
            # §5.3: the holder hands the card over (public), the monte is exposed, the bidder takes it.
            self._giver = holder
            if holder is not None:
                self._hands[holder].remove(card)
                hand.append(card)
                self._event({"kind": "handover", "seat": holder, "to": seat, "card": card})
            self._exposed = list(self._monte)
            self._event({"kind": "monte_exposed", "cards": list(self._monte)})
            hand.extend(self._monte)
            self._monte = []
        self._phase = "exchange"

    def _apply_exchange(self, seat: int, kind: Any, action: Action) -> None:
        if kind != "discard":
            raise IllegalAction("monte_choose")
        hand = self._hands[seat]
        # DECISION §13.1: exactly 4 cards go back, whatever the contract (any 4, §5.2.2 / §5.3.3).
        disc = action.get("discard")
        if (
            not isinstance(disc, (list, tuple))
            or not all(isinstance(c, str) for c in disc)
            or len(disc) != 4
            or len(set(disc)) != 4
        ):
            raise IllegalAction("monte_count", n=4)
        if any(c not in hand for c in disc):
            raise IllegalAction("discard_not_in_hand")
        give: str | None = None
        if self._contract == "mediatore" and self._giver is not None:
            # The combo UI sends a one-element field as a plain id; a one-element list is accepted too.
            g = action.get("give")
            if isinstance(g, (list, tuple)) and len(g) == 1:
                g = g[0]
            if not isinstance(g, str) or g not in hand:
                raise IllegalAction("give_back_choose")
            if g in disc:
                raise IllegalAction("give_back_in_monte", card=g)
            give = g
        elif action.get("give") is not None:
            raise IllegalAction("nobody_to_give")
        for c in disc:
            hand.remove(c)
        self._monte = list(disc)
        self._discards = list(disc)
        if give is not None:
            assert self._giver is not None
            hand.remove(give)
            self._hands[self._giver].append(give)
            self._returned = give
            self._event({"kind": "give_back", "seat": seat, "to": self._giver})
        self._event({"kind": "exchange", "seat": seat})
        self._phase = "play"

    def _apply_play(self, seat: int, kind: Any, action: Action) -> None:
        if kind != "play":
            raise IllegalAction("play_a_card")
        card = action.get("card")
        hand = self._hands[seat]
        if not isinstance(card, str) or card not in hand:
            raise IllegalAction("not_in_hand")
        plays = self._plays
        led = plays[0][1][1] if plays else None
        if led is not None and card[1] != led and any(c[1] == led for c in hand):
            raise IllegalAction("must_follow", suit=led)
        signal = action.get("signal")
        if signal is not None:
            if plays:
                raise IllegalAction("signal_leader_only")
            if not self._may_signal(seat):
                raise IllegalAction("signal_unavailable")
            if not isinstance(signal, str) or signal not in SIGNALS:
                raise IllegalAction("unknown_signal")
            if signal not in self._legal_signals(hand, card):
                raise IllegalAction("signal_untrue", signal=signal, card=card)  # §10.3
        self._play(seat, card, signal)

    def _play(self, seat: int, card: str, signal: str | None) -> None:
        """Play a card known to be legal (both interfaces end here, so they cannot drift apart)."""
        hand = self._hands[seat]
        plays = self._plays
        led = plays[0][1][1] if plays else None
        hand.remove(card)
        suit = card[1]
        self._suit_played[seat][suit] += 1
        if led is not None and suit != led:
            self._voids[seat].add(led)
        if not plays:
            self._lead_signal = signal
            if signal == "fly":
                self._voids[seat].add(suit)
            elif signal == "stroke":
                self._strokes.append((seat, suit, self._suit_played[seat][suit]))
        plays.append((seat, card))
        if not self._search:
            ev: dict[str, Any] = {"kind": "play", "seat": seat, "card": card, "trick": len(self._tricks)}
            if signal is not None:
                ev["signal"] = signal
            self._event(ev)
        if card == self._called and self._contract == "chiamo" and not self._partner_public:
            # §5.2.4: the partnership becomes public when the called card is played.
            # SILENT: if the bidder plays it (it came from the monte), that publicly shows "no partner".
            self._partner_public = True
            self._event(
                {
                    "kind": "partner_revealed",
                    "seat": seat if seat != self._bidder else None,
                    "bidder": self._bidder,
                    "card": card,
                    "alone": seat == self._bidder,
                }
            )
        if len(plays) == 4:
            self._finish_trick()

    def _finish_trick(self) -> None:
        plays = tuple(self._plays)
        winner = trick_winner(plays)
        self._tricks.append((self._leader, plays, winner, self._lead_signal))
        self._won[winner].extend((plays[0][1], plays[1][1], plays[2][1], plays[3][1]))  # (always 4 plays)
        if not self._search:
            self._event(
                {
                    "kind": "trick",
                    "leader": self._leader,
                    "cards": [c for _, c in plays],
                    "winner": winner,
                    "trick": len(self._tricks) - 1,
                }
            )
        self._plays = []
        self._lead_signal = None
        self._leader = winner
        if len(self._tricks) == TRICKS:
            self._finish_hand()

    # -- counting and settlement -----------------------------------------------------------------------
    def _bidder_side(self) -> tuple[int, ...]:
        assert self._bidder is not None
        if self._contract == "chiamo" and self._partner is not None:
            return (self._bidder, self._partner)
        return (self._bidder,)

    def _finish_hand(self) -> None:
        assert self._bidder is not None and self._contract is not None
        side = self._bidder_side()
        last_winner = self._tricks[-1][2]
        bidder_last = last_winner in side
        side_cards = [c for s in side for c in self._won[s]]
        def_cards = [c for s, won in enumerate(self._won) if s not in side for c in won]
        # §5.7 + §7.2 (DECISION §13.10): the monte and the last-trick bonus go to the last trick's side.
        if bidder_last:
            side_cards += self._monte
        else:
            def_cards += self._monte
        b_thirds = card_thirds(side_cards) + (LAST_TRICK_THIRDS if bidder_last else 0)
        d_thirds = card_thirds(def_cards) + (0 if bidder_last else LAST_TRICK_THIRDS)
        b_tricks = sum(1 for t in self._tricks if t[2] in side)
        capotto_side: str | None = None
        if b_tricks == 9:
            capotto_side = "bidder"
        elif b_tricks == 0:
            capotto_side = "defenders"
        b_score, d_score = b_thirds // 3, d_thirds // 3  # §2.6 floor
        if capotto_side == "bidder":
            b_score, d_score = 11, 0  # §7.4
        elif capotto_side == "defenders":
            b_score, d_score = 0, 11
        made = b_score >= TARGET
        capotto = capotto_side is not None
        base = payments(self._contract, self._bidder, self._partner, self._giver, made, capotto)
        amounts = [x * self._stake for x in base]
        for s in range(4):
            self._totals[s] += amounts[s]
        summary: dict[str, Any] = {
            "hand": self._hand_no,
            "dealer": self._dealer,
            "bids": [[s, c] for s, c in self._auction],
            "contract": self._contract,
            "bidder": self._bidder,
            "called_card": self._called,
            "partner": self._partner if self._contract == "chiamo" else None,
            "giver": self._giver,
            "called_in_monte": self._called_in_monte if self._called is not None else None,
            "monte": list(self._monte_orig),
            "discards": list(self._discards),
            "returned_card": self._returned,
            "final_monte": list(self._monte),
            "last_trick_winner": last_winner,
            # (every trick has 4 plays; spelt out, as a hand ends once per playout of a search)
            "tricks": [[ld, [pl[0][1], pl[1][1], pl[2][1], pl[3][1]], w, sig] for ld, pl, w, sig in self._tricks],
            "bidder_side": list(side),
            "counting_cards": {
                "bidder_side": sorted([c for c in side_cards if _CARD_THIRDS[c]], key=_SORT_KEYS.__getitem__),
                "defenders": sorted([c for c in def_cards if _CARD_THIRDS[c]], key=_SORT_KEYS.__getitem__),
            },
            "bidder_side_thirds": b_thirds,
            "defender_thirds": d_thirds,
            "bidder_side_points": b_score,
            "defender_points": d_score,
            "bidder_side_tricks": b_tricks,
            "made": made,
            "capotto": capotto,
            "capotto_side": capotto_side,
            "stake_unit": self._stake,
            "payments": amounts,
        }
        self._settlements.append(Settlement(len(self._settlements), {"stake": tuple(amounts)}, _hand_copy(summary)))
        self._last_hand = summary
        self._event(
            {
                "kind": "hand_end",
                "hand": self._hand_no,
                "contract": self._contract,
                "bidder": self._bidder,
                "partner": summary["partner"],
                "made": made,
                "capotto": capotto,
                "bidder_side_points": b_score,
                "payments": amounts,
            }
        )
        self._played_hands += 1
        if self._hands_limit and self._played_hands >= self._hands_limit:
            self._phase = "over"
            self._event({"kind": "game_over", "totals": list(self._totals)})
        else:
            self._next_deal()

    def _next_deal(self) -> None:
        self._hand_no += 1
        self._dealer = (self._dealer + 1) % 4  # §3.4
        self._deal()

    # -- views -----------------------------------------------------------------------------------------
    def _partner_status(self) -> tuple[str, int | None]:
        """Public partner info: ``("hidden", None)`` until the Chiamo called card is played."""
        if self._contract is None:
            return "undecided", None
        if self._contract != "chiamo":
            return "none", None
        if self._called is None or not self._partner_public:
            return "hidden", None
        if self._partner is None:
            return "none", None
        return "revealed", self._partner

    def public_view(self) -> View:
        status, partner = self._partner_status()
        cur = {
            "leader": self._leader,
            "plays": [[s, c] for s, c in self._plays],
            "signal": self._lead_signal,
        }
        last = None
        if self._tricks:
            ld, pl, w, sig = self._tricks[-1]
            last = {"leader": ld, "plays": [[s, c] for s, c in pl], "winner": w, "signal": sig}
        tricks_won = [0, 0, 0, 0]
        for t in self._tricks:
            tricks_won[t[2]] += 1
        v: dict[str, Any] = {
            "game": self.game_id,
            "phase": self._phase,
            "to_move": list(self.to_move()),
            "hand_number": self._hand_no,
            "dealer": self._dealer,
            "num_seats": 4,
            "options": dict(self.options),
            "auction": [[s, c] for s, c in self._auction],
            "high_bid": CONTRACTS[self._high] if self._high >= 0 else None,
            "high_bidder": self._bidder,
            "contract": self._contract,
            "bidder": self._bidder if self._contract is not None else None,
            "called_card": self._called,
            "partner": partner,
            "partner_status": status,
            # Mediatore: who handed the card over is public (§5.3.1), and so is "called card in the monte"
            # because the monte is exposed. In Chiamo both stay secret (§5.2.3).
            "giver": self._giver if self._contract == "mediatore" else None,
            "called_in_monte": (
                self._called_in_monte if self._contract == "mediatore" and self._called is not None else None
            ),
            "monte_exposed": list(self._exposed) if self._exposed else None,
            "monte_count": len(self._monte),
            "hand_sizes": [len(h) for h in self._hands],
            "trick": cur,
            "trick_number": len(self._tricks) + (1 if self._phase == "play" else 0),
            "last_trick": last,
            "tricks_won": tricks_won,
            "totals": list(self._totals),
            "hands_played": self._played_hands,
            "hands_limit": self._hands_limit,
            "last_hand": _hand_copy(self._last_hand) if self._last_hand is not None else None,
            "events": self._public_events(),
        }
        if self._show_history:
            # §11.2: the table option reveals older tricks and running card points (thirds) per seat.
            v["history"] = [
                {"leader": ld, "plays": [[s, c] for s, c in pl], "winner": w, "signal": sig}
                for ld, pl, w, sig in self._tricks
            ]
            v["thirds_won"] = [card_thirds(self._won[s]) for s in range(4)]
        return v

    def _public_events(self) -> list[dict[str, Any]]:
        """The recent events; during play without ``show_history`` (§11.2) the cards of tricks older than the
        last completed one are left out (who won each trick stays). Copies: a caller may change its view."""
        events = self._events[-EVENTS_SHOWN:]
        if self._show_history or self._phase != "play":
            return [_event_copy(e) for e in events]
        start = max((i for i, e in enumerate(events) if e["kind"] == "deal"), default=0)  # this hand's events
        last = len(self._tricks) - 1
        out = [_event_copy(e) for e in events[:start]]
        for e in events[start:]:
            if e["kind"] in ("play", "trick") and e["trick"] < last:
                if e["kind"] == "play":
                    continue
                out.append({k: x for k, x in e.items() if k != "cards"})  # (the rest are scalars)
                continue
            out.append(_event_copy(e))
        return out

    def view(self, seat: int) -> View:
        v = self.public_view()
        v["seat"] = seat
        v["hand"] = sorted(self._hands[seat], key=sort_key)
        v["role"] = self._role(seat)
        priv: dict[str, Any] = {}
        b = self._bidder
        c = self._contract
        if seat == b and c is not None:
            if c == "chiamo" and self._called is not None:
                priv["monte_seen"] = list(self._monte_orig)
            if c == "solissimo":
                priv["monte_seen"] = list(self._monte)  # §5.5: private look, DM only
            if self._discards:
                priv["discards"] = list(self._discards)
            if self._returned is not None:
                priv["given_back"] = self._returned
        if c == "mediatore" and seat == self._giver and self._returned is not None:
            priv["received"] = self._returned
        v["private"] = priv
        # SILENT: every player watched every trick of this hand, so a seat's view carries that memory
        # (completed tricks and publicly shown voids). Renderers do not display it (§11.2: older tricks
        # are face down); computer players use it the way an attentive human remembers the cards.
        v["memory"] = {
            "tricks": [[ld, [x for _, x in pl], w, sig] for ld, pl, w, sig in self._tricks],
            "voids": [sorted(vs) for vs in self._voids],
        }
        v["prompt"] = self._prompt(seat)
        return v

    def card_play_view(self, seat: int) -> View:
        """The part of ``view(seat)`` a computer player reads to play a card (the same values under the same keys;
        of ``trick``, ``memory`` and ``private`` only ``plays``, ``tricks`` and ``discards`` / ``monte_seen``): a
        search builds it for every simulated card, where the whole view cost more than the rest of the playout."""
        status, partner = self._partner_status()
        priv: dict[str, Any] = {}
        b, c = self._bidder, self._contract
        if seat == b and c is not None:
            if c == "chiamo" and self._called is not None:
                priv["monte_seen"] = list(self._monte_orig)
            if c == "solissimo":
                priv["monte_seen"] = list(self._monte)
            if self._discards:
                priv["discards"] = list(self._discards)
        return {
            "seat": seat,
            "hand": sorted(self._hands[seat], key=sort_key),
            "role": self._role(seat),
            "contract": c,
            "bidder": b if c is not None else None,
            "called_card": self._called,
            "partner": partner,
            "partner_status": status,
            "trick": {"plays": [[s, x] for s, x in self._plays]},
            "memory": {"tricks": [[ld, [x for _, x in pl], w, sig] for ld, pl, w, sig in self._tricks]},
            "private": priv,
        }

    def _role(self, seat: int) -> dict[str, Any] | None:
        c = self._contract
        b = self._bidder
        if c is None or b is None:
            return None
        if seat == b:
            role: dict[str, Any] = {"side": "bidder"}
            if c != "chiamo":
                role["alone"] = True
            elif self._called is not None:
                role["alone"] = self._called_in_monte
                if self._called_in_monte:
                    role["note"] = "called card in the monte: you play alone"
            return role
        if c == "chiamo":
            if self._called is None:
                return None
            if seat == self._partner:
                return {"side": "partner", "partner_of": b}
            return {"side": "defender"}
        return {"side": "defender"}

    def _prompt(self, seat: int) -> dict[str, Any] | None:
        if seat != self._actor():
            return None
        if self._phase == "exchange":
            return {"kind": "combo", "type": "discard", "fields": self._exchange_fields(), "fixed": {}}
        return {"kind": "pick", "actions": self.legal_actions(seat)}

    # -- search support --------------------------------------------------------------------------------
    @property
    def open_ended(self) -> bool:
        return self.options["hands"] == 0

    def sides(self) -> list[int] | None:
        if self._bidder is None:
            return None
        return [0 if s in (self._bidder, self._partner) else 1 for s in range(self.num_seats)]

    def sides_public(self) -> bool:
        return self._partner_status()[0] != "hidden"

    def num_settlements(self) -> int:
        return len(self._settlements)

    def hand_size(self, seat: int) -> int:
        return len(self._hands[seat])

    # the simulation interface: a play is its card id, ``(card, signal)`` with a signal; the other decisions keep
    # their display actions
    def sim_legal(self, seat: int) -> list[Move]:
        if self._phase != "play":
            return self.legal_actions(seat)  # type: ignore[return-value]
        plays = self._plays
        if seat != (self._leader + len(plays)) % 4:
            return []
        hand = self._hands[seat]
        if plays:  # _playable: follow suit if possible
            led = plays[0][1][1]
            return [c for c in hand if c[1] == led] or list(hand)
        if not self._may_signal(seat):
            return list(hand)
        # _legal_signals for every card of the hand at once: per suit, its cards and those not of a low rank
        # counted once; a stroke needs 1 or 2 other cards of the suit, all low
        out: list[Move] = []
        count: dict[str, int] = {}
        high: dict[str, int] = {}
        for c in hand:
            suit = c[1]
            count[suit] = count.get(suit, 0) + 1
            high[suit] = high.get(suit, 0) + _HIGH[c]
        for c in hand:
            sig = _SIGNALLED[c]
            n = count[c[1]]
            if n == 1:
                out += (c, sig["knock"], sig["fly"])
            elif n <= 3 and high[c[1]] == _HIGH[c]:
                out += (c, sig["knock"], sig["stroke"])
            else:
                out += (c, sig["knock"])
        return out

    def sim_apply(self, seat: int, move: Move) -> None:
        if type(move) is str:
            self._play(seat, move, None)
        elif type(move) is tuple:
            self._play(seat, move[0], move[1])
        else:
            self.apply(seat, move)

    def sim_action(self, move: Move) -> Action:
        if type(move) is str:
            return {"type": "play", "card": move}
        if type(move) is tuple:
            return {"type": "play", "card": move[0], "signal": move[1]}
        return move  # type: ignore[no-any-return]

    def sim_move(self, action: Action) -> Move:
        if action.get("type") != "play":
            return action
        sig = action.get("signal")
        return action["card"] if sig is None else (action["card"], sig)

    def clone(self, for_search: bool = False) -> MediatoreGame:
        g = object.__new__(MediatoreGame)
        g._search = for_search or self._search
        g.options = self.options
        g._seed = self._seed
        g._stake = self._stake
        g._signals_on = self._signals_on
        g._hands_limit = self._hands_limit
        g._show_history = self._show_history
        # a search state never logs an event, so its clones may share its (frozen) list
        g._events = self._events if self._search else self._events[-EVENTS_SHOWN:]
        g._settlements = list(self._settlements)
        g._totals = list(self._totals)
        g._played_hands = self._played_hands
        g._last_hand = self._last_hand
        g._hand_no = self._hand_no
        g._dealer = self._dealer
        g._hands = [list(h) for h in self._hands]
        g._monte = list(self._monte)
        g._monte_orig = list(self._monte_orig)
        g._phase = self._phase
        g._auction = list(self._auction)
        g._high = self._high
        g._bidder = self._bidder
        g._passes = self._passes
        g._turn = self._turn
        g._contract = self._contract
        g._called = self._called
        g._partner = self._partner
        g._giver = self._giver
        g._called_in_monte = self._called_in_monte
        g._returned = self._returned
        g._discards = list(self._discards)
        g._exposed = list(self._exposed)
        g._partner_public = self._partner_public
        g._leader = self._leader
        g._plays = list(self._plays)
        g._lead_signal = self._lead_signal
        g._tricks = list(self._tricks)
        g._won = [list(w) for w in self._won]
        g._voids = [set(v) for v in self._voids]
        g._suit_played = [dict(d) for d in self._suit_played]
        g._strokes = list(self._strokes)
        return g

    def _monte_known_to(self, seat: int) -> bool:
        """Whether ``seat`` knows every card of the current monte."""
        c = self._contract
        if seat != self._bidder or c is None:
            return False
        if c in ("chiamo", "mediatore", "solo"):
            return self._phase in ("exchange", "play")  # the bidder built it (empty during the exchange)
        return c == "solissimo"

    def determinize(self, seat: int, rng: random.Random) -> MediatoreGame:
        g = self.clone(for_search=True)
        if self._phase == "over":
            return g
        c = self._contract
        b = self._bidder
        capacities: dict[Any, int] = {}
        hidden: list[str] = []
        for p in range(4):
            if p != seat:
                hidden.extend(self._hands[p])
                capacities[p] = len(self._hands[p])
        monte_hidden = bool(self._monte) and not self._monte_known_to(seat)
        if monte_hidden:
            hidden.extend(self._monte)
            capacities["monte"] = len(self._monte)
        if not hidden:
            return g
        hidden.sort()  # the sample depends on which cards are hidden, never on where they really are
        # Cards publicly known to be among the bidder's cards, the new monte or (one of them) the giver's.
        restricted: set[str] = set()
        places_r: set[Any] = set()
        giver_cap = False
        if c in ("mediatore", "solo") and self._exposed and seat != b:
            restricted = set(self._exposed)
            if c == "mediatore" and self._called is not None:
                restricted.add(self._called)
            places_r = {b, "monte"}
            if c == "mediatore" and self._giver is not None and self._returned is not None:
                if seat == self._giver:
                    restricted.discard(self._returned)  # the giver knows the one card they received
                else:
                    places_r.add(self._giver)
                    giver_cap = True
        # Cards whose place ``seat`` knows although it cannot see them: the card the Mediatore bidder
        # gave back is in the giver's hand.
        pinned: dict[str, Any] = {}
        if c == "mediatore" and seat == b and self._returned is not None and self._giver is not None:
            pinned[self._returned] = self._giver
        voids = self._voids
        stroke_high = {(p, s) for p, s, _ in self._strokes}

        def allowed(place: Any, card: str) -> bool:
            if card in pinned:
                return place == pinned[card]
            if card in restricted and place not in places_r:
                return False
            if place == "monte":
                return True
            suit = card[1]
            if suit in voids[place]:
                return False
            return not ((place, suit) in stroke_high and card[0] in HIGH_RANKS)

        # Count constraints are met by placing those cards first: a Stroke says the leader kept 1-2 low
        # cards of the suit (§10), and the Mediatore giver received at most one of the bidder's known cards.
        ranges: dict[tuple[int, str], list[int]] = {}
        for p, suit, n0 in self._strokes:
            if p == seat:
                continue
            later = self._suit_played[p][suit] - n0
            r = ranges.setdefault((p, suit), [0, 2])
            r[0] = max(r[0], 1 - later)
            r[1] = min(r[1], 2 - later)
        gv = self._giver if giver_cap else None
        giver_room = 0
        if gv is not None:
            giver_room = 1 - sum(1 for t in self._tricks for s, x in t[1] if s == gv and x in restricted)
            giver_room -= sum(1 for s, x in self._plays if s == gv and x in restricted)
        closed: set[tuple[Any, str]] = set()
        closed_giver = [False]

        def allowed2(place: Any, card: str) -> bool:
            if not allowed(place, card):
                return False
            if place == "monte":
                return True
            if (place, card[1]) in closed:
                return False
            return not (closed_giver[0] and place == gv and card in restricted)

        deal: dict[Any, list[str]] | None = None
        for _ in range(40):
            closed.clear()
            closed_giver[0] = False
            pre: dict[Any, list[str]] = {k: [] for k in capacities}
            room = dict(capacities)
            taken: set[str] = set()
            ok = True
            for (p, suit), (lo, hi) in ranges.items():
                cands = [x for x in hidden if x[1] == suit and x not in taken and allowed(p, x)]
                top = min(hi, len(cands), room[p])
                if max(lo, 0) > top:
                    ok = False
                    break
                chosen = rng.sample(cands, rng.randint(max(lo, 0), top))
                pre[p].extend(chosen)
                taken.update(chosen)
                room[p] -= len(chosen)
                closed.add((p, suit))
            if ok and gv is not None:
                left = giver_room - sum(1 for x in pre[gv] if x in restricted)
                cands = [x for x in hidden if x in restricted and x not in taken and allowed2(gv, x)]
                if left < 0:
                    ok = False
                elif left > 0 and cands and room[gv] > 0 and rng.random() < 0.5:
                    x = rng.choice(cands)
                    pre[gv].append(x)
                    taken.add(x)
                    room[gv] -= 1
                closed_giver[0] = True
            if not ok:
                continue
            try:
                rest = deal_constrained([x for x in hidden if x not in taken], room, allowed2, rng)
            except NoConsistentDeal:
                continue
            deal = {k: pre[k] + rest[k] for k in capacities}
            break
        if deal is None:  # pragma: no cover - fall back to the constraints that need no counting
            try:
                deal = deal_constrained(hidden, capacities, allowed, rng)
            except NoConsistentDeal:
                return g
        for p in range(4):
            if p != seat:
                g._hands[p] = deal[p]
        if monte_hidden:
            g._monte = deal["monte"]
            if c in ("chiamo", "mediatore", "solo") and self._phase == "play":
                g._discards = list(g._monte)
            if c in (None, "solissimo", "arcisolissimo") or self._phase in ("auction", "call"):
                g._monte_orig = list(g._monte)
        # Re-derive the secret Chiamo partnership from where the called card landed.
        partner_unknown = seat != self._partner and not (seat == b and self._called_in_monte)
        if c == "chiamo" and self._called is not None and not self._partner_public and partner_unknown:
            holder = next((p for p in range(4) if p != b and self._called in g._hands[p]), None)
            g._partner = holder
            g._called_in_monte = holder is None
        if c == "mediatore" and self._returned is not None and seat not in (b, self._giver):
            gv = self._giver
            assert gv is not None
            pool = [x for x in g._hands[gv] if x in restricted] or g._hands[gv] or [self._returned]
            g._returned = rng.choice(pool)
        return g

    # -- testing helper --------------------------------------------------------------------------------
    @classmethod
    def _for_test(
        cls,
        hands: list[list[str]],
        monte: list[str],
        dealer: int = 3,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> MediatoreGame:
        """A game whose first hand is the given deal (auction about to start, seat ``dealer+1`` first)."""
        g = cls(4, options, seed)
        allc = [c for h in hands for c in h] + list(monte)
        if sorted(allc) != sorted(ITALIAN_40) or any(len(h) != 9 for h in hands) or len(monte) != 4:
            raise ValueError("not a valid Mediatore deal")
        g._dealer = dealer
        g._events = []
        g._deal()
        g._hands = [list(h) for h in hands]
        g._monte = list(monte)
        g._monte_orig = list(monte)
        return g

"""Minchiate (Florentine tarot, 97 cards, 4 players in two partnerships) — the rules engine.

Implements ``docs/rules/minchiate.md`` (Cardavia's codification): automatic (or manual) cut with
the cutter's robbing, the 10 + 11 deal with four exposed 21st cards, the Fola, the dealer's robbing and
taking, simultaneous discards, simultaneous declarations of combinations, the Fola reveal, 21 tricks with
the king rule and the Matto, and scoring with resti converted every 60 points during play (§8).

Seats are numbered in playing order (anticlockwise); team A = seats 0 and 2, team B = seats 1 and 3.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from bot.engine.cards import MATTO, MINCHIATE_97
from bot.engine.errors import IllegalAction
from bot.engine.protocol import HINTS, Action, CardIdMoves, GameResult, OptionSpec, Settlement, View, copy_with_lists
from bot.engine.rng import make_rng, shuffled
from bot.engine.sampling import deal_constrained
from bot.engine.seats import Direction
from bot.engine.tricks import Trick

from .rules import (
    _DISPLAY_RANK,
    DISCARDABLE,
    POINTS,
    ROBBABLE,
    STRENGTH,
    SUIT,
    SUIT_ORDER,
    TAKEABLE,
    TRUMP,
    combo_points,
    combos_total,
    combos_with_values,
    find_combos,
    matto_payment_key,
    sort_hand,
)

TEAMS = "AB"
CUT_MIN, CUT_MAX = 4, 93  # DECISION M-2: at least 4 cards in each packet
MAX_CUTTER_ROB = 13
#: tricks in a deal (§3.3: 21 cards to each of 4 players, kept at 21 by the discards; the Fola takes no part)
TRICKS = 21
#: a discard prompt becomes a one-card-at-a-time pick above this many discardable cards (select limit)
MAX_COMBO_OPTIONS = 25
#: narrative events kept in the state (views show the last 12)
EVENT_KEEP = 24
VIEW_EVENTS = 12
#: declaration prompts list every subset up to this many combinations (2**4 = 16 choices)
FULL_SUBSETS_MAX = 4
#: the display order's sort key and each suit's King, precomputed for the simulation interface
_RANK = _DISPLAY_RANK.__getitem__
_KING = {s: s + "K" for s in set(SUIT.values()) if s != TRUMP}
#: matto_payment_key of every card, looked up (a deal's end picks the Matto payment from a whole pile)
_MATTO_KEY = {c: matto_payment_key(c) for c in MINCHIATE_97 if c != MATTO}.__getitem__


def _combo_copy(c: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a combination as ``combos_with_values`` builds it (``type``, ``cards``, ``value``)."""
    return {"type": c["type"], "cards": list(c["cards"]), "value": c["value"]}


#: the keys under which an event or a score event holds a flat list (of cards, or the resti per team)
_EVENT_LISTS = ("cards", "robbed", "resti")


def _event_copy(ev: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of an event as ``_push`` stores it, or of a ``_score_events`` entry: its flat lists, and the nested
    shapes some kinds carry (declared combinations, a trick's plays, the end-of-deal parts per team)."""
    out = copy_with_lists(ev, _EVENT_LISTS)
    if "combos" in ev:
        out["combos"] = [_combo_copy(c) for c in ev["combos"]]
    if "plays" in ev:
        out["plays"] = [[s, c] for s, c in ev["plays"]]
    if "end" in ev:
        out["end"] = {t: dict(p) for t, p in ev["end"].items()}
    return out


def _deal_copy(d: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a deal summary as ``_end_deal`` stores it (the view's ``last_deal``; the engine's one is also a
    settlement's): its score events, per-team dicts and last trick are fresh."""
    out = dict(d)
    out["events"] = [_event_copy(e) for e in d["events"]]
    out["end"] = {t: dict(p) for t, p in d["end"].items()}
    out["resti"], out["piles"] = dict(d["resti"]), dict(d["piles"])
    lt = d["last_trick"]
    if lt is not None:
        out["last_trick"] = {"leader": lt["leader"], "plays": [[s, c] for s, c in lt["plays"]], "winner": lt["winner"]}
    return out


def combo_points_sum(cards: list[str]) -> int:
    return sum(combo_points(c) for c in cards)


def team_of(seat: int) -> int:
    return seat % 2


def winner_of(plays: list[tuple[int, str]]) -> int:
    """§7.5: highest trump, else highest card of the led suit (the first non-Matto card's suit)."""
    best_seat = -1
    best = -1
    led = None
    for s, c in plays:
        if c == MATTO:
            continue
        suit = SUIT[c]
        if led is None:
            led = suit
        if suit == TRUMP:
            st = STRENGTH[c] + 1000
        elif suit == led:
            st = STRENGTH[c]
        else:
            continue
        if st > best:
            best, best_seat = st, s
    return best_seat


class MinchiateGame(CardIdMoves):
    game_id: ClassVar[str] = "minchiate"
    title: ClassVar[str] = "Minchiate"
    min_seats: ClassVar[int] = 4
    max_seats: ClassVar[int] = 4
    direction: ClassVar[Direction] = Direction.ANTICLOCKWISE
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("deals_per_game", 1, choices=(1, 4), help="1 deal (default) or 4 (every seat deals once)"),
        OptionSpec(
            "manual_cut", False, choices=(False, True), help="The cutter chooses how deep to cut (default: automatic)"
        ),
        OptionSpec("stake_per_resto", 0, lo=0, hi=1_000_000, help="Stake units per resto (default 0: resti only)"),
        HINTS,
    )

    def __init__(self, num_seats: int, options: Mapping[str, Any] | None, seed: int) -> None:
        self.options = self.normalize_options(options, num_seats)
        self._seed = seed
        self._n = num_seats
        self._deal_no = 0
        self._dealer = make_rng(seed, "first_dealer").randrange(4)
        self._settlements: list[Settlement] = []
        self._totals = [0, 0, 0, 0]
        self._events: list[dict[str, Any]] = []
        self._last_deal: dict[str, Any] | None = None
        self._search = False  # a search state (clone(for_search=True), determinize): no display events
        self._start_deal(0)

    # ------------------------------------------------------------------ deal set-up (§3)
    def _reset_deal_state(self) -> None:
        self._phase = "cut"
        self._pack: list[str] = []
        self._cut_k: int | None = None
        self._hands: list[list[str]] = [[], [], [], []]
        self._robbed_cut: list[str] = []
        self._exposed: list[str | None] = [None, None, None, None]
        self._robbed_deal: list[str] = []
        self._stop_card: str | None = None
        self._taken: list[str] = []
        self._fola_rest: list[str] = []
        self._fola: list[str] | None = None  # the revealed Fola (§6)
        self._disc: dict[int, list[str]] = {}
        self._need: dict[int, int] = {}
        self._combos: list[list[dict[str, Any]]] = [[], [], [], []]
        self._choice: list[list[int] | None] = [None, None, None, None]
        self._declared: list[list[dict[str, Any]]] = [[], [], [], []]
        self._trick: Trick | None = None
        self._last_trick: Trick | None = None
        self._trick_count = 0
        self._led: str | None = None
        self._first_lead = False
        self._trump_in_trick = False
        self._led_before: set[str] = set()
        self._piles: list[list[str]] = [[], []]
        self._tricks_won = [0, 0, 0, 0]
        self._matto_debt: int | None = None  # the team that owes one card (§7.6)
        self._voids: list[set[str]] = [set(), set(), set(), set()]
        self._not_cards: list[set[str]] = [set(), set(), set(), set()]
        self._diff = 0
        self._resti = [0, 0]
        self._score_events: list[dict[str, Any]] = []
        self._event_points = [0, 0]  # points scored during the deal per team (the events, not the end scores)

    @property
    def cutter(self) -> int:
        return (self._dealer + 3) % 4

    def _start_deal(self, attempt: int) -> None:
        self._reset_deal_state()
        self._attempt = attempt
        rng = make_rng(self._seed, "deal", self._deal_no, attempt)
        self._pack = shuffled(MINCHIATE_97, rng)
        if self.options["manual_cut"]:
            self._phase = "cut"
            return
        k = make_rng(self._seed, "cut", self._deal_no, attempt).randint(CUT_MIN, CUT_MAX)
        self._do_cut(k)

    def _do_cut(self, k: int) -> None:
        D, cutter = self._dealer, self.cutter
        self._cut_k = k
        upper, lower = self._pack[:k], self._pack[k:]
        # §3.2: rob from the bottom of the upper packet, stop at the first non-robbable card (M-3)
        robbed: list[str] = []
        while upper and len(robbed) < MAX_CUTTER_ROB and upper[-1] in ROBBABLE:
            robbed.append(upper.pop())
        self._robbed_cut = robbed
        # SILENT: the card that stopped the cutter's robbing is seen by the cutter only and is then dealt
        # like any other card, so it is not shown to the table (the dealer's stop card is, §3.5).
        self._push({"kind": "cut", "seat": cutter, "k": k, "robbed": list(robbed)})
        self._score(team_of(cutter), sum(POINTS[c] for c in robbed), "robbing", seat=cutter, cards=list(robbed))
        P = lower + upper
        self._pack = []
        # §3.3: packets of 10 then 11, from D+1 round to the dealer; the 21st card is exposed (M-4)
        order = [(D + i) % 4 for i in range(1, 5)]
        pos = 0
        for size in (10, 11):
            for s in order:
                self._hands[s].extend(P[pos : pos + size])
                pos += size
        for s in order:
            card = self._hands[s][-1]
            self._exposed[s] = card
            self._push({"kind": "exposed", "seat": s, "card": card})
        for s in order:
            shown = self._exposed[s]
            assert shown is not None
            self._score(team_of(s), POINTS[shown], "exposed card", seat=s, cards=[shown])
        self._hands[cutter].extend(robbed)
        fola = P[pos:]
        # §3.5: the dealer robs from the top of the Fola
        rd: list[str] = []
        while fola and fola[0] in ROBBABLE:
            rd.append(fola.pop(0))
        self._robbed_deal = rd
        self._stop_card = fola[0] if fola else None
        self._push({"kind": "dealer_robbing", "seat": D, "robbed": list(rd), "stop": self._stop_card})
        self._score(team_of(D), sum(POINTS[c] for c in rd), "robbing", seat=D, cards=list(rd))
        # §3.6 + M-5/M-6: take every counting card and T29, without scoring
        taken = [c for c in fola if c in TAKEABLE]
        self._taken = taken
        self._fola_rest = [c for c in fola if c not in TAKEABLE]
        if taken:
            self._push({"kind": "taken", "seat": D, "cards": list(taken)})
        self._hands[D].extend(rd)
        self._hands[D].extend(taken)
        self._need = {}
        self._disc = {}
        if robbed:
            self._need[cutter] = len(robbed)
            self._disc[cutter] = []
        if rd or taken:
            self._need[D] = len(rd) + len(taken)
            self._disc[D] = []
        for s, k_need in self._need.items():
            if sum(1 for c in self._hands[s] if c in DISCARDABLE) < k_need:
                # DECISION M-8: impossible discard -> annul and redeal with the same dealer
                self._push({"kind": "redeal", "seat": s})
                self._start_deal(self._attempt + 1)
                return
        if self._need:
            self._phase = "discard"
        else:
            self._begin_declare()

    def _begin_declare(self) -> None:
        self._phase = "declare"
        for s in range(4):
            self._combos[s] = combos_with_values(self._hands[s])
        self._choice = [None, None, None, None]

    def _resolve_declarations(self) -> None:
        order = [(self._dealer + i) % 4 for i in range(1, 5)]
        for s in order:
            picked = self._choice[s] or []
            combos = [self._combos[s][i] for i in picked]
            self._declared[s] = combos
            if combos:
                matto = MATTO in self._hands[s] and any(MATTO not in c["cards"] for c in combos)
                pts = sum(int(c["value"]) for c in combos)
                self._push({"kind": "declared", "seat": s, "combos": combos, "matto_bonus": matto, "points": pts})
                self._score(team_of(s), pts, "declaration", seat=s, combos=combos, matto_bonus=matto)
        # §6 + M-7: the Fola (left-over cards and every discard) is turned face up. Sorted: in deal order it
        # would show which cards each player discarded (and so the voids they made), which §10 keeps private.
        fola = sort_hand([*self._fola_rest, *(c for s in sorted(self._disc) for c in self._disc[s])])
        self._fola = fola
        self._push({"kind": "fola", "cards": list(fola)})
        self._phase = "play"
        self._trick = Trick((self._dealer + 1) % 4)

    # ------------------------------------------------------------------ scoring (§8)
    def _push(self, ev: dict[str, Any]) -> None:
        if self._search:
            return  # nothing renders a search state
        self._events.append(ev)
        if len(self._events) > EVENT_KEEP:
            del self._events[: len(self._events) - EVENT_KEEP]

    def _score(self, team: int, points: int, reason: str, **info: Any) -> None:
        """One scoring event, then the §8.1 conversion of every full 60 of difference into a resto."""
        if points <= 0:
            # SILENT: a scoring event worth 0 (e.g. robbing only zero-point trumps) is not recorded;
            # it cannot change the difference or the resti.
            return
        self._diff += points if team == 0 else -points
        self._event_points[team] += points
        converted = False
        while self._diff >= 60:
            self._resti[0] += 1
            converted = True
            self._diff -= 60
        while self._diff <= -60:
            self._resti[1] += 1
            converted = True
            self._diff += 60
        ev = {"reason": reason, "team": TEAMS[team], "points": points, **info, "diff": self._diff}
        if converted:
            ev["resti"] = list(self._resti)
        self._score_events.append(ev)
        if not self._search:
            self._push({"kind": "score", **ev})

    def _end_deal(self) -> None:
        # §8.3 Matto settlement
        if self._matto_debt is not None:
            debtor = self._matto_debt
            other = 1 - debtor
            pile = self._piles[debtor]
            candidates = [c for c in pile if c != MATTO]
            given = min(candidates, key=_MATTO_KEY) if candidates else MATTO
            pile.remove(given)
            self._piles[other].append(given)
            self._push({"kind": "matto_paid", "team": TEAMS[debtor], "to": TEAMS[other], "card": given})
            self._matto_debt = None
        # §8.4 end-of-deal scores
        last_team = team_of(self._last_trick.winner) if self._last_trick and self._last_trick.winner is not None else 0
        end: list[dict[str, int]] = []
        for t in (0, 1):
            pile = self._piles[t]
            parts = {
                "cards": sum(map(POINTS.__getitem__, pile)),
                "combinations": combos_total(pile),
                "card_count": max(0, len(pile) - 42),
                "last_trick": 10 if t == last_team else 0,
            }
            parts["total"] = sum(parts.values())
            end.append(parts)
        net = end[0]["total"] - end[1]["total"]
        # DECISION M-16: netted into one step, then ceil(|diff| / 60) resti to the leader (§8.5)
        self._diff += net
        final_diff = self._diff
        # the deal's whole point difference (A - B): resti converted during play are 60 points each
        points_diff = 60 * (self._resti[0] - self._resti[1]) + final_diff
        if net:
            self._score_events.append(
                {
                    "reason": "end of deal",
                    "team": TEAMS[0 if net > 0 else 1],
                    "points": abs(net),
                    "end": {"A": end[0], "B": end[1]},
                    "diff": final_diff,
                }
            )
        if final_diff > 0:
            self._resti[0] += math.ceil(final_diff / 60)
        elif final_diff < 0:
            self._resti[1] += math.ceil(-final_diff / 60)
        net_a = self._resti[0] - self._resti[1]
        per_seat = tuple(net_a if team_of(s) == 0 else -net_a for s in range(4))
        amounts: dict[str, tuple[int, ...]] = {"resto": per_seat}
        stake = self.options["stake_per_resto"]
        if stake > 0:
            amounts["stake"] = tuple(x * stake for x in per_seat)
        summary = {
            "deal": self._deal_no,
            "dealer": self._dealer,
            "cutter": self.cutter,
            "events": list(self._score_events),
            "end": {"A": end[0], "B": end[1]},
            "final_diff": final_diff,
            "points_diff": points_diff,
            "resti": {"A": self._resti[0], "B": self._resti[1]},
            "net_A": net_a,
            "winner": "A" if net_a > 0 else "B" if net_a < 0 else None,
            "piles": {"A": len(self._piles[0]), "B": len(self._piles[1])},
            "last_trick": self._last_trick.to_json() if self._last_trick else None,
        }
        self._settlements.append(Settlement(len(self._settlements), amounts, _deal_copy(summary)))
        for s in range(4):
            self._totals[s] += per_seat[s]
        self._last_deal = summary
        if not self._search:  # (nothing renders a search state: the event is not even built)
            self._push(
                {
                    "kind": "deal_end",
                    "deal": self._deal_no,
                    "resti": [self._resti[0], self._resti[1]],
                    "net_A": net_a,
                    "final_diff": final_diff,
                }
            )
        if self._deal_no + 1 < self.options["deals_per_game"]:
            # M-1: the deal passes to the right (next seat in playing order)
            self._deal_no += 1
            self._dealer = (self._dealer + 1) % 4
            self._start_deal(0)
        else:
            self._phase = "done"

    # ------------------------------------------------------------------ protocol
    @property
    def num_seats(self) -> int:
        return self._n

    @property
    def hand_number(self) -> int:
        return self._deal_no

    @property
    def is_over(self) -> bool:
        return self._phase == "done"

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def dealer(self) -> int:
        return self._dealer

    def to_move(self) -> tuple[int, ...]:
        ph = self._phase
        if ph == "play":
            t: Trick = self._trick  # type: ignore[assignment]  # (the play phase has a trick)
            return ((t.leader + len(t.plays)) % 4,)  # Trick.next_seat, inlined (searches call it per card)
        if ph == "discard":
            return tuple(s for s in sorted(self._need) if self._need[s] > 0)
        if ph == "declare":
            # SILENT: every seat answers, even without a combination ("nothing to declare"), so the
            # table cannot tell who holds undeclared combinations (§10 keeps them private).
            return tuple(s for s in range(4) if self._choice[s] is None)
        if ph == "cut":
            return (self.cutter,)
        return ()

    def legal_cards(self, seat: int) -> list[str]:
        """§7.4 legal cards for ``seat`` (assumed to be the player to move)."""
        hand = self._hands[seat]
        led = self._led
        if led is None:
            return list(hand)
        if led != TRUMP and self._first_lead and self._trump_in_trick:
            king = led + "K"
            if king in hand:
                return [king]  # the king rule (§7.4.2)
        follow = [c for c in hand if SUIT[c] == led]
        if not follow and led != TRUMP:
            follow = [c for c in hand if SUIT[c] == TRUMP]
        if not follow:
            return list(hand)
        if MATTO in hand:
            follow.append(MATTO)
        return follow

    def discardable(self, seat: int) -> list[str]:
        return sort_hand(c for c in self._hands[seat] if c in DISCARDABLE)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move():
            return []
        ph = self._phase
        if ph == "play":
            return [{"type": "play", "card": c} for c in sort_hand(self.legal_cards(seat))]
        if ph == "discard":
            # SILENT: discards may be made one card at a time; a multi-card discard (the UI's combo) is the
            # same as the sequence of single-card discards, so only the single-card forms are listed.
            return [{"type": "discard", "cards": [c]} for c in self.discardable(seat)]
        if ph == "declare":
            return [{"type": "declare", "combos": list(sub)} for sub in self._subsets(seat)]
        if ph == "cut":
            return [{"type": "cut", "k": k} for k in range(CUT_MIN, CUT_MAX + 1)]
        return []

    def _subsets(self, seat: int) -> list[tuple[int, ...]]:
        m = len(self._combos[seat])
        out: list[tuple[int, ...]] = []
        for size in range(m, -1, -1):
            out.extend(itertools.combinations(range(m), size))
        return out

    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self._check(seat, action)
        except IllegalAction:
            return False
        return True

    def _why_not(self, seat: int) -> IllegalAction:
        """Why a held card is not among ``legal_cards(seat)`` (§7.4), as the error to raise."""
        led = self._led
        assert led is not None  # (with nothing led every held card is legal)
        if led != TRUMP and self._first_lead and self._trump_in_trick and led + "K" in self._hands[seat]:
            return IllegalAction("king_forced", card=led + "K")
        if any(SUIT[c] == led for c in self._hands[seat]):
            return IllegalAction("must_follow_trump" if led == TRUMP else "must_follow", suit=led)
        return IllegalAction("must_trump", suit=led)

    def _check(self, seat: int, action: Action) -> Any:
        """Validate ``action``; returns its normalised payload. Raises IllegalAction."""
        if not isinstance(action, dict):
            raise IllegalAction("unknown_action")
        kind = action.get("type")
        if self._phase == "done":
            raise IllegalAction("game_over")
        if seat not in self.to_move():
            raise IllegalAction("not_your_turn")
        ph = self._phase
        if ph == "play":
            if kind != "play":
                raise IllegalAction("play_a_card")
            card = action.get("card")
            if card not in self._hands[seat]:
                raise IllegalAction("not_in_hand")
            if card not in self.legal_cards(seat):
                raise self._why_not(seat)
            return card
        if ph == "discard":
            if kind != "discard":
                raise IllegalAction("discard_first")
            cards = action.get("cards")
            if isinstance(cards, str):
                cards = [cards]
            if not isinstance(cards, list) or not cards or len(set(cards)) != len(cards):
                raise IllegalAction("discard_pick")
            if len(cards) > self._need[seat]:
                raise IllegalAction("discard_count", n=self._need[seat])
            for c in cards:
                if c not in self._hands[seat]:
                    raise IllegalAction("not_in_hand")
                if c not in DISCARDABLE:
                    raise IllegalAction("discard_scoring", card=c)
            return cards
        if ph == "declare":
            if kind != "declare":
                raise IllegalAction("declare_choose")
            idx = action.get("combos")
            m = len(self._combos[seat])
            if idx == "all":
                idx = list(range(m))
            if (
                not isinstance(idx, list)
                or any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < m for i in idx)
                or len(set(idx)) != len(idx)
            ):
                raise IllegalAction("declare_unknown")
            return sorted(idx)
        if ph == "cut":
            if kind != "cut":
                raise IllegalAction("cut_first")
            k = action.get("k")
            if isinstance(k, bool) or not isinstance(k, int) or not CUT_MIN <= k <= CUT_MAX:
                raise IllegalAction("cut_range", lo=CUT_MIN, hi=CUT_MAX)
            return k
        raise IllegalAction("not_now")

    def apply(self, seat: int, action: Action) -> None:
        payload = self._check(seat, action)
        ph = self._phase
        if ph == "play":
            self._play(seat, payload)
        elif ph == "discard":
            hand = self._hands[seat]
            for c in payload:
                hand.remove(c)
                self._disc[seat].append(c)
            self._need[seat] -= len(payload)
            if self._need[seat] == 0:
                self._push({"kind": "discarded", "seat": seat, "n": len(self._disc[seat])})
            if all(v == 0 for v in self._need.values()):
                self._begin_declare()
        elif ph == "declare":
            self._choice[seat] = payload
            if all(c is not None for c in self._choice):
                self._resolve_declarations()
        elif ph == "cut":
            self._do_cut(payload)

    def _play(self, seat: int, card: str) -> None:
        trick: Trick = self._trick  # type: ignore[assignment]  # (the play phase has a trick)
        self._hands[seat].remove(card)
        led = self._led
        if card != MATTO:
            suit = SUIT[card]
            if led is None:
                self._led = suit
                if suit != TRUMP:
                    # §7.3 first-lead bookkeeping
                    self._first_lead = suit not in self._led_before
                    self._led_before.add(suit)
            else:
                # public inferences for determinization: revealed voids and a King not held
                if suit != led:
                    self._voids[seat].add(led)
                    if led != TRUMP and suit != TRUMP:
                        self._voids[seat].add(TRUMP)
                if led != TRUMP and self._first_lead and self._trump_in_trick and card != led + "K":
                    self._not_cards[seat].add(led + "K")
            if suit == TRUMP:
                self._trump_in_trick = True
        elif led is not None and led != TRUMP and self._first_lead and self._trump_in_trick:
            self._not_cards[seat].add(led + "K")
        plays = trick.plays
        plays.append((seat, card))
        if len(plays) == 4:
            self._finish_trick()

    def _finish_trick(self) -> None:
        trick = self._trick
        assert trick is not None
        w = winner_of(trick.plays)
        trick.winner = w
        wt = w % 2  # team_of
        pts = 0
        dead: list[str] = []  # the opponents' counting cards, in play order (the capture's record)
        pile = self._piles[wt]
        for s, c in trick.plays:
            if c == MATTO:
                owner = s % 2
                self._piles[owner].append(MATTO)  # §7.6: the Matto stays with its team
                if owner != wt:
                    self._matto_debt = owner
                continue
            pile.append(c)
            if s % 2 != wt and POINTS[c]:
                pts += POINTS[c]  # §7.8: only the opponents' counting cards "die"
                dead.append(c)
        self._tricks_won[w] += 1
        self._trick_count += 1
        self._last_trick = trick
        if not self._search:
            self._push(
                {
                    "kind": "trick",
                    "n": self._trick_count,
                    "leader": trick.leader,
                    "plays": [[s, c] for s, c in trick.plays],
                    "winner": w,
                    "points": pts,
                }
            )
        if pts > 0:  # (_score records nothing worth 0)
            self._score(
                wt,
                pts,
                "capture",
                seat=w,
                trick=self._trick_count,
                cards=dead,
            )
        self._led = None
        self._first_lead = False
        self._trump_in_trick = False
        if not any(self._hands):
            self._trick = None
            self._end_deal()
        else:
            self._trick = Trick(w, [])  # (a list passed is cheaper than the default factory: once a trick)

    # ------------------------------------------------------------------ views (§10)
    def public_view(self) -> View:
        ph = self._phase
        trick = self._trick
        lt = self._last_trick
        pending_disc = {str(s): n for s, n in self._need.items()} if ph == "discard" else {}
        return {
            "game": self.game_id,
            "phase": ph,
            "to_move": list(self.to_move()),
            "hand_number": self._deal_no,
            "deals_per_game": self.options["deals_per_game"],
            "dealer": self._dealer,
            "cutter": self.cutter,
            "num_seats": 4,
            "teams": {"A": [0, 2], "B": [1, 3]},
            "cut": self._cut_k,
            "robbed_by_cutter": list(self._robbed_cut),
            "exposed": list(self._exposed),
            "robbed_by_dealer": list(self._robbed_deal),
            "robbing_stop": self._stop_card if ph != "cut" else None,
            "taken_by_dealer": list(self._taken),
            "discards_pending": pending_disc,
            "discard_counts": {str(s): len(v) for s, v in self._disc.items()},
            "declare_done": [c is not None for c in self._choice] if ph == "declare" else [],
            "declared": [[_combo_copy(c) for c in d] for d in self._declared],
            "fola": list(self._fola) if self._fola is not None else None,
            "fola_size": len(self._fola)
            if self._fola is not None
            else len(self._fola_rest) + sum(len(v) for v in self._disc.values()),
            "hand_sizes": [len(h) for h in self._hands],
            "trick": {"leader": trick.leader, "plays": [[s, c] for s, c in trick.plays]} if trick else None,
            "led_suit": self._led,
            "last_trick": lt.to_json() if lt else None,
            "tricks_played": self._trick_count,
            "tricks_won": list(self._tricks_won),
            "piles": [len(self._piles[0]), len(self._piles[1])],
            # every card played to a finished trick (both piles: public, §7.7), for players who count cards
            "played": [c for p in self._piles for c in p],
            "pile_points": [sum(map(POINTS.__getitem__, p)) for p in self._piles],
            "matto_debt": TEAMS[self._matto_debt] if self._matto_debt is not None else None,
            "diff": self._diff,
            "points": list(self._event_points),
            "resti": list(self._resti),
            "score_events": [_event_copy(e) for e in self._score_events],
            "totals": list(self._totals),
            "last_deal": _deal_copy(self._last_deal) if self._last_deal is not None else None,
            "events": [_event_copy(e) for e in self._events[-VIEW_EVENTS:]],
            "options": dict(self.options),
        }

    def view(self, seat: int) -> View:
        v = self.public_view()
        v["seat"] = seat
        v["team"] = TEAMS[team_of(seat)]
        v["hand"] = sort_hand(self._hands[seat])
        if self._fola is None and seat in self._disc:
            v["my_discards"] = list(self._disc[seat])
        if self._fola is None and seat == self._dealer and self._phase != "cut":
            v["fola_seen"] = list(self._fola_rest)  # the dealer looked through the Fola (§3.6)
        v["combos"] = [_combo_copy(c) for c in self._combos[seat]]
        choice = self._choice[seat]
        v["my_choice"] = list(choice) if choice is not None else None  # (the engine's list: _resolve reads it)
        v["prompt"] = self._prompt(seat)
        return v

    def card_play_view(self, seat: int) -> View:
        """The part of ``view(seat)`` a computer player reads to choose a card: the same values under the same
        keys (a test checks it), built without the rest of the view. The searches call it for every card of
        every playout, where building the whole view was a third of the search's time."""
        trick = self._trick
        return {
            "hand": sort_hand(self._hands[seat]),
            "trick": {"leader": trick.leader, "plays": [[s, c] for s, c in trick.plays]} if trick else None,
            "fola": list(self._fola) if self._fola is not None else None,
            "played": [c for p in self._piles for c in p],
        }

    def _prompt(self, seat: int) -> dict[str, Any] | None:
        if seat not in self.to_move():
            return None
        ph = self._phase
        if ph == "discard":
            opts = self.discardable(seat)
            need = self._need[seat]
            if len(opts) > MAX_COMBO_OPTIONS:
                # More than a select can hold: discard one card at a time until they fit.
                return {"kind": "pick", "actions": self.legal_actions(seat), "need": need}
            return {
                "kind": "combo",
                "type": "discard",
                "fields": [{"key": "cards", "from": opts, "count": need}],
                "fixed": {},
                "need": need,
            }
        if ph == "declare":
            m = len(self._combos[seat])
            # SILENT: with 5+ combinations (rare) the prompt offers all, all-but-one, each alone and
            # none; every subset stays legal through the action itself.
            if m <= FULL_SUBSETS_MAX:
                acts = self.legal_actions(seat)
            else:
                full = list(range(m))
                subs = [full]
                subs += [[j for j in full if j != i] for i in full]
                subs += [[i] for i in full]
                subs.append([])
                acts = [{"type": "declare", "combos": s} for s in subs]
            return {"kind": "pick", "actions": acts}
        return {"kind": "pick", "actions": self.legal_actions(seat)}

    def timeout_action(self, seat: int) -> Action | None:
        """The spec's default when ``seat`` times out (§11), or ``None`` when the computer player should act.

        Discards: the weakest discardable cards (plain pips, then courts, then trumps, §3.7); declarations:
        declare all (M-11); manual cut: a random depth (M-2).
        """
        if seat not in self.to_move():
            return None
        if self._phase == "discard":

            def key(c: str) -> tuple[int, int, int]:
                if SUIT[c] == TRUMP:
                    return (2, STRENGTH[c], 0)
                return (1 if STRENGTH[c] > 10 else 0, STRENGTH[c], SUIT_ORDER[SUIT[c]])

            cards = sorted(self.discardable(seat), key=key)[: self._need[seat]]
            return {"type": "discard", "cards": cards}
        if self._phase == "declare":
            return {"type": "declare", "combos": list(range(len(self._combos[seat])))}
        if self._phase == "cut":
            rng = make_rng(self._seed, "cut", self._deal_no, self._attempt)
            return {"type": "cut", "k": rng.randint(CUT_MIN, CUT_MAX)}
        return None

    # ------------------------------------------------------------------ results
    def settlements(self) -> list[Settlement]:
        return list(self._settlements)

    def result(self) -> GameResult | None:
        if not self.is_over:
            return None
        return GameResult.from_totals("resto", self._totals)

    # ------------------------------------------------------------------ search support
    def sides(self) -> list[int] | None:
        return [s % 2 for s in range(self.num_seats)]  # fixed partnerships: seats 1+3 v 2+4

    def sides_public(self) -> bool:
        return True

    def num_settlements(self) -> int:
        return len(self._settlements)

    def hand_size(self, seat: int) -> int:
        return len(self._hands[seat])

    # the simulation interface: a play is its card id (in legal_actions' display order); the other decisions
    # keep their display actions
    def sim_legal(self, seat: int) -> list[Any]:
        if self._phase != "play":
            return self.legal_actions(seat)
        trick = self._trick
        if trick is None or seat != (trick.leader + len(trick.plays)) % 4:
            return []
        # legal_cards then sort_hand, inlined (a playout asks this per card); a list of one needs no sort
        hand = self._hands[seat]
        led = self._led
        if led is None:
            return sorted(hand, key=_RANK)
        if led != TRUMP and self._first_lead and self._trump_in_trick:
            king = _KING[led]
            if king in hand:
                return [king]
        follow = [c for c in hand if SUIT[c] == led]
        if not follow and led != TRUMP:
            follow = [c for c in hand if SUIT[c] == TRUMP]
        if not follow:
            return sorted(hand, key=_RANK)
        if MATTO in hand:
            follow.append(MATTO)
        if len(follow) > 1:
            follow.sort(key=_RANK)
        return follow

    def clone(self, for_search: bool = False) -> Self:
        g = object.__new__(type(self))
        d = g.__dict__
        d.update(self.__dict__)
        if for_search:
            g._search = True
        g._hands = [list(h) for h in self._hands]
        g._exposed = list(self._exposed)
        g._fola_rest = list(self._fola_rest)
        g._disc = {s: list(v) for s, v in self._disc.items()}
        g._need = dict(self._need)
        g._combos = [list(c) for c in self._combos]
        g._choice = list(self._choice)
        g._declared = [list(x) for x in self._declared]
        g._trick = self._trick.copy() if self._trick else None
        g._led_before = set(self._led_before)
        g._piles = [list(p) for p in self._piles]
        g._tricks_won = list(self._tricks_won)
        g._voids = [set(x) for x in self._voids]
        g._not_cards = [set(x) for x in self._not_cards]
        g._resti = list(self._resti)
        g._event_points = list(self._event_points)
        g._score_events = list(self._score_events)
        # a search state never logs an event, so its clones may share its (frozen) list
        g._events = self._events if self._search else list(self._events)
        g._settlements = list(self._settlements)
        g._totals = list(self._totals)
        g._pack = list(self._pack)
        return g

    def public_owner(self) -> dict[str, int]:
        """Cards publicly known to belong to a seat's hand (or, before the reveal, its discards)."""
        out: dict[str, int] = {}
        for c in self._robbed_cut:
            out[c] = self.cutter
        for s, shown in enumerate(self._exposed):
            if shown is not None:
                out[shown] = s
        for c in self._robbed_deal + self._taken:
            out[c] = self._dealer
        for s, combos in enumerate(self._declared):
            for combo in combos:
                for c in combo["cards"]:
                    out[c] = s
                if MATTO not in combo["cards"] and int(combo["value"]) > combo_points_sum(combo["cards"]):
                    out[MATTO] = s  # the Matto bonus showed that this seat holds the Matto (§5.3)
        for c in self._fola or ():
            out.pop(c, None)
        return out

    def determinize(self, seat: int, rng: random.Random) -> Self:
        g = self.clone(for_search=True)
        if self._phase in ("cut", "done"):
            return g
        owner = self.public_owner()
        places: dict[Any, int] = {}
        pool: list[str] = []
        for s in range(4):
            if s != seat:
                places[s] = len(self._hands[s])
                pool.extend(self._hands[s])
        if self._fola is None:
            for s, disc in self._disc.items():
                if s != seat and disc:
                    places[("d", s)] = len(disc)
                    pool.extend(disc)
            if seat != self._dealer and self._fola_rest:
                places["fola"] = len(self._fola_rest)
                pool.extend(self._fola_rest)
        stop = self._stop_card
        voids, notc = self._voids, self._not_cards

        def allowed(place: Any, c: str) -> bool:
            if c == stop:
                return place == "fola"
            o = owner.get(c)
            if isinstance(place, int):
                if o is not None and o != place:
                    return False
                return SUIT[c] not in voids[place] and c not in notc[place]
            if c not in DISCARDABLE:
                return False
            if place == "fola":
                return o is None
            return o is None or o == place[1]

        dealt = deal_constrained(pool, places, allowed, rng)
        for place, cards in dealt.items():
            if isinstance(place, int):
                g._hands[place] = cards
            elif place == "fola":
                g._fola_rest = cards
            else:
                g._disc[place[1]] = cards
        if self._phase == "declare":
            for s in range(4):
                if s != seat:
                    g._combos[s] = combos_with_values(g._hands[s])
                    if g._choice[s] is not None:
                        g._choice[s] = list(range(len(g._combos[s])))
        return g

    # ------------------------------------------------------------------ test support
    @classmethod
    def _for_test(
        cls,
        hands: list[list[str]],
        dealer: int = 3,
        options: Mapping[str, Any] | None = None,
        leader: int | None = None,
        led_before: set[str] | None = None,
    ) -> MinchiateGame:
        """A game positioned at trick play with the given hands (tests only); the Fola is the rest."""
        g = cls(4, options, 0)
        g._reset_deal_state()
        g._dealer = dealer
        g._hands = [list(h) for h in hands]
        used = {c for h in hands for c in h}
        g._fola = [c for c in MINCHIATE_97 if c not in used]
        g._phase = "play"
        g._trick = Trick((dealer + 1) % 4 if leader is None else leader)
        g._led_before = set(led_before or ())
        g._events = []
        return g


# re-exported for the AI and the renderer
__all__ = ["MinchiateGame", "find_combos", "team_of", "winner_of"]

"""Computer players for Mediatore.

``normal``: a heuristic player. It bids from hand strength (3s, 2s, aces, long suits), calls a 3 it lacks
(else a 2), discards low cards of short suits (keeping aces and winners), cashes master cards, follows low
when it cannot win, wins tricks that carry points and feeds points to a known partner.
``easy``: the simplest greedy player (win if you can with your highest card, else play your lowest).

Both read only ``game.view(seat)`` (hand, role, public table, the seat's memory of this hand's tricks) and
``game.legal_actions(seat)``; in the exchange phase they build the combo action from the view's prompt
instead of enumerating thousands of combinations. To play a card they read only its part
``game.card_play_view(seat)`` and the compact moves ``game.sim_legal(seat)`` (``sim_choose``: the same choice as
a compact move, which a search's playouts apply without building a display action).
"""

from __future__ import annotations

import random
from typing import Any

from bot.engine.cards import ITALIAN_40
from bot.engine.protocol import Action, Game, Move
from bot.games.mediatore.engine import CONTRACTS, STRENGTH, THIRDS, MediatoreGame

RANKS_HIGH_FIRST = "32AKNJ7654"


def _by_suit(cards: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {s: [] for s in "DCSB"}
    for c in cards:
        out[c[1]].append(c)
    for s in out:
        out[s].sort(key=lambda c: -STRENGTH[c[0]])
    return out


def _top_run(suit_cards: list[str]) -> int:
    """How many of the suit's top ranks (3, 2, A, ...) are held without a gap."""
    ranks = {c[0] for c in suit_cards}
    n = 0
    for r in RANKS_HIGH_FIRST:
        if r in ranks:
            n += 1
        else:
            break
    return n


def estimate_tricks(hand: list[str]) -> float:
    """Rough number of tricks the hand takes alone against three (no trumps, so top cards and length)."""
    total = 0.0
    for cards in _by_suit(hand).values():
        n = len(cards)
        if not n:
            continue
        top = _top_run(cards)
        est = float(top)
        ranks = {c[0] for c in cards}
        if top == 0 and "2" in ranks and n >= 2:
            est += 0.5
        if top == 1 and "A" in ranks and n >= 3:
            est += 0.4
        if n >= 5:
            est += (n - max(top, 4)) * (0.9 if top >= 2 else 0.4)
        total += min(est, n)
    return total


def choose_bid(hand: list[str]) -> str | None:
    """The highest contract the hand supports, or ``None``."""
    t = estimate_tricks(hand)
    threes = sum(1 for c in hand if c[0] == "3")
    twos = sum(1 for c in hand if c[0] == "2")
    aces = sum(1 for c in hand if c[0] == "A")
    if t >= 8:
        return "arcisolissimo"
    if t >= 7:
        return "solissimo"
    if t >= 6:
        return "solo"
    if t >= 5:
        return "mediatore"
    if t >= 2.0 or (threes >= 2 and threes + twos + aces >= 4):
        return "chiamo"
    return None


def choose_call(hand: list[str], contract: str) -> str:
    """A 3 the hand lacks (in the suit where it is strongest), else a 2, else the best missing card."""
    suits = _by_suit(hand)

    def suit_weight(s: str) -> float:
        cards = suits[s]
        return len(cards) + sum(STRENGTH[c[0]] for c in cards) / 10

    for rank in RANKS_HIGH_FIRST:
        missing = [rank + s for s in "DCSB" if rank + s not in hand]
        if missing:
            # Chiamo: a partner's 3 protects our 2/A; Mediatore: the card completes our best suit.
            return max(missing, key=lambda c: suit_weight(c[1]))
    return next(c for c in ITALIAN_40 if c not in hand)  # unreachable with 9 cards in hand


def _keep_value(card: str, suits: dict[str, list[str]]) -> float:
    cards = suits[card[1]]
    top = _top_run(cards)
    idx = cards.index(card)
    v = float(STRENGTH[card[0]])
    if idx < top:
        v += 30  # a master card
    if card[0] == "A":
        v += 25  # never throw an ace if avoidable
    v += 2.5 * len(cards)  # long suits are worth keeping, short ones are voided
    return v


def choose_exchange(hand: list[str], give: bool) -> Action:
    """4 cards for the monte (and 1 for the giver): the least useful, keeping aces and winners."""
    suits = _by_suit(hand)
    ranked = sorted(hand, key=lambda c: (_keep_value(c, suits), c))
    out: Action = {"type": "discard"}
    if give:
        worst5 = ranked[:5]
        # The returned card goes to an opponent: give the one with the fewest points (then the weakest).
        g = min(worst5, key=lambda c: (THIRDS[c[0]], STRENGTH[c[0]], c))
        out["discard"] = [c for c in worst5 if c != g]
        out["give"] = g
    else:
        out["discard"] = ranked[:4]
    return out


def _mates(view: dict[str, Any], seat: int) -> set[int] | None:
    """Seats known to be on ``seat``'s side; ``None`` when the Chiamo partnership is still unknown."""
    role = view.get("role") or {}
    bidder = view.get("bidder")
    side = role.get("side")
    if side is None or bidder is None:
        return set()
    if side == "partner":
        return {bidder}
    if view["contract"] != "chiamo":
        return set() if side == "bidder" else {s for s in range(4) if s not in (seat, bidder)}
    status = view.get("partner_status")
    if side == "bidder":
        if role.get("alone"):
            return set()
        if status == "revealed":
            return {view["partner"]}
        return None
    # a Chiamo defender
    if status == "revealed":
        return {s for s in range(4) if s not in (seat, bidder, view["partner"])}
    if status == "none":
        return {s for s in range(4) if s not in (seat, bidder)}
    return None


def _play_moves(game: Game, seat: int) -> tuple[dict[str, Any], list[Move]]:
    """The card-play part of the seat's view and its legal moves (compact)."""
    assert isinstance(game, MediatoreGame)
    moves = game.sim_legal(seat)
    if not moves:
        raise ValueError(f"seat {seat} has nothing to do")
    return game.card_play_view(seat), moves


class MediatoreAgent:
    level = "normal"

    def sim_choose(self, game: Game, seat: int, rng: random.Random) -> Move:
        """:meth:`choose` as a move of ``game.sim_legal(seat)``."""
        if game.phase == "play":  # type: ignore[attr-defined]
            return self._play(*_play_moves(game, seat), seat)
        return game.sim_move(self.choose(game, seat, rng))

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        if game.phase == "play":  # type: ignore[attr-defined]
            return game.sim_action(self._play(*_play_moves(game, seat), seat))
        view = game.view(seat)
        prompt = view["prompt"]
        if prompt is None:
            raise ValueError(f"seat {seat} has nothing to do")
        hand: list[str] = view["hand"]
        phase = view["phase"]
        if phase == "exchange":
            give = any(f["key"] == "give" for f in prompt["fields"])
            return choose_exchange(hand, give)
        if phase == "auction":
            bid = choose_bid(hand)
            high = view["high_bid"]
            if bid is not None and (high is None or CONTRACTS.index(bid) > CONTRACTS.index(high)):
                return {"type": "bid", "contract": bid}
            return {"type": "pass"}
        return {"type": "call", "card": choose_call(hand, view["contract"])}

    # -- card play ---------------------------------------------------------------------------------------
    def _play(self, view: dict[str, Any], moves: list[Move], seat: int) -> Move:
        """A compact move: the card, or ``(card, signal)`` for a signalled lead."""
        hand: list[str] = view["hand"]
        legal: list[str] = [m for m in moves if type(m) is str]
        trick = view["trick"]["plays"]
        played: set[str] = {c for t in view["memory"]["tricks"] for c in t[1]}
        played.update(c for _, c in trick)
        known_elsewhere = set(view.get("private", {}).get("discards") or [])
        if view.get("contract") == "solissimo" and view.get("bidder") == seat:
            known_elsewhere.update(view["private"].get("monte_seen") or [])
        gone = played | known_elsewhere | set(hand)
        outstanding = [c for c in ITALIAN_40 if c not in gone]

        def is_master(card: str) -> bool:
            st = STRENGTH[card[0]]
            return not any(o[1] == card[1] and STRENGTH[o[0]] > st for o in outstanding)

        mates = _mates(view, seat)
        if not trick:
            # A Chiamo bidder whose partner is still hidden leads the called suit low: the partner's
            # called card can win it (and promote the bidder's own high cards of that suit).
            called = view.get("called_card")
            toward: str | None = None
            role = view.get("role") or {}
            bidder_with_partner = role.get("side") == "bidder" and not role.get("alone")
            hidden = view.get("partner_status") == "hidden"
            if view.get("contract") == "chiamo" and called and bidder_with_partner and hidden and called in outstanding:
                toward = called[1]
            card = self._lead(hand, legal, is_master, outstanding, toward)
            # Truthful informational signals when someone is known to be listening.
            if mates:
                sigs = [m[1] for m in moves if type(m) is tuple and m[0] == card]
                for s in ("fly", "stroke"):
                    if s in sigs:
                        return (card, s)
            return card
        led = trick[0][1][1]
        best_seat, best_card = trick[0]
        for s, c in trick[1:]:
            if c[1] == led and STRENGTH[c[0]] > STRENGTH[best_card[0]]:
                best_seat, best_card = s, c
        last = len(trick) == 3
        mate_winning = mates is not None and best_seat in mates
        following = legal[0][1] == led
        pts_in_trick = sum(THIRDS[c[0]] for _, c in trick)
        if following:
            winners = [c for c in legal if STRENGTH[c[0]] > STRENGTH[best_card[0]]]
            if mate_winning and (last or is_master(best_card)):
                # Our side takes it: add the most points without wasting a master card.
                return max(legal, key=lambda c: (THIRDS[c[0]] - 2 * is_master(c), -STRENGTH[c[0]]))
            if winners:
                if last:
                    # Safe win: take it with the card worth the most, else the cheapest winner.
                    return max(winners, key=lambda c: (THIRDS[c[0]], -STRENGTH[c[0]]))
                masters = [c for c in winners if is_master(c)]
                if masters and (pts_in_trick > 0 or not mate_winning):
                    return min(masters, key=lambda c: STRENGTH[c[0]])
            return self._lowest(legal)
        # Void in the led suit: give points to a partner who is winning, else throw the least useful card.
        if mate_winning and (last or is_master(best_card)):
            return max(legal, key=lambda c: (THIRDS[c[0]] - 2 * is_master(c), -STRENGTH[c[0]]))
        return self._throw(hand, legal)

    @staticmethod
    def _lowest(cards: list[str]) -> str:
        return min(cards, key=lambda c: (THIRDS[c[0]], STRENGTH[c[0]], c))

    @staticmethod
    def _throw(hand: list[str], legal: list[str]) -> str:
        suits = _by_suit(hand)
        return min(legal, key=lambda c: (_keep_value(c, suits), c))

    def _lead(
        self, hand: list[str], legal: list[str], is_master: Any, outstanding: list[str], toward: str | None = None
    ) -> str:
        masters = [c for c in legal if is_master(c)]
        if masters:
            # Cash a master card, preferring suits where the opponents still hold points to catch.
            def catch(c: str) -> tuple[int, int]:
                left = [o for o in outstanding if o[1] == c[1]]
                return sum(THIRDS[o[0]] for o in left), len(left)

            return max(masters, key=lambda c: (catch(c), THIRDS[c[0]], c))
        if toward is not None:
            low = [c for c in legal if c[1] == toward]
            if low:
                return min(low, key=lambda c: (THIRDS[c[0]] == 3, STRENGTH[c[0]]))
        suits = _by_suit(hand)
        # Otherwise lead low from the longest suit, never an unprotected point card if avoidable.
        zero = [c for c in legal if THIRDS[c[0]] == 0]
        pool = zero or legal
        return max(pool, key=lambda c: (len(suits[c[1]]), -THIRDS[c[0]], -STRENGTH[c[0]], c))


class EasyMediatoreAgent:
    """Simplest greedy player."""

    level = "easy"

    def sim_choose(self, game: Game, seat: int, rng: random.Random) -> Move:
        """:meth:`choose` as a move of ``game.sim_legal(seat)``."""
        if game.phase == "play":  # type: ignore[attr-defined]
            return self._play(*_play_moves(game, seat))
        return game.sim_move(self.choose(game, seat, rng))

    def choose(self, game: Game, seat: int, rng: random.Random) -> Action:
        if game.phase == "play":  # type: ignore[attr-defined]
            return game.sim_action(self._play(*_play_moves(game, seat)))
        view = game.view(seat)
        prompt = view["prompt"]
        if prompt is None:
            raise ValueError(f"seat {seat} has nothing to do")
        hand: list[str] = view["hand"]
        phase = view["phase"]
        if phase == "exchange":
            give = any(f["key"] == "give" for f in prompt["fields"])
            low = sorted(hand, key=lambda c: (THIRDS[c[0]], STRENGTH[c[0]], c))
            act: Action = {"type": "discard", "discard": low[:4]}
            if give:
                act["give"] = low[4]
            return act
        if phase == "auction":
            if view["high_bid"] is None and sum(1 for c in hand if c[0] == "3") >= 2:
                return {"type": "bid", "contract": "chiamo"}
            return {"type": "pass"}
        return {"type": "call", "card": choose_call(hand, view["contract"])}

    @staticmethod
    def _play(view: dict[str, Any], moves: list[Move]) -> str:
        legal: list[str] = [m for m in moves if type(m) is str]
        trick = view["trick"]["plays"]
        if trick:
            led = trick[0][1][1]
            best = max((c for _, c in trick if c[1] == led), key=lambda c: STRENGTH[c[0]])
            top = max(legal, key=lambda c: (c[1] == led, STRENGTH[c[0]]))
            if top[1] == led and STRENGTH[top[0]] > STRENGTH[best[0]]:
                return top
        return min(legal, key=lambda c: (THIRDS[c[0]], STRENGTH[c[0]], c))

"""Mighty's adapter for the strong level: flat playouts, an exact endgame once the friend is public, and the
auction, discards, trump change and friend call simulated over the heuristic's candidates."""

from __future__ import annotations

from typing import Any

from bot.ai.base import Agent
from bot.ai.strong import Budget, GameSearch, StrongAgent, auction_candidates, lowest_combos
from bot.engine.protocol import Action

from . import ai as mh
from .ai import MightyAgent


def combo_candidates(kind: str, actions: list[Action], base: Action, view: dict[str, Any]) -> list[Action]:
    """Discards, trump change and friend call, pruned by the heuristic's own hand evaluator."""
    hand: list[str] = view["hand"]
    if kind == "discard":
        trump = view["bid"]["trump"]
        keep = {c: mh._discard_keep_value(c, hand, trump) for c in hand}
        ranked = sorted(hand, key=lambda c: keep[c])
        return [
            {"type": "discard", "cards": [c for c in hand if c in drop]}
            for drop in lowest_combos(ranked, 3, 6, keep.__getitem__)
        ]
    if kind == "contract":
        n0, t0 = view["bid"]["n"], view["bid"]["trump"]
        out: list[Action] = [{"type": "contract", "n": n0, "trump": t0}]
        by_trump: dict[str, Action] = {}
        for a in actions:
            if a["trump"] != t0 and (a["trump"] not in by_trump or a["n"] < by_trump[a["trump"]]["n"]):
                by_trump[a["trump"]] = a
        if by_trump:
            out.append(max(by_trump.values(), key=lambda a: (mh.estimate_points(hand, a["trump"]) - a["n"], -a["n"])))
        return out
    if kind == "call":
        mine = set(hand) | set(view.get("discards") or [])
        trump = view["contract"]["trump"]
        wanted = [mh.mighty_of(trump), mh.JOKER]
        suits = ([trump] if trump != "NT" else []) + [s for s in mh.SUITS if s != trump]
        wanted += [r + s for s in suits for r in "AKQ"]
        out = [{"type": "call", "kind": "card", "card": c} for c in wanted if c not in mine][:3]
        if {"type": "call", "kind": "first_trick"} in actions:
            out.append({"type": "call", "kind": "first_trick"})
        return out
    return []


class MightySearch(GameSearch):
    budget = Budget(
        play=200,
        agent_rollouts=True,
        declare_samples=20,
        margin=0.08,
        play_mode="flat",
        endgame_tricks=3,
        endgame_nodes=2000,
        declare_kinds=("discard", "contract", "call"),
    )
    declare_kinds = ("discard", "contract", "call")

    def candidates(self, actions: list[Action], base_choice: Action, view: dict[str, Any] | None) -> list[Action]:
        kind = base_choice["type"]
        if kind in ("pass", "bid"):
            return auction_candidates(actions, base_choice, cheapest_bid=False)
        if view is not None and kind in self.declare_kinds:
            return combo_candidates(kind, actions, base_choice, view)
        return []


SEARCH = MightySearch()


def strong_agent() -> Agent:
    """Searched play and declarations over the ``normal`` heuristic (see :mod:`bot.ai.strong`)."""
    return StrongAgent(SEARCH, MightyAgent())

"""A server's money value in the table's posts: each hand's summary and the game-over totals say what the results
are worth, in the reader's locale; without a value, units only (as before)."""

from __future__ import annotations

import random
from decimal import Decimal

from bot.games import registry
from bot.i18n import using
from bot.ledger.money import MoneyValue
from bot.tables import screens
from bot.tables.model import Seat, Table


def _finished_table() -> Table:
    game = registry.game_class("mediatore")(4, {"hands": 1, "stake": 2}, 7)  # type: ignore[call-arg]
    rng = random.Random(7)
    log = []
    while not game.is_over:
        seat = game.to_move()[0]
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append((seat, action))
    seats = [Seat(100 + i, name) for i, name in enumerate(["Anna", "Bruno", "Carla", "Dario"])]
    t = Table(1, 1, 1, "mediatore", 100, {"hands": 1, "stake": 2}, 7, "finished", seats, 90, log=log)
    t.game = game
    return t


def test_summaries_show_the_money_value_in_the_readers_locale() -> None:
    t = _finished_table()
    assert t.game is not None
    settled = [s for s in t.game.settlements() if any(any(a) for a in s.amounts.values())]
    assert settled, "a hand with a result"
    money = MoneyValue("EUR", {"stake": Decimal("1.50")})
    with using("it"):
        plain = screens.settlement_text(t, settled[-1])
        worth = screens.settlement_text(t, settled[-1], money)
        final = screens.final_text(t, money)
    assert "€" not in plain and worth.startswith(plain) and "💶" in worth
    stakes = settled[-1].amounts["stake"]
    for seat, amount in enumerate(stakes):
        if amount:
            value = f"{abs(amount) * Decimal('1.50'):.2f}".replace(".", ",")
            assert f"{t.names[seat]} {'+' if amount > 0 else '-'}{value}" in worth.replace("\xa0", " ")
    assert final.count("€") == sum(1 for s in screens.standings(t).totals if s)  # type: ignore[union-attr]
    with using("en"):
        assert "💶" not in screens.settlement_text(t, settled[-1], MoneyValue(None, {}))
        assert "€" not in screens.final_text(t)

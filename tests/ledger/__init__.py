"""Tests of :mod:`bot.db` and :mod:`bot.ledger`."""

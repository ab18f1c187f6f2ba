"""Tests of :mod:`bot.storage.db` and :mod:`bot.ledger`."""

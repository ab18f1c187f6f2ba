"""``python tests/e2e/seeded_bot.py``: the bot exactly as ``python -m bot`` runs it, except that every new table is
dealt from the seed in ``TAVOLO_TEST_SEED`` — so that two runs of a test (one killed and restarted, one not) play
the same game — and, with ``TAVOLO_TEST_EDIT_INTERVAL``, edits a message at most that often (seconds; the bot's
one second otherwise). Test helpers: the bot itself has no such settings."""

from __future__ import annotations

import os
import sys
from typing import Any

from bot.__main__ import main
from bot.tables import service
from bot.transport.client import TavoloBot

SEED = int(os.environ["TAVOLO_TEST_SEED"])
EDIT_INTERVAL = os.environ.get("TAVOLO_TEST_EDIT_INTERVAL")
_init = service.TableService.__init__
_bot_init = TavoloBot.__init__


def _seeded_init(self: service.TableService, *args: Any, **kwargs: Any) -> None:
    _init(self, *args, **kwargs)
    self.seed_factory = lambda: SEED


def _bot_with_interval(self: TavoloBot, *args: Any, **kwargs: Any) -> None:
    assert EDIT_INTERVAL is not None
    kwargs.setdefault("edit_interval", float(EDIT_INTERVAL))
    _bot_init(self, *args, **kwargs)


service.TableService.__init__ = _seeded_init  # type: ignore[method-assign]
if EDIT_INTERVAL is not None:
    TavoloBot.__init__ = _bot_with_interval  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main([]))

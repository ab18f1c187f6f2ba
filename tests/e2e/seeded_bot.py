"""``python tests/e2e/seeded_bot.py``: the bot exactly as ``python -m bot`` runs it, except that every new table is
dealt from the seed in ``TAVOLO_TEST_SEED`` — so that two runs of a test (one killed and restarted, one not) play
the same game. A test helper: the bot itself has no such setting."""

from __future__ import annotations

import os
import sys
from typing import Any

from bot.__main__ import main
from bot.tables import service

SEED = int(os.environ["TAVOLO_TEST_SEED"])
_init = service.TableService.__init__


def _seeded_init(self: service.TableService, *args: Any, **kwargs: Any) -> None:
    _init(self, *args, **kwargs)
    self.seed_factory = lambda: SEED


service.TableService.__init__ = _seeded_init  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main([]))

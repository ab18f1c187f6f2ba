"""Pictures of cards, hands and tables (Pillow only: no discord, no asyncio), rendered to PNG bytes.

The renderers take plain data a cog can read from a game view (deck id, card ids, names and short lines
already written by the caller) and never write words of their own, so nothing in a picture needs translating.
Every renderer is deterministic and goes through a content-addressed cache (:mod:`bot.images.cache`).
Call :func:`prepare` once at start-up so the first picture does not pay for drawing the sprites.
"""

from __future__ import annotations

from bot.images.cache import DEFAULT_CACHE, ImageCache, content_key
from bot.images.hand import group_by_suit, render_hand
from bot.images.reveal import RevealRow, render_reveal
from bot.images.sprites import DECKS
from bot.images.table import SeatInfo, render_table
from bot.images.warmup import card_png, prepare

__all__ = [
    "DECKS",
    "DEFAULT_CACHE",
    "ImageCache",
    "RevealRow",
    "SeatInfo",
    "card_png",
    "content_key",
    "group_by_suit",
    "prepare",
    "render_hand",
    "render_reveal",
    "render_table",
]

"""Warming the card art up: every size the renderers draw, drawn (or loaded from the disk cache) before the first
picture, in this process (:func:`prepare`) or in a pool of worker processes (:func:`prepare_in`).

It sits above the renderers (it asks each for the card heights it draws at) and the sprites below them, so the
sprites never import a renderer.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from concurrent.futures import Executor, Future
from pathlib import Path

from PIL import Image

from bot.images import encode, hand, reveal, sprites, table, theme
from bot.images.cache import SpriteStore
from bot.images.sprites import BASE_HEIGHT, DECKS, sheet, use_disk_cache


def sizes(heights: Iterable[int] = ()) -> list[int]:
    """Every height the renderers draw cards at, largest first (the smaller ones are downscaled from it)."""
    found = {BASE_HEIGHT, hand.CARD_HEIGHT, table.SMALL_HEIGHT, table.CENTRE_HEIGHT, reveal.CARD_HEIGHT, *heights}
    found.update(table.TRICK_HEIGHTS)
    return sorted(found, reverse=True)


def prepare(decks: Iterable[str] = tuple(DECKS), heights: Iterable[int] = ()) -> None:
    """Draw (and cache) the sprites and palettes at start-up, so the first picture is as fast as the rest."""
    for deck in decks:
        for h in sizes(heights):
            sheet(deck, h)
        encode.palette(deck)


def missing(decks: Iterable[str] = tuple(DECKS), heights: Iterable[int] = ()) -> list[str]:
    """The decks whose sheets or palette are not all on disk yet (all of them without a disk cache)."""
    store = sprites.disk_store()
    if store is None:
        return list(decks)
    names = {p.name for p in store.dir.iterdir()} if store.dir.is_dir() else set()
    want = sizes(heights)
    return [d for d in decks if f"{d}.palette" not in names or any(f"{d}-{h}.sheet" not in names for h in want)]


def _prepare_stored(directory: str, key: str, deck: str) -> None:
    """(In a worker process.) Draws ``deck``'s sheets and palette into the store."""
    use_disk_cache(Path(directory), key)
    prepare([deck])


class _Preparation:
    """Hands the decks to ``executor`` one at a time, in order; a deck someone waits for jumps the queue."""

    def __init__(self, executor: Executor, store: SpriteStore, decks: list[str]) -> None:
        self.executor, self.store = executor, store
        self.queue = list(decks)
        self.futures: dict[str, Future[None]] = {d: Future() for d in decks}
        self._lock = threading.Lock()
        self._next()

    def _next(self) -> None:
        with self._lock:
            if not self.queue:
                return
            deck = self.queue.pop(0)
        try:
            job = self.executor.submit(_prepare_stored, str(self.store.root), self.store.key, deck)
        except RuntimeError as e:  # the pool was shut down (the bot is stopping): nobody waits for the rest
            for d in [deck, *self.queue]:
                if self.futures[d].set_running_or_notify_cancel():
                    self.futures[d].set_exception(e)
            return
        job.add_done_callback(lambda j: self._done(deck, j))

    def _done(self, deck: str, job: Future[None]) -> None:
        out = self.futures[deck]
        if out.set_running_or_notify_cancel():
            error = job.exception() if not job.cancelled() else RuntimeError("cancelled")
            if error is None:
                out.set_result(None)
            else:
                out.set_exception(error)
        self._next()

    def hurry(self, deck: str) -> None:
        with self._lock:
            if deck in self.queue:
                self.queue.remove(deck)
                self.queue.insert(0, deck)


def prepare_in(executor: Executor, decks: Iterable[str]) -> dict[str, Future[None]]:
    """Prepares ``decks`` into the disk cache in ``executor`` (a process pool), one job per deck, in order; a
    picture of a deck still queued moves that deck to the front. Returns each deck's future."""
    store = sprites.disk_store()
    if store is None:
        raise RuntimeError("prepare_in needs use_disk_cache() first")
    prep = _Preparation(executor, store, list(decks))
    for deck, future in prep.futures.items():
        sprites.expect(deck, prep, future)
    return dict(prep.futures)


def card_png(deck: str, card: str, height: int = BASE_HEIGHT) -> bytes:
    """One card as PNG bytes (for a single-card message or the docs)."""
    sh = sheet(deck, height)
    if card not in sh.faces:
        raise KeyError(f"{card!r} is not a card of the {deck} deck")
    pad = 6
    img = Image.new("RGB", (sh.width + 2 * pad, sh.height + 2 * pad), theme.FELT)
    img.paste(sh.faces[card], (pad, pad), sh.faces[card])
    return encode.to_png(img, deck)

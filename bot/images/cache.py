"""A content-addressed, bounded LRU cache of rendered pictures: the same inputs are never rendered twice.

The key is a SHA-256 of a canonical text of the render inputs (function name, deck, cards, ...), so equal
inputs from different tables share one entry, and a key can also name the picture (e.g. an attachment's file
name) without revealing its content. The fonts' fingerprint is part of every key: pictures drawn with other
fonts (an upgrade) get other keys, so an attachment named by an old key is never taken for a new picture.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.images import fonts


def content_key(*parts: object) -> str:
    """A stable hex key for ``parts`` and the fonts; sets and frozensets are sorted, so their iteration order
    cannot leak in."""
    return hashlib.sha256((fonts.fingerprint() + ":" + _canonical(parts)).encode()).hexdigest()


def _canonical(v: object) -> str:
    if isinstance(v, set | frozenset):
        return "{" + ",".join(sorted(_canonical(x) for x in v)) + "}"
    if isinstance(v, list | tuple):
        return "(" + ",".join(_canonical(x) for x in v) + ")"
    if isinstance(v, dict):
        return "{" + ",".join(f"{_canonical(k)}:{_canonical(x)}" for k, x in sorted(v.items(), key=repr)) + "}"
    return repr(v)  # str, int, None, bool and frozen dataclasses (whose repr lists their fields)


@dataclass(slots=True)
class CacheStats:
    hits: int = 0
    misses: int = 0
    items: int = 0
    bytes: int = 0


class ImageCache:
    """``key -> bytes``, least recently used evicted first, bounded by item count and total bytes; thread-safe."""

    def __init__(self, max_items: int = 512, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self._data: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0
        self._hits = 0
        self._misses = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            data = self._data.get(key)
            if data is None:
                self._misses += 1
                return None
            self._data.move_to_end(key)
            self._hits += 1
            return data

    def put(self, key: str, data: bytes) -> None:
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._data[key] = data
            self._bytes += len(data)
            while self._data and (len(self._data) > self.max_items or self._bytes > self.max_bytes):
                _, dropped = self._data.popitem(last=False)
                self._bytes -= len(dropped)

    def get_or_render(self, key: str, render: Callable[[], bytes]) -> bytes:
        """The cached bytes for ``key``, rendering (outside the lock) and storing them on a miss."""
        data = self.get(key)
        if data is None:
            data = render()
            self.put(key, data)
        return data

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: str) -> bool:
        return key in self._data

    @property
    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(self._hits, self._misses, len(self._data), self._bytes)


DEFAULT_CACHE = ImageCache()


def cached(cache: ImageCache | None, key_parts: tuple[object, ...], render: Callable[[], bytes]) -> bytes:
    """``render()`` through ``cache`` (``None``: always render), keyed by ``content_key(*key_parts)``."""
    if cache is None:
        return render()
    return cache.get_or_render(content_key(*key_parts), render)

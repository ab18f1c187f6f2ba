"""A content-addressed, bounded LRU cache of rendered pictures: the same inputs are never rendered twice.

The key is a SHA-256 of a canonical text of the render inputs (function name, deck, cards, ...), so equal
inputs from different tables share one entry, and a key can also name the picture (e.g. an attachment's file
name) without revealing its content. The fonts' fingerprint is part of every key: pictures drawn with other
fonts (an upgrade) get other keys, so an attachment named by an old key is never taken for a new picture.

:class:`SpriteStore` keeps the prepared card sprites on disk between runs, under a key computed from the art code,
the fonts and Pillow's version, so a start-up loads them instead of drawing them again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from bot.images import fonts

log = logging.getLogger(__name__)


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


# ------------------------------------------------------------------------------------------------ on disk

#: Bump when the file layout below changes (old directories are then ignored and pruned).
STORE_FORMAT = 1


def files_digest(paths: Iterable[Path], *extra: object) -> str:
    """SHA-256 over the names and bytes of ``paths`` (directories: every file under them, ``__pycache__``
    skipped; missing paths count as absent) and the reprs of ``extra``."""
    h = hashlib.sha256(repr((STORE_FORMAT, *extra)).encode())
    for root in paths:
        files = sorted(root.rglob("*")) if root.is_dir() else [root] if root.is_file() else []
        for f in files:
            if not f.is_file() or "__pycache__" in f.parts:
                continue
            h.update(f"\0{f.relative_to(root.parent).as_posix()}\0".encode())
            h.update(f.read_bytes())
    return h.hexdigest()


class SpriteStore:
    """Prepared sprites on disk, content-addressed: ``<directory>/<key>/`` holds what the art code identified
    by ``key`` drew, so a change of the code, the fonts or the theme (a new key) is never served stale sprites.

    Sheets are stored as their raw RGBA faces (all of one size), zlib-compressed behind a one-line JSON header;
    palettes as their 768 bytes. Files are written to a temporary name and renamed, so a reader (another process,
    or this one after a crash) sees a whole file or none. Unreadable files count as missing."""

    def __init__(self, directory: Path, key: str) -> None:
        self.root = Path(directory)
        self.key = key
        self.dir = self.root / key[:32]

    def _path(self, name: str) -> Path:
        return self.dir / name

    def load_faces(self, deck: str, height: int, cards: tuple[str, ...]) -> dict[str, Image.Image] | None:
        try:
            blob = self._path(f"{deck}-{height}.sheet").read_bytes()
            head, _, body = blob.partition(b"\n")
            meta = json.loads(head)
            if meta.get("cards") != list(cards) or meta.get("height") != height:
                return None
            size = (int(meta["width"]), height)
            raw = zlib.decompress(body)
            step = size[0] * size[1] * 4
            if len(raw) != step * len(cards):
                return None
            return {c: Image.frombytes("RGBA", size, raw[i * step : (i + 1) * step]) for i, c in enumerate(cards)}
        except (OSError, ValueError, KeyError, zlib.error):
            return None

    def save_faces(self, deck: str, height: int, faces: dict[str, Image.Image]) -> None:
        images = list(faces.values())
        head = json.dumps({"deck": deck, "height": height, "width": images[0].width, "cards": list(faces)})
        body = zlib.compress(b"".join(im.convert("RGBA").tobytes() for im in images), 6)
        self._write(f"{deck}-{height}.sheet", head.encode() + b"\n" + body)

    def load_palette(self, deck: str) -> bytes | None:
        try:
            data = self._path(f"{deck}.palette").read_bytes()
        except OSError:
            return None
        return data if len(data) == 768 else None

    def save_palette(self, deck: str, palette: bytes) -> None:
        self._write(f"{deck}.palette", palette)

    def _write(self, name: str, data: bytes) -> None:
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=f".{name}.")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, self._path(name))
        except OSError:
            log.warning("could not store %s in %s", name, self.dir, exc_info=True)

    def prune(self) -> None:
        """Removes the directories of other keys (sprites of art code that is no longer running)."""
        try:
            others = [d for d in self.root.iterdir() if d.is_dir() and d != self.dir]
        except OSError:
            return
        for d in others:
            shutil.rmtree(d, ignore_errors=True)

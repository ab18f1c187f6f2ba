"""The card sprites kept on disk (bot.images.cache.SpriteStore via bot.images.sprites): content-addressed by the
art code and fonts, loaded instead of drawn, prepared in another process, and never served stale or broken."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.images import card_png, encode, sprites, warmup
from bot.images.cache import SpriteStore, files_digest

DECK = "italian"  # the smallest deck: 40 cards


def _forget() -> None:
    """Drops what this process holds in memory, so the next picture loads (or draws) its sprites afresh."""
    sprites._sheet.cache_clear()
    encode._palette.cache_clear()


@pytest.fixture
def store_dir(tmp_path: Path) -> Iterator[Path]:
    _forget()
    yield tmp_path / "sprites"
    sprites.use_disk_cache(None)
    sprites._pending.clear()
    _forget()


def _no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(deck: str, card: str) -> None:
        raise AssertionError(f"{deck} {card} was drawn, not loaded")

    monkeypatch.setattr(sprites, "draw_card", refuse)
    monkeypatch.setattr(encode, "_face_samples", lambda deck: refuse(deck, "palette"))


def test_prepared_sprites_are_loaded_from_disk_and_draw_the_same_bytes(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = card_png(DECK, "KD"), card_png(DECK, "7C", 84)
    _forget()
    store = sprites.use_disk_cache(store_dir)
    assert store is not None and warmup.missing([DECK]) == [DECK]
    warmup.prepare([DECK])
    assert warmup.missing([DECK]) == []
    assert {p.name for p in store.dir.iterdir()} >= {f"{DECK}.palette", f"{DECK}-225.sheet", f"{DECK}-84.sheet"}

    _forget()  # as a new process: nothing in memory, everything on disk
    _no_drawing(monkeypatch)
    assert (card_png(DECK, "KD"), card_png(DECK, "7C", 84)) == drawn


def test_the_key_changes_with_the_art_code_and_the_fonts(tmp_path: Path) -> None:
    code, fonts = tmp_path / "images", tmp_path / "fonts"
    code.mkdir()
    (code / "sprites.py").write_text("RED = (200, 0, 0)\n")
    before = files_digest([code, fonts], "pillow 11")
    assert files_digest([code, fonts], "pillow 11") == before  # stable
    (code / "__pycache__").mkdir()
    (code / "__pycache__" / "sprites.pyc").write_bytes(b"\x00")
    assert files_digest([code, fonts], "pillow 11") == before  # bytecode is not art
    (code / "sprites.py").write_text("RED = (201, 0, 0)\n")
    changed = files_digest([code, fonts], "pillow 11")
    assert changed != before
    fonts.mkdir()
    (fonts / "NotoSans.ttf").write_bytes(b"glyphs")
    with_font = files_digest([code, fonts], "pillow 11")
    assert with_font != changed
    (fonts / "NotoSans.ttf").write_bytes(b"other glyphs")
    assert files_digest([code, fonts], "pillow 11") != with_font
    assert files_digest([code, fonts], "pillow 12") != files_digest([code, fonts], "pillow 11")
    # the real key covers this package, the fonts' folders and Pillow
    assert Path(sprites.__file__).parent in sprites.ART_SOURCES
    assert any(p.name == "fonts" for p in sprites.ART_SOURCES)
    assert sprites.art_key() == sprites.art_key()


def test_another_key_finds_nothing_and_old_keys_are_pruned(store_dir: Path) -> None:
    faces = sprites.sheet(DECK, 78).faces
    old = SpriteStore(store_dir, "a" * 64)
    old.save_faces(DECK, 78, faces)
    assert old.load_faces(DECK, 78, sprites.DECKS[DECK]) is not None
    new = SpriteStore(store_dir, "b" * 64)
    assert new.load_faces(DECK, 78, sprites.DECKS[DECK]) is None
    new.save_palette(DECK, bytes(768))
    new.prune()
    assert [d.name for d in store_dir.iterdir()] == [new.dir.name]


def test_a_damaged_file_is_drawn_again(store_dir: Path) -> None:
    store = sprites.use_disk_cache(store_dir)
    assert store is not None
    good = sprites.sheet(DECK, 78).faces
    path = store.dir / f"{DECK}-78.sheet"
    path.write_bytes(path.read_bytes()[:-100])  # cut short, as by a full disk
    assert store.load_faces(DECK, 78, sprites.DECKS[DECK]) is None
    _forget()
    again = sprites.sheet(DECK, 78).faces
    assert [im.tobytes() for im in again.values()] == [im.tobytes() for im in good.values()]
    assert store.load_faces(DECK, 78, sprites.DECKS[DECK]) is not None  # and stored whole again


def test_another_process_prepares_and_this_one_only_loads(store_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sprites.use_disk_cache(store_dir)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        jobs = warmup.prepare_in(pool, [DECK])
        _no_drawing(monkeypatch)  # this process must wait for the worker's sprites, not draw its own
        png = card_png(DECK, "NB")
        assert jobs[DECK].done() and jobs[DECK].exception() is None
    assert warmup.missing([DECK]) == []
    assert png.startswith(b"\x89PNG")


def test_decks_are_prepared_one_at_a_time_and_a_wanted_deck_jumps_the_queue(store_dir: Path) -> None:
    class Recorder(Executor):
        """Runs nothing: records what was submitted and lets the test finish each job."""

        def __init__(self) -> None:
            self.jobs: list[tuple[str, Future[None]]] = []

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
            job: Future[None] = Future()
            job.set_running_or_notify_cancel()
            self.jobs.append((args[2], job))
            return job

    sprites.use_disk_cache(store_dir)
    pool = Recorder()
    futures = warmup.prepare_in(pool, ["french", "wizard60", "italian", "minchiate97"])
    assert [d for d, _ in pool.jobs] == ["french"]  # one job at a time: the worker is never given a backlog
    sprites._pending["minchiate97"][0].hurry("minchiate97")  # what await_prepared does for a wanted deck
    pool.jobs[0][1].set_result(None)
    assert futures["french"].done() and [d for d, _ in pool.jobs] == ["french", "minchiate97"]
    pool.jobs[1][1].set_exception(RuntimeError("worker died"))
    sprites.await_prepared("minchiate97")  # a failed preparation is not raised into a render: drawn here instead
    assert [d for d, _ in pool.jobs] == ["french", "minchiate97", "wizard60"]
    pool.shutdown()

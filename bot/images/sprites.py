"""Card faces for the four decks, drawn by code and cached once per deck and size.

A card is drawn at ``SS`` times its final size on a 100 x 150 unit grid, then downscaled with Lanczos, which
gives smooth edges to Pillow's (aliased) polygons. Every face carries a large index in the top-left corner,
repeated upside down in the bottom-right one, because in a fanned hand only the left strip of a card shows:
the rank (or trump number) is as tall as the corner allows and the suit sign sits right under it.

Deck ids and their card ids (from ``bot.engine.cards``):

* ``french``: ``FRENCH_52_JOKER`` (Mighty: ``AS``, ``TD``, ``JK``);
* ``wizard``: ``WIZARD_60`` (``10H``, ``QS``, ``WIZ1``..``WIZ4``, ``JES1``..``JES4``);
* ``italian``: ``ITALIAN_40`` (Mediatore: ``AD``, ``7C``, ``JS`` Fante, ``NB`` Cavallo, ``KD`` Re);
* ``minchiate``: ``MINCHIATE_97`` (``T1``..``T40``, ``MATTO``, ``Co1``..``CoK``, ``Cu..``, ``Sw..``, ``Ba..``).

The four Wizards (and the four Jesters) share one design; a gem in the corner and the hat's band, in one of
four colours, tell them apart (their engine ids differ, and a picture must never be ambiguous about which
card it is). All art is the project's own: see ``data/art/LICENSE.md``.

Drawing every sheet takes seconds of CPU. With :func:`use_disk_cache` the sheets and palettes are kept on disk
under :func:`art_key` (a hash of this package's code, the fonts and Pillow's version) and loaded lazily, per deck
and size, when first used; :func:`bot.images.warmup.prepare_in` draws the missing ones in another process (the
bot's event loop keeps its core), and a picture wanted meanwhile waits for its own deck only.
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import PIL
from PIL import Image, ImageDraw

from bot.engine.cards import (
    FRENCH_52_JOKER,
    ITALIAN_40,
    JESTERS,
    JOKER,
    MATTO,
    MINCHIATE_97,
    WIZARD_60,
    WIZARDS,
)
from bot.images import glyphs, theme
from bot.images.cache import SpriteStore, files_digest
from bot.images.glyphs import GOLD, GOLD_DARK, INK, RGB, Point
from bot.images.text import glyph_mask

DECKS: dict[str, tuple[str, ...]] = {
    "french": FRENCH_52_JOKER,
    "wizard60": WIZARD_60,
    "italian": ITALIAN_40,
    "minchiate97": MINCHIATE_97,
}

BASE_HEIGHT = 225  # the size cards are drawn at (hands); other sizes are downscaled from it
SS = 3  # supersampling factor
UNITS_W, UNITS_H = 100, 150

_FACE_FRENCH: RGB = (252, 252, 249)
_FACE_ITALIAN: RGB = (250, 243, 226)
_FACE_TRUMP: RGB = (222, 232, 250)
_FACE_WIZARD: RGB = (30, 38, 98)
_EDGE: RGB = (120, 120, 128)
_NAVY: RGB = (30, 46, 112)
# the four Wizards / Jesters: blue, green, red, yellow (the colours of the original game's four peoples)
_GEMS: tuple[RGB, ...] = ((64, 128, 236), (56, 172, 84), (224, 60, 60), (244, 204, 40))
_COURT_ROBES: dict[str, RGB] = {"K": (184, 40, 44), "Q": (42, 86, 160), "J": (46, 128, 64), "F": (46, 128, 64)}


def card_size(height: int) -> tuple[int, int]:
    """(width, height) in pixels of a card ``height`` pixels tall (2:3, like a bridge card)."""
    return round(height * UNITS_W / UNITS_H), height


class _Canvas:
    """One card being drawn: unit -> pixel conversion on the supersampled image."""

    def __init__(self, face: RGB, edge: RGB = _EDGE, height: int = BASE_HEIGHT) -> None:
        w, h = card_size(height)
        self.k = w * SS / UNITS_W  # pixels per unit
        self.img = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
        self.d = ImageDraw.Draw(self.img)
        self.d.rounded_rectangle(
            (0, 0, w * SS - 1, h * SS - 1), radius=self.u(7), fill=face, outline=edge, width=max(1, int(self.u(0.9)))
        )
        self.size = (w, h)

    def u(self, v: float) -> float:
        return v * self.k

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return x * self.k, y * self.k

    def frame(self, fill: RGB, outline: RGB, box: tuple[float, float, float, float] = (8, 8, 92, 142)) -> None:
        x0, y0, x1, y1 = box
        self.d.rounded_rectangle(
            (self.u(x0), self.u(y0), self.u(x1), self.u(y1)),
            radius=self.u(4),
            fill=fill,
            outline=outline,
            width=max(1, int(self.u(1.1))),
        )

    def done(self) -> Image.Image:
        return self.img.resize(self.size, Image.Resampling.LANCZOS)


# ------------------------------------------------------------------------------------------------- index

_IDX_X, _IDX_Y, _IDX_W, _IDX_TEXT_H = 3.0, 4.5, 24.0, 21.0
_IDX_PIP_Y, _IDX_PIP = 35.5, 16.0
_IDX_BOX = (0.0, 0.0, 29.0, 45.0)  # the corner area an index occupies (units), backed on busy faces


def _index(
    c: _Canvas,
    text: str | None,
    colour: RGB,
    pip: Callable[[ImageDraw.ImageDraw, float, float, float], None] | None,
    backing: RGB | None = None,
    icon: Callable[[ImageDraw.ImageDraw, float, float, float], None] | None = None,
) -> None:
    """The corner index (rank + suit sign), top-left and rotated into the bottom-right corner.

    ``icon`` replaces the rank text by a drawing (Wizard, Jester, Joker, Matto). ``backing`` paints the corner
    first, so the index stays legible over a picture that reaches into the corner.
    """
    lw, lh = int(c.u(_IDX_BOX[2])), int(c.u(_IDX_BOX[3]))
    layer = Image.new("RGBA", (lw, lh), (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)
    if backing is not None:
        ld.rounded_rectangle((0, 0, lw - 1, lh - 1), radius=c.u(5), fill=backing)
    if text is not None:
        mask = glyph_mask(text, int(c.u(_IDX_W)), int(c.u(_IDX_TEXT_H)))
        layer.paste(colour, (int(c.u(_IDX_X)), int(c.u(_IDX_Y))), mask)
    if icon is not None:
        icon(ld, c.u(_IDX_X + _IDX_W / 2), c.u(_IDX_Y + _IDX_TEXT_H / 2), c.u(_IDX_TEXT_H + 2))
    if pip is not None:
        pip(ld, c.u(_IDX_X + _IDX_W / 2), c.u(_IDX_PIP_Y), c.u(_IDX_PIP))
    c.img.alpha_composite(layer, (0, 0))
    W, H = c.img.size
    c.img.alpha_composite(layer.rotate(180), (W - lw, H - lh))


# ------------------------------------------------------------------------------------------- pip layouts

_L, _C, _R = 38.5, 50.0, 61.5
_TOP, _BOT = 24.0, 126.0


def _rows(n: int) -> list[float]:
    return [_TOP + (_BOT - _TOP) * i / (n - 1) for i in range(n)]


def _grid_layout(n: int) -> list[Point]:
    """Classic pip positions for 2..10 (units)."""
    r3 = _rows(3)
    r4 = _rows(4)
    mid = (_TOP + _BOT) / 2
    layouts: dict[int, list[Point]] = {
        1: [(_C, mid)],
        2: [(_C, _TOP), (_C, _BOT)],
        3: [(_C, y) for y in r3],
        4: [(_L, _TOP), (_R, _TOP), (_L, _BOT), (_R, _BOT)],
        5: [(_L, _TOP), (_R, _TOP), (_C, mid), (_L, _BOT), (_R, _BOT)],
        6: [(x, y) for y in r3 for x in (_L, _R)],
        7: [*((x, y) for y in r3 for x in (_L, _R)), (_C, (r3[0] + r3[1]) / 2)],
        8: [*((x, y) for y in r3 for x in (_L, _R)), (_C, (r3[0] + r3[1]) / 2), (_C, (r3[1] + r3[2]) / 2)],
        9: [*((x, y) for y in r4 for x in (_L, _R)), (_C, mid)],
        10: [*((x, y) for y in r4 for x in (_L, _R)), (_C, (r4[0] + r4[1]) / 2), (_C, (r4[2] + r4[3]) / 2)],
    }
    return layouts[n]


def _baton_layout(n: int) -> list[tuple[float, float, float, float]]:
    """Batons cross in pairs, as on Italian packs: (x, y, angle, length) in units, for n >= 2.

    Two or three make one big X (three: with an upright one through it); more make a column of X's, one
    pair per row, so they can still be counted; an odd one lies across the middle row on its own.
    """
    if n <= 3:
        out = [(_C, 76.0, 28.0, 100.0), (_C, 76.0, -28.0, 100.0)]
        return out + ([(_C, 76.0, 0.0, 100.0)] if n == 3 else [])
    m, odd = n // 2, n % 2
    rows = m + odd
    spacing = 100.0 / rows
    tilt = 56.0
    length = min(1.95 * spacing, 64.0)
    out = []
    mid = rows // 2 if odd else -1
    k = 0
    for r in range(rows):
        y = 76.0 + (r - (rows - 1) / 2) * spacing
        if r == mid:
            out.append((_C, y, 90.0, length * 1.1))
            continue
        out.append((_C, y, tilt, length))
        out.append((_C, y, -tilt, length))
        k += 1
    return out


def _sword_spines(n: int) -> list[list[Point]]:
    """Swords bow outwards in crossing pairs, nested like lenses, as on Italian packs (units, hilt first).

    Pair ``j`` has its hilts at the bottom, one either side of the middle, and its blades bow out and cross
    over near the top; an odd sword stands straight in the middle.
    """
    m = n // 2
    bows = [6.0 + 17.0 * j / (m - 1) for j in range(m)] if m > 1 else [16.0]
    spines: list[list[Point]] = []
    for bow in reversed(bows):  # outer pairs first, so inner blades are drawn over them
        for side in (-1.0, 1.0):
            pts: list[Point] = []
            for k in range(17):
                u = k / 16
                y = 122.0 - 94.0 * u
                # hilts spread with the bow; the tips cross over to the other side near the top
                x = _C + side * ((3.0 + 0.45 * bow) * (1 - u) - 6.0 * u + bow * math.sin(math.pi * u * 0.92))
                pts.append((x, y))
            spines.append(pts)
    if n % 2:
        spines.append([(_C, 122.0 - 94.0 * k / 16) for k in range(17)])
    return spines


# ------------------------------------------------------------------------------------------- French faces

_FRENCH_RANK_TEXT = {"T": "10"}


def _french_face(rank: str, suit: str, face: RGB = _FACE_FRENCH) -> Image.Image:
    c = _Canvas(face)
    colour = glyphs.FRENCH_COLOURS[suit]

    def pip(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        glyphs.french_pip(d, suit, x, y, s)

    if rank in ("J", "Q", "K"):
        tint: RGB = (252, 232, 230) if suit in "HD" else (228, 234, 244)
        c.frame(tint, colour)
        _court(c, rank, _COURT_ROBES[rank], lambda d, x, y, s: glyphs.french_pip(d, suit, x, y, s))
        _index(c, rank, colour, pip, backing=face)
        return c.done()
    if rank == "A":
        s = 62.0 if suit == "S" else 52.0
        if suit == "S":  # the ace of spades is traditionally ornate
            c.d.ellipse((c.u(16), c.u(41), c.u(84), c.u(109)), outline=colour, width=int(c.u(1.5)))
        glyphs.french_pip(c.d, suit, c.u(50), c.u(75), c.u(s))
    else:
        n = int(_FRENCH_RANK_TEXT.get(rank, rank))
        for x, y in _grid_layout(n):
            # pips in the lower half are printed upside down, as on real cards
            glyphs.french_pip(c.d, suit, c.u(x), c.u(y), c.u(19 if n < 9 else 17.5), 180.0 if y > 76 else 0.0)
    _index(c, _FRENCH_RANK_TEXT.get(rank, rank), colour, pip)
    return c.done()


def _court(
    c: _Canvas,
    rank: str,
    robe: RGB,
    emblem: Callable[[ImageDraw.ImageDraw, float, float, float], None],
    emblem_size: float = 24.0,
    held: bool = False,
) -> None:
    """A court card's figure: a bust with headgear (K crown, Q tiara, J/F cap, C/N a horse) and the suit sign.

    ``held`` draws the emblem beside the figure (long swords and batons are held, not worn on the chest).
    """
    if rank in ("C", "N"):
        glyphs.horse(c.d, c.u(54), c.u(82), c.u(92))
        if held:
            emblem(c.d, c.u(26), c.u(98), c.u(emblem_size))
        else:
            _badge(c, 28.0, 118.0, emblem_size)
            emblem(c.d, c.u(28), c.u(118), c.u(emblem_size))
        return
    glyphs.bust(c.d, c.u(50), c.u(92), c.u(76), robe)
    head_top = 92 - 0.38 * 76
    if rank == "K":
        glyphs.crown(c.d, c.u(50), c.u(head_top - 3), c.u(34))
    elif rank == "Q":
        glyphs.tiara(c.d, c.u(50), c.u(head_top - 2), c.u(32))
    else:
        glyphs.beret(c.d, c.u(50), c.u(head_top + 1), c.u(36))
    if held:
        emblem(c.d, c.u(74), c.u(90), c.u(emblem_size))
    else:
        # the suit sign on a white disc on the chest, so it reads on a robe of any colour
        _badge(c, 50.0, 113.0, emblem_size)
        emblem(c.d, c.u(50), c.u(113), c.u(emblem_size))


def _badge(c: _Canvas, x: float, y: float, size: float) -> None:
    r = size * 0.68
    c.d.ellipse((c.u(x - r), c.u(y - r), c.u(x + r), c.u(y + r)), fill=glyphs.WHITE, outline=INK, width=int(c.u(0.8)))


def _joker_face() -> Image.Image:
    c = _Canvas(_FACE_FRENCH)
    c.frame((255, 246, 214), GOLD_DARK)
    for x, y, s, col in ((26, 60, 10, glyphs.RED), (76, 40, 12, glyphs.CUP_BLUE), (72, 118, 10, glyphs.LEAF)):
        glyphs.star(c.d, c.u(x), c.u(y), c.u(s), col)
    glyphs.jester_hat(c.d, c.u(50), c.u(80), c.u(64), (glyphs.RED, (40, 110, 190)))
    _index(
        c,
        None,
        INK,
        lambda d, x, y, s: glyphs.star(d, x, y, s * 1.1, glyphs.RED),
        backing=_FACE_FRENCH,
        icon=lambda d, x, y, s: glyphs.jester_hat(d, x, y, s * 1.3, (glyphs.RED, (40, 110, 190))),
    )
    return c.done()


# ------------------------------------------------------------------------------------------- Wizard faces


def _gem(d: ImageDraw.ImageDraw, x: float, y: float, s: float, colour: RGB) -> None:
    r = s * 0.42
    d.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=glyphs.WHITE, width=max(1, int(s * 0.08)))
    d.ellipse((x - r * 0.55, y - r * 0.6, x - r * 0.05, y - r * 0.15), fill=(255, 255, 255))


def _wizard_face(n: int) -> Image.Image:
    gem = _GEMS[n - 1]
    c = _Canvas(_FACE_WIZARD, GOLD_DARK)
    c.frame((44, 54, 128), GOLD)
    for x, y, s in ((72, 22, 8), (84, 48, 6), (20, 116, 7), (36, 132, 5), (80, 128, 6), (62, 40, 5)):
        glyphs.star(c.d, c.u(x), c.u(y), c.u(s), glyphs.GOLD_LIGHT)
    glyphs.wizard_hat(c.d, c.u(52), c.u(82), c.u(88), (110, 62, 176), band=gem)
    _index(
        c,
        None,
        GOLD,
        lambda d, x, y, s: _gem(d, x, y, s, gem),
        backing=_FACE_WIZARD,
        # a lighter hat than the big one: it must read on the dark corner at a small size
        icon=lambda d, x, y, s: glyphs.wizard_hat(d, x, y - s * 0.05, s * 1.3, (168, 120, 236), band=gem),
    )
    return c.done()


def _jester_face(n: int) -> Image.Image:
    gem = _GEMS[n - 1]
    c = _Canvas(_FACE_FRENCH)
    c.frame((236, 240, 236), (120, 130, 120))
    glyphs.jester_hat(c.d, c.u(50), c.u(78), c.u(66), (gem, (250, 250, 250)), bell=GOLD)
    _index(
        c,
        None,
        INK,
        lambda d, x, y, s: _gem(d, x, y, s, gem),
        backing=_FACE_FRENCH,
        icon=lambda d, x, y, s: glyphs.jester_hat(d, x, y, s * 1.3, (gem, (250, 250, 250))),
    )
    return c.done()


# ----------------------------------------------------------------------------------- Italian / Minchiate

# Italian pack rank letters as the text labels show them (bot.render.cards): Cavallo as C
_ITALIAN_RANK_TEXT = {"N": "C"}


def _emblem_fn(suit: str) -> Callable[[ImageDraw.ImageDraw, float, float, float], None]:
    def f(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        glyphs.italian_emblem(d, suit, x, y, s)

    return f


def _held_fn(suit: str) -> Callable[[ImageDraw.ImageDraw, float, float, float], None]:
    # a court figure holds its sword or baton slanted, beside it
    def f(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        glyphs.italian_emblem(d, suit, x, y, s, 14.0)

    return f


def _index_emblem(suit: str) -> Callable[[ImageDraw.ImageDraw, float, float, float], None]:
    # long emblems are tilted in the index so they fill its box; coins and cups stand upright
    def f(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
        if suit == "S":
            glyphs.sword(d, x, y, s * 1.6, 40.0, curve=0.1)
        elif suit == "B":
            glyphs.baton(d, x, y, s * 1.5, 40.0, thick=1.25)
        elif suit == "C":
            glyphs.cup(d, x, y + s * 0.04, s * 1.3)
        else:
            glyphs.coin(d, x, y, s * 1.12)

    return f


def _italian_pips(c: _Canvas, suit: str, n: int) -> None:
    if n == 1:  # aces: one large emblem
        size = {"D": 56.0, "C": 80.0, "S": 118.0, "B": 112.0}[suit]
        if suit == "D":
            c.d.ellipse((c.u(14), c.u(39), c.u(86), c.u(111)), outline=glyphs.GOLD_DARK, width=int(c.u(1.2)))
        glyphs.italian_emblem(c.d, suit, c.u(50), c.u(75), c.u(size), 8.0 if suit in "SB" else 0.0)
        return
    if suit in "DC":
        size = {"D": 24.0, "C": 30.0}[suit] if n <= 8 else {"D": 19.5, "C": 25.0}[suit]
        for x, y in _grid_layout(n):
            glyphs.italian_emblem(c.d, suit, c.u(x), c.u(y), c.u(size))
        return
    if suit == "S":
        width = 7.0 if n <= 4 else 5.5
        for spine in _sword_spines(n):
            glyphs.curved_sword(c.d, [c.pt(x, y) for x, y in spine], c.u(width))
        return
    for x, y, a, length in _baton_layout(n):
        glyphs.baton(c.d, c.u(x), c.u(y), c.u(length), a, thick=0.8 if n <= 3 else 1.0)


def _italian_face(rank: str, suit: str, face: RGB = _FACE_ITALIAN, court_ranks: str = "JNK") -> Image.Image:
    c = _Canvas(face)
    colour = glyphs.ITALIAN_SUIT_COLOURS[suit]
    text = _ITALIAN_RANK_TEXT.get(rank, rank) if court_ranks == "JNK" else rank
    if rank in court_ranks:
        tint = {"D": (250, 236, 196), "C": (248, 226, 222), "S": (226, 232, 240), "B": (230, 240, 222)}[suit]
        c.frame(tint, colour)
        robe = _COURT_ROBES.get(rank, (120, 60, 140))
        held = suit in "SB"
        _court(c, rank, robe, _held_fn(suit) if held else _emblem_fn(suit), 60.0 if held else 24.0, held=held)
        _index(c, text, colour, _index_emblem(suit), backing=face)
        return c.done()
    n = 1 if rank == "A" else int(rank)
    _italian_pips(c, suit, n)
    _index(c, text, colour, _index_emblem(suit), backing=face if suit in "SB" else None)
    return c.done()


def _trump_face(n: int) -> Image.Image:
    c = _Canvas(_FACE_TRUMP, _NAVY)
    c.frame((206, 220, 246), _NAVY)
    # a gold medallion with the number, as large as it can be
    cx, cy, r = 50.0, 92.0, 33.0
    c.d.ellipse((c.u(cx - r), c.u(cy - r), c.u(cx + r), c.u(cy + r)), fill=GOLD, outline=GOLD_DARK, width=int(c.u(1.4)))
    r2 = r - 5
    c.d.ellipse((c.u(cx - r2), c.u(cy - r2), c.u(cx + r2), c.u(cy + r2)), fill=glyphs.GOLD_LIGHT)
    mask = glyph_mask(str(n), int(c.u(40)), int(c.u(30)))
    c.img.paste(_NAVY, (int(c.u(cx - 20)), int(c.u(cy - 15))), mask)
    _trump_motif(c, n)
    _index(c, str(n), _NAVY, lambda d, x, y, s: glyphs.star(d, x, y, s * 1.1, _NAVY), backing=_FACE_TRUMP)
    return c.done()


def _trump_motif(c: _Canvas, n: int) -> None:
    """A small picture above the medallion: the five top trumps get their own (Star, Moon, Sun, World, Fame)."""
    x, y = c.u(60), c.u(36)
    if n == 36:
        glyphs.star(c.d, x, y, c.u(30), GOLD, points=8, inner=0.5)
    elif n == 37:
        glyphs.moon(c.d, x, y, c.u(26), (244, 240, 210), (206, 220, 246))
    elif n == 38:
        glyphs.sun(c.d, x, y, c.u(30), GOLD, (236, 140, 40))
    elif n == 39:
        glyphs.globe(c.d, x, y + c.u(4), c.u(22), (90, 150, 220), glyphs.LEAF)
    elif n == 40:
        glyphs.trumpet(c.d, x, y, c.u(36), -18.0)
    else:
        # the other trumps: small stars, one more for each group of ten (1-10, 11-20, 21-30, 31-35)
        k = (n - 1) // 10 + 1
        for i in range(k):
            glyphs.star(c.d, x + c.u(9) * (i - (k - 1) / 2), y, c.u(8), _NAVY)


def _matto_face() -> Image.Image:
    c = _Canvas(_FACE_ITALIAN)
    c.frame((232, 244, 226), glyphs.LEAF)
    glyphs.bust(c.d, c.u(50), c.u(96), c.u(76), (214, 60, 52), trim=GOLD)
    glyphs.jester_hat(c.d, c.u(50), c.u(56), c.u(40), (GOLD, (214, 60, 52)), bell=(40, 110, 190))
    _index(
        c,
        None,
        INK,
        None,
        backing=_FACE_ITALIAN,
        icon=lambda d, x, y, s: glyphs.jester_hat(d, x, y + s * 0.35, s * 1.2, (GOLD, (214, 60, 52)), (40, 110, 190)),
    )
    return c.done()


def _minchiate_face(card: str) -> Image.Image:
    if card == MATTO:
        return _matto_face()
    if card[0] == "T":
        return _trump_face(int(card[1:]))
    suit, rank = glyphs.MINCHIATE_TO_ITALIAN[card[:2]], card[2:]
    if rank == "1":
        return _minchiate_ace(suit)
    return _italian_face(rank, suit, court_ranks="FCQK")


def _minchiate_ace(suit: str) -> Image.Image:
    c = _Canvas(_FACE_ITALIAN)
    _italian_pips(c, suit, 1)
    _index(c, "1", glyphs.ITALIAN_SUIT_COLOURS[suit], _index_emblem(suit), backing=_FACE_ITALIAN)
    return c.done()


# ------------------------------------------------------------------------------------------------ dispatch


def draw_card(deck: str, card: str) -> Image.Image:
    """One card face (RGBA, ``card_size(BASE_HEIGHT)``), freshly drawn. Prefer :func:`sheet` (cached)."""
    if deck == "french":
        if card == JOKER:
            return _joker_face()
        return _french_face(card[:-1], card[-1])
    if deck == "wizard60":
        if card in WIZARDS:
            return _wizard_face(int(card[3:]))
        if card in JESTERS:
            return _jester_face(int(card[3:]))
        rank = "T" if card[:-1] == "10" else card[:-1]
        return _french_face(rank, card[-1])
    if deck == "italian":
        return _italian_face(card[:-1], card[-1])
    if deck == "minchiate97":
        return _minchiate_face(card)
    raise KeyError(f"unknown deck {deck!r}")


def _dim(img: Image.Image) -> Image.Image:
    """The card shown for a card that may not be played now: blended towards a dark grey, alpha kept."""
    flat = Image.new("RGBA", img.size, (*theme.DIM_TO, 255))
    out = Image.blend(img, flat, theme.DIM_AMOUNT)
    out.putalpha(img.getchannel("A"))
    return out


@dataclass(frozen=True, slots=True)
class Sheet:
    """Every card of one deck at one size: ``faces[card]`` and the dimmed ``dimmed[card]`` (RGBA images)."""

    deck: str
    height: int
    width: int
    faces: dict[str, Image.Image]
    dimmed: dict[str, Image.Image]
    shadow: Image.Image  # an RGBA drop shadow to paste under a card, offset by ``shadow_offset``
    shadow_offset: tuple[int, int]


_lock = threading.RLock()  # re-entrant: a downscaled sheet asks for the base sheet


@functools.lru_cache(maxsize=32)
def _sheet(deck: str, height: int) -> Sheet:
    cards = DECKS[deck]
    store = _store
    faces = store.load_faces(deck, height, cards) if store is not None else None
    if faces is None:
        if height == BASE_HEIGHT:
            faces = {card: draw_card(deck, card) for card in cards}
        else:
            base = sheet(deck, BASE_HEIGHT).faces
            size = card_size(height)
            faces = {card: base[card].resize(size, Image.Resampling.LANCZOS) for card in cards}
        if store is not None:
            store.save_faces(deck, height, faces)
    w, h = card_size(height)
    # (the dimmed faces are a cheap blend: recomputed rather than stored)
    return Sheet(deck, h, w, faces, {c: _dim(im) for c, im in faces.items()}, *_shadow(w, h))


def _shadow(w: int, h: int) -> tuple[Image.Image, tuple[int, int]]:
    from PIL import ImageFilter

    pad = max(2, h // 40)
    sh = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(sh).rounded_rectangle(
        (pad, pad, pad + w - 1, pad + h - 1), radius=w * 7 // 100, fill=theme.SHADOW_ALPHA
    )
    sh = sh.filter(ImageFilter.GaussianBlur(pad / 2))
    img = Image.new("RGBA", sh.size, (0, 0, 0, 0))
    img.putalpha(sh)
    off = max(1, h // 60)
    return img, (off - pad, off * 2 - pad)


def sheet(deck: str, height: int = BASE_HEIGHT) -> Sheet:
    """The cached sprites of ``deck`` at ``height`` pixels (drawn once; thread-safe)."""
    if deck not in DECKS:
        raise KeyError(f"unknown deck {deck!r}; expected one of {sorted(DECKS)}")
    await_prepared(deck)
    with _lock:
        return _sheet(deck, height)


# ------------------------------------------------------------------------------------------------ on disk

_IMAGES = Path(__file__).resolve().parent
#: what the pictures are drawn from: this package's code and the fonts (wherever a font module keeps them)
ART_SOURCES = (_IMAGES, _IMAGES.parent / "fonts", _IMAGES.parent.parent / "data" / "fonts")

_store: SpriteStore | None = None
#: decks being prepared in another process (see :func:`prepare_in`)
_pending: dict[str, tuple[_Hurry, Future[None]]] = {}


class _Hurry(Protocol):
    def hurry(self, deck: str) -> None: ...


def expect(deck: str, preparation: _Hurry, future: Future[None]) -> None:
    """Note that ``deck`` is being prepared in another process (:func:`bot.images.warmup.prepare_in`): a sheet
    of it wanted meanwhile waits for ``future``, asking ``preparation`` to take that deck first."""
    _pending[deck] = (preparation, future)


def art_key() -> str:
    """The content address of the sprites: changes whenever the art code, the fonts, the theme, the decks or
    Pillow (its resampling, its bundled font) change."""
    return files_digest(ART_SOURCES, PIL.__version__, sorted(DECKS.items()))


def use_disk_cache(directory: Path | None, key: str | None = None) -> SpriteStore | None:
    """Keep prepared sprites in ``directory`` (None: in memory only). Returns the store."""
    global _store
    _store = None if directory is None else SpriteStore(directory, key or art_key())
    return _store


def disk_store() -> SpriteStore | None:
    """The disk cache in use (:func:`use_disk_cache`), if any."""
    return _store


def stored_palette(deck: str) -> bytes | None:
    return _store.load_palette(deck) if _store is not None else None


def store_palette(deck: str, palette: bytes) -> None:
    if _store is not None:
        _store.save_palette(deck, palette)


def await_prepared(deck: str) -> None:
    """Waits for ``deck``'s preparation in another process, if it is under way (call it from a worker thread:
    it blocks). A failed preparation is not raised: the deck is then drawn here."""
    entry = _pending.get(deck)
    if entry is None or entry[1].done():
        return
    prep, future = entry
    prep.hurry(deck)
    with contextlib.suppress(Exception):
        future.result()

"""Vector glyphs drawn with Pillow primitives: French pips, Italian suit emblems, headgear, hats, motifs.

Every function draws onto an ``ImageDraw`` in pixel space, centred on ``(cx, cy)`` and scaled by ``s`` (the
glyph's nominal height in pixels). Shapes are built as point lists in a unit box, then rotated/scaled/moved by
:func:`place`, so one definition serves every size and orientation. Callers draw at a multiple of the final
size and downscale, which is how the polygons (not antialiased by Pillow) end up smooth.

All art here is the project's own, drawn by this code; see ``data/art/LICENSE.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import ImageDraw

Point = tuple[float, float]
RGB = tuple[int, int, int]

# --- palette: a few strong, print-like colours (they also keep the quantised PNG palette small)
INK: RGB = (28, 28, 34)
RED: RGB = (200, 30, 40)
GOLD: RGB = (230, 178, 50)
GOLD_DARK: RGB = (120, 80, 16)
GOLD_LIGHT: RGB = (250, 222, 120)
CUP_RED: RGB = (184, 40, 44)
CUP_BLUE: RGB = (42, 86, 160)
STEEL: RGB = (188, 204, 218)
STEEL_DARK: RGB = (44, 58, 76)
WOOD: RGB = (160, 104, 52)
WOOD_DARK: RGB = (72, 42, 16)
WOOD_LIGHT: RGB = (206, 150, 86)
LEAF: RGB = (56, 130, 60)
SKIN: RGB = (242, 204, 170)
WHITE: RGB = (255, 255, 255)

FRENCH_COLOURS: dict[str, RGB] = {"S": INK, "C": INK, "H": RED, "D": RED}


def place(points: Sequence[Point], cx: float, cy: float, s: float, angle: float = 0.0) -> list[Point]:
    """Unit-box points -> pixels: scale by ``s``, rotate by ``angle`` degrees (clockwise on screen), move."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    return [(cx + s * (x * ca - y * sa), cy + s * (x * sa + y * ca)) for x, y in points]


def _ellipse_pts(x: float, y: float, rx: float, ry: float, n: int = 40) -> list[Point]:
    return [(x + rx * math.cos(2 * math.pi * i / n), y + ry * math.sin(2 * math.pi * i / n)) for i in range(n)]


def _circle(
    d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: RGB, outline: RGB | None = None, w: float = 0
) -> None:
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=round(w))


def _poly(
    d: ImageDraw.ImageDraw, pts: Sequence[Point], fill: RGB | None, outline: RGB | None = None, w: float = 0
) -> None:
    d.polygon(list(pts), fill=fill, outline=outline, width=max(0, round(w)))


# ----------------------------------------------------------------------------------------------- French pips

# The heart as the classic parametric curve, normalised to a unit-high box centred on 0.
_HEART: list[Point] = []
for _i in range(72):
    _t = 2 * math.pi * _i / 72
    _HEART.append(
        (
            16 * math.sin(_t) ** 3 / 30.0,
            -(13 * math.cos(_t) - 5 * math.cos(2 * _t) - 2 * math.cos(3 * _t) - math.cos(4 * _t)) / 30.0,
        )
    )
_hy = [p[1] for p in _HEART]
_HEART = [(x, y - (max(_hy) + min(_hy)) / 2) for x, y in _HEART]


def _stem(width: float, top: float, bottom: float) -> list[Point]:
    """A flared stem (concave sides), as under spades and clubs."""
    pts: list[Point] = [(-0.04, top)]
    for i in range(9):
        u = i / 8
        pts.append((-0.04 - (width - 0.04) * u**2, top + (bottom - top) * u))
    pts += [(width, bottom)]
    for i in range(8, -1, -1):
        u = i / 8
        pts.append((0.04 + (width - 0.04) * u**2, top + (bottom - top) * u))
    return pts


def heart(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB = RED, angle: float = 0.0) -> None:
    _poly(d, place(_HEART, cx, cy, s, angle), fill)


def diamond(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB = RED, angle: float = 0.0) -> None:
    # slightly concave sides, like printed diamonds
    corners = [(0.0, -0.5), (0.38, 0.0), (0.0, 0.5), (-0.38, 0.0)]
    pts: list[Point] = []
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        for k in range(8):
            u = k / 8
            mx, my = (x0 + x1) / 2 * 0.86, (y0 + y1) / 2 * 0.86
            pts.append(
                (
                    (1 - u) ** 2 * x0 + 2 * u * (1 - u) * mx + u**2 * x1,
                    (1 - u) ** 2 * y0 + 2 * u * (1 - u) * my + u**2 * y1,
                )
            )
    _poly(d, place(pts, cx, cy, s, angle), fill)


def spade(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB = INK, angle: float = 0.0) -> None:
    body = [(x * 0.98, -y * 0.8 - 0.08) for x, y in _HEART]
    _poly(d, place(body, cx, cy, s, angle), fill)
    _poly(d, place(_stem(0.2, 0.05, 0.5), cx, cy, s, angle), fill)


def club(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB = INK, angle: float = 0.0) -> None:
    for x, y in ((0.0, -0.25), (-0.255, 0.07), (0.255, 0.07)):
        _poly(d, place(_ellipse_pts(x, y, 0.235, 0.235), cx, cy, s, angle), fill)
    _poly(d, place([(-0.12, -0.05), (0.12, -0.05), (0.1, 0.2), (-0.1, 0.2)], cx, cy, s, angle), fill)
    _poly(d, place(_stem(0.19, 0.1, 0.5), cx, cy, s, angle), fill)


FRENCH_PIPS = {"S": spade, "H": heart, "D": diamond, "C": club}


def french_pip(d: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, s: float, angle: float = 0.0) -> None:
    FRENCH_PIPS[suit](d, cx, cy, s, FRENCH_COLOURS[suit], angle)


# ---------------------------------------------------------------------------------------- Italian emblems


def coin(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, angle: float = 0.0) -> None:
    """Denari / Coins: a gold disc with a ring and a red rosette, as on Italian packs."""
    r = s / 2
    w = max(1, int(r * 0.09))
    _circle(d, cx, cy, r, GOLD, GOLD_DARK, w)
    _circle(d, cx, cy, r * 0.74, GOLD_LIGHT, GOLD_DARK, max(1, w // 2))
    # an eight-petal rosette
    for k in range(8):
        a = math.radians(k * 45 + angle)
        px, py = cx + r * 0.38 * math.cos(a), cy + r * 0.38 * math.sin(a)
        _circle(d, px, py, r * 0.17, CUP_RED, GOLD_DARK, max(1, w // 3))
    _circle(d, cx, cy, r * 0.2, GOLD, GOLD_DARK, max(1, w // 3))
    # a ring of beads between rim and inner ring
    for k in range(16):
        a = math.radians(k * 22.5 + 11.25)
        _circle(d, cx + r * 0.87 * math.cos(a), cy + r * 0.87 * math.sin(a), r * 0.045, GOLD_DARK)


def cup(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, angle: float = 0.0) -> None:
    """Coppe / Cups: a goblet (bowl, knot, stem, foot) in gold with red and blue bands."""
    ow = max(1, s * 0.025)

    def p(pts: Sequence[Point]) -> list[Point]:
        return place(pts, cx, cy, s, angle)

    # bowl: rim at the top, rounded bottom
    bowl: list[Point] = [(-0.3, -0.42)]
    for i in range(13):
        a = math.pi * i / 12
        bowl.append((-0.3 * math.cos(a), -0.2 + 0.24 * math.sin(a)))
    bowl.append((0.3, -0.42))
    _poly(d, p(bowl), GOLD, GOLD_DARK, ow)
    band: list[Point] = [(-0.295, -0.2)]
    for i in range(13):
        a = math.pi * i / 12
        band.append((-0.295 * math.cos(a), -0.2 + 0.23 * math.sin(a)))
    band += [(0.295, -0.2)]
    _poly(d, p(band), CUP_RED, GOLD_DARK, ow)
    _poly(d, p([(-0.3, -0.26), (0.3, -0.26), (0.3, -0.2), (-0.3, -0.2)]), GOLD_LIGHT, GOLD_DARK, ow)
    _poly(d, p(_ellipse_pts(0, -0.42, 0.3, 0.06)), GOLD_LIGHT, GOLD_DARK, ow)
    # stem with a blue knot
    _poly(d, p([(-0.045, 0.02), (0.045, 0.02), (0.055, 0.32), (-0.055, 0.32)]), GOLD, GOLD_DARK, ow)
    _poly(d, p(_ellipse_pts(0, 0.14, 0.11, 0.065)), CUP_BLUE, GOLD_DARK, ow)
    # foot
    _poly(d, p([(-0.07, 0.3), (0.07, 0.3), (0.24, 0.44), (-0.24, 0.44)]), GOLD, GOLD_DARK, ow)
    _poly(d, p(_ellipse_pts(0, 0.44, 0.25, 0.055)), GOLD_LIGHT, GOLD_DARK, ow)


def _sabre_blade(curve: float) -> tuple[list[Point], list[Point]]:
    """The curved blade from the guard (y=0.28) to the tip (y=-0.5), and its fuller line."""
    left: list[Point] = []
    right: list[Point] = []
    mid: list[Point] = []
    n = 16
    for i in range(n + 1):
        u = i / n
        y = 0.28 - 0.78 * u
        x = curve * u * u
        w = 0.075 * (1 - u**1.6) + 0.004
        left.append((x - w, y))
        right.append((x + w * 0.8, y))
        if u < 0.8:
            mid.append((x - w * 0.2, y))
    return left + right[::-1], mid


def sword(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, angle: float = 0.0, curve: float = 0.14) -> None:
    """Spade / Swords: a curved blade with a gold guard, red grip and pommel (the hilt at the bottom)."""
    ow = max(1, s * 0.02)
    blade, mid = _sabre_blade(curve)
    _poly(d, place(blade, cx, cy, s, angle), STEEL, STEEL_DARK, ow)
    d.line(place(mid, cx, cy, s, angle), fill=STEEL_DARK, width=max(1, int(s * 0.012)))
    # guard with curled ends
    guard = [
        (-0.17, 0.27),
        (0.17, 0.27),
        (0.2, 0.24),
        (0.2, 0.31),
        (0.17, 0.33),
        (-0.17, 0.33),
        (-0.2, 0.31),
        (-0.2, 0.24),
    ]
    _poly(d, place(guard, cx, cy, s, angle), GOLD, GOLD_DARK, ow)
    _poly(
        d, place([(-0.04, 0.33), (0.04, 0.33), (0.045, 0.45), (-0.045, 0.45)], cx, cy, s, angle), CUP_RED, GOLD_DARK, ow
    )
    px, py = place([(0.0, 0.47)], cx, cy, s, angle)[0]
    _circle(d, px, py, s * 0.045, GOLD, GOLD_DARK, int(ow))


def baton(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, angle: float = 0.0, thick: float = 1.0) -> None:
    """Bastoni / Batons: a knobbly wooden club, thick at the top, with two leaf stubs.

    ``thick`` scales the width: 1 for a lone club (ace, index), less for clubs crossed in a lattice.
    """
    ow = max(1, s * 0.02)
    left: list[Point] = []
    right: list[Point] = []
    n = 20
    for i in range(n + 1):
        u = i / n  # 0 = bottom (handle), 1 = top (head)
        y = 0.48 - 0.96 * u
        w = thick * (0.042 + 0.05 * u**1.3 + 0.01 * math.sin(u * math.pi * 5))
        left.append((-w, y))
        right.append((w, y))
    hw = thick * (0.042 + 0.05)
    head = [
        (hw * math.cos(math.pi + math.pi * i / 8), -0.48 + 0.05 * math.sin(math.pi + math.pi * i / 8)) for i in range(9)
    ]
    body = left + head + right[::-1]
    _poly(d, place(body, cx, cy, s, angle), WOOD, WOOD_DARK, ow)
    # a lighter grain stripe
    stripe = [(-0.012 + 0.02 * u, 0.42 - 0.84 * u) for u in (0.0, 0.5, 1.0)]
    d.line(place(stripe, cx, cy, s, angle), fill=WOOD_LIGHT, width=max(1, int(s * 0.022)))
    # knots
    for y, x in ((0.2, -0.01), (-0.1, 0.02), (-0.34, -0.02)):
        kx, ky = place([(x, y)], cx, cy, s, angle)[0]
        _circle(d, kx, ky, s * 0.018, WOOD_DARK)
    # leaf stubs sprouting from the sides
    for (x, y), _a in (((0.06 * thick, 0.02), 35.0), ((-0.07 * thick, -0.22), -35.0)):
        leaf = [(0.0, 0.0), (0.05, -0.03), (0.11, -0.01), (0.05, 0.02)]
        if x < 0:
            leaf = [(-px, py) for px, py in leaf]
        pts = [(x + lx, y + ly) for lx, ly in leaf]
        _poly(d, place(pts, cx, cy, s, angle), LEAF, WOOD_DARK, max(1, ow * 0.6))


ITALIAN_EMBLEMS = {"D": coin, "C": cup, "S": sword, "B": baton}
# Minchiate suits use the same emblems as the Italian pack
MINCHIATE_TO_ITALIAN = {"Co": "D", "Cu": "C", "Sw": "S", "Ba": "B"}
ITALIAN_SUIT_COLOURS: dict[str, RGB] = {"D": GOLD_DARK, "C": CUP_RED, "S": STEEL_DARK, "B": (34, 100, 44)}


def italian_emblem(d: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, s: float, angle: float = 0.0) -> None:
    ITALIAN_EMBLEMS[suit](d, cx, cy, s, angle)


def curved_sword(d: ImageDraw.ImageDraw, spine: Sequence[Point], width: float) -> None:
    """A sword whose blade follows ``spine`` (pixels, hilt first, tip last); ``width`` = blade width at the hilt.

    Used for the Italian swords that bow and cross in the suit's layouts; the guard stands across the blade.
    """
    n = len(spine)
    ow = max(1, width * 0.2)
    left: list[Point] = []
    right: list[Point] = []
    mid: list[Point] = []
    for i, (x, y) in enumerate(spine):
        x0, y0 = spine[max(0, i - 1)]
        x1, y1 = spine[min(n - 1, i + 1)]
        tx, ty = x1 - x0, y1 - y0
        norm = math.hypot(tx, ty) or 1.0
        nx, ny = -ty / norm, tx / norm
        u = i / (n - 1)
        w = width / 2 * (1 - u**1.6) + width * 0.03
        left.append((x + nx * w, y + ny * w))
        right.append((x - nx * w, y - ny * w))
        if u < 0.8:
            mid.append((x + nx * w * 0.2, y + ny * w * 0.2))
    _poly(d, left + right[::-1], STEEL, STEEL_DARK, ow)
    d.line(mid, fill=STEEL_DARK, width=max(1, int(width * 0.12)))
    # hilt: guard across the blade, grip and pommel continuing the spine backwards
    (hx, hy), (ax, ay) = spine[0], spine[1]
    tx, ty = hx - ax, hy - ay
    norm = math.hypot(tx, ty) or 1.0
    tx, ty = tx / norm, ty / norm
    nx, ny = -ty, tx
    g = width * 1.9
    gt = width * 0.35
    guard = [
        (hx + nx * g + tx * gt, hy + ny * g + ty * gt),
        (hx - nx * g + tx * gt, hy - ny * g + ty * gt),
        (hx - nx * g - tx * gt, hy - ny * g - ty * gt),
        (hx + nx * g - tx * gt, hy + ny * g - ty * gt),
    ]
    grip_len = width * 2.2
    gw = width * 0.42
    grip = [
        (hx + nx * gw + tx * gt, hy + ny * gw + ty * gt),
        (hx - nx * gw + tx * gt, hy - ny * gw + ty * gt),
        (hx - nx * gw + tx * grip_len, hy - ny * gw + ty * grip_len),
        (hx + nx * gw + tx * grip_len, hy + ny * gw + ty * grip_len),
    ]
    _poly(d, grip, CUP_RED, GOLD_DARK, ow)
    _poly(d, guard, GOLD, GOLD_DARK, ow)
    _circle(
        d,
        hx + tx * (grip_len + width * 0.45),
        hy + ty * (grip_len + width * 0.45),
        width * 0.55,
        GOLD,
        GOLD_DARK,
        int(ow),
    )


def long_emblem(
    d: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, s: float, angle: float, bend: float, thick: float
) -> None:
    """A sword (curved by ``bend``) or a baton (``thick``) for the crossed layouts of the long suits."""
    if suit == "S":
        sword(d, cx, cy, s, angle, curve=bend)
    else:
        baton(d, cx, cy, s, angle, thick=thick)


# ----------------------------------------------------------------------------------------- headgear, hats


def crown(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, jewel: RGB = CUP_RED) -> None:
    """A king's crown: five points with balls, a band with jewels (``s`` = width)."""
    ow = max(1, s * 0.03)
    pts: list[Point] = [(-0.5, 0.25), (-0.5, -0.1)]
    tips = [(-0.5, -0.3), (-0.25, -0.42), (0.0, -0.5), (0.25, -0.42), (0.5, -0.3)]
    valleys = [(-0.375, 0.0), (-0.125, -0.05), (0.125, -0.05), (0.375, 0.0)]
    seq: list[Point] = []
    for i, t in enumerate(tips):
        seq.append(t)
        if i < len(valleys):
            seq.append(valleys[i])
    pts = [(-0.5, 0.25), *seq, (0.5, 0.25)]
    _poly(d, place(pts, cx, cy, s), GOLD, GOLD_DARK, ow)
    _poly(d, place([(-0.5, 0.08), (0.5, 0.08), (0.5, 0.25), (-0.5, 0.25)], cx, cy, s), GOLD_LIGHT, GOLD_DARK, ow)
    for x, y in tips:
        px, py = place([(x, y)], cx, cy, s)[0]
        _circle(d, px, py, s * 0.06, GOLD_LIGHT, GOLD_DARK, int(ow))
    for x in (-0.3, 0.0, 0.3):
        px, py = place([(x, 0.165)], cx, cy, s)[0]
        _circle(d, px, py, s * 0.055, jewel, GOLD_DARK, int(ow))


def tiara(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, jewel: RGB = CUP_BLUE) -> None:
    """A queen's crown: rounded arches over a band (``s`` = width)."""
    ow = max(1, s * 0.03)
    pts: list[Point] = [(-0.45, 0.22)]
    for k in range(3):
        x0 = -0.45 + 0.3 * k
        for i in range(9):
            a = math.pi * i / 8
            pts.append((x0 + 0.15 - 0.15 * math.cos(a), -0.05 - 0.28 * math.sin(a) * (1.2 if k == 1 else 1.0)))
    pts.append((0.45, 0.22))
    _poly(d, place(pts, cx, cy, s), GOLD, GOLD_DARK, ow)
    _poly(d, place([(-0.45, 0.05), (0.45, 0.05), (0.45, 0.22), (-0.45, 0.22)], cx, cy, s), GOLD_LIGHT, GOLD_DARK, ow)
    for x, y in ((-0.3, -0.33), (0.0, -0.4), (0.3, -0.33)):
        px, py = place([(x, y)], cx, cy, s)[0]
        _circle(d, px, py, s * 0.065, jewel, GOLD_DARK, int(ow))
    px, py = place([(0.0, 0.135)], cx, cy, s)[0]
    _circle(d, px, py, s * 0.06, CUP_RED, GOLD_DARK, int(ow))


def beret(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB = CUP_RED) -> None:
    """A page's (Fante / Jack) flat cap with a feather (``s`` = width)."""
    ow = max(1, s * 0.03)
    feather = []
    for i in range(13):
        u = i / 12
        feather.append((0.1 + 0.45 * u, -0.15 - 0.45 * math.sin(u * 2.2) + 0.03))
    for i in range(12, -1, -1):
        u = i / 12
        feather.append((0.1 + 0.45 * u, -0.15 - 0.45 * math.sin(u * 2.2) * 0.55 + 0.05))
    _poly(d, place(feather, cx, cy, s), WHITE, INK, ow)
    _poly(d, place(_ellipse_pts(0, -0.02, 0.48, 0.2), cx, cy, s), colour, INK, ow)
    _poly(d, place([(-0.42, 0.02), (0.42, 0.02), (0.42, 0.16), (-0.42, 0.16)], cx, cy, s), GOLD, GOLD_DARK, ow)


def bust(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, robe: RGB, trim: RGB = GOLD) -> None:
    """A court figure's head and shoulders (``s`` = height); headgear goes on top at ``cy - 0.36 s``."""
    ow = max(1, s * 0.02)
    robe_pts = [(-0.46, 0.5), (-0.4, 0.12), (-0.16, 0.0), (0.16, 0.0), (0.4, 0.12), (0.46, 0.5)]
    _poly(d, place(robe_pts, cx, cy, s), robe, INK, ow)
    _poly(d, place([(-0.16, 0.0), (0.16, 0.0), (0.0, 0.26)], cx, cy, s), trim, INK, ow)
    _poly(d, place([(-0.035, 0.12), (0.035, 0.12), (0.035, 0.5), (-0.035, 0.5)], cx, cy, s), trim, INK, ow)
    # neck and head
    _poly(d, place([(-0.07, -0.08), (0.07, -0.08), (0.08, 0.03), (-0.08, 0.03)], cx, cy, s), SKIN, INK, ow)
    _poly(d, place(_ellipse_pts(0, -0.2, 0.15, 0.18), cx, cy, s), SKIN, INK, ow)
    for x in (-0.055, 0.055):
        px, py = place([(x, -0.22)], cx, cy, s)[0]
        _circle(d, px, py, max(1.0, s * 0.014), INK)
    d.line(place([(-0.04, -0.12), (0.0, -0.105), (0.04, -0.12)], cx, cy, s), fill=CUP_RED, width=max(1, int(s * 0.012)))


def horse(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB = (238, 232, 220)) -> None:
    """A horse's head and neck facing left, with a red bridle (the Cavallo); ``s`` = height."""
    ow = max(1, s * 0.022)
    head = [
        (0.36, 0.5), (0.2, 0.05), (0.08, -0.12), (-0.08, -0.06), (-0.3, 0.06), (-0.4, 0.02), (-0.42, -0.08),
        (-0.22, -0.3), (-0.06, -0.4), (0.0, -0.5), (0.06, -0.42), (0.16, -0.4), (0.3, -0.22), (0.42, 0.1),
        (0.5, 0.5),
    ]  # fmt: skip
    _poly(d, place(head, cx, cy, s), colour, INK, ow)
    mane = [(0.06, -0.42), (0.16, -0.4), (0.3, -0.22), (0.42, 0.1), (0.5, 0.5), (0.44, 0.5), (0.34, 0.1), (0.2, -0.22)]
    _poly(d, place(mane, cx, cy, s), WOOD_DARK, INK, ow)
    px, py = place([(-0.08, -0.26)], cx, cy, s)[0]
    _circle(d, px, py, s * 0.025, INK)
    d.line(place([(-0.36, -0.04), (-0.1, -0.14), (0.1, -0.34)], cx, cy, s), fill=CUP_RED, width=max(1, int(s * 0.03)))
    d.line(place([(-0.1, -0.14), (0.05, 0.05)], cx, cy, s), fill=CUP_RED, width=max(1, int(s * 0.03)))
    px, py = place([(-0.36, 0.0)], cx, cy, s)[0]
    _circle(d, px, py, s * 0.015, INK)


def wizard_hat(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB, band: RGB = GOLD) -> None:
    """A tall pointed hat with a bent tip and a wide brim, sprinkled with stars (``s`` = height)."""
    ow = max(1, s * 0.022)
    cone = [(-0.26, 0.3), (-0.12, -0.1), (-0.02, -0.38), (0.12, -0.5), (0.08, -0.38), (0.1, -0.1), (0.26, 0.3)]
    _poly(d, place(cone, cx, cy, s), colour, INK, ow)
    _poly(d, place(_ellipse_pts(0, 0.32, 0.5, 0.1), cx, cy, s), colour, INK, ow)
    _poly(d, place([(-0.255, 0.19), (0.255, 0.19), (0.27, 0.3), (-0.27, 0.3)], cx, cy, s), band, INK, ow)
    for x, y, r in ((-0.04, -0.05, 0.06), (0.09, 0.08, 0.045), (-0.12, 0.1, 0.04)):
        star(d, *place([(x, y)], cx, cy, s)[0], s * r * 2, GOLD_LIGHT)


def jester_hat(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colours: tuple[RGB, RGB], bell: RGB = GOLD):
    """A three-horned fool's cap with bells (``s`` = height)."""
    ow = max(1, s * 0.022)
    a, b = colours
    horns = [
        ([(-0.3, 0.25), (-0.36, -0.05), (-0.5, -0.3), (-0.14, -0.02), (-0.06, 0.25)], a),
        ([(0.3, 0.25), (0.36, -0.05), (0.5, -0.3), (0.14, -0.02), (0.06, 0.25)], a),
        ([(-0.13, 0.25), (-0.1, -0.15), (0.0, -0.45), (0.1, -0.15), (0.13, 0.25)], b),
    ]
    for pts, col in horns:
        _poly(d, place(pts, cx, cy, s), col, INK, ow)
    _poly(d, place([(-0.34, 0.22), (0.34, 0.22), (0.3, 0.38), (-0.3, 0.38)], cx, cy, s), bell, INK, ow)
    for x, y in ((-0.5, -0.3), (0.5, -0.3), (0.0, -0.45)):
        px, py = place([(x, y)], cx, cy, s)[0]
        _circle(d, px, py, s * 0.07, bell, INK, int(ow))
    for x in (-0.2, 0.0, 0.2):
        px, py = place([(x, 0.3)], cx, cy, s)[0]
        _circle(d, px, py, s * 0.035, a if x else b, INK, max(1, int(ow / 2)))


# ------------------------------------------------------------------------------------------------- motifs


def star(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB, points: int = 5, inner: float = 0.45):
    """A star polygon (``s`` = diameter)."""
    pts: list[Point] = []
    for k in range(points * 2):
        r = 0.5 if k % 2 == 0 else 0.5 * inner
        a = math.pi * k / points - math.pi / 2
        pts.append((r * math.cos(a), r * math.sin(a)))
    _poly(d, place(pts, cx, cy, s), fill)


def moon(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB, back: RGB) -> None:
    r = s / 2
    _circle(d, cx, cy, r, fill)
    _circle(d, cx + r * 0.45, cy - r * 0.2, r * 0.85, back)


def sun(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB, ray: RGB) -> None:
    star(d, cx, cy, s, ray, points=12, inner=0.7)
    _circle(d, cx, cy, s * 0.3, fill, GOLD_DARK, max(1, int(s * 0.02)))


def globe(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, sea: RGB, land: RGB) -> None:
    r = s / 2
    ow = max(1, int(s * 0.025))
    _circle(d, cx, cy, r, sea, INK, ow)
    _poly(d, place([(-0.3, -0.2), (-0.05, -0.32), (0.05, -0.1), (-0.1, 0.1), (-0.28, 0.05)], cx, cy, s), land)
    _poly(d, place([(0.1, 0.05), (0.32, -0.05), (0.3, 0.25), (0.12, 0.32)], cx, cy, s), land)
    d.line((cx - r, cy, cx + r, cy), fill=INK, width=max(1, ow // 2))
    d.arc((cx - r * 0.45, cy - r, cx + r * 0.45, cy + r), 0, 360, fill=INK, width=max(1, ow // 2))
    # a cross on top, as on the orb of the World card
    d.line((cx, cy - r, cx, cy - r * 1.35), fill=GOLD_DARK, width=ow * 2)
    d.line((cx - r * 0.17, cy - r * 1.2, cx + r * 0.17, cy - r * 1.2), fill=GOLD_DARK, width=ow * 2)


def trumpet(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, angle: float = 0.0) -> None:
    """Fame's trumpet: a long tube with a flared bell (``s`` = length)."""
    ow = max(1, s * 0.02)
    tube = [(-0.5, -0.02), (0.25, -0.02), (0.5, -0.13), (0.5, 0.13), (0.25, 0.02), (-0.5, 0.02)]
    _poly(d, place(tube, cx, cy, s, angle), GOLD, GOLD_DARK, ow)
    _poly(d, place([(-0.5, -0.04), (-0.44, -0.04), (-0.44, 0.04), (-0.5, 0.04)], cx, cy, s, angle), GOLD_DARK)
    _poly(d, place([(-0.1, 0.02), (0.1, 0.02), (0.0, 0.16)], cx, cy, s, angle), CUP_RED, GOLD_DARK, ow)

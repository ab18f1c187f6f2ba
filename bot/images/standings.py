"""Standings pictures: ranks, names, totals, rating with its uncertainty and a recent-form sparkline (Pillow).

Drawn from a :class:`Standings` whose labels the caller formats in the reader's language; the message's text is
built from the same object (:meth:`Standings.lines`), so the picture never says more or other than the text.
Names go through :mod:`bot.images.text`, like the names on the table (a name nothing of which can be drawn is
``#`` and its row's number, :func:`bot.images.text.name_label`).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.images import text as itext

__all__ = [
    "HEIGHT_PER_ROW",
    "TEXT_PX",
    "WIDTH",
    "Columns",
    "Rating",
    "StandingRow",
    "Standings",
    "columns",
    "render_standings",
]

#: legible on a phone: Discord shows a picture about 400 pixels wide there, and every text here is drawn at least
#: :data:`TEXT_PX` pixels high on a :data:`WIDTH`-pixel picture (11 pixels once scaled down)
WIDTH = 720
TEXT_PX = 20
NAME_PX = 24
TITLE_PX = 26
HEIGHT_PER_ROW = 64
TITLE_H = 60
BG = (30, 33, 40)
ROW_ALT = (38, 42, 50)
FG = (236, 238, 240)
DIM = (170, 178, 190)
UP = (52, 168, 83)
DOWN = (234, 88, 66)
BAR = (86, 180, 233)
MEDALS = {1: (250, 204, 64), 2: (200, 206, 214), 3: (205, 127, 50)}
MAX_ROWS = 20


@dataclass(frozen=True, slots=True)
class Rating:
    """An OpenSkill rating: ``mu`` with uncertainty ``sigma``; the bar spans mu ± sigma, as its label says."""

    mu: float
    sigma: float
    label: str  # "25.3 ± 2.1" in the reader's digits, one decimal each: the bar's middle and half-width


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    name: str
    total: int
    total_label: str  # "+12 stakes", "340 points"
    rating: Rating | None = None
    form: tuple[int, ...] = ()  # the last results, oldest first (amounts of the player's recent hands)
    extra: str = ""  # wins / games, already worded


@dataclass(frozen=True, slots=True)
class Standings:
    title: str
    rows: tuple[StandingRow, ...]

    def key(self) -> tuple[object, ...]:
        return (self.title, self.rows)

    def lines(self) -> list[str]:
        """The text beside the picture: one line per row with everything the picture draws (the form as its
        sum, a sparkline has no words)."""
        out = []
        for r in self.rows:
            parts = [f"**{r.rank}.** {r.name}", r.total_label]
            if r.rating is not None:
                parts.append(r.rating.label)
            if r.extra:
                parts.append(r.extra)
            out.append(" · ".join(parts))
        return out


def _sparkline(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], form: tuple[int, ...]) -> None:
    """The running sum of ``form`` as a small line, green when it ends up, red when down."""
    if not form:
        return
    x0, y0, x1, y1 = box
    values = [0]
    for v in form:
        values.append(values[-1] + v)
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1
    n = len(values) - 1 or 1
    pts = [(x0 + (x1 - x0) * i / n, y1 - (y1 - y0) * (v - lo) / span) for i, v in enumerate(values)]
    zero_y = y1 - (y1 - y0) * (0 - lo) / span
    d.line((x0, zero_y, x1, zero_y), fill=(70, 76, 88), width=1)
    colour = UP if values[-1] > 0 else DOWN if values[-1] < 0 else DIM
    d.line(pts, fill=colour, width=3, joint="curve")
    ex, ey = pts[-1]
    d.ellipse((ex - 5, ey - 5, ex + 5, ey + 5), fill=colour)


def _rating_bar(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], r: Rating, lo: float, hi: float) -> None:
    """mu as a dot on a shared scale, mu ± sigma (what the label says) as the bar around it: a wide bar is an
    unsure rating."""
    x0, y0, x1, y1 = box
    span = (hi - lo) or 1.0

    def x(v: float) -> float:
        return x0 + (x1 - x0) * (min(max(v, lo), hi) - lo) / span

    cy = (y0 + y1) / 2
    # at least a little wider than the dot, so a sure rating still shows its bar
    a, b = min(x(r.mu - r.sigma), x(r.mu) - 9), max(x(r.mu + r.sigma), x(r.mu) + 9)
    d.rounded_rectangle((a, cy - 5, b, cy + 5), radius=5, fill=BAR)
    d.ellipse((x(r.mu) - 6, cy - 6, x(r.mu) + 6, cy + 6), fill=FG)


@dataclass(frozen=True, slots=True)
class Columns:
    """Where a table's columns go: ``None`` for a column no row fills (a recap has no ratings: no empty column)."""

    name: tuple[int, int]
    total_right: int
    rating: tuple[int, int] | None
    form: tuple[int, int] | None


def columns(rows: tuple[StandingRow, ...]) -> Columns:
    """The columns from the right: the form's sparkline, the rating, the total; the name takes what is left."""
    x = WIDTH - 16
    form = rating = None
    if any(r.form for r in rows):
        form = (x - 100, x)
        x -= 100 + 20
    if any(r.rating is not None for r in rows):
        rating = (x - 150, x)
        x -= 150 + 20
    total_w = max((itext.text_width(r.total_label, TEXT_PX + 2) for r in rows), default=0)
    total_w = min(total_w, 180)
    return Columns((72, max(120, x - total_w - 16)), x, rating, form)


def render_standings(s: Standings) -> bytes:
    """The standings as PNG bytes (at most :data:`MAX_ROWS` rows)."""
    rows = s.rows[:MAX_ROWS]
    height = TITLE_H + HEIGHT_PER_ROW * max(1, len(rows)) + 12
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    itext.draw_text(img, (16, TITLE_H // 2), itext.fit(s.title, TITLE_PX, WIDTH - 32, bold=True), TITLE_PX, FG,
                    bold=True)  # fmt: skip
    cols = columns(rows)
    rated = [r.rating for r in rows if r.rating is not None]
    lo = min((r.mu - r.sigma for r in rated), default=0.0)
    hi = max((r.mu + r.sigma for r in rated), default=1.0)
    for i, r in enumerate(rows):
        top = TITLE_H + i * HEIGHT_PER_ROW
        cy = top + HEIGHT_PER_ROW // 2
        if i % 2:
            d.rectangle((0, top, WIDTH, top + HEIGHT_PER_ROW), fill=ROW_ALT)
        medal = MEDALS.get(r.rank)
        if medal is not None:
            d.ellipse((16, cy - 20, 56, cy + 20), fill=medal)
            itext.draw_text(img, (36, cy), str(r.rank), TEXT_PX + 2, (24, 24, 28), bold=True, anchor="m")
        else:
            itext.draw_text(img, (36, cy), str(r.rank), TEXT_PX + 2, DIM, anchor="m")
        # the name, and what else the row says (table wins) on a second line below it
        x0, x1 = cols.name
        name_y = cy - 12 if r.extra else cy
        itext.draw_text(img, (x0, name_y), itext.fit(itext.name_label(r.name, i + 1), NAME_PX, x1 - x0), NAME_PX, FG)
        if r.extra:
            itext.draw_text(img, (x0, cy + 16), itext.fit(r.extra, TEXT_PX, x1 - x0), TEXT_PX, DIM)
        colour = UP if r.total > 0 else DOWN if r.total < 0 else FG
        total = itext.fit(r.total_label, TEXT_PX + 2, 180)
        itext.draw_text(img, (cols.total_right, cy), total, TEXT_PX + 2, colour, anchor="r")
        if cols.rating is not None and r.rating is not None:
            a, b = cols.rating
            _rating_bar(d, (a + 8, cy - 24, b - 8, cy - 6), r.rating, lo, hi)
            itext.draw_text(img, ((a + b) // 2, cy + 14), itext.fit(r.rating.label, TEXT_PX, b - a), TEXT_PX, DIM,
                            anchor="m")  # fmt: skip
        if cols.form is not None:
            _sparkline(d, (cols.form[0], cy - 20, cols.form[1], cy + 20), r.form)
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=1)
    return out.getvalue()

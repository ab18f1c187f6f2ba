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

__all__ = ["HEIGHT_PER_ROW", "WIDTH", "Rating", "StandingRow", "Standings", "render_standings"]

WIDTH = 900
HEIGHT_PER_ROW = 50
TITLE_H = 60
BG = (30, 33, 40)
ROW_ALT = (38, 42, 50)
FG = (236, 238, 240)
DIM = (160, 168, 180)
UP = (52, 168, 83)
DOWN = (234, 88, 66)
MEDALS = {1: (250, 204, 64), 2: (200, 206, 214), 3: (205, 127, 50)}
MAX_ROWS = 20


@dataclass(frozen=True, slots=True)
class Rating:
    """An OpenSkill rating: ``mu`` with uncertainty ``sigma`` (the bar spans mu ± 3 sigma)."""

    mu: float
    sigma: float
    label: str  # e.g. "25.3 ± 2.1" in the reader's digits


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
    d.line(pts, fill=colour, width=2, joint="curve")
    ex, ey = pts[-1]
    d.ellipse((ex - 3, ey - 3, ex + 3, ey + 3), fill=colour)


def _rating_bar(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], r: Rating, lo: float, hi: float) -> None:
    """mu as a dot on a shared scale, mu ± 3 sigma as the bar around it: a wide bar is an unsure rating."""
    x0, y0, x1, y1 = box
    span = (hi - lo) or 1.0

    def x(v: float) -> float:
        return x0 + (x1 - x0) * (min(max(v, lo), hi) - lo) / span

    cy = (y0 + y1) / 2
    d.rounded_rectangle((x(r.mu - 3 * r.sigma), cy - 4, x(r.mu + 3 * r.sigma), cy + 4), radius=4, fill=(86, 180, 233))
    d.ellipse((x(r.mu) - 5, cy - 5, x(r.mu) + 5, cy + 5), fill=FG)


def render_standings(s: Standings) -> bytes:
    """The standings as PNG bytes (at most :data:`MAX_ROWS` rows)."""
    rows = s.rows[:MAX_ROWS]
    height = TITLE_H + HEIGHT_PER_ROW * max(1, len(rows)) + 12
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    itext.draw_text(img, (20, TITLE_H // 2), itext.fit(s.title, 24, WIDTH - 40, bold=True), 24, FG, bold=True)
    rated = [r.rating for r in rows if r.rating is not None]
    lo = min((r.mu - 3 * r.sigma for r in rated), default=0.0)
    hi = max((r.mu + 3 * r.sigma for r in rated), default=1.0)
    for i, r in enumerate(rows):
        top = TITLE_H + i * HEIGHT_PER_ROW
        cy = top + HEIGHT_PER_ROW // 2
        if i % 2:
            d.rectangle((0, top, WIDTH, top + HEIGHT_PER_ROW), fill=ROW_ALT)
        medal = MEDALS.get(r.rank)
        if medal is not None:
            d.ellipse((18, cy - 16, 50, cy + 16), fill=medal)
            itext.draw_text(img, (34, cy), str(r.rank), 18, (24, 24, 28), bold=True, anchor="m")
        else:
            itext.draw_text(img, (34, cy), str(r.rank), 18, DIM, anchor="m")
        itext.draw_text(img, (66, cy), itext.fit(itext.name_label(r.name, i + 1), 20, 250), 20, FG)
        colour = UP if r.total > 0 else DOWN if r.total < 0 else FG
        itext.draw_text(img, (470, cy), itext.fit(r.total_label, 18, 150), 18, colour, anchor="r")
        if r.rating is not None:
            _rating_bar(d, (490, cy - 16, 620, cy - 2), r.rating, lo, hi)
            itext.draw_text(img, (555, cy + 10), itext.fit(r.rating.label, 14, 140), 14, DIM, anchor="m")
        _sparkline(d, (650, cy - 15, 780, cy + 15), r.form)
        if r.extra:
            itext.draw_text(img, (WIDTH - 14, cy), itext.fit(r.extra, 14, 100), 14, DIM, anchor="r")
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=1)
    return out.getvalue()

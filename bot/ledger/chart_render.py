"""The ``/ledger chart`` picture: matplotlib (Agg, no display) draws the curves and axes, Pillow the names.

Axis labels are formatted with Babel in the reader's locale (numeric date skeletons, grouped numbers), so every
label is drawn in digits and punctuation any font has. Names, the title and the legend go through
:mod:`bot.images.text` like every other picture, so a name renders the same here as on a table. Pure and
synchronous: callers run it in a worker thread and cache it by :meth:`ChartData.key`.
"""

from __future__ import annotations

import io
from datetime import datetime

import matplotlib

matplotlib.use("Agg")  # before anything imports pyplot: never a display, never a GUI toolkit

from babel.dates import format_skeleton
from babel.numbers import format_decimal
from matplotlib import dates as mdates
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator
from PIL import Image, ImageDraw

from bot.images import text as itext

from .chart import ChartData

__all__ = ["COLOURS", "HEIGHT", "WIDTH", "date_label", "number_label", "render_chart"]

WIDTH, HEIGHT = 1000, 520
LEGEND_W = 250
TITLE_H = 44
BG = (30, 33, 40)
FG = (236, 238, 240)
GRID = (70, 76, 88)
#: one colour per player, in the chart's order (the viewer first), distinct for colour-blind readers too
COLOURS: tuple[tuple[int, int, int], ...] = (
    (250, 204, 64),
    (86, 180, 233),
    (230, 159, 0),
    (0, 158, 115),
    (204, 121, 167),
    (213, 94, 0),
)


def _hex(c: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def date_label(when: datetime, locale: str, *, with_year: bool) -> str:
    """A tick's date in ``locale``: numeric (``2.12.``, ``12/2``, ``12. 2.``), with the year when the chart spans
    more than one."""
    return format_skeleton("yMd" if with_year else "Md", when, locale=locale)


def number_label(value: float, locale: str) -> str:
    """A balance in ``locale``'s grouping (``1,000``, ``1 000``, ``1.000``); the Unicode minus sign is kept."""
    return format_decimal(round(value), locale=locale)


def render_chart(data: ChartData, *, locale: str, title: str, legend: list[str]) -> bytes:
    """The chart as PNG bytes. ``legend``: one line per series (name and final balance), already translated."""
    plot_w = WIDTH - LEGEND_W
    plot_h = HEIGHT - TITLE_H
    fig = Figure(figsize=(plot_w / 100, plot_h / 100), dpi=100, facecolor=_hex(BG))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.11, 0.1, 0.86, 0.86))
    ax.set_facecolor(_hex(BG))
    for spine in ax.spines.values():
        spine.set_color(_hex(GRID))
    ax.tick_params(colors=_hex(FG), labelsize=10)
    ax.grid(True, color=_hex(GRID), linewidth=0.6)
    ax.axhline(0, color=_hex(FG), linewidth=0.8, alpha=0.6)
    times = [t for s in data.series for t, _ in s.points]
    for i, s in enumerate(data.series):
        if not s.points:
            continue
        xs = [t for t, _ in s.points]
        ys = [v for _, v in s.points]
        if len(xs) == 1:  # one point: a dot, a line needs two
            ax.plot(xs, ys, "o", color=_hex(COLOURS[i % len(COLOURS)]), markersize=5)
        else:
            # a step after each hour: a balance holds until the next hand changes it
            ax.step(xs, ys, where="post", color=_hex(COLOURS[i % len(COLOURS)]), linewidth=2.0 if i == 0 else 1.5)
    if times:
        with_year = min(times).year != max(times).year
        locator = mdates.AutoDateLocator(minticks=3, maxticks=8)
        ax.xaxis.set_major_locator(locator)
        ax.xaxis.set_major_formatter(
            FuncFormatter(lambda x, _pos: date_label(mdates.num2date(x), locale, with_year=with_year))
        )
    ax.yaxis.set_major_locator(MaxNLocator(nbins=7, integer=True))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _pos: number_label(y, locale)))
    canvas = fig.canvas
    canvas.draw()
    # the raw pixels straight into Pillow: no PNG encoded by matplotlib only to be decoded again
    w, h = canvas.get_width_height()
    plot = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")

    img = Image.new("RGB", (WIDTH, HEIGHT), BG)
    img.paste(plot, (0, TITLE_H))
    itext.draw_text(img, (16, TITLE_H // 2), itext.fit(title, 22, WIDTH - 32, bold=True), 22, FG, bold=True)
    _legend(img, data, legend, plot_w)
    out = io.BytesIO()
    # level 1: a flat-coloured chart compresses almost as well, in a third of the time
    img.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _legend(img: Image.Image, data: ChartData, lines: list[str], x0: int) -> None:
    d = ImageDraw.Draw(img)
    y = TITLE_H + 30
    for i, (_s, line) in enumerate(zip(data.series, lines, strict=True)):
        colour = COLOURS[i % len(COLOURS)]
        d.line((x0 + 8, y, x0 + 34, y), fill=colour, width=4)
        itext.draw_text(img, (x0 + 42, y), itext.fit(line, 16, LEGEND_W - 52), 16, FG)
        y += 34

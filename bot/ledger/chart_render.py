"""The ``/ledger chart`` picture: matplotlib (Agg, no display) draws the curves and axes, Pillow the title and names.

The time axis fits the span it shows (:func:`time_format`): hours and minutes for one evening (the date once, in
the axis label), day and hour over a few days, days over weeks and months, months and years beyond; a chart whose
entries all fall at one moment draws each player's balance as a bar, with that moment's date and time below.
Players whose curves coincide (equal balances) are drawn a few pixels apart and every curve ends in its own
marker shape, so a tie never hides a player; the colours are the Okabe-Ito palette (safe for the common kinds of
colour blindness), ordered so that neighbours differ most.

Legible on a phone: Discord shows a picture about :data:`PHONE_WIDTH` pixels wide there, so every text is drawn at
least :data:`TEXT_PX` pixels high on a :data:`WIDTH`-pixel picture (11 pixels once scaled down).

Axis labels are formatted with Babel in the reader's locale (numeric date and 24-hour time skeletons, grouped
numbers), so every label is drawn in digits and punctuation any font has. Names, the title and the legend go
through :mod:`bot.images.text` like every other picture, so a name renders the same here as on a table. Pure and
synchronous: callers run it in a worker thread and cache it by :meth:`ChartData.key`.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from datetime import datetime, timedelta

import matplotlib

matplotlib.use("Agg")  # before anything imports pyplot: never a display, never a GUI toolkit

from babel.dates import format_datetime, format_skeleton
from babel.numbers import format_decimal
from matplotlib import dates as mdates
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullLocator
from matplotlib.transforms import offset_copy
from PIL import Image, ImageDraw

from bot.images import text as itext

from .chart import ChartData, Series

__all__ = [
    "COLOURS",
    "MARKERS",
    "MIN_PHONE_PX",
    "PHONE_WIDTH",
    "TEXT_PX",
    "WIDTH",
    "chart_figure",
    "chart_height",
    "date_label",
    "number_label",
    "render_chart",
    "time_format",
]

#: the width Discord's chat shows a picture at on a phone, and the smallest text legible there
PHONE_WIDTH, MIN_PHONE_PX = 400, 11
WIDTH = 800
#: every text's height in pixels (labels, ticks, legend): 11 pixels at the phone's width
TEXT_PX = math.ceil(MIN_PHONE_PX * WIDTH / PHONE_WIDTH)
TITLE_PX = TEXT_PX + 4
TITLE_H = 60
PLOT_H = 420
LEGEND_ROW = TEXT_PX + 18
LEGEND_COLUMNS = 2
DPI = 100
BG = (30, 33, 40)
FG = (236, 238, 240)
GRID = (70, 76, 88)
#: one colour per player, in the chart's order (the viewer first): Okabe-Ito (colour-blind safe), its dark blue
#: left out (unreadable on the dark background), ordered so that near neighbours differ most (the warm three
#: apart)
COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (204, 121, 167),  # reddish purple
    (240, 228, 66),  # yellow: three from orange, the closest of the others
    (0, 158, 115),  # bluish green
    (213, 94, 0),  # vermilion: five from orange
)
#: each curve's end marker (matplotlib's names), in the same order: a tie shows two shapes side by side
MARKERS = ("o", "s", "^", "D", "v", "P")
#: how far apart (pixels) coinciding curves are drawn
TIE_STEP = 4


def _hex(c: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def _pt(px: float) -> float:
    """Pixels as the points matplotlib sizes text in."""
    return px * 72 / DPI


def date_label(when: datetime, locale: str, *, with_year: bool) -> str:
    """A tick's date in ``locale``: numeric (``2.12.``, ``12/2``, ``12. 2.``), with the year when the chart spans
    more than one."""
    return format_skeleton("yMd" if with_year else "Md", when, locale=locale)


def _time(when: datetime, locale: str) -> str:
    return format_skeleton("Hm", when, locale=locale)


def _zone(when: datetime, locale: str) -> str:
    """The time zone's short name as ``locale`` writes it (CLDR: ``UTC`` in all five languages). The ledger
    keeps UTC hours and Discord tells no one's zone, so a chart that shows hours says which they are."""
    return format_datetime(when, "z", locale=locale)


def number_label(value: float, locale: str) -> str:
    """A balance in ``locale``'s grouping (``1,000``, ``1 000``, ``1.000``); the Unicode minus sign is kept."""
    return format_decimal(round(value), locale=locale)


def time_format(first: datetime, last: datetime, locale: str) -> tuple[Callable[[datetime], str], str]:
    """How the ticks of a chart from ``first`` to ``last`` read, and the axis label that says what they leave out:
    up to 20 hours, ``20:00`` with the date below; up to 6 days, ``12/6 20:00``; up to 4 months, ``12/6`` with the
    year below; up to 3 years, ``12/2026``; beyond, the year alone. Where hours show, the label names the zone."""
    span = last - first

    def years() -> str:
        return str(first.year) if first.year == last.year else f"{first.year} – {last.year}"

    if span <= timedelta(hours=20):
        day = date_label(first, locale, with_year=True)
        if first.date() != last.date():
            day += " – " + date_label(last, locale, with_year=True)
        return (lambda t: _time(t, locale)), f"{day} ({_zone(first, locale)})"
    if span <= timedelta(days=6):
        label = f"{years()} ({_zone(first, locale)})"
        return (lambda t: date_label(t, locale, with_year=False) + "\n" + _time(t, locale)), label
    if span <= timedelta(days=122):
        return (lambda t: date_label(t, locale, with_year=False)), years()
    if span <= timedelta(days=3 * 366):
        return (lambda t: format_skeleton("yM", t, locale=locale)), ""
    return (lambda t: str(t.year)), ""  # (the "y" skeleton adds a word in Korean: 2027년)


def chart_height(players: int) -> int:
    """The picture's height for ``players`` series: the title, the plot and the legend's rows."""
    return TITLE_H + PLOT_H + LEGEND_ROW * max(1, math.ceil(players / LEGEND_COLUMNS)) + 12


def _style(fig: Figure, ax: Axes) -> None:
    ax.set_facecolor(_hex(BG))
    for spine in ax.spines.values():
        spine.set_color(_hex(GRID))
    ax.tick_params(colors=_hex(FG), labelsize=_pt(TEXT_PX), length=6)
    ax.grid(True, color=_hex(GRID), linewidth=0.8)
    ax.axhline(0, color=_hex(FG), linewidth=1.2, alpha=0.6)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))


_STEPS = (0, 1, -1, 2, -2, 3, -3)  # enough for MAX_SERIES curves all tied


def _time_locator(lo: datetime, hi: datetime) -> mdates.DateLocator:
    """Ticks for the range ``lo``..``hi``: within two days, the smallest round step of minutes or hours that gives
    at most six ticks (each a distinct ``HH:MM`` within an evening); beyond, matplotlib's choice of days, months or
    years."""
    window = hi - lo
    if window <= timedelta(days=2):
        for minutes in (1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720):
            if window / timedelta(minutes=minutes) <= 6:
                if minutes < 60:
                    return mdates.MinuteLocator(byminute=range(0, 60, minutes), tz=lo.tzinfo)
                return mdates.HourLocator(byhour=range(0, 24, minutes // 60), tz=lo.tzinfo)
    return mdates.AutoDateLocator(minticks=3, maxticks=6, tz=lo.tzinfo)


def _ties(a: tuple[tuple[datetime, int], ...], b: tuple[tuple[datetime, int], ...]) -> bool:
    """Two curves that would hide each other: the same end, or a quarter of one's points on the other."""
    if not a or not b:
        return False
    shared = len(set(a) & set(b))
    return a[-1] == b[-1] or shared * 4 >= min(len(a), len(b))


def _tie_levels(drawn: list[tuple[tuple[datetime, int], ...]]) -> tuple[list[int], list[int]]:
    """For each curve, how many pixel steps it is moved up or down (0, unless it ties with a curve before it:
    then the next free step, +1, -1, +2, ...) and how many places its end marker moves left (the number of
    curves before it that end at the same point)."""
    levels: list[int] = []
    beside: list[int] = []
    for i, pts in enumerate(drawn):
        taken = {levels[j] for j in range(i) if _ties(pts, drawn[j])}
        levels.append(next(s for s in _STEPS if s not in taken))
        beside.append(sum(1 for j in range(i) if pts and drawn[j] and drawn[j][-1] == pts[-1]))
    return levels, beside


def _curves(fig: Figure, ax: Axes, data: ChartData, locale: str) -> None:
    """The running balances as steps in time, each to the chart's end (a balance holds until it changes)."""
    times = [t for s in data.series for t, _ in s.points]
    first, last = min(times), max(times)
    drawn = [(*s.points, (last, s.final)) if s.points and s.points[-1][0] < last else s.points for s in data.series]
    levels, places = _tie_levels(drawn)
    for i, pts in enumerate(drawn):
        if not pts:
            continue
        colour = _hex(COLOURS[i % len(COLOURS)])
        shifted = offset_copy(ax.transData, fig=fig, y=levels[i] * TIE_STEP, units="dots")
        # tied end markers side by side, leftwards, rather than on top of each other
        beside = offset_copy(shifted, fig=fig, x=-18 * places[i], units="dots")
        xs = [t for t, _ in pts]
        ys = [v for _, v in pts]
        ax.step(xs, ys, where="post", color=colour, linewidth=4.5 if i == 0 else 3.5, transform=shifted, zorder=3)
        ax.plot([xs[-1]], [ys[-1]], MARKERS[i % len(MARKERS)], color=colour, markersize=13, transform=beside,
                markeredgecolor=_hex(BG), markeredgewidth=1.5, zorder=4, clip_on=False)  # fmt: skip
    # (drawn through a shifted transform, the curves do not scale the axes themselves)
    values = [v for pts in drawn for _, v in pts] + [0]
    lo, hi = min(values), max(values)
    margin = max(1.0, (hi - lo) * 0.08)
    ax.set_ylim(lo - margin, hi + margin)
    span = last - first
    # at least ten minutes across (ticks a minute or two apart, each a distinct HH:MM), and a margin either side
    pad = max((timedelta(minutes=10) - span) / 2, span * 0.03)
    ax.set_xlim(mdates.date2num(first - pad), mdates.date2num(last + pad))
    label, axis_label = time_format(first, last, locale)
    ax.xaxis.set_major_locator(_time_locator(first - pad, last + pad))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: label(mdates.num2date(x, tz=first.tzinfo))))
    if axis_label:
        ax.set_xlabel(axis_label, color=_hex(FG), fontsize=_pt(TEXT_PX))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _pos: number_label(y, locale)))


def _bars(ax: Axes, data: ChartData, locale: str) -> None:
    """Every entry at one moment: each player's balance as a bar, its number at the end, the moment below."""
    shown = [(i, s) for i, s in enumerate(data.series) if s.points]
    values = [s.final for _, s in shown]
    top = max([abs(v) for v in values] + [1])
    for k, (i, s) in enumerate(shown):
        colour = _hex(COLOURS[i % len(COLOURS)])
        ax.bar(k, s.final, width=0.7, color=colour, zorder=3)
        ax.plot([k], [s.final], MARKERS[i % len(MARKERS)], color=colour, markersize=13,
                markeredgecolor=_hex(BG), markeredgewidth=1.5, zorder=4, clip_on=False)  # fmt: skip
        ax.annotate(number_label(s.final, locale), (k, s.final), xytext=(0, 16 if s.final >= 0 else -16),
                    textcoords="offset points", ha="center", va="bottom" if s.final >= 0 else "top",
                    color=_hex(FG), fontsize=_pt(TEXT_PX), zorder=5)  # fmt: skip
    lo, hi = min([0, *values]), max([0, *values])
    ax.set_ylim(lo - top * 0.3 if lo < 0 else -top * 0.08, hi + top * 0.3 if hi > 0 else top * 0.08)
    ax.set_xlim(-0.6, len(shown) - 0.4)
    ax.xaxis.set_major_locator(NullLocator())
    moment = shown[0][1].points[-1][0]
    when = f"{date_label(moment, locale, with_year=True)} {_time(moment, locale)} {_zone(moment, locale)}"
    ax.set_xlabel(when, color=_hex(FG), fontsize=_pt(TEXT_PX))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _pos: number_label(y, locale)))


def single_moment(data: ChartData) -> bool:
    """Every point of every player at one time: nothing to draw along a time axis."""
    return len({t for s in data.series for t, _ in s.points}) == 1


def _place(ax: Axes) -> None:
    """The axes' box, leaving room for the tick labels and the axis label. Sized from the labels' lengths (digits
    and punctuation: about 0.62 of the text's height wide), not measured: matplotlib's constrained layout measures
    by drawing, which took 60% of a chart's time."""
    lo, hi = ax.get_ylim()
    formatter = ax.yaxis.get_major_formatter()
    ticks = [v for v in ax.yaxis.get_majorticklocs() if lo <= v <= hi]
    widest = max((len(formatter(v, k)) for k, v in enumerate(ticks)), default=1)
    left = 22 + widest * TEXT_PX * 0.62
    lo, hi = ax.get_xlim()
    xformatter = ax.xaxis.get_major_formatter()
    xticks = [v for v in ax.xaxis.get_majorticklocs() if lo <= v <= hi]
    lines = max((xformatter(v, k).count("\n") + 1 for k, v in enumerate(xticks)), default=0)
    bottom = 16 + lines * TEXT_PX * 1.2 + (TEXT_PX * 1.5 if ax.get_xlabel() else 0)
    right, top = 28, 12  # room for the end markers, which may stand past the last point
    ax.set_position((left / WIDTH, bottom / PLOT_H, 1 - (left + right) / WIDTH, 1 - (bottom + top) / PLOT_H))


def chart_figure(data: ChartData, *, locale: str) -> Figure:
    """The plot (without the title and legend Pillow adds), drawn: tests read its ticks and labels."""
    fig = Figure(figsize=(WIDTH / DPI, PLOT_H / DPI), dpi=DPI, facecolor=_hex(BG))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    _style(fig, ax)
    if not data.empty:
        (_bars(ax, data, locale) if single_moment(data) else _curves(fig, ax, data, locale))
    _place(ax)
    fig.canvas.draw()
    return fig


def render_chart(data: ChartData, *, locale: str, title: str, legend: list[str]) -> bytes:
    """The chart as PNG bytes. ``legend``: one line per series (name and final balance), already translated."""
    fig = chart_figure(data, locale=locale)
    canvas = fig.canvas
    # the raw pixels straight into Pillow: no PNG encoded by matplotlib only to be decoded again
    w, h = canvas.get_width_height()
    plot = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")

    img = Image.new("RGB", (WIDTH, chart_height(len(data.series))), BG)
    img.paste(plot, (0, TITLE_H))
    itext.draw_text(img, (16, TITLE_H // 2), itext.fit(title, TITLE_PX, WIDTH - 32, bold=True), TITLE_PX, FG,
                    bold=True)  # fmt: skip
    _legend(img, data.series, legend)
    out = io.BytesIO()
    # level 1: a flat-coloured chart compresses almost as well, in a third of the time
    img.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def marker_shape(
    d: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill: tuple[int, int, int]
) -> None:
    """One of :data:`MARKERS` drawn by Pillow (the legend's key), as matplotlib draws it on the curve."""
    if shape == "o":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif shape == "s":
        d.rectangle((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=fill)
    elif shape == "^":
        d.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill)
    elif shape == "v":
        d.polygon([(cx, cy + r), (cx + r, cy - r * 0.8), (cx - r, cy - r * 0.8)], fill=fill)
    elif shape == "D":
        d.polygon([(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)], fill=fill)
    else:  # "P": a thick plus
        t = r * 0.38
        d.rectangle((cx - r, cy - t, cx + r, cy + t), fill=fill)
        d.rectangle((cx - t, cy - r, cx + t, cy + r), fill=fill)


def _legend(img: Image.Image, series: tuple[Series, ...], lines: list[str]) -> None:
    d = ImageDraw.Draw(img)
    column = (WIDTH - 32) // LEGEND_COLUMNS
    for i, line in enumerate(lines[: len(series)]):
        x = 16 + (i % LEGEND_COLUMNS) * column
        y = TITLE_H + PLOT_H + LEGEND_ROW // 2 + (i // LEGEND_COLUMNS) * LEGEND_ROW
        colour = COLOURS[i % len(COLOURS)]
        d.line((x, y, x + 40, y), fill=colour, width=5)
        marker_shape(d, MARKERS[i % len(MARKERS)], x + 20, y, 9, colour)
        itext.draw_text(img, (x + 52, y), itext.fit(line, TEXT_PX, column - 64), TEXT_PX, FG)

"""The table as a picture: seats round an oval with names and a short line each, the trick in the middle.

Seat ``bottom_seat`` sits at the bottom (the viewer's seat in a DM; seat 0 on the public table); the others
follow round the oval in the direction of play (``clockwise``: the next seat on the left, as Wizard, Mighty
and Mediatore play; Minchiate plays counter-clockwise). Each card of the current trick lies between the
centre and the seat that played it, later cards over earlier ones; the last trick is shown small in the top
left corner. Everything written is given by the caller (names, per-seat lines, a centre text), so nothing here
needs translating.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.images import encode, sprites, text, theme
from bot.images.cache import DEFAULT_CACHE, ImageCache, cached

WIDTH, HEIGHT = 1000, 680
SMALL_HEIGHT = 78  # last trick
CENTRE_HEIGHT = 84  # a card shown in the centre (e.g. Wizard's trump indicator)
NAME_SIZE = 22
LINE_SIZE = 18
PLATE_MIN_W, PLATE_MAX_W = 120, 232
_CX, _CY = WIDTH // 2, HEIGHT // 2 + 8
_RX, _RY = 430, HEIGHT // 2 - 38  # the oval the name plates sit on
# per seat count: (trick card height, trick oval radii x / y, corner of the last trick: 0 top left, 1 bottom left).
# Found by a search over the plates' and cards' rectangles: the largest cards for which no trick card touches
# another, a plate, the centre (card + text) or the last trick.
_LAYOUTS: dict[int, tuple[int, int, int, int]] = {
    2: (170, 150, 148, 0),
    3: (170, 150, 148, 0),
    4: (170, 150, 148, 0),
    5: (170, 204, 154, 1),
    6: (170, 150, 172, 0),
    7: (154, 192, 184, 1),
}
TRICK_HEIGHTS = tuple(sorted({v[0] for v in _LAYOUTS.values()}))


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as the table shows it.

    ``name``: the player's display name (a long name is cut by width with "…", never inside a grapheme);
    ``line``: a short, already translated status such as a bid, contract or trick count (may contain suit
    symbols ``♠♥♦♣``); ``active``: this seat is to act (gold plate); ``team``: an index into ``theme.TEAMS`` for
    a coloured band (partners, declarer's side), ``None`` for none.
    """

    name: str
    line: str = ""
    active: bool = False
    team: int | None = None


def _angle(pos: int, n: int, clockwise: bool) -> float:
    # screen angles grow clockwise (y points down): 90 degrees is straight down
    step = 360.0 / n
    return math.radians(90.0 + step * pos if clockwise else 90.0 - step * pos)


def seat_positions(n: int, bottom_seat: int = 0, clockwise: bool = True) -> list[tuple[int, int]]:
    """Centre of each seat's plate, indexed by seat number."""
    out: list[tuple[int, int]] = []
    for seat in range(n):
        a = _angle((seat - bottom_seat) % n, n, clockwise)
        out.append((round(_CX + _RX * math.cos(a)), round(_CY + _RY * math.sin(a))))
    return out


@functools.lru_cache(maxsize=2)
def _background() -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), theme.WOOD_BG)
    d = ImageDraw.Draw(img)
    d.ellipse((18, 30, WIDTH - 18, HEIGHT - 18), fill=theme.FELT_RIM)
    d.ellipse((32, 44, WIDTH - 32, HEIGHT - 32), fill=theme.FELT)
    d.ellipse((_CX - 300, _CY - 170, _CX + 300, _CY + 170), outline=theme.FELT_DARK, width=3)
    return img


def plate_name(name: str, number: int) -> str:
    """What a seat's plate writes for ``name``: :func:`bot.images.text.name_label`, the rule of every picture."""
    return text.name_label(name, number)


def _plate(img: Image.Image, centre: tuple[int, int], seat: SeatInfo, number: int) -> None:
    name = text.fit(plate_name(seat.name, number), NAME_SIZE, PLATE_MAX_W - 24, bold=True) or f"#{number}"
    line = text.fit(seat.line, LINE_SIZE, PLATE_MAX_W - 24)
    w = max(PLATE_MIN_W, text.text_width(name, NAME_SIZE, True) + 24, text.text_width(line, LINE_SIZE) + 24)
    h = 56 if line else 36
    x = min(max(8, centre[0] - w // 2), WIDTH - 8 - w)
    y = min(max(8, centre[1] - h // 2), HEIGHT - 8 - h)
    d = ImageDraw.Draw(img)
    bg = theme.PLATE_ACTIVE if seat.active else theme.PLATE
    fg = theme.TEXT_ACTIVE if seat.active else theme.TEXT
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=bg)
    if seat.team is not None:
        colour = theme.TEAMS[seat.team % len(theme.TEAMS)]
        d.rounded_rectangle((x, y, x + 8, y + h), radius=4, fill=colour)
    text.draw_text(img, (x + w // 2, y + 19), name, NAME_SIZE, fg, bold=True, anchor="m")
    if line:
        text.draw_text(img, (x + w // 2, y + 41), line, LINE_SIZE, fg if seat.active else theme.TEXT_DIM, anchor="m")


def _paste_card(img: Image.Image, sh: sprites.Sheet, card: str, x: int, y: int, ring: bool = False) -> None:
    if card not in sh.faces:
        raise KeyError(f"{card!r} is not a card of the {sh.deck} deck")
    if ring:
        ImageDraw.Draw(img).rounded_rectangle(
            (x - 5, y - 5, x + sh.width + 4, y + sh.height + 4), radius=sh.width // 10 + 4, fill=theme.WINNER_RING
        )
    ox, oy = sh.shadow_offset
    img.paste(sh.shadow, (x + ox, y + oy), sh.shadow)
    img.paste(sh.faces[card], (x, y), sh.faces[card])


def table_image(
    deck: str,
    seats: Sequence[SeatInfo],
    trick: Sequence[tuple[int, str]] = (),
    last_trick: Sequence[tuple[int, str]] | None = None,
    *,
    centre_text: str | None = None,
    centre_card: str | None = None,
    trick_winner: int | None = None,
    last_winner: int | None = None,
    bottom_seat: int = 0,
    clockwise: bool = True,
) -> Image.Image:
    """The table as an RGB image (see :func:`render_table`)."""
    n = len(seats)
    if n not in _LAYOUTS:
        raise ValueError(f"a table has {min(_LAYOUTS)} to {max(_LAYOUTS)} seats, not {n}")
    card_h, trx, try_, corner = _LAYOUTS[n]
    img = _background().copy()
    sh = sprites.sheet(deck, card_h)
    plates = seat_positions(n, bottom_seat, clockwise)
    for seat, card in trick:
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not at this table")
        a = _angle((seat - bottom_seat) % n, n, clockwise)
        cx = _CX + trx * math.cos(a)
        cy = _CY + try_ * math.sin(a)
        _paste_card(img, sh, card, round(cx - sh.width / 2), round(cy - sh.height / 2), ring=seat == trick_winner)
    if centre_card is not None or centre_text:
        _centre(img, deck, centre_card, centre_text)
    if last_trick:
        small = sprites.sheet(deck, SMALL_HEIGHT)
        pitch = round(small.width * 0.62)
        x, y = 20, 16 if corner == 0 else HEIGHT - small.height - 16
        # a dark tray sets the last trick apart from the table without a word
        tray_w = (len(last_trick) - 1) * pitch + small.width + 20
        ImageDraw.Draw(img).rounded_rectangle(
            (x - 10, y - 8, x - 10 + tray_w, y + small.height + 8), radius=10, fill=theme.PLATE
        )
        for seat, card in last_trick:
            _paste_card(img, small, card, x, y, ring=seat == last_winner)
            x += pitch
    for seat, info in enumerate(seats):
        _plate(img, plates[seat], info, seat + 1)
    return img


def _centre(img: Image.Image, deck: str, card: str | None, label: str | None) -> None:
    """A card and / or a short text side by side in the middle (the trick cards leave it free)."""
    size = 26
    # (160 px: "20 노기루다", Korean's short no-trump contract, is 135 px wide)
    label = text.fit(label, size, 160, bold=True) if label else ""
    tw = text.text_width(label, size, True) + 24 if label else 0
    sh = sprites.sheet(deck, CENTRE_HEIGHT) if card is not None else None
    cw = sh.width + (10 if label else 0) if sh is not None else 0
    x = _CX - (cw + tw) // 2
    if sh is not None and card is not None:
        _paste_card(img, sh, card, x, _CY - sh.height // 2)
        x += cw
    if label:
        d = ImageDraw.Draw(img)
        d.rounded_rectangle((x, _CY - 19, x + tw, _CY + 19), radius=12, fill=theme.PLATE)
        text.draw_text(img, (x + tw // 2, _CY), label, size, theme.TEXT, bold=True, anchor="m")


def render_table(
    deck: str,
    seats: Sequence[SeatInfo],
    trick: Sequence[tuple[int, str]] = (),
    last_trick: Sequence[tuple[int, str]] | None = None,
    *,
    centre_text: str | None = None,
    centre_card: str | None = None,
    trick_winner: int | None = None,
    last_winner: int | None = None,
    bottom_seat: int = 0,
    clockwise: bool = True,
    cache: ImageCache | None = DEFAULT_CACHE,
) -> bytes:
    """PNG of the table.

    ``seats``: one :class:`SeatInfo` per seat, in seat order; ``trick``: the current trick's ``(seat, card)``
    plays in play order; ``last_trick``: the previous trick's plays (drawn small, top left), or ``None``;
    ``centre_text``: a short text for the middle (a contract, a trump sign like "♠"); ``centre_card``: a card
    for the middle (Wizard's trump indicator, a called card); ``trick_winner`` / ``last_winner``: the seat whose
    card is ringed in gold. Deterministic; cached by content unless ``cache`` is ``None``.
    """
    seats_t = tuple(seats)
    trick_t = tuple((int(s), c) for s, c in trick)
    last_t = None if last_trick is None else tuple((int(s), c) for s, c in last_trick)
    parts = (
        "table",
        deck,
        seats_t,
        trick_t,
        last_t,
        centre_text,
        centre_card,
        trick_winner,
        last_winner,
        bottom_seat,
        clockwise,
    )

    def render() -> bytes:
        img = table_image(
            deck,
            seats_t,
            trick_t,
            last_t,
            centre_text=centre_text,
            centre_card=centre_card,
            trick_winner=trick_winner,
            last_winner=last_winner,
            bottom_seat=bottom_seat,
            clockwise=clockwise,
        )
        return encode.to_png(img, deck)

    return cached(cache, parts, render)

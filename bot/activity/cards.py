"""Card faces for the page, one PNG each, from the same sprite sheets the pictures are drawn with.

Only a deck of :data:`bot.images.sprites.DECKS` and one of its card ids (or ``back``) is drawn; anything else is
``None`` (the server answers 404). Faces keep their rounded corners transparent; the back is drawn here.
"""

from __future__ import annotations

import functools
import io
import re

from PIL import Image, ImageDraw

from bot.images import sprites

__all__ = ["CARD_CODE", "card_png"]

#: what a card code in a URL may look like before it is looked up (ids are short ASCII: ``AS``, ``WIZ1``, ``T40``)
CARD_CODE = re.compile(r"^[A-Za-z0-9]{1,8}$")
_BACK_FILL = (30, 46, 112)
_BACK_LINE = (212, 175, 55)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def _back(height: int) -> Image.Image:
    w, h = sprites.card_size(height)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = max(4, w // 12)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=r, fill=_BACK_FILL, outline=(120, 120, 128), width=2)
    m = max(6, w // 10)
    d.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=r // 2, outline=_BACK_LINE, width=max(2, w // 60))
    step = max(8, w // 8)
    for x in range(-h, w, step):  # a lattice inside the frame
        d.line((m + x, m, m + x + h, m + h), fill=(58, 74, 140), width=1)
    return img


@functools.lru_cache(maxsize=512)
def card_png(deck: str, code: str) -> bytes | None:
    """The PNG of ``code`` in ``deck`` (``back``: the back), or None for an unknown deck or card."""
    if deck not in sprites.DECKS or not CARD_CODE.match(code):
        return None
    if code == "back":
        return _png(_back(sprites.BASE_HEIGHT))
    if code not in sprites.DECKS[deck]:
        return None
    sheet = sprites.sheet(deck)
    face = sheet.faces.get(code)
    return None if face is None else _png(face)

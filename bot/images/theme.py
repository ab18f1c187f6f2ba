"""Colours and sizes shared by the renderers (one place, so the PNG palette can be built from them)."""

from __future__ import annotations

RGB = tuple[int, int, int]

FELT: RGB = (22, 92, 60)  # the table cloth, also the background of hand and reveal pictures
FELT_DARK: RGB = (16, 70, 46)
FELT_RIM: RGB = (84, 52, 30)  # the wooden edge of the table
WOOD_BG: RGB = (44, 30, 22)  # around the table
PLATE: RGB = (20, 24, 30)  # name plates
PLATE_ACTIVE: RGB = (250, 204, 64)  # the seat whose turn it is: a gold plate ...
TEXT_ACTIVE: RGB = (24, 24, 28)  # ... with dark text
TEXT: RGB = (248, 248, 244)
TEXT_DIM: RGB = (196, 206, 200)
WINNER_RING: RGB = (250, 204, 64)  # the card that wins (or won) a trick
LEGAL_MARK: RGB = (250, 204, 64)  # the bar under a playable card
DIM_TO: RGB = (40, 44, 52)  # illegal cards are blended towards this colour
DIM_AMOUNT = 0.55
SHADOW_ALPHA = 110
# partnership / side colours for the seat plates' left band (Minchiate teams, a revealed Mighty friend ...)
TEAMS: tuple[RGB, ...] = ((66, 133, 244), (234, 88, 66), (52, 168, 83), (171, 71, 188))

# every (foreground, background) pair text is drawn with: the palette gets their antialiasing ramps
TEXT_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    (TEXT, PLATE),
    (TEXT_DIM, PLATE),
    (TEXT_ACTIVE, PLATE_ACTIVE),
    (TEXT, FELT),
    (TEXT_DIM, FELT),
    (TEXT, FELT_DARK),
    (TEXT, WOOD_BG),
    (WINNER_RING, FELT),
    (LEGAL_MARK, FELT),
    *((t, PLATE) for t in TEAMS),
)

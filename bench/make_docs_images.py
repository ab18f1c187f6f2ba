"""Regenerate the example pictures in docs/: a Mighty table (5 seats, a trick) and a Minchiate 21-card hand.

.venv/bin/python bench/make_docs_images.py
"""

from __future__ import annotations

from pathlib import Path

from bot.images import SeatInfo, render_hand, render_table

DOCS = Path(__file__).resolve().parents[1] / "docs"


def mighty_table() -> bytes:
    seats = [
        SeatInfo("Minsu", "13 ♠ · 4", team=0),
        SeatInfo("Alessandra", "2"),
        SeatInfo("Jae-won", "3", team=0),
        SeatInfo("Bartholomew the Bold", "1", active=True),
        SeatInfo("Chen", "0"),
    ]
    trick = [(2, "KS"), (3, "9S"), (4, "JK"), (0, "AS")]
    last = [(1, "TH"), (2, "QH"), (3, "3H"), (4, "AH"), (0, "5S")]
    return render_table("french", seats, trick, last, centre_text="13♠", last_winner=0, cache=None)


def minchiate_hand() -> bytes:
    hand = [
        "T40", "T36", "T28", "T20", "T15", "T11", "T7", "T1", "MATTO",
        "CoK", "CoC", "Co1", "Co7",
        "CuQ", "Cu2",
        "SwK", "Sw10", "Sw4",
        "BaF", "Ba9", "Ba3",
    ]  # fmt: skip
    legal = {c for c in hand if c.startswith("T")} | {"MATTO"}
    return render_hand("minchiate97", hand, legal=legal, cache=None)


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    for name, data in (("mighty-table.png", mighty_table()), ("minchiate-hand.png", minchiate_hand())):
        (DOCS / name).write_bytes(data)
        print(f"docs/{name}: {len(data) / 1024:.1f} KB")


if __name__ == "__main__":
    main()

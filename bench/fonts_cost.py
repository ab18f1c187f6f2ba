"""What the name fonts cost: their size on disk, and the first table picture's time in a fresh process.

Each measurement runs in a new interpreter (no font opened, no character map read yet), after the usual start-up
work (``prepare()`` draws the card sprites; one PNG saved loads Pillow's plugins), so it is the first picture a
restarted bot draws: once with Latin names only, once with names in five scripts (which opens the CJK font), once
with emoji and right-to-left names (the emoji font and its sequence table, Arabic shaping, the bidi algorithm).
``--code DIR`` measures another checkout's code (e.g. the commit before the fonts) with this interpreter, to
compare. Times are the process's CPU time, so other work on the machine does not inflate them.

    .venv/bin/python bench/fonts_cost.py [--runs 5] [--code /path/to/other/checkout]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LATIN = ["Alessandra", "Bartholomew", "Chen", "Dário", "Eun-ji"]
WORLD = ["민수", "Алексей", "Łukasz Żółw", "山田太郎", "Nguyễn Thị Hằng"]
EMOJI_RTL = ["Zoë 🎲", "👩\u200d👩\u200d👧", "🇵🇱 Ola", "محمد", "דוד"]  # emoji font, shaping and bidi, Arabic, Hebrew

_CHILD = """
import io, json, sys, time
from PIL import Image
from bot.images import SeatInfo, prepare, render_table
prepare()
Image.new("RGB", (8, 8)).save(io.BytesIO(), "PNG")  # Pillow's plugins load on the first save: not the fonts' cost
names = json.loads(sys.argv[1])
seats = [SeatInfo(n, f"{i} / {i + 1}", active=i == 2) for i, n in enumerate(names)]
t = time.process_time()
render_table("french", seats, [(0, "AS"), (1, "KH")], centre_text="7♠", cache=None)
first = time.process_time() - t
t = time.process_time()
render_table("french", seats, [(0, "AS"), (1, "KH")], centre_text="7♠", cache=None)
print(json.dumps([first * 1000, (time.process_time() - t) * 1000]))
"""


def _run(code: Path, names: list[str]) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(names)], cwd=code, env=env, capture_output=True, text=True, check=True
    )
    first, again = json.loads(out.stdout)
    return first, again


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="fresh processes per measurement (the median is shown)")
    ap.add_argument("--code", type=Path, default=ROOT, help="the checkout whose bot/ package is measured")
    args = ap.parse_args()
    fonts = sorted([*(args.code / "bot" / "fonts").glob("*.?tf"), *(args.code / "bot" / "fonts").glob("*.tsv")])
    total = sum(f.stat().st_size for f in fonts)
    for f in fonts:
        print(f"{f.name:<32} {f.stat().st_size / 1e6:6.2f} MB")
    print(f"{'fonts in total':<32} {total / 1e6:6.2f} MB")
    for label, names in (("Latin names", LATIN), ("names in five scripts", WORLD), ("emoji and RTL", EMOJI_RTL)):
        runs = [_run(args.code, names) for _ in range(args.runs)]
        first = statistics.median(r[0] for r in runs)
        again = statistics.median(r[1] for r in runs)
        print(f"{label:<24} first table picture {first:6.1f} ms, the next {again:6.1f} ms")


if __name__ == "__main__":
    main()

"""The CPU of a map's new event line, with render/textruns.py's caches and with Pillow alone.

    nice -n 5 python benchmarks/new_text_cost.py [--matches 40]

A phase post draws its new event lines as the events panel does (`panels.newest_lines`: cleaned
for the font, wrapped to two lines of the panel's width, each line a sprite) and the caption's
"Latest: ..." line (`panels.caption_line`: bold, ellipsised, a sprite). Here the public event
lines of ``matches`` seeded Tiny Big Wars matches (three seats, names ``p<n>`` as discord_load.py
names them) go through those steps, every line new to the text caches (the wrap, the ellipsis
and the sprites are emptied before each line), in two ways interleaved line by line:

- textruns: widths and plain masks from the cached advances, kerning pairs and word masks, which
  the lines before it filled (the first quarter of the matches only fills them);
- Pillow: textruns switched off, every width measured and every mask rendered by FreeType.

Both must make the same sprites (checked for every line). Timed by thread CPU, mean a line,
beside the machine floor of the same run.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

import engine as eng  # noqa: E402
from benchmarks.draw_floors import load_average, machine_floor, start  # noqa: E402
from bot.simulate import simulate  # noqa: E402
from engine.text import fill  # noqa: E402
from render import panels, text, textruns  # noqa: E402
from render.tinybigwars import layout  # noqa: E402

GAME, SEATS, OPTIONS = "tinybigwars", 3, {"round_limit": 2}


def event_lines(matches: int) -> list[list[str]]:
    """Each match's public event lines in order, names filled in."""
    out = []
    rules = eng.get(GAME)
    for number in range(matches):
        seed = 7000 + number
        state = rules.setup(SEATS, eng.parse_options(rules, OPTIONS), seed)
        names = [f"p{2 * number}", f"p{2 * number + 1}", "AI Ayame"]
        lines = []
        for seat, choice in simulate(GAME, SEATS, seed, options=OPTIONS)["log"]:
            step = rules.submit(state, seat, choice)
            state = step.state
            lines += [fill(event.text, names) for event in step.events if event.seats is None and event.text]
        out.append(list(dict.fromkeys(lines)))
    return out


def draw_line(line: str) -> Image.Image:
    """What a post does with one new event line: its panel lines and its caption line."""
    image = Image.new("RGB", (layout.WIDTH, 120), (0, 0, 0))
    panels.newest_lines(image, [line], (14, 4), 536, 116, 20, 26)
    panels.caption_line(image, (40, 100), "Latest: " + line, 900)
    return image


def forget_lines() -> None:
    text._SPRITES.clear()
    text._wrap.cache_clear()
    text._ellipsize.cache_clear()


def timed(job: Callable[[], Image.Image]) -> tuple[float, bytes]:
    forget_lines()
    started = time.thread_time()
    image = job()
    return time.thread_time() - started, image.tobytes()


def pillow_alone(font: object) -> None:
    """`textruns.runs` switched off: no font is cached, Pillow measures and renders everything."""


def main() -> None:
    args = start(__doc__, 40, "a map's new event line, textruns against Pillow alone (thread CPU)", profile=False)
    per_match = event_lines(args.matches)
    warm = max(1, args.matches // 4)
    for lines in per_match[:warm]:
        for line in lines:
            draw_line(line)
    runs_of = textruns.runs
    ours, pillows = [], []
    for lines in per_match[warm:]:
        for line in lines:
            took, made = timed(lambda line=line: draw_line(line))
            textruns.runs = pillow_alone
            try:
                pillow_took, pillow_made = timed(lambda line=line: draw_line(line))
            finally:
                textruns.runs = runs_of
            if made != pillow_made:
                raise SystemExit(f"textruns drew {line!r} differently from Pillow")
            ours.append(took)
            pillows.append(pillow_took)
    print(f"  {len(ours)} new event lines of {args.matches - warm} matches (the first {warm} matches' lines filled "
          f"the caches), each wrapped and drawn as panel lines and as the caption's line, the same pixels both ways")
    print(f"  Pillow alone   {statistics.fmean(pillows) * 1e6:7.1f} us CPU mean a line "
          f"(p50 {statistics.median(pillows) * 1e6:.1f})")
    print(f"  textruns       {statistics.fmean(ours) * 1e6:7.1f} us CPU mean a line "
          f"(p50 {statistics.median(ours) * 1e6:.1f})")
    print(f"  floor machine again {machine_floor():6.2f} ms CPU; load {load_average()}")


if __name__ == "__main__":
    main()

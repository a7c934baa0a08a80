"""A drawing worker's CPU a phase post at many matches, each post beside its own warm floor.

    nice -n 5 python benchmarks/worker_draws.py [--matches 200] [--profile]

The phase posts of ``matches`` seeded Tiny Big Wars matches (three seats, two rounds, as
discord_load.py plays them: two humans named ``p<n>`` and the heuristic AI; each post titled with
the phase it closes and its replay frame titled with the phase after it), the matches' posts
interleaved as one drawing worker meets them (every match's first post drawn, then every match's
second, ...), each drawn as the worker draws it (``replay_frames.draw_and_keep``: the PNG and the
replay frame written to a temporary directory). This process is set up as a worker is (malloc's
thresholds, ``reuse_freed_memory``, where the tree has it). Timed by thread CPU, mean a post:

- post: the PNG and the replay frame, the first time the worker meets the view;
- again: the same post drawn once more right after (every cache warm for this very view: its
  floor, what no cache can cut);
- parts of the first draw: the RGB picture, the PNG encoding, the replay frame;
- the caches the first draws missed: static layers, backgrounds, text sprites, a post; and the
  text laid out by FreeType a post (``getlength`` measures and ``getmask2`` renders).

Floors, in the same run: "machine", zlib level 1 of a fixed 2 MiB (to compare runs and trees);
"warm map", tests/render/views.three_seat_mid drawn again and again (discord_load.py's floor).
Only public entry points, so it times an older tree too (run it with that tree's PYTHONPATH).
``--profile`` prints cProfile's top functions of the first draws instead.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import ImageFont  # noqa: E402

import render  # noqa: E402
from benchmarks.draw_floors import load_average, machine_floor, print_profile, start, warm_floor  # noqa: E402
from bot.service import replay_frames  # noqa: E402
from bot.service.history import public_frames  # noqa: E402
from bot.simulate import simulate  # noqa: E402
from render.tinybigwars import board  # noqa: E402

GAME, SEATS, OPTIONS = "tinybigwars", 3, {"round_limit": 2}
Post = tuple[dict[str, Any], dict[str, Any], list[str]]






def posts(matches: int) -> list[Post]:
    """(post view, frame view, names) of every public phase end after the start, the matches'
    posts interleaved (each match's first, then each match's second, ...)."""
    per_match = []
    for number in range(matches):
        seed = 7000 + number
        log = simulate(GAME, SEATS, seed, options=OPTIONS)["log"]
        frames = public_frames(GAME, SEATS, OPTIONS, seed, log)
        per_match.append((frames, [f"p{2 * number}", f"p{2 * number + 1}", "AI Ayame"]))
    out: list[Post] = []
    for index in range(1, max(len(frames) for frames, _ in per_match)):
        for frames, names in per_match:
            if index < len(frames):
                frame_view = dict(frames[index])
                raw = frames[index - 1].get("phase_label")
                post_view = {**frame_view, "phase_label": raw} if raw and raw != frame_view.get(
                    "phase_label") else frame_view
                out.append((post_view, frame_view, names))
    return out


def builds() -> tuple[int, int, int]:
    return board._STATIC.builds, board._BACKGROUND.builds, render.text._SPRITES.builds


def timed(job: Callable[[], object]) -> float:
    started = time.thread_time()
    job()
    return time.thread_time() - started


class Layouts:
    """Counts FreeType's text layouts (measures and renders) while installed."""

    def __init__(self) -> None:
        self.measures = self.renders = 0
        self._getlength, self._getmask2 = ImageFont.FreeTypeFont.getlength, ImageFont.FreeTypeFont.getmask2

    def install(self) -> None:
        counts = self

        def getlength(font: ImageFont.FreeTypeFont, *args: Any, **kwargs: Any) -> float:
            counts.measures += 1
            return counts._getlength(font, *args, **kwargs)

        def getmask2(font: ImageFont.FreeTypeFont, *args: Any, **kwargs: Any) -> Any:
            counts.renders += 1
            return counts._getmask2(font, *args, **kwargs)

        ImageFont.FreeTypeFont.getlength = getlength  # type: ignore[method-assign]
        ImageFont.FreeTypeFont.getmask2 = getmask2  # type: ignore[method-assign]

    def remove(self) -> None:
        ImageFont.FreeTypeFont.getlength = self._getlength  # type: ignore[method-assign]
        ImageFont.FreeTypeFont.getmask2 = self._getmask2  # type: ignore[method-assign]


def png_of(picture: Any) -> bytes:
    """The PNG of a drawn map as the tree makes it (from its boxes where it has them)."""
    by_boxes = getattr(render.encode, "picture_png", None)
    return by_boxes(picture) if by_boxes is not None else render.encode.png(picture.image, picture.palette)


def run(group: list[Post]) -> None:
    module = render.RENDERERS[GAME]
    layouts = Layouts()
    first, again, parts = [], [], {"picture": [], "png": [], "frame": []}
    missed = [0, 0, 0]
    faults = 0
    for post, frame, names in group:
        before = builds()
        faults_before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        layouts.install()
        first.append(timed(lambda post=post, frame=frame, names=names: replay_frames.draw_and_keep(
            GAME, post, names, frame)))
        layouts.remove()
        faults += resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults_before
        missed = [m + a - b for m, a, b in zip(missed, builds(), before, strict=True)]
        replay_frames.forget(GAME, [frame], names)
        again.append(timed(lambda post=post, frame=frame, names=names: replay_frames.draw_and_keep(
            GAME, post, names, frame)))
        replay_frames.forget(GAME, [frame], names)
        drawn: list[Any] = []
        parts["picture"].append(timed(lambda post=post, names=names, drawn=drawn: drawn.append(
            module.picture(post, names))))
        parts["png"].append(timed(lambda drawn=drawn: png_of(drawn[0])))
        parts["frame"].append(timed(lambda frame=frame, names=names, drawn=drawn: render.replay_frame(
            GAME, frame, names, drawn[0])))
    n = len(group)
    mean = {key: statistics.fmean(times) * 1000 for key, times in parts.items()}
    print(f"  post (PNG + replay frame), first draw   {statistics.fmean(first) * 1000:6.2f} ms CPU mean "
          f"(p50 {statistics.median(first) * 1000:.2f}), {faults / n:5.0f} page faults a post, {n} posts")
    print(f"  the same post drawn again (its floor)   {statistics.fmean(again) * 1000:6.2f} ms CPU mean "
          f"(p50 {statistics.median(again) * 1000:.2f})")
    print(f"  warm parts: picture {mean['picture']:5.2f}, PNG {mean['png']:5.2f}, replay frame "
          f"{mean['frame']:5.2f} ms CPU mean")
    print(f"  caches missed a first draw: static layers {missed[0] / n:.3f}, backgrounds {missed[1] / n:.3f}, "
          f"text sprites {missed[2] / n:.2f}; FreeType layouts a first draw: {layouts.measures / n:.1f} measures, "
          f"{layouts.renders / n:.1f} renders")


def main() -> None:
    args = start(__doc__, 200, "phase posts of many matches in one worker (thread CPU)", profile=True)
    os.environ[replay_frames.SETTING] = tempfile.mkdtemp(prefix="worker-draws-")
    print(f"  floor warm map (three_seat_mid again)       {warm_floor():6.2f} ms CPU median")
    group = posts(args.matches)
    if args.profile:
        print_profile(lambda: [replay_frames.draw_and_keep(GAME, post, names, frame) for post, frame, names in group], 30)
        return
    run(group)
    print(f"  floor machine again                         {machine_floor():6.2f} ms CPU; load "
          f"{load_average()}")


if __name__ == "__main__":
    main()

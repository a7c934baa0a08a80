"""Where a finished match's replay GIF spends its CPU, part by part, beside floors from the same run.

    nice -n 5 python benchmarks/replay_cost.py [--matches 40]

The replay of ``matches`` seeded Tiny Big Wars matches (two seats, two rounds, as discord_load.py
plays them; each match's players named their own way, so a match's text is new to the process as
in a drawing worker at 200 matches), timed by thread CPU in the parts ``draw_replay`` is made of:

- engine: the public views from the log (``public_frames``: the log played, a view a phase end);
- draw: each view's map as an RGB image (the renderer's ``picture``);
- halve: each map at half size (``render.anim.halve``, a 2x2 mean);
- quantize: each half map onto the map's fixed palette;
- encode: the GIF written by Pillow (each frame cut to what changed since the one before).

Then what a frame would cost if it were kept from the phase post that drew the same state:

- piece: a half map quantized and written as a GIF image block of its own (what a phase post's
  draw would add to make the frame then: halve + quantize + LZW of the whole frame);
- relabel: the replay's frame drawn right after the phase post's map of the same state (the post
  titles the map with the phase it closes, the replay frame with the phase after it), with the
  post's text already drawn once in this process;
- sizes: the GIF of whole frames against the GIF Pillow writes (frames cut to their changes).

With replay_frames.py in the tree: a phase post's map drawn with its replay frame made on the way
(``replay_frames.draw_and_keep``) beside the map alone, and the replay joined from its kept frames.

And the engine floor split: the public views built (``game.view``, counted) against the steps.

Floors: "machine", zlib level 1 of a fixed 2 MiB (to compare runs and trees); "engine" above
(no drawing change removes it). Only public entry points, so it times an older tree too (run it
with that tree's PYTHONPATH).
"""

from __future__ import annotations

import io
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

import render  # noqa: E402
from benchmarks.draw_floors import load_average, machine_floor, start  # noqa: E402
from bot.service.history import draw_replay, public_frames  # noqa: E402
from bot.simulate import simulate  # noqa: E402
from render import anim  # noqa: E402

GAME, SEATS, OPTIONS = "tinybigwars", 2, {"round_limit": 2}




def timed(job: Callable[[], Any]) -> tuple[Any, float]:
    started = time.thread_time()
    result = job()
    return result, (time.thread_time() - started) * 1000


def single_frame_gif(frame: Image.Image) -> bytes:
    buffer = io.BytesIO()
    frame.save(buffer, format="GIF", optimize=False)
    return buffer.getvalue()


def ahead(matches: list[tuple[int, list[tuple[int, dict[str, Any]]], list[str]]], module: Any) -> None:
    """Trees with replay_frames.py: a phase post's map with its replay frame made on the way, and
    the replay joined from the frames kept (found, joined, removed)."""
    try:
        from bot.service import replay_frames
    except ImportError:
        print("  (no replay_frames in this tree: every replay draws its frames)")
        return
    import os

    os.environ[replay_frames.SETTING] = tempfile.mkdtemp(prefix="replay-cost-")
    posts, plain, joins = [], [], []
    for seed, log, names in matches:
        # each map drawn twice with names new to this process (as at a post's first draw): alone, and with its frame
        alone, names = [name + " alone" for name in names], [name + " ahead" for name in names]
        views = public_frames(GAME, SEATS, OPTIONS, seed, log)
        for index, view in enumerate(views):
            post_view = {**view, "phase_label": views[index - 1].get("phase_label")} if index else view
            _png, plain_ms = timed(lambda post_view=post_view, alone=alone: render.draw(GAME, post_view, alone))
            plain.append(plain_ms)
            _png, post_ms = timed(lambda post_view=post_view, view=view, names=names: replay_frames.draw_and_keep(
                GAME, post_view, names, view))
            posts.append(post_ms)
        gif, join_ms = timed(lambda seed=seed, log=log, names=names: draw_replay(GAME, SEATS, OPTIONS, seed, log, names))
        assert gif.ahead == gif.frames, (gif.ahead, gif.frames)
        joins.append(join_ms)
    print(f"  made ahead: a phase post's map with its replay frame {statistics.fmean(posts):5.2f} ms CPU "
          f"(the map alone {statistics.fmean(plain):5.2f}); the replay joined from its kept frames "
          f"{statistics.fmean(joins):5.2f} ms a replay (engine floor above)")


def engine_split(matches: list[tuple[int, list[tuple[int, dict[str, Any]]], list[str]]]) -> None:
    """The engine floor in its parts: the log played on one working copy (the steps) against the
    public views built on the way (``game.view``; the tree's ``public_frames`` builds how many)."""
    import engine as eng
    from bot.service import history

    game = eng.get(GAME)
    steps_ms = views_ms = 0.0
    built = kept = 0
    real_view = game.view

    def view(state: Any, seat: int | None) -> dict[str, Any]:
        nonlocal views_ms, built
        started = time.thread_time()
        result = real_view(state, seat)
        views_ms += (time.thread_time() - started) * 1000
        built += 1
        return result

    game.view = view  # type: ignore[method-assign]
    try:
        for seed, log, _names in matches:
            frames, whole_ms = timed(lambda seed=seed, log=log: history.public_frames(GAME, SEATS, OPTIONS, seed, log))
            steps_ms += whole_ms
            kept += len(frames)
    finally:
        del game.view
    steps_ms -= views_ms
    count = len(matches)
    print(f"  engine split: views {views_ms / count:5.2f} ms a replay ({built / count:.1f} built, {kept / count:.1f} "
          f"kept), the rest (steps, setup) {steps_ms / count:5.2f} ms")


def main() -> None:
    args = start(__doc__, 40, "replay CPU (thread time)", profile=False)
    module = render.RENDERERS[GAME]
    matches = []
    for seed in range(1, args.matches + 1):
        log = simulate(GAME, SEATS, seed, options=OPTIONS)["log"]
        matches.append((seed, log, [f"Player {seed}a", f"Player {seed}b"]))
    warm_log = simulate(GAME, SEATS, 999, options=OPTIONS)["log"]
    render.draw(GAME, public_frames(GAME, SEATS, OPTIONS, 999, warm_log)[0], ["x", "y"])  # the static layer
    draw_replay(GAME, SEATS, OPTIONS, 999, warm_log, ["x", "y"])  # every code path run once
    parts: dict[str, list[float]] = {name: [] for name in ("engine", "draw", "halve", "quantize", "encode", "whole")}
    frames = 0
    for seed, log, names in matches:
        views, engine_ms = timed(lambda seed=seed, log=log: public_frames(GAME, SEATS, OPTIONS, seed, log))
        pictures, draw_ms = timed(lambda views=views, names=names: [module.picture(v, names) for v in views])
        halves, halve_ms = timed(lambda pictures=pictures: [anim.halve(p.image) for p in pictures])
        palette = pictures[0].palette
        quantized, quantize_ms = timed(lambda halves=halves, palette=palette: [
            h.quantize(palette=palette, dither=Image.Dither.NONE) for h in halves])
        _gif, encode_ms = timed(lambda quantized=quantized: anim._encode(quantized, 900, 4000))
        timings = {"engine": engine_ms, "draw": draw_ms, "halve": halve_ms, "quantize": quantize_ms,
                   "encode": encode_ms}
        timings["whole"] = sum(timings.values())
        for name, value in timings.items():
            parts[name].append(value)
        frames += len(views)
    whole = statistics.fmean(parts["whole"])
    print(f"  {args.matches} replays, {frames / args.matches:.1f} frames each; mean CPU a replay:")
    for name, values in parts.items():
        mean = statistics.fmean(values)
        print(f"    {name:9s} {mean:6.1f} ms  ({mean / whole * 100:3.0f} %)  {mean * args.matches / frames:5.2f} ms a frame"
              + ("  <- floor engine" if name == "engine" else ""))
    piece_times, relabel_times, post_times, whole_sizes, cut_sizes = [], [], [], [], []
    for seed, _log, names in matches[: min(12, len(matches))]:
        views = public_frames(GAME, SEATS, OPTIONS, seed + 1000, simulate(GAME, SEATS, seed + 1000,
                                                                         options=OPTIONS)["log"])
        quantized = []
        for index, view in enumerate(views):
            post_view = {**view, "phase_label": views[index - 1].get("phase_label")} if index else view
            post, post_ms = timed(lambda post_view=post_view, names=names: module.picture(post_view, names))
            _frame, relabel_ms = timed(lambda view=view, names=names: module.picture(view, names))
            small, piece_ms = timed(lambda post=post: single_frame_gif(
                anim.halve(post.image).quantize(palette=post.palette, dither=Image.Dither.NONE)))
            quantized.append(anim.halve(post.image).quantize(palette=post.palette, dither=Image.Dither.NONE))
            post_times.append(post_ms)
            relabel_times.append(relabel_ms)
            piece_times.append(piece_ms)
            whole_sizes.append(len(small))
        cut_sizes.append(len(anim._encode(quantized, 900, 4000)))
    print(f"  a frame kept from its phase post: piece {statistics.fmean(piece_times):5.2f} ms; the replay's own "
          f"title drawn right after the post's map {statistics.fmean(relabel_times):5.2f} ms (the post's map "
          f"{statistics.fmean(post_times):5.2f} ms)")
    print(f"  GIF of whole frames {sum(whole_sizes) / len(cut_sizes) / 1024:6.0f} KiB a replay, Pillow's (cut to "
          f"changes) {statistics.fmean(cut_sizes) / 1024:6.0f} KiB")
    ahead(matches[: min(12, len(matches))], module)
    engine_split(matches)
    print(f"  floor machine again                          {machine_floor():6.1f} ms CPU; load "
          f"{load_average()}")


if __name__ == "__main__":
    main()

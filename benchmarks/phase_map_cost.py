"""CPU of a phase post's map in a drawing worker, with and without its replay frame, beside floors.

    nice -n 5 python benchmarks/phase_map_cost.py [--matches 40] [--profile]

The phase ends of ``matches`` seeded Tiny Big Wars matches (two seats, two rounds, as
discord_load.py plays them; each match's players named their own way), drawn in turn as a drawing
worker meets them (every map a new view: new events, captions, hero rows), each as a phase post
draws it: titled with the phase it closes, and its replay frame (titled with the phase after it)
made from the same picture (``render.draw_and_frame``). Timed by thread CPU, mean a post:

- map: the PNG alone (``render.draw``);
- map + frame: the PNG and the replay frame (``render.draw_and_frame``);
- its parts: the RGB picture, the PNG encoding, the frame (halve, palette, GIF block, title rows).

With ``render.post_and_frame`` in the tree (the PNG and the frame of a map already drawn), the
same posts' maps drawn once more and their PNG + frame made both ways, alternating post by post in
this process (a pair the VM's load cannot split): from the boxes a phase drew in (``Picture.layer``,
the tree's way) and from the whole map (the layer dropped: the way before), with the picture's own
CPU beside them.

Floors, in the same run: "machine", zlib level 1 of a fixed 2 MiB; "warm floor map", one
mid-game view (tests/render/views.three_seat_mid) drawn again and again (every text sprite and
layer cached: what no per-view work is left in).

Only public entry points, so it times an older tree too (run it with that tree's PYTHONPATH).
``--profile`` prints cProfile's top functions of the map + frame pass instead.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render  # noqa: E402
from benchmarks.draw_floors import load_average, machine_floor, mean_ms, print_profile, start, warm_floor  # noqa: E402
from bot.service.history import public_frames  # noqa: E402
from bot.simulate import simulate  # noqa: E402

GAME = "tinybigwars"




def posts(matches: int, first_seed: int) -> list[tuple[dict[str, Any], dict[str, Any], list[str]]]:
    """(post view, frame view, names) of every phase end after the first, match by match in turn."""
    per_match = []
    for seed in range(first_seed, first_seed + matches):
        log = simulate(GAME, 2, seed, options={"round_limit": 2})["log"]
        frames = public_frames(GAME, 2, {"round_limit": 2}, seed, log)
        names = [f"Player {seed}a", f"Player {seed}b"]
        per_match.append((frames, names))
    out = []
    for index in range(1, max(len(frames) for frames, _ in per_match)):
        for frames, names in per_match:
            if index < len(frames):
                frame_view = dict(frames[index])
                post_view = {**frame_view, "phase_label": frames[index - 1].get("phase_label")}
                if post_view == frame_view:
                    post_view["phase_label"] = f"{frame_view.get('phase_label')} ends"
                out.append((post_view, frame_view, names))
    return out




def paired(group: list[tuple[dict[str, Any], dict[str, Any], list[str]]]) -> None:
    """Each post's map drawn, then its PNG + frame made from the boxes and from the whole map
    (which first alternating), every result checked the same."""
    module = render.RENDERERS[GAME]
    seen = set()
    for post, _, names in group:
        if names[0] not in seen:
            seen.add(names[0])
            render.draw(GAME, post, names)
    drawn, boxes, whole = [], [], []
    for turn, (post, frame, names) in enumerate(group):
        started = time.thread_time()
        picture = module.picture(post, names)  # type: ignore[attr-defined]
        drawn.append(time.thread_time() - started)
        ways = [(boxes, picture), (whole, picture._replace(layer=None))]
        made = []
        for into, way in ways if turn % 2 else ways[::-1]:
            started = time.thread_time()
            made.append(render.post_and_frame(GAME, way, post, names, frame))
            into.append(time.thread_time() - started)
        assert made[0] == made[1], "the boxes' PNG or frame differs from the whole map's"
    draw_ms, boxes_ms, whole_ms = (statistics.fmean(times) * 1000 for times in (drawn, boxes, whole))
    print(f"  paired, {len(group)} posts: the map's picture {draw_ms:6.2f} ms CPU mean; its PNG + replay frame "
          f"from the whole map {whole_ms:5.2f}, from the phase's boxes {boxes_ms:5.2f} "
          f"(map + frame {draw_ms + whole_ms:5.2f} -> {draw_ms + boxes_ms:5.2f})")


def main() -> None:
    args = start(__doc__, 40, "phase post map CPU (thread time)", profile=True)
    # each pass its own matches (new names, new text), as a worker meets new views; the first
    # map of every match drawn before (its static layer built, as after a match's first post)
    map_posts = posts(args.matches, 1)
    both_posts = posts(args.matches, 1001)
    for group in (map_posts, both_posts):
        seen = set()
        for post, _, names in group:
            if names[0] not in seen:
                seen.add(names[0])
                render.draw(GAME, post, names)
    if args.profile:
        print_profile(lambda: [render.draw_and_frame(GAME, post, names, frame) for post, frame, names in both_posts], 25)
        return
    floor = warm_floor()
    only_map = mean_ms(map_posts, lambda item: render.draw(GAME, item[0], item[2]))
    with_frame = mean_ms(both_posts, lambda item: render.draw_and_frame(GAME, item[0], item[2], item[1]))
    print(f"  floor warm map (three_seat_mid drawn again)         {floor:6.2f} ms CPU median")
    print(f"  phase post map, each view new ({len(map_posts)} posts)       {only_map:6.2f} ms CPU mean")
    print(f"  phase post map + replay frame ({len(both_posts)} posts)      {with_frame:6.2f} ms CPU mean")
    if hasattr(render, "post_and_frame"):
        paired(posts(args.matches, 2001))
    print(f"  floor machine again                                 {machine_floor():6.2f} ms CPU; load "
          f"{load_average()}")


if __name__ == "__main__":
    main()

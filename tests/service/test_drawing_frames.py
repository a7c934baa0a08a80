"""A one-worker drawing pool keeps each posted map's replay frame, and the match's replay uses
them (bot/service/drawing.py, bot/service/history.py): the same GIF, without drawing the maps again."""

from __future__ import annotations

import render
from bot.service import drawing
from bot.service.history import draw_replay, public_frames
from bot.simulate import simulate

NAMES = ["alice", "bob"]
OPTIONS = {"round_limit": 2}


def _kept(game: str, views: list[dict], names: list[str]) -> int:
    """In whatever process runs it: how many of these maps have their replay frame kept there."""
    keys = drawing.kept_frame_keys(game, views, names)
    return 0 if keys is None else sum(render.anim.kept_frame(key) is not None for key in keys)


async def test_the_only_worker_keeps_the_posts_frames_for_the_replay() -> None:
    log = simulate("tinybigwars", 2, 11, options=OPTIONS)["log"]
    views = public_frames("tinybigwars", 2, OPTIONS, 11, log)
    args = ("tinybigwars", 2, OPTIONS, 11, log, NAMES)
    pool = drawing.DrawingPool(1)
    try:
        posted = [await pool.draw("tinybigwars", view, NAMES, key=drawing.map_key("tinybigwars", view, NAMES))
                  for view in views[:-1]]  # every phase post but the last
        kept = await pool.run("replay", _kept, "tinybigwars", views, NAMES)
        replay = await pool.run("replay", draw_replay, *args)
    finally:
        await pool.close()
    assert pool.where == {"pool": len(views) + 1, "thread": 0}
    assert posted == [render.draw("tinybigwars", view, NAMES) for view in views[:-1]]
    assert kept == len(views) - 1
    assert replay == draw_replay(*args)  # drawn here, in the test's process: nothing kept, every map drawn


async def test_a_pool_of_two_keeps_none() -> None:
    view = public_frames("tinybigwars", 2, OPTIONS, 11, [])[0]
    pool = drawing.DrawingPool(2)
    try:
        await pool.draw("tinybigwars", view, NAMES, key=drawing.map_key("tinybigwars", view, NAMES))
        kept = await pool.run("replay", _kept, "tinybigwars", [view], NAMES)
    finally:
        await pool.close()
    assert kept == 0
    assert not drawing.keeps_frames()  # nor does the bot's own process

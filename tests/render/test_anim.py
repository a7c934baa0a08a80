"""Replay GIFs: loop forever, hold the last frame, and always fit the size limit."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

import render
from render import tinybigwars as tbw
from tests.render import defenders_views, samurai_views, views


@pytest.fixture(scope="module")
def frames() -> list[bytes]:
    """60 phase images: the fixtures with the round counter advancing."""
    out = []
    builders = list(views.ALL.values())
    for i in range(60):
        v = builders[i % len(builders)]()
        v["round"] = i // 4
        v["phase_label"] = f"Round {i // 4} - phase {i % 4}"
        out.append(render.draw("tinybigwars", v))
    return out


def _open(gif: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(gif))
    assert img.format == "GIF"
    return img


def test_sixty_frames_fit_and_loop(frames: list[bytes]) -> None:
    gif = render.animate(frames)
    assert len(gif) <= 8 * 1024 * 1024
    img = _open(gif)
    assert img.n_frames == 60
    assert img.info.get("loop") == 0
    assert img.size == (tbw.WIDTH // 2, tbw.HEIGHT // 2)  # half size
    img.seek(0)
    first = img.info["duration"]
    img.seek(img.n_frames - 1)
    assert img.info["duration"] > first


def test_tight_limit_drops_and_shrinks_frames(frames: list[bytes]) -> None:
    limit = 400 * 1024
    gif = render.animate(frames, max_bytes=limit)
    assert len(gif) <= limit
    img = _open(gif)
    assert 1 <= img.n_frames < 60


def test_impossible_limits_raise() -> None:
    with pytest.raises(ValueError):
        render.animate([])
    one = render.draw("tinybigwars", views.two_seat_start())
    with pytest.raises(ValueError):
        render.animate([one], max_bytes=50)


def _halved(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB").reduce(2)


def _distance(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two same-size RGB images, 0-255."""
    histogram = ImageChops.difference(a, b).convert("L").histogram()
    return sum(level * count for level, count in enumerate(histogram)) / (a.width * a.height)


@pytest.mark.parametrize("game, first, second", [
    ("tinybigwars", views.two_seat_start(), views.three_seat_over()),
    ("samurai", samurai_views.public(samurai_views.ALL[0]), samurai_views.public(samurai_views.ALL[-1])),
    ("defenders", defenders_views.early(), defenders_views.lost()),
])
def test_a_replay_shows_each_map_in_turn_at_half_size(game: str, first: dict[str, Any], second: dict[str, Any]) -> None:
    """Frames come from the renderer's images and its map palette, not re-read PNGs: each frame
    is still its own map (halved), in order, with the colours of the map post."""
    gif = _open(render.replay(game, [first, second]))
    maps = [_halved(render.draw(game, view)) for view in (first, second)]
    assert gif.n_frames == 2 and gif.size == maps[0].size
    for index, own in enumerate(maps):
        gif.seek(index)
        frame = gif.convert("RGB")
        assert _distance(frame, own) < 3.0
        assert _distance(frame, own) < _distance(frame, maps[1 - index]) / 2


def test_halved_frames_are_not_enlarged() -> None:
    """Frames handed over already halved (a replay's) make a GIF at most their own size."""
    halved = render.anim.halve(tbw.render_image(views.two_seat_start()))
    gif = _open(render.animate([halved], frame_scale=0.5))
    assert gif.size == halved.size == (tbw.WIDTH // 2, tbw.HEIGHT // 2)
    with pytest.raises(ValueError, match="cannot make a GIF"):
        render.animate([halved], scale=0.5, frame_scale=0.25)

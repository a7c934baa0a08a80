"""Replay GIFs: loop forever, hold the last frame, and always fit the size limit."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from render import tinybigwars as tbw
from tests.render import views


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

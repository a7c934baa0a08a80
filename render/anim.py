"""Replay GIFs from phase images, kept under Discord's attachment limit.

Frames are downscaled and quantized; if the GIF is still too big, frames are dropped
(keeping the first and the last) and then shrunk further until it fits. Frames come as the
renderer's RGB images where it has them (no PNG to encode and decode again): halved by a 2x2
average (a quarter of a bilinear resize's CPU) and mapped onto the map's fixed palette (a
fifth of an adaptive quantize's, and the same colours in every frame). A replay halves each map
as soon as it is drawn (``halve``, then ``frame_scale=0.5``), so it never holds more than one
full-size map: holding every map of a match (5.6 MB each) cost the worker ~4,000 page faults and
~10 ms of system CPU a 6-frame replay.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

DEFAULT_MAX_BYTES = 8 * 1024 * 1024


def _encode(frames: list[Image.Image], duration_ms: int, last_ms: int) -> bytes:
    buf = io.BytesIO()
    durations = [duration_ms] * (len(frames) - 1) + [last_ms]
    frames[0].save(
        buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False, disposal=1
    )
    return buf.getvalue()


def _rgb(image: Image.Image) -> Image.Image:
    """The image itself if RGB (``convert`` would copy it), else its RGB conversion."""
    return image if image.mode == "RGB" else image.convert("RGB")


def halve(image: Image.Image) -> Image.Image:
    """An RGB image at half its size, each pixel the mean of a 2x2 block."""
    return _rgb(image).reduce(2)


def _prepare(images: list[Image.Image], scale: float, colors: int, palette: Image.Image | None) -> list[Image.Image]:
    out = []
    for im in images:
        rgb = _rgb(im)
        if scale == 0.5:
            small = halve(rgb)
        elif scale != 1:
            w, h = max(1, round(im.width * scale)), max(1, round(im.height * scale))
            small = rgb.resize((w, h), Image.Resampling.BILINEAR, reducing_gap=2.0)
        else:
            small = rgb
        if palette is not None:
            out.append(small.quantize(palette=palette, dither=Image.Dither.NONE))
        else:
            out.append(small.quantize(colors=colors, method=Image.Quantize.FASTOCTREE))
    return out


def _thin(images: list[Image.Image], keep: int) -> list[Image.Image]:
    """`keep` frames spread evenly, always including the first and the last."""
    if keep >= len(images):
        return images
    if keep <= 1:
        return [images[-1]]
    step = (len(images) - 1) / (keep - 1)
    return [images[round(i * step)] for i in range(keep)]


def animate(
    frames: Sequence[bytes | Image.Image],
    max_bytes: int = DEFAULT_MAX_BYTES,
    scale: float = 0.5,
    duration_ms: int = 900,
    last_ms: int = 4000,
    colors: int = 128,
    palette: Image.Image | None = None,
    frame_scale: float = 1.0,
) -> bytes:
    """A looping GIF of the phase images (PNG bytes or RGB images), at most `max_bytes`.

    The last frame is held for `last_ms` so the final position can be read before it loops.
    `palette` (a "P" image, the map's fixed palette) maps every frame onto the same colours;
    without it each frame is quantized to `colors` of its own. `scale` is the GIF's size against
    the maps'; `frame_scale` the frames' own (0.5: maps already halved, at most `scale` then).
    Raises ValueError if there are no frames or even one tiny frame cannot fit.
    """
    if scale > frame_scale:
        raise ValueError(f"frames at {frame_scale} of the map cannot make a GIF at {scale}")
    if not frames:
        raise ValueError("animate needs at least one frame")
    images = [f if isinstance(f, Image.Image) else Image.open(io.BytesIO(f)) for f in frames]
    for im in images:
        im.load()
    keep = len(images)
    for _ in range(40):
        chosen = _thin(images, keep)
        gif = _encode(_prepare(chosen, scale / frame_scale, colors, palette), duration_ms, last_ms)
        if len(gif) <= max_bytes:
            return gif
        ratio = max_bytes / len(gif)
        if keep > 2 and (scale <= 0.35 or ratio > 0.6):
            keep = max(2, min(keep - 1, int(keep * ratio * 0.95)))  # drop frames first while big enough
        elif scale > 0.05:
            scale *= max(0.5, min(0.9, (ratio**0.5) * 0.95))
        elif keep > 1:
            keep = 1
        else:
            break
    raise ValueError(f"cannot fit the replay into {max_bytes} bytes")

"""Replay GIFs from phase images, kept under Discord's attachment limit.

Frames are downscaled and quantized; if the GIF is still too big, frames are dropped
(keeping the first and the last) and then shrunk further until it fits.
"""

from __future__ import annotations

import io

from PIL import Image

DEFAULT_MAX_BYTES = 8 * 1024 * 1024


def _encode(frames: list[Image.Image], duration_ms: int, last_ms: int) -> bytes:
    buf = io.BytesIO()
    durations = [duration_ms] * (len(frames) - 1) + [last_ms]
    frames[0].save(
        buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False, disposal=1
    )
    return buf.getvalue()


def _prepare(images: list[Image.Image], scale: float, colors: int) -> list[Image.Image]:
    out = []
    for im in images:
        w, h = max(1, round(im.width * scale)), max(1, round(im.height * scale))
        small = im.convert("RGB").resize((w, h), Image.Resampling.BILINEAR, reducing_gap=2.0) if scale != 1 else im.convert("RGB")
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
    frames: list[bytes],
    max_bytes: int = DEFAULT_MAX_BYTES,
    scale: float = 0.5,
    duration_ms: int = 900,
    last_ms: int = 4000,
    colors: int = 128,
) -> bytes:
    """A looping GIF of the phase images (PNG bytes), guaranteed to be at most `max_bytes`.

    The last frame is held for `last_ms` so the final position can be read before it loops.
    Raises ValueError if there are no frames or even one tiny frame cannot fit.
    """
    if not frames:
        raise ValueError("animate needs at least one frame")
    images: list[Image.Image] = [Image.open(io.BytesIO(b)) for b in frames]
    for im in images:
        im.load()
    keep = len(images)
    for _ in range(40):
        chosen = _thin(images, keep)
        gif = _encode(_prepare(chosen, scale, colors), duration_ms, last_ms)
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

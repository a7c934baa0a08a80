"""Replay GIFs from phase images, kept under Discord's attachment limit.

Frames are downscaled and quantized; if the GIF is still too big, frames are dropped
(keeping the first and the last) and then shrunk further until it fits. Frames come as the
renderer's RGB images where it has them (no PNG to encode and decode again): halved by a 2x2
average (a quarter of a bilinear resize's CPU) and mapped onto the map's fixed palette (a
fifth of an adaptive quantize's, and the same colours in every frame). A replay halves each map
as soon as it is drawn (``halve``, then ``frame_scale=0.5``), so it never holds more than one
full-size map: holding every map of a match (5.6 MB each) cost the worker ~4,000 page faults and
~10 ms of system CPU a 6-frame replay.

A frame can also be made on its own, ahead of the replay (``piece``: the half map on the
palette, written as one GIF image block), and a replay joined from such pieces (``join``):
with one fixed palette every frame is a whole image behind one header, so joining is only
writing them in order. The frames are the images ``animate`` writes, whole instead of cut to
what changed since the frame before (a GIF about a fifth bigger).
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PIL import Image

from render import encode
from render.encode import Picture

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

DEFAULT_MAX_BYTES = 8 * 1024 * 1024


def _encode(frames: list[Image.Image], duration_ms: int, last_ms: int) -> bytes:
    buf = io.BytesIO()
    durations = [duration_ms] * (len(frames) - 1) + [last_ms]
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=False, disposal=1, interlace=False)  # as ``piece`` writes them
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


PALETTE_BYTES = 768
"""A piece starts with its palette (256 RGB entries): only pieces of one palette join."""
LOOP_FOREVER = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
DISPOSAL_KEEP = 1
"""The frame stays under the next one (``animate``'s ``disposal=1``)."""


def on_palette(small: Image.Image, palette: Image.Image) -> Image.Image:
    """``small`` (a halved map, RGB) mapped onto the map's ``palette`` as ``animate`` maps it."""
    return encode.mapped(_rgb(small), palette)


def half_on_palette(picture: Picture, below: int = 0) -> Image.Image:
    """``on_palette(halve(picture.image), picture.palette)``'s pixels, halving and mapping only
    the boxes the phase drew in where the picture has its layer (``render.encode.Layer``).
    ``below`` (an even row of the map): the half map's rows above ``below // 2`` may be the
    layer's instead, for a caller that pastes rows of its own there (a retitled frame)."""
    if picture.palette is None:
        raise ValueError("a picture without a fixed palette has no replay frame of its own")
    if picture.layer is None:
        return on_palette(halve(picture.image), picture.palette)
    out = picture.layer.halved.copy()
    for box in picture.layer.boxes:
        _paste_half(out, picture.image.im, (0, 0), box, picture.palette, below)
    return out


def _paste_half(half: Image.Image, pixels: ImagingCore, origin: tuple[int, int], box: encode.Box,
                palette: Image.Image, below: int) -> None:
    """The map's ``box`` from row ``below`` down, halved (without a copy of it cut out first),
    mapped and pasted on the half map ``half``; ``pixels`` (a core image, RGB: the whole map's,
    or the box cut out, ``encode.cut``'s) hold the box, their (0, 0) the map's ``origin``."""
    x0, y0, x1, y1 = box
    top = max(y0, below)
    if top >= y1:
        return
    dx, dy = origin
    small = pixels.reduce((2, 2), (x0 - dx, top - dy, x1 - dx, y1 - dy))
    half.im.paste(small.convert("P", Image.Dither.NONE, palette.im), (x0 // 2, top // 2, x1 // 2, y1 // 2))


def indices(picture: Picture, below: int = 0) -> tuple[bytes | bytearray, Image.Image]:
    """The map's PNG rows (``render.encode.png_rows``'s) and its half map (``half_on_palette``'s,
    a replay frame's, ``below`` as there), each box of the picture's layer cut out once for both
    (a crop copies the map's pixels: ~0.4 ms a map saved against making them apart)."""
    if picture.palette is None or picture.layer is None:
        return encode.png_rows(picture), half_on_palette(picture, below)
    rows, half = bytearray(picture.layer.rows), picture.layer.halved.copy()
    target = encode.writable_rows(rows, picture.image.size)
    for box in picture.layer.boxes:
        pixels = encode.cut(picture.image, box)
        encode.paste_mapped(target, pixels, box, picture.palette)
        _paste_half(half, pixels, box[:2], box, picture.palette, below)
    return rows, half


GIF_BUFFER = 1 << 17
"""Bytes Pillow's GIF encoder writes a call at most (a 600x780 half map's block: ~50 KiB)."""


def piece(frame: Image.Image) -> bytes:
    """One replay frame made ahead: ``frame`` (``on_palette``'s, a "P" image on the map's 256
    colours) as a GIF image block (descriptor and LZW data) behind its palette, written by
    Pillow's LZW encoder alone (its GIF ``save`` costs ~0.2 ms more a frame: header, palette,
    trailer). Not interlaced (``save``'s default is): rows in order compress a tenth smaller and
    ~0.13 ms faster, and the frame decodes to the same pixels (only a viewer drawing a frame
    while it loads shows it top down rather than in coarse passes)."""
    colours = bytes(frame.getpalette() or [])
    if frame.mode != "P" or len(colours) != PALETTE_BYTES:
        raise ValueError("a replay frame needs the palette's 256 colours")
    width, height = frame.size
    encoder = Image._getencoder("P", "gif", "P", (8, False))  # 8-bit codes, rows in order
    encoder.setimage(frame.im, (0, 0, width, height))
    out = [colours, struct.pack("<BHHHHBB", 0x2C, 0, 0, width, height, 0, 8)]  # at (0, 0), no palette of its own
    status = 0
    while not status:
        _, status, data = encoder.encode(GIF_BUFFER)
        out.append(data)
    if status < 0:
        raise RuntimeError(f"GIF encoder error {status}")
    out.append(b"\x00")  # the image's last (empty) sub-block
    return b"".join(out)


def join(pieces: Sequence[bytes], duration_ms: int = 900, last_ms: int = 4000) -> bytes | None:
    """The looping GIF of ``pieces`` (``piece``'s), each shown ``duration_ms`` and the last
    ``last_ms``, as ``animate`` times them (a frame the same as the one before lengthens it).
    None when they do not share one palette and one size, or there is only one frame."""
    if not pieces:
        return None
    palette = pieces[0][:PALETTE_BYTES]
    size = pieces[0][PALETTE_BYTES + 5:PALETTE_BYTES + 9]
    durations: list[int] = []
    images: list[bytes] = []
    for index, block in enumerate(pieces):
        if block[:PALETTE_BYTES] != palette or block[PALETTE_BYTES + 5:PALETTE_BYTES + 9] != size:
            return None
        duration = last_ms if index == len(pieces) - 1 else duration_ms
        image = block[PALETTE_BYTES:]
        if images and images[-1] == image:
            durations[-1] += duration
        else:
            durations.append(duration)
            images.append(image)
    if len(images) < 2:
        return None
    width, height = struct.unpack("<HH", size)
    out = [b"GIF89a", struct.pack("<HHBBB", width, height, 0x87, 0, 0), palette, LOOP_FOREVER]
    for duration, image in zip(durations, images, strict=True):
        out.append(struct.pack("<BBBBHBB", 0x21, 0xF9, 4, DISPOSAL_KEEP << 2, int(duration / 10), 0, 0))
        out.append(image)
    out.append(b"\x3b")
    return b"".join(out)

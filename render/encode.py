"""PNG encoding with a palette fixed per map.

Adaptive quantization of a 1200×900 frame costs ~15 ms; mapping onto a palette built once
per map costs ~2 ms, and the result is deterministic (it depends on the map only, never on
which frames were drawn before). The palette is the static layer's own colours plus blends
of every drawing colour with the usual backgrounds, so antialiased edges find a close match.

The PNG itself is written here, its pixels deflated by ISA-L (the ``isal`` package) rather than
by Pillow's zlib: a 1200×1560 map's deflate took 5-6 ms at zlib's level 3 and takes ~1 ms at
ISA-L's level 1, for a file about a tenth bigger (105 -> 116 KiB). The pixels are the same
palette indices Pillow would write: each row is filtered with PNG's "None" filter (Pillow's own
choice for palette images) and the palette is written whole.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from isal import isal_zlib
from PIL import Image

from render import palette

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

RGB = tuple[int, int, int]


Box = tuple[int, int, int, int]


class Layer(NamedTuple):
    """The layer a map was drawn on, already on the map's palette (as a PNG's rows, and halved),
    and the boxes the phase drew in (even edges, within the image): outside them the map's
    pixels are the layer's. Mapping a pixel onto a fixed palette depends on its colour alone, so
    mapping only the boxes and pasting them on the mapped layer gives the indices mapping the
    whole map would (the same for a half map: a 2x2 mean of a block within an even box is the
    block's). ``rows``: the layer's PNG rows (``rows_of``'s bytes): a post's are a copy of them
    with its boxes pasted in, not the map's indices pasted whole into new rows."""

    rows: bytes
    halved: Image.Image
    boxes: tuple[Box, ...]


class Picture(NamedTuple):
    """A public map before encoding: the RGB image and its map's fixed palette (None: adaptive).
    A map post encodes it as PNG; a replay halves and maps it straight onto the palette.
    ``layer``: where the renderer knows what of the map is its static layer (``Layer``)."""

    image: Image.Image
    palette: Image.Image | None
    layer: Layer | None = None


BLEND_STEPS = (0.2, 0.4, 0.6, 0.8)


def drawing_colours() -> list[RGB]:
    """Every colour the renderers draw with, besides the static layer."""
    seat = list(palette.SEAT_COLOURS)
    tints = [palette.tint(c, 0.6, palette.PLATE) for c in seat] + [palette.tint(palette.COMBAT, a) for a in (0.25, 0.5, 0.75)]
    fixed = [
        palette.NEUTRAL, palette.BACKGROUND, palette.BACKGROUND_EDGE, palette.PANEL, palette.PANEL_EDGE, palette.PLATE,
        palette.PLATE_EDGE, palette.TEXT, palette.TEXT_DIM, palette.OUTLINE, palette.COIN, palette.INFLUENCE,
        palette.HEALTH, palette.ENERGY, palette.EMPTY_PIP, palette.ALERT, palette.COMBAT, palette.ROAD,
        (70, 30, 36), (255, 150, 80), (200, 60, 60), (240, 230, 210), (90, 60, 40), (60, 160, 220), (250, 250, 250),
        (150, 90, 60), (170, 150, 120), (250, 250, 245), (150, 150, 158),
    ]
    return seat + tints + fixed


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def fixed_palette(base: Image.Image, colours: Iterable[RGB], base_colours: int = 64) -> Image.Image:
    """A "P" image whose palette holds `colours` exactly, `base`'s colours and their blends."""
    exact = list(dict.fromkeys(colours))[:128]
    grounds = [palette.OUTLINE, palette.BACKGROUND_EDGE, palette.PLATE, palette.PANEL, palette.TEXT]
    swatches = [_mix(c, g, t) for c in exact for g in grounds for t in BLEND_STEPS]
    probe = Image.new("RGB", (len(swatches), 1))
    probe.putdata(swatches)
    n_blends = 256 - len(exact) - base_colours
    blends = probe.quantize(n_blends, method=Image.Quantize.FASTOCTREE)
    own = base.convert("RGB").quantize(base_colours, method=Image.Quantize.FASTOCTREE)
    entries = [v for c in exact for v in c]
    entries += (own.getpalette() or [])[: 3 * base_colours] + (blends.getpalette() or [])[: 3 * n_blends]
    entries += [0] * (768 - len(entries))
    pal = Image.new("P", (1, 1))
    pal.putpalette(entries[:768])
    return pal


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
COMPRESS_LEVEL = 1
"""ISA-L's level (0-3): 1 and 2 give the same size on these maps, 3 costs four times the CPU
for no smaller file, 0 is a fifth bigger."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def rows_of(indexed: Image.Image) -> bytes:
    """A "P" image's PNG rows, as deflated into its IDAT: each row its filter byte, 0 ("None",
    Pillow's own choice for palette images), then its indices."""
    width, height = indexed.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(indexed, (1, 0))
    return raw_bytes(rows)


def raw_bytes(image: Image.Image) -> bytes:
    """``image.tobytes()`` of a "P" or "L" image (a byte a pixel), in one piece: Pillow's
    ``tobytes`` packs it 64 KiB at a time and joins the pieces (a second copy of a 1.9 MB map)."""
    if image.mode not in ("P", "L"):
        raise ValueError(f"raw_bytes packs 'P' or 'L' images, not {image.mode!r}")
    width, height = image.size
    if not width or not height:
        return b""
    encoder = Image._getencoder(image.mode, "raw", image.mode)
    encoder.setimage(image.im, (0, 0, width, height))
    _, status, data = encoder.encode(width * height)
    if status != 1:
        raise RuntimeError(f"encoder error {status} packing the image")
    return data


def writable_rows(rows: bytearray, size: tuple[int, int]) -> Image.Image:
    """An image of a map's PNG rows (``size``: the map's) whose pixels are ``rows`` itself:
    ``Image.frombuffer`` shares a buffer's memory, and pasting on the image's core (not on the
    image, which would copy it first: it calls such images read-only) writes into ``rows``. So
    a post's rows are deflated from the very bytes its boxes were pasted in, not from a copy of
    the whole map read back out of an image (``tobytes``: ~0.15 ms a post)."""
    width, height = size
    if len(rows) != (width + 1) * height or not height or rows[0] != 0:
        raise ValueError(f"{len(rows)} bytes are not the rows of a {width}x{height} map")
    image = Image.frombuffer("P", (width + 1, height), rows, "raw", "P", 0, 1)
    image.im.putpixel((0, 0), 1)  # the first row's filter byte, written through the image
    shared, rows[0] = rows[0] == 1, 0
    if not shared:  # a Pillow that copies the buffer would leave the boxes out of the rows
        raise RuntimeError("Image.frombuffer did not share the rows' memory")
    return image


def rows_png(rows: bytes | bytearray, size: tuple[int, int], entries: bytes,
             compress_level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes of a map of ``size`` from its rows (``rows_of``'s) and RGB palette ``entries``."""
    width, height = size
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indices, deflate, no interlace
    pixels = isal_zlib.compress(rows, compress_level)
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", entries[:768]),
                     struct.pack(">I", len(pixels)), b"IDAT", pixels,
                     struct.pack(">I", isal_zlib.crc32(pixels, isal_zlib.crc32(b"IDAT"))), _chunk(b"IEND", b"")))


def indexed_png(indexed: Image.Image, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes of a "P" image with an RGB palette of at most 256 entries."""
    if indexed.mode != "P":
        raise ValueError(f"indexed_png needs a 'P' image, not {indexed.mode!r}")
    return rows_png(rows_of(indexed), indexed.size, bytes(indexed.getpalette() or [0, 0, 0]), compress_level)


def png(img: Image.Image, pal: Image.Image | None = None, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes of an RGB image, mapped onto `pal` (or adaptively quantized without one)."""
    if pal is not None:
        q = img.quantize(palette=pal, dither=Image.Dither.NONE)
    else:
        q = img.quantize(128, method=Image.Quantize.FASTOCTREE)
    return indexed_png(q, compress_level)


def mapped(image: Image.Image, pal: Image.Image) -> Image.Image:
    """``image`` (RGB) mapped onto the fixed palette ``pal``: each pixel its nearest entry."""
    return image.quantize(palette=pal, dither=Image.Dither.NONE)


def png_rows(picture: Picture) -> bytes | bytearray:
    """The PNG rows (``rows_of``'s) of the picture's map on its fixed palette: where the picture
    has its layer, a copy of the layer's rows with only the boxes the phase drew in mapped."""
    if picture.palette is None:
        raise ValueError("a picture without a fixed palette has no indices of its own")
    if picture.layer is None:
        return rows_of(mapped(picture.image, picture.palette))
    rows = bytearray(picture.layer.rows)
    target = writable_rows(rows, picture.image.size)
    for box in picture.layer.boxes:
        paste_mapped(target, cut(picture.image, box), box, picture.palette)
    return rows


def cut(image: Image.Image, box: Box) -> ImagingCore:
    """``image.crop(box)``'s pixels as Pillow's core image: a phase post works on some 15 boxes
    of its map, and ``crop``, ``quantize``, ``reduce`` and ``paste`` each wrap their core
    operation in 2-5 us of Python (checks, a new ``Image``, a palette copied): ~0.2 ms a post."""
    return image.im.crop(box)


def paste_mapped(rows: Image.Image, box_pixels: ImagingCore, box: Box, pal: Image.Image) -> None:
    """``box_pixels`` (RGB, the map's ``box`` cut out: ``cut``'s) mapped onto the fixed palette
    ``pal`` as ``mapped`` maps them, pasted on the map's PNG rows ``rows`` (``writable_rows``')."""
    x0, y0, x1, y1 = box
    rows.im.paste(box_pixels.convert("P", Image.Dither.NONE, pal.im), (x0 + 1, y0, x1 + 1, y1))


def palette_entries(pal: Image.Image) -> bytes:
    """A fixed palette's RGB entries, as a PNG's PLTE holds them."""
    return bytes(pal.getpalette() or [0, 0, 0])


def picture_png(picture: Picture, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes of a public map: ``png``'s of its image and palette (the same bytes)."""
    if picture.palette is None:
        return png(picture.image, None, compress_level)
    return rows_png(png_rows(picture), picture.image.size, palette_entries(picture.palette), compress_level)


def layer(image: Image.Image, pal: Image.Image, boxes: tuple[Box, ...]) -> Layer:
    """A static layer's ``Layer``: ``image`` mapped onto ``pal`` whole and halved (a 2x2 mean),
    with the boxes a phase draws in (each widened to even edges and cut to the image)."""
    width, height = image.size
    if width % 2 or height % 2:
        raise ValueError("a layer halves only at even sizes")
    even = tuple(_even(box, width, height) for box in boxes)
    return Layer(rows_of(mapped(image, pal)), mapped(image.reduce(2), pal),
                 tuple(box for box in even if box[0] < box[2] and box[1] < box[3]))


def with_boxes(found: Layer, image: Image.Image, boxes: tuple[Box, ...]) -> Layer:
    """The same mapped layer with a phase's own boxes (even edges, cut to ``image``)."""
    width, height = image.size
    even = (_even(box, width, height) for box in boxes)
    return found._replace(boxes=tuple(box for box in even if box[0] < box[2] and box[1] < box[3]))


def _even(box: Box, width: int, height: int) -> Box:
    x0, y0, x1, y1 = box
    return (max(0, x0 - x0 % 2), max(0, y0 - y0 % 2), min(width, x1 + x1 % 2), min(height, y1 + y1 % 2))

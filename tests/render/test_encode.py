"""The PNG writer (render/encode.py): every map and panel decodes to the very pixels Pillow's own
PNG encoder would have stored, through Pillow and through a decoder of its own here."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

import pytest
from PIL import Image

import render
from render import defenders as ted
from render import encode
from render import samurai as sam
from render import tinybigwars as tbw
from render.tinybigwars import private as tbw_private
from tests.render import defenders_views, samurai_views, views


def _pillow_png(indexed: Image.Image) -> bytes:
    """What the map posts were before: Pillow's PNG at zlib's level 3."""
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks in order, each CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        at += 12 + length
    return chunks


def _decode(data: bytes) -> tuple[tuple[int, int], bytes, bytes]:
    """Size, palette and palette indices of an 8-bit indexed PNG, unfiltered by hand (filter 0 only)."""
    chunks = _chunks(data)
    assert [kind for kind, _ in chunks][0] == b"IHDR" and chunks[-1] == (b"IEND", b"")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, colour, interlace) == (8, 3, 0)
    palette = b"".join(body for kind, body in chunks if kind == b"PLTE")
    rows = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    assert len(rows) == (width + 1) * height
    assert {rows[y * (width + 1)] for y in range(height)} == {0}
    pixels = b"".join(rows[y * (width + 1) + 1:(y + 1) * (width + 1)] for y in range(height))
    return (width, height), palette, pixels


MAPS: list[tuple[str, Any, Any]] = [
    ("tinybigwars", tbw, lambda: (views.four_seat_combat(), views.NAMES_4)),
    ("samurai", sam, lambda: (samurai_views.public("lwtv4_war"), samurai_views.names("lwtv4_war"))),
    ("defenders", ted, lambda: (defenders_views.mid_battle(), defenders_views.names(defenders_views.mid_battle()))),
]


@pytest.mark.parametrize("game, module, view", MAPS, ids=[game for game, _, _ in MAPS])
def test_a_map_post_holds_the_pixels_pillow_would_write(game: str, module: Any, view: Any) -> None:
    public, names = view()
    picture = module.picture(public, names)
    indexed = picture.image.quantize(palette=picture.palette, dither=Image.Dither.NONE)
    ours, pillows = render.draw(game, public, names), _pillow_png(indexed)
    mine, theirs = Image.open(io.BytesIO(ours)), Image.open(io.BytesIO(pillows))
    assert mine.mode == "P" and mine.size == theirs.size
    assert mine.tobytes() == theirs.tobytes()
    assert mine.convert("RGB").tobytes() == theirs.convert("RGB").tobytes()
    size, palette, pixels = _decode(ours)
    assert size == indexed.size and pixels == indexed.tobytes()
    assert palette == bytes(indexed.getpalette() or [])
    assert len(ours) < 1.15 * len(pillows)  # ISA-L's level 1: a tenth bigger at most


def test_an_adaptive_palette_and_a_private_panel() -> None:
    """Without a fixed palette (128 colours of its own) and a seat's panel: the same pixels."""
    image = tbw.render_image(views.three_seat_mid(), views.NAMES_4[:3])
    indexed = image.quantize(128, method=Image.Quantize.FASTOCTREE)
    ours = encode.png(image)
    assert Image.open(io.BytesIO(ours)).convert("RGB").tobytes() == indexed.convert("RGB").tobytes()
    assert _decode(ours)[1] == bytes(indexed.getpalette() or [])
    seat = views.seat_view(views.four_seat_combat(), 3, {"energy_spend": 2, "use": "add hits"})
    panel = tbw.render_private_image(seat, views.NAMES_4)
    mapped = panel.quantize(palette=tbw_private._private_palette(), dither=Image.Dither.NONE)
    drawn = Image.open(io.BytesIO(render.draw_private("tinybigwars", seat, views.NAMES_4)))
    assert drawn.convert("RGB").tobytes() == mapped.convert("RGB").tobytes()


def test_only_indexed_images_are_written() -> None:
    with pytest.raises(ValueError, match="'P' image"):
        encode.indexed_png(Image.new("RGB", (4, 4)))

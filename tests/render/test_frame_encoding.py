"""A phase post's encoding: its PNG from the layer's PNG rows with the phase's boxes pasted in, and
its replay frame written by Pillow's GIF encoder alone, rows in order (not interlaced, as
Pillow's ``save`` wrote them before). A viewer must see the very pixels of before: every frame of
a replay joined from the posts' frames decodes to its half map on the map's palette, the same as
a replay drawn from scratch and as the interlaced frames made before (which a frames directory
may still hold, and which join with the new ones)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

import render
from bot.service.history import public_frames
from bot.simulate import simulate
from render import anim, encode
from render import tinybigwars as tbw
from tests.render import views as fixtures

GAME = "tinybigwars"


def _played(seats: int, seed: int) -> tuple[list[dict[str, Any]], list[str]]:
    options = {"round_limit": 2}
    log = simulate(GAME, seats, seed, options=options)["log"]
    return public_frames(GAME, seats, options, seed, log), [f"Seat {seat} of {seed}" for seat in range(seats)]


def _decoded(gif: bytes) -> list[bytes]:
    """Every frame of a GIF as a viewer sees it (RGB, after the frames before it)."""
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    frames = []
    for index in range(image.n_frames):
        image.seek(index)
        frames.append(image.convert("RGB").tobytes())
    return frames


def _half_map(view: dict[str, Any], names: list[str]) -> Image.Image:
    """The view's map halved and mapped whole (no boxes): the frame a replay shows of it."""
    picture = tbw.picture(view, names)
    assert picture.palette is not None
    return anim.on_palette(anim.halve(picture.image), picture.palette)


def _interlaced_piece(frame: Image.Image) -> bytes:
    """A frame as ``anim.piece`` made it before: Pillow's GIF ``save`` (interlaced), cut out."""
    buffer = io.BytesIO()
    frame.save(buffer, format="GIF", optimize=False)
    data = buffer.getvalue()
    at = 13 + anim.PALETTE_BYTES
    assert data[at] == 0x2C and data[at + 9] & 0x40  # the image descriptor, interlaced
    return data[13:at] + data[at:-1]


@pytest.mark.parametrize("seats, seed", [(2, 61), (3, 62), (4, 63)])
def test_a_joined_replay_shows_each_half_map_as_before(seats: int, seed: int) -> None:
    """The frames the posts made (each post titled with the phase it closes, its frame with the
    phase after it), joined: frame by frame the half maps' pixels, the frames of a replay drawn
    from scratch, and the frames the interlaced pieces of before joined into."""
    views, names = _played(seats, seed)
    pieces = []
    for before, view in zip(views, views[1:], strict=False):
        post = {**view, "phase_label": before.get("phase_label")}
        if post == view:
            post["phase_label"] = f"{view.get('phase_label')} ends"
        png, piece = render.draw_and_frame(GAME, post, names, view)
        assert piece is not None
        assert png == encode.png(tbw.picture(post, names).image, tbw.static_layer(post).palette)
        pieces.append(piece)
    shown = views[1:]
    halves = [_half_map(view, names) for view in shown]
    joined = anim.join(pieces)
    assert joined is not None
    expected = [half.convert("RGB").tobytes() for half in halves]
    assert _decoded(joined) == expected
    scratch = render.replay(GAME, shown, names)
    assert _decoded(scratch) == expected
    before = anim.join([_interlaced_piece(half) for half in halves])
    assert before is not None and _decoded(before) == expected
    assert len(joined) < 0.95 * len(before)  # rows in order compress smaller


def test_a_piece_is_pillows_own_frame_rows_in_order() -> None:
    """``piece`` writes the bytes Pillow's GIF ``save`` writes for the frame without interlacing:
    the palette, the image descriptor at (0, 0), the 8-bit LZW data."""
    frame = _half_map(fixtures.four_seat_combat(), fixtures.NAMES_4)
    buffer = io.BytesIO()
    frame.save(buffer, format="GIF", optimize=False, interlace=False)
    data = buffer.getvalue()
    assert anim.piece(frame) == data[13:-1]
    with pytest.raises(ValueError, match="256 colours"):
        anim.piece(frame.convert("RGB"))


def test_old_and_new_pieces_join_into_one_replay() -> None:
    """A frames directory kept across the change holds interlaced pieces: joined with new ones,
    each frame still shows its own map."""
    views, names = _played(2, 64)
    halves = [_half_map(view, names) for view in views[-3:]]
    mixed = [_interlaced_piece(halves[0]), anim.piece(halves[1]), _interlaced_piece(halves[2])]
    joined = anim.join(mixed)
    assert joined is not None
    assert _decoded(joined) == [half.convert("RGB").tobytes() for half in halves]


def test_a_posts_png_rows_are_the_layers_with_its_boxes() -> None:
    """The PNG rows start each row with filter byte 0 and hold the whole map's indices, written
    into a copy of the layer's rows (its mapped background: the map's names lie within the
    boxes), which stay as they were."""
    view, names = fixtures.three_seat_mid(), fixtures.NAMES_4[:3]
    picture = tbw.picture(view, names)
    assert picture.layer is not None and picture.palette is not None
    width, height = picture.image.size
    whole = picture.image.quantize(palette=picture.palette, dither=Image.Dither.NONE).tobytes()
    layer = tbw.static_layer(view).background.quantize(palette=picture.palette, dither=Image.Dither.NONE).tobytes()
    kept = bytes(picture.layer.rows)
    for rows in (encode.png_rows(picture), anim.indices(picture)[0], anim.indices(picture, tbw.TITLE_ROWS)[0]):
        assert len(rows) == (width + 1) * height
        assert rows[::width + 1] == bytes(height)
        assert b"".join(rows[y * (width + 1) + 1:(y + 1) * (width + 1)] for y in range(height)) == whole
    assert picture.layer.rows == kept
    assert b"".join(kept[y * (width + 1) + 1:(y + 1) * (width + 1)] for y in range(height)) == layer
    with pytest.raises(ValueError, match="not the rows"):
        encode.writable_rows(bytearray(kept[:-1]), (width, height))


def test_raw_bytes_are_pillows_in_one_piece() -> None:
    image = Image.linear_gradient("L").resize((301, 97))
    assert encode.raw_bytes(image) == image.tobytes()
    indexed = image.convert("P")
    assert encode.raw_bytes(indexed) == indexed.tobytes()
    assert encode.raw_bytes(Image.new("P", (0, 5))) == b""
    with pytest.raises(ValueError, match="'P' or 'L'"):
        encode.raw_bytes(Image.new("RGB", (4, 4)))


def test_rows_not_shared_by_pillow_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pillow whose ``frombuffer`` copied the buffer would leave every box out of the posts'
    PNGs (the layer alone): that is an error, not a map."""
    rows = bytearray(encode.rows_of(Image.new("P", (6, 4), 3)))
    assert encode.writable_rows(rows, (6, 4)).size == (7, 4) and rows[0] == 0

    def copying(mode: str, size: tuple[int, int], data: bytes, *args: Any) -> Image.Image:
        return Image.frombytes(mode, size, bytes(data), *args)

    monkeypatch.setattr(Image, "frombuffer", copying)
    with pytest.raises(RuntimeError, match="did not share"):
        encode.writable_rows(rows, (6, 4))
    assert rows == encode.rows_of(Image.new("P", (6, 4), 3))

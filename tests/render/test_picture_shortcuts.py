"""The picture's shortcuts (session 26, picture2) give the pixels and widths Pillow gives.

A seat token's number is drawn from a kept mask (``tokens.number``) instead of ``ImageDraw.text``
laying it out and rendering it on every card and banner; it is compared here with Pillow's own on
every seat, token size and sub-pixel position the maps and panels use, and more.
"""

from __future__ import annotations

import itertools

from PIL import Image, ImageChops, ImageDraw

from render import fonts, palette, text, tokens


def _pillow_token(seat: int, cx: float, cy: float, r: float) -> Image.Image:
    """The token as seat_token drew it before: its shape, then ImageDraw.text's number."""
    image = Image.new("RGB", (90, 90), palette.PLATE)
    draw = ImageDraw.Draw(image)
    colour = palette.seat_colour(seat)
    tokens.draw_shape(draw, palette.seat_shape(seat), cx, cy, r, colour, palette.OUTLINE, 2)
    font = fonts.font(max(fonts.MIN_FONT_PX, round(r * 1.3)), bold=True)
    dy = r * 0.12 if palette.seat_shape(seat) == "triangle" else 0
    draw.text((cx, cy + dy), str(seat + 1), font=font, fill=palette.text_on(colour), anchor="mm")
    return image


def _token(seat: int, cx: float, cy: float, r: float) -> Image.Image:
    image = Image.new("RGB", (90, 90), palette.PLATE)
    tokens.seat_token(ImageDraw.Draw(image), seat, cx, cy, r)
    return image


def test_seat_numbers_are_pillows_pixels() -> None:
    """Every seat's token at every radius drawn, at whole and fractional centres (twice: the
    second time from the kept masks), is the image ImageDraw.text gave."""
    positions = [(45, 45), (44.5, 45.25), (45.75, 44.1), (45.3, 45.9)]
    for _ in range(2):
        for seat, r, (cx, cy) in itertools.product(range(8), (9, 12, 15, 16, 18, 21.5, 24), positions):
            ours, theirs = _token(seat, cx, cy, r), _pillow_token(seat, cx, cy, r)
            assert ImageChops.difference(ours, theirs).getbbox() is None, (seat, r, cx, cy)


def test_small_tokens_have_no_number() -> None:
    """Under radius 9 a token is its shape alone, as before."""
    image = Image.new("RGB", (40, 40), palette.PLATE)
    draw = ImageDraw.Draw(image)
    tokens.seat_token(draw, 0, 20, 20, 8)
    bare = Image.new("RGB", (40, 40), palette.PLATE)
    tokens.draw_shape(ImageDraw.Draw(bare), palette.seat_shape(0), 20, 20, 8, palette.seat_colour(0), palette.OUTLINE, 2)
    assert ImageChops.difference(image, bare).getbbox() is None


def test_a_sprite_pasted_on_the_cores_is_image_paste() -> None:
    """``text.paste_sprite`` (labels, plate rings and borders) gives ``Image.paste``'s pixels on
    RGB and RGBA maps, at every edge and past them (clipped), and on any other mode it is
    ``Image.paste`` itself; it returns the sprite's box either way."""
    sprite = text._make_sprite("Ember 3/5", 20, True, palette.TEXT, 2, "la")[0]
    for mode in ("RGB", "RGBA", "P"):
        for x, y in ((0, 0), (17, 9), (-11, -5), (150, 70), (190, 95)):
            ours = Image.new(mode, (200, 100), 7 if mode == "P" else (40, 90, 120, 200)[:len(mode)])
            pillows = ours.copy()
            assert text.paste_sprite(ours, sprite, x, y) == (x, y, x + sprite.width, y + sprite.height)
            pillows.paste(sprite, (x, y), sprite)
            assert ours.tobytes() == pillows.tobytes(), (mode, x, y)

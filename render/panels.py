"""Panel pieces every game draws the same way: the caption's idle line, a legend card's end
status, the events panel, the end banner's text and a private panel's title row and footer.

Each game keeps its own layout (where the box sits, its size, its words); what is shared is
the drawing, so a fix to how a banner or a caption reads reaches all three games at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.text import fill
from render import fonts, legend, palette, text, tokens

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]


def latest_or_idle(draw: ImageDraw.ImageDraw, cy: int, lines: Sequence[str], idle: str) -> str:
    """The caption's star and line when nothing more urgent is on: the newest line, else `idle`."""
    if lines:
        tokens.star(draw, 24, cy, 12, fill=palette.ALERT)
        return "Latest: " + lines[-1]
    tokens.star(draw, 24, cy, 12, fill=palette.TEXT_DIM)
    return idle


def caption_line(img: Image.Image, xy: tuple[int, int], line: str, width: int) -> None:
    """One bold caption line, cleaned for the font and cut to `width` px."""
    line = fonts.sanitize(line, True)
    text.stamp(img, xy, text.ellipsize(line, fonts.font_for(line, 22, True), width), 22, bold=True, stroke=0,
               anchor="lm")


def end_status(seat: int, eliminated: bool, winners: Sequence[int] | None) -> tuple[str, RGB] | None:
    """A legend card's status once it no longer depends on the phase: out, winner, or blank at the end."""
    if eliminated:
        return "out", palette.COMBAT
    if winners is not None:
        return ("winner", palette.ALERT) if seat in winners else ("", palette.TEXT_DIM)
    return None


def newest_lines(img: Image.Image, events: Sequence[str], xy: tuple[int, int], width: int, bottom: int, px: int,
                 line_h: int) -> None:
    """The newest events, each wrapped to at most two lines of `width` px, as many as fit above `bottom`."""
    x, y = xy
    font = fonts.font(px)
    lines: list[str] = []
    for event in events:
        lines += text.wrap(fonts.sanitize(event), font, width, 2)
    room = (bottom - y) // line_h
    for line in lines[-room:] if room > 0 else []:
        text.stamp(img, (x, y), line, px, stroke=0)
        y += line_h


def events_frame(img: Image.Image, box: Box) -> None:
    """The events panel's empty frame (the Tiny Big Wars layer holds it drawn by this)."""
    ImageDraw.Draw(img).rounded_rectangle(box, radius=8, fill=palette.BACKGROUND_EDGE, outline=palette.PANEL_EDGE)


def events_box(img: Image.Image, box: Box, waiting: Sequence[int], events: Sequence[str], names: list[str] | None,
               px: int, line_h: int) -> None:
    """The events panel: who is awaited, then the latest public events (names filled in), as many as fit."""
    x0, y0, x1, y1 = box
    events_frame(img, box)
    y = y0 + 8
    if waiting:
        who = ", ".join(fonts.sanitize(legend.name_for(names, seat)) for seat in waiting)
        line = text.ellipsize(f"Waiting for: {who}", fonts.font(px, True), x1 - x0 - 20)
        text.stamp(img, (x0 + 10, y), line, px, bold=True, fill=palette.ALERT, stroke=0)
        y += line_h + 2
    text.stamp(img, (x0 + 10, y), "Latest", px, bold=True, fill=palette.TEXT_DIM, stroke=0)
    y += line_h
    filled = [fill(event, names) for event in events if event]
    newest_lines(img, filled, (x0 + 14, y), x1 - x0 - 24, y1 - 6, px, line_h)


@dataclass(frozen=True)
class BannerStyle:
    """How one game words and spaces its end banner."""

    verb: str  # "wins!", "rules Japan!"
    fit_margin: int  # headline width is the band's width less this
    sizes: tuple[int, ...]  # headline font sizes, largest first
    headline_dy: int  # headline centre above the band's middle
    reason_dy: int  # reason centre below the band's middle
    token_gap: int  # the first winner token's distance left of the headline
    token_step: int
    token_r: int


def banner_text(img: Image.Image, band: Box, style: BannerStyle, winners: Sequence[int], is_draw: bool,
                reason: str, names: list[str] | None) -> None:
    """The headline (who won, in the winner's colour), the winners' tokens and the reason, over `band`."""
    draw = ImageDraw.Draw(img)
    cy = (band[1] + band[3]) // 2
    if is_draw or not winners:
        headline, colour = "Draw", palette.TEXT
    else:
        who = " & ".join(legend.name_for(names, seat) for seat in winners)
        verb = style.verb if len(winners) == 1 else "share the win!"
        headline, colour = f"{who} {verb}", palette.seat_colour(winners[0])
    mid = (band[0] + band[2]) // 2
    headline, font = text.fit(headline, band[2] - band[0] - style.fit_margin, style.sizes, bold=True)
    bbox = text.outlined(draw, (mid, cy - style.headline_dy), headline, font, fill=colour, stroke=3, anchor="mm")
    for k, seat in enumerate(winners[:3]):
        tokens.seat_token(draw, seat, bbox[0] - style.token_gap - k * style.token_step, cy - style.headline_dy,
                          style.token_r)
    said = fonts.sanitize(fill(reason, names))
    if said:
        line = text.ellipsize(said, fonts.font(22), band[2] - band[0] - 40)
        text.outlined(draw, (mid, cy + style.reason_dy), line, fonts.font(22), fill=palette.TEXT, anchor="mm")


def private_title(img: Image.Image, title: str, width: float) -> None:
    """A private panel's title beside the seat token, shrunk or cut to `width` px."""
    title, title_px = text.fitted(title, width, (22, 20, 18), bold=True)
    text.stamp(img, (52, 26), title, title_px, bold=True, anchor="lm")


def private_corner(img: Image.Image, width: int, label: str) -> float:
    """The figure at the right end of a private panel's title row; returns its width in px."""
    text.stamp(img, (width - 14, 26), label, 22, bold=True, anchor="rm")
    return fonts.font(22, True).getlength(label)


def private_footer(img: Image.Image, label: str, waiting: bool) -> None:
    """A private panel's bottom bar: the phase, and whether this seat's choice is awaited."""
    w, h = img.size
    footer = fonts.sanitize(label) + (" - waiting for your choice" if waiting else "")
    ImageDraw.Draw(img).rectangle((0, h - 40, w, h), fill=palette.BACKGROUND_EDGE)
    text.stamp(img, (16, h - 20), text.ellipsize(footer, fonts.font(18, True), w - 32), 18, bold=True, anchor="lm")

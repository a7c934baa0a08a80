"""What a match page shows, as JSON for its script and PNGs for its map: the public table for
everyone, and a seat's own view added on its private page.

The public state is built only from the status (who owes a choice, the deadline), the public
log and the frames of public views (timeline.py); the maps are `render.draw` of those views,
the very drawing the channel's phase posts carry. Only a seat page, opened with a valid seat
link, reads that seat's view.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import render
from bot.service import MatchService, drawing
from bot.service.types import MatchInfo, SeatInfo, Status
from bot.service.web_links import SeatPass
from bot.web.timeline import Frame, Timelines
from engine.text import fill

LOG_LINES = 40
PNG_CACHE = 48
"""Map images kept (about 150 KB each): the newest frames of the pages open, drawn once for every viewer."""


@dataclass(frozen=True)
class SeatLine:
    name: str
    state: str


@dataclass(frozen=True)
class FrameInfo:
    label: str
    step: int
    map: str
    """The PNG's path (with the step, so a browser caches a frame until an undo redraws it)."""
    alt: str


@dataclass(frozen=True)
class SeatPage:
    """The seat's own view on its private page: its panel and the same in words."""

    seat: int
    name: str
    panel: str
    alt: str
    facts: list[str]


@dataclass(frozen=True)
class TableState:
    """Everything a match page shows at one moment (the script's JSON)."""

    match: int
    title: str
    game: str
    status: str
    phase: str
    version: int
    deadline: str | None
    waiting: list[str]
    may_act: list[str]
    seats: list[SeatLine]
    log: list[str]
    frames: list[FrameInfo]
    seat: SeatPage | None = None
    notes: list[str] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        return asdict(self)


def seat_line(seat: SeatInfo, status: Status) -> SeatLine:
    """A seat and what the table waits for from it, in the status board's words."""
    open_match = status.match.status in ("active", "paused")
    if seat.ai_policy is not None:
        state = "played by the AI"
    elif seat.away_until is not None and open_match:
        state = "away"
    elif seat.ai_takeover:
        state = "the AI plays for now"
    elif not open_match:
        state = "played"
    elif any(owing.seat == seat.seat for owing in status.waiting):
        state = "to choose"
    elif any(optional.seat == seat.seat for optional in status.may_act):
        state = "may act"
    else:
        state = "has chosen"
    return SeatLine(seat.name, state)


def map_alt(title: str, frame: Frame, names: list[str]) -> str:
    """The map in words for a screen reader: the game, the phase and what just happened."""
    recent = " ".join(fill(line, names) for line in frame.latest)
    alt = f"Map of {title}, {frame.label or 'the start'}."
    return f"{alt} Latest: {recent}" if recent else alt


def facts(block: Any, prefix: str = "") -> list[str]:
    """A seat's ``you`` block as lines of words ("force heroes: lamp, goldhand"): each field, the
    spelled-out names where the view has them beside the keys ("minion_card_names")."""
    if isinstance(block, dict):
        found: list[str] = []
        for key, value in block.items():
            if key == "seat" or key.removesuffix("s") + "_names" in block:
                continue  # the same cards by their names follow
            label = key.removesuffix("_names") + ("s" if key.endswith("_names") else "")
            found += facts(value, f"{prefix} {label.replace('_', ' ')}".strip())
        return found
    if isinstance(block, list):
        if all(not isinstance(item, dict | list) for item in block):
            return [f"{prefix}: {', '.join(str(item) for item in block) or 'none'}"]
        return [line for number, item in enumerate(block, 1) for line in facts(item, f"{prefix} {number}")]
    return [f"{prefix}: {'none' if block is None else block}"]


class Tables:
    """Builds the pages' states and draws their maps, caching what every viewer shares."""

    def __init__(self, service: MatchService, handle: Callable[[int], str] = str) -> None:
        self.service = service
        self.handle = handle
        """Match id -> its name in the pages' addresses (WebLinks.handle)."""
        self.timelines = Timelines(service.store)
        self.pngs: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()
        self.names: dict[int, list[str]] = {}
        """Match -> its seats' names as its state last showed them (the maps name the players)."""

    async def state(self, match_id: int, seat_pass: SeatPass | None = None) -> TableState:
        """The page's state now (LookupError: no such match; a lobby has no frames yet)."""
        status = await self.service.status_of(match_id)
        info = status.match
        frames: list[Frame] = []
        if info.status != "lobby":
            _match, frames = await self.timelines.frames(match_id)
        names = self.names[match_id] = info.names()
        log = await self.service.log_of(match_id, LOG_LINES) if info.status != "lobby" else []
        base = f"/m/{self.handle(match_id)}"
        return TableState(
            match=match_id, title=info.title, game=info.game, status=info.status, phase=fill(status.phase, names),
            version=info.version, deadline=status.deadline.isoformat() if status.deadline and info.status == "active" else None,
            waiting=[s.name for s in status.waiting], may_act=[s.name for s in status.may_act],
            seats=[seat_line(s, status) for s in sorted(info.seats, key=lambda one: one.seat)], log=log,
            frames=[FrameInfo(fill(frame.label, names), frame.step, f"{base}/map/{index}.png?step={frame.step}",
                              map_alt(info.title, frame, names)) for index, frame in enumerate(frames)],
            seat=await self._seat(info, seat_pass) if seat_pass is not None else None,
            notes=["The match is still in its lobby: the table opens when it starts."] if info.status == "lobby" else [],
        )

    async def _seat(self, info: MatchInfo, seat_pass: SeatPass) -> SeatPage | None:
        if info.status == "lobby":
            return None
        view = await self.service.seat_view(info.id, seat_pass.user_id)
        name = next((s.name for s in info.seats if s.seat == seat_pass.seat), f"Seat {seat_pass.seat}")
        lines = facts(view.get("you") or {})
        return SeatPage(seat=seat_pass.seat, name=name, panel="panel.png?version=" + str(info.version),
                        alt=f"Your private panel, {name}: " + "; ".join(lines[:12]), facts=lines)

    async def map_png(self, match_id: int, index: int, step: int | None = None) -> bytes:
        """The PNG of one frame (IndexError: no such frame). A frame asked for with the step it
        was taken at (its URL's) is served from the frames at hand when they still hold it."""
        replay = self.timelines.replays.get(match_id)
        frames = replay.frames(over=replay.final is not None) if replay is not None else []
        names = self.names.get(match_id)
        if step is None or names is None or not 0 <= index < len(frames) or frames[index].step != step:
            names = (await self.service.get_match(match_id)).names()
            _match, frames = await self.timelines.frames(match_id)
        if index < 0:
            raise IndexError(index)
        frame = frames[index]
        key = (match_id, index, frame.step)
        png = self.pngs.get(key)
        if png is None:
            view = frame.view
            png = await drawing.draw(str(view.get("game")), view, names=names)
            self.pngs[key] = png
            while len(self.pngs) > PNG_CACHE:
                self.pngs.popitem(last=False)
        self.pngs.move_to_end(key)
        return png

    async def panel_png(self, match_id: int, seat_pass: SeatPass) -> bytes:
        """The seat's private panel, drawn from its own view (never cached: it is the seat's alone)."""
        info = await self.service.get_match(match_id)
        view = await self.service.seat_view(match_id, seat_pass.user_id)
        return await drawing.run("draw_private", render.draw_private, info.game, view, info.names(), game=info.game)

"""Finished matches: the history of a server and the replay GIF of any stored match.

A replay is drawn from the match's choice log alone: the log is replayed through the engine and
every public phase end is drawn from ``view(state, None)``, the same view the channel's phase
posts showed. No seat's view is ever read, so no secret reaches the GIF. The frames the phase
posts' draws made ahead are joined where they are kept (replay_frames.py), and the others drawn.
Drawing takes seconds on a long match, so the async entry point hands it to the drawing pool
(bot/service/drawing.py): a worker process replays and draws, and the event loop stays free.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import engine as eng
import render
from bot.service import drawing, replay_frames
from db.models import Match
from db.store import Store
from render.anim import DEFAULT_MAX_BYTES

REPLAY_NOTICE = "replay"
"""The notice kind that posts a finished match's replay GIF in its channel, once."""
HISTORY_SIZE = 10
ABANDONED_REASON = "The players agreed to abandon the match."
"""The reason of a match record its players abandoned by a vote (votes.py): nobody won, nothing rated."""


class NothingToReplay(Exception):
    """The match never started: there is no map to draw."""


@dataclass(frozen=True)
class ReplayGif:
    data: bytes
    frames: int
    """Phase images drawn (the GIF may show fewer: it drops frames to stay under its size limit)."""
    ahead: int = 0
    """Of them, the frames made ahead by the phase posts' draws (replay_frames.py): the GIF joins
    them unless they could not make it (then every frame is drawn again)."""


@dataclass(frozen=True)
class HistorySeat:
    seat: int
    user_id: int | None
    name: str
    won: bool


@dataclass(frozen=True)
class HistoryEntry:
    """One finished match as `/game history` lists it."""

    match_id: int
    game: str
    guild_id: int | None
    channel_id: int
    finished_at: datetime
    rounds: int | None
    choices: int
    reason: str
    draw: bool
    rated: bool
    seats: list[HistorySeat]
    replay_message_id: int | None
    """The replay GIF's message in the match's channel (None: not posted, e.g. older matches)."""

    @property
    def abandoned(self) -> bool:
        return self.reason == ABANDONED_REASON

    @property
    def winners(self) -> list[HistorySeat]:
        return [s for s in self.seats if s.won]


def public_frames(key: str, seats: int, options: dict[str, Any], seed: int,
                  log: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The public view at the start, at every public phase end, and at the end of the log.

    The log is played on one working copy (engine/working.py: a game that plays in place
    steps it without a copy a choice), a third of the CPU of ``submit`` on the longest shipped
    game; each view is built from the state when it is taken, so later steps never reach it.
    A view is built only where it may be kept: the end of the log is viewed only when a choice
    was played after the last view (a log that ends at a public phase end, as every finished
    match's does, would view the same state twice and drop the second)."""
    game = eng.get(key)
    working = eng.Working(game, game.setup(seats, eng.parse_options(game, options), seed), owned=True)
    views = [game.view(working.state, None)]
    played_since = False
    for seat, choice in log:
        if any(e.phase_end and e.seats is None for e in working.submit(seat, choice)):
            views.append(game.view(working.state, None))
            played_since = False
        else:
            played_since = True
    if played_since:
        final = game.view(working.state, None)
        if final != views[-1]:
            views.append(final)
    return views


def draw_replay(key: str, seats: int, options: dict[str, Any], seed: int, log: list[tuple[int, dict[str, Any]]],
                names: list[str], max_bytes: int = DEFAULT_MAX_BYTES) -> ReplayGif:
    """The replay GIF of a match, at most ``max_bytes`` (render/anim.py drops and shrinks frames),
    joined from the frames its phase posts' draws made where they are kept (replay_frames.py)."""
    views = public_frames(key, seats, options, seed, log)
    keys = [replay_frames.frame_key(key, view, names) for view in views]  # each digest once: found, then forgotten
    ahead = replay_frames.found_keys(keys)
    gif = render.replay(key, views, names, max_bytes=max_bytes, pieces=ahead)
    replay_frames.forget_keys(keys)
    return ReplayGif(gif, len(views), sum(frame is not None for frame in ahead))


class HistoryService:
    """The finished matches of a server, and their replays. It needs only the store:
    MatchService holds one (``svc.archive``), and the replay tool builds its own."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def history(self, guild_id: int, game: str | None = None, limit: int = HISTORY_SIZE) -> list[HistoryEntry]:
        """The server's latest finished matches, newest first."""
        limit = max(1, min(limit, HISTORY_SIZE * 2))
        async with self.store.read() as session:
            found = await self.store.latest_records(session, guild_id, game, limit)
            ids = [record.match_id for record, _channel in found]
            seat_rows = await self.store.record_seats(session, ids)
            refs = await self.store.notice_refs(session, ids, REPLAY_NOTICE)
        posted = {match_id: int(ref) for match_id, ref in refs if ref is not None and str(ref).isdigit()}
        seats: dict[int, list[HistorySeat]] = {}
        for row in seat_rows:
            seats.setdefault(row.match_id, []).append(HistorySeat(row.seat_no, row.user_id, row.name, row.won))
        return [HistoryEntry(
            match_id=record.match_id, game=record.game, guild_id=record.guild_id, channel_id=channel_id,
            finished_at=record.finished_at, rounds=record.rounds, choices=record.choices, reason=record.reason,
            draw=record.draw, rated=record.rated, seats=seats.get(record.match_id, []),
            replay_message_id=posted.get(record.match_id),
        ) for record, channel_id in found]

    async def replay_gif(self, match_id: int, max_bytes: int = DEFAULT_MAX_BYTES) -> ReplayGif:
        """Draw a stored match's replay GIF (in the drawing pool: the event loop stays free)."""
        async with self.store.read() as session:
            match = await session.get(Match, match_id)
            if match is None:
                raise NothingToReplay(f"There is no match {match_id}.")
            if await self.store.latest_snapshot(session, match_id) is None:  # start always stores one
                raise NothingToReplay(f"Match {match_id} never started: there is no map to draw.")
            names = [seat.name for seat in await self.store.seats(session, match_id)]
            log = [(c.seat, c.payload) for c in await self.store.choices(session, match_id) if c.seq <= match.step]
        return await drawing.run("replay", draw_replay, match.game, len(names), dict(match.options), match.seed,
                                 log, names, max_bytes, game=match.game)

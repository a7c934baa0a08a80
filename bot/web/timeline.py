"""Every public phase end of a match, kept current as the match moves: the replay slider's frames.

The frames are the replay GIF's (bot/service/history.py `public_frames`): the public view at
the start, at every public phase end (the maps the channel's phase posts show, so the page draws
no map of its own while the match runs) and, once it is over, at its end; from the choice log
replayed through the engine.
A page update replays only the choices since the last one (a fraction of a millisecond each);
an undo, which rewrites the log's tail (the match's undo mark moves), replays from the start once. Only ``view(state, None)``
is ever read: no seat's secret is in a frame.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import engine as eng
from db.models import Match
from db.store import Store


@dataclass(frozen=True)
class Frame:
    """The public view after ``step`` choices, kept as compact JSON (a long match has hundreds of
    frames; the map is drawn from one at a time), with its phase's name and latest lines."""

    step: int
    label: str
    text: str
    latest: tuple[str, ...]

    @classmethod
    def of(cls, step: int, view: dict[str, Any]) -> Frame:
        lines = view.get("last_events") or view.get("log") or []
        text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
        return cls(step, label_of(view), text, tuple(str(line) for line in list(lines)[-3:]))

    @property
    def view(self) -> dict[str, Any]:
        return dict(json.loads(self.text))


@dataclass
class Replay:
    """One match replayed up to ``last_seq``: its phase-end frames and the state now."""

    game: eng.Game
    state: eng.State
    last_seq: int = 0
    last_choice_id: int | None = None
    undo_mark: int | None = None
    """The match's undo mark when it was replayed: another one means an undo rewrote the log."""
    ends: list[Frame] = field(default_factory=list)
    final: Frame | None = None

    def frames(self, over: bool) -> list[Frame]:
        """The start and every phase end, as the channel's phase posts drew them; once the match
        is over, its last view too when it differs (as the replay GIF)."""
        if not over:
            return list(self.ends)
        if self.final is None or self.final.step != self.last_seq:
            self.final = Frame.of(self.last_seq, self.game.view(self.state, None))
        return list(self.ends) if self.ends and self.final.text == self.ends[-1].text else [*self.ends, self.final]


def label_of(view: dict[str, Any]) -> str:
    return str(view.get("phase_label") or view.get("phase") or "")


class Timelines:
    """The replays of the matches whose pages are open, one per match, brought up to date on read."""

    def __init__(self, store: Store, keep: int = 32) -> None:
        self.store = store
        self.keep = keep
        self.replays: dict[int, Replay] = {}
        self.locks: dict[int, asyncio.Lock] = {}

    async def frames(self, match_id: int) -> tuple[Match, list[Frame]]:
        """The match as stored and its frames, replayed up to its current step."""
        async with self.locks.setdefault(match_id, asyncio.Lock()):
            async with self.store.read() as session:
                match = await session.get(Match, match_id)
                if match is None:
                    raise LookupError(match_id)
                replay = self.replays.get(match_id)
                if replay is not None and (replay.last_seq > match.step or replay.undo_mark != match.undo_mark):
                    replay = None  # an undo cut the log (and the choices after it may be others)
                after = max(0, replay.last_seq - 1) if replay is not None else 0  # the last one again: still there?
                choices = [c for c in await self.store.choices(session, match_id, after) if c.seq <= match.step]
                if replay is not None and not self._continues(replay, choices):
                    replay = None  # an undo rewrote the log's tail
                    choices = [c for c in await self.store.choices(session, match_id, 0) if c.seq <= match.step]
                if replay is None:
                    replay = self._start(match, len(await self.store.seats(session, match_id)))
            self._advance(replay, [c for c in choices if c.seq > replay.last_seq])
            self.replays.pop(match_id, None)
            self.replays[match_id] = replay  # newest last: the oldest goes first
            while len(self.replays) > self.keep:
                self.replays.pop(next(iter(self.replays)))
            return match, replay.frames(match.status in ("finished", "aborted"))

    @staticmethod
    def _continues(replay: Replay, choices: list[Any]) -> bool:
        """Whether the log still holds the replay's last choice where it was (no undo since)."""
        return replay.last_seq == 0 or any(c.seq == replay.last_seq and c.id == replay.last_choice_id for c in choices)

    @staticmethod
    def _start(match: Match, seats: int) -> Replay:
        game = eng.get(match.game)
        state = game.setup(seats, eng.parse_options(game, dict(match.options)), match.seed)
        start = Frame.of(0, game.view(state, None))
        return Replay(game, state, undo_mark=match.undo_mark, ends=[start])

    @staticmethod
    def _advance(replay: Replay, choices: list[Any]) -> None:
        game, state = replay.game, replay.state
        for choice in choices:
            step = game.submit(state, choice.seat, choice.payload)
            state = step.state
            replay.last_seq, replay.last_choice_id = choice.seq, choice.id
            if any(event.phase_end and event.seats is None for event in step.events):
                replay.ends.append(Frame.of(choice.seq, game.view(state, None)))
        replay.state = state

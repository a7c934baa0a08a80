"""The web table's replay frames (bot/web/timeline.py) are the replay GIF's frames, kept current
by replaying only the new choices, and rebuilt after an undo rewrote the log's tail."""

from __future__ import annotations

from sqlmodel import select

from bot.service import MatchService
from bot.service.history import public_frames
from bot.web.timeline import Timelines
from db import Store
from db.models import Choice
from tests.service.helpers import BOB, CHANNEL, HOST, lobby
from tests.service.test_ratings import play_out


async def bid(svc: MatchService, match_id: int, user: int, amount: int) -> None:
    pending = await svc.pending_prompt(match_id, user)
    assert pending is not None and pending.prompt.kind == "bid"
    await svc.submit(match_id, user, {"bid": amount}, version=pending.version)


async def expected(store: Store, match_id: int, options: dict, seed: int) -> list[dict]:
    async with store.read() as session:
        rows = (await session.exec(select(Choice).where(Choice.match_id == match_id).order_by(Choice.seq))).all()
    return public_frames("toy", 2, options, seed, [(row.seat, row.payload) for row in rows])


def same(frames: list, views: list[dict]) -> bool:
    """The GIF's frames, but for its last view of a match still running (not a phase end)."""
    return [f.view for f in frames] == views[:len(frames)] and len(frames) >= len(views) - 1


async def test_frames_follow_the_match_and_an_undo(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB], rounds=3, seed=7)
    timelines = Timelines(store)
    _match, frames = await timelines.frames(info.id)
    assert same(frames, await expected(store, info.id, info.options, 7)) and len(frames) == 1
    await bid(svc, info.id, HOST, 2)
    await bid(svc, info.id, BOB, 1)
    _match, frames = await timelines.frames(info.id)
    assert len(frames) > 1 and frames[-1].label
    assert same(frames, await expected(store, info.id, info.options, 7))
    replay = timelines.replays[info.id]
    kept_state = replay.state

    asked = await svc.request_undo(CHANNEL, HOST)
    done = await svc.answer_undo(info.id, asked.id, BOB, True)
    assert done.status == "done"
    await bid(svc, info.id, BOB, 3)  # a different bid at the same place in the log
    _match, frames = await timelines.frames(info.id)
    assert timelines.replays[info.id].state is not kept_state, "replayed again from the start"
    assert same(frames, await expected(store, info.id, info.options, 7))

    await play_out(svc, info.id, [HOST, BOB])
    _match, frames = await timelines.frames(info.id)
    assert [f.view for f in frames] == await expected(store, info.id, info.options, 7), "the end too, as the GIF"

"""Replay GIFs joined from the frames the phase posts' draws made (bot/service/replay_frames.py):
the same frames as a replay drawn from scratch, from public views only, and drawn from scratch
whenever the kept frames cannot make it."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import engine
import render
from bot.service import MatchService, drawing, replay_frames
from bot.service.history import draw_replay, public_frames
from db import Match

GAME, OPTIONS = "tinybigwars", {"round_limit": 2}


def frames_of(gif: bytes) -> list[tuple[bytes, int]]:
    """Each frame of a GIF as a player sees it (RGB pixels) and how long it shows."""
    image = Image.open(io.BytesIO(gif))
    out = []
    for index in range(image.n_frames):
        image.seek(index)
        out.append((image.convert("RGB").tobytes(), int(image.info["duration"])))
    return out


async def played(svc: MatchService, seed: int = 11) -> tuple[Match, list[tuple[int, dict[str, Any]]], list[str],
                                                            list[dict[str, Any]]]:
    """A two-seat, two-round Tiny Big Wars match of AIs played through the service: the match, its
    log, its names and the payloads of its notices that close a post with a map, oldest first."""
    channel = 10**17 + 300 + seed
    info = await svc.create(None, channel, 1, "host", GAME, OPTIONS, max_seats=2, seed=seed, host_plays=False)
    for _ in range(2):
        await svc.add_ai(channel, 1, "heuristic")
    await svc.start(channel, 1)
    await svc.thinking_done(info.id)
    async with svc.store.read() as session:
        match = await session.get(Match, info.id)
        assert match is not None and match.status == "finished"
        log = [(c.seat, c.payload) for c in await svc.store.choices(session, info.id)]
        names = [seat.name for seat in await svc.store.seats(session, info.id)]
    notices = sorted((n for n in await svc.outbox(limit=100_000) if n.match_id == info.id), key=lambda n: n.id)
    maps = [n.payload for n in notices if n.kind in ("phase", "result") and n.payload.get("view")]
    return match, log, names, maps


def post_maps(maps: list[dict[str, Any]], names: list[str]) -> None:
    """Draw each closing notice's map as the phase posts do (bot/discord/phase_posts.py)."""
    for payload in maps:
        png = replay_frames.draw_and_keep(GAME, payload["view"], payload.get("names") or names,
                                          replay_frames.frame_view(payload))
        assert png == render.draw(GAME, payload["view"], payload.get("names") or names)


def from_scratch(monkeypatch: pytest.MonkeyPatch, *args: Any, **kwargs: Any) -> Any:
    """``draw_replay`` with no frame kept anywhere (every map drawn again)."""
    with monkeypatch.context() as off:
        off.setenv(replay_frames.SETTING, "off")
        return draw_replay(*args, **kwargs)


def kept() -> list[Path]:
    return sorted(Path(str(replay_frames.directory())).glob("*" + replay_frames.SUFFIX))


async def test_a_replay_is_joined_from_the_frames_its_phase_posts_made(svc: MatchService,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    match, log, names, maps = await played(svc)
    args = (GAME, 2, OPTIONS, match.seed, log, names)
    views = public_frames(*args[:5])
    scratch = from_scratch(monkeypatch, *args)
    assert replay_frames.directory() is not None and kept() == []

    post_maps(maps, names)
    found = replay_frames.found(GAME, views, names)
    assert all(frame is not None for frame in found), "every phase end's frame was made by a phase post's draw"
    asked: list[int | None] = []
    game = engine.get(GAME)
    real_view = game.view
    monkeypatch.setattr(game, "view", lambda state, seat: asked.append(seat) or real_view(state, seat))
    monkeypatch.setattr(render.RENDERERS[GAME], "picture", lambda *_: pytest.fail("a kept frame was drawn again"))
    joined = draw_replay(*args)

    assert set(asked) == {None}
    assert joined.frames == scratch.frames == joined.ahead == len(views) >= 5 and scratch.ahead == 0
    assert frames_of(joined.data) == frames_of(scratch.data)
    assert Image.open(io.BytesIO(joined.data)).info["loop"] == 0
    assert kept() == [], "a replay removes the frames it used"


async def test_frames_missing_are_drawn_and_the_gif_is_the_same(svc: MatchService,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    match, log, names, maps = await played(svc, seed=12)
    args = (GAME, 2, OPTIONS, match.seed, log, names)
    post_maps(maps[1:3], names)  # a restart lost the others, or they were pruned
    assert len(kept()) == 2
    joined = draw_replay(*args)
    assert frames_of(joined.data) == frames_of(from_scratch(monkeypatch, *args).data)


async def test_a_joined_gif_over_the_limit_is_drawn_as_before(svc: MatchService,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole frames make a bigger GIF than frames cut to their changes: past the limit the replay
    is drawn from scratch (frames dropped or shrunk only as far as that GIF needs)."""
    match, log, names, maps = await played(svc, seed=13)
    args = (GAME, 2, OPTIONS, match.seed, log, names)
    scratch = from_scratch(monkeypatch, *args).data
    views = public_frames(*args[:5])
    post_maps(maps, names)
    whole = render.replay(GAME, views, names, pieces=replay_frames.found(GAME, views, names))
    assert len(scratch) < len(whole)
    limit = (len(scratch) + len(whole)) // 2
    assert draw_replay(*args, max_bytes=limit).data == scratch


def test_only_the_public_views_frames_are_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame kept under any other view (a seat's, with its secrets) never reaches the GIF: the
    replay asks for its public views' frames only."""
    from bot.simulate import simulate

    summary = simulate(GAME, 2, 11, options=OPTIONS)
    names = ["alice", "bob"]
    views = public_frames(GAME, 2, OPTIONS, 11, summary["log"])
    game = engine.get(GAME)
    secret = {**game.view(summary["state"], 0), "phase_label": "SECRET"}
    for view in views[1:]:
        replay_frames.keep(replay_frames.frame_key(GAME, view, names), render.replay_frame(GAME, view, names) or b"")
    replay_frames.keep(replay_frames.frame_key(GAME, secret, names), render.replay_frame(GAME, secret, names) or b"")
    looked_up: list[str] = []
    real_found = replay_frames.found_keys
    monkeypatch.setattr(replay_frames, "found_keys", lambda keys: looked_up.extend(keys) or real_found(keys))
    gif = draw_replay(GAME, 2, OPTIONS, 11, summary["log"], names)
    assert looked_up == [replay_frames.frame_key(GAME, view, names) for view in views]
    monkeypatch.setattr(replay_frames, "found_keys", real_found)
    assert frames_of(gif.data) == frames_of(from_scratch(monkeypatch, GAME, 2, OPTIONS, 11, summary["log"], names).data)


def test_frames_of_two_palettes_do_not_join() -> None:
    from tests.render import defenders_views, views

    tbw = render.replay_frame(GAME, views.three_seat_mid(), views.NAMES_4[:3])
    other = render.replay_frame("defenders", defenders_views.early(), None)
    assert tbw is not None and other is not None
    assert render.anim.join([tbw, other]) is None
    assert render.anim.join([tbw]) is None  # one frame: no animation to join


async def test_a_phase_posts_map_keeps_its_replay_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drawing pool's phase map: the post's PNG, and the frame of the replay's view kept."""
    from tests.render import views

    await drawing.configure(0)
    post = {**views.three_seat_mid(), "phase_label": "Round 1 - Clan Phase"}
    frame = {**post, "phase_label": "Round 1 - Hero Activation"}
    names = views.NAMES_4[:3]
    png = await drawing.draw_phase_map(GAME, post, names, frame)
    assert png == render.draw(GAME, post, names)
    [kept_frame] = replay_frames.found(GAME, [frame], names)
    assert kept_frame == render.replay_frame(GAME, frame, names) != render.replay_frame(GAME, post, names)
    monkeypatch.setenv(replay_frames.SETTING, "off")
    assert replay_frames.found(GAME, [frame], names) == [None]


def test_a_frame_the_same_as_the_one_before_lengthens_it() -> None:
    """As the GIF drawn from scratch: a phase end that changed nothing shows one frame for longer."""
    from bot.simulate import simulate

    names = ["alice", "bob"]
    views = public_frames(GAME, 2, OPTIONS, 11, simulate(GAME, 2, 11, options=OPTIONS)["log"])
    views = [*views[:3], views[2], *views[3:]]
    joined = render.replay(GAME, views, names, pieces=[render.replay_frame(GAME, v, names) for v in views])
    scratch = render.replay(GAME, views, names)
    assert frames_of(joined) == frames_of(scratch)
    assert [duration for _, duration in frames_of(joined)] == [900, 900, 1800] + [900] * (len(views) - 5) + [4000]


def test_frames_are_not_kept_where_they_cannot_be(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """A path that is no directory of the bot's: no frame kept, the replay draws them all, and
    the log says so once, not at every phase post."""
    from tests.render import views

    blocked = tmp_path / "a file"
    blocked.write_text("not a directory")
    monkeypatch.setenv(replay_frames.SETTING, str(blocked))
    view, names = views.three_seat_mid(), views.NAMES_4[:3]
    for _ in range(3):
        assert replay_frames.draw_and_keep(GAME, view, names, view) == render.draw(GAME, view, names)
    assert replay_frames.found(GAME, [view], names) == [None]
    assert len([r for r in caplog.records if "not kept" in r.getMessage()]) == 1


def test_the_oldest_frames_go_past_the_limit() -> None:
    where = replay_frames.directory()
    assert where is not None
    for n in range(5):
        replay_frames.keep(f"frame{n}", bytes(1000))
        os.utime(where / f"frame{n}{replay_frames.SUFFIX}", (1_000_000 + n, 1_000_000 + n))
    replay_frames.prune(where, limit=2500)
    assert [p.name for p in kept()] == [f"frame{n}{replay_frames.SUFFIX}" for n in (3, 4)]


def test_frames_that_cannot_fit_are_not_joined(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kept frames that already tell the joined GIF would be over the limit: the missing ones
    are not made for nothing, the replay is drawn from scratch at once."""
    from bot.simulate import simulate

    names = ["alice", "bob"]
    log = simulate(GAME, 2, 11, options=OPTIONS)["log"]
    views = public_frames(GAME, 2, OPTIONS, 11, log)
    kept_frame = render.replay_frame(GAME, views[0], names)
    assert kept_frame is not None
    replay_frames.keep(replay_frames.frame_key(GAME, views[0], names), kept_frame)
    made: list[object] = []
    real = render.replay_frame
    monkeypatch.setattr(render, "replay_frame", lambda *args: made.append(args) or real(*args))
    limit = len(kept_frame) * len(views) - 1
    scratch = from_scratch(monkeypatch, GAME, 2, OPTIONS, 11, log, names, max_bytes=limit)
    assert draw_replay(GAME, 2, OPTIONS, 11, log, names, max_bytes=limit).data == scratch.data
    assert made == []

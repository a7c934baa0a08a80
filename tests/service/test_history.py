"""History of a server, and replay GIFs drawn from public views only (service and `replay --gif`)."""

from __future__ import annotations

import argparse
import asyncio
import io
from typing import Any

import pytest
from PIL import Image

import engine
from bot.cli import replay
from bot.service import MatchService
from bot.service.history import REPLAY_NOTICE, NothingToReplay, draw_replay, public_frames
from bot.simulate import simulate
from bot.storesim import simulate_stored
from db import Store
from tests.service.helpers import BOB, GUILD, HOST, lobby
from tests.service.test_ratings import play_out


async def test_history_lists_finished_matches_of_the_server_newest_first(svc: MatchService, clock: Any) -> None:
    first = await lobby(svc, [HOST, BOB], rounds=1, seed=1, channel=10**17 + 201)
    await play_out(svc, first.id, [HOST, BOB])
    clock.advance(1)
    second = await lobby(svc, [HOST, BOB], rounds=2, seed=4, channel=10**17 + 202)
    await play_out(svc, second.id, [HOST, BOB])
    running = await lobby(svc, [HOST, BOB], rounds=2, seed=4, channel=10**17 + 203)
    elsewhere = await svc.create(GUILD + 1, 10**17 + 204, HOST, "host", "toy", {"rounds": 1}, seed=1)

    entries = await svc.history(GUILD)
    assert [e.match_id for e in entries] == [second.id, first.id]
    assert running.id not in [e.match_id for e in entries] and elsewhere.id not in [e.match_id for e in entries]
    latest = entries[0]
    assert latest.rounds == 2 and latest.choices > 0 and latest.channel_id == 10**17 + 202
    assert [s.name for s in latest.winners] and all(s.won for s in latest.winners)
    assert latest.replay_message_id is None  # nothing delivered it yet
    assert await svc.history(GUILD, "samurai") == []
    assert await svc.history(GUILD + 1) == []
    kinds = [n.kind for n in await svc.outbox(limit=10_000) if n.match_id == second.id]
    assert kinds.count(REPLAY_NOTICE) == 1 and kinds.index(REPLAY_NOTICE) > kinds.index("result")


async def test_a_lobby_has_no_replay(svc: MatchService) -> None:
    info = await svc.create(GUILD, 10**17 + 205, HOST, "host", "toy", {"rounds": 1}, seed=1)
    with pytest.raises(NothingToReplay, match="never started"):
        await svc.replay_gif(info.id)


def test_replay_frames_come_from_public_views_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every frame is ``view(state, None)``: a seat's view (its secret force, its hand) is
    never asked for, so it cannot reach the GIF."""
    summary = simulate("tinybigwars", 2, 11, options={"round_limit": 2})
    game = engine.get("tinybigwars")
    asked: list[int | None] = []
    real_view = game.view

    def spy(state: Any, seat: int | None) -> dict[str, Any]:
        asked.append(seat)
        return real_view(state, seat)

    monkeypatch.setattr(game, "view", spy)
    frames = public_frames("tinybigwars", 2, {"round_limit": 2}, 11, summary["log"])
    assert len(frames) >= 4 and set(asked) == {None}
    assert frames[-1] == real_view(summary["state"], None)


def _frames_through_submit(key: str, seats: int, options: dict[str, Any], seed: int,
                           log: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The replay's views the plain way: ``submit`` (a new state a choice), each view taken at once."""
    game = engine.get(key)
    state = game.setup(seats, engine.parse_options(game, options), seed)
    views = [game.view(state, None)]
    for seat, choice in log:
        step = game.submit(state, seat, choice)
        state = step.state
        if any(e.phase_end and e.seats is None for e in step.events):
            views.append(game.view(state, None))
    final = game.view(state, None)
    return views + ([final] if final != views[-1] else [])


@pytest.mark.parametrize(("key", "seats", "options", "seed", "choices"), [
    ("tinybigwars", 2, {"round_limit": 2}, 11, None),
    ("tinybigwars", 3, {"round_limit": 3}, 5, None),
    ("samurai", 4, {}, 3, 400),
    ("defenders", 2, {}, 4, None),
])
def test_replay_frames_are_the_views_each_phase_end_left(key: str, seats: int, options: dict[str, Any], seed: int,
                                                          choices: int | None) -> None:
    """The log is played in place on one working copy: every frame is still the view of its own
    phase end (a later step changing the state in place never reaches a frame taken before)."""
    log = simulate(key, seats, seed, options=options)["log"][:choices]
    expected = _frames_through_submit(key, seats, options, seed, log)
    frames = public_frames(key, seats, options, seed, log)
    assert len(expected) >= 4 and frames == expected


@pytest.mark.parametrize("cut", [0, 1, 7, 20, 33, None])
def test_a_log_cut_anywhere_ends_on_its_own_last_state_viewed_once(monkeypatch: pytest.MonkeyPatch,
                                                                  cut: int | None) -> None:
    """A log that stops mid-phase (a match stopped, a replay of a match still played) still ends
    on its last state; one that stops at a public phase end does not show that end twice; and a
    view is built only for a frame the replay keeps (the end of a finished match, which is a
    phase end, is not viewed a second time)."""
    options = {"round_limit": 2}
    log = simulate("tinybigwars", 2, 11, options=options)["log"][:cut]
    expected = _frames_through_submit("tinybigwars", 2, options, 11, log)
    game = engine.get("tinybigwars")
    built: list[dict[str, Any]] = []
    real_view = game.view

    def counted(state: Any, seat: int | None) -> dict[str, Any]:
        built.append(real_view(state, seat))
        return built[-1]

    monkeypatch.setattr(game, "view", counted)
    frames = public_frames("tinybigwars", 2, options, 11, log)
    assert frames == expected
    assert len(built) == len(frames) or (len(built) == len(frames) + 1 and built[-1] == frames[-1])
    if cut is None:
        assert len(built) == len(frames)


def test_replay_gif_fits_the_limit_and_shows_the_phases() -> None:
    summary = simulate("tinybigwars", 2, 11, options={"round_limit": 2})
    big = draw_replay("tinybigwars", 2, {"round_limit": 2}, 11, summary["log"], ["alice", "bob"])
    small = draw_replay("tinybigwars", 2, {"round_limit": 2}, 11, summary["log"], ["alice", "bob"],
                        max_bytes=150_000)
    assert big.frames >= 4 and len(small.data) <= 150_000 < len(big.data)
    image = Image.open(io.BytesIO(big.data))
    assert image.format == "GIF" and image.n_frames == big.frames


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    replay.configure(parser)
    return parser.parse_args(argv)


def test_cli_replay_writes_the_gif(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}"
    summary = asyncio.run(simulate_stored(url, "tinybigwars", 2, 5, "heuristic", {"round_limit": 2}))
    path = tmp_path / "out" / "match.gif"
    assert replay.run(_args([str(summary["match_id"]), "--db", url, "--gif", str(path)])) == 0
    out = capsys.readouterr().out
    assert f"wrote {path}" in out and "phase images" in out
    image = Image.open(path)
    assert image.format == "GIF" and image.n_frames >= 2

    async def open_lobby() -> int:
        store = await Store.open(url)
        try:
            info = await MatchService(store).create(None, 77, HOST, "host", "tinybigwars", {})
            return info.id
        finally:
            await store.close()

    lobby_id = asyncio.run(open_lobby())
    assert replay.run(_args([str(lobby_id), "--db", url, "--gif", str(tmp_path / "lobby.gif")])) == 1
    assert "never started" in capsys.readouterr().out
    assert not (tmp_path / "lobby.gif").exists()

"""`python -m bot replay MATCH_ID --db URL [--verify] [--gif PATH]`: replay a stored match's choice log.

With --verify, the whole log is replayed from setup and compared with the snapshots the
store keeps (the newest two) and with the state the bot would load; exit 1 on any difference.
With --gif, the match's replay GIF (every public phase end, as the channel saw it) is written to
PATH: the same GIF the bot posts when a match ends, drawn for any stored match, finished or not.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import engine
from bot.cli._db import add_db_option
from bot.service.history import HistoryService, NothingToReplay
from db import Match, Snapshot, Store

NAME = "replay"
HELP = "replay a stored match from its choice log (--verify checks it against the snapshots, --gif draws it)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("match_id", type=int)
    add_db_option(parser)
    parser.add_argument("--verify", action="store_true", help="check the replay against the stored snapshots")
    parser.add_argument("--gif", type=Path, metavar="PATH", help="write the match's replay GIF (public views only) here")


async def verify_match(url: str, match_id: int) -> tuple[int, list[str]]:
    """`replay MATCH_ID --verify`: 0 and an OK line when the log replays to every snapshot."""
    return await _replay(url, match_id, verify=True)


async def _replay(url: str, match_id: int, verify: bool) -> tuple[int, list[str]]:
    from sqlmodel import select

    out: list[str] = []
    store = await Store.open(url, migrate=False)
    try:
        async with store.read() as session:
            match = await session.get(Match, match_id)
            if match is None:
                return 1, [f"no match {match_id} in this database"]
            if await store.latest_snapshot(session, match_id) is None:  # start always stores one
                return 1, [f"match {match_id} never started: there is nothing to replay or draw"]
            game = engine.get(match.game)
            seats = await store.seat_count(session, match_id)
            log = [c for c in await store.choices(session, match_id) if c.seq <= match.step]
            snaps = {s.seq: s.state for s in (await session.exec(
                select(Snapshot).where(Snapshot.match_id == match_id))).all()}
            loaded = await store.load_state(session, match)
    finally:
        await store.close()
    out.append(f"match {match_id}: {game.title}, {seats} seats, status {match.status}, {len(log)} choices")
    if not verify:
        for c in log:
            out.append(f"{c.seq:>5} seat {c.seat} {c.by:<8} {c.kind:<12} {engine.canonical_json(c.payload)}")
        return 0, out
    if [c.seq for c in log] != list(range(1, len(log) + 1)):
        return 1, [*out, "FAIL: the log has gaps in its sequence numbers"]
    if not snaps:
        return 1, [*out, "FAIL: no snapshot stored (was the match started?)"]
    state = game.setup(seats, engine.parse_options(game, match.options), match.seed)
    checked = 0
    problems: list[str] = []
    for n in range(len(log) + 1):
        if n > 0:
            try:
                state = game.submit(state, log[n - 1].seat, log[n - 1].payload).state
            except engine.IllegalChoice as exc:
                return 1, [*out, f"FAIL: choice {n} is refused on replay: {exc}"]
        if n in snaps:
            checked += 1
            # Read as the state model reads it: a snapshot stored before a field was added
            # to the state holds that field's default, and only a value can differ.
            stored = game.state_model().model_validate(snaps[n]).model_dump(mode="json")
            if state.model_dump(mode="json") != stored:
                problems.append(f"snapshot at choice {n} differs from the replay")
    if loaded is None or loaded.model_dump(mode="json") != state.model_dump(mode="json"):
        problems.append("the loaded state (snapshot + tail) differs from the full replay")
    if problems:
        return 1, [*out, *(f"FAIL: {p}" for p in problems)]
    digest = engine.log_sha256([(c.seat, c.payload) for c in log])
    return 0, [*out, f"OK: replay matches {checked} snapshot(s) and the loaded state; log sha256 {digest[:16]}"]


async def _gif(url: str, match_id: int, path: Path) -> tuple[int, list[str]]:
    store = await Store.open(url, migrate=False)
    try:
        replay = await HistoryService(store).replay_gif(match_id)
    except NothingToReplay as exc:
        return 1, [str(exc)]
    finally:
        await store.close()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(replay.data)
    return 0, [f"wrote {path}: {replay.frames} phase images, {len(replay.data)} bytes"]


def run(args: argparse.Namespace) -> int:
    code, lines = asyncio.run(_replay(args.db, args.match_id, args.verify))
    if code == 0 and args.gif is not None:
        code, more = asyncio.run(_gif(args.db, args.match_id, args.gif))
        lines += more
    print("\n".join(lines))
    return code

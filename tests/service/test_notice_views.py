"""A delivered notice keeps no view: its map was drawn from it and sent, and nothing reads it
again, so the outbox of a finished match holds lines, not maps (each line once: a post's printed
text goes where its lines stay, and a closed phase post keeps neither). A notice not delivered
yet keeps everything: after a restart it still goes out with its map."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from sqlmodel import col, select

import render
from bot.service import MatchService
from bot.storesim import simulate_stored
from db import Store
from db.models import Notice
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CHANNEL, GUILD, HOST

PNG = b"\x89PNG\r\n\x1a\n"
VIEW_KINDS = ("phase", "result", "prompt")


async def _rows(store: Store, match_id: int) -> list[Notice]:
    async with store.read() as session:
        stmt = select(Notice).where(col(Notice.match_id) == match_id).order_by(col(Notice.id))
        return list((await session.exec(stmt)).all())


def _check_delivered(rows: list[Notice], written: dict[int, dict[str, Any]]) -> int:
    """Each delivered row holds no view; a closed phase post keeps no lines either (nothing reads
    them back), any other keeps its lines, and its printed text only when it has none. Returns how
    many were delivered."""
    delivered = [row for row in rows if row.delivered_at is not None]
    for row in delivered:
        sent = written[row.id or 0]
        assert "view" not in row.payload, f"delivered {row.kind} notice {row.id} still holds its view"
        if row.kind == "phase":
            gone = {"view", "text", "events", "names"}
        else:
            assert row.payload.get("events") == sent.get("events"), "its lines stay"
            gone = {"view", "text"} if sent.get("events") else {"view"}
        assert row.payload == {key: value for key, value in sent.items() if key not in gone}, row.kind
    return len(delivered)


async def _started(svc: MatchService) -> int:
    """A Tiny Big Wars match of two players who sealed their forces: its opening post, the sealed
    prompts, the reveal's post and the next prompts are queued."""
    info = await svc.create(GUILD, CHANNEL, HOST, "alice", "tinybigwars", {"round_limit": 1}, seed=3)
    await svc.join(CHANNEL, BOB, "bob")
    await svc.start(CHANNEL, HOST)
    for user in (HOST, BOB):
        pending = await svc.pending_prompt(info.id, user)
        assert pending is not None
        await svc.submit(info.id, user, pending.prompt.default, version=pending.version)
    return info.id


async def test_delivered_notices_drop_their_views_and_waiting_ones_keep_them_across_a_restart(
        db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url)
    svc = MatchService(store, clock=clock)
    match_id = await _started(svc)
    queued = await svc.outbox(limit=1000)
    with_views = [n for n in queued if n.kind in VIEW_KINDS and n.payload.get("view")]
    assert {n.kind for n in with_views} >= {"phase", "prompt"}
    # The newest map and the newest prompt stay in the queue, as if the bot died mid-delivery.
    waiting = [next(n for n in reversed(with_views) if n.kind == "phase"),
               next(n for n in reversed(queued) if n.kind == "prompt")]
    for notice in queued:
        if notice not in waiting:
            await svc.delivered(notice.id, str(1000 + notice.id))
    written = {n.id: n.payload for n in queued}
    _check_delivered(await _rows(store, match_id), written)
    await store.close()

    store = await Store.open(db_url)  # the restart
    svc = MatchService(store, clock=clock)
    again = {n.id: n for n in await svc.outbox(limit=1000)}
    names = (await svc.get_match(match_id)).names()
    for notice in waiting:
        kept = again[notice.id]
        assert kept.payload == notice.payload, "an undelivered notice keeps everything it was written with"
        draw = render.draw if kept.kind == "phase" else render.draw_private
        if kept.payload["view"]:  # a plain decision's prompt has no private panel
            assert draw(str(kept.payload["game"]), kept.payload["view"], names=names).startswith(PNG)
        await svc.delivered(kept.id, str(1000 + kept.id))
    rows = await _rows(store, match_id)
    assert all(r.delivered_at is not None for r in rows)
    assert _check_delivered(rows, written) == len(rows)
    # The open phase post is still rebuilt from its delivered lines (a restarted bot edits it on).
    gathering = [n for n in queued if n.kind == "events"][-1]
    open_post = await svc.open_phase_post(match_id, gathering.id + 1)
    assert open_post is not None and open_post.ref == 1000 + gathering.id
    assert open_post.lines == gathering.payload["events"]
    # What is still read of a delivered prompt (its DM is edited for "last to choose") is all there.
    seat = next(n.seat for n in waiting if n.kind == "prompt")
    assert seat is not None
    found = await svc.prompt_notice_before(match_id, seat, max(r.id or 0 for r in rows) + 1)
    assert found is not None
    ref, payload = found
    prompt = next(n for n in waiting if n.kind == "prompt")
    assert ref == str(1000 + prompt.id)
    assert payload == {key: value for key, value in prompt.payload.items() if key != "view"}
    await store.close()


async def test_a_second_delivered_report_changes_nothing(svc: MatchService, store: Store) -> None:
    match_id = await _started(svc)
    prompt = next(n for n in await svc.outbox(limit=1000) if n.kind == "prompt")
    await svc.delivered(prompt.id, "111")
    await svc.delivered(prompt.id, "222")
    row = next(r for r in await _rows(store, match_id) if r.id == prompt.id)
    assert row.delivery_ref == "111"
    assert row.payload == {key: value for key, value in prompt.payload.items() if key != "view"}


def _stored_bytes(path: Path, match_id: int) -> dict[str, int]:
    """Summed column lengths of the match's rows, per table (what the data costs in SQLite)."""
    connection = sqlite3.connect(path)
    try:
        sizes = {}
        for table, key in (("matches", "id"), ("seats", "match_id"), ("choices", "match_id"),
                           ("snapshots", "match_id"), ("notices", "match_id"), ("deadlines", "match_id")):
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            total = " + ".join(f"coalesce(length(CAST({c} AS BLOB)), 0)" for c in columns)
            sizes[table] = connection.execute(f"SELECT coalesce(sum({total}), 0) FROM {table} WHERE {key} = ?",
                                              (match_id,)).fetchone()[0]
        return sizes
    finally:
        connection.close()


async def _deliver_all(url: str) -> None:
    store = await Store.open(url)
    try:
        svc = MatchService(store)
        for notice in await svc.outbox(limit=100_000):
            await svc.delivered(notice.id, "1")
    finally:
        await store.close()


def test_a_delivered_samurai_match_stores_its_log_and_lines_not_its_maps(tmp_path: Path) -> None:
    """Seed 0, four heuristic seats: measured at 5.0 KiB of notices once delivered for a
    468-choice match (603 KiB while every phase post kept its public view and lines); the honest
    heuristic's match is 1,049 choices: 10.0 KiB of notices and 178 bytes a choice in all (213
    for the 468), far below a single kept view."""
    path = tmp_path / "storage.db"
    url = f"sqlite+aiosqlite:///{path}"
    summary: dict[str, Any] = asyncio.run(simulate_stored(url, "samurai", 4, 0, "heuristic", {}))
    assert summary["status"] == "finished"
    asyncio.run(_deliver_all(url))
    sizes = _stored_bytes(path, summary["match_id"])
    choices = sqlite3.connect(path).execute("SELECT count(*) FROM choices").fetchone()[0]
    assert sizes["notices"] < 32 * 1024, sizes
    assert sum(sizes.values()) < 240 * choices, (sizes, choices)

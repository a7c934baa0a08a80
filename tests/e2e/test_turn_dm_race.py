"""Two processes on one PostgreSQL: the reply to a DM click and the seat's next prompt, written by
different processes, never leave the turn DM showing an older decision than the newest.

Two bots run here, each with its own store, service, delivery and seat turns, as two processes
would: shard 1's starts first and holds the delivery lease; shard 0's hears every DM click. Alice
seals her choice in a Tiny Big Wars step; her click's handler (shard 0) is held between its
submit and its edit of her DM while Bob's answer reveals the step and shard 1 delivers Alice's
next decision into that same DM. When the held handler goes on, her DM must still ask her next
decision, with live components.

Bob answers through `/game act` (shard 0, no DM): his force may take several steps, and in his
DMs each would wait for shard 1's delivery, whose worker for the match may be waiting for the
held reply's fence on Alice's seat (it brings every seat's turn DM up to date after a drain).
The reveal would then wait on the held reply, and the test on the reveal, until PostgreSQL ended
the fence's idle transaction (10 s): the "lost" case, tested on purpose below.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests.e2e.harness import AutoPlayer, factory, open_prompt, settings_for
from tests.fakediscord.server import FakeDiscord
from tests.pgfixture import pg_server_url, pg_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.fakediscord(guilds=2, shards=2, players=("alice", "bob"))

PROMPT_VERSION = re.compile(r"wh:p:\d+:\d+:(\d+):")


def _version(message: Any) -> int | None:
    found = PROMPT_VERSION.search(str(message.components))
    return None if found is None else int(found.group(1))


async def _seat_version(db: str, match_id: int, seat: int) -> int | None:
    """The seat's open prompt version (None while it owes nothing)."""
    conn = await asyncpg.connect(db)
    try:
        return await conn.fetchval(
            "SELECT prompt_version FROM seats WHERE match_id = $1 AND seat_no = $2", match_id, seat)
    finally:
        await conn.close()


async def _holder(db: str) -> str:
    conn = await asyncpg.connect(db)
    try:
        return str(await conn.fetchval("SELECT holder FROM leases WHERE name = 'deliver'") or "")
    finally:
        await conn.close()


async def _fence_waited(db: str) -> bool:
    """Whether a process waits for another's fence on a turn DM (an advisory lock not granted)."""
    conn = await asyncpg.connect(db)
    try:
        return bool(await conn.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"))
    finally:
        await conn.close()


async def _end_fence(db: str, match_id: int, seat: int) -> None:
    """End the transaction holding the seat's fence, as PostgreSQL does to one left idle 10 s
    (a paused or slow holder): its process holds the fence no more, and knows it only later."""
    conn = await asyncpg.connect(db)
    try:
        holders = await conn.fetch(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2"
            " AND objsubid = 2", match_id, seat)
        assert len(holders) == 1, "the held reply holds her seat's fence"
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", holders[0]["pid"])
    finally:
        await conn.close()


@pytest.mark.parametrize("held_after", ["submit", "read", "lost"])
async def test_a_held_click_reply_never_covers_the_next_prompt_another_process_delivered(
    held_after: str, pg_url: str, fake: FakeDiscord, start_bot: Any, tmp_path: Path  # noqa: F811
) -> None:
    """Held after its submit, the reply finds the decision it answered closed and writes nothing;
    held after reading the seat's turn (it would write the sealed choice), it holds the seat's
    fence, and delivery writes the next decision only after it. Held there and its fence ended
    ("lost"), delivery writes first; the reply writes its sealed choice over the DM delivery
    closed, learns its fence ended, and writes that DM again as the match says now."""
    db = "postgresql://" + pg_url.split("://", 1)[1]
    bots = {}
    for shard in (1, 0):  # shard 1 first: it takes the delivery lease
        settings = settings_for(fake, tmp_path / "unused.db", shard_count=2, shard_ids=[shard],
                                instance_name=f"shard{shard}", draw_workers=0).model_copy(
                                    update={"database_url": pg_url})
        bots[shard] = await start_bot(factory(settings))
    await fake.wait_until(lambda: fake.commands.get(fake.guilds[0].id), timeout=60)
    alice, bob = fake.user("alice"), fake.user("bob")
    guild = fake.guilds[0]
    for player in (alice, bob):
        player.go(guild)
    found = re.search(r"match #(\d+)", (await alice.slash("game new", game="tinybigwars", round_limit=2)).content)
    assert found
    match_id = int(found.group(1))
    await alice.wait_for(lambda m: m.button("Join") is not None, timeout=60)
    assert "You joined" in (await bob.click("Join")).content
    assert "has started" in (await alice.click("Start")).content
    first = await alice.dm.wait_for(open_prompt, timeout=60)
    await bob.dm.wait_for(open_prompt, timeout=60)  # both were asked
    assert (await _holder(db)).startswith("shard1"), "shard 1's process delivers"
    seat = next(s.seat for s in (await bots[0].svc.get_match(match_id)).seats if s.user_id == alice.id)

    # Alice's click is held in shard 0 after its submit, or after its read of her turn.
    held, release = asyncio.Event(), asyncio.Event()
    handler: list[asyncio.Task[Any]] = []
    service = bots[0].svc
    submit, seat_turn = service.submit, service.seat_turn

    async def hold() -> None:
        held.set()
        await release.wait()

    async def held_submit(match: int, user_id: int, *args: Any, **kwargs: Any) -> Any:
        result = await submit(match, user_id, *args, **kwargs)
        if user_id == alice.id and not handler:
            handler.append(asyncio.current_task())  # type: ignore[arg-type]
            if held_after == "submit":
                await hold()
        return result

    async def held_read(*args: Any, **kwargs: Any) -> Any:
        turn = await seat_turn(*args, **kwargs)
        if held_after in ("read", "lost") and asyncio.current_task() in handler and not held.is_set():
            await hold()
        return turn

    service.submit, service.seat_turn = held_submit, held_read
    await AutoPlayer(alice).answer(first)
    await asyncio.wait_for(held.wait(), 60)
    if held_after == "lost":
        await _end_fence(db, match_id, seat)
    bob_plays = AutoPlayer(bob, via_act=True)  # the step is revealed: both get their next decision
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while (after := await _seat_version(db, match_id, seat)) in (None, _version(first)):
        assert loop.time() < end, "Bob's answer never revealed the step"
        await bob_plays.step()
        await asyncio.sleep(0.05)
    assert bob_plays.answered, "Bob answered through /game act"
    if held_after in ("submit", "lost"):
        # Shard 1 delivered her next decision (a new DM: a new phase) and closed the one she clicked.
        await fake.wait_until(lambda: _version(first) is None and any(
            _version(m) == after and open_prompt(m) for m in alice.dm.messages), timeout=60)
    else:
        # Shard 1 delivered it, or waits for the held reply's fence to do so.
        while not (any(_version(m) == after and open_prompt(m) for m in alice.dm.messages)
                   or await _fence_waited(db)):
            assert loop.time() < end, "shard 1 never came to deliver her next decision"
            await asyncio.sleep(0.05)

    release.set()
    await asyncio.wait(handler, timeout=60)
    assert handler[0].done(), "the held click never finished"
    await fake.quiesce(quiet=0.3, timeout=60)

    # What Alice sees now: her newest decision open, and no DM with components of an older one.
    now = await _seat_version(db, match_id, seat)
    asking = [m for m in alice.dm.messages if open_prompt(m)]
    assert [_version(m) for m in asking] == [now], [m.content for m in asking]
    stale = [m.content for m in alice.dm.messages if _version(m) not in (None, now)]
    assert not stale, f"a DM of hers shows components of an older decision: {stale}"

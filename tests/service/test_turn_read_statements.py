"""What a turn DM is rendered from costs few statements (issue 32): a seat's turn is one
statement, the match rows with the outbox's part of the turn and the seat's choices since its
DM's prompt (no BEGIN: one statement reads one snapshot), when the match's state is in memory;
the delivered marks a turn read needs are written first, by a statement of their own. The
choices read so are the seat's choices in the log after that prompt, nothing more, nothing less;
a match another process changed is read with its state, never with the one this process holds."""

from __future__ import annotations

from sqlmodel import col, select

from bot.service import MatchService
from bot.service.outbox import Fence, Mark, MarksWrite
from db import Store
from db.models import Choice
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, CHANNEL, HOST, lobby, play_choice, recorded
from tests.service.test_seat_turn import deliver_prompts

TURN_READ = 1
"""The match with its seats and deadline and the outbox's part of the seat with its choices,
one statement (the state from the cache); it was three (BEGIN, the match rows, the outbox's part)."""
MARKED_TURN_READ = 2
"""The same, after the waiting marks' UPDATE (committed as it runs: the read sees it); it was
four (BEGIN, the UPDATE and the two reads in one transaction)."""


async def logged_choices(store: Store, match_id: int, seat: int, after: int) -> list[tuple[int, str, str]]:
    async with store.read() as session:
        rows = (await session.exec(select(Choice).where(col(Choice.match_id) == match_id, col(Choice.seat) == seat,
                                                        col(Choice.seq) > after).order_by(col(Choice.seq)))).all()
    return [(row.seq, row.kind, row.by) for row in rows]


async def mark_waiting(svc: MatchService, first_ref: int) -> list[Mark]:
    """The marks delivery would take for the waiting notices: each prompt into its own message."""
    return [Mark(notice.id, str(first_ref + n) if notice.kind == "prompt" else "x", svc.clock())
            for n, notice in enumerate(await svc.outbox(limit=1000))]


async def test_a_turn_read_with_its_marks_costs_one_transaction_and_reads_the_logged_choices(
        svc: MatchService, store: Store, clock: Clock) -> None:
    users = [HOST, BOB, CAROL]
    info = await lobby(svc, users, ais=1, hours=10)
    humans = [seat for seat in (info.seat_of(user) for user in users) if seat is not None]
    compared = 0
    for step in range(8):
        marks = await mark_waiting(svc, 1000 * (step + 1))
        write = MarksWrite(marks)
        with recorded(store) as statements:
            together = await svc.seat_turns(info.id, marks=write)
        assert write.written == len(marks), "every waiting mark written"
        assert len(statements) <= MARKED_TURN_READ, statements
        assert not await svc.outbox(limit=1000), "the marks were committed with the read"
        for seat in humans:
            with recorded(store) as statements:
                alone = await svc.seat_turn(info.id, seat)
            assert len(statements) <= TURN_READ, statements
            assert alone == together[seat], f"step {step} seat {seat}"
            if alone is None or alone.subject is None:
                continue
            assert alone.subject.dm is not None, "its DM was found by the marks just written"
            since = alone.subject.version if alone.subject.version is not None else -1
            assert [(c.seq, c.kind, c.by) for c in alone.choices] == await logged_choices(store, info.id, seat, since)
            compared += 1
        for user in users[: 1 + step % 3]:  # some answer; now and then the deadline takes the rest
            choice = await play_choice(svc, info.id, user)
            if choice is not None:
                await svc.submit(info.id, user, choice)
        if step % 3 == 2:
            await svc.tick(clock.advance(11))
    assert compared >= 16, "most seats had a turn DM to compare"


async def test_a_turn_read_sees_the_marks_its_transaction_wrote(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    bob = info.seat_of(BOB)
    assert bob is not None
    marks = await mark_waiting(svc, 500)
    prompt = next(n for n in await svc.outbox(limit=1000) if n.kind == "prompt" and n.seat == bob)
    write = MarksWrite(marks)
    with recorded(store) as statements:
        turn = await svc.seat_turn(info.id, bob, marks=write)
    assert write.written == len(marks)
    assert len(statements) <= MARKED_TURN_READ, statements
    assert turn is not None and turn.subject is not None, "the read found the DM its own transaction marked"
    assert turn.subject.notice_id == prompt.id and turn.live
    assert str(turn.subject.dm) == next(mark.ref for mark in marks if mark.notice_id == prompt.id)


async def test_marks_of_a_lease_term_that_is_over_are_not_written_with_the_read(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    bob = info.seat_of(BOB)
    assert bob is not None
    marks = await mark_waiting(svc, 500)
    write = MarksWrite(marks, Fence("deliver", "another process", 7))
    turn = await svc.seat_turn(info.id, bob, marks=write)
    assert write.written == 0, "nothing written under a term that is not the current one"
    assert turn is not None and turn.subject is None, "no DM holds the turn: none was marked"
    assert len(await svc.outbox(limit=1000)) == len(marks)


async def test_the_next_batch_read_writes_the_marks_that_wait_in_its_transaction(svc: MatchService,
                                                                                 store: Store) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    first = await svc.next_batch(info.id, limit=2)
    assert len(first.notices) == 2
    marks = [Mark(notice.id, "x", svc.clock()) for notice in first.notices]
    write = MarksWrite(marks)
    with recorded(store) as statements:
        batch = await svc.next_batch(info.id, limit=50, marks=write)
    assert write.written == 2
    assert len(statements) <= 3, statements  # BEGIN, the marks' UPDATE, the notices (nobody has settings)
    assert not {notice.id for notice in first.notices} & {notice.id for notice in batch.notices}, \
        "the batch holds no notice that went"
    assert batch.notices, "the rest of the queue"


async def test_the_round_read_writes_the_marks_workers_left_in_its_transaction(svc: MatchService,
                                                                                store: Store) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    other = await lobby(svc, [HOST, CAROL], hours=10, channel=CHANNEL + 1)
    waiting = await svc.outbox(limit=1000)
    marks = [Mark(notice.id, "x", svc.clock()) for notice in waiting if notice.match_id == info.id]
    assert (await svc.delivery_round()).matches == [info.id, other.id]
    write = MarksWrite(marks)
    with recorded(store) as statements:
        round_ = await svc.delivery_round(marks=write)
    assert write.written == len(marks)
    assert len(statements) <= 3, statements  # BEGIN, the marks' UPDATE, the queue
    assert round_.matches == [other.id], "the queue read after the marks: the match whose notices went left it"
    stale = MarksWrite([Mark(notice.id, "x", svc.clock()) for notice in waiting if notice.match_id == other.id],
                       Fence("deliver", "another process", 7))
    assert (await svc.delivery_round(marks=stale)).matches == [other.id]
    assert stale.written == 0, "nothing written under a term that is not the current one"


async def test_a_turn_read_after_another_process_changed_the_match_reads_its_state(
        db_url: str, svc: MatchService, store: Store, clock: Clock) -> None:
    """The one-statement read takes the state from memory only for the version it read: a
    match another process changed is read again with its state, in one transaction."""
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    await deliver_prompts(svc)
    bob = info.seat_of(BOB)
    assert bob is not None
    with recorded(store) as statements:
        before = await svc.seat_turn(info.id, bob)
        together = await svc.seat_turns(info.id)
    assert len(statements) == 2 * TURN_READ, statements
    assert before is not None and before.live and not before.waits_alone and together[bob] == before
    other_store = await Store.open(db_url)  # another process: its own connections and memory
    try:
        other = MatchService(other_store, clock=clock)
        await other.submit(info.id, HOST, {"bid": 1})
        await other.submit(info.id, CAROL, {"bid": 2})
        with recorded(store) as statements:
            after = await svc.seat_turn(info.id, bob)
        assert len(statements) > TURN_READ, "the state this process held is not the one read: read again"
        assert after is not None and after.waits_alone and after.live, "the other process's bids are seen"
        assert after == await other.seat_turn(info.id, bob)
        await other.submit(info.id, BOB, {"bid": 1})  # the step is revealed: bob's bid is no longer open
        turns = await svc.seat_turns(info.id)
        assert turns == await other.seat_turns(info.id)
        assert not turns[bob].live and [c.by for c in turns[bob].choices] == ["player"]
    finally:
        await other_store.close()
    with recorded(store) as statements:
        again = await svc.seat_turn(info.id, bob)
    assert len(statements) == TURN_READ, "the state read is kept: the next read is one statement again"
    assert again == turns[bob]


async def test_a_clicks_next_decision_is_one_statement_and_only_while_it_waits(svc: MatchService,
                                                                                store: Store) -> None:
    """What a click's answer needs to show the decision its choice led to: the seat's newest
    prompt notice and the seat's turn before it, one statement; nothing once that notice went,
    for another version, or while its player's DMs are blocked (delivery parks it)."""
    info = await lobby(svc, [HOST, BOB], hours=10)
    await deliver_prompts(svc)
    bob = info.seat_of(BOB)
    assert bob is not None
    await svc.submit(info.id, HOST, {"bid": 1})
    await svc.submit(info.id, BOB, {"bid": 1})  # revealed: the host moves first
    await svc.submit(info.id, HOST, {"action": "gather"})  # then bob's next decision is written
    newest = [n for n in await svc.outbox(limit=1000) if n.kind == "prompt" and n.seat == bob][-1]
    version = newest.payload["version"]
    with recorded(store) as statements:
        found = await svc.next_decision(info.id, bob, version)
    assert len(statements) == TURN_READ, statements
    assert found is not None and found.notice_id == newest.id and found.payload == newest.payload
    assert found.previous == await svc.seat_turn(info.id, bob, before_id=newest.id)
    assert found.previous.subject is not None and not found.previous.newer_prompt(newest.id)
    assert await svc.next_decision(info.id, bob, version + 1) is None, "another version"
    await svc.park(newest.id, 50007, "DMs closed", retry_in=60)
    assert await svc.next_decision(info.id, bob, version) is None, "parked: delivery's to tell"
    async with store.write() as session:  # back in the queue, its target still blocked
        await store.unpark(session, info.id, "user", BOB)
    assert await svc.next_decision(info.id, bob, version) is None, "its player's DMs are blocked: delivery parks it"
    await svc.unblock((await svc.blocked_targets(info.id))[0])
    assert await svc.next_decision(info.id, bob, version) is not None, "back in the queue"
    await svc.delivered(newest.id, "9000")
    assert await svc.next_decision(info.id, bob, version) is None, "it went"

"""A match transaction on the rows its process last committed (``KeptRows``, SQLite): it sends
no read of them, and its bump checks ``version`` and ``side_version`` (migration 0018), so a write
of the match's rows by anyone else since, another process's match transaction or a write outside
any (a seat's DM channel, the board's message, a raw UPDATE), is never judged by or written over:
the transaction runs again on rows read. On PostgreSQL every transaction reads its rows (locking
the match row first): two processes there always see each other's writes."""

from __future__ import annotations

import sqlalchemy as sa

from bot.service import MatchService
from bot.service.errors import Conflict, StalePrompt
from db import Store
from tests.service.helpers import BOB, CAROL, HOST, lobby, recorded


def _reads(statements: list[str]) -> list[str]:
    return [s for s in statements if s.lstrip().upper().startswith("SELECT")]


async def _raw(store: Store, sql: str, **values: object) -> None:
    async with store.write() as session:
        await session.execute(sa.text(sql), values)


async def test_a_process_starts_from_the_rows_it_committed_and_reads_them_after_another_write(
        svc: MatchService, store: Store, db_url: str) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    kept = store.dialect == "sqlite"
    first = await svc.pending_prompt(info.id, HOST)
    assert first is not None
    with recorded(store) as statements:
        await svc.submit(info.id, HOST, {"bid": 1}, version=first.version, interaction_id="k-1")
    assert len(_reads(statements)) == (0 if kept else 2), statements  # PostgreSQL: its lock, then the rows

    # another process pauses the match by a write outside any match transaction (no version bump)
    other = await Store.open(db_url)
    try:
        await _raw(other, "UPDATE matches SET status = 'paused' WHERE id = :id", id=info.id)
    finally:
        await other.close()
    bob = await svc.pending_prompt(info.id, BOB)
    assert bob is not None
    with recorded(store) as statements:
        try:
            await svc.submit(info.id, BOB, {"bid": 1}, version=bob.version, interaction_id="k-2")
        except Conflict:
            pass
        else:
            raise AssertionError("the submit was judged by rows from before the pause")
    assert _reads(statements), "the rows were read again"
    async with store.read() as session:
        step = (await session.execute(sa.text("SELECT step FROM matches WHERE id = :id"), {"id": info.id})).scalar()
    assert step == (await svc.get_match(info.id)).step  # nothing written by the refused choice


async def test_another_process_s_choice_is_seen_by_the_next_transaction(
        svc: MatchService, store: Store, db_url: str) -> None:
    """Two processes on one database answer the same match in turn: each finds the other's
    choice (its prompt version moved on), never applies one on rows from before it."""
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    other_store = await Store.open(db_url)
    try:
        other = MatchService(other_store, clock=svc.clock)
        host = await svc.pending_prompt(info.id, HOST)
        assert host is not None
        await svc.submit(info.id, HOST, {"bid": 1}, version=host.version, interaction_id="p-1")  # rows kept here
        bob = await other.pending_prompt(info.id, BOB)
        assert bob is not None
        await other.submit(info.id, BOB, {"bid": 2}, version=bob.version, interaction_id="p-2")
        carol = await svc.pending_prompt(info.id, CAROL)
        assert carol is not None
        result = await svc.submit(info.id, CAROL, {"bid": 3}, version=carol.version, interaction_id="p-3")
        assert result.seq == 3, "Bob's choice, made by the other process, comes before Carol's"
        # Bob's prompt of before is closed for both processes
        for service in (svc, other):
            try:
                await service.submit(info.id, BOB, {"bid": 0}, version=bob.version, interaction_id=f"p-4{id(service)}")
            except StalePrompt:
                continue
            raise AssertionError("a closed prompt was answered")
        async with store.read() as session:
            seats = (await session.execute(sa.text("SELECT seat FROM choices WHERE match_id = :id ORDER BY seq"),
                                           {"id": info.id})).scalars().all()
        assert len(seats) == 3
    finally:
        await other_store.close()


async def test_a_second_delivery_of_an_interaction_is_answered_from_the_log(svc: MatchService, store: Store) -> None:
    """The kept rows remember the interactions their transactions answered: a second delivery
    of one reads the match and gets its first answer again; nothing is logged twice."""
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    host = await svc.pending_prompt(info.id, HOST)
    assert host is not None
    first = await svc.submit(info.id, HOST, {"bid": 1}, version=host.version, interaction_id="d-1")
    again = await svc.submit(info.id, HOST, {"bid": 1}, version=host.version, interaction_id="d-1")
    assert again.duplicate and again.seq == first.seq
    async with store.read() as session:
        count = (await session.execute(sa.text("SELECT count(*) FROM choices WHERE interaction_id = 'd-1'"))).scalar()
    assert count == 1


async def test_this_process_s_own_writes_outside_drop_its_kept_rows(svc: MatchService, store: Store) -> None:
    """A seat's DM channel and the status board's message, written by this process outside the
    match transaction, drop the rows it keeps: its next transaction reads them (no work done
    twice on rows the bump would refuse), and writes neither over."""
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    host = await svc.pending_prompt(info.id, HOST)
    assert host is not None
    await svc.submit(info.id, HOST, {"bid": 1}, version=host.version, interaction_id="o-1")
    for n, (user, write) in enumerate([(BOB, svc.dm_channels.remember(BOB, 777)),
                                       (CAROL, svc.set_board_message(info.id, 4242))]):
        await write
        pending = await svc.pending_prompt(info.id, user)
        assert pending is not None
        with recorded(store) as statements:
            await svc.submit(info.id, user, {"bid": 1}, version=pending.version, interaction_id=f"o-{n + 2}")
        bumps = [s for s in statements if s.lstrip().upper().startswith("UPDATE MATCHES")]
        assert len(bumps) == 1, statements  # read first, bumped once: no bump refused
        assert len(_reads(statements)) == 1 + (store.dialect != "sqlite"), statements
    async with store.read() as session:
        board = (await session.execute(sa.text("SELECT board_message_id FROM matches WHERE id = :id"),
                                       {"id": info.id})).scalar()
        channel = (await session.execute(sa.text("SELECT dm_channel_id FROM seats WHERE user_id = :u"),
                                         {"u": BOB})).scalar()
    assert board == 4242 and channel == 777


async def test_a_second_delivery_of_a_sealed_answer_after_a_restart_is_no_revision(
        svc: MatchService, store: Store, db_url: str) -> None:
    """A sealed answer stays open at its version (it may be revised): a second delivery of the
    interaction that gave it, reaching a process that does not remember it (started since), is
    taken on kept rows for a revision until its choice's INSERT meets the unique (match,
    interaction) index; the transaction then runs again on rows read and gets the first answer
    again. Nothing is logged twice."""
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    host = await svc.pending_prompt(info.id, HOST)
    assert host is not None and host.prompt.secret
    await svc.submit(info.id, HOST, {"bid": 1}, version=host.version, interaction_id="r-1")
    restarted_store = await Store.open(db_url)
    try:
        restarted = MatchService(restarted_store, clock=svc.clock)
        bob = await restarted.pending_prompt(info.id, BOB)
        assert bob is not None
        await restarted.submit(info.id, BOB, {"bid": 1}, version=bob.version, interaction_id="r-2")  # rows kept now
        again = await restarted.submit(info.id, HOST, {"bid": 1}, version=host.version, interaction_id="r-1")
        assert again.duplicate
        async with restarted_store.read() as session:
            count = (await session.execute(sa.text("SELECT count(*) FROM choices WHERE seat = :s AND match_id = :m"),
                                           {"s": host.seat, "m": info.id})).scalar()
        assert count == 1
    finally:
        await restarted_store.close()


async def test_a_click_claims_only_what_this_process_did_not_see_taken(svc: MatchService, store: Store) -> None:
    """On kept rows a click's claim is sent without a read to find the notice, unless this
    process marked that prompt's notice delivered (or saw it claimed): then nothing can be
    claimed, and nothing is sent. A mark by another process is not seen: the claim goes, finds
    nothing, and changes nothing."""
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    prompts = {n.seat: n for n in await svc.outbox(limit=1000) if n.kind == "prompt"}
    host, bob = info.seat_of(HOST), info.seat_of(BOB)
    assert host is not None and bob is not None
    await svc.delivered(prompts[host].id, "700")  # marked here
    other = await Store.open(store.url)
    try:
        async with other.write_once() as connection:  # marked by another process
            await other.mark_delivered(connection, prompts[bob].id, svc.clock(), "701")
    finally:
        await other.close()
    claims = []
    for user, seat, message in ((HOST, host, 700), (BOB, bob, 701)):
        with recorded(store) as statements:
            result = await svc.submit(info.id, user, {"bid": 1}, version=prompts[seat].payload["version"],
                                      interaction_id=f"t-{seat}", message_id=message)
        assert result.claimed is None
        claims.append(len([s for s in statements if s.lstrip().upper().startswith("UPDATE NOTICES")]))
    assert claims == ([0, 1] if store.dialect == "sqlite" else [0, 0])
    for seat, message in ((host, 700), (bob, 701)):
        turn = await svc.seat_turn(info.id, seat)
        assert turn is not None and turn.subject is not None and turn.subject.dm == message


async def test_a_row_kept_from_a_change_is_not_changed_by_the_next(svc: MatchService, store: Store) -> None:
    """The next transaction may take the committed rows themselves (``KeptRows.held``) only
    when nothing else holds one: a row a change handed out (here its seat, as a step's result
    might) keeps the values it was committed with while the match moves on, and the next
    transaction, on rows of its own, is still judged right."""
    from bot.service.match_transaction import MatchTransaction
    from db import Seat

    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    host = await svc.pending_prompt(info.id, HOST)
    assert host is not None
    await svc.submit(info.id, HOST, {"bid": 1}, version=host.version, interaction_id="h-1")

    async def hand_out(ctx: MatchTransaction) -> Seat:
        ctx.changed = True  # a change (its version bumped) that leaves the rows kept
        return ctx.seat_of(BOB)

    bob_row = await svc._mutate(info.id, hand_out)
    committed = dict(bob_row.__dict__)
    bob = await svc.pending_prompt(info.id, BOB)
    assert bob is not None and bob_row.prompt_version == bob.version
    await svc.submit(info.id, BOB, {"bid": 1}, version=bob.version, interaction_id="h-2")
    _match, seats, _state, _deadline = await svc._read(info.id)
    now_bob = next(seat for seat in seats if seat.user_id == BOB)
    assert now_bob.prompt_key != committed["prompt_key"]  # Bob's row moved on: his bid is sealed
    assert {key: bob_row.__dict__[key] for key in committed} == committed  # the handed-out row did not
    carol = await svc.pending_prompt(info.id, CAROL)
    assert carol is not None
    result = await svc.submit(info.id, CAROL, {"bid": 1}, version=carol.version, interaction_id="h-3")
    assert not result.duplicate and result.seq > 0

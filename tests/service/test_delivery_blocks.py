"""The outbox as a delivery loop reads it: per-match queues, parked notices, blocked targets,
probes and resumption, on SQLite and PostgreSQL."""

from __future__ import annotations

from bot.service import MatchService
from db import Notice, Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CHANNEL, HOST, lobby

OTHER_CHANNEL = CHANNEL + 1


async def _add_notices(store: Store, match_id: int, count: int, clock: Clock, channel: int = CHANNEL) -> None:
    async with store.write() as session:
        for i in range(count):
            session.add(Notice(match_id=match_id, key=f"extra:{i}", kind="events", channel_id=channel,
                               payload={"text": f"extra {i}"}, created_at=clock()))


async def _channel_notice(svc: MatchService, match_id: int) -> int:
    notices = [n for n in await svc.next_notices(match_id) if n.user_id is None and n.kind != "blocked"]
    return notices[0].id


async def test_the_queue_is_per_match_so_a_backlog_hides_no_one(svc: MatchService, store: Store, clock: Clock) -> None:
    stuck = await lobby(svc, [HOST, BOB])
    await _add_notices(store, stuck.id, 300, clock)
    healthy = await lobby(svc, [HOST, BOB], channel=OTHER_CHANNEL)
    assert set(await svc.delivery_queue()) == {stuck.id, healthy.id}
    mine = await svc.next_notices(healthy.id, limit=50)
    assert mine and {n.match_id for n in mine} == {healthy.id}
    assert [n.id for n in mine] == sorted(n.id for n in mine)
    assert len(await svc.next_notices(stuck.id, limit=50)) == 50


async def test_a_refused_channel_parks_its_notices_and_tells_the_players(svc: MatchService, clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB])
    refused = await _channel_notice(svc, info.id)
    waiting = await svc.next_notices(info.id, limit=1000)
    block = await svc.park(refused, 50013, "missing permission Send Messages", retry_in=60)
    assert block is not None and (block.kind, block.target_id, block.code) == ("channel", CHANNEL, 50013)
    assert block.held == len([n for n in waiting if n.user_id is None])
    assert await svc.park(refused, 50013, "again", retry_in=60) is None, "blocked once"
    after = await svc.next_notices(info.id, limit=1000)
    assert all(n.user_id is not None for n in after), "only DMs are left to deliver"
    alerts = [n for n in after if n.kind == "blocked"]
    assert {n.user_id for n in alerts} == {HOST, BOB}
    assert alerts[0].payload["reason"] == "missing permission Send Messages"
    assert await svc.park(alerts[0].id, 50007, "closed", retry_in=60) is None, "an alert is never parked"

    await svc.submit(info.id, HOST, {"bid": 1})  # a new channel post ("1 of 2 have chosen") waits too
    assert all(n.user_id is not None for n in await svc.next_notices(info.id, limit=1000))
    status = await svc.status(CHANNEL)
    assert [(b.kind, b.reason) for b in status.blocked] == [("channel", "missing permission Send Messages")]
    assert status.blocked[0].held > block.held


async def test_probes_back_off_then_the_parked_notices_come_back_in_order(svc: MatchService, clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB])
    refused = await _channel_notice(svc, info.id)
    block = await svc.park(refused, 10003, "the channel is gone", retry_in=60)
    assert block is not None
    clock.advance(59 / 3600)
    assert await svc.due_probes(info.id) == []
    assert info.id not in (await svc.delivery_round()).probing  # its worker asks for no probes
    clock.advance(2 / 3600)
    [due] = await svc.due_probes(info.id)
    assert info.id in await svc.delivery_queue()
    assert info.id in (await svc.delivery_round()).probing
    probe = await svc.probe_notice(due)
    assert probe is not None and probe.id == refused
    await svc.probe_failed(due, 50013, "missing permission View Channel", retry_in=120)
    assert await svc.due_probes(info.id) == []
    clock.advance(121 / 3600)
    [due] = await svc.due_probes(info.id)
    assert (due.probes, due.reason) == (1, "missing permission View Channel")
    await svc.delivered(probe.id, "msg-1")
    assert await svc.unblock(due) == block.held - 1
    back = [n for n in await svc.next_notices(info.id, limit=1000) if n.user_id is None and n.kind != "blocked"]
    assert back and [n.id for n in back] == sorted(n.id for n in back) and back[0].id > refused
    assert (await svc.status(CHANNEL)).blocked == []


async def test_a_player_who_refuses_dms_is_named_in_the_channel(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB])
    bob_dm = next(n for n in await svc.next_notices(info.id, limit=1000) if n.user_id == BOB)
    block = await svc.park(bob_dm.id, 50278, "we share no server", retry_in=60)
    assert block is not None and (block.kind, block.target_id) == ("user", BOB)
    waiting = await svc.next_notices(info.id, limit=1000)
    assert not [n for n in waiting if n.user_id == BOB and n.kind != "blocked"]
    assert [n for n in waiting if n.user_id == HOST and n.kind == "prompt"], "the host's DMs go on"
    alerts = [n for n in waiting if n.kind == "blocked"]
    assert sorted((n.user_id or 0) for n in alerts) == [0, HOST]
    assert all(n.payload["name"] == "player1" for n in alerts)


async def test_a_match_that_is_over_stops_waiting_for_a_dead_channel_after_a_week(
    svc: MatchService, clock: Clock
) -> None:
    info = await lobby(svc, [HOST, BOB])
    block = await svc.park(await _channel_notice(svc, info.id), 10003, "the channel is gone", retry_in=60)
    assert block is not None
    clock.advance(24 * 8)
    assert await svc.probe_failed(block, 10003, "the channel is gone", retry_in=900) is None, "still open: it waits"
    await svc.abort(CHANNEL, HOST)
    dropped = await svc.probe_failed(block, 10003, "the channel is gone", retry_in=900)
    assert dropped is not None and dropped >= block.held
    assert await svc.blocked_targets(info.id) == []
    assert not [n for n in await svc.outbox(limit=1000) if n.user_id is None and n.kind != "blocked"]

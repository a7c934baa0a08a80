"""Host powers follow the host's human seat: kicked or gone, they pass to the next human seat."""

from __future__ import annotations

from bot.service import NO_HOST, BadChoice, MatchService, NoMatch, NotAllowed, Notice
from db import Store
from tests.service.helpers import BOB, CAROL, CHANNEL, DAVE, GUILD, HOST, lobby
from tests.service.test_errors import refused

MANAGER = DAVE
"""A server member with Manage Server and no seat."""
NOW_BOB = "Only the host (now bob) or a member with Manage Server can do that."


async def host_notices(svc: MatchService) -> list[Notice]:
    return [n for n in await svc.outbox(limit=10_000) if n.kind == "host"]


async def open_lobby(svc: MatchService) -> int:
    """A lobby hosted by HOST with bob and carol seated (seats 0, 1, 2)."""
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 3}, seed=7)
    await svc.join(CHANNEL, BOB, "bob")
    await svc.join(CHANNEL, CAROL, "carol")
    return info.id


async def test_a_kicked_host_loses_every_host_power(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    await svc.kick(CHANNEL, MANAGER, 0, is_manager=True)
    after = await svc.get_match(info.id)
    assert after.host_id == BOB and after.seats[0].user_id is None
    [notice] = await host_notices(svc)
    assert notice.payload["user_ids"] == [BOB] and notice.user_id is None
    assert "player1 is now the host" in notice.payload["text"] and "host" in notice.payload["text"]
    message = "Only the host (now player1) or a member with Manage Server can do that."
    for call in (svc.pause(CHANNEL, HOST), svc.extend(CHANNEL, HOST, 2), svc.kick(CHANNEL, HOST, 2),
                 svc.abort(CHANNEL, HOST)):
        assert await refused(store, NotAllowed, call) == message
    await svc.pause(CHANNEL, BOB)
    assert await refused(store, NotAllowed, svc.resume(CHANNEL, HOST)) == message
    await svc.resume(CHANNEL, BOB)
    await svc.extend(CHANNEL, BOB, 1)
    await svc.kick(CHANNEL, BOB, 2)  # the new host kicks carol: no host change, no new notice
    assert len(await host_notices(svc)) == 1
    await svc.abort(CHANNEL, BOB)


async def test_the_host_kicking_their_own_seat_hands_over(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    await svc.kick(CHANNEL, HOST, 0)
    assert (await svc.get_match(info.id)).host_id == BOB
    await refused(store, NotAllowed, svc.pause(CHANNEL, HOST))
    await svc.kick(CHANNEL, BOB, 1)  # and once more: the next human seat is carol's
    assert (await svc.get_match(info.id)).host_id == CAROL
    texts = [n.payload["text"] for n in await host_notices(svc)]
    assert len(texts) == 2 and "player2 is now the host" in texts[1]


async def test_with_no_human_left_only_managers_act(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB])
    await svc.pause(CHANNEL, HOST)  # paused: the AI seats do not play the match to its end
    await svc.kick(CHANNEL, HOST, 1)
    await svc.kick(CHANNEL, MANAGER, 0, is_manager=True)
    after = await svc.get_match(info.id)
    assert after.host_id == NO_HOST and after.status == "paused"
    [notice] = await host_notices(svc)
    assert "nobody is the host" in notice.payload["text"].lower() and notice.payload["user_ids"] == []
    message = "No player is the host any more, so only a member with Manage Server can do that."
    for user in (HOST, BOB):
        assert await refused(store, NotAllowed, svc.resume(CHANNEL, user)) == message
        assert await refused(store, NotAllowed, svc.abort(CHANNEL, user)) == message
    await svc.resume(CHANNEL, MANAGER, is_manager=True)
    assert (await svc.get_match(info.id)).status == "finished"  # the AI seats play it out


async def test_the_host_leaving_the_lobby_hands_over(svc: MatchService, store: Store) -> None:
    match_id = await open_lobby(svc)
    await svc.leave(CHANNEL, HOST)
    assert (await svc.get_match(match_id)).host_id == BOB
    [notice] = await host_notices(svc)
    assert "bob is now the host" in notice.payload["text"] and notice.payload["user_ids"] == [BOB]
    await svc.join(CHANNEL, HOST, "host")  # back, but as a player
    for call in (svc.start(CHANNEL, HOST), svc.add_ai(CHANNEL, HOST), svc.kick(CHANNEL, HOST, 1),
                 svc.abort(CHANNEL, HOST)):
        assert await refused(store, NotAllowed, call) == NOW_BOB
    await svc.add_ai(CHANNEL, BOB)
    assert await refused(store, NotAllowed, svc.remove_ai(CHANNEL, HOST, 3)) == NOW_BOB
    await svc.remove_ai(CHANNEL, BOB, 3)
    await svc.start(CHANNEL, BOB)


async def test_a_manager_kicks_the_host_out_of_the_lobby(svc: MatchService, store: Store) -> None:
    match_id = await open_lobby(svc)
    after = await svc.kick(CHANNEL, MANAGER, 0, is_manager=True)
    assert after.host_id == BOB and [s.name for s in after.seats] == ["bob", "carol"]
    assert len(await host_notices(svc)) == 1
    assert await refused(store, NotAllowed, svc.start(CHANNEL, HOST)) == NOW_BOB
    await svc.kick(CHANNEL, BOB, 0)  # the host kicks their own seat: carol hosts the lobby now
    assert (await svc.get_match(match_id)).host_id == CAROL
    closed = await svc.kick(CHANNEL, CAROL, 0)  # the last human seat: the lobby closes, like a leave
    assert closed.status == "aborted"
    await refused(store, NoMatch, svc.status(CHANNEL))


async def test_a_match_needs_a_real_host(svc: MatchService, store: Store) -> None:
    message = await refused(store, BadChoice, svc.create(GUILD, CHANNEL, NO_HOST, "nobody", "toy", {}))
    assert "host" in message

"""A thread per match: several matches run from one channel, each found by its own thread, and
from the channel by the player who sits in it; a match without a thread holds its channel."""

from __future__ import annotations

import pytest

from bot.service import Conflict, MatchService, NoMatch
from bot.service.errors import SeveralMatches
from bot.service.types import Place
from tests.service.helpers import BOB, CAROL, CHANNEL, DAVE, GUILD, HOST

THREADS = (9001, 9002, 9003)


async def three_matches(svc: MatchService) -> list[int]:
    """Three threaded matches opened in CHANNEL, hosted by HOST, BOB and CAROL, each in its thread."""
    ids = []
    for host, thread in zip((HOST, BOB, CAROL), THREADS, strict=True):
        info = await svc.create(GUILD, CHANNEL, host, f"p{host}", "toy", {"rounds": 3}, seed=7, thread=True)
        moved = await svc.move_to_thread(info.id, thread)
        assert (moved.channel_id, moved.lobby_channel_id, moved.in_thread) == (thread, CHANNEL, True)
        ids.append(info.id)
    return ids


async def test_each_thread_finds_its_own_match(svc: MatchService) -> None:
    ids = await three_matches(svc)
    for match_id, thread in zip(ids, THREADS, strict=True):
        assert (await svc.status(thread)).match.id == match_id
    await svc.join(THREADS[1], DAVE, "dave")
    assert [s.user_id for s in (await svc.get_match(ids[1])).seats] == [BOB, DAVE]


async def test_the_channel_finds_the_players_match_or_names_them_all(svc: MatchService) -> None:
    ids = await three_matches(svc)
    assert (await svc.find_match(Place(CHANNEL, BOB))).id == ids[1]
    assert (await svc.status(Place(CHANNEL, CAROL))).match.id == ids[2]
    with pytest.raises(SeveralMatches) as refused:
        await svc.status(Place(CHANNEL, DAVE))
    assert [m.id for m in refused.value.matches] == ids
    assert f"Toy Bidding War #{ids[2]}" in str(refused.value) and "thread" in str(refused.value)
    await svc.join(Place(CHANNEL, DAVE, match_id=ids[0]), DAVE, "dave")  # a Join button names its match
    assert (await svc.find_match(Place(CHANNEL, DAVE))).id == ids[0]


async def test_a_thread_holds_one_match(svc: MatchService) -> None:
    await three_matches(svc)
    with pytest.raises(Conflict):
        await svc.create(GUILD, THREADS[0], DAVE, "dave", "toy", {"rounds": 3})


async def test_notices_waiting_for_the_thread_follow_the_match_there(svc: MatchService) -> None:
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 3}, seed=7, thread=True)
    await svc.join(Place(CHANNEL, BOB, match_id=info.id), BOB, "bob")
    await svc.move_to_thread(info.id, THREADS[0])
    assert {n.channel_id for n in await svc.outbox(limit=100) if n.match_id == info.id} == {THREADS[0]}


async def test_without_a_thread_the_match_holds_its_channel(svc: MatchService) -> None:
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 3}, seed=7, thread=True)
    other = await svc.create(GUILD, CHANNEL, BOB, "bob", "toy", {"rounds": 3}, seed=7, thread=True)
    stayed = await svc.stay_in_channel(info.id)
    assert (stayed.channel_id, stayed.in_thread, stayed.opens_thread) == (CHANNEL, False, False)
    assert (await svc.find_match(Place(CHANNEL, DAVE))).id == info.id  # the channel's own match first
    with pytest.raises(Conflict):
        await svc.create(GUILD, CHANNEL, DAVE, "dave", "toy", {"rounds": 3})
    await svc.abort(CHANNEL, HOST)
    assert (await svc.find_match(CHANNEL)).id == other.id
    with pytest.raises(NoMatch):
        await svc.status(THREADS[2])

"""The seat's DM channel is stored beside the seat, for the user holding it, without a version bump."""

from __future__ import annotations

from bot.service import MatchService
from db import Store
from tests.service.helpers import recorded


async def test_the_dm_channel_is_kept_for_the_seat_user(svc: MatchService) -> None:
    info = await svc.create(1, 600, 11, "ann", "toy", {}, seed=1)
    await svc.join(600, 12, "bea")
    before = await svc.get_match(info.id)
    assert await svc.dm_channel(info.id, 0, 11) is None
    await svc.remember_dm_channel(info.id, 0, 11, 777)
    assert await svc.dm_channel(info.id, 0, 11) == 777
    assert await svc.dm_channel(info.id, 0, 12) is None, "another user holding the seat opens their own"
    await svc.remember_dm_channel(info.id, 1, 99, 888)  # not this seat's user: nothing stored
    assert await svc.dm_channel(info.id, 1, 12) is None
    assert (await svc.get_match(info.id)).version == before.version


async def test_a_players_dm_channel_is_found_from_any_seat_and_kept_on_every_seat_of_theirs(svc: MatchService) -> None:
    """One open serves a player everywhere: the channel stored for them in one match is found
    for another (also by a process started later: it is in the store), and storing it fills
    their seats that lack it, never another player's."""
    first = await svc.create(1, 600, 11, "ann", "toy", {}, seed=1)
    await svc.join(600, 12, "bea")
    second = await svc.create(1, 601, 12, "bea", "toy", {}, seed=2)
    await svc.join(601, 11, "ann")
    assert await svc.user_dm_channel(11) is None
    assert [(u.seat, u.user_id, u.known) for u in await svc.unopened_dms(second.id)] == [(0, 12, None), (1, 11, None)]
    before = await svc.get_match(first.id)
    await svc.remember_dm_channel(first.id, 0, 11, 777)  # opened for ann's seat in the first match
    assert await svc.user_dm_channel(11) == 777
    assert [(u.seat, u.user_id, u.known) for u in await svc.unopened_dms(second.id)] == [(0, 12, None), (1, 11, 777)]
    await svc.remember_user_dm_channel(11, 777)
    assert [(u.seat, u.user_id) for u in await svc.unopened_dms(second.id)] == [(0, 12)], "ann's seat has it now"
    assert await svc.dm_channel(second.id, 1, 11) == 777
    assert await svc.user_dm_channel(12) is None, "another player's channel is their own"
    assert (await svc.get_match(first.id)).version == before.version, "not a change of the match"
async def test_a_first_dms_lone_reads_and_write_send_one_statement_each(svc: MatchService, store: Store) -> None:
    """What delivery asks before a player's first DM (issue 32): the stored channel, whether the
    seat's DMs were found closed (and when), the lobby's message; and the channel it stores (and
    the board's message, stored by its refresh). Each is one statement on its own (no BEGIN, no
    COMMIT), and each says what the store holds."""
    info = await svc.create(1, 600, 11, "ann", "toy", {}, seed=1)
    with recorded(store) as statements:
        assert await svc.dm_channel(info.id, 0, 11) is None
        await svc.remember_dm_channel(info.id, 0, 11, 777)
        assert await svc.dm_channel(info.id, 0, 11) == 777
        assert not await svc.dms_closed(info.id, 0)
        assert await svc.dms_closed_at(info.id, 0) is None
        assert await svc.notice_ref(info.id, "lobby") is None
        await svc.set_board_message(info.id, 5150)
    assert len(statements) == 7, statements
    assert not [s for s in statements if s.split()[0].upper() in ("BEGIN", "COMMIT")], statements
    assert await svc.mark_dms_closed(info.id, 0)
    assert await svc.dms_closed(info.id, 0) and not await svc.mark_dms_closed(info.id, 0), "said once"
    closed_at = await svc.dms_closed_at(info.id, 0)
    assert closed_at is not None and closed_at.tzinfo is not None
    [lobby] = [n for n in await svc.outbox(limit=100) if n.kind == "lobby"]
    await svc.delivered(lobby.id, "4242")
    assert await svc.notice_ref(info.id, "lobby") == "4242"
    assert await svc.board_message(info.id) == 5150


async def test_the_openers_lone_reads_and_write_send_one_statement_each(svc: MatchService, store: Store) -> None:
    """What the DM opener asks of a match and a player (issue 32): the seats without a channel,
    the channel stored for a player anywhere, and storing it on the player's seats. Each is one
    statement on its own (no BEGIN, no COMMIT) and says what the store holds."""
    info = await svc.create(1, 600, 11, "ann", "toy", {}, seed=1)
    await svc.join(600, 12, "bea")
    with recorded(store) as statements:
        assert [(u.seat, u.user_id, u.known) for u in await svc.unopened_dms(info.id)] == [(0, 11, None), (1, 12, None)]
        assert await svc.user_dm_channel(11) is None
        await svc.remember_user_dm_channel(11, 777)
        assert await svc.user_dm_channel(11) == 777
        assert [(u.seat, u.user_id) for u in await svc.unopened_dms(info.id)] == [(1, 12)]
    assert len(statements) == 5, statements
    assert not [s for s in statements if s.split()[0].upper() in ("BEGIN", "COMMIT")], statements

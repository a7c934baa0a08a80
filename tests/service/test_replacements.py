"""`/game replace` in the service, on the toy game (SQLite and PostgreSQL): a seat opened for a
replacement, taken by the first member who asks, and who played it when in history and stats."""

from __future__ import annotations

from bot.service import Conflict, MatchService, NoMatch, NotAllowed, NotSeated, StalePrompt
from db import Deadline, Store
from tests.service.helpers import BOB, CAROL, CHANNEL, DAVE, GUILD, HOST, lobby, play_choice
from tests.service.test_errors import refused


async def _kinds(svc: MatchService) -> list[tuple[str, int | None]]:
    return [(n.kind, n.user_id) for n in await svc.outbox(limit=10_000)]


async def _play_out(svc: MatchService, match_id: int, users: list[int]) -> None:
    """Every human seat answers what it owes until the match is over."""
    for _ in range(200):
        info = await svc.get_match(match_id)
        if info.status != "active":
            return
        for user in users:
            if info.seat_of(user) is None:
                continue
            choice = await play_choice(svc, match_id, user)
            pending = await svc.pending_prompt(match_id, user)
            if choice is not None and pending is not None and not pending.prompt.answered:
                await svc.submit(match_id, user, choice, version=pending.version)
    raise AssertionError("the match did not end")


async def test_an_away_seat_is_opened_taken_and_both_stretches_are_recorded(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB], rounds=3)
    await svc.go_away(CHANNEL, BOB, 5)
    opened = await svc.open_seat(CHANNEL, HOST, BOB, "bob")
    assert opened.seat == 1 and opened.name == "player1" and opened.was_playing
    after = await svc.get_match(info.id)
    seat = after.seats[1]
    assert seat.user_id is None and seat.is_ai and seat.open_since is not None, "the AI plays it until taken"
    kinds = await _kinds(svc)
    assert ("seat_open", None) in kinds and ("seat_passed", BOB) in kinds and ("lobby", None) in kinds
    # bob no longer holds the seat: his old prompt answers are refused and change nothing
    await refused(store, NotSeated, svc.submit(info.id, BOB, {"bid": 1}))
    assert "open for a replacement" in (await svc.passed_on(info.id, 1, BOB) or "")

    # the host answers what they owe meanwhile; the AI answers for the open seat
    choice = await play_choice(svc, info.id, HOST)
    assert choice is not None
    pending = await svc.pending_prompt(info.id, HOST)
    assert pending is not None
    await svc.submit(info.id, HOST, choice, version=pending.version)
    step_before = (await svc.get_match(info.id)).step
    taken = await svc.take_seat(info.id, 1, CAROL, "carol")
    assert taken.before == "player1" and taken.title
    now = await svc.get_match(info.id)
    assert now.seats[1].user_id == CAROL and now.seats[1].name == "carol" and not now.seats[1].is_ai
    assert now.seats[1].open_since is None and now.step == step_before, "taking a seat plays nothing"
    kinds = await _kinds(svc)
    assert ("seat_welcome", CAROL) in kinds and ("seat_taken", None) in kinds
    assert "carol plays it now" in (await svc.passed_on(info.id, 1, BOB) or "")
    assert await svc.passed_on(info.id, 1, CAROL) is None, "carol holds it"

    await _play_out(svc, info.id, [HOST, CAROL])
    [entry] = await svc.history(GUILD)
    assert [s.user_id for s in entry.seats] == [HOST, CAROL], "the record names whoever played the end"
    shared = await svc.stretches([info.id])
    bob_stretch, carol_stretch = shared[info.id][1]
    assert (bob_stretch.user_id, bob_stretch.name, bob_stretch.from_step, bob_stretch.from_round) == (BOB, "player1", 0, 1)
    assert bob_stretch.to_step is not None and carol_stretch.from_step == step_before
    assert (carol_stretch.user_id, carol_stretch.to_step) == (CAROL, None), "carol played it to the end"
    for user in (BOB, CAROL):
        [seen] = await svc.shared_seats(GUILD, user)
        assert seen.match_id == info.id and seen.seat == 1 and [s.name for s in seen.stretches] == ["player1", "carol"]
        assert seen.stretches[-1].to_round == entry.rounds
    assert [s.game for s in await svc.player_stats(GUILD, CAROL)] == ["toy"]
    assert await svc.player_stats(GUILD, BOB) == [], "bob did not play the end: no game counted for him"


async def test_replacing_a_present_player_removes_them_and_hands_host_powers_on(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    opened = await svc.open_seat(CHANNEL, DAVE, HOST, "host", is_manager=True)
    assert opened.seat == 0 and opened.was_playing
    after = await svc.get_match(info.id)
    assert after.host_id == BOB and after.seats[0].user_id is None and after.seats[0].open_since is not None
    assert ("host", None) in await _kinds(svc)


async def test_a_kicked_seat_is_opened_under_its_former_players_name(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB])
    await svc.kick(CHANNEL, HOST, 1)
    opened = await svc.open_seat(CHANNEL, HOST, BOB, "bob")
    assert (opened.seat, opened.name, opened.was_playing) == (1, "player1", False)
    await svc.take_seat(info.id, 1, CAROL, "carol")
    assert (await svc.get_match(info.id)).seats[1].user_id == CAROL


async def test_taking_keeps_the_running_deadline(svc: MatchService, store: Store, clock) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    await svc.kick(CHANNEL, HOST, 1)  # the AI bids for bob; the table waits for the host
    await svc.open_seat(CHANNEL, HOST, BOB, "bob")
    async with store.read() as session:
        before = await session.get(Deadline, info.id)
    clock.advance(2)
    await svc.take_seat(info.id, 1, CAROL, "carol")
    async with store.read() as session:
        after = await session.get(Deadline, info.id)
    assert before is not None and after is not None and after.due_at == before.due_at


async def test_refusals_change_nothing(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    assert "Only the host" in await refused(store, NotAllowed, svc.open_seat(CHANNEL, BOB, CAROL, "carol"))
    assert "dave has no seat" in await refused(store, NotSeated, svc.open_seat(CHANNEL, HOST, DAVE, "dave"))
    assert await refused(store, Conflict, svc.take_seat(info.id, 1, DAVE, "dave")) == "This seat is not open for a replacement."
    assert await refused(store, NoMatch, svc.take_seat(info.id, 7, DAVE, "dave")) == "This seat is not open for a replacement."
    await svc.open_seat(CHANNEL, HOST, BOB, "bob")
    assert "already open" in await refused(store, Conflict, svc.open_seat(CHANNEL, HOST, BOB, "bob"))
    assert "You already play seat 3" in await refused(store, Conflict, svc.take_seat(info.id, 1, CAROL, "carol"))
    await svc.take_seat(info.id, 1, DAVE, "dave")
    assert "dave took this seat first" in await refused(store, Conflict, svc.take_seat(info.id, 1, BOB, "bob"))
    assert "already" in await refused(store, Conflict, svc.take_seat(info.id, 1, DAVE, "dave"))
    await svc.open_seat(CHANNEL, HOST, DAVE, "dave")
    await svc.abort(CHANNEL, HOST)
    assert "over" in await refused(store, Conflict, svc.take_seat(info.id, 1, BOB, "bob"))


async def test_a_lobby_seat_is_not_replaced(svc: MatchService, store: Store) -> None:
    await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 3}, seed=7)
    await svc.join(CHANNEL, BOB, "bob")
    assert "has not started" in await refused(store, Conflict, svc.open_seat(CHANNEL, HOST, BOB, "bob"))


async def test_a_stale_prompt_of_the_former_player_stays_refused_after_the_take(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB])
    old = await svc.pending_prompt(info.id, BOB)
    assert old is not None
    await svc.open_seat(CHANNEL, HOST, BOB, "bob")
    await svc.take_seat(info.id, 1, CAROL, "carol")
    await refused(store, NotSeated, svc.submit(info.id, BOB, {"bid": 1}, version=old.version))
    pending = await svc.pending_prompt(info.id, CAROL)
    if pending is not None:  # the new player answers in their own name
        try:
            await svc.submit(info.id, CAROL, {"bid": 0}, version=pending.version)
        except StalePrompt:
            raise AssertionError("carol's own prompt must be open to her") from None

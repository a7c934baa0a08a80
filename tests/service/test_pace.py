"""Players' pace in the service: clock deadlines (DST, midnight, min_hours), pauses that end by
themselves, away from every match, and the answer-time and missed-deadline stats (SQLite and
PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.service import BadChoice, Conflict, MatchService
from bot.service.clock import ClockDeadline, clock_deadline, zone_choices
from db import Choice, Match, Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, CHANNEL, GUILD, HOST, lobby

BERLIN = ZoneInfo("Europe/Berlin")


def _berlin(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=BERLIN).astimezone(UTC)


def _clock(at: str, zone: str = "Europe/Berlin", hours: float | None = None) -> ClockDeadline:
    found = clock_deadline(at, zone, hours)
    assert found is not None
    return found


def test_a_decision_is_due_at_the_next_such_time_at_least_min_hours_later() -> None:
    nine = _clock("21:00", hours=12)
    assert nine.describe() == "every day at 21:00 Europe/Berlin, at least 12 h"
    assert nine.due(_berlin(2026, 6, 10, 8, 0)) == _berlin(2026, 6, 10, 21, 0)  # 13 h off: today
    assert nine.due(_berlin(2026, 6, 10, 9, 0)) == _berlin(2026, 6, 10, 21, 0)  # exactly 12 h: still today
    assert nine.due(_berlin(2026, 6, 10, 9, 1)) == _berlin(2026, 6, 11, 21, 0)  # a minute short: tomorrow
    assert nine.due(_berlin(2026, 6, 10, 22, 0)) == _berlin(2026, 6, 11, 21, 0)
    long = _clock("21:00", hours=30)
    assert long.due(_berlin(2026, 6, 10, 8, 0)) == _berlin(2026, 6, 11, 21, 0)


def test_midnight_is_the_start_of_the_next_day() -> None:
    midnight = _clock("00:00", "UTC", 1)
    assert midnight.due(datetime(2026, 6, 10, 22, 30, tzinfo=UTC)) == datetime(2026, 6, 11, 0, 0, tzinfo=UTC)
    assert midnight.due(datetime(2026, 6, 10, 23, 30, tzinfo=UTC)) == datetime(2026, 6, 12, 0, 0, tzinfo=UTC)
    assert _clock("0:00", "UTC", 1).clock_text == "00:00"


def test_a_time_the_spring_gap_skips_falls_after_the_gap() -> None:
    # On 2026-03-29 Berlin's clocks jump from 02:00 to 03:00: 02:30 does not happen that night.
    late = _clock("02:30", hours=1)
    due = late.due(_berlin(2026, 3, 28, 23, 0))
    assert due == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 03:30 summer time, the gap's length later
    assert due.astimezone(BERLIN).hour == 3
    # The day after, 02:30 exists again, in summer time.
    assert late.due(due) == datetime(2026, 3, 30, 0, 30, tzinfo=UTC)
    # A time outside the gap on the short day is that time: 21:00 is 19:00 UTC in summer time.
    assert _clock("21:00").due(_berlin(2026, 3, 29, 1, 0)) == datetime(2026, 3, 29, 19, 0, tzinfo=UTC)


def test_a_time_the_autumn_fold_repeats_counts_once_at_the_first_that_is_far_enough() -> None:
    # On 2026-10-25 Berlin's clocks go back from 03:00 to 02:00: 02:30 happens twice.
    late = _clock("02:30", hours=1)
    first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 summer time
    second = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)  # 02:30 winter time, an hour later
    assert late.due(datetime(2026, 10, 24, 22, 0, tzinfo=UTC)) == first
    assert late.due(datetime(2026, 10, 24, 23, 45, tzinfo=UTC)) == second  # the first is under an hour off
    assert late.due(datetime(2026, 10, 25, 0, 45, tzinfo=UTC)) == datetime(2026, 10, 26, 1, 30, tzinfo=UTC)
    # A day of 25 hours: 21:00 on the day after the switch is 20:00 UTC (winter time).
    assert _clock("21:00").due(datetime(2026, 10, 25, 0, 0, tzinfo=UTC)) == datetime(2026, 10, 25, 20, 0, tzinfo=UTC)


@pytest.mark.parametrize(("at", "zone", "hours", "says"), [
    ("25:00", "Europe/Berlin", None, "is not a time of day"),
    ("9pm", "Europe/Berlin", None, "is not a time of day"),
    ("21:60", "Europe/Berlin", None, "is not a time of day"),
    ("21:00", "Europe/Berlinn", None, "is not a time zone I know"),
    ("21:00", "../etc/passwd", None, "is not a time zone I know"),
    ("21:00", None, None, "needs a timezone too"),
    (None, "Europe/Berlin", None, "go with deadline_at"),
    ("21:00", "Europe/Berlin", 0.5, "min_hours must be a number from 1 to 168"),
])
def test_bad_clock_deadlines_are_refused_with_a_reason(at: str | None, zone: str | None, hours: float | None,
                                                        says: str) -> None:
    with pytest.raises(BadChoice) as refused:
        clock_deadline(at, zone, hours)
    assert says in str(refused.value) and "Nothing was" in str(refused.value)


def test_zone_suggestions_match_what_is_typed_25_at_most() -> None:
    assert zone_choices("berl") == ["Europe/Berlin"]
    assert zone_choices("Europe/Ber") == ["Europe/Berlin"]
    assert zone_choices("new york") == ["America/New_York"]
    assert len(zone_choices("")) == 25 and len(zone_choices("america")) == 25
    assert all("america" in name.lower() for name in zone_choices("america"))
    assert zone_choices("zzzz") == []


async def _clock_lobby(svc: MatchService, clock: Clock) -> int:
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 3}, seed=7,
                            deadline_at="21:00", timezone="Europe/Berlin", min_hours=12)
    await svc.join(CHANNEL, BOB, "bob")
    await svc.start(CHANNEL, HOST)
    return info.id


async def test_a_clock_match_keeps_its_rhythm_through_extend_and_pause(svc: MatchService, clock: Clock) -> None:
    clock.now = _berlin(2026, 6, 10, 10, 0)
    match_id = await _clock_lobby(svc, clock)
    info = await svc.get_match(match_id)
    assert info.clock is not None and info.clock.describe() == "every day at 21:00 Europe/Berlin, at least 12 h"
    lobby_texts = [n.payload["text"] for n in await svc.outbox(limit=100) if n.kind == "lobby"]
    assert "deadline every day at 21:00 Europe/Berlin, at least 12 h" in lobby_texts[0]
    assert (await svc.status(CHANNEL)).deadline == _berlin(2026, 6, 11, 21, 0)  # 11 h today is too little

    await svc.extend(CHANNEL, HOST, 2)
    assert (await svc.status(CHANNEL)).deadline == _berlin(2026, 6, 11, 23, 0)

    clock.now = _berlin(2026, 6, 11, 20, 0)  # three hours left
    paused = await svc.pause(CHANNEL, HOST, days=2)
    assert paused.paused_until == clock.now + timedelta(days=2)
    clock.now = _berlin(2026, 6, 12, 8, 0)
    await svc.resume(CHANNEL, HOST)
    # The three hours left, then on to the next 21:00: the daily rhythm stays.
    assert (await svc.status(CHANNEL)).deadline == _berlin(2026, 6, 12, 21, 0)
    assert (await svc.get_match(match_id)).paused_until is None

    await svc.submit(match_id, HOST, {"bid": 1})
    await svc.submit(match_id, BOB, {"bid": 2})  # the bids are in: the move opens now, 08:00
    assert (await svc.status(CHANNEL)).deadline == _berlin(2026, 6, 12, 21, 0)  # 13 h: today


async def test_bad_pause_lengths_are_refused(svc: MatchService) -> None:
    await lobby(svc, [HOST, BOB])
    for days in (0, 31, float("nan")):
        with pytest.raises(BadChoice, match="days must be a number from 0.05 to 30"):
            await svc.pause(CHANNEL, HOST, days=days)
    assert (await svc.status(CHANNEL)).match.status == "active"


async def test_a_pause_ends_by_itself_once_across_two_processes_and_a_restart(db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url)
    first = MatchService(store, clock=clock, lease_seconds=1)
    info = await lobby(first, [HOST, BOB], hours=10)
    left = (await first.status(CHANNEL)).deadline
    assert left is not None
    paused = await first.pause(CHANNEL, HOST)  # seven days by default
    assert paused.paused_until == clock.now + timedelta(days=7)
    assert await first.tick(clock.advance(24 * 7 - 1)) == 0
    await store.close()

    store = await Store.open(db_url)  # a restart; two processes on the same database
    one, two = MatchService(store, clock=clock, lease_seconds=1), MatchService(store, clock=clock, lease_seconds=1)
    now = clock.advance(1)
    done = [await one.tick(now), await two.tick(now + timedelta(seconds=5))]
    assert sorted(done) == [0, 1]
    assert await one.tick(now + timedelta(seconds=10)) == 0 and await two.tick(now + timedelta(seconds=10)) == 0
    status = await one.status(CHANNEL)
    assert status.match.status == "active" and status.match.paused_until is None
    assert status.deadline == left + timedelta(days=7)  # the time left before the pause, not less
    said = [n.payload["text"] for n in await one.outbox(limit=1000) if n.kind == "lobby"]
    told = [n.payload["text"] for n in await one.outbox(limit=1000) if n.kind == "timeout"]
    assert sum("The pause is over" in text for text in told) == 1, "said once in the match's own posts"
    assert any(f"paused until <t:{int(paused.paused_until.timestamp())}:f>" in text for text in said)
    await one.submit(info.id, HOST, {"bid": 1})  # the match plays on
    await store.close()


async def test_away_everywhere_covers_every_running_match_on_the_server(svc: MatchService, clock: Clock) -> None:
    first = await lobby(svc, [HOST, BOB])
    second = await lobby(svc, [BOB, CAROL], channel=CHANNEL + 1)
    await svc.create(GUILD, CHANNEL + 2, CAROL, "carol", "toy", {"rounds": 3})
    await svc.join(CHANNEL + 2, BOB, "bob")  # a lobby: nothing to be away from yet
    elsewhere = await svc.create(GUILD + 1, CHANNEL + 3, BOB, "bob", "toy", {"rounds": 3})
    covered = await svc.go_away_everywhere(GUILD, BOB, 5)
    assert sorted(c.match_id for c in covered) == sorted([first.id, second.id])
    assert all(c.outcome.until == clock.now + timedelta(hours=5) for c in covered)
    for match_id in (first.id, second.id):
        seat = next(s for s in (await svc.get_match(match_id)).seats if s.user_id == BOB)
        assert seat.away_until == clock.now + timedelta(hours=5)
    assert (await svc.get_match(elsewhere.id)).status == "lobby"
    with pytest.raises(Conflict, match="no seat in a running match on this server"):
        await svc.go_away_everywhere(GUILD + 1, BOB, 5)
    with pytest.raises(BadChoice, match="Time away is 0.5 to 336 hours"):
        await svc.go_away_everywhere(GUILD, BOB, 1000)


async def test_stats_count_only_the_players_own_answers_and_missed_deadlines(svc: MatchService,
                                                                             clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10, rounds=6)
    await svc.submit(info.id, HOST, {"bid": 1})  # at once: 0 s
    clock.advance(2)
    await svc.submit(info.id, HOST, {"bid": 2})  # a revision is no new answer
    clock.advance(2)
    await svc.submit(info.id, BOB, {"bid": 1})  # 4 h after the bids opened
    pace = await svc.player_pace(GUILD, HOST)
    assert (pace.median_seconds, pace.answers, pace.missed, pace.owed) == (0.0, 1, 0, 1)
    pace = await svc.player_pace(GUILD, BOB)
    assert (pace.median_seconds, pace.answers) == (4 * 3600.0, 1)
    # The move: the heuristic answers for whoever owes when the deadline passes.
    while (await svc.status(CHANNEL)).waiting and not any(w.user_id == BOB for w in (await svc.status(CHANNEL)).waiting):
        waiting = (await svc.status(CHANNEL)).waiting[0]
        clock.advance(1)
        await svc.submit(info.id, waiting.user_id or 0, {"action": "gather"})
    assert await svc.tick(clock.advance(11)) >= 1  # bob let his deadline pass
    pace = await svc.player_pace(GUILD, BOB)
    assert pace.missed == 1 and pace.owed == pace.answers + 1 and pace.missed_share == 1 / pace.owed
    assert (await svc.player_pace(GUILD + 1, BOB)).owed == 0  # another server: nothing
    assert (await svc.player_pace(GUILD, CAROL)).median_seconds is None


async def test_the_median_is_the_middle_answer_or_the_mean_of_the_two_middle_ones(store: Store,
                                                                                  clock: Clock) -> None:
    async with store.write() as session:
        here = Match(guild_id=GUILD, channel_id=CHANNEL, game="toy", options={}, seed=1, host_id=HOST, max_seats=2,
                     created_at=clock.now, updated_at=clock.now)
        there = Match(guild_id=GUILD + 1, channel_id=CHANNEL + 1, game="toy", options={}, seed=1, host_id=HOST,
                      max_seats=2, created_at=clock.now, updated_at=clock.now)
        session.add_all([here, there])
        await session.flush()
        rows = [(here, "player", 3600.0), (here, "player", 5 * 3600.0), (here, "player", 2 * 3600.0),
                (here, "player", None), (here, "ai", 1.0), (here, "deadline", None), (there, "player", 1.0)]
        session.add_all([Choice(match_id=match.id, seq=seq, seat=1, kind="bid", by=by, payload={}, public=[],
                                user_id=BOB, waited=waited, created_at=clock.now)
                         for seq, (match, by, waited) in enumerate(rows, start=1)])
    svc = MatchService(store, clock=clock)
    pace = await svc.player_pace(GUILD, BOB)
    assert (pace.median_seconds, pace.answers, pace.missed, pace.owed) == (2 * 3600.0, 3, 1, 4)
    async with store.write() as session:
        session.add(Choice(match_id=here.id, seq=20, seat=1, kind="bid", by="player", payload={}, public=[],
                           user_id=BOB, waited=10 * 3600.0, created_at=clock.now))
    pace = await svc.player_pace(GUILD, BOB)
    assert (pace.median_seconds, pace.answers) == (3.5 * 3600.0, 4)  # the mean of 2 h and 5 h
    assert (await svc.player_pace(GUILD + 1, BOB)).median_seconds == 1.0

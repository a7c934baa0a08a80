"""`/game notify` in the service: quiet-hours arithmetic (DST, across midnight, a deadline inside
them), settings per match over server-wide ones, reminders off, reminders held and dropped."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest

from bot.service import MatchService, Notice
from bot.service import quiet_hours as qh
from bot.service.errors import BadChoice, Conflict
from bot.service.notify_prefs import merged
from bot.service.types import Place
from db import Match, Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, CHANNEL, DAVE, GUILD, HOST, lobby, recorded

BERLIN = qh.QuietHours(time(23, 0), time(8, 0), "Europe/Berlin")


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def test_quiet_hours_across_midnight_in_winter_and_summer() -> None:
    # winter: Berlin is UTC+1, so 23:00-08:00 local is 22:00-07:00 UTC
    assert qh.quiet_until(BERLIN, utc(2026, 1, 10, 21, 59)) is None
    assert qh.quiet_until(BERLIN, utc(2026, 1, 10, 22, 0)) == utc(2026, 1, 11, 7, 0)
    assert qh.quiet_until(BERLIN, utc(2026, 1, 11, 3, 0)) == utc(2026, 1, 11, 7, 0)  # after local midnight
    assert qh.quiet_until(BERLIN, utc(2026, 1, 11, 7, 0)) is None
    # summer: UTC+2
    assert qh.quiet_until(BERLIN, utc(2026, 7, 10, 21, 30)) == utc(2026, 7, 11, 6, 0)
    assert qh.quiet_until(BERLIN, utc(2026, 7, 11, 6, 0)) is None


def test_quiet_hours_over_the_dst_nights() -> None:
    # 2026-03-29: clocks go 02:00 -> 03:00 in Berlin. Quiet from 22:00 UTC (23:00 CET) ends at
    # 08:00 CEST = 06:00 UTC: a night an hour shorter, not a wrong end.
    assert qh.quiet_until(BERLIN, utc(2026, 3, 28, 23, 0)) == utc(2026, 3, 29, 6, 0)
    # 2026-10-25: clocks go 03:00 -> 02:00. 08:00 CET = 07:00 UTC.
    assert qh.quiet_until(BERLIN, utc(2026, 10, 24, 22, 0)) == utc(2026, 10, 25, 7, 0)
    # an end the clocks skip: 02:30 on the spring night is read with the offset before the jump
    skipped = qh.QuietHours(time(1, 0), time(2, 30), "Europe/Berlin")
    assert qh.quiet_until(skipped, utc(2026, 3, 29, 0, 30)) == utc(2026, 3, 29, 1, 30)
    # an end that happens twice (02:30 on the autumn night) ends at its first occurrence
    twice = qh.QuietHours(time(1, 0), time(2, 30), "Europe/Berlin")
    assert qh.quiet_until(twice, utc(2026, 10, 25, 0, 0)) == utc(2026, 10, 25, 0, 30)


def test_quiet_hours_within_one_day() -> None:
    lunch = qh.QuietHours(time(12, 0), time(13, 30), "America/New_York")  # UTC-5 in January
    assert qh.quiet_until(lunch, utc(2026, 1, 5, 17, 15)) == utc(2026, 1, 5, 18, 30)
    assert qh.quiet_until(lunch, utc(2026, 1, 5, 16, 59)) is None


def test_a_reminder_in_quiet_hours_waits_or_is_dropped() -> None:
    night = utc(2026, 1, 10, 23, 0)  # quiet until 07:00 UTC
    assert qh.reminder_plan(BERLIN, night, utc(2026, 1, 11, 12, 0)) == (qh.HOLD, utc(2026, 1, 11, 7, 0))
    # the deadline comes first (or at the very end of the quiet hours): the reminder is dropped
    assert qh.reminder_plan(BERLIN, night, utc(2026, 1, 11, 5, 0)) == (qh.DROP, None)
    assert qh.reminder_plan(BERLIN, night, utc(2026, 1, 11, 7, 0)) == (qh.DROP, None)
    assert qh.reminder_plan(BERLIN, utc(2026, 1, 11, 9, 0), utc(2026, 1, 11, 12, 0)) == (qh.SEND, None)
    assert qh.reminder_plan(None, night, utc(2026, 1, 11, 12, 0)) == (qh.SEND, None)


def test_bad_quiet_hours_and_zones_are_refused_clearly() -> None:
    assert qh.parse_quiet(" 23:00-08:00 ") == "23:00-08:00"
    assert qh.parse_quiet("Off") == qh.OFF
    for bad in ("25:00-08:00", "11pm-8am", "23:00", "08:00-08:00"):
        with pytest.raises(BadChoice):
            qh.parse_quiet(bad)
    assert qh.zone_name("Europe/Berlin") == "Europe/Berlin"
    with pytest.raises(BadChoice, match="not a time zone"):
        qh.zone_name("Mars/Olympus")
    assert qh.zone_matches("berlin") == ["Europe/Berlin"]
    assert len(qh.zone_matches("")) == qh.ZONE_CHOICES


async def test_per_match_settings_override_server_wide_ones(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB])
    here = Place(CHANNEL, BOB)
    wide = await svc.set_notify(here, GUILD, everywhere=True, reminders=False, quiet="23:00-08:00",
                                time_zone="Europe/Berlin")
    assert wide.everywhere and not wide.prefs.reminders and wide.prefs.quiet == BERLIN
    own = await svc.set_notify(here, GUILD, everywhere=False, reminders=True, announce="thread")
    assert own.match_title is not None and not own.everywhere
    prefs = await svc.notify_prefs(info.id, BOB)
    assert prefs.reminders and prefs.announce == "thread" and prefs.quiet == BERLIN
    assert set(prefs.per_match) == {"reminders", "announce"}
    assert not (await svc.notify_prefs(info.id, HOST)).per_match  # nobody else's settings change
    with pytest.raises(Conflict, match="no seat"):
        await svc.set_notify(Place(CHANNEL, CAROL), GUILD, everywhere=False, reminders=False)
    with pytest.raises(BadChoice, match="not a time zone"):
        await svc.set_notify(here, GUILD, everywhere=True, time_zone="Nowhere/Town")
    assert (await svc.notify_prefs(info.id, BOB)).time_zone == "Europe/Berlin"  # nothing changed


async def test_a_delivery_batch_carries_each_seated_players_settings(svc: MatchService) -> None:
    """The delivery reads the settings of every seated player with a batch of DMs: the same
    settings, per match over server-wide, as asking for each player would give."""
    info = await lobby(svc, [HOST, BOB])
    here = Place(CHANNEL, BOB)
    await svc.set_notify(here, GUILD, everywhere=True, quiet="23:00-08:00", time_zone="Europe/Berlin")
    await svc.set_notify(here, GUILD, everywhere=False, announce="thread")
    batch = await svc.next_batch(info.id)
    assert any(n.kind == "prompt" for n in batch.notices)
    assert set(batch.prefs) == {HOST, BOB}
    for user in (HOST, BOB):
        assert batch.prefs[user] == await svc.notify_prefs(info.id, user)
    assert batch.prefs[BOB].announce == "thread" and batch.prefs[BOB].quiet == BERLIN
    assert not batch.defaults


async def test_a_delivery_batch_reads_no_settings_when_nobody_on_the_server_has_any(
        svc: MatchService, store: Store) -> None:
    """Nobody has settings for the match on its server: the batch says everyone's are the
    defaults (what asking gives) in its one statement, and reads no settings; a server-wide
    setting of anyone, even of a player of another match there, brings the read back."""
    info = await lobby(svc, [HOST, BOB])
    with recorded(store) as statements:
        batch = await svc.next_batch(info.id)
    assert any(n.kind == "prompt" for n in batch.notices)
    assert batch.defaults and batch.prefs == {}
    assert len(statements) <= 2, statements  # BEGIN and the notices
    for user in (HOST, BOB):
        assert await svc.notify_prefs(info.id, user) == merged([])
    other = await lobby(svc, [CAROL, DAVE], channel=CHANNEL + 1)
    await svc.set_notify(Place(CHANNEL + 1, DAVE), GUILD, everywhere=True, heads_up=True)
    again = await svc.next_batch(info.id)
    assert not again.defaults and set(again.prefs) == {HOST, BOB}
    assert (await svc.next_batch(other.id)).prefs[DAVE].heads_up


async def reminders(svc: MatchService) -> list[Notice]:
    return [n for n in await svc.outbox(limit=100_000) if n.kind == "reminder"]


async def test_reminders_off_quiet_hours_held_and_dropped(db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url)
    svc = MatchService(store, clock=clock)
    clock.now = utc(2026, 1, 10, 12, 0)
    info = await lobby(svc, [HOST, BOB, CAROL], hours=20, rounds=6)  # due 08:00 UTC next day
    await svc.set_notify(Place(CHANNEL, HOST), GUILD, everywhere=False, reminders=False)
    await svc.set_notify(Place(CHANNEL, BOB), GUILD, everywhere=True, quiet="23:00-08:00",
                         time_zone="Europe/Berlin")  # quiet 22:00-07:00 UTC
    await svc.set_notify(Place(CHANNEL, CAROL), GUILD, everywhere=True, quiet="21:00-10:00", time_zone="UTC")
    assert await svc.tick(clock.advance(10)) == 1  # 50 % at 22:00 UTC: Bob and Carol in quiet hours
    assert await reminders(svc) == []  # the host turned them off; the others wait
    # a restart keeps what waits
    await store.close()
    store = await Store.open(db_url)
    svc = MatchService(store, clock=clock)
    assert await svc.tick(clock.advance(8)) == 1  # 06:00 UTC: 90 %, still quiet for both
    assert await reminders(svc) == []
    assert await svc.tick(clock.advance(1)) == 1  # 07:00 UTC: Bob's quiet hours end, an hour before the deadline
    [held] = await reminders(svc)
    assert held.payload["user_ids"] == [BOB] and "player1" in held.payload["text"]
    # Carol's end at 10:00 comes after the 08:00 deadline: her reminder was dropped
    assert await svc.tick(clock.now + timedelta(minutes=30)) == 0
    assert len(await reminders(svc)) == 1
    await store.close()
    assert info.id


async def test_a_held_reminder_is_not_sent_after_the_player_answered(svc: MatchService, clock: Clock) -> None:
    clock.now = utc(2026, 1, 10, 12, 0)
    info = await lobby(svc, [HOST, BOB], hours=20, rounds=6)
    await svc.set_notify(Place(CHANNEL, BOB), GUILD, everywhere=True, quiet="23:00-08:00", time_zone="Europe/Berlin")
    await svc.tick(clock.advance(10))  # held until 07:00 UTC
    await svc.submit(info.id, BOB, {"bid": 1})
    await svc.tick(clock.advance(9))
    sent = [n.payload["user_ids"] for n in await reminders(svc)]
    assert sent == [[HOST], [HOST]]  # the host's 50 % and 90 %; none for Bob, who answered meanwhile


async def test_the_next_seat_hears_when_the_seat_before_starts_its_turn(tmp_path: Any, clock: Clock) -> None:
    """Tiny Big Wars' activation is played in turns: when a seat starts its turn, the player of
    the seat after it in turn order gets a heads-up if they asked for one (Bob), not if they did
    not (the host) or while they are in quiet hours (Carol)."""
    import random

    import engine

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}")
    try:
        svc = MatchService(store, clock=clock)
        info = await svc.create(GUILD, CHANNEL, HOST, "host", "tinybigwars", {}, seed=3)
        for n, user in enumerate((BOB, CAROL), 1):
            await svc.join(CHANNEL, user, f"player{n}")
        await svc.start(CHANNEL, HOST)
        await svc.set_notify(Place(CHANNEL, BOB), GUILD, everywhere=False, heads_up=True)
        # 11:00-13:00 Europe/London is quiet at the clock's 12:00 UTC in January
        await svc.set_notify(Place(CHANNEL, CAROL), GUILD, everywhere=False, heads_up=True,
                             quiet="11:00-13:00", time_zone="Europe/London")
        game, policy, rng = engine.get("tinybigwars"), engine.get("tinybigwars").policies()["heuristic"], random.Random(3)
        seats = {s.seat: s.user_id for s in (await svc.get_match(info.id)).seats}
        told: list[tuple[int, int]] = []  # (seat told, seat on turn)
        seen = 0
        for _ in range(400):
            notices = await svc.outbox(limit=100_000)
            for notice in notices[seen:]:
                if notice.kind == "heads_up":
                    standing = game.standing(await svc.public_view(info.id))
                    told.append((notice.seat, standing.turn))
                    assert notice.user_id == seats[notice.seat]
                    assert "you are next" in notice.payload["text"]
            seen = len(notices)
            if told:
                break
            acted = False
            for user in (HOST, BOB, CAROL):
                pending = await svc.pending_prompt(info.id, user)
                if pending is None or pending.prompt.answered:  # a sealed choice waits for the others
                    continue
                async with store.read() as session:
                    match = await session.get(Match, info.id)
                    assert match is not None
                    state = await store.load_state(session, match)
                await svc.submit(info.id, user, engine.decide(game, policy, state, pending.prompt, rng), version=pending.version)
                acted = True
                break
            assert acted, "nobody had anything to answer"
        # Seats 1, 2 and 0 took the first round's turns (Carol's heads-up fell in her quiet hours,
        # the host asked for none); in the second round's order (2, 0, 1) Bob is told when seat 0 starts.
        assert told, "no turn-based phase gave Bob a heads-up"
        for seat, turn in told:
            order = game.standing(await svc.public_view(info.id)).order
            assert seats[seat] == BOB, "only Bob asked for heads-ups outside quiet hours"
            assert order.index(seat) == order.index(turn) + 1, f"seat {seat} told when seat {turn} started"
    finally:
        await store.close()

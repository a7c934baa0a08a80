"""A seat's turn read finds the prompt notice whose DM holds the turn in its statement
(db/turn_queries.py) and reads only that one's payload. Whichever read it is (one seat, one seat
before a notice, every seat, the next decision), the turn DM it names is the newest one a
message holds among the seat's newest prompts, with that notice's own payload, never another's."""

from __future__ import annotations

from typing import Any

from bot.service import MatchService
from db.outbox import delivered_payload
from db.turn_queries import TURN_SCAN
from tests.service.helpers import BOB, HOST, lobby, play_choice


async def _play_rounds(svc: MatchService, match_id: int, seat: int, rounds: int) -> dict[int, dict[str, Any]]:
    """Deliver every notice (the seat's prompts each into a message of its own), then both
    players answer; ``rounds`` times. Message id -> the payload its prompt notice has once delivered."""
    sent: dict[int, dict[str, Any]] = {}
    for _ in range(rounds):
        for notice in await svc.outbox(limit=1000):
            if notice.kind == "prompt" and notice.seat == seat:
                message = 700 + len(sent)
                sent[message] = delivered_payload(notice.kind, notice.payload)
                await svc.delivered(notice.id, str(message))
            else:
                await svc.delivered(notice.id, "x")
        for user in (HOST, BOB):
            choice = await play_choice(svc, match_id, user)
            if choice is not None:
                await svc.submit(match_id, user, choice)
    return sent


async def test_a_turn_read_names_the_newest_dm_with_its_own_prompt(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10, rounds=6)
    bob = info.seat_of(BOB)
    assert bob is not None
    sent = await _play_rounds(svc, info.id, bob, rounds=4)
    assert len(sent) >= 3 and len({payload["version"] for payload in sent.values()}) == len(sent)
    # Bob's newest prompt went into no message of its own: the DM before it still holds the turn
    newest = [n for n in await svc.outbox(limit=1000) if n.kind == "prompt" and n.seat == bob]
    assert newest
    for notice in newest:
        await svc.delivered(notice.id, "superseded")
    last, before_last = sorted(sent)[-1], sorted(sent)[-2]

    turn = await svc.seat_turn(info.id, bob)
    assert turn is not None and turn.subject is not None
    assert turn.subject.dm == last and turn.subject.payload == sent[last]

    older = await svc.seat_turn(info.id, bob, before_id=turn.subject.notice_id)
    assert older is not None and older.subject is not None
    assert older.subject.dm == before_last and older.subject.payload == sent[before_last]

    every = (await svc.seat_turns(info.id))[bob]
    assert every.subject is not None and every.subject.dm == last and every.subject.payload == sent[last]


async def test_the_next_decision_is_read_beside_the_dm_it_follows(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10, rounds=6)
    bob = info.seat_of(BOB)
    assert bob is not None
    sent = await _play_rounds(svc, info.id, bob, rounds=4)
    assert len(sent) >= 3, "several candidates: the DM read is the newest of them"
    for _ in range(10):  # the host plays on until Bob is asked again
        pending = await svc.outbox(limit=1000)
        waiting = [n for n in pending if n.kind == "prompt" and n.seat == bob]
        if waiting:
            break
        for notice in pending:
            await svc.delivered(notice.id, "x")
        choice = await play_choice(svc, info.id, HOST)
        assert choice is not None
        await svc.submit(info.id, HOST, choice)
    assert waiting
    newest = max(waiting, key=lambda notice: notice.id)
    found = await svc.next_decision(info.id, bob, newest.payload["version"])
    assert found is not None and found.notice_id == newest.id and found.payload == newest.payload
    last = max(sent)
    assert found.previous.subject is not None
    assert found.previous.subject.dm == last and found.previous.subject.payload == sent[last]


def _held_dm(delivered: list[tuple[int, str]], before_id: int | None = None) -> int | None:
    """What holds the seat's turn, by the rule itself: among the TURN_SCAN newest of the seat's
    delivered prompt notices (before ``before_id``), the newest whose ref is a message."""
    candidates = sorted((n for n in delivered if before_id is None or n[0] < before_id), reverse=True)[:TURN_SCAN]
    return next((int(ref) for _id, ref in candidates if ref.isdigit()), None)


async def _reads_agree(svc: MatchService, match_id: int, seat: int, delivered: list[tuple[int, str]]) -> int | None:
    """Every read of the seat's turn names the DM the rule names (`_held_dm`), which it returns."""
    expected = _held_dm(delivered)
    turn = await svc.seat_turn(match_id, seat)
    assert turn is not None
    assert (turn.subject.dm if turn.subject is not None else None) == expected
    every = (await svc.seat_turns(match_id))[seat]
    assert (every.subject.dm if every.subject is not None else None) == expected
    newest_id = delivered[-1][0]
    older = await svc.seat_turn(match_id, seat, before_id=newest_id)
    assert older is not None
    assert (older.subject.dm if older.subject is not None else None) == _held_dm(delivered, before_id=newest_id)
    return expected


async def test_the_dm_holding_a_turn_is_the_newest_message_among_the_newest_prompts(svc: MatchService) -> None:
    """Prompts that went into no message of their own (superseded, parked) do not hold a turn:
    the DM before them does, unless TURN_SCAN of them or more came since (then none does; the
    turn DM is that old). Every read agrees, whatever the run of prompts without a message."""
    pattern = ["message", *["superseded"] * (TURN_SCAN - 1), "message", *["parked"] * (TURN_SCAN + 1), "message"]
    info = await lobby(svc, [HOST, BOB], hours=10, rounds=len(pattern) + 2)
    bob = info.seat_of(BOB)
    assert bob is not None
    delivered: list[tuple[int, str]] = []  # (notice id, ref) of Bob's prompt notices, oldest first
    seen: list[int | None] = []  # the DM holding Bob's turn after each of them
    kinds = iter(pattern)
    while len(delivered) < len(pattern):
        for notice in await svc.outbox(limit=1000):
            kind = next(kinds, None) if notice.kind == "prompt" and notice.seat == bob else None
            if kind is None:
                await svc.delivered(notice.id, "x")
                continue
            ref = str(900 + sum(r.isdigit() for _n, r in delivered)) if kind == "message" else kind
            delivered.append((notice.id, ref))
            await svc.delivered(notice.id, ref)
            seen.append(await _reads_agree(svc, info.id, bob, delivered))
        for user in (HOST, BOB):
            choice = await play_choice(svc, info.id, user)
            if choice is not None:
                await svc.submit(info.id, user, choice)
    # each case came: a message held through TURN_SCAN - 1 prompts without one after it, then
    # the next message; none held once TURN_SCAN of them came after it; then the newest message
    assert seen[:TURN_SCAN + 1] == [900] * TURN_SCAN + [901]
    assert seen[TURN_SCAN + 1:] == [901] * (TURN_SCAN - 1) + [None, None, 902]

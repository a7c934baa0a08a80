"""A seat's turn read decodes only the prompt notice whose DM holds the turn (db/turn_queries.py
`_found`): the others among the candidates come as text. Whichever read it is (one seat, one seat
before a notice, every seat, the next decision), the turn DM it names is the newest one a
message holds, with that notice's own payload, never another candidate's."""

from __future__ import annotations

from typing import Any

from bot.service import MatchService
from db.outbox import delivered_payload
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

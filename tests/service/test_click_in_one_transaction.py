"""A click in a DM is judged and applied in one transaction (``submit``'s ``choose``): the open
prompt it is made from is the one the transaction reads, so the click costs no read before it
(issue 32: it was BEGIN and the match's rows, then the transaction reading them again). A click
not on the open prompt, or a choice refused, leaves nothing written."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import MatchService
from bot.service.play import NotPending
from bot.service.types import PendingPrompt
from db import Store
from tests.service.helpers import BOB, CAROL, HOST, lobby, recorded


async def test_a_click_judged_in_its_transaction_reads_nothing_before_it(svc: MatchService, store: Store) -> None:
    match_id = (await lobby(svc, [HOST, BOB, CAROL], hours=10)).id  # two sealed bids alike, then Carol's
    asked = await svc.pending_prompt(match_id, HOST)
    assert asked is not None
    with recorded(store) as before:  # the click as it was: the prompt read, then the submit
        pending = await svc.pending_prompt(match_id, HOST)
        assert pending is not None
        await svc.submit(match_id, HOST, {"bid": 1}, version=pending.version, interaction_id="1", message_id=900)
    bob = await svc.pending_prompt(match_id, BOB)
    assert bob is not None
    seen: list[PendingPrompt] = []

    def choose(found: PendingPrompt) -> dict[str, Any]:
        seen.append(found)
        return {"bid": 2}

    with recorded(store) as after:
        result = await svc.submit(match_id, BOB, {}, version=bob.version, interaction_id="2", message_id=901,
                                  choose=choose)
    assert [(p.seat, p.version, p.prompt.kind, p.names) for p in seen] == [(bob.seat, bob.version, "bid", bob.names)]
    assert result.seq > 0
    with recorded(store) as read:
        await svc.pending_prompt(match_id, CAROL)
    assert read, "a prompt read costs statements (BEGIN and the match's rows on SQLite)"
    assert len(after) == len(before) - len(read), (before, after)  # the same click without that read


async def test_a_click_not_on_the_open_prompt_or_refused_writes_nothing(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    pending = await svc.pending_prompt(info.id, BOB)
    assert pending is not None

    def refused(_found: PendingPrompt) -> dict[str, Any]:
        raise ValueError("not a number")

    with pytest.raises(NotPending):
        await svc.submit(info.id, BOB, {}, version=pending.version + 1, interaction_id="3", choose=lambda p: {"bid": 1})
    with pytest.raises(ValueError, match="not a number"):
        await svc.submit(info.id, BOB, {}, version=pending.version, interaction_id="4", choose=refused)
    with pytest.raises(NotPending):  # seated nowhere
        await svc.submit(info.id, 2**62 + 99, {}, version=pending.version, interaction_id="5", choose=lambda p: {"bid": 1})
    again = await svc.pending_prompt(info.id, BOB)
    assert again == pending and not again.prompt.answered, "nothing was written"


async def test_a_click_on_a_marked_dm_claims_with_no_statement_and_an_unmarked_one_with_one(
        svc: MatchService, store: Store) -> None:
    """The prompt notice a DM click may claim (its delivery not marked yet) is found by the
    transaction's first read: a click whose DM was marked, as most are, sends nothing for the
    claim; a click before the mark sends one UPDATE, and its DM then holds the seat's turn. On
    SQLite a transaction of the process that committed the match's rows last reads nothing (it
    starts from those rows: ``KeptRows``): the claim finds the notice itself, and is not sent
    when this process saw the notice marked."""
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    prompts = {n.seat: n for n in await svc.outbox(limit=1000) if n.kind == "prompt"}
    host, bob = info.seat_of(HOST), info.seat_of(BOB)
    assert host is not None and bob is not None
    await svc.delivered(prompts[host].id, "700")
    kept = store.dialect == "sqlite"
    with recorded(store) as marked:
        result = await svc.submit(info.id, HOST, {"bid": 1}, version=prompts[host].payload["version"],
                                  interaction_id="m-1", message_id=700)
    assert result.claimed is None
    claims = [s for s in marked if s.lstrip().upper().startswith("UPDATE NOTICES")]
    assert not claims, marked
    reads = [s for s in marked if s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == (0 if kept else 2), marked  # the match's rows (PostgreSQL: its lock first)
    with recorded(store) as unmarked:
        result = await svc.submit(info.id, BOB, {"bid": 1}, version=prompts[bob].payload["version"],
                                  interaction_id="m-2", message_id=701)
    assert result.claimed == prompts[bob].id
    assert len([s for s in unmarked if s.lstrip().upper().startswith("UPDATE NOTICES")]) == 1, unmarked
    assert len(unmarked) == len(marked) + 1
    turn = await svc.seat_turn(info.id, bob)
    assert turn is not None and turn.subject is not None and turn.subject.dm == 701
    turn = await svc.seat_turn(info.id, host)
    assert turn is not None and turn.subject is not None and turn.subject.dm == 700

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

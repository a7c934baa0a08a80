"""A turn DM whose next decision is already written is edited once, into that decision, not
first into its final form and a moment later into the next decision: the reconciling after a
drain leaves it to the next prompt's delivery when that prompt came after the queue was read.
Once the prompt was read (it went, or was not sent), the DM is brought up to date as before."""

from __future__ import annotations

from tests.bot.test_turn_dm import delivery_for, sealed_turn


def moved_on(newest_prompt: int | None) -> object:
    """Alice's sealed choice was revealed and her seat moved on; its newest prompt notice."""
    return sealed_turn(version=9, answered=False, secret=False, newest_prompt=newest_prompt)


async def test_the_next_prompt_written_since_the_read_writes_the_dm_alone() -> None:
    delivery, dm = delivery_for(moved_on(newest_prompt=60))  # type: ignore[arg-type]
    delivery.read_upto[7] = 55  # the worker's last read of the queue came before prompt 60
    await delivery.reconcile(7)
    assert dm.edits == [], "the DM waits for its next decision instead of flipping to its final form first"


async def test_a_next_prompt_already_read_leaves_the_dm_to_the_reconciling() -> None:
    delivery, dm = delivery_for(moved_on(newest_prompt=60))  # type: ignore[arg-type]
    delivery.read_upto[7] = 60  # prompt 60 was read: it went (or was not sent), and this DM was not it
    await delivery.reconcile(7)
    assert len(dm.edits) == 1 and "You chose" in dm.edits[0][1]["content"], "its final form, at once"


async def test_a_process_that_never_read_the_queue_brings_the_dm_up_to_date() -> None:
    delivery, dm = delivery_for(moved_on(newest_prompt=60))  # type: ignore[arg-type]
    await delivery.reconcile(7)  # e.g. just after a restart: nothing says the prompt is still to come
    assert len(dm.edits) == 1

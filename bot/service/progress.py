"""The "n of m have chosen." line of a simultaneous secret step.

A secret step is open while several seats owe sealed prompts. Its progress is news only when
the number of seats that have finished grows: a seat that answers its prompt in several
parts (levied units placed one at a time, setup placements) changes nothing anyone else
may count until its last part is in, and a new secret step that opens right after another
one closes starts again from zero without a post.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.contract import Event, Prompt


@dataclass(frozen=True)
class SecretTally:
    """Who owes a sealed prompt of the open secret step, and how many have finished."""

    seats: frozenset[int]
    done: int

    def text(self) -> str:
        return f"{self.done} of {len(self.seats)} have chosen."


def secret_tally(prompts: Iterable[Prompt]) -> SecretTally | None:
    """The open secret step's tally, or None when no secret prompt is open."""
    secret = [p for p in prompts if p.secret]
    if not secret:
        return None
    return SecretTally(seats=frozenset(p.seat for p in secret), done=sum(p.answered for p in secret))


def progress_after(reported: SecretTally | None, before: SecretTally | None, after: SecretTally | None,
                   events: Iterable[Event]) -> SecretTally | None:
    """The tally worth posting once one choice moved the game from `before` to `after`.

    `reported` is what earlier choices of the same transaction left to post. A step is the
    same step when the same seats owe it and no phase ended; only a grown count is news.
    """
    if after is None or after.done >= len(after.seats):
        return None
    same_step = before is not None and before.seats == after.seats and not any(e.phase_end for e in events)
    if not same_step or after.done < before.done:
        return None
    return after if after.done > before.done else reported

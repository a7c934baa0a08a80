"""The finishing pipeline: what a change of a match implies, written in its own transaction.

After a choice, a host command or a deadline changed a match, ``Transactions._finish`` runs the
service's finishing steps in order (MatchService builds the list in core.py), then writes the
snapshot, the version bump and the outbox. Each step is a ``FinishStep``: it reads and extends
the one ``MatchTransaction`` and nothing else, so the order is the whole contract between them:

1. the result or the prompts: a game with a result is concluded (``conclude``), else every
   seat's open prompt gets its version;
2. the deadline follows the prompts now owed (deadlines.py);
3. the notices tell the change: phase posts, private lines, new prompts (announce.py), with
   the deadline the step before set;
4. the heads-up to players whose turn came while their DMs are quiet (notify.py).

A list instead of calls from the transaction into the parts: the transaction knows no part,
and a reader sees the whole sequence in one place.
"""

from __future__ import annotations

from collections.abc import Callable

import engine as eng
from bot.service.announce import result_text
from bot.service.history import REPLAY_NOTICE
from bot.service.match_transaction import FinishStep, MatchTransaction
from bot.service.notices import ReplayNotice, ResultNotice
from bot.service.ratings import record_finish
from bot.service.wording import Wording

__all__ = ["FinishStep", "close_match", "conclude"]


def close_match(ctx: MatchTransaction, status: str) -> None:
    """End the match (finished or aborted): it frees its channel and no prompt stays open."""
    ctx.match.status = ctx.values["status"] = status
    ctx.values["open_channel"] = None
    ctx.changed = True
    for seat in ctx.seats:
        seat.prompt_version = seat.prompt_key = None


async def conclude(ctx: MatchTransaction, state: eng.State, result: eng.Result,
                   name_text: Callable[[str], str], wording: Wording) -> None:
    """The game has a result (``state``, the transaction's final state, has it): close the match,
    say so, record it for the ratings and offer the replay, in the transaction of the change
    that ended it. A game's own end, a vote for a draw and the last concession all end here."""
    close_match(ctx, "finished")
    ctx.values["result"] = result.model_dump(mode="json")
    ctx.snapshot = True
    names = ctx.names()
    ctx.notice("result", ResultNotice(
        text=result_text(ctx.game, result, [name_text(n) for n in names], wording),
        game=ctx.match.game, names=names, view=ctx.view(state, None), result=ctx.values["result"]))
    await record_finish(ctx.session, ctx.match, ctx.seats, ctx.game, state, result, ctx.now,
                        view=ctx.view(state, None))
    ctx.notice(REPLAY_NOTICE, ReplayNotice(text=f"Replay of this {ctx.game.title} match, phase by phase."))

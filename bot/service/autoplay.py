"""Autoplay: the AI plays its seats (and seats it took over) until a human owes a choice or
the game ends, inside the transaction of whatever moved the game on."""

from __future__ import annotations

from typing import Any

import engine as eng
from bot.service import thinking
from bot.service.errors import BadChoice, ServiceError
from bot.service.match_transaction import MatchTransaction
from bot.service.play import fingerprint
from bot.service.transaction import Transactions
from db.models import Seat

MAX_AI_CHOICES = 100_000
"""AI choices one transaction may make before the match counts as stuck."""


class Autoplay(Transactions):
    """Mixed into MatchService: AI turns."""

    async def recover(self) -> int:
        """At start-up: let AI seats of active matches play what they owe. Returns matches touched."""
        async with self.store.read() as session:
            ids = await self.store.active_match_ids(session)

        async def fn(ctx: MatchTransaction) -> int:
            before = ctx.match.step
            await self._settle(ctx)
            return int(ctx.match.step != before)

        return sum([await self._mutate(match_id, fn) for match_id in ids])

    @staticmethod
    def _ai_driven(seat: Seat) -> bool:
        """Played by the AI now: an AI seat, or a human seat it took over."""
        return seat.ai_policy is not None or seat.ai_takeover

    async def _policy_choice(self, ctx: MatchTransaction, seat: Seat, prompt: eng.Prompt, salt: str,
                             policy: str | None) -> dict[str, Any]:
        policies = ctx.game.policies()
        name = policy if policy in policies else "heuristic" if "heuristic" in policies else next(iter(policies), None)
        if name is None or ctx.state is None:
            return dict(prompt.default)
        rng = eng.rng_for(ctx.match.seed, ctx.match.step, f"{salt}:{seat.seat_no}")
        return await thinking.choose(ctx.game, name, policies[name], ctx.state, prompt, rng)

    async def _play(self, ctx: MatchTransaction, seat: Seat, prompt: eng.Prompt, by: str, policy: str | None) -> None:
        """An AI or deadline choice; falls back to the prompt's default if the policy errs."""
        try:
            choice = await self._policy_choice(ctx, seat, prompt, by, policy)
            await self._apply(ctx, seat.seat_no, prompt, choice, by)
        except BadChoice:
            await self._apply(ctx, seat.seat_no, prompt, dict(prompt.default), by)

    async def _settle(self, ctx: MatchTransaction) -> None:
        """Let AI-driven seats play until a human owes a choice or the game ends."""
        if ctx.state is None or ctx.match.status != "active":
            return
        answered_at: dict[tuple[int, str], int] = {}
        owed = 0
        for _ in range(MAX_AI_CHOICES):
            if ctx.game.result(ctx.state) is not None:
                break
            seats = {s.seat_no: s for s in ctx.seats}
            todo = [p for p in ctx.prompts() if not p.answered and self._ai_driven(seats[p.seat])
                    and not (p.optional and answered_at.get((p.seat, fingerprint(p))) == owed)]
            if not todo:
                break
            if todo[0].optional:
                # Not owed. The AI answers the same optional prompt again only after an owed choice
                # moved the game on; a game that keeps offering it with nothing else happening
                # leaves it open instead of looping on it.
                answered_at[(todo[0].seat, fingerprint(todo[0]))] = owed
            else:
                owed += 1
            seat = seats[todo[0].seat]
            await self._play(ctx, seat, todo[0], "ai", seat.ai_policy)
        else:
            raise ServiceError("The AI did not finish its turns; the match is stuck.")
        self._reissue(ctx, actor=None)


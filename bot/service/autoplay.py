"""Autoplay: the AI plays its seats (and seats it took over) until a human owes a choice or
the game ends.

A quick AI (the heuristic) chooses inside the transaction of whatever moved the game on. A
searching AI (a policy with ``offload = True``) thinks for up to a second, which must not hold
the match's write transaction (on SQLite, every match's writes): the transaction ends without
its choice and hands the decision to the thinkers (thinking.py), which think on the state the
transaction committed; a short transaction then applies the choice only if the match is still
at that version and the seat still owes the same prompt. A match that moved meanwhile handed
its newer decision already, so a stale choice is simply dropped. A restart finds what is owed
again (``recover``)."""

from __future__ import annotations

import logging
from typing import Any

import engine as eng
from bot.service import thinking
from bot.service.errors import BadChoice, ServiceError
from bot.service.match_transaction import MatchTransaction
from bot.service.play import fingerprint_in
from bot.service.transaction import Transactions
from db.models import Match, Seat

log = logging.getLogger(__name__)

MAX_AI_CHOICES = 100_000
"""AI choices one transaction may make before the match counts as stuck."""


class Autoplay(Transactions):
    """Mixed into MatchService: AI turns."""

    async def recover(self) -> int:
        """At start-up: let AI seats of active matches play what they owe (a searching seat's
        think starts again). Returns matches touched."""
        async with self.store.read() as session:
            ids = await self.store.active_match_ids(session)

        async def fn(ctx: MatchTransaction) -> int:
            before = ctx.match.step
            await self._settle(ctx)
            return int(ctx.match.step != before)

        return sum([await self._mutate(match_id, fn) for match_id in ids])

    async def thinking_done(self, match_id: int | None = None) -> None:
        """Return once no searching AI (of ``match_id``, or of any match) has a decision to make:
        what they owed is played (or waits for a human)."""
        await self.thinkers.idle(match_id)

    async def stop_thinking(self) -> None:
        """Stop every AI think before the store closes; a restart thinks again."""
        await self.thinkers.stop()

    @staticmethod
    def _ai_driven(seat: Seat) -> bool:
        """Played by the AI now: an AI seat, or a human seat it took over."""
        return seat.ai_policy is not None or seat.ai_takeover

    @staticmethod
    def _wanted_policy(match: Match, seat: Seat) -> str | None:
        """The policy an AI-driven seat asks for: an AI seat's own, or the match's takeover level."""
        return seat.ai_policy if seat.ai_policy is not None else match.takeover_ai

    async def _policy_choice(self, ctx: MatchTransaction, seat: Seat, prompt: eng.Prompt, salt: str,
                             policy: str | None) -> dict[str, Any]:
        policies = thinking.policies_of(ctx.game)
        name = thinking.policy_name(policies, policy)
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

    def _ai_todo(self, ctx: MatchTransaction) -> list[eng.Prompt]:
        """The prompts AI-driven seats have to answer now. An optional one (not owed) is left out
        when its seat answered it already and no owed choice moved the game on since: a game
        that keeps offering it with nothing else happening leaves it open instead of looping."""
        seats = {s.seat_no: s for s in ctx.seats}
        return [p for p in ctx.prompts() if not p.answered and self._ai_driven(seats[p.seat])
                and not (p.optional and ctx.ai_answered.get((p.seat, fingerprint_in(ctx, p))) == ctx.ai_owed)]

    def _searches(self, ctx: MatchTransaction, prompt: eng.Prompt) -> str | None:
        """The name of the policy that answers ``prompt`` if it searches (thinks outside the
        transaction), else None."""
        return thinking.searching(ctx.game, self._wanted_policy(ctx.match, ctx.seat(prompt.seat)))

    def _count_answer(self, ctx: MatchTransaction, prompt: eng.Prompt) -> None:
        if prompt.optional:
            ctx.ai_answered[(prompt.seat, fingerprint_in(ctx, prompt))] = ctx.ai_owed
        else:
            ctx.ai_owed += 1

    async def _settle(self, ctx: MatchTransaction) -> None:
        """Let AI-driven seats that choose quickly play until a human or a searching AI owes a
        choice, or the game ends. What a searching AI owes is thought about after the commit
        (``_think_owed``)."""
        ctx.settled = True
        if ctx.state is None or ctx.match.status != "active":
            return
        for _ in range(MAX_AI_CHOICES):
            if ctx.game.result(ctx.state) is not None:
                break
            quick = [p for p in self._ai_todo(ctx) if self._searches(ctx, p) is None]
            if not quick:
                break
            prompt = quick[0]
            self._count_answer(ctx, prompt)
            seat = ctx.seat(prompt.seat)
            await self._play(ctx, seat, prompt, "ai", self._wanted_policy(ctx.match, seat))
        else:
            raise ServiceError("The AI did not finish its turns; the match is stuck.")
        self._reissue(ctx, actor=None)

    def _think_owed(self, ctx: MatchTransaction) -> thinking.Think | None:
        """After a transaction's finishing steps: the decision a searching AI seat owes now, to
        think about once the transaction is committed (None: none owes one)."""
        if not (ctx.changed or ctx.settled) or ctx.state is None or ctx.match.status != "active":
            return None
        if not any(self._ai_driven(seat) and thinking.searching(ctx.game, self._wanted_policy(ctx.match, seat))
                   for seat in ctx.seats):
            return None
        for prompt in self._ai_todo(ctx):
            name = self._searches(ctx, prompt)
            if name is not None:
                return thinking.Think(
                    match_id=ctx.match_id, version=ctx.match.version, game=ctx.game.key, seat=prompt.seat,
                    policy=name, prompt=prompt, fingerprint=fingerprint_in(ctx, prompt),
                    prompt_version=ctx.seat(prompt.seat).prompt_version, state=ctx.state,
                    seed=ctx.match.seed, step=ctx.match.step)
        return None

    async def _think(self, think: thinking.Think) -> None:
        """Make a searching AI's decision outside any transaction, then apply it in a short one if
        the match is where it was (else drop it: the change that moved it handed the next one)."""
        game = eng.get(think.game)
        try:
            choice = await thinking.choose(game, think.policy, game.policies()[think.policy], think.state,
                                           think.prompt, think.rng())
        except Exception:
            log.exception("The %s AI failed on seat %s of match %s; it plays the default answer",
                          think.policy, think.seat, think.match_id)
            choice = dict(think.prompt.default)

        async def apply(ctx: MatchTransaction) -> bool:
            if ctx.match.version != think.version or ctx.state is None or ctx.match.status != "active":
                return False
            seat = ctx.seat(think.seat)
            prompt = next((p for p in ctx.prompts() if p.seat == think.seat), None)
            if (prompt is None or prompt.answered or fingerprint_in(ctx, prompt) != think.fingerprint
                    or seat.prompt_version != think.prompt_version or not self._ai_driven(seat)):
                return False
            self._count_answer(ctx, prompt)
            try:
                await self._apply(ctx, seat.seat_no, prompt, choice, "ai")
            except BadChoice:
                await self._apply(ctx, seat.seat_no, prompt, dict(prompt.default), "ai")
            await self._settle(ctx)
            return True

        await self._mutate(think.match_id, apply)

"""What one transaction tells whom: the phase posts from its public events, each seat's private
lines and new prompts, who the table still waits for, the closing line of a finished match."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import engine as eng
from bot.service import noise, phase_notices
from bot.service.match_transaction import MatchTransaction
from bot.service.notices import (
    LastToChooseNotice,
    PrivateNotice,
    ProgressNotice,
    PromptNotice,
    TurnNotice,
)
from bot.service.parts import ServiceParts
from bot.service.wording import ACT, CHAT, Wording, verdict
from db.models import Seat
from engine.text import fill

LAST_TO_CHOOSE = "Everyone else has chosen: the table waits for you."
"""Said once per secret step to the one seat still choosing (on its prompt, not as a new DM)."""


def team_verdict(game: eng.Game, winners: list[int]) -> str | None:
    """"<the team> won" / "... lost" for a cooperative game (``game.info.cooperative``, named by
    ``game.info.team``), whose Result lists every seat on a win and nobody on a loss; else None."""
    if not game.info.cooperative:
        return None
    return f"{game.info.team} {'won' if winners else 'lost'}"


def result_text(game: eng.Game, result: eng.Result, names: list[str], wording: Wording = CHAT) -> str:
    """The channel's closing line. A cooperative game (``game.info.cooperative``) is won or lost by
    the whole team: its Result lists every seat on a win and nobody on a loss."""
    reason = fill(result.reason, names).rstrip(".")
    team = team_verdict(game, result.winners)
    if team is not None:
        return wording.strong(f"The match is over. {team[:1].upper()}{team[1:]}: {reason}.")
    said = verdict(names, result.winners, result.draw)
    return f"{wording.strong(f'The match is over: {said}')} ({reason})."


class Announcements(ServiceParts):
    """Mixed into MatchService: the notices a transaction's events and prompts make."""

    async def _announce(self, ctx: MatchTransaction) -> None:
        """The finishing step (finishing.py) that tells the change, with the deadline it left."""
        deadline = await ctx.deadline()
        self._event_notices(ctx, deadline.due_at if deadline is not None else None)

    def _event_notices(self, ctx: MatchTransaction, due_at: datetime | None = None) -> None:
        """Public posts from public events, private lines and prompts to their seats."""
        private: dict[int, list[str]] = {}
        if ctx.state is not None and ctx.events:
            final = ctx.state
            names = ctx.names()
            written = self._text_names(names)
            shown = {id(e) for e in noise.channel_lines(ctx.events)}
            end_label = self._phase_label(ctx, final, written)
            opening = ctx.start_state if ctx.start_state is not None else ctx.set_up
            raw_start = "" if opening is None else ctx.phase_label(opening)
            start_label = fill(raw_start, written)
            parts = phase_notices.stretches(
                ctx.events, lambda e: fill(e.text, written) if id(e) in shown else None, start_label, end_label)
            public = phase_notices.public_notices(
                parts, ctx.match.game, names, lambda end: self._view_at(ctx, final, end), self.wording.strong,
                label_of=lambda view: fill(str(view.get("phase_label") or ""), written), start_label=raw_start)
            ctx.lead_with(public)
            for seat in ctx.seats:
                lines = [fill(e.text, written) for e in ctx.events if e.seats is not None and seat.seat_no in e.seats]
                if lines and seat.user_id is not None and not self._ai_driven(seat):
                    private[seat.seat_no] = lines
        running = ctx.state if ctx.match.status == "active" else None
        prompts = {p.seat: p for p in ctx.prompts()} if running is not None else {}
        told: Seat | None = None
        if ctx.secret_answered and prompts:
            secret = [p for p in prompts.values() if p.secret]
            line = noise.progress_line(secret, {s.seat_no: s.name for s in ctx.seats}, ctx.newly_sealed,
                                       self.name_text)
            last_seat = next((p.seat for p in secret if not p.answered), None)
            start = [] if ctx.start_state is None or line is None else ctx.prompts_of(ctx.start_state)
            if line is not None and {p.seat for p in start if p.secret and not p.answered} == {last_seat}:
                line = None  # the table already waited for that seat alone: it moved on in its own sequence
            if line is not None and last_seat is not None:
                ctx.notice("progress", ProgressNotice(
                    text=line, events=[line], label=self._phase_label(ctx, ctx.state, self._text_names(ctx.names()))))
                told = ctx.seat(last_seat)
        turn_users: list[int] = []
        before: dict[int, eng.Prompt] | None = None

        def start_prompts() -> dict[int, eng.Prompt]:
            nonlocal before
            if before is None:
                start = [] if ctx.start_state is None else ctx.prompts_of(ctx.start_state)
                before = {p.seat: p for p in start}
            return before

        phases: list[bool] = []

        def same_phase() -> bool:
            """Whether the transaction ends in the phase it started in (read once)."""
            if not phases:
                phases.append(self._phase_label(ctx, ctx.start_state, []) == self._phase_label(ctx, ctx.state, []))
            return phases[0]

        for seat in ctx.seats:
            prompt = prompts.get(seat.seat_no)
            if running is None or prompt is None or seat.user_id is None or self._ai_driven(seat):
                continue
            if seat.prompt_version == ctx.start_version.get(seat.seat_no) and seat.prompt_version is not None:
                continue
            old = start_prompts().get(seat.seat_no)
            # The seat's own next decision, a prompt that replaces one it had not answered yet, or
            # the next decision of a sealed step it answered, revealed within the same phase (a
            # fight's damage and its next round): the same DM shows it (edited in place). A
            # decision after others acted, or in another phase, is a new DM.
            in_place = (seat.seat_no == ctx.actor or (old is not None and not old.answered)
                        or (old is not None and old.secret and old.answered and same_phase()))
            due = due_at.isoformat() if due_at and not prompt.optional else None  # nothing waits for it
            ctx.notice("prompt", PromptNotice(
                text="", version=seat.prompt_version, game=ctx.match.game, title=ctx.game.title,
                names=ctx.names(), deadline=due, shared=prompt.shared, optional=prompt.optional,
                prompt=ctx.data_of(prompt), view=ctx.view(running, seat.seat_no) if prompt.secret else {},
                in_place=in_place, news=private.pop(seat.seat_no, []),
                choice=ctx.actor_choice if seat.seat_no == ctx.actor else None,
            ), user_id=seat.user_id, seat=seat.seat_no)
            if prompt.optional or seat.seat_no == ctx.actor:
                continue  # nothing waits for it, or the actor's own next prompt (one mention per turn)
            if prompt.shared and old is not None and old.shared and old.kind == prompt.kind:
                continue  # the same shared decision, re-issued after a teammate's answer: the DM is enough
            turn_users.append(seat.user_id)
        if told is not None and told.user_id is not None and not self._ai_driven(told):
            # After the prompts: the DM it edits is the seat's newest prompt.
            ctx.notice("last_to_choose", LastToChooseNotice(text=LAST_TO_CHOOSE), user_id=told.user_id,
                       seat=told.seat_no)
        for seat_no, lines in private.items():
            if seat_no == ctx.actor and ctx.private_in_reply:
                continue  # the reply to its seal shows them
            seat = ctx.seat(seat_no)
            ctx.notice("private", PrivateNotice(text=lines[-1], events=lines), user_id=seat.user_id, seat=seat_no)
        if turn_users:
            # The front-end mentions only those of them whose DMs could not reach them.
            ctx.notice("turn", TurnNotice(
                text=f"your turn: your DMs do not reach you, so use {self.wording.command(ACT)} to choose.",
                user_ids=turn_users))

    def _view_at(self, ctx: MatchTransaction, final: eng.State, event_index: int) -> dict[str, Any]:
        """The public view as the choice holding that event left it (each phase post's own map);
        ``final``, the transaction's last state, for an event after every recorded phase end."""
        for count, state in ctx.phase_states:
            if count > event_index:
                return ctx.view(state, None)
        return ctx.view(final, None)

    def _phase_label(self, ctx: MatchTransaction, state: eng.State | None, written: list[str]) -> str:
        """The heading of the phase a state is in ("Round 2 - Hero Activation")."""
        if state is None:
            return ""
        return fill(ctx.phase_label(state), written)

    def _text_names(self, names: list[str]) -> list[str]:
        """Seat names as they are written into texts (see ``name_text``)."""
        return [self.name_text(n) for n in names]


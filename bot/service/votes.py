"""Players end a match themselves: conceding a seat, and votes to end the match as a draw or abandoned.

Conceding hands the player's own seat to the AI for good (no engine supports removing a seat
mid-game, and replaying the log must stay possible), and the match counts as a loss for that
player whatever the seat does after: ratings.py ranks every conceded player below the players
still at the table when the match is recorded, the earliest to concede last. In a cooperative
game conceding means leaving the team: the AI plays the seat to the end, and a team win is no
win for the player who left. When the last human seat concedes, nobody is left to play
against, so the match ends there: the seats the AI held from the start win (a cooperative
team loses).

A vote (`/game propose draw|abandon`) asks every other human seat in DMs, like an undo's
consent; the proposer counts as yes. All yes ends the match: a draw is a finished match rated
as a draw among the players still at the table (conceded players still lose); an abandoned
match is closed, recorded in the history as abandoned and moves no rating and no stats. One
no, or the vote's time running out, ends the vote; the table is told once, in the match's
channel, and the lobby post shows the latest vote. A vote has the match's decision time, at
most VOTE_HOURS_MAX hours: a short clock on the decision being played must not cut a vote
short. One vote is open per match at a time; a vote is void when the match ends some other
way or when a player concedes meanwhile (the table it asked is no longer the table). A table
where the proposer is the only human, or an AI-only table (where the host or a server manager
proposes), needs nobody's consent: the proposal takes effect at once. Every vote stays in
``match_votes``, whatever became of it. How players are asked and answer is consents.py's,
shared with an undo's consent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from bot.service import consents, hosting
from bot.service.consents import ANSWERED as ANSWERED  # what delivery compares vote_closed with
from bot.service.consents import EXPIRED, PENDING, REFUSED, RUNNING, VOID, join_names, names_of
from bot.service.errors import BadChoice, Conflict, NoMatch, NotAllowed, NotSeated, StalePrompt
from bot.service.finishing import close_match, conclude
from bot.service.history import ABANDONED_REASON
from bot.service.lobby import ABANDONED
from bot.service.notices import LobbyNotice, LobbySeat, TimeoutNotice, VoteNotice
from bot.service.ratings import is_cooperative, picks_of
from bot.service.rows import row_id
from bot.service.transaction import Transactions
from bot.service.types import Where
from db.models import Concession, Match, MatchVote, Seat
from db.records import MatchRecord, RecordSeat
from db.vote_queries import concessions

if TYPE_CHECKING:
    from bot.service.match_transaction import MatchTransaction

DRAW, ABANDON = "draw", "abandon"
KINDS = (DRAW, ABANDON)
PASSED = "passed"
"""The status of a vote everyone said yes to (the others are consents.py's)."""
VOTE_HOURS_MAX = 24.0
"""A vote has the match's decision time, at most this long."""
DRAW_REASON = "The players agreed to a draw."
WHAT = {DRAW: "end the match as a draw", ABANDON: "abandon the match (no ratings)"}
"""What a vote proposes, as a sentence goes on after "proposes to"."""
NOUN = {DRAW: "draw", ABANDON: "abandon"}


@dataclass(frozen=True)
class VoteOutcome:
    """A vote as a front-end shows it."""

    id: int
    match_id: int
    kind: str
    status: str
    """pending | passed | refused | expired | void"""
    proposer: str
    due_at: datetime
    asked: list[str] = field(default_factory=list)
    """Names of the players still to answer (pending only)."""
    agreed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SeatToConcede:
    """What the confirmation of `/game concede` names: the match and the player's seat in it."""

    match_id: int
    seat: int
    title: str


@dataclass(frozen=True)
class ConcedeOutcome:
    match_id: int
    seat: int
    ai_name: str
    ended: bool
    """Nobody human was left, so the match ended with the concession."""


REFUSALS = consents.AnswerRefusals(
    gone="This vote is not part of that match, so nothing was done.",
    not_yours="This vote is not yours to answer: only the other players at the table when it was proposed "
              "are asked.",
    closed="This vote is closed ({why}), so nothing was done.",
    already="You already said yes to this vote; it waits for the others.",
)


def said(status: str) -> str:
    """Why a closed vote can no longer be answered, as "The vote is closed (...)" says it."""
    return {PASSED: "everyone said yes", REFUSED: "someone said no", EXPIRED: "its time ran out",
            VOID: "the match changed before everyone answered"}.get(status, status)


class VoteService(Transactions):
    """Mixed into MatchService: conceding, proposing to end a match, voting, and vote expiry."""

    # ------------------------------------------------------------------ conceding

    async def seat_to_concede(self, where: Where, user_id: int) -> SeatToConcede:
        """Check, without changing anything, that the user may concede the channel's match."""
        match_id = await self._channel_match_id(where)
        match, seats, _state, _deadline = await self._read(match_id, with_state=False)
        seat = self._own_seat(match, seats, user_id)
        return SeatToConcede(match_id, seat.seat_no, eng.get(match.game).title)

    async def concede(self, match_id: int, user_id: int, seat_no: int) -> ConcedeOutcome:
        """Hand the user's own seat ``seat_no`` to the AI for good; the match is their loss."""

        async def fn(ctx: MatchTransaction) -> Callable[[], ConcedeOutcome]:
            conceded = {c.seat_no: c for c in await self.store.concessions(ctx.session, ctx.match_id)}
            if conceded.get(seat_no) is not None and conceded[seat_no].user_id == user_id:
                raise StalePrompt("You already conceded this seat; the AI plays it now. Nothing was changed.")
            seat = self._own_seat(ctx.match, ctx.seats, user_id)
            if seat.seat_no != seat_no:
                raise NotAllowed("This button was made for another seat, so nothing was changed; "
                                 "ask to concede again.")
            name, was_host = seat.name, user_id == ctx.match.host_id
            ctx.session.add(Concession(match_id=ctx.match_id, seat_no=seat_no, user_id=user_id, name=name,
                                       conceded_at=ctx.now))
            seat.user_id = None
            seat.ai_policy = "heuristic" if "heuristic" in ctx.game.policies() else next(iter(ctx.game.policies()))
            seat.name = f"{name} (AI)"[:100]
            self.come_back(seat)
            seat.prompt_version = seat.prompt_key = None
            ctx.changed = True
            await ctx.session.flush()
            await self._void_open_vote(ctx, f"{self.name_text(name)} conceded, so the table is not the one asked")
            humans = [s for s in ctx.seats if hosting.is_human(s)]
            ending = "" if humans else " Nobody else is left at the table, so the match ends here."
            ctx.notice("timeout", TimeoutNotice(user_ids=[], text=(
                f"{self.name_text(name)} conceded: the AI plays their seat from now on, as "
                f"{self.name_text(seat.name)}, and the match counts as a loss for them.{ending}")))
            if was_host:
                hosting.hand_over(ctx, self.name_text(name), hosting.successor(ctx.seats, seat), self.wording)
            if humans:
                await self._settle(ctx)
            else:
                await self._everyone_conceded(ctx, seat_no)
            return lambda: ConcedeOutcome(ctx.match_id, seat_no, seat.name, not humans)

        return await self._mutate(match_id, fn)

    async def _everyone_conceded(self, ctx: MatchTransaction, last: int) -> None:
        """The last human seat conceded: the seats the AI held from the start win (a team loses)."""
        conceded = {c.seat_no for c in await self.store.concessions(ctx.session, ctx.match_id)}
        winners = [] if is_cooperative(ctx.game) else sorted(s.seat_no for s in ctx.seats if s.seat_no not in conceded)
        result = eng.Result(winners=winners, reason=f"[[seat:{last}]] conceded and no player was left at the table")
        assert ctx.state is not None  # a running match has a state
        await conclude(ctx, ctx.state, result, self.name_text, self.wording)

    # ------------------------------------------------------------------ proposing and voting

    async def propose(self, where: Where, user_id: int, kind: str, *, is_manager: bool = False) -> VoteOutcome:
        """Propose to end the channel's match as a draw or abandoned; the other human seats vote."""
        if kind not in KINDS:
            raise BadChoice(f"A vote ends a match as a draw or abandons it, not {kind!r}; nothing was changed.")

        async def fn(ctx: MatchTransaction) -> Callable[[], VoteOutcome]:
            if ctx.match.status == "lobby":
                raise Conflict("The match has not started, so there is nothing to end: leave the lobby instead, "
                               "or ask the host to abort it.")
            if ctx.match.status not in RUNNING:
                raise NoMatch("This match is over, so there is nothing to vote on.")
            humans = [s for s in ctx.seats if hosting.is_human(s)]
            proposer = next((s for s in humans if s.user_id == user_id), None)
            if proposer is None and humans:
                raise NotSeated("Only the players of this match can propose to end it; nothing was changed.")
            if proposer is None:
                self._need_host(ctx, user_id, is_manager)  # an AI-only table: its host or a manager decides
            if kind == DRAW and is_cooperative(ctx.game):
                raise Conflict(f"{ctx.game.title} is played together against the game, so it has no draw; "
                               "propose to abandon the match instead.")
            open_vote = await self._open_vote(ctx)
            if open_vote is not None:
                raise Conflict(f"A vote to {WHAT[open_vote.kind]} is already open (until "
                               f"{open_vote.due_at:%Y-%m-%d %H:%M} UTC); wait for it to end before proposing again.")
            name = proposer.name if proposer is not None else "The host"
            hours = min(ctx.match.deadline_hours, VOTE_HOURS_MAX)
            row = MatchVote(match_id=ctx.match_id, kind=kind, proposed_by=user_id, proposer=name[:100],
                            status=PENDING, voters=sorted(s.seat_no for s in humans if s is not proposer),
                            agreed=[], created_at=ctx.now, due_at=ctx.now + timedelta(hours=hours))
            ctx.session.add(row)
            await ctx.session.flush()
            ctx.changed = True
            if not row.voters:
                await self._pass(ctx, row)
            else:
                self._ask(ctx, row)
            return lambda: self._vote_outcome(row, ctx.seats)

        return await self._mutate(await self._channel_match_id(where), fn)

    async def answer_vote(self, match_id: int, vote_id: int, user_id: int, yes: bool) -> VoteOutcome:
        """A player asked answers; the last yes ends the match, a no ends the vote."""

        async def fn(ctx: MatchTransaction) -> Callable[[], VoteOutcome]:
            found = await ctx.session.get(MatchVote, vote_id)
            seat = consents.answering_seat(ctx, found, user_id, found.voters if found else [], said, REFUSALS)
            assert found is not None  # answering_seat refuses a missing vote
            row = found
            if ctx.match.status not in RUNNING:
                self._void(ctx, row)
            elif ctx.now >= row.due_at:
                self._end_vote(ctx, row, EXPIRED, "not everyone answered in time")
            elif not yes:
                consents.refuse(row, seat)
                self._end_vote(ctx, row, REFUSED, f"{self.name_text(seat.name)} said no")
            elif consents.agree(ctx, row, seat, row.voters):
                await self._pass(ctx, row)
            return lambda: self._vote_outcome(row, ctx.seats)

        return await self._mutate(match_id, fn)

    async def vote_closed(self, match_id: int, vote_id: int, seat: int) -> str | None:
        """Why ``seat`` can no longer answer a vote (None: it still can; ANSWERED: it did, and its
        DM already says so), read without changing anything: delivery then takes the buttons off."""
        async with self.store.read() as session:
            row = await session.get(MatchVote, vote_id)
            match = await session.get(Match, match_id)

        def moved_on(match: Match) -> str | None:
            return said(VOID) if match.status not in RUNNING else None

        return consents.why_closed(row, match, match_id, seat, self.clock(), said, moved_on)

    async def expire_votes(self, now: datetime) -> int:
        """End the votes nobody finished answering in time (the deadline tick calls it)."""
        async with self.store.read() as session:
            due = await self.store.due_votes(session, PENDING, now)

        async def expire(ctx: MatchTransaction, vote_id: int) -> int:
            row = await ctx.session.get(MatchVote, vote_id)
            if row is None or row.status != PENDING or row.due_at > now:
                return 0
            if ctx.match.status not in RUNNING:
                self._void(ctx, row)
            else:
                self._end_vote(ctx, row, EXPIRED, "not everyone answered in time")
            return 1

        return await consents.expire_all(self._mutate, due, expire)

    async def vote_trail(self, match_id: int) -> list[VoteOutcome]:
        """Every vote of the match, oldest first, whatever became of it."""
        async with self.store.read() as session:
            rows = await self.store.votes(session, match_id)
            seats = await self.store.seats(session, match_id)
        return [self._vote_outcome(row, seats) for row in rows]

    def vote_line(self, row: MatchVote | None, match: Match) -> str | None:
        """The latest vote of a running match in one line (the lobby post shows it); None: none."""
        if row is None or match.status not in RUNNING:
            return None
        who = self.name_text(row.proposer)
        if row.status == PENDING:
            if self.clock() >= row.due_at:
                return f"The vote {who} opened to {WHAT[row.kind]} has run out of time."
            return f"{who} proposes to {WHAT[row.kind]}; the players vote until {row.due_at:%Y-%m-%d %H:%M} UTC."
        return f"The vote {who} opened to {WHAT[row.kind]} ended: {said(row.status)}."

    # ------------------------------------------------------------------ internals

    async def _open_vote(self, ctx: MatchTransaction) -> MatchVote | None:
        """The match's open vote; one whose time ran out unnoticed is closed (and told) now."""
        for row in await self.store.votes(ctx.session, ctx.match_id, PENDING):
            if row.due_at > ctx.now:
                return row
            self._end_vote(ctx, row, EXPIRED, "not everyone answered in time")
        return None

    async def _void_open_vote(self, ctx: MatchTransaction, because: str) -> None:
        for row in await self.store.votes(ctx.session, ctx.match_id, PENDING):
            self._end_vote(ctx, row, VOID, because)

    def _ask(self, ctx: MatchTransaction, row: MatchVote) -> None:
        names = names_of(ctx.seats, row.voters)
        consents.ask(ctx, row.voters, (
            f"{self.name_text(row.proposer)} proposes to {WHAT[row.kind]}. Waiting for "
            f"{join_names([self.name_text(n) for n in names])} to vote (buttons in their DMs) until "
            f"{row.due_at:%Y-%m-%d %H:%M} UTC; one no ends the vote."),
            "vote", VoteNotice(vote_id=row_id(row), kind=row.kind, due=row.due_at.isoformat(), who=row.proposer))

    def _end_vote(self, ctx: MatchTransaction, row: MatchVote, status: str, because: str) -> None:
        """End a vote that did not pass, and tell the table once."""
        consents.close(ctx, row, status, f"The vote {self.name_text(row.proposer)} opened to {WHAT[row.kind]} "
                                         f"is over: {because}. The match goes on.")

    @staticmethod
    def _void(ctx: MatchTransaction, row: MatchVote) -> None:
        """The match ended some other way: the vote is void, and its end already told the table."""
        consents.decide(row, VOID, ctx.now)

    async def _pass(self, ctx: MatchTransaction, row: MatchVote) -> None:
        """Everyone said yes: the match ends as a draw, or abandoned."""
        consents.decide(row, PASSED, ctx.now)
        ctx.changed = True
        agreed = names_of(ctx.seats, row.agreed)
        who = join_names([self.name_text(n) for n in [row.proposer, *agreed]])
        assert ctx.state is not None  # a running match has a state
        if row.kind == DRAW:  # the result post says it, and the lobby post shows the result
            seats = [s.seat_no for s in ctx.seats if s.user_id == row.proposed_by] + row.agreed
            reason = f"{join_names([f'[[seat:{n}]]' for n in seats])} agreed to it" if seats else DRAW_REASON
            await conclude(ctx, ctx.state, eng.Result(winners=[], reason=reason, draw=True), self.name_text,
                           self.wording)
            return
        close_match(ctx, "aborted")
        ctx.values["result"] = {ABANDONED: True}
        line = f"{who} agreed to abandon the match: it ends here and moves no rating."
        ctx.notice("lobby", LobbyNotice(text=line, status="aborted", seats=[
            LobbySeat(seat=s.seat_no, user_id=s.user_id, name=s.name, ai=s.ai_policy) for s in ctx.seats]))
        ctx.notice("timeout", TimeoutNotice(user_ids=[], text=line))
        await record_abandoned(ctx.session, ctx.match, ctx.seats, ctx.game, ctx.state, ctx.now)


    def _own_seat(self, match: Match, seats: list[Seat], user_id: int) -> Seat:
        """The user's own human seat in a running match, or the refusal that says why not."""
        if match.status == "lobby":
            raise Conflict("The match has not started, so there is nothing to concede: leave the lobby instead.")
        if match.status not in RUNNING:
            raise StalePrompt("This match is over, so there is nothing to concede.")
        seat = next((s for s in seats if s.user_id == user_id), None)
        if seat is None or not hosting.is_human(seat):
            raise NotSeated("You have no seat in this match, so there is nothing for you to concede.")
        return seat

    def _vote_outcome(self, row: MatchVote, seats: list[Seat]) -> VoteOutcome:
        waiting = consents.still_to_answer(row, row.voters)
        return VoteOutcome(id=row_id(row), match_id=row.match_id, kind=row.kind, status=row.status,
                           proposer=row.proposer, due_at=row.due_at, asked=names_of(seats, waiting),
                           agreed=names_of(seats, row.agreed))


async def record_abandoned(session: AsyncSession, match: Match, seats: list[Seat], game: eng.Game, state: eng.State,
                           now: datetime) -> None:
    """History's record of an abandoned match: who sat where (a conceded seat under the player
    who conceded it), nobody won, nothing rated, no standing counted."""
    match_id = row_id(match)
    if await session.get(MatchRecord, match_id) is not None:
        return
    view = game.view(state, None)
    rounds = view.get("round")
    session.add(MatchRecord(match_id=match_id, guild_id=match.guild_id, game=match.game, finished_at=now,
                            rounds=rounds if isinstance(rounds, int) and not isinstance(rounds, bool) else None,
                            choices=match.step, reason=ABANDONED_REASON, rated=False))
    await session.flush()
    conceded = {c.seat_no: c for c in await concessions(session, match_id)}
    session.add_all([RecordSeat(match_id=match_id, seat_no=s.seat_no,
                                user_id=conceded[s.seat_no].user_id if s.seat_no in conceded else s.user_id,
                                name=conceded[s.seat_no].name if s.seat_no in conceded else s.name,
                                picks=picks_of(match.game, view, s.seat_no)) for s in seats])
    await session.flush()


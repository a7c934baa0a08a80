"""Play: a seat's choice through the engine into the log, the prompt versions it leaves, and
the reads a seat makes of its own prompt. The AI's turns that follow are autoplay.py's."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from bot.service.errors import BadChoice, Conflict, StalePrompt
from bot.service.match_transaction import MatchTransaction
from bot.service.rows import row_id
from bot.service.transaction import Transactions
from bot.service.types import PendingPrompt, SubmitResult
from bot.service.wording import ACT, CHAT, Wording, sentence
from db.models import Choice, Match, new_row
from engine.text import fill

SNAPSHOT_EVERY = 25
"""A snapshot every this many choices keeps loading a match to a short replay."""
CLOSED_SHARED = "Someone else answered first; this choice is closed now."
DM_REFS = "dm:"
"""A reminder notice's delivery ref when it went to DMs: ``dm:<user id>:<message id>;...``."""


def lost_shared(wording: Wording) -> str:
    """Why a shared prompt's answer came too late, while the seat still has a prompt open."""
    return f"Someone else answered first; your updated choices are in your DMs (or use {wording.command(ACT)})."


LOST_SHARED = lost_shared(CHAT)


class NotPending(Exception):  # noqa: N818 (a verdict, not a failure)
    """A click judged inside its transaction (``submit``'s ``choose``) is not on the seat's open
    prompt as the transaction found it, or the seat first comes back from the AI or time away,
    or the match was undone: nothing was written, and the click is judged by the reads it made
    before (``pending_prompt`` and the refusals around it)."""


def fingerprint(prompt: eng.Prompt, data: dict[str, Any] | None = None) -> str:
    """What identifies a prompt's content: a seat's prompt keeps its version while this stays.
    ``data``: the prompt's ``model_dump(mode="json")`` when it is made already."""
    if data is None:
        data = prompt.model_dump(mode="json")
    return hashlib.sha256(eng.canonical_json(data).encode()).hexdigest()[:32]


def fingerprint_in(ctx: MatchTransaction, prompt: eng.Prompt) -> str:
    """``fingerprint(prompt)``, worked out once per prompt object in the transaction: its seats'
    versions are given out after every step and the AI's turns ask again about the same prompts.
    Of the prompt's data as the transaction made it (``data_of``): its notice carries the same."""
    known = ctx.fingerprints.get(id(prompt))
    if known is None or known[0] is not prompt:
        known = ctx.fingerprints[id(prompt)] = (prompt, fingerprint(prompt, ctx.data_of(prompt)))
    return known[1]


def drawn_next(outbox: list[dict[str, Any]], seat: int, version: int | None) -> bool:
    """Whether the transaction's notices (``outbox``, as written) hold a prompt notice of the
    seat for its decision of ``version`` that is sealed and carries the seat's view (its
    private map, which delivery draws): ``SubmitResult.drawn_next``."""
    if version is None:
        return False
    for row in outbox:
        payload = row["payload"]
        if row["kind"] == "prompt" and row["seat"] == seat and payload.get("version") == version:
            return bool((payload.get("prompt") or {}).get("secret") and payload.get("view"))
    return False


class Play(Transactions):
    """Mixed into MatchService: choices and prompts."""

    async def submit(
        self,
        match_id: int,
        user_id: int,
        choice: dict[str, Any],
        *,
        version: int | None = None,
        interaction_id: str | None = None,
        in_guild: bool = False,
        message_id: int | None = None,
        choose: Callable[[PendingPrompt], dict[str, Any]] | None = None,
    ) -> SubmitResult:
        """Validate and apply one choice; committed before this returns. ``in_guild``: the
        answer came from the server (the act command), not a DM; ``message_id``: the DM clicked.
        ``choose``: the choice is made from the seat's open prompt of ``version`` as this
        transaction reads it (``choice`` is ignored; no read of it before): it raises NotPending
        when that is not the user's open prompt, and anything it raises leaves nothing written."""
        if interaction_id is not None and not 0 < len(interaction_id) <= 100:
            raise BadChoice("An interaction id must have 1 to 100 characters.")

        async def fn(ctx: MatchTransaction) -> Callable[[], SubmitResult]:
            if ctx.answered is not None:  # this interaction's choice was made already: its answer again
                seen = await ctx.session.get(Choice, ctx.answered)
                if seen is not None and seen.outcome is not None:
                    again = SubmitResult(**{**seen.outcome, "duplicate": True})
                    return lambda: again
            made = choice if choose is None else choose(await self._pending_in(ctx, user_id, version))
            seat = ctx.seat_of(user_id)
            if ctx.match.status == "paused":
                raise Conflict("The match is paused.")
            if ctx.match.status != "active":
                raise StalePrompt("This match is not running; this choice is no longer open.")
            prompt = next((p for p in ctx.prompts() if p.seat == seat.seat_no), None)
            if prompt is None or (version is not None and version != seat.prompt_version):
                lost = await self._lost_shared(ctx.session, ctx.match, ctx.game, seat.seat_no, version)
                raise StalePrompt((lost_shared(self.wording) if prompt is not None else CLOSED_SHARED) if lost else StalePrompt.DEFAULT)
            claimed = None
            # the prompt's DM exists even if its delivery was never marked: it holds the turn
            # (the notice it holds was found by the transaction's first read: most have none; a
            # transaction on kept rows made no read, and finds it by the claim itself)
            if message_id is not None and not in_guild and seat.prompt_version is not None:
                notice = ctx.prompt_notices.get(seat.seat_no)
                if ctx.kept and notice is not None and notice[0] == seat.prompt_version and self.store.prompt_taken(
                        ctx.match_id, notice[1]):
                    pass  # its notice was marked delivered (or claimed) in this process: none to claim
                elif ctx.kept:
                    claimed = await self.store.claim_prompt_message_of(ctx.db, ctx.match_id, user_id, str(message_id))
                elif ctx.claimable is not None and await self.store.claim_prompt_message(
                        ctx.db, ctx.claimable, str(message_id)):
                    claimed = ctx.claimable
            self.come_back(seat)  # acting ends an AI takeover and any time away
            reminded, pinged = await self._nudges_of(ctx, user_id, in_guild) if interaction_id is not None else ([], [])
            ctx.actor = seat.seat_no
            row = await self._apply(ctx, seat.seat_no, prompt, made, "player", interaction_id)
            ctx.actor_choice = row.payload
            await self._settle(ctx)
            still = next((p for p in ctx.prompts() if p.seat == seat.seat_no), None)
            locked = not (prompt.secret and still is not None and still.secret and still.answered
                          and still.kind == prompt.kind)
            private: list[str] = []
            no_next = still is None or seat.prompt_version == ctx.start_version.get(seat.seat_no)
            if interaction_id is not None and ((prompt.secret and not locked) or (no_next and not in_guild)):
                # A seal that waits for the others, or an answer after which the seat owes nothing
                # new: its own lines (the sealed total) go in the reply that shows its turn DM,
                # not in a second DM. (Its next prompt, when it has one, carries them.)
                written = self._text_names(ctx.names())
                private = [fill(e.text, written) for e in ctx.events if e.seats is not None and seat.seat_no in e.seats]
                ctx.private_in_reply = True
            result = SubmitResult(
                match_id=match_id, seat=seat.seat_no, seq=row.seq,
                version=seat.prompt_version if still is not None else None,
                revision=prompt.answered, locked=locked, finished=ctx.match.status == "finished",
                events=[e.text for e in ctx.events if e.visible_to(seat.seat_no)], private=private,
                reminders=reminded, pings=pinged, claimed=claimed,
            )
            row.outcome = {k: v for k, v in result.__dict__.items() if k not in ("duplicate", "drawn_next")}
            # after the commit, from the notices the transaction wrote (its finishing steps wrote them)
            return lambda: dataclasses.replace(result, drawn_next=drawn_next(ctx.outbox, seat.seat_no, result.version))

        return await self._mutate(match_id, fn, interaction_id=interaction_id,
                                  claim_user=user_id if message_id is not None and not in_guild else None)

    async def pending_prompt(self, match_id: int, user_id: int) -> PendingPrompt | None:
        """The seat's open prompt (an answered secret one may still be revised).

        Asking is coming back: it ends an AI takeover of the seat (the act command)."""
        match, seats, state, deadline = await self._read(match_id)
        seat = self._seat_of(seats, user_id)
        if seat.ai_takeover or seat.missed or seat.away_until is not None:
            async def clear(ctx: MatchTransaction) -> None:
                row = ctx.seat_of(user_id)
                if row.ai_takeover or row.missed or row.away_until is not None:
                    self.come_back(row)
                    ctx.changed = True

            await self._mutate(match_id, clear)
            match, seats, state, deadline = await self._read(match_id)
            seat = self._seat_of(seats, user_id)
        if state is None or match.status not in ("active", "paused"):
            return None
        game = eng.get(match.game)
        prompt = next((p for p in self._prompts_of(match_id, game, state) if p.seat == seat.seat_no), None)
        if prompt is None or seat.prompt_version is None:
            return None
        return PendingPrompt(
            match_id=match_id, seat=seat.seat_no, version=seat.prompt_version, prompt=prompt,
            deadline=deadline.due_at if deadline else None,
            names=[s.name for s in sorted(seats, key=lambda s: s.seat_no)], undo_mark=match.undo_mark,
        )

    async def _pending_in(self, ctx: MatchTransaction, user_id: int, version: int | None) -> PendingPrompt:
        """``pending_prompt`` inside a transaction, for a click on the prompt of ``version``:
        NotPending unless it is the user's open prompt of that version, its seat played by
        the player (``pending_prompt`` brings a seat back first) and the match never undone
        (an undone match's older prompt DMs are retired: ``prompt_retired``)."""
        seat = next((s for s in ctx.seats if s.user_id == user_id), None)
        if (seat is None or seat.ai_takeover or seat.missed or seat.away_until is not None
                or ctx.match.undo_mark is not None or ctx.state is None):
            raise NotPending
        prompt = next((p for p in ctx.prompts() if p.seat == seat.seat_no), None)
        if prompt is None or seat.prompt_version is None or seat.prompt_version != version:
            raise NotPending
        deadline = await ctx.deadline()
        return PendingPrompt(
            match_id=ctx.match_id, seat=seat.seat_no, version=seat.prompt_version, prompt=prompt,
            deadline=deadline.due_at if deadline else None,
            names=ctx.names(), undo_mark=ctx.match.undo_mark,
        )

    async def stale_reason(self, match_id: int, seat: int, version: int) -> str | None:
        """Why a seat's prompt of ``version`` is no longer open, when that is worth saying: its
        shared decision was taken by someone else first. None: the game simply moved on."""
        async with self.store.read() as session:
            match = await session.get(Match, match_id)
            if match is None or match.status not in ("active", "paused"):
                return None
            seats = await self.store.seats(session, match_id)
            row = next((s for s in seats if s.seat_no == seat), None)
            game = eng.get(match.game)
            if row is None or not await self._lost_shared(session, match, game, seat, version):
                return None
            return lost_shared(self.wording) if row.prompt_version is not None else CLOSED_SHARED

    async def _apply(
        self, ctx: MatchTransaction, seat_no: int, prompt: eng.Prompt, choice: dict[str, Any], by: str,
        interaction_id: str | None = None,
    ) -> Choice:
        """Run one choice through the engine and append it to the log."""
        assert ctx.state is not None
        try:
            clean = json.loads(eng.canonical_json(choice))  # exactly what the log will replay
        except (TypeError, ValueError):
            raise BadChoice("A choice must be plain JSON data.") from None
        if not isinstance(clean, dict):
            raise BadChoice("A choice must be a set of named fields.")
        try:
            step = ctx.step(seat_no, clean)
        except eng.IllegalChoice as exc:
            raise BadChoice(sentence(str(exc))) from None
        seq = ctx.match.step + 1
        public = [e.text for e in step.events if e.seats is None]
        seat = next(s for s in ctx.seats if s.seat_no == seat_no)
        # a player's first answer of a decision they owed: how long it took goes to their stats
        opened = seat.prompt_opened_at if by == "player" and not prompt.answered and not prompt.optional else None
        row = new_row(
            Choice, id=None, match_id=ctx.match_id, seq=seq, seat=seat_no, kind=prompt.kind, by=by,
            payload=clean, public=public, outcome=None,
            interaction_id=interaction_id, created_at=ctx.now, user_id=seat.user_id,
            waited=None if opened is None else max((ctx.now - opened).total_seconds(), 0.0),
        )
        ctx.rows.append(row)  # never in a session: written with the others as the transaction ends
        ctx.state = step.state
        ctx.match.step = ctx.values["step"] = seq
        ctx.events.extend(step.events)
        if any(e.phase_end for e in step.events):
            ctx.phase_states.append((len(ctx.events), step.state))
            ctx.hold()  # its phase post's map: the next step must not change it
        ctx.changed = True
        ctx.secret_answered = ctx.secret_answered or prompt.secret
        ctx.newly_sealed = ctx.newly_sealed or (prompt.secret and not prompt.answered)
        if seq % SNAPSHOT_EVERY == 0:
            await self.store.save_snapshot(ctx.db, ctx.match_id, seq, ctx.state, ctx.now)
        self._reissue(ctx, actor=seat_no)
        return row

    async def _lost_shared(
        self, session: AsyncSession, match: Match, game: eng.Game, seat_no: int, version: int | None,
    ) -> bool:
        """Whether the seat's prompt of ``version`` was shared and another seat answered first
        (the first choice after it is someone else's). Replays from the nearest kept snapshot (the store keeps the newest two) or from setup."""
        if version is None or not 0 <= version < match.step:
            return False
        first = await self.store.first_seat_after(session, row_id(match), version)
        if first is None or first == seat_no:
            return False
        state = await self.store.load_state(session, match, upto=version)
        old = next((p for p in game.prompts(state) if p.seat == seat_no), None)
        return old is not None and old.shared

    def _reissue(self, ctx: MatchTransaction, actor: int | None) -> None:
        """Give each seat's open prompt its version: unchanged prompts keep theirs."""
        by_seat = {p.seat: p for p in ctx.prompts()}
        for seat in ctx.seats:
            prompt = by_seat.get(seat.seat_no)
            # a row's attribute set costs (SQLModel, the ORM's change record): only changes are set
            if prompt is None:
                if seat.prompt_version is not None or seat.prompt_key is not None or seat.prompt_opened_at is not None:
                    seat.prompt_version = seat.prompt_key = seat.prompt_opened_at = None
                continue
            key = fingerprint_in(ctx, prompt)  # the same prompt object as at an earlier reissue: known
            if seat.seat_no == actor:
                # A sealed choice being revised, or an optional prompt passed on that stays open
                # (a skill usable on another seat's turn): the same DM stays live, nothing is sent again.
                keep = (prompt.secret or prompt.optional) and prompt.answered and seat.prompt_version is not None
            else:
                keep = seat.prompt_key == key and seat.prompt_version is not None
            if not keep:
                seat.prompt_version = ctx.match.step
                seat.prompt_opened_at = ctx.now  # a player's answer time counts from here
            if seat.prompt_key != key:
                seat.prompt_key = key

    async def _nudges_of(self, ctx: MatchTransaction, user_id: int, in_guild: bool) -> tuple[list[int], list[int]]:
        """The reminder DMs and the channel "your turn" mention this user got while the match
        waited for this answer: front-ends take them back once it is given (a "still waits for
        you" left standing would be untrue). A mention happens only for closed DMs, whose player
        answers in the server (``in_guild``); reminders only after a reminder time."""
        deadline = await ctx.deadline()
        reminded = deadline is not None and (deadline.reminded_50 or deadline.reminded_90)
        if deadline is None or not (reminded or in_guild):
            return [], []
        dms: list[int] = []
        pings: list[int] = []
        for kind, ref, payload in await self.store.delivered_since(ctx.db, ctx.match_id, ("reminder", "turn"),
                                                                  deadline.started_at):
            ref = str(ref)
            if kind == "turn" and ref.isdigit() and user_id in [int(u) for u in payload.get("user_ids", [])]:
                pings.append(int(ref))
            for part in ref.removeprefix(DM_REFS).split(";") if ref.startswith(DM_REFS) else []:
                user, _, message = part.partition(":")
                if user == str(user_id) and message.isdigit():
                    dms.append(int(message))
        return dms, pings


"""The match transaction: the one unit of work every change of a match runs in.

``_mutate(match_id, fn)`` holds the match's asyncio lock (one writer per match in this
process), opens one database transaction, locks the match row (BEGIN IMMEDIATE on SQLite, FOR
UPDATE elsewhere), loads seats and state into a ``MatchTransaction`` and runs ``fn`` on it.
``_finish`` then runs the service's finishing pipeline (finishing.py: the result or the
prompts, the deadline, the notices) and writes in the same transaction a snapshot, the outbox
and the version bump that fails with VersionConflict if another process changed the match
meanwhile; the whole unit is then retried.
So a choice, the AI turns it triggers, the new prompt versions, the deadline and the outbox
notices are committed together: a crash leaves either all or nothing. The one thing never done
inside is a searching AI's think: a decision one owes is handed to the thinkers after the commit
(autoplay.py, thinking.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, overload

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

import engine as eng
from bot.service.errors import NoMatch
from bot.service.match_transaction import MatchTransaction
from bot.service.memory import RecentStates
from bot.service.parts import ServiceParts
from bot.service.rows import row_id
from db.kept_rows import KeptRows, kept_rows
from db.lean import RowsWrite
from db.models import Deadline, Match, Seat
from db.prepared import Reader
from db.state_reads import snapshot_at
from db.store import VersionConflict

T = TypeVar("T")


class _Unsure(Exception):  # noqa: N818 (a verdict, not a failure)
    """A transaction on kept rows ended without writing (or raised): nothing checked that those
    rows were the database's, so it is run again on rows read."""


class Transactions(ServiceParts):
    """The match transaction and the reads beside it: the base of every part of MatchService
    that changes or reads a match (the steps it calls in other parts are ServiceParts')."""

    _rows: RecentStates[KeptRows]
    """Each match's rows as this process last committed them (``KeptRows``, see ``_mutate``)."""

    @overload
    async def _mutate(self, match_id: int, fn: Callable[[MatchTransaction], Awaitable[Callable[[], T]]],
                      retries: int = 8, *, interaction_id: str | None = None,
                      claim_user: int | None = None) -> T: ...

    @overload
    async def _mutate(self, match_id: int, fn: Callable[[MatchTransaction], Awaitable[T]],
                      retries: int = 8, *, interaction_id: str | None = None,
                      claim_user: int | None = None) -> T: ...

    async def _mutate(self, match_id: int, fn: Callable[[MatchTransaction], Awaitable[T | Callable[[], T]]],
                      retries: int = 8, *, interaction_id: str | None = None,
                      claim_user: int | None = None) -> T:
        """Run ``fn`` in one transaction on the match, retried whole on a version conflict.
        A callable ``fn`` returns is called after the commit, so it shows the new version (the
        first overload: ``_mutate`` returns what that callable returns). With ``interaction_id``
        the choice that interaction already made is looked up with the match's rows
        (``MatchTransaction.answered``); with ``claim_user``, the prompt notice that user's seat
        may claim (``MatchTransaction.claimable``)."""
        async with self._locks.hold(match_id):
            attempt = 0
            while True:
                kept = self._kept_rows(match_id, interaction_id)
                try:
                    async with self.store.rows_write() as unit:
                        if kept is not None and isinstance(unit.db, Connection):
                            match, seats, deadline = kept.held()
                            ctx = await self._context(unit, match, seats, deadline)
                            ctx.kept, ctx.side = True, kept.side
                            ctx.prompt_notices = {seat: (version, key) for seat, version, key in kept.prompts}
                        else:
                            kept = None
                            rows = await self.store.lock_match_rows(unit.db, match_id, interaction_id, claim_user)
                            if rows is None:
                                raise NoMatch(f"There is no match {match_id}.")
                            match, seats, deadline, answered, claimable = rows
                            ctx = await self._context(unit, match, seats, deadline)
                            ctx.answered, ctx.claimable, ctx.side = answered, claimable, match.side_version
                        try:
                            out = await fn(ctx)
                            await self._finish(ctx)
                        except VersionConflict:
                            raise
                        except Exception as error:
                            if kept is not None:  # judged on rows not read: judged again on rows read
                                raise _Unsure from error
                            raise
                        if kept is not None and not ctx.changed:
                            raise _Unsure  # nothing written, so nothing checked the rows it judged by
                        think = self._think_owed(ctx)
                    self.store.committed(ctx.outbox)  # committed: no retry writes their keys anew
                    if callable(out):
                        out = out()
                    self._keep_rows(ctx, kept, interaction_id)
                    # the transaction is over: nothing holds it now (its unit's hook held it in a
                    # cycle, alive till the collector's next pass), so its rows kept are held by
                    # nothing else either, and the next transaction takes them (KeptRows.held)
                    ctx.unit.on_session = None
                    if ctx.state is not None:
                        self._cache.put(match_id, ctx.match.version, ctx.state)
                        self._views.put(match_id, ctx.state, ctx.views_of(ctx.state))
                        self._keep_prompts(match_id, ctx.state, ctx.prompts_built(ctx.state))
                    if think is not None:
                        self.thinkers.hand(think)
                    return out
                except _Unsure:
                    self._rows.pop(match_id)
                except (VersionConflict, IntegrityError):
                    self._forget(match_id)
                    if kept is not None:  # the kept rows were not the database's: read them
                        continue
                    attempt += 1
                    if attempt == retries:
                        raise
                    await asyncio.sleep(0.005 * attempt)
                except BaseException:
                    self._forget(match_id)
                    raise

    def _forget(self, match_id: int) -> None:
        """Drop what this process keeps of the match (its state, views and rows)."""
        self._cache.pop(match_id)
        self._views.pop(match_id)
        self._prompts.pop(match_id)
        self._rows.pop(match_id)

    def _keep_prompts(self, match_id: int, state: eng.State, prompts: tuple[eng.Prompt, ...] | None) -> None:
        """Keep the game's prompts of the match's latest state (None: none were built of it)."""
        if prompts is None:
            self._prompts.pop(match_id)
        else:
            self._prompts.put(match_id, state, prompts)

    def _public_view(self, match_id: int, game: eng.Game, state: eng.State) -> dict[str, Any]:
        """``game.view(state, None)`` of the match's state, from the views the transaction that
        left it built (``KeptViews``: its phase labels and posts most often built it), else built
        and kept for the next asker while it is the match's latest (each status board and
        lobby post of the match asks), from its prompts when they are kept (``KeptPrompts``).
        Callers must not change the view."""
        view = self._views.of(match_id, state).get(None)
        if view is None:
            view = eng.view(game, state, None, self._prompts.of(match_id, state))
            self._views.add(match_id, state, None, view)
        return view

    def _prompts_of(self, match_id: int, game: eng.Game, state: eng.State) -> list[eng.Prompt]:
        """``game.prompts(state)`` of the match's state, kept for the next asker while it is the
        match's latest (``KeptPrompts``: a turn DM's every read asks for them). Callers must
        not change the prompts."""
        found = self._prompts.of(match_id, state)
        if found is None:
            found = tuple(game.prompts(state))
            self._prompts.put(match_id, state, found)
        return list(found)

    def _kept_rows(self, match_id: int, interaction_id: str | None) -> KeptRows | None:
        """The match's rows as this process last committed them, when a transaction may start
        from them: SQLite's write transactions only (a process's writes queue there, on one
        connection holding the database's write lock from BEGIN; PostgreSQL's transactions lock
        the match row by a read anyway, and its database counts no other writes: migration
        0018), and not for an interaction those rows' transactions
        answered (its earlier answer is found by the read)."""
        if self.store.writer is None:
            return None
        kept = self._rows.get(match_id)
        if kept is None or (interaction_id is not None and interaction_id in kept[1].interactions):
            return None
        return kept[1]

    def _keep_rows(self, ctx: MatchTransaction, kept: KeptRows | None, interaction_id: str | None) -> None:
        """Keep the rows the transaction committed, with the ``side_version`` it left, when that
        is known: not after a session (its flush may have written rows the count missed)."""
        if self.store.writer is None or ctx.side is None or ctx.unit.made is not None:
            self._rows.pop(ctx.match_id)
            return
        answered = kept.interactions if kept is not None else ()
        if interaction_id is not None and ctx.changed:
            answered = (*answered, interaction_id)
        rows = kept_rows(ctx.match, ctx.seats, ctx.deadline_row, ctx.side, answered, ctx.prompt_notices)
        if rows is None:
            self._rows.pop(ctx.match_id)
        else:
            self._rows.put(ctx.match_id, ctx.match.version, rows)

    async def _context(self, unit: RowsWrite, match: Match, seats: list[Seat],
                       deadline: Deadline | None) -> MatchTransaction:
        """The transaction over the rows read with the match (its deadline included, so no
        step of the change asks for it again)."""
        game = eng.get(match.game)
        state = await self._state(unit.db, match, game)
        ctx = MatchTransaction(unit, match, seats, game, state, self.clock())
        ctx.deadline_is(deadline)
        if state is not None:
            ctx.known_views(state, self._views.of(row_id(match), state))
            ctx.start_prompts = self._prompts.of(row_id(match), state)
        ctx.start_version = {s.seat_no: s.prompt_version for s in seats}
        ctx.start_match_version = match.version
        ctx.start_state = state
        return ctx

    def _known_state(self, match: Match) -> tuple[bool, eng.State | None]:
        """(True, the match's state at its version) when that needs no read: a lobby has none,
        and the cache may hold it; (False, None) when it must be read (``_state``)."""
        if match.status == "lobby":
            return True, None
        cached = self._cache.get(row_id(match))
        if cached is not None and cached[0] == match.version:
            return True, cached[1]
        return False, None

    async def _state(self, session: Reader, match: Match, game: eng.Game) -> eng.State | None:
        """The match's state at its version: from the cache when current, else replayed (in a
        session, or on a connection without one: db/lean.py)."""
        known, state = self._known_state(match)
        if known:
            return state
        if match.status == "aborted" and await self._unset(session, row_id(match)):
            return None  # closed in its lobby: it was never set up (a start writes the first snapshot)
        return await self.store.load_state(session, match)

    async def _unset(self, session: Reader, match_id: int) -> bool:
        """Whether the match has no snapshot (it was never set up)."""
        if isinstance(session, Connection):
            return await snapshot_at(session, match_id, None) is None
        return await self.store.latest_snapshot(session, match_id) is None

    async def _read(
        self, match_id: int, with_state: bool = True
    ) -> tuple[Match, list[Seat], eng.State | None, Deadline | None]:
        """A match as committed, outside any transaction of ours, read without a session
        (db/lean.py): one statement and no BEGIN when its state is in memory (or not asked
        for); else the rows again and the state from the store, in one transaction (the state
        must be the one of the rows read)."""
        async with self.store.read_once() as session:
            rows = await self.store.match_rows(session, match_id)
        if rows is None:
            raise NoMatch(f"There is no match {match_id}.")
        match, seats, deadline = rows
        known, state = self._known_state(match) if with_state else (True, None)
        if known:
            return match, seats, state, deadline
        async with self.store.lean_read() as session:
            rows = await self.store.match_rows(session, match_id)
            if rows is None:
                raise NoMatch(f"There is no match {match_id}.")
            match, seats, deadline = rows
            state = await self._state(session, match, eng.get(match.game))
        if state is not None:
            self._cache.put(match_id, match.version, state)
        return match, seats, state, deadline

    async def _finish(self, ctx: MatchTransaction) -> None:
        """Run the finishing steps (``self.finishing``, in order) and write what they left: the
        snapshot, the version bump and the outbox, all in the caller's transaction."""
        if not ctx.changed:
            return
        for step in self.finishing:
            await step(ctx)
        if ctx.snapshot and ctx.state is not None:
            await self.store.save_snapshot(ctx.db, ctx.match_id, ctx.match.step, ctx.state, ctx.now)
        new_version = ctx.match.version + 1
        outbox = [
            {"match_id": ctx.match_id, "key": f"v{new_version}:{n}:{outgoing.kind}", "kind": outgoing.kind,
             "channel_id": ctx.match.channel_id, "user_id": outgoing.user_id, "seat": outgoing.seat,
             "payload": dict(outgoing.payload), "created_at": ctx.now, "delivered_at": None,
             "delivery_ref": None, "parked_reason": None}
            for n, outgoing in enumerate(ctx.notices)
        ]
        for n, outgoing in enumerate(ctx.notices):
            version = outgoing.payload.get("version") if outgoing.kind == "prompt" else None
            if outgoing.seat is not None and isinstance(version, int):
                ctx.prompt_notices[outgoing.seat] = (version, f"v{new_version}:{n}:prompt")
        # the bump first: its one UPDATE carries the match's pending changes, which a flush
        # before it would have sent as an UPDATE of their own; on kept rows it checks that no
        # other write came since (``side_version``, which it sets to 0)
        await self.store.bump(ctx.db, ctx.match, ctx.now, side=ctx.side if ctx.kept else None, **ctx.values)
        ctx.bumped = True
        # the seats, the deadline and the new choices through Core; the flush writes what is left
        # (most changes leave nothing: then no flush, whose call alone is a trip into SQLAlchemy;
        # most transactions on SQLite have no session at all)
        ctx.side = await self.store.write_changes(ctx.db, [*ctx.seats, ctx.deadline_row, *ctx.rows], ctx.added,
                                                  ctx.deleted)
        ctx.added.clear()
        ctx.deleted.clear()
        session = ctx.unit.made
        if session is not None and not session.sync_session._is_clean():
            await session.flush()
            ctx.side = None  # what it wrote was not counted here
        # after the flush: notice rows the change added itself (markers) keep their place before these
        await self.store.add_notices(ctx.db, outbox)
        ctx.outbox = outbox

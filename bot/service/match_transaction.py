"""What one transaction on one match works with: its session, rows, state and what the change
queues (events, notices, choice rows). Run by ``Transactions._mutate`` (transaction.py); apart
from it so that ServiceParts (parts.py), which every part's steps are typed against, can name it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from bot.service import notices
from bot.service.errors import NoMatch, NotSeated
from bot.service.notices import Outgoing, Payload
from bot.service.rows import row_id
from db.lean import RowsWrite
from db.models import Choice, Deadline, Match, Seat
from db.prepared import Reader
from db.store import VersionConflict
from engine.clone import copy_data, trusted

KEPT_VIEWS = 8
"""Views a transaction keeps (the latest asked for): a change asks again about its first and last
states and its seats' views; an all-AI run through hundreds of states must not keep them all
(holding them all made a long all-AI start slower, not faster)."""
KEPT_PROMPT_DATA = 16
"""Prompts' JSON data a transaction keeps (the latest made): its last state's prompts, whose
notices carry them, are among the last fingerprinted."""


@dataclass
class MatchTransaction:
    """Everything one transaction on one match works with. Its rows (the match, the seats, the
    deadline, the new choices) are held outside any session on SQLite (db/lean.py ``RowsWrite``):
    their changes are written through Core when the transaction finishes, and a session is made
    only for a step that asks for ``session``."""

    unit: RowsWrite
    match: Match
    seats: list[Seat]
    game: eng.Game
    state: eng.State | None
    now: datetime
    start_version: dict[int, int | None] = field(default_factory=dict)
    start_state: eng.State | None = None
    changed: bool = False
    events: list[eng.Event] = field(default_factory=list)
    notices: list[Outgoing] = field(default_factory=list)
    outbox: list[dict[str, Any]] = field(default_factory=list)
    """The notices' rows as the transaction writes them (``_finish``): once it committed, their
    payloads spare the delivery's read decoding them (``Store.committed``)."""
    secret_answered: bool = False
    newly_sealed: bool = False
    """A secret prompt was answered for the first time (not revised) in this transaction."""
    rows: list[Choice] = field(default_factory=list)
    """The choices this transaction logs, in order: kept out of any session (a session made for
    a step would insert them one statement each at its first read, before the transaction's
    last changes to them, such as a player's outcome), all written by one INSERT as the
    transaction finishes (``Store.write_changes``). A step's reads of the log through a session
    find the choices of earlier transactions only: none reads it after this one logged some."""
    snapshot: bool = False
    values: dict[str, Any] = field(default_factory=dict)
    actor: int | None = None
    """The seat whose own choice this transaction applies (None: AI, deadline, admin)."""
    actor_choice: dict[str, Any] | None = None
    """That choice, so the seat's next prompt can say what it answered."""
    phase_states: list[tuple[int, eng.State]] = field(default_factory=list)
    """(events so far, state) after each choice that ended a phase: each phase post gets its map."""
    set_up: eng.State | None = None
    """The state a match's start set up: where the story of the start transaction begins (it
    has no state before it), so its first post is headed with the first phase."""
    private_in_reply: bool = False
    """The actor's own private lines are in its interaction's reply (a seal still waiting)."""
    answered: int | None = None
    """The id of the choice the transaction's interaction already made (see ``_mutate``), if any."""
    claimable: int | None = None
    """The id of the prompt notice the clicking user's seat may claim (see ``_mutate``), if any."""
    kept: bool = False
    """The transaction runs on the rows this process last committed (``KeptRows``), not read:
    ``answered`` is None (the interaction is not one those rows' transactions answered) and
    ``claimable`` unknown (a claim is sent without knowing there is a notice to claim)."""
    side: int | None = None
    """The match's ``side_version`` once this transaction commits, when known (``KeptRows``)."""
    prompt_notices: dict[int, tuple[int, str]] = field(default_factory=dict)
    """Seat -> (prompt version, notice key) of the prompt notice written for its open prompt by
    this process (kept with the rows, ``KeptRows.prompts``; this transaction's own added)."""
    bumped: bool = False
    """The match's version was bumped in this transaction (``Store.bump``, which checks it)."""
    start_match_version: int = 0
    """The match's version as the transaction started."""
    deadline_row: Deadline | None = None
    deadline_read: bool = False
    settled: bool = False
    """The AI's turns were settled in this transaction (autoplay.py): what a searching AI owes
    after it is handed to the thinkers even when nothing changed (the start-up's recovery)."""
    ai_answered: dict[tuple[int, str], int] = field(default_factory=dict)
    """(seat, prompt fingerprint) of optional prompts the AI answered -> ``ai_owed`` then."""
    ai_owed: int = 0
    """Owed choices the AI made in this transaction."""
    built_prompts: dict[int, tuple[eng.State, tuple[eng.Prompt, ...]]] = field(default_factory=dict, repr=False)
    """The game's prompts of the states asked about in this transaction, by state object (see
    ``prompts_of``), but ``start_state``'s."""
    start_prompts: tuple[eng.Prompt, ...] | None = field(default=None, repr=False)
    """The game's prompts of ``start_state`` (None: not built yet), often built by the
    transaction before (memory.py ``KeptPrompts``)."""
    fingerprints: dict[int, tuple[eng.Prompt, str]] = field(default_factory=dict, repr=False)
    """Prompts fingerprinted in this transaction, by object (play.py's ``_reissue``): a state's
    prompts are built once, and its seats' versions are given out up to three times a change."""
    prompt_data: dict[int, tuple[eng.Prompt, dict[str, Any]]] = field(default_factory=dict, repr=False)
    """Prompts' JSON data made in this transaction, by object (see ``data_of``)."""
    views: dict[tuple[int, int | None], tuple[eng.State, dict[str, Any]]] = field(default_factory=dict, repr=False)
    """Views built in this transaction, by (state object, seat): see ``view``."""
    working: eng.Working | None = field(default=None, repr=False)
    """The run of steps ``step`` applies in place: its state is ``state`` while no one else
    holds that (None: the next step copies ``state``)."""
    fresh_events: list[eng.Event] = field(default_factory=list, repr=False)
    """The events of the last step, whose data may still hold lists of its state (``step``)."""

    added: list[Any] = field(default_factory=list)
    """Rows of other tables than the choices' added outside a session (``add``): inserted as the
    transaction finishes."""
    deleted: list[Any] = field(default_factory=list)
    """Loaded rows deleted outside a session (``delete``): deleted as the transaction finishes."""

    def __post_init__(self) -> None:
        self.unit.on_session = self._took_session

    @property
    def session(self) -> AsyncSession:
        """The transaction's session (made now, in the same transaction, if it has none yet):
        for the steps that work with ORM rows of their own. The transaction's own statements go
        to ``db``."""
        return self.unit.session()

    @property
    def db(self) -> Reader:
        """Where the transaction's statements run (its connection, or its session)."""
        return self.unit.db

    def _took_session(self, session: AsyncSession) -> None:
        """A session was made in the middle of the transaction: it takes the rows the
        transaction holds, as loaded ones with their changes (and the rows added or deleted so
        far), so its reads find them and its flush sees one object a row; the new choices stay
        out of it (``rows``)."""
        sync = session.sync_session
        if self.kept:
            event.listen(sync, "before_flush", self._kept_still, once=True)
        for row in [self.match, *self.seats, *([self.deadline_row] if self.deadline_row is not None else [])]:
            sync.add(row)
        for row in self.added:
            sync.add(row)
        for row in self.deleted:
            sync.add(row)
            sync.delete(row)
        self.added.clear()
        self.deleted.clear()

    def _kept_still(self, session: Session, _context: Any, _instances: Any) -> None:
        """Before a session's first flush in a transaction on kept rows: what it writes of the
        match's rows counts in ``side_version`` too (migration 0018), and the bump could then no
        longer tell those writes from another writer's. So the kept rows are checked against the
        database first, by one read (VersionConflict: they are not its, and the transaction runs
        again on rows read); from then on the transaction is one on rows read. After the bump
        (which checked them) nothing is to check."""
        if not self.kept or self.bumped:
            return
        found = session.connection().execute(
            sa.select(col(Match.version), col(Match.side_version)).where(col(Match.id) == self.match_id)).first()
        if found is None or tuple(found) != (self.start_match_version, self.side):
            raise VersionConflict(f"match {self.match_id} changed since its rows were kept")
        self.kept = False

    def add(self, row: Any) -> None:
        """Add a new row (not a choice: those go to ``rows``) to the transaction."""
        session = self.unit.made
        if session is not None:
            session.add(row)
        else:
            self.added.append(row)

    async def delete(self, row: Any) -> None:
        """Delete a loaded row (or forget one added in this transaction)."""
        session = self.unit.made
        if session is not None:
            await session.delete(row)
        elif row in self.added:
            self.added.remove(row)
        else:
            self.deleted.append(row)

    async def deadline(self) -> Deadline | None:
        """The match's deadline, read once per transaction. Holding the row matters too: the
        session's identity map keeps unchanged rows only weakly, so each `session.get` after
        the row was dropped sent its SELECT again (three a submit)."""
        row = self.deadline_row
        session = self.unit.made
        if self.deadline_read and (row is None or not (
                row in self.deleted or (session is not None and row in session.deleted) or sa_inspect(row).was_deleted)):
            return row
        self.deadline_row = await self.session.get(Deadline, self.match_id)
        self.deadline_read = True
        return self.deadline_row

    def deadline_is(self, row: Deadline | None) -> None:
        """The deadline was added or deleted in this transaction."""
        self.deadline_row, self.deadline_read = row, True

    @property
    def match_id(self) -> int:
        """The match's id (its row is always a stored one here)."""
        return row_id(self.match)

    def names(self) -> list[str]:
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat_no)]

    def seat(self, seat_no: int) -> Seat:
        for seat in self.seats:
            if seat.seat_no == seat_no:
                return seat
        raise NoMatch(f"seat {seat_no} does not exist")

    def seat_of(self, user_id: int) -> Seat:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        raise NotSeated("You have no seat in this match.")

    def step(self, seat: int, choice: dict[str, Any]) -> eng.Step:
        """``game.submit(state, seat, choice)``, copying ``state`` only when something else may
        hold it: the state this transaction started from (kept for the next one), the state a
        match's start set up, a state ``hold`` kept. A run of steps after that (the AI's turns
        after a player's choice) changes the copy in place (engine/working.py: a refused
        choice leaves ``state`` as it was). What this transaction built of the state it
        changes (prompts, views) is dropped, and the last step's events get data of their own
        (a game's event data may hold a list of its state). The step's state becomes ``state``."""
        state = self.state
        assert state is not None
        working = self.working
        if working is None or working.state is not state:
            working = self.working = eng.Working(self.game, state)
        elif working.steps:  # the state is this run's own copy: changed in place below
            self._forget(state)
            for event in self.fresh_events:
                if event.data:
                    event.__dict__["data"] = copy_data(event.data)
        try:
            events = working.submit(seat, choice)
        except BaseException:
            self.state = working.state  # as it was before the refused choice
            raise
        self.state = working.state
        self.fresh_events = events
        return trusted(eng.Step, {"state": self.state, "events": events})

    def hold(self) -> None:
        """Something keeps ``state`` as it is now (a phase post's map): the next ``step``
        copies it."""
        self.working = None
        self.fresh_events = []

    def _forget(self, state: eng.State) -> None:
        """Drop the prompts and views built of ``state``, which is about to change in place."""
        key = id(state)
        found = self.built_prompts.get(key)
        if found is not None and found[0] is state:
            del self.built_prompts[key]
        for view_key in [view_key for view_key, (held, _view) in self.views.items() if held is state]:
            del self.views[view_key]

    def prompts(self) -> list[eng.Prompt]:
        """The open prompts of the current state, built once per state: a change asks for them
        several times (the choice, its new prompt versions, the AI's turns, the notices); a state
        changed in place (``step``) has them dropped first."""
        if self.state is None or self.match.status not in ("active", "paused"):
            return []
        return self.prompts_of(self.state)

    def prompts_of(self, state: eng.State) -> list[eng.Prompt]:
        """``game.prompts(state)`` whatever the match's status, built once per state object in
        this transaction (the state it started from is asked about again as it ends: the seats'
        prompts before the change). Callers must not change the prompts."""
        if state is self.start_state:  # kept aside: the AI's turns after a choice may pass through many states
            if self.start_prompts is None:
                self.start_prompts = tuple(self.game.prompts(state))
            return list(self.start_prompts)
        key = id(state)
        found = self.built_prompts.get(key)
        if found is None or found[0] is not state:
            found = (state, tuple(self.game.prompts(state)))
            if len(self.built_prompts) >= KEPT_VIEWS:  # an all-AI run passes through many states
                del self.built_prompts[next(iter(self.built_prompts))]
            self.built_prompts[key] = found
        return list(found[1])

    def prompts_built(self, state: eng.State) -> tuple[eng.Prompt, ...] | None:
        """The prompts of ``state`` built in this transaction, or known before it (None: neither)."""
        if state is self.start_state and self.start_prompts is not None:
            return self.start_prompts
        found = self.built_prompts.get(id(state))
        return found[1] if found is not None and found[0] is state else None

    def data_of(self, prompt: eng.Prompt) -> dict[str, Any]:
        """``prompt.model_dump(mode="json")``, made once per prompt object in this transaction: a
        new prompt's fingerprint (play.py) is of it, and its prompt notice carries it (announce.py).
        The prompt is held with its data so its id is not reused; the latest few are kept (an
        all-AI run passes through many states). Callers must not change the data."""
        key = id(prompt)
        found = self.prompt_data.get(key)
        if found is None or found[0] is not prompt:
            found = (prompt, prompt.model_dump(mode="json"))
            if len(self.prompt_data) >= KEPT_PROMPT_DATA:
                del self.prompt_data[next(iter(self.prompt_data))]
            self.prompt_data[key] = found
        return found[1]

    def view(self, state: eng.State, seat: int | None) -> dict[str, Any]:
        """``game.view(state, seat)``, built once per state and seat in this transaction: a
        change asks for the public view of its last state up to five times (the phase labels,
        the phase post's map, the turn heads-up, the result) and for the actor's view twice (its
        reply and its next prompt), and a view costs more than a rules step. Keyed by the state
        object, which only ``step`` changes in place (dropping its views first); the state is
        held with its view so its id is not reused. Callers must not change the view."""
        key = (id(state), seat)
        found = self.views.pop(key, None)
        if found is None or found[0] is not state:
            found = (state, eng.view(self.game, state, seat, self.prompts_built(state)))
            if len(self.views) >= KEPT_VIEWS:  # an all-AI run passes through many states: keep the latest asked
                del self.views[next(iter(self.views))]
        self.views[key] = found
        return found[1]

    def phase_label(self, state: eng.State) -> str:
        """The raw phase heading of ``state`` (its seat names unfilled): from its public view
        when this transaction built one, else from the game without a view (most changes end no
        phase, and their posts need only the heading)."""
        found = self.views.get((id(state), None))
        if found is not None and found[0] is state:
            return str(found[1].get("phase_label") or "")
        return eng.phase_label(self.game, state)

    def views_of(self, state: eng.State) -> dict[int | None, dict[str, Any]]:
        """The views built in this transaction of ``state``, by seat (None: the public view)."""
        return {seat: view for (_key, seat), (held, view) in self.views.items() if held is state}

    def known_views(self, state: eng.State, views: dict[int | None, dict[str, Any]]) -> None:
        """Views of ``state`` built before this transaction (see memory.py ``KeptViews``)."""
        for seat, view in views.items():
            self.views[(id(state), seat)] = (state, view)

    def notice(self, kind: str, payload: Payload, *, user_id: int | None = None, seat: int | None = None) -> None:
        """Queue a notice; ``user_id`` (and its ``seat``) for a DM, else it goes to the match channel."""
        notices.check(kind, payload)
        self.notices.append(Outgoing(kind, payload, user_id, seat))

    def lead_with(self, public: Sequence[tuple[str, Payload]]) -> None:
        """Queue channel posts ahead of every notice queued so far: the story of the change
        comes before what it caused (prompts, reminders, the result)."""
        for kind, payload in public:
            notices.check(kind, payload)
        self.notices[0:0] = [Outgoing(kind, payload) for kind, payload in public]


FinishStep = Callable[[MatchTransaction], Awaitable[None]]
"""One step of the finishing pipeline (finishing.py), run in the change's transaction."""

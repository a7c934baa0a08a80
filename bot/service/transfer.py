"""Moving a match between bot instances: one JSON document out (export), the same match in again
under a new id (import).

The document holds what the match is made of, never a derived state: the game, its options and
seed, the seats (Discord ids as strings, names, AI policies), the choice log and the result. An
import replays the log through the engine before it writes anything; a log the engine refuses,
or a replay that does not end where the document says (result, log digest), is refused and the
database is left as it was. An unfinished match resumes at once (a paused one too: its host may
pause it again): its open decisions are sent again as after an undo (bot/service/undo.py), so its
players get their prompts in the new place.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

import engine as eng
from bot.service.match_transaction import MatchTransaction
from bot.service.notices import PhaseNotice
from db import Store
from db.models import OPEN_STATUSES, utcnow
from db.transfer import ImportedMatch, ImportedSeat, find_open_match, insert_match, match_rows

FORMAT = "warhost-match"
VERSION = 1


class TransferError(Exception):
    """A document that cannot become a match (the message says which part and why)."""


class DocumentSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0)
    user_id: str | None = Field(default=None, pattern=r"^\d{1,20}$")
    """The player's Discord id (a string: JSON numbers lose precision past 2**53); None for an AI."""
    name: str = Field(min_length=1, max_length=100)
    ai_policy: str | None = Field(default=None, max_length=40)
    ai_takeover: bool = False


class DocumentChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seq: int = Field(ge=1)
    seat: int = Field(ge=0)
    kind: str = Field(min_length=1, max_length=60)
    by: Literal["player", "ai", "deadline"] = "player"
    payload: dict[str, Any]
    public: list[str] = Field(default_factory=list)


class MatchDocument(BaseModel):
    """The exported match (``format``/``version`` say what reads it)."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["warhost-match"]
    version: Literal[1]
    match_id: int
    """Its id where it was exported (the import gives it a new one)."""
    game: str
    options: dict[str, Any]
    seed: int
    status: Literal["active", "paused", "finished", "aborted"]
    guild_id: str | None = Field(default=None, pattern=r"^\d{1,20}$")
    channel_id: str = Field(pattern=r"^\d{1,20}$")
    host_id: str = Field(pattern=r"^\d{1,20}$")
    deadline_hours: float = Field(gt=0)
    away_mode: Literal["ai", "pause"] = "ai"
    takeover_ai: Literal["heuristic", "search"] = "heuristic"
    """The AI that plays a seat it took over (a document made before it existed: the heuristic)."""
    seats: list[DocumentSeat] = Field(min_length=1)
    choices: list[DocumentChoice]
    result: dict[str, Any] | None
    log_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    exported_at: datetime

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        if value not in eng.games():
            raise ValueError(f"unknown game {value!r} (this bot knows {', '.join(sorted(eng.games()))})")
        return value


def _snowflake(value: int | None) -> str | None:
    return None if value is None else str(value)


async def export_match(store: Store, match_id: int) -> MatchDocument:
    """The document of a stored match that has started (TransferError otherwise)."""
    async with store.read() as session:
        rows = await match_rows(session, match_id)
    if rows is None:
        raise TransferError(f"no match {match_id} in this database")
    match, seats, choices = rows
    if match.status == "lobby":
        raise TransferError(f"match {match_id} is still a lobby: there is nothing to move (start it first)")
    log = [c for c in choices if c.seq <= match.step]
    return MatchDocument(
        format=FORMAT, version=VERSION, match_id=match_id, game=match.game, options=dict(match.options),
        seed=match.seed, status=match.status,
        guild_id=_snowflake(match.guild_id), channel_id=str(match.channel_id), host_id=str(match.host_id),
        deadline_hours=match.deadline_hours, away_mode=match.away_mode, takeover_ai=match.takeover_ai,
        seats=[DocumentSeat(seat=s.seat_no, user_id=_snowflake(s.user_id), name=s.name, ai_policy=s.ai_policy,
                            ai_takeover=s.ai_takeover) for s in seats],
        choices=[DocumentChoice(seq=c.seq, seat=c.seat, kind=c.kind, by=c.by,
                                payload=c.payload, public=list(c.public or [])) for c in log],
        result=match.result, log_sha256=eng.log_sha256([(c.seat, c.payload) for c in log]),
        exported_at=utcnow(),
    )


def parse_document(text: str) -> MatchDocument:
    """The document in ``text``, or a TransferError naming what is wrong with it."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TransferError(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(raw, dict):
        raise TransferError("not a match document: the JSON is not an object")
    if raw.get("format") != FORMAT:
        raise TransferError(f"not a match document: its \"format\" is {raw.get('format')!r}, not {FORMAT!r}")
    if raw.get("version") != VERSION:
        raise TransferError(f"match document version {raw.get('version')!r}: this bot reads version {VERSION}")
    try:
        return MatchDocument.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{'.'.join(str(part) for part in error['loc']) or 'document'}: {error['msg']}"
                    for error in exc.errors()]
        raise TransferError("the match document is malformed: " + "; ".join(problems)) from None


def replay_document(document: MatchDocument) -> tuple[eng.State, eng.Result | None]:
    """Replay the document's log from setup; TransferError unless it ends where the document says."""
    seats = sorted(seat.seat for seat in document.seats)
    if seats != list(range(len(seats))):
        raise TransferError(f"seats must be numbered 0 to {len(seats) - 1}, found {seats}")
    game = eng.get(document.game)
    try:
        options = eng.parse_options(game, document.options)
    except Exception as exc:
        raise TransferError(f"options refused by {game.title}: {exc}") from None
    sequence = [choice.seq for choice in document.choices]
    if sequence != list(range(1, len(sequence) + 1)):
        raise TransferError("the choice log must be numbered 1, 2, 3, ... without gaps")
    if eng.log_sha256([(c.seat, c.payload) for c in document.choices]) != document.log_sha256:
        raise TransferError("the choice log does not match its log_sha256: the document was changed or cut")
    try:
        state = game.setup(len(seats), options, document.seed)
    except Exception as exc:
        raise TransferError(f"{game.title} cannot set up this match: {exc}") from None
    for choice in document.choices:
        if choice.seat >= len(seats):
            raise TransferError(f"choice {choice.seq} is by seat {choice.seat}, and the match has {len(seats)} seats")
        try:
            state = game.submit(state, choice.seat, choice.payload).state
        except eng.IllegalChoice as exc:
            raise TransferError(f"choice {choice.seq} ({choice.kind} by seat {choice.seat}) is refused on "
                                f"replay: {exc}") from None
    result = game.result(state)
    said = None if document.result is None else _result(document.result)
    if result != said:
        raise TransferError(f"the replay does not reproduce the document's result: the replay ends with "
                            f"{_describe(result)}, the document says {_describe(said)}")
    if result is None and document.status == "finished":
        raise TransferError("the document says the match is finished, and its replay does not end")
    return state, result


def _result(data: dict[str, Any]) -> eng.Result:
    try:
        return eng.Result.model_validate(data)
    except ValidationError as exc:
        raise TransferError(f"the document's result is malformed: {exc.errors()[0]['msg']}") from None


def _describe(result: eng.Result | None) -> str:
    if result is None:
        return "no result (the match goes on)"
    winners = ", ".join(f"seat {seat}" for seat in result.winners) or "nobody"
    return f"{winners} winning ({result.reason})"


async def import_match(service: Any, document: MatchDocument, channel_id: int | None = None) -> int:
    """Write the document as a new match (its id returned) after a replay that reproduces it; an
    unfinished match then sends its open decisions. ``service`` is the MatchService on the store."""
    state, result = replay_document(document)
    store: Store = service.store
    channel = channel_id if channel_id is not None else int(document.channel_id)
    status = "finished" if result is not None else "active" if document.status == "paused" else document.status
    now = utcnow()
    imported = ImportedMatch(
        game=document.game, options=document.options, seed=document.seed, status=status,
        guild_id=None if document.guild_id is None else int(document.guild_id), channel_id=channel,
        host_id=int(document.host_id), deadline_hours=document.deadline_hours, away_mode=document.away_mode,
        takeover_ai=document.takeover_ai, result=None if result is None else result.model_dump(mode="json"),
        seats=[ImportedSeat(seat=s.seat, user_id=None if s.user_id is None else int(s.user_id), name=s.name,
                            ai_policy=s.ai_policy, ai_takeover=s.ai_takeover)
               for s in sorted(document.seats, key=lambda s: s.seat)],
        choices=[(c.seq, c.seat, c.kind, c.by, c.payload, c.public) for c in document.choices],
    )
    game = eng.get(document.game)
    start = game.setup(len(document.seats), eng.parse_options(game, document.options), document.seed)
    async with store.write() as session:
        if status in OPEN_STATUSES:
            holder = await find_open_match(session, channel)
            if holder is not None:
                raise TransferError(f"channel {channel} already has an open match (#{holder}): import it "
                                    "elsewhere with --channel, or finish that one first")
        match_id = await insert_match(session, imported, now)
        await store.save_snapshot(session, match_id, 0, start, now)
        if imported.choices:
            await store.save_snapshot(session, match_id, len(imported.choices), state, now)
    if status == "active":
        await _resume(service, match_id, len(document.choices))
    return match_id


async def _resume(service: Any, match_id: int, choices: int) -> None:
    """Send the open decisions of an imported match, as an undo does: every prompt is new here."""

    async def fn(ctx: MatchTransaction) -> None:
        if ctx.state is None:
            raise TransferError(f"match {match_id} was written but its state cannot be loaded")
        for seat in ctx.seats:
            seat.prompt_version = seat.prompt_key = None
        ctx.start_version = {}
        ctx.start_state = None
        ctx.changed = True
        line = f"This match was moved here from another bot: its {choices} choices are replayed, play goes on."
        ctx.notice("phase", PhaseNotice(text=service.wording.strong(line), label=line, events=[line],
                                        standalone=True, game=ctx.match.game, view=ctx.view(ctx.state, None),
                                        names=ctx.names()))
        await service._settle(ctx)

    await service._mutate(match_id, fn)


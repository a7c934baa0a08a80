"""The notices a match transaction writes to the outbox, one typed payload per kind.

A notice row holds ``kind`` and a JSON ``payload``; front-ends read the payload by key. Each kind
has its TypedDict here, so what the service builds for a kind is written down once and checked
when it is queued (``check``): a misspelt field or a missing one fails in the transaction that
builds it, not in a front-end long after. The payloads stay plain dicts, so the stored JSON and
what front-ends read are exactly what they were.
"""

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] from evaluated
# annotations to tell optional fields from required ones.
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, Protocol, TypedDict

from bot.service.history import REPLAY_NOTICE


class LobbySeat(TypedDict):
    seat: int
    user_id: int | None
    name: str
    ai: str | None


class LobbyNotice(TypedDict):
    """A lobby change: the lobby message is redrawn with these seats."""

    text: str
    status: str
    seats: list[LobbySeat]


class PhaseNotice(TypedDict):
    """A post that closes a phase, with the map as that phase end left it."""

    text: str
    label: str
    events: list[str]
    game: str
    view: dict[str, Any]
    names: NotRequired[list[str]]
    """Absent on the match's opening post."""
    frame_label: NotRequired[str | None]
    """The view's own ``phase_label`` where the map is titled with the phase the post closes: the
    replay's frame of this phase end has it (bot/service/replay_frames.py)."""
    standalone: NotRequired[bool]
    """An undo's post: not part of any phase's story."""


class EventsNotice(TypedDict):
    """Lines that open (or extend) the post of the phase still running."""

    label: str
    events: list[str]
    text: str


class ProgressNotice(TypedDict):
    """Who the table still waits for in a secret step (it joins the open post)."""

    text: str
    events: list[str]
    label: str


class TimeoutNotice(TypedDict):
    """News in the channel about a seat or the deadline; ``user_ids`` empty: nobody is pinged."""

    text: str
    user_ids: NotRequired[list[int]]
    seat: NotRequired[int]


class HostNotice(TypedDict):
    """Host powers changed hands; the heir (if any) is pinged."""

    user_ids: list[int]
    text: str


class ReminderNotice(TypedDict):
    """A deadline draws near: the seats that still owe are reminded."""

    text: str
    user_ids: list[int]
    deadline: str


class ResultNotice(TypedDict):
    """The match is over: the closing line, the final map and the engine's result."""

    text: str
    game: str
    names: list[str]
    view: dict[str, Any]
    result: dict[str, Any]


class ReplayNotice(TypedDict):
    """The finished match's replay, phase by phase (the front-end draws it)."""

    text: str


class PromptNotice(TypedDict):
    """A seat's open prompt, to its DMs."""

    text: str
    version: int | None
    game: str
    title: str
    names: list[str]
    deadline: str | None
    shared: bool
    optional: bool
    prompt: dict[str, Any]
    view: dict[str, Any]
    """The seat's view, for a secret decision's private panel; empty for any other (nothing
    shows it: building, storing and reading it back was most of a plain prompt's cost)."""
    in_place: bool
    """The seat's previous prompt DM is edited, not followed by a new one."""
    news: list[str]
    choice: dict[str, Any] | None
    """What the seat just answered, when this is its own next prompt."""


class LastToChooseNotice(TypedDict):
    """The one seat a secret step still waits for is told so on its prompt."""

    text: str


class PrivateNotice(TypedDict):
    """Lines only this seat sees."""

    text: str
    events: list[str]


class TurnNotice(TypedDict):
    """A channel "your turn" for seats whose DMs do not reach them."""

    text: str
    user_ids: list[int]


class ConsentNotice(TypedDict):
    """An undo request, to a player whose consent it needs."""

    undo_id: int
    due: str
    summary: str
    why: str
    who: str


class VoteNotice(TypedDict):
    """A vote to end the match, to a player asked (votes.py)."""

    vote_id: int
    kind: str
    """draw | abandon"""
    due: str
    who: str


class BlockedNotice(TypedDict):
    """A target refuses the match's notices: where else the host and players can be told."""

    target_kind: str
    target_id: int
    code: int | None
    reason: str
    name: NotRequired[str | None]


class HeadsUpNotice(TypedDict):
    """The seat before this one in turn order started its turn (to a player who asked for it)."""

    text: str
    title: str


class DmsClosedNotice(TypedDict):
    """A marker row: the seat's DMs are known to be closed (no payload)."""


class SeatOpenNotice(TypedDict):
    """A seat is open for a replacement: the match's channel gets a Take seat button for it."""

    text: str
    seat: int


class SeatTakenNotice(TypedDict):
    """Someone took an open seat: the channel is told, and the seat's open posts lose their button."""

    text: str
    seat: int
    closed: str
    """What the seat's open posts say once it is taken (their final form)."""


class SeatPassedNotice(TypedDict):
    """To the player who left a seat: their turn DM of it says so, and asks nothing any more."""

    text: str


class SeatWelcomeNotice(TypedDict):
    """To the player who took a seat: what it is, and its private panel (drawn from ``view``)."""

    text: str
    game: str
    names: list[str]
    view: dict[str, Any]


class PayloadShape(Protocol):
    """What ``check`` reads of a payload's TypedDict class: the keys it must and may have."""

    __required_keys__: frozenset[str]
    __optional_keys__: frozenset[str]


PAYLOADS: dict[str, PayloadShape] = {
    "lobby": LobbyNotice,
    "phase": PhaseNotice,
    "events": EventsNotice,
    "progress": ProgressNotice,
    "timeout": TimeoutNotice,
    "host": HostNotice,
    "reminder": ReminderNotice,
    "result": ResultNotice,
    REPLAY_NOTICE: ReplayNotice,
    "prompt": PromptNotice,
    "last_to_choose": LastToChooseNotice,
    "private": PrivateNotice,
    "turn": TurnNotice,
    "consent": ConsentNotice,
    "vote": VoteNotice,
    "blocked": BlockedNotice,
    "dms_closed": DmsClosedNotice,
    "heads_up": HeadsUpNotice,
    "seat_open": SeatOpenNotice,
    "seat_taken": SeatTakenNotice,
    "seat_passed": SeatPassedNotice,
    "seat_welcome": SeatWelcomeNotice,
}
"""Every notice kind and the payload it carries."""

Payload = (LobbyNotice | PhaseNotice | EventsNotice | ProgressNotice | TimeoutNotice | HostNotice | ReminderNotice
           | ResultNotice | ReplayNotice | PromptNotice | LastToChooseNotice | PrivateNotice | TurnNotice
           | ConsentNotice | VoteNotice | BlockedNotice | DmsClosedNotice | HeadsUpNotice | SeatOpenNotice
           | SeatTakenNotice | SeatPassedNotice | SeatWelcomeNotice)


def check(kind: str, payload: Mapping[str, object]) -> None:
    """Raise TypeError unless ``payload`` has exactly the fields of its kind's payload type."""
    shape = PAYLOADS.get(kind)
    if shape is None:
        raise TypeError(f"unknown notice kind {kind!r}")
    keys = set(payload)
    missing = shape.__required_keys__ - keys
    unknown = keys - shape.__required_keys__ - shape.__optional_keys__
    if missing or unknown:
        raise TypeError(f"a {kind!r} notice lacks {sorted(missing)} or has unknown {sorted(unknown)}")


@dataclass(frozen=True)
class Outgoing:
    """One notice a transaction queues: its kind, payload and, for a DM, whom it goes to."""

    kind: str
    payload: Payload
    user_id: int | None = None
    """The user whose DMs it goes to; None: the match channel."""
    seat: int | None = None
    """That user's seat."""

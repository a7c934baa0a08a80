"""Recording an event and the short public log a view shows.

"Append the event; if it is public, add its text to the state's log and keep the last
eight", written once; `Flow.emit` is the way rules call it. The log's field name differs per game (`log` in Samurai
Swords and Defenders, `last_events` in Tiny Big Wars) because it is part of the stored state
JSON: renaming it would change every replay digest and every stored match.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.clone import trusted
from engine.contract import Event

LOG_LENGTH = 8
"""Public event texts kept in a state's log (what a view shows as the latest news)."""


def emit(
    state: BaseModel,
    log_field: str,
    events: list[Event],
    kind: str,
    text: str,
    *,
    seats: list[int] | None = None,
    data: dict[str, Any] | None = None,
    phase_end: bool = False,
) -> Event:
    """Append one event to ``events``; a public one (``seats`` None) also joins the log.

    The event is built without validation (every caller is engine code passing the declared
    types); the seats and data are copied as validation would copy them. The log is assigned
    a new list, never changed in place: a state handed out earlier (a
    snapshot, an AI's trial) must not see its log grow.
    """
    event = trusted(Event, {"kind": kind, "text": text, "seats": None if seats is None else list(seats),
                            "data": dict(data) if data else {}, "phase_end": phase_end})
    events.append(event)
    if seats is None:
        setattr(state, log_field, [*getattr(state, log_field), text][-LOG_LENGTH:])
    return event

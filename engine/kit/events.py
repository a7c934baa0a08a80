"""Recording an event and the short public log a view shows.

"Append the event; if it is public, add its text to the state's log and keep the last
eight", written once; `Flow.emit` is the way rules call it. The log's field name differs per game (`log` in Samurai
Swords and Defenders, `last_events` in Tiny Big Wars) because it is part of the stored state
JSON: renaming it would change every replay digest and every stored match.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.clone import set_dict, set_extra, set_fields_set, set_private
from engine.contract import Event

LOG_LENGTH = 8
"""Public event texts kept in a state's log (what a view shows as the latest news)."""

_PYDANTIC_SETATTR = BaseModel.__setattr__
_new_object = object.__new__


def store_field(model: BaseModel, name: str, value: Any) -> None:
    """A ``__setattr__`` for a model class that sets its fields as pydantic does (no
    assignment validation, not frozen: store the value and mark the field set), without
    pydantic's per-call dispatch: the rules of a game set fields about ten times a choice.
    Only for classes whose ``__dict__`` holds exactly their fields (extras forbidden, no field
    frozen; private attributes live apart, in ``__pydantic_private__``), so that a name found
    there is a field; any other name goes through pydantic's own ``__setattr__``."""
    values = model.__dict__
    if name in values:
        values[name] = value
        model.__pydantic_fields_set__.add(name)
    else:
        _PYDANTIC_SETATTR(model, name, value)


_STORES = (_PYDANTIC_SETATTR, store_field)
"""The ``__setattr__`` of a class that stores its fields as pydantic does."""
_PLAIN_FIELDS: dict[type, frozenset[str]] = {}
"""Per model class: the fields it stores as pydantic's own ``__setattr__`` would (none when
the class sets its fields its own way)."""


def set_field(model: BaseModel, name: str, value: Any) -> None:
    """``setattr(model, name, value)``, without pydantic's per-call dispatch where the model
    sets its fields as pydantic does (no assignment validation: store it and mark it set); a
    model class with its own ``__setattr__`` (an index kept up to date) gets its own. The kit
    sets the step and the log once or more a choice."""
    cls = type(model)
    plain = _PLAIN_FIELDS.get(cls)
    if plain is None:
        config = cls.model_config
        stores = (cls.__setattr__ in _STORES and not config.get("validate_assignment")
                  and not config.get("frozen"))
        plain = _PLAIN_FIELDS[cls] = frozenset(
            name for name, field in cls.model_fields.items() if stores and not field.frozen)
    if name in plain:
        model.__dict__[name] = value
        model.__pydantic_fields_set__.add(name)
    else:
        setattr(model, name, value)


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
    event = _new_object(Event)  # engine/clone.py's `trusted`, written out (events are made every choice)
    set_dict(event, {"kind": kind, "text": text, "seats": None if seats is None else list(seats),
                     "data": dict(data) if data else {}, "phase_end": phase_end})
    set_fields_set(event, {"kind", "text", "seats", "data", "phase_end"})
    set_extra(event, None)
    set_private(event, None)
    events.append(event)
    if seats is None:
        # the last LOG_LENGTH - 1 texts and this one: the same list as [*log, text][-LOG_LENGTH:]
        set_field(state, log_field, [*getattr(state, log_field)[1 - LOG_LENGTH:], text])
    return event

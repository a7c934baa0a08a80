"""Setting a state field without pydantic's per-call dispatch.

Rules set fields of the state's models many times a choice. For a model with no assignment
validation and not frozen, pydantic stores the value and marks the field set; `set_field` does
exactly that directly, and leaves anything else (an unknown name, which a model that forbids
extras refuses) to pydantic. A game's state models opt in with ``__setattr__ = set_field``.
"""

from __future__ import annotations

from pydantic import BaseModel


def set_field(model: BaseModel, name: str, value: object) -> None:
    """``model.name = value`` as pydantic does it for a plain field, faster."""
    if name in type(model).__pydantic_fields__:
        model.__dict__[name] = value
        model.__pydantic_fields_set__.add(name)
    else:
        BaseModel.__setattr__(model, name, value)

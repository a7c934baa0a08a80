"""`set_field` sets a state field as pydantic would (stored, marked set, a stored match dumps
the same), and refuses a name that is not a field as pydantic does."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from engine.kit.fields import set_field


class Plain(BaseModel):
    model_config = ConfigDict(extra="forbid")

    count: int = 0
    names: list[str] = []


class Fast(Plain):
    __setattr__ = set_field


def test_set_field_does_what_pydantic_does() -> None:
    plain, fast = Plain(), Fast()
    for model in (plain, fast):
        model.count = 3
        model.names = ["a"]
    assert fast.model_dump() == plain.model_dump()
    assert fast.model_dump(exclude_unset=True) == plain.model_dump(exclude_unset=True) == {"count": 3, "names": ["a"]}
    assert fast.model_fields_set == plain.model_fields_set
    for model in (plain, fast):
        with pytest.raises((ValueError, ValidationError, AttributeError)):
            model.missing = 1  # type: ignore[attr-defined]

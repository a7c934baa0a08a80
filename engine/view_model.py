"""What every game's typed views share: the strict base model, the JSON pair and a prompt as seen.

A view model is the allow-list of what a player may see: a field that is not declared cannot
be sent, and `extra="forbid"` refuses one that sneaks into a stored view. Views still travel
as JSON dicts (database, notices); `model_dump()` of a view model is exactly that dict.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, PlainSerializer


class ViewModel(BaseModel):
    """A part of a view: known fields only, frozen once built."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _as_list(value: tuple[Any, ...]) -> list[Any]:
    return list(value)


# A two-item list in JSON ([seat, count], [a, b]): a tuple to read, a list once dumped, as before.
IntPair = Annotated[tuple[int, int], PlainSerializer(_as_list)]
NamePair = Annotated[tuple[str, str], PlainSerializer(_as_list)]
SeatDice = Annotated[tuple[int, list[int]], PlainSerializer(_as_list)]


class PromptView(ViewModel):
    """Who owes what kind of decision (`Prompt.public()`): never the options or the answer."""

    seat: int
    kind: str
    secret: bool
    answered: bool
    shared: bool
    optional: bool

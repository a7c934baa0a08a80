"""A prompt built on first read: what an all-AI driver holds while its AI may not need it.

`PhaseTable.first_open` finds the decision an all-AI driver answers next from ``owed`` and the
phase's ``answered`` hook, without building any prompt; the AI it
asks then often reads no more than the prompt's seat and kind (a heuristic that works its
choice out from the state), and the answer is parsed and handled knowing only those (see
`Asked`). A `PromptOnRead` holds the seat, the kind, ``answered`` (False: it is open) and the
answer model when the phase names it; the first read of any other field, or a dump, a copy, a comparison, builds the
prompt with the phase's builder and from then on the object *is* that prompt (its class
becomes the built prompt's, every field set as built).

Like `Asked`, it is built from the state it was found in: read it before that state changes.
`forget` (called by engine/working.py once a step changed its state) makes a later first
read an error instead of a prompt of another state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from engine.clone import set_dict, set_extra, set_fields_set, set_private
from engine.contract import Prompt

_new_object = object.__new__


class PromptOnRead(Prompt):
    """A `Prompt` whose fields but seat, kind, answered and answer are built on first read
    (the builder is kept in the private slot, which a built prompt leaves None)."""

    def __getattr__(self, name: str) -> Any:
        """Only reached for what is not in the field dict yet: build, then read it."""
        if name.startswith("__"):
            raise AttributeError(name)
        _build(self)
        return getattr(self, name)

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        _build(self)
        return self.model_dump(**kwargs)

    def model_dump_json(self, **kwargs: Any) -> str:
        _build(self)
        return self.model_dump_json(**kwargs)

    def model_copy(self, **kwargs: Any) -> Any:
        _build(self)
        return self.model_copy(**kwargs)

    def __eq__(self, other: object) -> bool:
        _build(self)
        if isinstance(other, PromptOnRead):
            _build(other)
        return self == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        _build(self)
        return repr(self)

    def __str__(self) -> str:
        _build(self)
        return str(self)

    def __copy__(self) -> Any:
        _build(self)
        return self.__copy__()

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        _build(self)
        return self.__deepcopy__(memo)

    def __getstate__(self) -> dict[Any, Any]:
        _build(self)
        return self.__getstate__()

    def __iter__(self) -> Any:
        _build(self)
        return iter(self)


def _field_on_read(name: str) -> property:
    """A field of a `PromptOnRead` read before it is built: build, then read it (a property
    found on the class, cheaper than missing the field and going through ``__getattr__``;
    the built prompt's class has none)."""
    def read(prompt: PromptOnRead) -> Any:
        _build(prompt)
        return prompt.__dict__[name]
    return property(read)


for _name in Prompt.model_fields:
    if _name not in ("seat", "kind", "answered", "answer"):
        setattr(PromptOnRead, _name, _field_on_read(_name))


def on_read(seat: int, kind: str, answer: type[BaseModel] | None, build: Callable[[], Prompt]) -> PromptOnRead:
    """The open decision of ``seat`` of ``kind`` (its answers parsed into ``answer``; None:
    the model is read from the prompt, built then), its prompt made by ``build`` when first
    read."""
    prompt = _new_object(PromptOnRead)
    known: dict[str, object] = {"seat": seat, "kind": kind, "answered": False}
    if answer is not None:
        known["answer"] = answer
    set_dict(prompt, known)
    set_fields_set(prompt, set(known))
    set_extra(prompt, None)
    set_private(prompt, {"build": build})
    return prompt


def unbuilt(prompt: Prompt) -> bool:
    """Whether ``prompt`` is a `PromptOnRead` not read yet (its type is the built one after)."""
    return type(prompt) is PromptOnRead


def built(prompt: Prompt) -> Prompt:
    """``prompt`` with every field in place (built now if it was not)."""
    if type(prompt) is PromptOnRead:
        _build(prompt)
    return prompt


def forget(prompt: Prompt) -> None:
    """The state ``prompt`` was found in has changed: a prompt not built yet can no longer be."""
    if type(prompt) is PromptOnRead:
        set_private(prompt, {"build": _gone})


def _gone() -> Prompt:
    raise RuntimeError("this prompt was first read after its state changed: read it before the step")


def _build(prompt: PromptOnRead) -> None:
    """Build ``prompt`` in place: the built prompt's fields, fields set and class."""
    if type(prompt) is not PromptOnRead:
        return
    private = object.__getattribute__(prompt, "__pydantic_private__")
    known = object.__getattribute__(prompt, "__dict__")
    made = private["build"]()
    if made.seat != known["seat"] or made.kind != known["kind"] or made.answered:
        raise RuntimeError(f"the prompt built for seat {known['seat']}'s open {known['kind']} is "
                           f"seat {made.seat}'s {made.kind} (answered: {made.answered})")
    set_dict(prompt, made.__dict__.copy())
    set_fields_set(prompt, made.__pydantic_fields_set__.copy())
    set_extra(prompt, made.__pydantic_extra__)
    set_private(prompt, made.__pydantic_private__)
    object.__setattr__(prompt, "__class__", type(made))

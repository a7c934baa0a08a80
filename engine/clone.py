"""Deep copies of states, fast: ``submit`` copies the state on every choice.

A JSON round trip costs a dump and a full validation (about 45 µs for a Tiny Big Wars state,
140 µs for Samurai); pydantic's ``model_copy(deep=True)`` goes through ``copy.deepcopy`` and is
slower still. States hold only plain data (the contract), so a copier per model class that
shares immutable values and rebuilds lists, dicts and nested models gives an equal, fully
independent state without validating again: the state being copied was valid already.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar, Union

from pydantic import BaseModel

Model = TypeVar("Model", bound=BaseModel)

_ATOMS = (str, int, float, bool, type(None))
_ATOM_TYPES = frozenset(_ATOMS)


def clone(model: Model) -> Model:
    """An independent deep copy of ``model``: equal to it, sharing nothing mutable."""
    return _copier(type(model))(model)


def copy_data(value: Any) -> Any:
    """An independent deep copy of plain data (lists, dicts, atoms and models in them): an
    event's ``data`` may hold lists of the state that made it, which a later step in place
    would change (bot/service/match_transaction.py ``step``)."""
    return _copy_value(value)


def trusted(cls: type[Model], values: dict[str, Any]) -> Model:
    """A ``cls`` holding ``values`` as they are, unvalidated: every field given, in declared
    order, of its declared type (the engine's own events and steps, built thousands of times a
    match; pydantic's ``model_construct`` costs more than validating)."""
    model = _new_instance(cls)
    set_dict(model, values)
    set_fields_set(model, set(values))
    set_extra(model, None)
    set_private(model, None)
    return model


_new_instance = object.__new__
_SLOTS = BaseModel.__dict__
set_dict = _SLOTS["__dict__"].__set__
set_fields_set = _SLOTS["__pydantic_fields_set__"].__set__
set_extra = _SLOTS["__pydantic_extra__"].__set__
set_private = _SLOTS["__pydantic_private__"].__set__
"""The setters of the four slots every pydantic model has, called straight: a new model is
made by hand thousands of times a match (`trusted`, the copiers below,
engine/information.py's ``shared``), and ``object.__setattr__`` looks each name up first."""


def _copy_value(value: Any) -> Any:
    """Deep copy of a value of unknown declared type (``Any`` fields, unions)."""
    kind = type(value)
    if kind in _ATOM_TYPES:
        return value
    if kind is list:
        return [_copy_value(item) for item in value]
    if kind is dict:
        return {key: _copy_value(item) for key, item in value.items()}
    if isinstance(value, BaseModel):
        return _copier(kind)(value)
    if kind is tuple:
        return tuple(_copy_value(item) for item in value)
    if kind is set or kind is frozenset:
        return kind(value)
    raise TypeError(f"a state holds plain data only, not {kind.__name__}")


def _is_atomic(annotation: Any) -> bool:
    """Whether every value the annotation allows is immutable and may be shared."""
    if annotation in _ATOMS:
        return True
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return all(type(arg) in _ATOM_TYPES for arg in typing.get_args(annotation))
    if origin in (Union, types.UnionType):
        return all(_is_atomic(arg) for arg in typing.get_args(annotation))
    if origin is tuple:
        return all(arg is Ellipsis or _is_atomic(arg) for arg in typing.get_args(annotation))
    return False


def _model_class(annotation: Any) -> type[BaseModel] | None:
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


class _Source:
    """The body of one model class's copier, written out field by field."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.models: list[type[BaseModel]] = []

    def model(self, cls: type[BaseModel]) -> str:
        """The name the generated code calls to copy a nested ``cls``."""
        if cls not in self.models:
            self.models.append(cls)
        return f"copy_{self.models.index(cls)}"

    def field(self, name: str, annotation: Any) -> None:
        """Lines that replace ``values[name]`` by its copy (none for an immutable field)."""
        expression = self.expression(annotation)
        if expression is None:
            return
        optional = False
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
        if origin in (Union, types.UnionType) and len(args) == 2 and type(None) in args:
            expression = self.expression(next(arg for arg in args if arg is not type(None)))
            optional = True
        key = repr(name)
        self.lines.append(f"    value = values[{key}]")
        indent = "    "
        if optional:
            self.lines.append("    if value is not None:")
            indent = "        "
        self.lines.append(f"{indent}values[{key}] = {expression or 'copy_value(value)'}")

    def expression(self, annotation: Any) -> str | None:
        """Code copying ``value`` of this annotation; None = share it."""
        if _is_atomic(annotation):
            return None
        model = _model_class(annotation)
        if model is not None:
            return f"{self.model(model)}(value) if isinstance(value, BaseModel) else copy_value(value)"
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
        if origin is list and len(args) == 1:
            item = _model_class(args[0])
            if _is_atomic(args[0]):
                return "value.copy() if value.__class__ is list else copy_value(value)"
            if item is not None:
                return (f"[{self.model(item)}(item) for item in value] if value.__class__ is list "
                        "else copy_value(value)")
        if origin is dict and len(args) == 2:
            item = _model_class(args[1])
            if _is_atomic(args[1]):
                return "value.copy() if value.__class__ is dict else copy_value(value)"
            if item is not None:
                return (f"{{key: {self.model(item)}(item) for key, item in value.items()}} "
                        "if value.__class__ is dict else copy_value(value)")
        return "copy_value(value)"


_COPIERS: dict[type, Callable[[Any], Any]] = {}


def _copier(cls: type) -> Callable[[Any], Any]:
    """The copier of one model class, generated once from its field annotations: straight-line
    code per class is what makes the copy cheap (a state holds about a hundred models)."""
    found = _COPIERS.get(cls)
    if found is not None:
        return found
    source = _Source()
    for name, field in cls.model_fields.items():  # type: ignore[attr-defined]
        source.field(name, field.annotation)
    extra = "copy_value(model.__pydantic_extra__)" if cls.model_config.get("extra") == "allow" else "None"  # type: ignore[attr-defined]
    private = "copy_value(model.__pydantic_private__)" if cls.__private_attributes__ else "None"  # type: ignore[attr-defined]
    code = "\n".join([
        "def copy_model(model):",
        "    values = model.__dict__.copy()",
        *source.lines,
        "    new = new_instance(cls)",
        "    set_dict(new, values)",
        "    set_fields_set(new, model.__pydantic_fields_set__.copy())",
        f"    set_extra(new, {extra})",
        f"    set_private(new, {private})",
        "    return new",
    ])
    namespace: dict[str, Any] = {"cls": cls, "new_instance": _new_instance, "set_dict": set_dict,
                                 "set_fields_set": set_fields_set, "set_extra": set_extra,
                                 "set_private": set_private, "copy_value": _copy_value, "BaseModel": BaseModel}
    exec(compile(code, f"<clone of {cls.__qualname__}>", "exec"), namespace)  # noqa: S102 - our own generated code
    copy_model = namespace["copy_model"]
    _COPIERS[cls] = copy_model
    for index, nested in enumerate(source.models):
        namespace[f"copy_{index}"] = _copier(nested)
    return copy_model

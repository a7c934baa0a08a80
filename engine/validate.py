"""Turn a raw choice dict into a typed answer, or an IllegalChoice a player can read."""

from __future__ import annotations

import hashlib
import json
import types
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from engine.contract import IllegalChoice

M = TypeVar("M", bound=BaseModel)


def parse_choice(model: type[M], choice: Any) -> M:
    if not isinstance(choice, dict):
        raise IllegalChoice(f"a choice must be a set of named fields, not {type(choice).__name__}")
    try:
        return model.model_validate(choice, strict=False)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"]) or "choice"
            if err["type"] == "extra_forbidden":
                problems.append(f"unknown field '{where}'")
            elif err["type"] == "missing":
                problems.append(f"'{where}' is missing")
            else:
                problems.append(f"'{where}': {err['msg']}")
        raise IllegalChoice("; ".join(problems)) from None


def allowed_values(model: type[BaseModel] | None, name: str) -> list[Any]:
    """The values a Literal field of `model` takes (None and other types left out)."""
    field = model.model_fields.get(name) if model is not None else None
    if field is None:
        return []
    pending, values = [field.annotation], []
    while pending:
        annotation = pending.pop(0)
        if get_origin(annotation) is Literal:
            values += list(get_args(annotation))
        elif get_origin(annotation) in (Union, types.UnionType):
            pending += list(get_args(annotation))
    return values


def bounds(model: type[BaseModel] | None, name: str) -> tuple[Any, Any]:
    """The inclusive (lowest, highest) a numeric field of `model` allows; None where open."""
    field = model.model_fields.get(name) if model is not None else None
    low = high = None
    for rule in field.metadata if field is not None else ():
        low = getattr(rule, "ge", low)
        high = getattr(rule, "le", high)
    return low, high


def explain_invalid(exc: ValidationError, model: type[BaseModel] | None = None) -> str:
    """One plain sentence per problem, naming the field and what it allows (no pydantic jargon,
    no links): e.g. "mode must be one of base, quickstart, lwtv."."""
    sentences = []
    for err in exc.errors():
        name = ".".join(str(p) for p in err["loc"]) or "the value"
        ctx, kind = err.get("ctx") or {}, err["type"]
        low, high = bounds(model, name)
        if kind == "literal_error":
            allowed = allowed_values(model, name)
            listed = ", ".join(map(str, allowed)) if allowed else str(ctx.get("expected", "")).replace("'", "")
            sentences.append(f"{name} must be one of {listed}.")
        elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than") and None not in (low, high):
            sentences.append(f"{name} must be from {low} to {high}.")
        elif kind in ("greater_than_equal", "greater_than"):
            sentences.append(f"{name} must be at least {ctx.get('ge', ctx.get('gt'))}.")
        elif kind in ("less_than_equal", "less_than"):
            sentences.append(f"{name} must be at most {ctx.get('le', ctx.get('lt'))}.")
        elif kind.startswith("int_"):
            sentences.append(f"{name} must be a whole number.")
        elif kind.startswith("float_"):
            sentences.append(f"{name} must be a number.")
        elif kind == "extra_forbidden":
            sentences.append(f"There is no option {name}.")
        elif kind == "missing":
            sentences.append(f"{name} is required.")
        elif kind in ("dict_type", "model_type", "model_attributes_type"):
            sentences.append("Give them as name=value pairs.")
        else:
            sentences.append(f"{name}: {err['msg']}.")
    return " ".join(sentences)


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_JSON_ATOMS = (str, int, float, bool, type(None))


def same_json(first: Any, second: Any) -> bool:
    """Whether two values equal under ``==`` also have the same `canonical_json` (``==`` takes
    True for 1 and 1.0 for 1; JSON does not), without writing either out: plain JSON data
    (str keys, lists, atoms) is compared type by type, anything else through its JSON."""
    kind = type(first)
    if kind is not type(second):
        if kind in (list, tuple) and type(second) in (list, tuple):
            return all(map(same_json, first, second))
    elif kind is dict:
        if all(type(key) is str for key in first):
            return all(same_json(value, second[key]) for key, value in first.items())
    elif kind is list or kind is tuple:
        return all(map(same_json, first, second))
    elif kind in _JSON_ATOMS:
        return True
    try:
        return canonical_json(first) == canonical_json(second)
    except (TypeError, ValueError):
        return False


def log_sha256(log: list[tuple[int, dict[str, Any]]]) -> str:
    """The fingerprint of a choice log: equal logs, equal hashes, on any machine."""
    return hashlib.sha256(canonical_json([[s, c] for s, c in log]).encode()).hexdigest()

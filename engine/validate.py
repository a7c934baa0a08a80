"""Turn a raw choice dict into a typed answer, or an IllegalChoice a player can read."""

from __future__ import annotations

import hashlib
import json
from typing import Any, TypeVar

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


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def log_sha256(log: list[tuple[int, dict[str, Any]]]) -> str:
    """The fingerprint of a choice log: equal logs, equal hashes, on any machine."""
    return hashlib.sha256(canonical_json([[s, c] for s, c in log]).encode()).hexdigest()

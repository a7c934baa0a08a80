"""Discord's own OpenAPI spec as the fake's gatekeeper: every REST request the bot makes is
matched to a route of the spec and its path, query and body are validated against that
route's request schema, so the fake refuses exactly the shapes Discord refuses.

The spec (MIT, discord/discord-api-spec) is read from `WARHOST_DISCORD_SPEC`, or from the
shared reference copy beside the repository. Without it the fake still runs, unvalidated,
and says so once in the test run's header (`SpecUnavailable.reason`).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

SPEC_ENV = "WARHOST_DISCORD_SPEC"
SHARED_COPY = Path(__file__).resolve().parents[3] / "shared" / "reference" / "discord-api-spec" / "openapi.json"
API_PREFIX = "/api/v10"

# Discord's error codes inside 50035 bodies, by the JSON Schema keyword that failed.
_ERROR_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "required": "BASE_TYPE_REQUIRED",
    "type": "BASE_TYPE_BAD_TYPE",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "pattern": "STRING_TYPE_REGEX",
    "oneOf": "UNION_TYPE_CHOICES",
    "anyOf": "UNION_TYPE_CHOICES",
    "additionalProperties": "UNKNOWN_FIELD",
}


@dataclass(frozen=True)
class SpecError:
    """A request Discord would refuse: the HTTP status, Discord's body and a line for the test log."""

    status: int
    body: dict[str, Any]
    detail: str


@dataclass
class Operation:
    """One method of one spec path, with validators built on first use."""

    template: str
    method: str
    path_params: dict[str, dict[str, Any]]
    query_params: dict[str, dict[str, Any]]
    body_schema: dict[str, Any] | None
    body_required: bool
    validators: dict[str, Draft202012Validator] = field(default_factory=dict)


def spec_path() -> Path | None:
    """Where the spec is, or None when this checkout has no copy of it."""
    configured = os.environ.get(SPEC_ENV)
    if configured:
        path = Path(configured)
        return path if path.is_file() else None
    return SHARED_COPY if SHARED_COPY.is_file() else None


def unavailable_reason() -> str | None:
    """A one-line explanation when requests cannot be validated; None when they are."""
    configured = os.environ.get(SPEC_ENV)
    if configured and not Path(configured).is_file():
        return f"{SPEC_ENV}={configured} does not exist: REST requests are NOT validated against Discord's spec"
    if spec_path() is None:
        return (f"Discord's OpenAPI spec was not found (set {SPEC_ENV} to openapi.json): "
                "REST requests are NOT validated against it")
    return None


class DiscordSpec:
    """The routes of the spec, matched most-literal first, each validated on request."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self._root = Draft202012Validator({"$defs": {}, **document})
        self._routes: list[tuple[re.Pattern[str], str, dict[str, Operation]]] = []
        for template, item in document["paths"].items():
            shared = item.get("parameters", [])
            operations = {method.upper(): self._operation(template, method.upper(), shared + op.get("parameters", []), op)
                          for method, op in item.items() if method != "parameters"}
            regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            self._routes.append((re.compile(f"^{regex}$"), template, operations))
        # A literal segment beats a parameter: /users/@me before /users/{user_id}.
        self._routes.sort(key=lambda route: -sum(1 for part in route[1].split("/") if part and "{" not in part))

    @staticmethod
    def _operation(template: str, method: str, parameters: list[dict[str, Any]], op: dict[str, Any]) -> Operation:
        path_params = {p["name"]: p["schema"] for p in parameters if p.get("in") == "path"}
        query_params = {p["name"]: p["schema"] for p in parameters if p.get("in") == "query"}
        request_body = op.get("requestBody") or {}
        schema = (request_body.get("content") or {}).get("application/json", {}).get("schema")
        return Operation(template, method, path_params, query_params, schema, bool(request_body.get("required")))

    def route(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | SpecError:
        """The spec operation for `method path` (relative to /api/v10), or Discord's 404 / 405."""
        for pattern, _, operations in self._routes:
            found = pattern.match(path)
            if found is None:
                continue
            operation = operations.get(method)
            if operation is None:
                return SpecError(405, {"message": "405: Method Not Allowed", "code": 0},
                                 f"{method} {path}: the spec has no {method} for this route")
            return operation, found.groupdict()
        return SpecError(404, {"message": "404: Not Found", "code": 0}, f"{method} {path}: no such route in the spec")

    def _validator(self, operation: Operation, key: str, schema: dict[str, Any]) -> Draft202012Validator:
        validator = operation.validators.get(key)
        if validator is None:
            validator = self._root.evolve(schema=schema)
            operation.validators[key] = validator
        return validator

    def check(self, method: str, path: str, query: dict[str, str], body: Any) -> SpecError | None:
        """None when Discord would accept the request's shape; else the refusal Discord sends."""
        routed = self.route(method, path)
        if isinstance(routed, SpecError):
            return routed
        operation, params = routed
        errors: dict[str, Any] = {}
        lines: list[str] = []
        for name, value in params.items():
            schema = operation.path_params.get(name)
            if schema is not None:
                self._collect(self._validator(operation, f"path:{name}", schema), value, [name], errors, lines)
        for name, raw in query.items():
            schema = operation.query_params.get(name)
            if schema is not None:
                value = _query_value(raw, self._resolve(schema))
                self._collect(self._validator(operation, f"query:{name}", schema), value, [name], errors, lines)
        if operation.body_schema is not None:
            if body is None and operation.body_required:
                errors["_errors"] = [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]
                lines.append("body: required")
            elif body is not None:
                self._collect(self._validator(operation, "body", operation.body_schema), body, [], errors, lines)
        if not errors:
            return None
        return SpecError(400, {"message": "Invalid Form Body", "code": 50035, "errors": errors},
                         f"{method} {operation.template}: " + "; ".join(lines))

    def _resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        ref = schema.get("$ref")
        if not ref:
            return schema
        node: Any = self.document
        for part in ref.removeprefix("#/").split("/"):
            node = node[part]
        return node

    @staticmethod
    def _collect(validator: Draft202012Validator, value: Any, prefix: list[str], errors: dict[str, Any],
                 lines: list[str]) -> None:
        found = [_deepest(error) for error in validator.iter_errors(value)]
        if not found:
            return
        error = max(found, key=lambda e: len(e.absolute_path))
        where = prefix + [str(part) for part in error.absolute_path]
        node = errors
        for part in where:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append(
            {"code": _ERROR_CODES.get(str(error.validator), "BASE_TYPE_INVALID"), "message": _message(error)})
        lines.append(f"{'.'.join(where) or 'body'}: {_message(error)}")


def _message(error: ValidationError) -> str:
    """The failed rule in a line: jsonschema quotes the whole value, which may be kilobytes."""
    if error.validator in ("maxLength", "minLength", "maxItems", "minItems") and hasattr(error.instance, "__len__"):
        return f"length {len(error.instance)} breaks {error.validator} {error.validator_value}"
    text = error.message
    return text if len(text) <= 200 else text[:197] + "..."


def _mismatched(found: list[ValidationError], depth: int) -> bool:
    """A union branch the value is not of: its own type or its `type` discriminator failed."""
    return any(len(e.absolute_path) <= depth + 1 and e.validator in ("const", "enum", "type") for e in found)


def _deepest(error: ValidationError) -> ValidationError:
    """For a failed oneOf, the error inside the branch the value meant to be (its `type` matched),
    as Discord names the failing field rather than the union."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        base = len(error.absolute_path)
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)

        candidates = [found for found in branches.values() if not _mismatched(found, base)] or list(branches.values())
        chosen = max(candidates, key=lambda found: max(len(e.absolute_path) for e in found))
        error = max(chosen, key=lambda e: len(e.absolute_path))
    return error


def _query_value(raw: str, schema: dict[str, Any]) -> Any:
    """Query strings are text; read them as the schema's type, as Discord's parser does."""
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "boolean" in kinds and raw.lower() in ("true", "false", "1", "0"):
        return raw.lower() in ("true", "1")
    if "integer" in kinds and re.fullmatch(r"-?\d+", raw):
        return int(raw)
    if "number" in kinds:
        try:
            return float(raw)
        except ValueError:
            return raw
    return raw


def _widen_known_gaps(document: dict[str, Any]) -> dict[str, Any]:
    """Where the spec is stricter than Discord itself, widen it to what Discord documents and
    accepts, each gap named here: the fake must refuse what Discord refuses, no more.

    - Snowflakes in requests: the spec types them as decimal strings, but Discord reads a JSON
      integer snowflake as well, and discord.py sends integers (a DM's `recipient_id`, an uploaded
      attachment's `id`, which Discord's docs show as the number of its `files[n]` part)."""
    schemas = document["components"]["schemas"]
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]}
    return document


@lru_cache(maxsize=2)
def _load(path: str) -> DiscordSpec:
    return DiscordSpec(_widen_known_gaps(json.loads(Path(path).read_text(encoding="utf-8"))))


def load_spec() -> DiscordSpec | None:
    """The spec, parsed once per process; None when no copy is available."""
    path = spec_path()
    return _load(str(path)) if path is not None else None

"""Discord's rules for a bulk command upload (PUT /applications/{id}[/guilds/{id}]/commands),
answered as Discord does: 400 Invalid Form Body with the errors nested by path
(`{"0": {"options": {"2": {"max_value": {"_errors": [...]}}}}}`), which discord.py turns into
a CommandSyncFailure naming the command and parameter.

Limits come from Discord's OpenAPI spec (ApplicationCommandUpdateRequest and the option
schemas: Int53 bounds, 1-32 names, 1-100 descriptions, 25 options and choices, 6000 lengths);
the rest from Discord's documentation (name pattern, lowercase chat-input names, required
options first, unique names, the 4000-character command size, at most 100 chat-input commands).
"""

from __future__ import annotations

import re
from typing import Any

INT53 = 2**53 - 1
NAME_PATTERN = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
SUBCOMMAND, GROUP, STRING, INTEGER, NUMBER = 1, 2, 3, 4, 10
VALUE_TYPES = {3, 4, 5, 6, 7, 8, 9, 10, 11}
MAX_OPTIONS = MAX_CHOICES = 25
MAX_TEXT = 6000
MAX_COMMAND_SIZE = 4000
MAX_CHAT_INPUT_COMMANDS = 100

Path = tuple[str, ...]


class FormErrors:
    """Discord's nested `errors` object, built one failing field at a time."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.flat: list[str] = []

    def add(self, path: Path, code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.flat.append(f"{'.'.join(path)}: {message}")


def check_commands(body: Any) -> FormErrors:
    """Every rule the upload breaks (none: `flat` is empty)."""
    errors = FormErrors()
    if not isinstance(body, list):
        errors.add((), "BASE_TYPE_ARRAY", "Must be an array.")
        return errors
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(body):
        path = (str(index),)
        kind = int(command.get("type") or 1)
        _name(command, path, errors, lowercase=kind == 1)
        if (kind, command.get("name")) in seen:
            errors.add((*path, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        seen.add((kind, command.get("name")))
        if kind == 1:
            _length(command, "description", 1, 100, path, errors)
            _options(command.get("options") or [], path, errors, allowed={SUBCOMMAND, GROUP, *VALUE_TYPES})
        if _size(command) > MAX_COMMAND_SIZE:
            errors.add(path, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({MAX_COMMAND_SIZE})")
    if sum(1 for c in body if int(c.get("type") or 1) == 1) > MAX_CHAT_INPUT_COMMANDS:
        errors.add((), "APPLICATION_COMMANDS_TOO_MANY", f"Maximum number of application commands reached "
                                                        f"({MAX_CHAT_INPUT_COMMANDS})")
    return errors


def _name(item: dict, path: Path, errors: FormErrors, *, lowercase: bool) -> None:
    name = item.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        errors.add((*path, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
    elif not NAME_PATTERN.match(name) or (lowercase and name != name.lower()):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _length(item: dict, key: str, low: int, high: int, path: Path, errors: FormErrors) -> None:
    value = item.get(key)
    if not isinstance(value, str) or not low <= len(value) <= high:
        errors.add((*path, key), "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _bounded(item: dict, key: str, low: float, high: float, path: Path, errors: FormErrors) -> None:
    value = item.get(key)
    if value is None:
        return
    if value > high:
        errors.add((*path, key), "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}.")
    elif value < low:
        errors.add((*path, key), "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}.")


def _options(options: list[dict], path: Path, errors: FormErrors, *, allowed: set[int]) -> None:
    """One level of options: subcommands and groups recurse; value options carry their limits."""
    if len(options) > MAX_OPTIONS:
        errors.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length.")
    names: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        here = (*path, "options", str(index))
        kind = option.get("type")
        if kind not in allowed:
            errors.add((*here, "type"), "BASE_TYPE_CHOICES", f"Value must be one of {sorted(allowed)}.")
            continue
        _name(option, here, errors, lowercase=True)
        _length(option, "description", 1, 100, here, errors)
        if option.get("name") in names:
            errors.add((*here, "name"), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option names must be unique")
        names.add(option.get("name"))
        if kind in (SUBCOMMAND, GROUP):
            inner = {SUBCOMMAND} if kind == GROUP else VALUE_TYPES
            _options(option.get("options") or [], here, errors, allowed=inner)
            continue
        if option.get("required") and optional_seen:
            errors.add(here, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                       "Required options must be placed before non-required options")
        optional_seen = optional_seen or not option.get("required")
        _value_option(option, here, errors)


def _value_option(option: dict, path: Path, errors: FormErrors) -> None:
    kind = option["type"]
    choices = option.get("choices") or []
    if len(choices) > MAX_CHOICES:
        errors.add((*path, "choices"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length.")
    if choices and option.get("autocomplete"):
        errors.add((*path, "autocomplete"), "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES",
                   "Autocomplete cannot be set on an option with choices")
    for index, choice in enumerate(choices):
        here = (*path, "choices", str(index))
        _length(choice, "name", 1, 100, here, errors)
        if kind == INTEGER:
            _bounded(choice, "value", -INT53, INT53, here, errors)
        elif kind == STRING and len(str(choice.get("value", ""))) > MAX_TEXT:
            errors.add((*here, "value"), "BASE_TYPE_BAD_LENGTH", f"Must be between 0 and {MAX_TEXT} in length.")
    if kind == INTEGER:
        for key in ("min_value", "max_value"):
            _bounded(option, key, -INT53, INT53, path, errors)
    if kind == STRING:
        _bounded(option, "min_length", 0, MAX_TEXT, path, errors)
        _bounded(option, "max_length", 1, MAX_TEXT, path, errors)


def _size(command: dict) -> int:
    """Discord's command size: the characters of every name, description and choice value in it."""
    total = len(str(command.get("name", ""))) + len(str(command.get("description", "")))
    for option in command.get("options") or []:
        total += _size(option)
    for choice in command.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total

"""Discord's rules for a bulk command upload (PUT /applications/{id}[/guilds/{id}]/commands)
that its OpenAPI spec cannot express, answered as Discord does: 400 Invalid Form Body with the
errors nested by path (`{"0": {"options": {"1": {"name": {"_errors": [...]}}}}}`), which
discord.py turns into a CommandSyncFailure naming the command.

The spec gate (spec.py) already refuses what the schema says (lengths, 25 options and choices,
Int53 bounds, which option types nest where); these are the documented rules beside it: the
name pattern and lowercase chat-input names, a description on every chat-input command, unique
names, required options first, no autocomplete with choices, min not above max, the
4000-character command size and at most 100 chat-input commands.
"""

from __future__ import annotations

import re
from typing import Any

NAME_PATTERN = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
CHAT_INPUT, SUBCOMMAND, GROUP = 1, 1, 2
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
    """Every documented rule the upload breaks (none: `flat` is empty)."""
    errors = FormErrors()
    commands = [c for c in body if isinstance(c, dict)] if isinstance(body, list) else []
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        path = (str(index),)
        kind = int(command.get("type") or CHAT_INPUT)
        _name(command, path, errors, lowercase=kind == CHAT_INPUT)
        if (kind, command.get("name")) in seen:
            errors.add((*path, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        seen.add((kind, command.get("name")))
        if kind == CHAT_INPUT:
            if not command.get("description"):
                errors.add((*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            _options(command.get("options") or [], path, errors)
        if _size(command) > MAX_COMMAND_SIZE:
            errors.add(path, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({MAX_COMMAND_SIZE})")
    if sum(1 for c in commands if int(c.get("type") or CHAT_INPUT) == CHAT_INPUT) > MAX_CHAT_INPUT_COMMANDS:
        errors.add((), "APPLICATION_COMMANDS_TOO_MANY",
                   f"Maximum number of application commands reached ({MAX_CHAT_INPUT_COMMANDS})")
    return errors


def _name(item: dict, path: Path, errors: FormErrors, *, lowercase: bool) -> None:
    name = item.get("name")
    if isinstance(name, str) and (not NAME_PATTERN.match(name) or (lowercase and name != name.lower())):
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _options(options: list[dict], path: Path, errors: FormErrors) -> None:
    """One level of options: subcommands and groups recurse; value options keep Discord's order rules."""
    names: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        here = (*path, "options", str(index))
        _name(option, here, errors, lowercase=True)
        if option.get("name") in names:
            errors.add((*here, "name"), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option names must be unique")
        names.add(option.get("name"))
        if option.get("type") in (SUBCOMMAND, GROUP):
            _options(option.get("options") or [], here, errors)
            continue
        if option.get("required") and optional_seen:
            errors.add(here, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                       "Required options must be placed before non-required options")
        optional_seen = optional_seen or not option.get("required")
        if option.get("choices") and option.get("autocomplete"):
            errors.add((*here, "autocomplete"), "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES",
                       "Autocomplete cannot be set on an option with choices")
        for low, high in (("min_value", "max_value"), ("min_length", "max_length")):
            if option.get(low) is not None and option.get(high) is not None and option[low] > option[high]:
                errors.add((*here, low), "NUMBER_TYPE_MAX", f"{low} must be less than or equal to {high}")


def _size(command: dict) -> int:
    """Discord's command size: the characters of every name, description and choice in it."""
    total = len(str(command.get("name", ""))) + len(str(command.get("description", "")))
    for option in command.get("options") or []:
        total += _size(option)
    for choice in command.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total

"""Players' names in what the engine writes: every front-end (Discord, the terminal) shows a
prompt only after this, so an engine seat reference like "[[seat:1]]" never reaches a reader.

Prompts reach front-ends as the engine's ``Prompt`` (an open decision read from the service) or
as the JSON dict a prompt notice stored; ``named_prompt`` is their entry point: it parses either
once into ``ShownPrompt`` and front-ends read its attributes, never ``.get`` with a guessed default."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict

from engine.contract import Option, Prompt, PromptShape
from engine.text import fill


class ShownPrompt(PromptShape):
    """A decision as front-ends show it: the engine's ``PromptShape`` (engine/contract.py, which
    documents each field), read-only. The answer model never leaves the engine."""

    model_config = ConfigDict(frozen=True)


def shown_prompt(prompt: Prompt | ShownPrompt | Mapping[str, Any]) -> ShownPrompt:
    """The prompt as a front-end reads it, from the engine's model or a stored prompt dict."""
    if isinstance(prompt, ShownPrompt):
        return prompt
    if isinstance(prompt, Prompt):
        return ShownPrompt.model_validate(prompt, from_attributes=True)
    return ShownPrompt.model_validate(prompt)


def named_prompt(prompt: Prompt | ShownPrompt | Mapping[str, Any], names: list[str]) -> ShownPrompt:
    """The prompt with players' names in place of the engine's seat references, in every
    text a player reads: its question, option labels and descriptions, field labels. What has
    no reference is kept as it is, not copied (most options have none; a copy of each cost more
    than the rest of a turn DM's render): the prompt itself when nothing has one."""
    shown = shown_prompt(prompt)
    text = fill(shown.text, names)
    options = [_named_option(option, names) for option in shown.options]
    fields = [field if (label := fill(field.label, names)) == field.label else field.model_copy(update={"label": label})
              for field in shown.fields]
    if (text == shown.text and all(new is old for new, old in zip(options, shown.options, strict=True))
            and all(new is old for new, old in zip(fields, shown.fields, strict=True))):
        return shown
    return shown.model_copy(update={"text": text, "options": options, "fields": fields})


def _named_option(option: Option, names: list[str]) -> Option:
    """An option with names in its label and description (itself when they name no seat)."""
    label, description = fill(option.label, names), fill(option.description, names)
    if label == option.label and description == option.description:
        return option
    return option.model_copy(update={"label": label, "description": description})

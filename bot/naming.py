"""Players' names in what the engine writes: every front-end (Discord, the terminal) shows a
prompt only after this, so an engine seat reference like "[[seat:1]]" never reaches a reader.

Prompts reach front-ends as the engine's ``Prompt`` (an open decision read from the service) or
as the JSON dict a prompt notice stored; ``named_prompt`` is their entry point: it parses either
once into ``ShownPrompt`` and front-ends read its attributes, never ``.get`` with a guessed default."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict

from engine.contract import Prompt, PromptShape
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
    text a player reads: its question, option labels and descriptions, field labels."""
    shown = shown_prompt(prompt)
    return shown.model_copy(update={
        "text": fill(shown.text, names),
        "options": [option.model_copy(update={"label": fill(option.label, names),
                                              "description": fill(option.description, names)})
                    for option in shown.options],
        "fields": [field.model_copy(update={"label": fill(field.label, names)}) for field in shown.fields],
    })

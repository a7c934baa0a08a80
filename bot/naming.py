"""Players' names in what the engine writes: every front-end (Discord, the terminal) shows a
prompt only after this, so an engine seat reference like "[[seat:1]]" never reaches a reader."""

from __future__ import annotations

from typing import Any

from engine.text import fill


def named_prompt(prompt: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The prompt with players' names in place of the engine's seat references, in every
    text a player reads: its question, option labels and descriptions, field labels."""
    out = dict(prompt)
    out["text"] = fill(str(prompt.get("text") or ""), names)
    out["options"] = [
        {**o, "label": fill(str(o.get("label", "")), names),
         "description": fill(str(o.get("description") or ""), names)}
        for o in prompt.get("options") or []
    ]
    out["fields"] = [{**f, "label": fill(str(f.get("label", "")), names)} for f in prompt.get("fields") or []]
    return out

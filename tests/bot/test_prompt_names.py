"""Prompts reach players with names, never the engine's raw seat references."""

from __future__ import annotations

from bot.discord.prompt_ui import prompt_view
from bot.naming import named_prompt


def test_seat_references_in_prompt_texts_become_names() -> None:
    prompt = {
        "seat": 2, "kind": "counter", "text": "Counter [[seat:0]]'s ninja", "input": "choose",
        "options": [{"value": "0", "label": "Attack Awaji ([[seat:1]], naval)", "description": "[[seat:1]] holds it",
                     "choice": {"act": "attack", "target": "awaji"}}],
        "fields": [{"name": "n", "label": "Help [[seat:2]]", "min": 0, "max": 1}],
    }
    named = named_prompt(prompt, ["alice", "bob"])
    assert named.text == "Counter alice's ninja"
    assert named.options[0].label == "Attack Awaji (bob, naval)"
    assert named.options[0].description == "bob holds it"
    assert named.options[0].choice == prompt["options"][0]["choice"]
    assert named.fields[0].label == "Help Player 3"
    assert prompt["options"][0]["label"].startswith("Attack Awaji ([[seat:1]]")
    view = prompt_view(1, 0, 1, named)
    assert [c.label for c in view.children] == ["Attack Awaji (bob, naval)"]

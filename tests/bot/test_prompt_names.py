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


def test_a_front_end_reads_every_field_of_the_engines_prompt_but_its_answer_model() -> None:
    """A stored prompt notice and a live prompt both reach front-ends as ``ShownPrompt``: every
    field the engine set (a deadline, optional, shared...) arrives, and the answer model never does."""
    from pydantic import BaseModel

    from bot.naming import shown_prompt
    from engine.contract import NumberField, Option, Prompt

    class Answer(BaseModel):
        n: int

    prompt = Prompt(seat=1, kind="bid", text="Bid", answer=Answer, input="numbers", field="bids",
                    options=[Option(value="a", label="A", choice={"n": 1})], min_picks=1, max_picks=2,
                    fields=[NumberField(name="n", label="N", max=3)], secret=True, answered=True, shared=True,
                    optional=True, default={"n": 0}, deadline_hours=2.5)
    for shown in (shown_prompt(prompt), shown_prompt(prompt.model_dump(mode="json"))):
        assert shown.model_dump() == prompt.model_dump()
        assert "answer" not in shown.model_dump() and not hasattr(shown, "answer")


def test_a_prompts_buttons_go_out_but_discord_py_keeps_no_view_of_them() -> None:
    """The bot's router answers every click, so a sent view is not kept by discord.py (it stores
    a view it can dispatch, with a 60 s timeout task for each message): the buttons still go out."""
    from bot.discord.prompt_ui import changed_view

    prompt = {"seat": 0, "kind": "move", "text": "Move", "input": "choose",
              "options": [{"value": "a", "label": "North"}, {"value": "b", "label": "South"}]}
    view = prompt_view(7, 0, 3, named_prompt(prompt, ["alice"]))
    sent = [child["custom_id"] for row in view.to_components() for child in row["components"]]
    assert len(sent) == 2 and all(custom_id for custom_id in sent)
    assert not view.is_dispatchable()
    assert not changed_view(7, 0, 3).is_dispatchable()

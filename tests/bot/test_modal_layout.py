"""The numbers form is built the way Discord documents modals today: each text input inside a
Label component (type 18), not the legacy action row, within Discord's limits."""

from __future__ import annotations

from bot.discord.prompt_ui import NOTHING_TO_ENTER, NumbersModal, prompt_view
from bot.naming import shown_prompt
from tests.fakediscord.limits import check_modal

PROMPT = shown_prompt({
    "seat": 0, "kind": "energy", "text": "Spend your energy", "input": "numbers",
    "fields": [{"name": f"f{i}", "label": f"Field {i}", "min": 0, "max": 9} for i in range(7)],
    "default": {"f0": 3},
})


def test_numbers_modal_uses_labels_and_fits_discord() -> None:
    data = NumbersModal(1, 0, 5, PROMPT).to_dict()
    tops = data["components"]
    assert [top["type"] for top in tops] == [18] * 5, "at most five inputs, each in a Label"
    assert tops[0]["label"] == "Field 0 (0-9)"
    assert tops[0]["component"]["type"] == 4 and tops[0]["component"]["value"] == "3"
    assert check_modal(data) == []


def test_a_numbers_prompt_with_nothing_to_enter_offers_no_form() -> None:
    """Discord refuses a form without an input (50035): such a prompt's button answers at once."""
    empty = shown_prompt({"seat": 0, "kind": "gather", "text": "Take units", "input": "numbers",
                          "fields": [], "default": {}})
    buttons = [item for item in prompt_view(1, 0, 5, empty).children]
    assert [getattr(button, "label", None) for button in buttons] == [NOTHING_TO_ENTER]
    assert [getattr(button, "label", None) for button in prompt_view(1, 0, 5, PROMPT).children] == ["Enter numbers"]

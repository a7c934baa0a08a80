"""Samurai's LWTV hand-limit discard and the muster's losses order, as the Discord front-end
draws them through the generic prompt UI: one button per option (labels within 80), the
secret note, the deadline line, and each button submits a choice the engine accepts."""

from __future__ import annotations

from datetime import UTC, datetime

import engine
from bot.discord.prompt_ui import prompt_text, prompt_view
from bot.naming import named_prompt
from engine.samurai.hand_limit import discard_prompt
from engine.samurai.losses_order import order_prompt, start
from engine.samurai.state import Army, SamuraiOptions

NAMES = ["alice", "bob", "carol"]


def drawn(prompt: engine.Prompt) -> tuple[str, list[str]]:
    shown = named_prompt(prompt.model_dump(mode="json"), NAMES)
    text = prompt_text(shown, datetime(2030, 1, 1, tzinfo=UTC), "**Samurai Swords** in <#1>")
    view = prompt_view(123456789, shown.seat, 99999, shown)
    labels = [item.label for item in view.children]  # buttons: a few options
    assert len(text) <= 2000 and all(len(label) <= 80 for label in labels)
    assert all(len(item.custom_id) <= 100 for item in view.children)
    return text, labels


def test_the_discard_prompt_is_a_sealed_row_of_buttons_the_engine_accepts() -> None:
    game = engine.get("samurai")
    state = game.setup(3, SamuraiOptions(mode="lwtv", round_limit=2), 7)
    state.phase = "war"
    player = state.players[0]
    player.armies = [Army(idx=index, alive=index == 0) for index in range(3)]
    player.hand = ["merchant_port", "lord_of_kanto"]
    prompt = discard_prompt(state, 0)
    text, labels = drawn(prompt)
    assert "secret: only you see this" in text and "Deadline <t:" in text
    assert labels == ["Discard Merchants of Sakai", "Discard Lord of the Eastern Plain"]
    for option in prompt.options:
        engine.validate.parse_choice(prompt.answer, option.choice)


def test_the_losses_order_prompt_is_a_sealed_row_of_buttons() -> None:
    game = engine.get("samurai")
    state = game.setup(3, SamuraiOptions(mode="base"), 7)
    start(state, 1)
    text, labels = drawn(order_prompt(state, 1))
    assert "secret: only you see this" in text and "which units fall first?" in text
    assert labels == ["Ronin", "Spearmen", "Gunners", "Swordsmen", "Bowmen", "Ask me in every battle"]

"""Every kind of Tiny Epic Defenders prompt, as the Discord front-end draws it, keeps within
Discord's limits: button labels of 80, at most 25 select options, a select past 10 options,
message text of 2000."""

from __future__ import annotations

import engine
from bot.discord.prompt_ui import BUTTONS_MAX, prompt_text, prompt_view
from bot.naming import named_prompt
from bot.simulate import simulate

KINDS = {"skill", "turn", "all", "react", "target", "defend", "artifact", "rebuild"}


def check(prompt: dict, names: list[str], seen: dict[str, int]) -> None:
    shown = named_prompt(prompt, names)
    seen[shown.kind] = seen.get(shown.kind, 0) + 1
    seen.setdefault("select", 0)
    text = prompt_text(shown, None, "**Tiny Epic Defenders** in <#1>")
    assert len(text) <= 2000 and "[[seat:" not in text
    view = prompt_view(123456789, shown.seat, 99999, shown)
    items = view.children
    options = shown.options
    assert 1 <= len(options) <= 25
    if len(options) > BUTTONS_MAX:
        seen["select"] = seen.get("select", 0) + 1
        assert len(items) == 1 and len(items[0].options) == len(options)
        for o in items[0].options:
            assert len(o.label) <= 100 and (o.description is None or len(o.description) <= 100)
    else:
        assert len(items) == len(options)
        for b in items:
            assert len(b.label) <= 80 and "[[seat:" not in b.label
    for item in items:
        assert len(item.custom_id) <= 100


def test_every_prompt_kind_fits_discord() -> None:
    game = engine.get("defenders")
    seen: dict[str, int] = {}

    def walk(seats: int, seed: int, mode: str, policy: str) -> None:
        names = [f"player{n}" for n in range(seats)]

        def on_step(state, _events) -> None:
            for p in game.prompts(state):
                check(p.model_dump(mode="json"), names, seen)

        simulate("defenders", seats, seed, policy, options={"mode": mode}, on_step=on_step)

    for seed in range(1, 5):
        walk(1 + seed % 4, seed, "campaign" if seed % 2 else "single", "random")
        walk(2, seed, "campaign", "heuristic")
    assert set(seen) - {"select"} == KINDS, seen  # these seeds reach every kind, artifacts and rebuild included
    assert seen["select"] > 0  # long AP menus became a select menu

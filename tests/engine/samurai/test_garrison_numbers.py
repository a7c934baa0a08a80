"""The numbers a garrison's attack shows agree: the declaration option's "up to N units", the force
prompt's "At most N units" and each field's "up to k" (k is the field's maximum), and the battle
line's count names the ronin among its units."""

from __future__ import annotations

import re

import engine
from engine.samurai.garrison_forces import force_prompt
from engine.samurai.movement import garrison_attackers

GAME = engine.get("samurai")


def test_a_garrison_attack_counts_the_same_units_everywhere() -> None:
    policy = GAME.policies()["heuristic"]
    checked = 0
    battle_lines = []
    for seed in (1, 2):
        state = GAME.setup(3, engine.parse_options(GAME, None), seed)
        while GAME.result(state) is None and state.round <= 3:
            prompts = [prompt for prompt in GAME.prompts(state) if not prompt.answered]
            for prompt in prompts:
                if prompt.kind != "war_declare":
                    continue
                for option in prompt.options:
                    found = re.fullmatch(r"Attack with the garrison of .+ \(up to (\d+) units?( and (\d+) ronin)?\)",
                                         option.label)
                    if not option.value.startswith("garrison:"):
                        continue
                    assert found, option.label
                    source = option.value.split(":", 1)[1]
                    most = garrison_attackers(state, source)
                    assert int(found.group(1)) == most
                    asked = force_prompt(state, prompt.seat, source, most, "garrison_force", "Which units go?")
                    assert f"At most {most} unit" in asked.text
                    for field in asked.fields:
                        assert f"(up to {field.max}" in field.label, (field.label, field.max)
                        assert field.max <= most
                    if found.group(3):
                        assert next(f.max for f in asked.fields if f.name == "ronin") == int(found.group(3))
                    checked += 1
            prompt = prompts[0]
            step = GAME.submit(state, prompt.seat, engine.decide(GAME, policy, state, prompt, engine.rng_for(seed, state.step, "ai")))
            state = step.state
            battle_lines += [event.text for event in step.events if " attacks " in event.text and " against " in event.text]
    assert checked >= 3
    for line in battle_lines:
        assert re.search(r" with (1 unit|\d+ units)( \(\d+ of them ronin\))? against \d+\.$", line), line

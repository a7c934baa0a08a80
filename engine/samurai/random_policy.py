"""The random policy: any legal answer, in the prompt's own input shape (it drives the
property tests). It reads its seat's information state, as every policy does."""

from __future__ import annotations

import random
from typing import Any

from engine.clone import clone
from engine.contract import Prompt
from engine.samurai import setup_placement
from engine.samurai.answers import ScreenAnswer
from engine.samurai.board import held_count
from engine.samurai.state import SamuraiState


def random_plan(koku: int, rng: random.Random) -> dict[str, int]:
    plan = {"swords": 0, "build": 0, "levy": 0, "ronin": 0, "ninja": 0}
    left = koku
    if left >= 2 and rng.random() < 0.3:
        plan["build"] = 2
        left -= 2
    bins = ["swords", "levy", "levy", "levy", "ronin", "ninja"]
    for _ in range(left):
        plan[rng.choice(bins)] += 1
    return plan


def random_levy(state: SamuraiState, seat: int, rng: random.Random) -> dict[str, int]:
    player = state.players[seat]
    budget = player.plan.levy if player.plan else 0
    cap = held_count(state, seat)
    costs = state.options.levy_costs
    got = {"spearman": 0, "gunner": 0, "swordsman": 0, "bowman": 0}
    for _ in range(40):
        kinds = [kind for kind in got if costs[kind] <= budget and got[kind] < player.tray[kind]]
        if not kinds or sum(got.values()) >= cap or rng.random() < 0.1:
            break
        kind = rng.choice(kinds)
        got[kind] += 1
        budget -= costs[kind]
    return got


def random_screen(state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, int]:
    """A random split that keeps army 3 within its card (else the even default)."""
    for _ in range(20):
        pick = {field.name: rng.randint(field.min, field.max) for field in prompt.fields}
        trial = clone(state)
        try:
            setup_placement.do_screen(trial, prompt.seat, ScreenAnswer(**pick))
        except Exception:  # an illegal random split: try another
            continue
        return pick
    return dict(prompt.default)


def random_losses(prompt: Prompt, rng: random.Random) -> dict[str, int]:
    """Any legal choice of losses: as many as the default takes, spread at random."""
    need = sum(prompt.default.values())
    room = {field.name: field.max for field in prompt.fields}
    losses = dict.fromkeys(room, 0)
    for _ in range(need):
        kind = rng.choice([name for name, count in room.items() if losses[name] < count])
        losses[kind] += 1
    return losses


class RandomPolicy:
    """Any legal answer, uniformly among the offered options, always in the prompt's own input
    shape: a prompt's kind does not fix its shape (a sealed review keeps the kind of the last
    part answered, as `levy`, but offers `keep` / `undo`)."""

    name = "random"

    def choose(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        if prompt.input == "numbers":
            return self._numbers(state, prompt, rng)
        if not prompt.options:
            return dict(prompt.default)
        real = [entry for entry in prompt.options if entry.choice.get("act") != "region"]
        if real and rng.random() < 0.7:
            return dict(rng.choice(real).choice)
        return dict(rng.choice(prompt.options).choice)

    @staticmethod
    def _numbers(state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        if prompt.kind in ("plan", "plan_revise"):
            return random_plan(state.players[prompt.seat].koku, rng)
        if prompt.kind == "levy":
            return random_levy(state, prompt.seat, rng)
        if prompt.kind == "army_screen":
            return random_screen(state, prompt, rng)
        if prompt.kind == "casualties":
            return random_losses(prompt, rng)
        return dict(prompt.default)

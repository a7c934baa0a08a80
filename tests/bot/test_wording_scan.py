"""Every text of seeded matches of each game, read as players read them, holds no option key, seat
number, "Player N", AI policy in parentheses, wrong plural, guessed pronoun or doubled label:
every seat's prompts (question, options, fields), every public and private line, the map's
title (the public view's phase label), the result line and the result banner's reason (the
replay GIF ends on that banner)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.naming import named_prompt
from bot.service.announce import result_text
from engine.text import fill
from render import views as render_views
from tests.bot.wording_scan import problems

NAMES = ["alice", "bob", "AI Ayame", "AI Bruno", "AI Chiyo"]
MATCHES = [("tinybigwars", 3, 1, {}), ("tinybigwars", 4, 2, {"round_limit": 3}),
           ("samurai", 3, 1, {}), ("samurai", 4, 2, {"mode": "lwtv", "round_limit": 3}),
           ("defenders", 2, 1, {}), ("defenders", 1, 2, {"round_limit": 2})]


def texts_of_match(key: str, seats: int, seed: int, options: dict[str, Any]) -> list[str]:
    """Everything players of this seeded all-AI match read, names filled in."""
    game = engine.get(key)
    policy = game.policies()["heuristic"]
    state = game.setup(seats, engine.parse_options(game, options or None), seed)
    names = NAMES[:seats]
    texts: list[str] = []
    while (result := game.result(state)) is None:
        open_prompts = [prompt for prompt in game.prompts(state) if not prompt.answered]
        for prompt in open_prompts:
            shown = named_prompt(prompt, names)
            texts.append(shown.text)
            texts += [f"{option.label} - {option.description}" for option in shown.options]
            texts += [field.label for field in shown.fields]
        prompt = open_prompts[0]
        step = game.submit(state, prompt.seat, engine.decide(game, policy, state, prompt, engine.rng_for(seed, state.step, "ai")))
        state = step.state
        texts += [fill(event.text, names) for event in step.events]
        view = render_views.public(key, game.view(state, None))
        texts.append(fill(view.phase_label, names))
        card = getattr(getattr(view, "deck", None), "current", None)
        if card is not None and card.kind == "defender":  # the map's caption: "Defender card: <name>"
            texts.append(f"Defender card: {card.name}")
    texts.append(result_text(game, result, names))
    outcome = render_views.public(key, game.view(state, None)).result
    assert outcome is not None
    texts.append(fill(outcome.reason, names))
    return texts


@pytest.mark.parametrize(("key", "seats", "seed", "options"), MATCHES, ids=lambda value: str(value))
def test_seeded_matches_read_cleanly(key: str, seats: int, seed: int, options: dict[str, Any]) -> None:
    texts = texts_of_match(key, seats, seed, options)
    assert len(texts) > 100
    found = sorted({problem for text in texts for problem in problems(text)})
    assert found == [], "\n".join(found[:20])

"""The view models are the allow-list: no secret has a field, and every view a match sends fits them.

Render and the terminal table parse views into these models and draw from attributes, so
a view the engine sends must validate, and dumping the parsed model must give the very dict
that was sent (the JSON through the database included): nothing lost, nothing reshaped.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any, get_args

import pytest
from pydantic import BaseModel

import engine
from engine.defenders import view_models as defenders
from engine.samurai import view_models as samurai
from engine.tinybigwars import view_models as tinybigwars
from tests.engine.replay_digest import MATCHES, Match

MODELS: dict[str, tuple[type[BaseModel], type[BaseModel]]] = {
    "tinybigwars": (tinybigwars.PublicView, tinybigwars.SeatView),
    "samurai": (samurai.PublicView, samurai.SeatView),
    "defenders": (defenders.PublicView, defenders.SeatView),
}

# What the state holds behind a screen or face down, by the state's own names.
SECRETS: dict[str, set[str]] = {
    "tinybigwars": {"you", "force", "sealed", "spend", "attack", "guard", "minion_cards", "buildings", "points"},
    "samurai": {"you", "tray", "hand", "draft", "sealed", "objective_vp", "owed", "chosen", "gforce"},
    "defenders": {"you", "turn_deck", "caravan_pile", "skill_deck", "artifact_deck", "bosses_ahead",
                  "skill_offer", "leftover_enemies", "leftover_dire", "war_unused"},
}


def _models(model: type[BaseModel]) -> Iterator[type[BaseModel]]:
    """`model` and every model its fields hold, however nested (lists, unions, optionals)."""
    seen: set[type[BaseModel]] = set()
    todo = [model]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        yield current
        for field in current.model_fields.values():
            stack: list[Any] = [field.annotation]
            while stack:
                kind = stack.pop()
                if isinstance(kind, type) and issubclass(kind, BaseModel):
                    todo.append(kind)
                stack.extend(get_args(kind))


@pytest.mark.parametrize("game", list(MODELS))
def test_the_public_model_has_no_field_for_a_secret(game: str) -> None:
    public, _ = MODELS[game]
    names = {name for model in _models(public) for name in model.model_fields}
    assert not names & SECRETS[game], f"{game}: a public model names {names & SECRETS[game]}"


def test_markers_and_piles_carry_no_contents() -> None:
    assert "units" not in samurai.ArmyMarker.model_fields
    assert set(defenders.HiddenBoss.model_fields) == {"kind", "revealed"}
    sizes = {name: field.annotation for name, field in defenders.DeckView.model_fields.items() if name != "current"}
    assert set(sizes.values()) == {int}, "the decks are sent as sizes, never as their cards"


@pytest.mark.parametrize("game", list(MODELS))
def test_the_seat_model_is_the_public_model_plus_you(game: str) -> None:
    public, seat = MODELS[game]
    assert list(seat.model_fields) == [*public.model_fields, "you"]


def _views(match: Match) -> Iterator[tuple[int | None, dict[str, Any]]]:
    """Every view of a seeded all-AI match, public and each seat's, after every choice."""
    game = engine.get(match.game)
    policy = game.policies()[match.policy]
    state = game.setup(match.seats, engine.parse_options(game, dict(match.options)), match.seed)
    order = random.Random(f"views:{match.seed}")
    while True:
        for seat in [None, *range(match.seats)]:
            yield seat, game.view(state, seat)
        if game.result(state) is not None:
            return
        prompt = order.choice([p for p in game.prompts(state) if not p.answered])
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(match.seed, state.step, f"ai:{prompt.seat}"))
        state = game.submit(state, prompt.seat, choice).state


SHORT_MATCHES = [min((m for m in MATCHES if m.game == game), key=lambda m: m.seats * 1000 + len(m.options))
                 for game in MODELS]


@pytest.mark.parametrize("match", SHORT_MATCHES, ids=lambda m: m.label)
def test_every_view_of_a_seeded_match_validates_and_dumps_back(match: Match) -> None:
    public, seat_model = MODELS[match.game]
    count = 0
    for seat, view in _views(match):
        model = public if seat is None else seat_model
        assert model.model_validate(view).model_dump(exclude_unset=seat is not None) == view
        stored = json.loads(json.dumps(view))  # as the database and the notices carry it
        assert json.loads(model.model_validate(stored).model_dump_json(exclude_unset=seat is not None)) == stored
        count += 1
    assert count > 100

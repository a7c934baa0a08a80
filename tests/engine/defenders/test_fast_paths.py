"""The Defenders shortcuts taken for speed give what the plain rules give: a field set by the
rules is stored and marked as pydantic stores it (and an unknown one refused as pydantic
refuses it), the usable abilities listed from the per-Defender entries are exactly the sources
`usable` takes one by one, the affordable movements are the move options a prompt lists, the
ability choices and values are those of the ability options, and a reaction passed on is
known to be answered without building its prompt."""

from __future__ import annotations

import pytest

import engine
from bot.simulate import simulate
from engine.clone import clone
from engine.defenders import card_options, effects
from engine.defenders.actions import react_answered
from engine.defenders.state import DefendersState
from tests.engine.defenders.helpers import new


def test_a_field_set_by_the_rules_is_stored_marked_and_round_trips() -> None:
    state = new(seats=2)
    defender = state.defenders[0]
    state.round = 7
    defender.hp = 1
    defender.used = ["turn:hero"]
    state.regions["forest"].threat = 2
    assert "round" in state.model_fields_set and "hp" in defender.model_fields_set
    assert "threat" in state.regions["forest"].model_fields_set
    again = DefendersState.model_validate_json(state.model_dump_json())
    assert again == state and again.round == 7 and again.defenders[0].used == ["turn:hero"]
    assert clone(state) == state
    with pytest.raises(ValueError, match="no field"):
        state.nonsense = 1  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="no field"):
        defender.nonsense = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(("seats", "seed", "policy", "options"), [
    (2, 3, "heuristic", {}), (1, 2, "random", {"mode": "campaign"}), (3, 1, "random", {"difficulty": "hard"}),
])
def test_listed_abilities_and_movements_are_what_the_rules_take_one_by_one(
        seats: int, seed: int, policy: str, options: dict[str, str]) -> None:
    checked = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal checked
        assert isinstance(state, DefendersState)
        for defender in state.defenders:
            for own_turn in (True, False):
                for ap in (0, 1, 3):
                    listed = [src for src, _ in effects.usable_sources(state, defender, own_turn, ap)]
                    one_by_one = [src for src in effects.sources(state, defender)
                                  if effects.usable(state, defender, src, own_turn, ap) is not None]
                    assert listed == one_by_one, (state.step, defender.idx, own_turn, ap)
                    options = card_options.ability_options(state, defender, own_turn, ap)
                    assert card_options.ability_choices(state, defender, own_turn, ap) == [o.choice for o in options]
                    assert card_options.ability_values(state, defender, own_turn, ap) == [o.value for o in options]
            if state.active is not None:
                ap = state.active.ap
                moves = card_options.movement_options(state, defender, ap)
                assert card_options.movement_choices(state, defender, ap) == [move.choice for move in moves]
                for move in moves:
                    if move.choice["act"] == "move":
                        cost = card_options.move_cost(state, defender, move.choice["to"], escort=move.choice["escort"] > 0)
                        assert cost <= ap, (state.step, move.value)
                checked += 1

    simulate("defenders", seats, seed, policy, options=options, on_step=on_step)
    assert checked > 20


@pytest.mark.parametrize(("seats", "seed"), [(3, 0), (4, 2)])
def test_a_reaction_passed_on_is_answered_without_its_prompt(seats: int, seed: int) -> None:
    """The play phase's ``answered`` hook says what every prompt it would build says, at every
    step of a heuristic match replayed, and the reactions "Not now" was said to (the AI passes
    on most) are among them."""
    game = engine.get("defenders")
    log = simulate("defenders", seats, seed, "heuristic")["log"]
    working = engine.Working(game, game.setup(seats, game.options(None), seed), owned=True)
    passed_on = 0
    for seat, choice in log:
        state = working.state
        assert isinstance(state, DefendersState)
        for prompt in game.prompts(state):
            assert react_answered(state, prompt.seat, prompt.kind) == prompt.answered, (state.step, prompt.seat)
            passed_on += prompt.answered
        working.submit(seat, choice)
    assert passed_on > 10

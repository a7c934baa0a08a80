"""A location or a hero looked up by id (state.loc and state.hero, from indexes derived per list
and never stored) is the asking state's own object, whichever state asked last: copies, a
state read back from JSON, a location or hero added to the list; a location's controller is
what its seats present say, at every step of a match."""

from __future__ import annotations

import pytest

import engine
from bot.simulate import simulate
from engine.clone import clone
from engine.tinybigwars import board
from engine.tinybigwars.content import content
from engine.tinybigwars.state import Hero, Location, TBWState


def started(seats: int = 3, seed: int = 2) -> TBWState:
    game = engine.get("tinybigwars")
    state = game.setup(seats, engine.parse_options(game, None), seed)
    assert isinstance(state, TBWState)
    return state


def test_each_state_finds_its_own_locations_when_states_take_turns() -> None:
    first = started()
    second = clone(first)
    read_back = TBWState.model_validate_json(first.model_dump_json())
    for _ in range(2):
        for state in (first, second, read_back, first):
            for location in state.locations:
                assert state.loc(location.id) is location
    second.loc(second.locations[0].id).minions[0] += 5
    assert first.loc(first.locations[0].id).minions[0] == second.locations[0].minions[0] - 5


def test_a_location_added_to_the_list_is_found() -> None:
    state = started()
    node = state.locations[0].id
    assert state.loc(node) is state.locations[0]
    added = Location(id="added", card=state.locations[0].card, x=0.0, y=0.0, minions=[0] * state.seats_n)
    state.locations.append(added)
    assert state.loc("added") is added


def test_each_state_finds_its_own_heroes_and_an_added_one() -> None:
    played = simulate("tinybigwars", 3, 4, "heuristic")["state"]
    assert isinstance(played, TBWState) and played.heroes
    copy = clone(played)
    for _ in range(2):
        for state in (played, copy):
            for hero in state.heroes:
                assert state.hero(hero.id) is hero
    copy.hero(copy.heroes[0].id).health += 3
    assert played.hero(played.heroes[0].id).health == copy.heroes[0].health - 3
    added = Hero(id="h9-extra", card=played.heroes[0].card, seat=0, location=None, health=1)
    played.heroes.append(added)
    assert played.hero("h9-extra") is added
    with pytest.raises(KeyError):
        played.hero("no such hero")


@pytest.mark.parametrize(("seats", "seed", "policy"), [(2, 6, "heuristic"), (4, 7, "random")])
def test_the_controller_is_the_only_clan_present(seats: int, seed: int, policy: str) -> None:
    held = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal held
        assert isinstance(state, TBWState)
        for location in state.locations:
            present = state.present(location.id)
            expected = present[0] if len(present) == 1 else None
            assert state.controller(location.id) == expected, (state.step, location.id)
            held += expected is not None

    simulate("tinybigwars", seats, seed, policy, on_step=on_step)
    assert held > 100


def test_a_card_dealt_again_is_the_card_read() -> None:
    """A location's card is read from a lookup kept per locations list; a card set by hand
    (as tests deal them) is the one the rules, prompts and names read next."""
    state = started()
    location = state.locations[0]
    first = board.loc_card(state, location.id)
    other = next(card for card in content().locations.values() if card.id != first.id)
    location.card = other.id
    assert board.loc_card(state, location.id) is other
    assert board.loc_name(state, location.id) == other.name
    assert board.loc_card(clone(state), location.id) is other

"""The heroes by location (state.hero_index, derived and never stored) say what a scan of every
hero says (who stands where, which clans are present), at every step of real matches and after
a hero is moved, defeated, recruited or the list replaced by hand (the replay digests hold the
stored states: the index is never in them)."""

from __future__ import annotations

import pytest

import engine
from bot.simulate import simulate
from engine.clone import clone
from engine.tinybigwars import board
from engine.tinybigwars.state import Hero, TBWState


def scanned(state: TBWState, node: str, seat: int | None = None) -> list[Hero]:
    return [hero for hero in state.heroes
            if not hero.defeated and hero.location == node and (seat is None or hero.seat == seat)]


def scanned_present(state: TBWState, node: str) -> list[int]:
    minions = state.loc(node).minions
    return [seat for seat in range(state.seats_n) if minions[seat] > 0 or scanned(state, node, seat)]


def assert_like_a_scan(state: TBWState) -> int:
    found = 0
    presence = state.presence()
    for location in state.locations:
        node = location.id
        assert state.heroes_at(node) == scanned(state, node), (state.step, node)
        for seat in range(state.seats_n):
            assert state.heroes_at(node, seat) == scanned(state, node, seat), (state.step, node, seat)
        assert state.present(node) == scanned_present(state, node) == presence[node], (state.step, node)
        assert state.hero_clans(node) == len({hero.seat for hero in scanned(state, node)}), (state.step, node)
        found += len(scanned(state, node))
    for seat in range(state.seats_n):
        assert board.controlled(state, seat) == [
            location.id for location in state.locations if scanned_present(state, location.id) == [seat]]
    return found


@pytest.mark.parametrize(("seats", "seed", "policy"), [(2, 3, "heuristic"), (3, 4, "random"), (4, 5, "heuristic")])
def test_the_index_is_what_a_scan_of_every_hero_says(seats: int, seed: int, policy: str) -> None:
    seen = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal seen
        assert isinstance(state, TBWState)
        seen += assert_like_a_scan(state)

    simulate("tinybigwars", seats, seed, policy, on_step=on_step)
    assert seen > 100


def test_a_hero_changed_by_hand_is_found_where_it_now_stands() -> None:
    game = engine.get("tinybigwars")
    played = simulate("tinybigwars", 2, 1, "heuristic")
    state = game.setup(2, engine.parse_options(game, None), 1)
    for seat, choice in played["log"][:40]:
        state = game.submit(state, seat, choice).state
    assert isinstance(state, TBWState) and state.heroes
    assert_like_a_scan(state)
    hero = state.heroes[0]
    elsewhere = next(location.id for location in state.locations if location.id != hero.location)
    hero.location = elsewhere
    assert hero in state.heroes_at(elsewhere)
    assert_like_a_scan(state)
    hero.defeated = True
    assert hero not in state.heroes_at(elsewhere)
    assert_like_a_scan(state)
    recruit = Hero(id="h9-extra", card=hero.card, seat=1, location=elsewhere, health=1)
    state.heroes.append(recruit)
    assert state.heroes_at(elsewhere, 1) == [recruit]
    assert_like_a_scan(state)
    state.heroes = [recruit]
    assert state.heroes_at(elsewhere) == [recruit]
    assert_like_a_scan(state)
    copy = clone(state)
    copy.heroes[0].location = None
    assert copy.heroes_at(elsewhere) == [] and state.heroes_at(elsewhere) == [recruit]

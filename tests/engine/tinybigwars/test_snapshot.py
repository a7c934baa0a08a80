"""The heuristic's snapshot (engine/tinybigwars/tactics.py) keeps per decision what it works out
(each clan's hero sums at a location, threats, defences, the moves' figures) and keeps a
location's worth by card and infrastructure for good. Every estimate it gives must be exactly
what the plain state gives, at every step of real matches and after the board is changed by
hand: the heuristic would otherwise choose other moves (the replay digests would catch that
only for the seeds they hold)."""

from __future__ import annotations

import pytest

from bot.simulate import simulate
from engine.clone import clone
from engine.tinybigwars import board, tactics
from engine.tinybigwars.ai import HeuristicPolicy
from engine.tinybigwars.state import TBWState
from engine.tinybigwars.tactics import Forecast, snapshot
from tests.engine.tinybigwars.helpers import new


def forecast_figures(state: TBWState, seat: int, node: str, bring: int) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for hero in state.heroes:
        if hero.seat == seat and not hero.defeated and hero.location is not None:
            forecast = Forecast(state, seat, hero, node, bring)
            out.append((hero.id, forecast.foes, forecast.wipe, forecast.incoming, forecast.hero_loss,
                        forecast.expected_kills, forecast.expected_losses))
    return out


def estimates(state: TBWState) -> list[tuple[object, ...]]:
    """Every estimate the heuristic reads, for every location and seat, exact floats."""
    out: list[tuple[object, ...]] = []
    for location in list(state.locations):
        node = location.id
        out.append((node, state.present(node), state.controller(node), tactics.worth(state, node, 0)))
        for seat in range(state.seats_n):
            toughness = tactics.toughness(state, node, seat)
            out.append((node, seat, toughness, tactics.defence_dice(state, node, seat),
                        tactics.hits_per_die(state, node, seat), tactics.sure_hits(state, node, seat),
                        tactics.threat(state, node, seat), tactics.exposure(state, node, seat, toughness + 2),
                        tactics.defence(state, node, seat)))
            for bring in (0, 3):
                out.extend(forecast_figures(state, seat, node, bring))
    out.extend((seat, board.controlled(state, seat), tactics.clan_influence(state, seat)) for seat in range(state.seats_n))
    return out


def assert_like_the_state(state: TBWState) -> None:
    assert estimates(snapshot(state)) == estimates(state), state.step


@pytest.mark.parametrize(("seats", "seed", "policy"), [(2, 3, "heuristic"), (3, 4, "random"), (4, 7, "heuristic")])
def test_the_snapshot_estimates_what_the_state_does_through_a_match(seats: int, seed: int, policy: str) -> None:
    steps = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal steps
        assert isinstance(state, TBWState)
        if state.phase != "over" and state.step % 2 == seed % 2 and steps < 100:
            assert_like_the_state(state)
            steps += 1

    simulate("tinybigwars", seats, seed, policy, on_step=on_step)
    assert steps >= 40


def mid_match() -> TBWState:
    """A copy of a seeded 3-seat heuristic match at its 60th step."""
    kept: list[TBWState] = []

    def on_step(state: object, _events: object) -> None:
        if isinstance(state, TBWState) and state.step == 60:
            kept.append(clone(state))

    simulate("tinybigwars", 3, 2, "heuristic", on_step=on_step)
    return kept[0]


def test_a_board_changed_by_hand_is_estimated_afresh() -> None:
    """A new snapshot after a Dojo is built, a hero moves or gains energy, minions die: the
    worth kept by card and infrastructure and the per-decision sums follow the board."""
    state = mid_match()
    assert_like_the_state(state)
    before = estimates(snapshot(state))
    free = next(location for location in state.locations if location.infrastructure is None)
    free.infrastructure = "dojo"
    assert_like_the_state(state)
    hero = next(h for h in state.heroes if not h.defeated and h.location is not None)
    hero.location = next(n for n in state.neighbours(hero.location or "") if n != free.id)
    hero.energy += 2
    assert_like_the_state(state)
    free.minions = [0] * state.seats_n
    assert_like_the_state(state)
    assert estimates(snapshot(state)) != before


def test_a_fresh_position_has_every_estimate_of_the_state() -> None:
    for seats in (2, 3, 4):
        assert_like_the_state(new(seats))


def move_values(state: TBWState, keep: bool) -> list[tuple[object, ...]]:
    """The heuristic's value of every live hero's every move (one action left and two), from a
    snapshot handed the figures of the last kept one on the same board (``keep``) or a fresh one."""
    policy = HeuristicPolicy()
    view = snapshot(state, keep)
    out: list[tuple[object, ...]] = []
    for hero in state.heroes:
        if not hero.defeated and hero.location is not None:
            for node in state.neighbours(hero.location):
                for actions in (1, 2):
                    out.append((hero.id, node, actions, policy._move_value(view, hero.seat, hero, node, actions)))
    return out


def test_figures_kept_for_the_next_decision_follow_the_board() -> None:
    """A hero's activation and its first action ask the same of the same board, so the figures
    of one are kept for the next; after minions, infrastructure, a hero's place, energy or
    health change (by hand here), every move value is what a fresh snapshot gives."""
    state = mid_match()
    assert move_values(state, keep=True) == move_values(state, keep=False)
    first = snapshot(state, keep=True)
    assert tactics.decision_memo(snapshot(state, keep=True)) is tactics.decision_memo(first)
    hero = next(h for h in state.heroes if not h.defeated and h.location is not None)
    home = state.loc(hero.location or "")

    def more_minions() -> None:
        home.minions[hero.seat] += 3

    def a_watchtower() -> None:
        next(location for location in state.locations if location.infrastructure is None).infrastructure = "watchtower"

    def more_energy() -> None:
        hero.energy += 2

    def less_health() -> None:
        hero.health = max(1, hero.health - 2)

    def moved() -> None:
        hero.location = state.neighbours(hero.location or "")[0]

    for change in (more_minions, a_watchtower, more_energy, less_health, moved):
        before = move_values(state, keep=True)
        change()
        after = move_values(state, keep=True)
        assert after == move_values(state, keep=False), change.__name__
        assert after != before, change.__name__

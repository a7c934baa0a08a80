"""The Samurai search: rollouts that stop at the end of a round, a world scored as each house's
chance to win, and sealed numbers compared with the heuristic's own plan and levy moved about."""

from __future__ import annotations

import random

import engine
from engine.clone import clone
from engine.samurai import search_eval
from engine.samurai.ai import HeuristicPolicy
from engine.samurai.search import levy_variants, plan_variants, round_of
from engine.samurai.search_order import ranked
from engine.samurai.state import SamuraiState
from engine.search import SearchPolicy
from tests.engine.test_honest_ai import mid_match_states


def samurai_states(seed: int, steps: int) -> list[SamuraiState]:
    game = engine.get("samurai")
    return [state for state in mid_match_states(game, 4, {}, seed=seed, steps=steps) if isinstance(state, SamuraiState)]


def test_a_house_with_more_land_and_troops_is_given_the_better_chance() -> None:
    state = next(s for s in samurai_states(6, 300) if s.phase not in ("setup", "over") and s.round >= 2)
    chances = search_eval.win_chances(state)
    assert abs(sum(chances.values()) - 1) < 1e-9
    stronger = clone(state)
    seat = min(chances, key=lambda house: chances[house])
    rival = next(house for house in chances if house != seat)
    rivals_land = sorted(pid for pid, province in stronger.provinces.items() if province.owner == rival)
    for pid in rivals_land[::2]:  # half the rival's land changes hands
        stronger.provinces[pid].owner = seat
    army = next(army for army in stronger.players[seat].armies if army.alive)
    army.units["swordsman"] += 3
    assert search_eval.evaluate(stronger, seat) > chances[seat]
    assert search_eval.evaluate(stronger, rival) < chances[rival]
    stronger.players[rival].eliminated = True
    assert search_eval.evaluate(stronger, rival) == 0.0


def test_rollouts_stop_where_the_round_ends() -> None:
    game = engine.get("samurai")
    search = game.policies()["search"]
    assert isinstance(search, SearchPolicy)
    seen: list[tuple[int, str]] = []

    def record(world: SamuraiState, seat: int) -> float:
        seen.append((world.round, world.phase))
        return 0.5

    state = next(s for s in samurai_states(8, 400) if s.phase == "war" and s.round >= 2)
    prompt = [p for p in game.prompts(state) if not p.answered][0]
    bounded = search.bounded(rounds=3, depth=2000)
    bounded.evaluate = record  # type: ignore[assignment]
    bounded.reach = 0
    engine.decide(game, bounded, state, prompt, random.Random(1))
    assert bounded.last.rollouts and len(seen) == bounded.last.rollouts
    assert {round_number for round_number, _ in seen} == {round_of(state) + 1}, "every rollout stops as the next round begins"


def test_sealed_candidates_are_the_heuristics_numbers_moved_about() -> None:
    game = engine.get("samurai")
    heuristic = HeuristicPolicy()
    plans = levies = 0
    for state in samurai_states(3, 700):
        for prompt in [p for p in game.prompts(state) if not p.answered and p.input == "numbers"]:
            info = game.information(state, prompt.seat)
            player = info.players[prompt.seat]
            if prompt.kind == "plan":
                base = heuristic.choose(info, prompt, random.Random(0))
                variants = plan_variants(info, prompt.seat, base)
                assert variants and base not in variants
                for variant in variants:
                    assert sum(variant.values()) == player.koku and min(variant.values()) >= 0
                    game.submit(state, prompt.seat, variant)  # legal, or it raises
                plans += 1
            elif prompt.kind == "levy" and player.plan is not None:
                for levy in levy_variants(info, prompt.seat):
                    costs = info.options.levy_costs
                    assert sum(costs[kind] * count for kind, count in levy.items()) <= player.plan.levy
                    game.submit(state, prompt.seat, levy)
                levies += 1
    assert plans >= 2 and levies >= 1


def test_choose_candidates_are_the_heuristics_runners_up_with_holding_back_among_them() -> None:
    game = engine.get("samurai")
    heuristic = HeuristicPolicy()
    search = game.policies()["search"]
    assert isinstance(search, SearchPolicy)
    attacks = 0
    for state in samurai_states(4, 900):
        for prompt in [p for p in game.prompts(state) if not p.answered and p.input == "choose" and len(p.options) > 1]:
            info = game.information(state, prompt.seat)
            order = ranked(info, prompt)
            assert sorted(map(repr, order)) == sorted(repr(option.choice) for option in prompt.options)
            chosen = heuristic.choose(info, prompt, random.Random(0))
            offered = chosen in [option.choice for option in prompt.options]  # not when it names a province past a region menu
            if offered and prompt.kind not in ("sword", "war_order", "battle"):  # those three keep a shuffled order
                assert order[0] == chosen, prompt.kind
            if prompt.kind in ("declare_target", "chain") and chosen.get("act") == "attack" and len(order) > 3:
                candidates = [candidate.choice for candidate in search._candidates(info, prompt, random.Random(0))]
                assert candidates == order[:search.width]
                assert {"act": "cancel"} in candidates or {"act": "stop"} in candidates, "holding back is always weighed"
                attacks += 1
    assert attacks >= 3

"""Property tests: random legal play always ends; states round-trip; sealed choices never leak.

300 random-policy matches over 2, 3 and 4 seats (split in chunks so xdist can spread them).
After every accepted step the state must survive a JSON round trip unchanged. Whenever a
seat holds a sealed choice, we plant a distinctive value in its place: the public view and
every other seat's view must be identical to the real ones and must not contain the plant,
while the sealing seat's own view must show it. Each match's log must replay exactly.
One answer in ten is the prompt's deadline default, so every default is proven legal.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine.tinybigwars.ai import RandomPolicy
from engine.tinybigwars.state import Energy, Force, TBWState
from tests.engine.tinybigwars.helpers import G

MATCHES = 300
CHUNK = 10
PLANT = 987654


def planted(state: TBWState, seat: int) -> TBWState | None:
    """A copy with ``seat``'s sealed choice replaced by a distinctive plant, or None."""
    if state.phase == "force" and state.seats[seat].force is not None:
        s = TBWState.model_validate_json(state.model_dump_json())
        s.seats[seat].force = Force(heroes=[f"planted{PLANT}"], points=PLANT)
        return s
    cb = state.combat
    if cb is not None and seat in cb.seats and cb.stage == "energy" and cb.spend[cb.seats.index(seat)] is not None:
        s = TBWState.model_validate_json(state.model_dump_json())
        assert s.combat is not None
        s.combat.spend[cb.seats.index(seat)] = Energy(attack=PLANT, guard=PLANT)
        return s
    return None


def check_privacy(state: TBWState) -> int:
    """Return how many sealed choices were checked at this step."""
    checked = 0
    for seat in range(state.seats_n):
        plant = planted(state, seat)
        if plant is None:
            continue
        checked += 1
        for viewer in [None, *[x for x in range(state.seats_n) if x != seat]]:
            real, fake = G.view(state, viewer), G.view(plant, viewer)
            assert real == fake, f"seat {seat}'s sealed choice changes the view of {viewer}"
            assert str(PLANT) not in json.dumps(fake)
        assert str(PLANT) in json.dumps(G.view(plant, seat))
    return checked


def play(seats: int, seed: int, round_limit: int) -> dict[str, Any]:
    options = {"round_limit": round_limit}
    state = G.setup(seats, engine.parse_options(G, options), seed)
    policy = RandomPolicy()
    log: list[tuple[int, dict[str, Any]]] = []
    sealed_checks = 0
    while G.result(state) is None:
        assert len(log) < 20_000
        open_prompts = G.prompts(state)
        assert open_prompts, "no prompt and no result"
        rng = engine.rng_for(seed, len(log), "test")
        waiting = [p for p in open_prompts if not p.answered] or open_prompts
        prompt = waiting[rng.randrange(len(waiting))]
        if prompt.secret and rng.random() < 0.2:  # revise a sealed choice now and then
            prompt = open_prompts[rng.randrange(len(open_prompts))]
        use_default = rng.random() < 0.1  # deadline defaults must be legal too
        choice = dict(prompt.default) if use_default else engine.decide(G, policy, state, prompt, rng)
        state = G.submit(state, prompt.seat, choice).state
        log.append((prompt.seat, choice))
        again = TBWState.model_validate_json(state.model_dump_json())
        assert again == state and again.model_dump_json() == state.model_dump_json()
        sealed_checks += check_privacy(state)
    rebuilt = engine.replay("tinybigwars", seats, options, seed, log)
    assert rebuilt.model_dump() == state.model_dump()
    return {"sealed_checks": sealed_checks, "rounds": state.round, "reason": state.reason}


@pytest.mark.parametrize("chunk", range(MATCHES // CHUNK))
def test_random_matches_end_round_trip_replay_and_keep_secrets(chunk: int) -> None:
    checks = 0
    for i in range(CHUNK):
        n = chunk * CHUNK + i
        out = play(seats=2 + n % 3, seed=1000 + n, round_limit=3 + n % 3)
        assert out["reason"] in {"influence", "round_limit", "last_clan"}
        checks += out["sealed_checks"]
    assert checks > 0  # the privacy check really ran

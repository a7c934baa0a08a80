"""The secret plan (koku into five bins), the ninja's spying on it, the reveal, and the
sword bidding that sets the turn order."""

from __future__ import annotations

import random

from engine.contract import Event, IllegalChoice, NumberField, Prompt
from engine.samurai.answers import PlanAnswer
from engine.samurai.board import (
    active,
    end_phase,
    player_of,
    who,
)
from engine.samurai.muster import (
    build_short,
    start_muster,
)
from engine.samurai.state import (
    Plan,
    SamuraiState,
    Task,
)


def plan_prompt(state: SamuraiState, seat: int, revise: bool = False) -> Prompt:
    player = player_of(state, seat)
    koku = player.koku
    fields = [NumberField(name="swords", label="Turn order (swords)", max=koku),
              NumberField(name="build", label="Build (0 or 2)", max=min(2, koku)),
              NumberField(name="levy", label="Levy units", max=koku),
              NumberField(name="ronin", label="Hire ronin (2 per koku)", max=koku),
              NumberField(name="ninja", label="Hire ninja", max=koku)]
    answered = "plan" in player.draft and not revise
    text = f"Plan: put all {koku} koku into the five bins (build takes 0 or 2)."
    if revise:
        text = f"Your spy has reported. Revise your plan: all {koku} koku into the five bins."
    default = player.draft.get("plan") or {"swords": 0, "build": 0, "levy": koku, "ronin": 0, "ninja": 0}
    return Prompt(seat=seat, kind="plan_revise" if revise else "plan", text=text, answer=PlanAnswer,
                  input="numbers", fields=fields, secret=not revise, answered=answered, default=default)


def check_plan(state: SamuraiState, seat: int, answer: PlanAnswer) -> dict[str, int]:
    koku = player_of(state, seat).koku
    got = answer.model_dump()
    total = sum(got.values())
    if total != koku:
        raise IllegalChoice(f"you must place all {koku} koku; your bins hold {total}")
    if got["build"] not in (0, 2):
        raise IllegalChoice("the build bin holds exactly 0 or 2 koku")
    return got


def lock_plans(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    """Every plan is in: reveal all bins together, the ninja of last round goes home, and
    the sword bidding starts."""
    for seat in active(state):
        player = player_of(state, seat)
        player.plan = Plan(**player.draft["plan"])
        player.draft = {}
        player.koku = 0
    state.ninja = None
    state.ninja_fresh = False
    bins = {s: player_of(state, s).plan.model_dump() for s in active(state)}
    end_phase(events, state, "Plans revealed: " + "; ".join(
        f"{who(s)} swords {plan_bins['swords']}, build {plan_bins['build']}, levy {plan_bins['levy']}, ronin {plan_bins['ronin']}, ninja {plan_bins['ninja']}"
        for s, plan_bins in bins.items()), kind="plans")
    events[-1].data = {"plans": {str(s): plan_bins for s, plan_bins in bins.items()}}
    bidders = [s for s in active(state) if player_of(state, s).plan.swords > 0]
    ties = {s: rng.random() for s in bidders}
    bidders.sort(key=lambda s: (-player_of(state, s).plan.swords, ties[s]))
    state.sword_bidders = bidders
    for s in active(state):
        player_of(state, s).sword = None
    state.queue = [Task(seat=s, task="sword") for s in bidders] if state.options.steps == "classic" else []
    state.phase = "swords"


def finish_swords(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    seats = active(state)
    taken = {player_of(state, s).sword for s in seats if player_of(state, s).sword}
    free = [n for n in range(1, len(seats) + 1) if n not in taken]
    rng.shuffle(free)
    for s in seats:
        if player_of(state, s).sword is None:
            player_of(state, s).sword = free.pop()
    state.order = sorted(seats, key=lambda s: player_of(state, s).sword) + [s for s in state.order if s not in seats]
    end_phase(events, state, "Turn order: " + ", ".join(f"{who(s)} (sword {player_of(state, s).sword})" for s in active(state)),
              kind="turn_order")
    if state.options.steps == "combined" and not build_short(state):
        start_muster(state, events, builds_inside=True)
        return
    state.queue = [Task(seat=s, task="build") for s in active(state) if player_of(state, s).plan.build == 2]
    state.phase = "build"

"""The secret plan (koku into five bins), the ninja's spying on it, the reveal, and the
sword bidding that sets the turn order."""

from __future__ import annotations

import random

from engine.contract import Event, IllegalChoice, NumberField, Prompt
from engine.kit.events import emit
from engine.kit.prompting import opt
from engine.samurai.answers import Pick, PlanAnswer
from engine.samurai.board import active, end_phase, locked_plan, player_of, who
from engine.samurai.muster import build_short, start_muster
from engine.samurai.state import Plan, SamuraiState, Task
from engine.text import seat_ref


def plan_prompt(state: SamuraiState, seat: int, revise: bool = False) -> Prompt:
    """The sealed plan (or, after spying, its revision): all koku into five bins."""
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
    """Every koku placed, and the build bin 0 or 2."""
    koku = player_of(state, seat).koku
    got = answer.model_dump()
    total = sum(got.values())
    if total != koku:
        raise IllegalChoice(f"you must place all {koku} koku; your bins hold {total}")
    if got["build"] not in (0, 2):
        raise IllegalChoice("the build bin holds exactly 0 or 2 koku")
    return got


def spy_prompt(state: SamuraiState) -> Prompt:
    """Last round's ninja holder may look at one sealed plan before the reveal."""
    holder = state.ninja
    assert holder is not None
    options = [opt(f"spy:{seat}", f"Spy on {seat_ref(seat)}'s plan", {"act": "spy", "seat": seat})
               for seat in active(state) if seat != holder]
    decline = opt("decline", "Do not spy (the ninja goes home)", {"act": "decline"})
    text = "Your ninja may look at one player's plan, then you may revise yours."
    return Prompt(seat=holder, kind="spy", text=text, answer=Pick, options=options + [decline],
                  default=decline.choice)


def answer_spy(state: SamuraiState, seat: int, answer: Pick, events: list[Event], rng: random.Random) -> None:
    """The spied plan is shown to the holder alone, who then revises his own."""
    if answer.act == "decline":
        emit(state, "log", events, "info", f"{who(seat)}'s ninja goes home unused.")
        lock_plans(state, events, rng)
        return
    if answer.act != "spy" or answer.seat is None or answer.seat not in active(state) or answer.seat == seat:
        raise IllegalChoice("choose another player to spy on, or decline")
    target = player_of(state, answer.seat).draft["plan"]
    emit(state, "log", events, "info", f"{who(seat)}'s ninja spies on {who(answer.seat)}'s plan.")
    emit(state, "log", events, "spy",
         f"{seat_ref(answer.seat)}'s plan: "
         + ", ".join(f"{bin_name} {amount}" for bin_name, amount in target.items()), seats=[seat],
         data={"seat": answer.seat, "plan": target})
    state.phase = "spy_revise"


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
    bins = {seat: locked_plan(player_of(state, seat)).model_dump() for seat in active(state)}
    end_phase(events, state, "Plans revealed: " + "; ".join(
        f"{who(seat)} swords {plan_bins['swords']}, build {plan_bins['build']}, levy {plan_bins['levy']}, "
        f"ronin {plan_bins['ronin']}, ninja {plan_bins['ninja']}"
        for seat, plan_bins in bins.items()), kind="plans")
    events[-1].data = {"plans": {str(seat): plan_bins for seat, plan_bins in bins.items()}}
    bidders = [seat for seat in active(state) if locked_plan(player_of(state, seat)).swords > 0]
    ties = {seat: rng.random() for seat in bidders}
    bidders.sort(key=lambda seat: (-locked_plan(player_of(state, seat)).swords, ties[seat]))
    state.sword_bidders = bidders
    for seat in active(state):
        player_of(state, seat).sword = None
    state.queue = [Task(seat=seat, task="sword") for seat in bidders] if state.options.steps == "classic" else []
    state.phase = "swords"


def sword_prompt(state: SamuraiState, seat: int) -> Prompt:
    """Classic pace: the bidders choose a free sword one at a time, highest bid first."""
    taken = {player_of(state, other).sword for other in active(state) if player_of(state, other).sword}
    free = [position for position in range(1, len(active(state)) + 1) if position not in taken]
    plan = player_of(state, seat).plan
    bid = plan.swords if plan else 0
    options = [opt(f"sword:{position}", f"Sword {position}" + (" (acts first)" if position == 1 else ""),
                   {"act": "sword", "position": position}) for position in free]
    return Prompt(seat=seat, kind="sword", text=f"You bid {bid} koku: choose your sword (turn position).",
                  answer=Pick, options=options, default=options[0].choice)


def take_sword(state: SamuraiState, seat: int, answer: Pick, events: list[Event]) -> None:
    """The classic pace's sword choice: any sword not taken yet."""
    taken = {player_of(state, other).sword for other in active(state) if player_of(state, other).sword}
    position = answer.position
    if answer.act != "sword" or position is None:
        raise IllegalChoice("choose a sword by its position")
    if not 1 <= position <= len(active(state)) or position in taken:
        raise IllegalChoice(f"sword {position} is not available")
    player_of(state, seat).sword = position
    emit(state, "log", events, "info", f"{who(seat)} takes sword {position}.")


def finish_swords(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    """Swords nobody bid for are dealt at random; the turn order follows the swords."""
    seats = active(state)
    taken = {player_of(state, seat).sword for seat in seats if player_of(state, seat).sword}
    free = [position for position in range(1, len(seats) + 1) if position not in taken]
    rng.shuffle(free)
    swords: dict[int, int] = {}
    for seat in seats:
        player = player_of(state, seat)
        if player.sword is None:
            player.sword = free.pop()
        swords[seat] = player.sword
    by_sword = sorted(seats, key=swords.__getitem__)
    state.order = by_sword + [seat for seat in state.order if seat not in seats]
    end_phase(events, state, "Turn order: " + ", ".join(
        f"{who(seat)} (sword {player_of(state, seat).sword})" for seat in active(state)), kind="turn_order")
    if state.options.steps == "combined" and not build_short(state):
        start_muster(state, events, builds_inside=True)
        return
    state.queue = [Task(seat=seat, task="build") for seat in active(state) if locked_plan(player_of(state, seat)).build == 2]
    state.phase = "build"

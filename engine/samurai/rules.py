"""The Samurai Swords phase machine: prompts() says who owes what, submit() applies one
choice and advances the machine until someone owes a decision again.

The steps themselves live by section: setup_tasks and setup_placement (setup), bids (plan,
spy, swords), muster (build, levy, ronin), war, war_prompts and war_answers (Wage War),
rounds (a round's start and end), prompts (who owes what) and choices (applying an answer).
Every rule is named in docs/rules/samurai.md with the test that checks it.

Why Samurai does not use the kit's phase table (engine/kit/phases.py), as Tiny Big Wars and
Defenders do: the table maps a phase to its prompts and to one handler per prompt kind, then
checks "sealed answers all in" and "phase done" once after the answer. Samurai's turn does not
have that shape; fitting it would need a layer outside the table for each point below, and any
slip in the order of these steps would change the recorded replay digests:
- interrupts (a ninja strike, a counter-strike, rebuilding a lost army) are asked before the
  prompts of whatever phase is running, and skipped ones are dropped inside `advance`;
- one phase name means two machines: "swords" is a sealed simultaneous bid with the "combined"
  steps option and a queue of one bidder at a time with "classic";
- after an answer the machine runs `step_once` until someone owes a decision, crossing several
  phases in one choice (a round's end, the next round's start, automatic builds), not a single
  done-then-next hop;
- the Wage War answers share one fallback table (war_answers) across its sub-steps A to D.
The phases' prompts (prompts.py) and answers (choices.py) are already tables keyed by phase and
by prompt kind; `step_once` below is the one if-chain left, the automatic steps themselves.
"""

from __future__ import annotations

import random
from typing import Any

from engine.clone import clone
from engine.contract import Event, IllegalChoice, Step
from engine.kit.events import emit
from engine.rng import rng_for
from engine.samurai.answers import Pick
from engine.samurai.bids import finish_swords, lock_plans
from engine.samurai.board import (
    active,
    deploy_targets,
    end_phase,
    locked_plan,
    player_of,
    who,
)
from engine.samurai.choices import handle
from engine.samurai.content import content
from engine.samurai.hand_limit import ask_discards
from engine.samurai.muster import (
    finish_muster,
    hire_ronin,
    muster_complete,
    resolve_place,
    resolve_ronin,
    start_muster,
    start_placing,
)
from engine.samurai.prompts import prompts
from engine.samurai.rounds import finish_setup
from engine.samurai.setup_placement import (
    apply_screens,
    claims_sealed,
    placement_sealed,
    resolve_claims,
    resolve_placement,
)
from engine.samurai.setup_tasks import start_deploy, task_targets
from engine.samurai.state import Interrupt, SamuraiState, no_units
from engine.samurai.turn_order import serve_swords, swords_sealed
from engine.samurai.victory import excess
from engine.samurai.war import start_war, war_step
from engine.validate import parse_choice

__all__ = ["advance", "prompts", "step_once", "submit"]


def advance(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    """Move on through every step that needs nobody's decision; a hand over the LWTV limit
    is asked for its discard at whichever step it went over (hand_limit.py)."""
    for _ in range(100000):
        while state.interrupts and not still_owed(state, state.interrupts[0]):
            state.interrupts.pop(0)
        if state.phase == "over":
            return
        ask_discards(state)
        if state.interrupts:
            return
        if not step_once(state, events, rng):
            ask_discards(state)
            return
    raise RuntimeError("the Samurai phase machine does not settle")


def still_owed(state: SamuraiState, interrupt: Interrupt) -> bool:
    """A rebuild with nowhere to stand, or a discard whose hand fits again (an army raised
    since), is dropped rather than asked."""
    if interrupt.kind == "rebuild":
        return bool(deploy_targets(state, interrupt.seat))
    if interrupt.kind == "discard":
        return excess(state, interrupt.seat) > 0
    return True


def step_once(state: SamuraiState, events: list[Event], rng: random.Random) -> bool:
    """One step needing no decision, by phase; False when someone owes a decision now."""
    phase = state.phase
    if phase == "claims":
        if claims_sealed(state):
            resolve_claims(state, events)
            return True
        return False
    if phase == "placement":
        if placement_sealed(state):
            resolve_placement(state, events)
            finish_setup(state, events, rng)
            return True
        return False
    if phase == "swords" and state.options.steps == "combined":
        if swords_sealed(state):
            serve_swords(state, events)
            finish_swords(state, events, rng)
            return True
        return False
    if phase == "muster":
        if muster_complete(state):
            finish_muster(state, events)
            start_war(state)
            return True
        return False
    if phase in ("setup", "deploy", "swords", "build"):
        while state.queue and not task_targets(state, state.queue[0]):
            task = state.queue.pop(0)
            if task.task == "build":
                emit(state, "log", events, "info",
                     f"{who(task.seat)} cannot build anything: 2 koku are lost.")
        while state.queue and player_of(state, state.queue[0].seat).eliminated:
            state.queue.pop(0)
        if state.queue:
            return not task_targets(state, state.queue[0])
        if phase == "setup":
            if state.options.mode == "base":
                start_deploy(state, events)
            else:
                end_phase(events, state, "Setup: provinces claimed and spearmen placed.", kind="setup")
                state.phase = "screens"
        elif phase == "deploy":
            finish_setup(state, events, rng)
        elif phase == "swords":
            finish_swords(state, events, rng)
        else:
            end_phase(events, state, "Build done.", kind="build")
            if state.options.steps == "combined":
                start_muster(state, events, builds_inside=False)
            else:
                state.phase = "levy"
        return True
    if phase == "screens":
        if all("a2" in player_of(state, seat).draft for seat in active(state)):
            apply_screens(state)
            end_phase(events, state, "Army screens are set (compositions stay hidden).", kind="setup")
            start_deploy(state, events)
            return True
        return False
    if phase == "plan":
        if all("plan" in player_of(state, seat).draft for seat in active(state)):
            if state.ninja is not None and not player_of(state, state.ninja).eliminated:
                state.phase = "spy"
            else:
                lock_plans(state, events, rng)
            return True
        return False
    if phase in ("spy", "spy_revise"):
        return False
    if phase == "levy":
        owing = [seat for seat in active(state) if locked_plan(player_of(state, seat)).levy > 0]
        if all("levy" in player_of(state, seat).draft for seat in owing):
            for seat in active(state):
                player = player_of(state, seat)
                got = player.draft.get("levy") or no_units()
                player.draft = {}
                if any(got.values()):
                    start_placing(state, seat, got)
            state.phase = "place"
            return True
        return False
    if phase == "place":
        if all(not player_of(state, seat).draft.get("todo") for seat in active(state)):
            resolve_place(state, events)
            hire_ronin(state, events)
            state.phase = "ronin"
            return True
        return False
    if phase == "ronin":
        if all(player_of(state, seat).draft.get("ronin_todo", 0) <= 0 for seat in active(state)):
            resolve_ronin(state, events)
            start_war(state)
            return True
        return False
    if phase == "war":
        return war_step(state, events, rng)
    raise RuntimeError(f"unknown phase {phase}")


def fresh_copy(state: SamuraiState) -> SamuraiState:
    """A deep copy for the next state: submit copies on every choice, and `clone` is about
    1.7 times as fast as rebuilding from plain data (six times as pydantic's deep copy)."""
    return clone(state)


def submit(state_before: SamuraiState, seat: int, choice: dict[str, Any], *, in_place: bool = False) -> Step:
    """Apply one seat's choice to a copy of the state (or to the state itself, ``in_place``: a
    driver's working copy, engine/working.py), then advance the machine; choosing a region of
    a paged list only moves that seat's view of the list."""
    if state_before.phase == "over":
        raise IllegalChoice("the game is over")
    mine = prompts(state_before, only=seat)
    if not mine:
        raise IllegalChoice("it is not your turn: nothing is asked of you now")
    prompt = mine[0]
    answer = parse_choice(prompt.answer, choice)
    state = state_before if in_place else fresh_copy(state_before)
    rng = rng_for(state.seed, state.step)
    events: list[Event] = []
    if isinstance(answer, Pick) and answer.act == "region":
        region = answer.region or ""
        if region and region not in content().map.regions:
            raise IllegalChoice(f"there is no region called {region!r}")
        state.nav[str(seat)] = region
    else:
        handle(state, seat, prompt, answer, events, rng)
        state.nav.pop(str(seat), None)
        advance(state, events, rng)
    state.step += 1
    return Step(state=state, events=events)

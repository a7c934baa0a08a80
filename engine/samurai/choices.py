"""Applying one seat's answer to the state: a pending interrupt first, then a sealed
simultaneous step by phase, then a table keyed on the prompt's kind (the Wage War prompts
have tables of their own in war_answers)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.contract import Event, Prompt
from engine.samurai.answers import Pick
from engine.samurai.battle import choose_losses
from engine.samurai.bids import answer_spy, check_plan, lock_plans
from engine.samurai.board import player_of
from engine.samurai.elimination import rebuild
from engine.samurai.garrison_forces import choose_units
from engine.samurai.hand_limit import discard_card
from engine.samurai.muster import check_levy, do_muster, do_place, do_ronin
from engine.samurai.ninja import send_ninja, strike_back
from engine.samurai.setup_placement import do_claim_wish, do_placement, do_screen
from engine.samurai.setup_tasks import do_task
from engine.samurai.state import Interrupt, SamuraiState
from engine.samurai.turn_order import want_sword
from engine.samurai.war_answers import handle_war

Answer = Callable[[SamuraiState, int, str, Any, list[Event], random.Random], None]
SealedAnswer = Callable[[SamuraiState, int, Any], None]


def handle(state: SamuraiState, seat: int, prompt: Prompt, answer: Any, events: list[Event],
           rng: random.Random) -> None:
    """Apply the answer to the prompt the seat was asked."""
    if state.interrupts and state.interrupts[0].seat == seat:
        handle_interrupt(state, seat, state.interrupts[0], answer, events, rng)
        return
    sealed_answer = sealed_step_answer(state)
    if sealed_answer is not None:
        sealed_answer(state, seat, answer)
        return
    ANSWERS.get(prompt.kind, handle_war)(state, seat, prompt.kind, answer, events, rng)


def sealed_step_answer(state: SamuraiState) -> SealedAnswer | None:
    """The simultaneous steps record a sealed answer; the machine resolves them all at once."""
    if state.phase == "swords" and state.options.steps == "combined":
        return want_sword
    return SEALED_STEPS.get(state.phase)


SEALED_STEPS: dict[str, SealedAnswer] = {
    "claims": do_claim_wish,
    "placement": do_placement,
    "muster": do_muster,
}


def handle_interrupt(state: SamuraiState, seat: int, interrupt: Interrupt, answer: Pick, events: list[Event],
                     rng: random.Random) -> None:
    """The answer to the interrupt at the head of the list."""
    if interrupt.kind == "ninja":
        send_ninja(state, events, seat, answer, rng, from_offer=False)
        return
    if interrupt.kind == "counter":
        strike_back(state, events, seat, interrupt.data["holder"], answer, rng)
        return
    if interrupt.kind == "discard":
        discard_card(state, events, seat, answer)
        return
    rebuild(state, events, seat, answer)


# ---------------------------------------------------------------- by prompt kind


def answer_task(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                rng: random.Random) -> None:
    """A queued task (classic pace) is served, then leaves the queue."""
    do_task(state, seat, state.queue[0], answer, events)
    state.queue.pop(0)


def answer_screen(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                  rng: random.Random) -> None:
    do_screen(state, seat, answer)


def answer_discard(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                   rng: random.Random) -> None:
    discard_card(state, events, seat, answer)


def answer_plan(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                rng: random.Random) -> None:
    player_of(state, seat).draft["plan"] = check_plan(state, seat, answer)


def answer_spying(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                  rng: random.Random) -> None:
    answer_spy(state, seat, answer, events, rng)


def answer_plan_revise(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                       rng: random.Random) -> None:
    """The spy's holder revises last, so the plans are revealed at once."""
    player_of(state, seat).draft["plan"] = check_plan(state, seat, answer)
    lock_plans(state, events, rng)


def answer_levy(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                rng: random.Random) -> None:
    player_of(state, seat).draft["levy"] = check_levy(state, seat, answer)


def answer_place(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                 rng: random.Random) -> None:
    do_place(state, seat, answer)


def answer_ronin(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                 rng: random.Random) -> None:
    do_ronin(state, seat, answer)


def answer_casualties(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                      rng: random.Random) -> None:
    choose_losses(state, events, seat, answer, rng)


def answer_ninja_offer(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                       rng: random.Random) -> None:
    send_ninja(state, events, seat, answer, rng, from_offer=True)


def answer_units(state: SamuraiState, seat: int, kind: str, answer: Any, events: list[Event],
                 rng: random.Random) -> None:
    """Which units go: a garrison's attacking force, a garrison's move, an army's gathering."""
    choose_units(state, events, seat, kind, answer)


ANSWERS: dict[str, Answer] = {
    "spear": answer_task,
    "claim": answer_task,
    "deploy": answer_task,
    "sword": answer_task,
    "build": answer_task,
    "army_screen": answer_screen,
    "discard": answer_discard,
    "plan": answer_plan,
    "spy": answer_spying,
    "plan_revise": answer_plan_revise,
    "levy": answer_levy,
    "place": answer_place,
    "ronin": answer_ronin,
    "casualties": answer_casualties,
    "ninja": answer_ninja_offer,
    "garrison_force": answer_units,
    "garrison_move": answer_units,
    "gather": answer_units,
}
"""Every prompt kind outside the Wage War turn; any other kind is the war's (handle_war)."""

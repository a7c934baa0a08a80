"""Applying one seat's answer to the state, dispatched by its prompt's kind."""

from __future__ import annotations

import random
from typing import Any

from engine.contract import Event, IllegalChoice, Prompt
from engine.samurai.answers import Pick
from engine.samurai.battle import (
    choose_losses,
)
from engine.samurai.bids import check_plan, lock_plans
from engine.samurai.board import (
    active,
    emit,
    player_of,
    who,
)
from engine.samurai.elimination import rebuild
from engine.samurai.garrison_forces import (
    choose_units,
)
from engine.samurai.muster import (
    check_levy,
    do_muster,
    do_place,
    do_ronin,
)
from engine.samurai.ninja import (
    send_ninja,
    strike_back,
)
from engine.samurai.rounds import discard_card
from engine.samurai.setup_placement import (
    do_claim_wish,
    do_placement,
    do_screen,
)
from engine.samurai.setup_tasks import do_task
from engine.samurai.state import (
    Interrupt,
    SamuraiState,
)
from engine.samurai.turn_order import want_sword
from engine.samurai.war_answers import handle_war
from engine.text import seat_ref


def handle(state: SamuraiState, seat: int, prompt: Prompt, answer: Any, events: list[Event], rng: random.Random) -> None:
    kind = prompt.kind
    if state.interrupts and state.interrupts[0].seat == seat:
        handle_interrupt(state, seat, state.interrupts[0], answer, events, rng)
        return
    if state.phase == "claims":
        do_claim_wish(state, seat, answer)
        return
    if state.phase == "placement":
        do_placement(state, seat, answer)
        return
    if state.phase == "muster":
        do_muster(state, seat, answer)
        return
    if state.phase == "swords" and state.options.steps == "combined":
        want_sword(state, seat, answer)
        return
    if kind in ("spear", "claim", "deploy", "sword", "build"):
        task = state.queue[0]
        do_task(state, seat, task, answer, events)
        state.queue.pop(0)
        return
    if kind == "army_screen":
        do_screen(state, seat, answer)
        return
    if kind == "discard":
        discard_card(state, events, seat, answer)
        return
    if kind == "plan":
        player_of(state, seat).draft["plan"] = check_plan(state, seat, answer)
        return
    if kind == "spy":
        if answer.act == "decline":
            emit(state, events, f"{who(seat)}'s ninja goes home unused.")
            lock_plans(state, events, rng)
            return
        if answer.act != "spy" or answer.seat is None or answer.seat not in active(state) or answer.seat == seat:
            raise IllegalChoice("choose another player to spy on, or decline")
        target = player_of(state, answer.seat).draft["plan"]
        emit(state, events, f"{who(seat)}'s ninja spies on {who(answer.seat)}'s plan.")
        emit(state, events, f"{seat_ref(answer.seat)}'s plan: " + ", ".join(f"{bin_name} {n}" for bin_name, n in target.items()),
             seats=[seat], kind="spy", data={"seat": answer.seat, "plan": target})
        state.phase = "spy_revise"
        return
    if kind == "plan_revise":
        player_of(state, seat).draft["plan"] = check_plan(state, seat, answer)
        lock_plans(state, events, rng)
        return
    if kind == "levy":
        player_of(state, seat).draft["levy"] = check_levy(state, seat, answer)
        return
    if kind == "place":
        do_place(state, seat, answer)
        return
    if kind == "ronin":
        do_ronin(state, seat, answer)
        return
    if kind == "casualties":
        choose_losses(state, events, seat, answer, rng)
        return
    if kind == "ninja":
        send_ninja(state, events, seat, answer, rng, from_offer=True)
        return
    if kind in ("garrison_force", "garrison_move", "gather"):
        choose_units(state, events, seat, kind, answer)
        return
    handle_war(state, seat, kind, answer, events, rng)


def handle_interrupt(state: SamuraiState, seat: int, interrupt: Interrupt, answer: Pick, events: list[Event],
                     rng: random.Random) -> None:
    if interrupt.kind == "ninja":
        send_ninja(state, events, seat, answer, rng, from_offer=False)
        return
    if interrupt.kind == "counter":
        strike_back(state, events, seat, interrupt.data["holder"], answer, rng)
        return
    rebuild(state, events, seat, answer)

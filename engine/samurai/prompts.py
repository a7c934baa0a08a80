"""Who owes which decision now: the prompts of every phase."""

from __future__ import annotations

from collections.abc import Callable

from engine.contract import Prompt
from engine.samurai.battle import loss_prompts
from engine.samurai.bids import plan_prompt, spy_prompt
from engine.samurai.board import active, locked_plan, player_of
from engine.samurai.elimination import rebuild_prompt
from engine.samurai.hand_limit import discard_prompt
from engine.samurai.muster import levy_prompt, muster_prompt, place_prompt, ronin_prompt
from engine.samurai.ninja import counter_prompt, ninja_offer, ninja_prompt
from engine.samurai.setup_placement import claims_prompt, placement_prompt, screen_prompt
from engine.samurai.setup_tasks import task_prompt
from engine.samurai.state import Interrupt, SamuraiState
from engine.samurai.turn_order import sealed_sword_prompt
from engine.samurai.war_prompts import war_prompt


def prompts(state: SamuraiState, only: int | None = None) -> list[Prompt]:
    """Every decision owed now; with ``only``, just that seat's (submit builds no other
    seat's prompts: in the simultaneous steps that was most of a choice's cost)."""
    if only is not None:
        return [prompt for prompt in _prompts(state, lambda seat: seat == only) if prompt.seat == only]
    return _prompts(state, lambda seat: True)


def _prompts(state: SamuraiState, asked: Callable[[int], bool]) -> list[Prompt]:
    """The prompts of the current phase, for the seats ``asked`` accepts."""
    if state.phase == "over":
        return []
    if state.interrupts:
        return [interrupt_prompt(state, state.interrupts[0])]
    phase = state.phase
    if phase == "claims":
        return [claims_prompt(state, seat) for seat in active(state) if asked(seat)]
    if phase == "placement":
        return [placement_prompt(state, seat) for seat in active(state) if asked(seat)]
    if phase == "swords" and state.options.steps == "combined":
        return [sealed_sword_prompt(state, seat) for seat in state.sword_bidders if asked(seat)]
    if phase == "muster":
        return [prompt for prompt in (muster_prompt(state, seat) for seat in active(state) if asked(seat)) if prompt is not None]
    if phase in ("setup", "deploy", "swords", "build"):
        return [task_prompt(state, state.queue[0])] if state.queue else []
    if phase == "screens":
        return [screen_prompt(state, seat) for seat in active(state) if asked(seat)]
    if phase == "plan":
        return [discard_prompt(state, seat) if player_of(state, seat).draft.get("discard")
                else plan_prompt(state, seat) for seat in active(state) if asked(seat)]
    if phase == "spy":
        return [spy_prompt(state)]
    if phase == "spy_revise":
        assert state.ninja is not None
        return [plan_prompt(state, state.ninja, revise=True)]
    if phase == "levy":
        return [levy_prompt(state, seat) for seat in active(state)
                if asked(seat) and locked_plan(player_of(state, seat)).levy > 0]
    if phase == "place":
        return [place_prompt(state, seat) for seat in active(state)
                if asked(seat) and "todo" in player_of(state, seat).draft]
    if phase == "ronin":
        return [ronin_prompt(state, seat) for seat in active(state)
                if asked(seat) and "ronin_todo" in player_of(state, seat).draft]
    if phase == "war":
        if state.war is not None and state.war.battle is not None and state.war.battle.pending is not None:
            return loss_prompts(state)
        offer = ninja_offer(state) if state.ninja is not None and asked(state.ninja) else None
        war = state.war
        turn_elsewhere = war is not None and war.order_pos < len(state.order) \
            and not asked(state.order[war.order_pos])
        turn = None if turn_elsewhere else war_prompt(state)
        return [prompt for prompt in (offer, turn) if prompt is not None]
    return []


def interrupt_prompt(state: SamuraiState, interrupt: Interrupt) -> Prompt:
    """An interrupt (a ninja strike, a counter-strike, a rebuild, a discard over the hand limit) is
    asked before anything else."""
    seat = interrupt.seat
    if interrupt.kind == "ninja":
        return ninja_prompt(state, seat)
    if interrupt.kind == "counter":
        return counter_prompt(state, seat, interrupt.data["holder"])
    if interrupt.kind == "discard":
        return discard_prompt(state, seat)
    return rebuild_prompt(state, seat)

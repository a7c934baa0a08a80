"""The Samurai Swords phase table: who owes what in each phase, which handler takes each
answer (the handlers are in phase_answers), and the automatic steps that run the game on
between decisions.

The rules live by section: setup_tasks and setup_placement (setup), bids (plan, spy,
swords), muster (build, levy, ronin), war, war_prompts and war_answers (Wage War), rounds (a
round's start and end). Every rule is named in docs/rules/samurai.md with the test that
checks it. What the table adds to the kit's plain phase (engine/kit/phases.py):

- interrupts (a ninja strike, a counter-strike, rebuilding a lost army, a discard over the
  hand limit) are asked before the running phase's prompts and dropped once no longer owed;
- the hand limit is watched around every automatic step (`ask_discards`), since a hand can
  go over it at any step;
- every phase has a step, so one answer runs on through a round's end, the next round's
  start and automatic builds until someone owes a decision;
- "swords" is a sealed simultaneous bid with the "combined" steps option and a queue of one
  bidder at a time with "classic": its prompts, answer and step read the option;
- the Wage War prompts share one fallback (war_answers) across the sub-steps A to D;
- picking a region of a paged province list is a glance: it only moves that seat's view.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from pydantic import BaseModel

from engine.contract import Prompt
from engine.kit import Interrupts, Phase, PhaseTable
from engine.kit.phases import ASKS_NOTHING, EachSeat, PromptsOf
from engine.samurai.answers import LevyAnswer, Pick, PlanAnswer, ScreenAnswer, UnitCounts
from engine.samurai.battle import loss_prompts
from engine.samurai.bids import finish_swords, lock_plans, plan_prompt, spy_prompt
from engine.samurai.board import active, deploy_targets, end_phase, locked_plan, player_of, who
from engine.samurai.elimination import rebuild_prompt
from engine.samurai.hand_limit import ask_discards, discard_prompt
from engine.samurai.muster import (
    finish_muster,
    hire_ronin,
    levy_prompt,
    muster_complete,
    muster_prompt,
    muster_stage,
    place_prompt,
    resolve_place,
    resolve_ronin,
    ronin_prompt,
    start_muster,
    start_placing,
)
from engine.samurai.ninja import counter_prompt, ninja_offer, ninja_prompt, offer_open
from engine.samurai.phase_answers import (
    SamuraiFlow,
    answer_casualties,
    answer_claim,
    answer_counter,
    answer_discard,
    answer_levy,
    answer_muster,
    answer_ninja,
    answer_ninja_offer,
    answer_place,
    answer_placement,
    answer_plan,
    answer_plan_revise,
    answer_rebuild,
    answer_ronin,
    answer_screen,
    answer_spying,
    answer_sword,
    answer_task,
    answer_units,
    answer_war,
    look_at_region,
)
from engine.samurai.rounds import finish_setup
from engine.samurai.setup_placement import (
    apply_screens,
    claims_prompt,
    claims_sealed,
    placement_prompt,
    placement_sealed,
    placement_stage,
    resolve_claims,
    resolve_placement,
    screen_prompt,
)
from engine.samurai.setup_tasks import start_deploy, task_prompt, task_targets
from engine.samurai.state import Interrupt, SamuraiState, no_units
from engine.samurai.turn_order import sealed_sword_prompt, serve_swords, swords_sealed
from engine.samurai.victory import excess
from engine.samurai.war import start_war, war_step
from engine.samurai.war_prompts import war_kind, war_prompt


def _combined(state: SamuraiState) -> bool:
    return state.options.steps == "combined"


# ---------------------------------------------------------------- prompts by phase


def _each_active(build: Callable[[SamuraiState, int], Prompt | None]) -> PromptsOf[SamuraiState]:
    """One prompt per seat still in the match (a builder returning None asks that seat nothing)."""
    def prompts(state: SamuraiState, only: int | None) -> list[Prompt]:
        built = (build(state, seat) for seat in active(state) if only is None or seat == only)
        return [prompt for prompt in built if prompt is not None]
    return prompts


def _queue_prompts(state: SamuraiState, only: int | None) -> list[Prompt]:
    """A queue of tasks served one seat at a time (classic pace): the head task's prompt."""
    return [task_prompt(state, state.queue[0])] if state.queue else []


def _swords_prompts(state: SamuraiState, only: int | None) -> list[Prompt]:
    if _combined(state):
        return [sealed_sword_prompt(state, seat) for seat in state.sword_bidders if only is None or seat == only]
    return _queue_prompts(state, only)


def _plan_prompt(state: SamuraiState, seat: int) -> Prompt:
    """A seat over the hand limit discards before it plans."""
    return discard_prompt(state, seat) if player_of(state, seat).draft.get("discard") else plan_prompt(state, seat)


def _revise_prompts(state: SamuraiState, only: int | None) -> list[Prompt]:
    assert state.ninja is not None
    return [plan_prompt(state, state.ninja, revise=True)]


def _levy_prompt(state: SamuraiState, seat: int) -> Prompt | None:
    return levy_prompt(state, seat) if locked_plan(player_of(state, seat)).levy > 0 else None


def _place_prompt(state: SamuraiState, seat: int) -> Prompt | None:
    return place_prompt(state, seat) if "todo" in player_of(state, seat).draft else None


def _ronin_prompt(state: SamuraiState, seat: int) -> Prompt | None:
    return ronin_prompt(state, seat) if "ronin_todo" in player_of(state, seat).draft else None


def _war_prompts(state: SamuraiState, only: int | None) -> list[Prompt]:
    """A battle's losses first; otherwise the ninja's standing offer and the turn's prompt."""
    war = state.war
    if war is not None and war.battle is not None and war.battle.pending is not None:
        return loss_prompts(state)
    offer = ninja_offer(state) if state.ninja is not None and (only is None or only == state.ninja) else None
    turn_elsewhere = war is not None and war.order_pos < len(state.order) \
        and only is not None and state.order[war.order_pos] != only
    turn = None if turn_elsewhere else war_prompt(state)
    return [prompt for prompt in (offer, turn) if prompt is not None]


# ---------------------------------------------------------------- who owes what, without prompts
#
# Each phase's ``owed`` lists the (seat, kind) of exactly the prompts its ``prompts`` function
# builds, in the same order (tests/engine/samurai/test_owed.py checks it at every step of seeded
# matches), so that an answer is parsed and handled without building its prompt.


def _each_active_owed(kind_of: Callable[[SamuraiState, int], str | None]) -> EachSeat[SamuraiState]:
    """`_each_active`'s (seat, kind): a seat whose kind is None is asked nothing."""
    return EachSeat(active, kind_of)


def _queue_owed(state: SamuraiState) -> list[tuple[int, str]]:
    return [(state.queue[0].seat, state.queue[0].task)] if state.queue else []


def _swords_owed(state: SamuraiState) -> list[tuple[int, str]]:
    if _combined(state):
        return [(seat, "sword") for seat in state.sword_bidders]
    return _queue_owed(state)


def _plan_kind(state: SamuraiState, seat: int) -> str:
    return "discard" if player_of(state, seat).draft.get("discard") else "plan"


def _placement_kind(state: SamuraiState, seat: int) -> str:
    stage = placement_stage(state, seat)
    return stage if stage != "review" else str(player_of(state, seat).draft.get("last", "deploy"))


def _muster_kind(state: SamuraiState, seat: int) -> str | None:
    stage = muster_stage(state, seat)
    return stage if stage != "review" else str(player_of(state, seat).draft.get("last", "place"))


def _plan_answered(state: SamuraiState, seat: int, kind: str) -> bool:
    """A sealed plan a seat may still revise (its prompt says answered): `first_open` passes it
    over without building the planning prompt."""
    return kind == "plan" and "plan" in player_of(state, seat).draft


def _placement_answered(state: SamuraiState, seat: int, kind: str) -> bool:
    return placement_stage(state, seat) == "review"


def _muster_answered(state: SamuraiState, seat: int, kind: str) -> bool:
    return muster_stage(state, seat) == "review"


def _swords_answered(state: SamuraiState, seat: int, kind: str) -> bool:
    """A sealed sword wish (combined steps) the seat may still change; a classic queued
    pick is never answered."""
    return _combined(state) and player_of(state, seat).draft.get("sword") is not None


def _war_answered(state: SamuraiState, seat: int, kind: str) -> bool:
    """Only a choice of losses is ever answered in the war (sealed until the other side has
    chosen): the seat's first side owed (no seat owes both sides of a battle)."""
    if kind != "casualties":
        return False
    war = state.war
    assert war is not None and war.battle is not None and war.battle.pending is not None
    pending = war.battle.pending
    side = next(side for side, owner in sorted(pending.owed.items()) if owner == seat)
    return pending.chosen.get(side) is not None


def _war_owed(state: SamuraiState) -> list[tuple[int, str]]:
    war = state.war
    if war is not None and war.battle is not None and war.battle.pending is not None:
        return [(seat, "casualties") for _, seat in sorted(war.battle.pending.owed.items())]
    owed = [(state.ninja, "ninja")] if state.ninja is not None and offer_open(state) else []
    kind = war_kind(state)
    if kind is not None:
        assert war is not None
        owed.append((state.order[war.order_pos], kind))
    return owed


PICKED = dict.fromkeys(("spear", "claim", "deploy", "sword", "build"), Pick)
"""The answer model of every queued task's prompt."""
WAR_ANSWERS: dict[str, type[BaseModel]] = {
    **dict.fromkeys(("casualties", "garrison_force", "garrison_move", "gather"), UnitCounts),
    **dict.fromkeys(("ninja", "battle", "chain", "war_order", "move_to", "garrison_to", "declare_target",
                     "war_move", "war_declare", "war_final"), Pick),
}


# ---------------------------------------------------------------- interrupts


def still_owed(state: SamuraiState, interrupt: Interrupt) -> bool:
    """A rebuild with nowhere to stand, or a discard whose hand fits again (an army raised
    since), is dropped rather than asked."""
    if interrupt.kind == "rebuild":
        return bool(deploy_targets(state, interrupt.seat))
    if interrupt.kind == "discard":
        return excess(state, interrupt.seat) > 0
    return True


INTERRUPTS: Interrupts[SamuraiState, Interrupt] = Interrupts(
    queue=attrgetter("interrupts"),  # read before every step: no Python call
    builders={
        "ninja": lambda state, interrupt: ninja_prompt(state, interrupt.seat),
        "counter": lambda state, interrupt: counter_prompt(state, interrupt.seat, interrupt.data["holder"]),
        "discard": lambda state, interrupt: discard_prompt(state, interrupt.seat),
        "rebuild": lambda state, interrupt: rebuild_prompt(state, interrupt.seat),
    },
    handlers={"ninja": answer_ninja, "counter": answer_counter, "discard": answer_discard,
              "rebuild": answer_rebuild},
    owed=still_owed,
)


# ---------------------------------------------------------------- automatic steps


def serve_queue(flow: SamuraiFlow, finish: Callable[[SamuraiFlow], None]) -> bool:
    """A queue of tasks: tasks with nothing to do are dropped (a build with no site loses its
    koku), as are eliminated seats'; once the queue is empty the phase ``finish``es."""
    state = flow.state
    while state.queue and not task_targets(state, state.queue[0]):
        task = state.queue.pop(0)
        if task.task == "build":
            flow.emit("info", f"{who(task.seat)} cannot build anything: 2 koku are lost.")
    while state.queue and player_of(state, state.queue[0].seat).eliminated:
        state.queue.pop(0)
    if state.queue:
        return not task_targets(state, state.queue[0])
    finish(flow)
    return True


def _finish_setup_queue(flow: SamuraiFlow) -> None:
    state = flow.state
    if state.options.mode == "base":
        start_deploy(state, flow.events)
    else:
        end_phase(flow.events, state, "Setup: provinces claimed and spearmen placed.", kind="setup")
        state.phase = "screens"


def _finish_build(flow: SamuraiFlow) -> None:
    state = flow.state
    end_phase(flow.events, state, "Build done.", kind="build")
    if _combined(state):
        start_muster(state, flow.events, builds_inside=False)
    else:
        state.phase = "levy"


def step_setup(flow: SamuraiFlow) -> bool:
    return serve_queue(flow, _finish_setup_queue)


def step_deploy(flow: SamuraiFlow) -> bool:
    return serve_queue(flow, lambda flow: finish_setup(flow.state, flow.events, flow.rng))


def step_build(flow: SamuraiFlow) -> bool:
    return serve_queue(flow, _finish_build)


def step_claims(flow: SamuraiFlow) -> bool:
    if not claims_sealed(flow.state):
        return False
    resolve_claims(flow.state, flow.events)
    return True


def step_placement(flow: SamuraiFlow) -> bool:
    if not placement_sealed(flow.state):
        return False
    resolve_placement(flow.state, flow.events)
    finish_setup(flow.state, flow.events, flow.rng)
    return True


def step_swords(flow: SamuraiFlow) -> bool:
    """Sealed wishes served once all are in (combined steps), or the bidders' queue (classic)."""
    state = flow.state
    if not _combined(state):
        return serve_queue(flow, lambda flow: finish_swords(flow.state, flow.events, flow.rng))
    if not swords_sealed(state):
        return False
    serve_swords(state, flow.events)
    finish_swords(state, flow.events, flow.rng)
    return True


def step_muster(flow: SamuraiFlow) -> bool:
    if not muster_complete(flow.state):
        return False
    finish_muster(flow.state, flow.events)
    start_war(flow.state)
    return True


def step_screens(flow: SamuraiFlow) -> bool:
    state = flow.state
    if not all("a2" in player_of(state, seat).draft for seat in active(state)):
        return False
    apply_screens(state)
    end_phase(flow.events, state, "Army screens are set (compositions stay hidden).", kind="setup")
    start_deploy(state, flow.events)
    return True


def step_plan(flow: SamuraiFlow) -> bool:
    """Every plan is in: the ninja's holder may spy first, or the plans are revealed."""
    state = flow.state
    if not all("plan" in player_of(state, seat).draft for seat in active(state)):
        return False
    if state.ninja is not None and not player_of(state, state.ninja).eliminated:
        state.phase = "spy"
    else:
        lock_plans(state, flow.events, flow.rng)
    return True


def waits(flow: SamuraiFlow) -> bool:
    """A phase whose answers move it on themselves (the spy, the revised plan)."""
    return False


def step_levy(flow: SamuraiFlow) -> bool:
    state = flow.state
    owing = [seat for seat in active(state) if locked_plan(player_of(state, seat)).levy > 0]
    if not all("levy" in player_of(state, seat).draft for seat in owing):
        return False
    for seat in active(state):
        player = player_of(state, seat)
        got = player.draft.get("levy") or no_units()
        player.draft = {}
        if any(got.values()):
            start_placing(state, seat, got)
    state.phase = "place"
    return True


def step_place(flow: SamuraiFlow) -> bool:
    state = flow.state
    if not all(not player_of(state, seat).draft.get("todo") for seat in active(state)):
        return False
    resolve_place(state, flow.events)
    hire_ronin(state, flow.events)
    state.phase = "ronin"
    return True


def step_ronin(flow: SamuraiFlow) -> bool:
    state = flow.state
    if not all(player_of(state, seat).draft.get("ronin_todo", 0) <= 0 for seat in active(state)):
        return False
    resolve_ronin(state, flow.events)
    start_war(state)
    return True


def step_war(flow: SamuraiFlow) -> bool:
    return war_step(flow.state, flow.events, flow.rng)


def watch_hand_limit(flow: SamuraiFlow) -> None:
    """A hand over the LWTV limit is asked for its discard at whichever step it went over
    (only LWTV has a hand limit: the other modes, watched twice a choice, stop here)."""
    state = flow.state
    if state.options.mode == "lwtv":
        ask_discards(state)


# ---------------------------------------------------------------- the table


TASKS = dict.fromkeys(("spear", "claim", "deploy", "sword", "build"), answer_task)
"""The kinds of a queued task (setup_tasks): each is served by the head of the queue."""

def _spy_owed(state: SamuraiState) -> list[tuple[int, str]]:
    assert state.ninja is not None
    return [(state.ninja, "spy")]


def _revise_owed(state: SamuraiState) -> list[tuple[int, str]]:
    assert state.ninja is not None
    return [(state.ninja, "plan_revise")]


PHASES: PhaseTable[SamuraiState] = PhaseTable({
    "setup": Phase(prompts=_queue_prompts, owed=_queue_owed, answers=PICKED, handlers=TASKS, step=step_setup),
    "claims": Phase(prompts=_each_active(claims_prompt), owed=_each_active_owed(lambda state, seat: "claim"),
                    answers={"claim": Pick}, fallback=answer_claim, step=step_claims),
    "placement": Phase(prompts=_each_active(placement_prompt), owed=_each_active_owed(_placement_kind),
                       answered=_placement_answered, answers={"spear": Pick, "deploy": Pick},
                       fallback=answer_placement, step=step_placement),
    "screens": Phase(prompts=_each_active(screen_prompt), owed=_each_active_owed(lambda state, seat: "army_screen"),
                     answers={"army_screen": ScreenAnswer}, handlers={"army_screen": answer_screen},
                     step=step_screens),
    "deploy": Phase(prompts=_queue_prompts, owed=_queue_owed, answers=PICKED, handlers=TASKS, step=step_deploy),
    "plan": Phase(prompts=_each_active(_plan_prompt), owed=_each_active_owed(_plan_kind), answered=_plan_answered,
                  answers={"plan": PlanAnswer, "discard": Pick},
                  handlers={"plan": answer_plan, "discard": answer_discard}, step=step_plan),
    "spy": Phase(prompts=lambda state, only: [spy_prompt(state)], owed=_spy_owed, answers={"spy": Pick},
                 handlers={"spy": answer_spying}, step=waits),
    "spy_revise": Phase(prompts=_revise_prompts, owed=_revise_owed, answers={"plan_revise": PlanAnswer},
                        handlers={"plan_revise": answer_plan_revise}, step=waits),
    "swords": Phase(prompts=_swords_prompts, owed=_swords_owed, answered=_swords_answered, answers=PICKED,
                    fallback=answer_sword,
                    step=step_swords),
    "build": Phase(prompts=_queue_prompts, owed=_queue_owed, answers=PICKED, handlers=TASKS, step=step_build),
    "muster": Phase(prompts=_each_active(muster_prompt), owed=_each_active_owed(_muster_kind), answered=_muster_answered,
                    answers={"build": Pick, "place": Pick, "ronin": Pick, "losses_order": Pick},
                    fallback=answer_muster, step=step_muster),
    "levy": Phase(prompts=_each_active(_levy_prompt), answers={"levy": LevyAnswer},
                  owed=_each_active_owed(lambda state, seat: "levy" if locked_plan(player_of(state, seat)).levy > 0
                                         else None),
                  handlers={"levy": answer_levy}, step=step_levy),
    "place": Phase(prompts=_each_active(_place_prompt), answers={"place": Pick},
                   owed=_each_active_owed(lambda state, seat: "place" if "todo" in player_of(state, seat).draft
                                          else None),
                   handlers={"place": answer_place}, step=step_place),
    "ronin": Phase(prompts=_each_active(_ronin_prompt), answers={"ronin": Pick},
                   owed=_each_active_owed(lambda state, seat: "ronin" if "ronin_todo" in player_of(state, seat).draft
                                          else None),
                   handlers={"ronin": answer_ronin}, step=step_ronin),
    "war": Phase(prompts=_war_prompts, owed=_war_owed, answered=_war_answered, answers=WAR_ANSWERS, handlers={
        "casualties": answer_casualties, "ninja": answer_ninja_offer, "garrison_force": answer_units,
        "garrison_move": answer_units, "gather": answer_units,
    }, fallback=answer_war, step=step_war),
    "over": ASKS_NOTHING,
}, attrgetter("phase"), interrupts=INTERRUPTS, watch=watch_hand_limit, glance=look_at_region)
"""Every phase of a match, stored by these names in the state (never renamed)."""


def prompts(state: SamuraiState, only: int | None = None) -> list[Prompt]:
    """Every decision owed now; with ``only``, just that seat's."""
    return PHASES.prompts(state, only)

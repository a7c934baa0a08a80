"""The Samurai Swords phase machine: prompts() says who owes what, submit() applies one
choice and advances the machine until someone owes a decision again.

Every rule below is named in docs/rules/samurai.md with the test that checks it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.clone import clone
from engine.contract import Event, IllegalChoice, NumberField, Option, Prompt, Step
from engine.rng import rng_for
from engine.samurai.answers import Pick, PlanAnswer
from engine.samurai.battle import (
    battle_sides,
    choose_losses,
    finish_battle,
    launch,
    loss_prompts,
    run_rounds,
    start_battle,
)
from engine.samurai.board import (
    CHEAP_FIRST,
    MAX_OPTIONS,
    active,
    army_at,
    army_regulars,
    check_province,
    deploy_targets,
    emit,
    end_phase,
    gsize,
    income,
    opt,
    owned,
    paged,
    player_of,
    pname,
    region_hint,
    regulars_in,
    who,
)
from engine.samurai.combat import side_size
from engine.samurai.content import content
from engine.samurai.elimination import destroy_army, rebuild, rebuild_prompt
from engine.samurai.garrison_forces import (
    choose_units,
    default_force,
    force_has_choice,
    force_prompt,
    gather_prompt,
    move_garrison,
)
from engine.samurai.movement import (
    army_moves,
    attack_targets,
    declare_sources,
    garrison_attackers,
    garrison_sources,
    garrison_targets,
    gather,
    gather_count,
    move_army,
    target_label,
)
from engine.samurai.muster import (
    build_prompt,
    build_short,
    build_targets,
    check_build,
    check_levy,
    do_muster,
    do_place,
    do_ronin,
    finish_muster,
    hire_ronin,
    levy_prompt,
    make_build,
    muster_complete,
    muster_prompt,
    place_prompt,
    resolve_place,
    resolve_ronin,
    ronin_prompt,
    start_muster,
    start_placing,
)
from engine.samurai.ninja import (
    counter_prompt,
    ninja_offer,
    ninja_prompt,
    own_turn_option,
    send_ninja,
    strike_back,
)
from engine.samurai.setup_placement import (
    apply_screens,
    claim_targets,
    claims_prompt,
    claims_sealed,
    do_claim_wish,
    do_placement,
    do_screen,
    placement_prompt,
    placement_sealed,
    resolve_claims,
    resolve_placement,
    screen_prompt,
    spear_targets,
)
from engine.samurai.state import (
    Army,
    Declaration,
    Interrupt,
    Plan,
    SamuraiState,
    Task,
    War,
    no_units,
)
from engine.samurai.turn_order import sealed_sword_prompt, serve_swords, swords_sealed, want_sword
from engine.samurai.victory import check_win, final_scores
from engine.text import seat_ref
from engine.validate import parse_choice


def C():
    return content()


# ---------------------------------------------------------------- setup tasks


def next_undeployed(state: SamuraiState, seat: int) -> Army | None:
    for army in player_of(state, seat).armies:
        if army.alive and army.location is None:
            return army
    return None


def task_targets(state: SamuraiState, task: Task) -> list[str]:
    if task.task == "spear":
        return spear_targets(state, task.seat)
    if task.task == "claim":
        return claim_targets(state, task.seat)
    if task.task == "deploy":
        return deploy_targets(state, task.seat) if next_undeployed(state, task.seat) else []
    if task.task == "build":
        return [pid for pid, _ in build_targets(state, task.seat)]
    if task.task == "sword":
        return ["x"]
    return []


def task_prompt(state: SamuraiState, task: Task) -> Prompt:
    seat = task.seat
    if task.task == "sword":
        taken = {player_of(state, s).sword for s in active(state) if player_of(state, s).sword}
        free = [n for n in range(1, len(active(state)) + 1) if n not in taken]
        bid = player_of(state, seat).plan.swords if player_of(state, seat).plan else 0
        options = [opt(f"sword:{n}", f"Sword {n}" + (" (acts first)" if n == 1 else ""),
                       {"act": "sword", "position": n}) for n in free]
        return Prompt(seat=seat, kind="sword", text=f"You bid {bid} koku: choose your sword (turn position).",
                      answer=Pick, options=options, default=options[0].choice)
    if task.task == "build":
        return build_prompt(state, seat, secret=False)
    pids = task_targets(state, task)
    if task.task == "spear":
        placed = state.provinces
        candidates = [(pid, opt(f"spear:{pid}", f"{pname(pid)} ({placed[pid].garrison['spearman']} spearmen)",
                           {"act": "spear", "province": pid})) for pid in pids]
        text = "Setup: add one spearman to a province you own (at most 3 per province)."
    elif task.task == "claim":
        candidates = [(pid, opt(f"claim:{pid}", pname(pid), {"act": "claim", "province": pid})) for pid in pids]
        text = "Setup: claim an unoccupied province with one spearman."
    else:
        army = next_undeployed(state, seat)
        n = army.idx + 1 if army else 0
        candidates = [(pid, opt(f"deploy:{pid}", f"{pname(pid)} ({gsize(state.provinces[pid].garrison)} units)",
                           {"act": "deploy", "province": pid})) for pid in pids]
        text = f"Setup: deploy army {n} in a province you own without an army."
    options = paged(state, seat, candidates, [])
    return Prompt(seat=seat, kind=task.task, text=text + region_hint(state, seat, options), answer=Pick, options=options,
                  default=candidates[0][1].choice)


def do_task(state: SamuraiState, seat: int, task: Task, answer: Pick, events: list[Event]) -> None:
    if task.task == "sword":
        taken = {player_of(state, s).sword for s in active(state) if player_of(state, s).sword}
        n = answer.position
        if answer.act != "sword" or n is None:
            raise IllegalChoice("choose a sword by its position")
        if not 1 <= n <= len(active(state)) or n in taken:
            raise IllegalChoice(f"sword {n} is not available")
        player_of(state, seat).sword = n
        emit(state, events, f"{who(seat)} takes sword {n}.")
        return
    if task.task == "build":
        make_build(state, events, seat, check_build(state, seat, answer))
        return
    if answer.act != task.task:
        raise IllegalChoice(f"this decision is a {task.task}, not {answer.act!r}")
    pid = check_province(answer.province)
    if pid not in task_targets(state, task):
        if task.task == "spear":
            raise IllegalChoice(f"{pname(pid)} is not yours or already holds 3 spearmen")
        if task.task == "claim":
            raise IllegalChoice(f"{pname(pid)} is not unoccupied")
        raise IllegalChoice(f"{pname(pid)} is not yours or already has an army")
    player = player_of(state, seat)
    prov = state.provinces[pid]
    if task.task in ("spear", "claim"):
        prov.garrison["spearman"] += 1
        player.tray["spearman"] -= 1
        if task.task == "claim":
            prov.owner = seat
            emit(state, events, f"{who(seat)} claims {pname(pid)}.")
        else:
            emit(state, events, f"{who(seat)} adds a spearman in {pname(pid)}.")
    else:
        army = next_undeployed(state, seat)
        assert army is not None
        army.location = pid
        emit(state, events, f"{who(seat)} deploys army {army.idx + 1} in {pname(pid)}.")


# ---------------------------------------------------------------- secret prompts


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


# ---------------------------------------------------------------- movement


# ---------------------------------------------------------------- war: declarations, battles


# ---------------------------------------------------------------- the round


def start_round(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    state.round += 1
    for player in state.players:
        player.plan = None
        player.draft = {}
        player.levied = no_units()
        player.ronin_hired = 0
    emit(state, events, f"Round {state.round} begins.", kind="round")
    if state.options.mode == "lwtv":
        draw_events(state, events, rng)
    state.phase = "plan"


def hand_limit(state: SamuraiState, seat: int) -> int:
    n = sum(1 for army in player_of(state, seat).armies if army.alive)
    if state.options.mode == "lwtv" and state.provinces["yamashiro"].owner == seat:
        n += 1
    return n


def draw_events(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    cards = C().cards
    for seat in active(state):
        if not state.deck:
            state.deck, state.discard = state.discard, []
            rng.shuffle(state.deck)
        if not state.deck:
            return
        cid = state.deck.pop(0)
        card = cards[cid]
        if card.kind == "objective":
            player_of(state, seat).hand.append(cid)
            emit(state, events, f"{who(seat)} draws an event card and keeps it secret.")
            emit(state, events, f"You draw {card.title}: {card.text}", seats=[seat], kind="card")
            if len(player_of(state, seat).hand) > hand_limit(state, seat):
                player_of(state, seat).draft["discard"] = True
        else:
            emit(state, events, f"{who(seat)} draws {card.title}: {card.text}", kind="card")
            apply_event(state, events, seat, card)
            state.discard.append(cid)


def apply_event(state: SamuraiState, events: list[Event], seat: int, card: Any) -> None:
    player = player_of(state, seat)
    limits = C().units.limits
    if card.effect == "koku":
        player.koku = max(0, player.koku + card.amount)
    elif card.effect == "spearmen":
        spots = sorted((gsize(state.provinces[p].garrison), C().order[p], p) for p in owned(state, seat)
                       if gsize(state.provinces[p].garrison) < limits.garrison)
        for _, _, pid in spots[:card.amount]:
            if player.tray["spearman"] > 0:
                player.tray["spearman"] -= 1
                state.provinces[pid].garrison["spearman"] += 1
    elif card.effect == "castle":
        spots = sorted((-regulars_in(state, p), C().order[p], p) for p in owned(state, seat) if not state.provinces[p].fort)
        if spots and state.castles > 0:
            state.castles -= 1
            state.provinces[spots[0][2]].fort = 1
            emit(state, events, f"A castle rises in {pname(spots[0][2])}.")
    elif card.effect == "experience":
        alive = sorted((army.level, army.idx) for army in player.armies if army.alive)
        if alive:
            army = player.armies[alive[0][1]]
            army.level = min(limits.max_level, army.level + 1)
    elif card.effect in ("storm", "desertion"):
        for pid, prov in state.provinces.items():
            if prov.owner is None:
                continue
            hit = (card.effect == "storm" and C().region_of[pid] == card.region and gsize(prov.garrison) >= 2) or (
                card.effect == "desertion" and prov.owner == seat and gsize(prov.garrison) >= 4)
            if hit:
                for kind in CHEAP_FIRST:
                    if prov.garrison[kind]:
                        prov.garrison[kind] -= 1
                        player_of(state, prov.owner).tray[kind] += 1
                        break


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


def begin_war_turn(state: SamuraiState) -> None:
    war = state.war
    assert war is not None
    if war.order_pos < len(state.order):
        seat = state.order[war.order_pos]
        for army in player_of(state, seat).armies:
            army.moves_left = army.level
            army.attacks_used = 0
            army.won = False
    war.sub = "A"
    war.sel = {}
    war.declarations = []
    war.battle = None
    war.chain_army = None
    war.d_moved = []
    war.d_garrisons = False


def end_round(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    """Action 8 (ronin leave, assassinated daimyos replaced) and Action 9 (koku)."""
    state.war = None
    for prov in state.provinces.values():
        state.ronin_pool += prov.ronin
        prov.ronin = 0
        prov.ronin_revealed = False
    for player in state.players:
        for army in player.armies:
            state.ronin_pool += army.ronin
            army.ronin = 0
            army.ronin_revealed = False
            if army.alive and army.assassinated:
                if army_regulars(army) == 0:
                    destroy_army(state, events, player.seat, army, None)
                    continue
                army.assassinated = False
                army.level = 1
                emit(state, events, f"A new daimyo takes command of {who(player.seat)}'s army {army.idx + 1}.")
    if state.phase == "over":
        return
    for seat in active(state):
        player_of(state, seat).koku += income(state, seat)
    end_phase(events, state, f"End of round {state.round}: ronin leave; koku collected: " + ", ".join(
        f"{who(s)} {player_of(state, s).koku}" for s in active(state)), kind="koku")
    if state.options.mode == "lwtv" and state.end_round is not None and state.round >= state.end_round:
        final_scores(state, events, f"the last round ({state.round}) is over")
        return
    if state.options.round_limit is not None and state.round >= state.options.round_limit:
        final_scores(state, events, f"the round limit ({state.round}) is reached")
        return
    start_round(state, events, rng)


# ---------------------------------------------------------------- advancing the machine


def advance(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    """Move on through every step that needs nobody's decision."""
    for _ in range(100000):
        while state.interrupts and state.interrupts[0].kind == "rebuild" and not deploy_targets(state, state.interrupts[0].seat):
            state.interrupts.pop(0)
        if state.phase == "over" or state.interrupts:
            return
        if not step_once(state, events, rng):
            return
    raise RuntimeError("the Samurai phase machine does not settle")


def step_once(state: SamuraiState, events: list[Event], rng: random.Random) -> bool:
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
                emit(state, events, f"{who(task.seat)} cannot build anything: 2 koku are lost.")
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
        if all("a2" in player_of(state, s).draft for s in active(state)):
            apply_screens(state)
            end_phase(events, state, "Army screens are set (compositions stay hidden).", kind="setup")
            start_deploy(state, events)
            return True
        return False
    if phase == "plan":
        if all("plan" in player_of(state, s).draft for s in active(state)):
            if state.ninja is not None and not player_of(state, state.ninja).eliminated:
                state.phase = "spy"
            else:
                lock_plans(state, events, rng)
            return True
        return False
    if phase in ("spy", "spy_revise"):
        return False
    if phase == "levy":
        owing = [s for s in active(state) if player_of(state, s).plan.levy > 0]
        if all("levy" in player_of(state, s).draft for s in owing):
            for s in active(state):
                player = player_of(state, s)
                got = player.draft.get("levy") or no_units()
                player.draft = {}
                if any(got.values()):
                    start_placing(state, s, got)
            state.phase = "place"
            return True
        return False
    if phase == "place":
        if all(not player_of(state, s).draft.get("todo") for s in active(state)):
            resolve_place(state, events)
            hire_ronin(state, events)
            state.phase = "ronin"
            return True
        return False
    if phase == "ronin":
        if all(player_of(state, s).draft.get("ronin_todo", 0) <= 0 for s in active(state)):
            resolve_ronin(state, events)
            start_war(state)
            return True
        return False
    if phase == "war":
        return war_step(state, events, rng)
    raise RuntimeError(f"unknown phase {phase}")


def finish_setup(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    for seat in active(state):
        player_of(state, seat).koku = income(state, seat)
    end_phase(events, state, "Setup complete: armies deployed, koku collected.", kind="setup")
    start_round(state, events, rng)


def start_war(state: SamuraiState) -> None:
    state.phase = "war"
    state.war = War()
    begin_war_turn(state)


def start_deploy(state: SamuraiState, events: list[Event]) -> None:
    state.queue = [Task(seat=s, task="deploy") for _ in range(3) for s in state.order]
    state.phase = "deploy"


def war_options_exist(state: SamuraiState, seat: int, sub: str) -> bool:
    player = player_of(state, seat)
    if sub == "A":
        return any(army_moves(state, seat, army, False) or gather_count(state, army) for army in player.armies)
    if sub == "B":
        return bool(declare_sources(state, seat))
    if sub == "D":
        war = state.war
        assert war is not None
        if not war.d_garrisons and any(army_moves(state, seat, army, True) for army in player.armies):
            return True
        if any(gather_count(state, army) for army in player.armies if army.alive):
            return True
        return bool(garrison_sources(state, seat))
    return False


def war_step(state: SamuraiState, events: list[Event], rng: random.Random) -> bool:
    war = state.war
    assert war is not None
    if war.order_pos >= len(state.order):
        end_round(state, events, rng)
        return True
    seat = state.order[war.order_pos]
    if player_of(state, seat).eliminated:
        war.order_pos += 1
        begin_war_turn(state)
        return True
    if war.sub == "A":
        if war.sel or war_options_exist(state, seat, "A"):
            return False
        war.sub = "B"
        return True
    if war.sub == "B":
        if war.sel or war_options_exist(state, seat, "B"):
            return False
        war.sub = "C"
        if war.declarations:
            emit(state, events, f"{who(seat)} declares attacks on " + ", ".join(
                sorted({pname(d.target) for d in war.declarations})) + ".", kind="declare")
        return True
    if war.sub == "C":
        if war.battle is not None:
            return False
        if war.chain_army is not None:
            army = player_of(state, seat).armies[war.chain_army]
            if army.alive and not army.assassinated and army.location and attack_targets(state, seat, army.location) \
                    and army.attacks_used < army.level:
                return False
            war.chain_army = None
            return True
        targets = sorted({d.target for d in war.declarations})
        if not targets:
            for army in player_of(state, seat).armies:
                if army.alive and army.won:
                    army.level = min(C().units.limits.max_level, army.level + 1)
                    emit(state, events, f"{who(seat)}'s daimyo of army {army.idx + 1} gains experience (level {army.level}).")
                army.won = False
                army.moves_left = army.level
            war.sub = "D"
            return True
        if len(targets) == 1:
            launch(state, events, rng, seat, targets[0])
            return True
        return False
    if war.sub == "D":
        if war.sel or war_options_exist(state, seat, "D"):
            return False
        end_war_turn(state, events)
        return True
    return False


def end_war_turn(state: SamuraiState, events: list[Event]) -> None:
    war = state.war
    assert war is not None
    seat = state.order[war.order_pos]
    end_phase(events, state, f"{who(seat)} ends the Wage War turn.", kind="war_turn")
    war.order_pos += 1
    begin_war_turn(state)


# ---------------------------------------------------------------- prompts


def prompts(state: SamuraiState, only: int | None = None) -> list[Prompt]:
    """Every decision owed now; with ``only``, just that seat's (submit builds no other
    seat's prompts: in the simultaneous steps that was most of a choice's cost)."""
    if only is not None:
        return [p for p in _prompts(state, lambda seat: seat == only) if p.seat == only]
    return _prompts(state, lambda seat: True)


def _prompts(state: SamuraiState, asked: Callable[[int], bool]) -> list[Prompt]:
    if state.phase == "over":
        return []
    if state.interrupts:
        return [interrupt_prompt(state, state.interrupts[0])]
    phase = state.phase
    if phase == "claims":
        return [claims_prompt(state, s) for s in active(state) if asked(s)]
    if phase == "placement":
        return [placement_prompt(state, s) for s in active(state) if asked(s)]
    if phase == "swords" and state.options.steps == "combined":
        return [sealed_sword_prompt(state, s) for s in state.sword_bidders if asked(s)]
    if phase == "muster":
        return [p for p in (muster_prompt(state, s) for s in active(state) if asked(s)) if p is not None]
    if phase in ("setup", "deploy", "swords", "build"):
        return [task_prompt(state, state.queue[0])] if state.queue else []
    if phase == "screens":
        return [screen_prompt(state, s) for s in active(state) if asked(s)]
    if phase == "plan":
        return [discard_prompt(state, s) if player_of(state, s).draft.get("discard") else plan_prompt(state, s)
                for s in active(state) if asked(s)]
    if phase == "spy":
        holder = state.ninja
        assert holder is not None
        options = [opt(f"spy:{s}", f"Spy on Player {s + 1}'s plan", {"act": "spy", "seat": s})
                for s in active(state) if s != holder]
        decline = opt("decline", "Do not spy (the ninja goes home)", {"act": "decline"})
        return [Prompt(seat=holder, kind="spy", text="Your ninja may look at one player's plan, then you may revise yours.",
                       answer=Pick, options=options + [decline], default=decline.choice)]
    if phase == "spy_revise":
        assert state.ninja is not None
        return [plan_prompt(state, state.ninja, revise=True)]
    if phase == "levy":
        return [levy_prompt(state, s) for s in active(state) if asked(s) and player_of(state, s).plan.levy > 0]
    if phase == "place":
        return [place_prompt(state, s) for s in active(state) if asked(s) and "todo" in player_of(state, s).draft]
    if phase == "ronin":
        return [ronin_prompt(state, s) for s in active(state) if asked(s) and "ronin_todo" in player_of(state, s).draft]
    if phase == "war":
        if state.war is not None and state.war.battle is not None and state.war.battle.pending is not None:
            return loss_prompts(state)
        offer = ninja_offer(state) if state.ninja is not None and asked(state.ninja) else None
        war = state.war
        turn_elsewhere = war is not None and war.order_pos < len(state.order) and not asked(state.order[war.order_pos])
        return [p for p in (offer, None if turn_elsewhere else war_prompt(state)) if p is not None]
    return []


def interrupt_prompt(state: SamuraiState, interrupt: Interrupt) -> Prompt:
    seat = interrupt.seat
    if interrupt.kind == "ninja":
        return ninja_prompt(state, seat)
    if interrupt.kind == "counter":
        return counter_prompt(state, seat, interrupt.data["holder"])
    return rebuild_prompt(state, seat)


def discard_prompt(state: SamuraiState, seat: int) -> Prompt:
    """LWTV: a hand over the limit is cut first, as the seat's part of the Plan step (so the
    other players plan meanwhile instead of waiting for the discards one by one)."""
    cards = C().cards
    options = [opt(f"discard:{cid}", f"Discard {cards[cid].title}", {"act": "discard", "card": cid})
            for cid in player_of(state, seat).hand]
    return Prompt(seat=seat, kind="discard", text=f"Your hand holds more than {hand_limit(state, seat)} event cards: "
                  "discard one, then make your plan.", answer=Pick, options=options, default=options[0].choice)


def discard_card(state: SamuraiState, events: list[Event], seat: int, answer: Pick) -> None:
    if answer.act != "discard" or answer.card not in player_of(state, seat).hand:
        raise IllegalChoice("choose a card from your hand to discard")
    player = player_of(state, seat)
    player.hand.remove(answer.card)
    state.discard.append(answer.card)
    if len(player.hand) <= hand_limit(state, seat):
        player.draft.pop("discard", None)
    emit(state, events, f"{who(seat)} discards an event card.")


def war_prompt(state: SamuraiState) -> Prompt | None:
    war = state.war
    assert war is not None
    if war.order_pos >= len(state.order):
        return None
    seat = state.order[war.order_pos]
    player = player_of(state, seat)
    if war.sub == "C" and war.battle is not None:
        battle = war.battle
        attackers, defenders = battle_sides(state, battle)
        opts = [opt("continue", "Fight another round", {"act": "continue"}),
                opt("fight_on", "Fight to the end without asking again", {"act": "fight_on"}),
                opt("calloff", "Call off the attack", {"act": "calloff"})]
        return Prompt(seat=seat, kind="battle", text=f"Battle for {pname(battle.target)} after round {battle.rounds}: "
                      f"your {side_size(attackers)} units against {side_size(defenders)}. Go on?", answer=Pick,
                      options=opts, default=opts[0].choice)
    if war.sub == "C" and war.chain_army is not None:
        army = player.armies[war.chain_army]
        assert army.location is not None
        opts = [opt(f"attack:{t}", target_label(state, seat, army.location, t), {"act": "attack", "target": t})
                for t in attack_targets(state, seat, army.location)]
        stop = opt("stop", "Stop attacking with this army", {"act": "stop"})
        return Prompt(seat=seat, kind="chain", text=f"Army {army.idx + 1} (level {army.level}) may attack again from "
                      f"{pname(army.location)} ({army.level - army.attacks_used} attacks left).", answer=Pick,
                      options=(opts[:MAX_OPTIONS - 1] + [stop]), default=stop.choice)
    if war.sub == "C":
        targets = sorted({d.target for d in war.declarations})
        opts = [opt(f"battle:{t}", f"Resolve the battle for {pname(t)}", {"act": "battle", "target": t})
                for t in targets]
        return Prompt(seat=seat, kind="war_order", text="Choose the next battle to resolve.", answer=Pick,
                      options=opts[:MAX_OPTIONS], default=opts[0].choice)
    cancel = opt("cancel", "Back", {"act": "cancel"})
    if "gather" in war.sel:
        return gather_prompt(state, seat, player.armies[war.sel["gather"]])
    if war.sub == "D" and "to" in war.sel:
        source, dest = war.sel["garrison"], war.sel["to"]
        return force_prompt(state, seat, source, garrison_targets(state, seat, source)[dest], "garrison_move",
                            f"Move garrison units from {pname(source)} to {pname(dest)}: which go?")
    if war.sub == "B" and "target" in war.sel:
        source, tgt = war.sel["source"], war.sel["target"]
        return force_prompt(state, seat, source, garrison_attackers(state, source), "garrison_force",
                            f"The garrison of {pname(source)} attacks {pname(tgt)}: which units go?")
    if war.sub in ("A", "D") and "army" in war.sel:
        army = player.armies[war.sel["army"]]
        dests = army_moves(state, seat, army, claim=war.sub == "D")
        candidates = [(pid, opt(f"to:{pid}", f"{pname(pid)} ({d} step{'s' if d > 1 else ''})"
                           + (" - claim" if state.provinces[pid].owner is None else ""),
                           {"act": "to", "province": pid})) for pid, d in dests.items()]
        options = paged(state, seat, candidates, [cancel])
        return Prompt(seat=seat, kind="move_to", text=f"Move army {army.idx + 1} from {pname(army.location)} "
                      f"({army.moves_left} moves left) to:", answer=Pick, options=options, default=cancel.choice)
    if war.sub == "D" and "garrison" in war.sel:
        source = war.sel["garrison"]
        candidates = [(pid, opt(f"to:{pid}", f"To {pname(pid)} (up to {n} units)"
                           + (" - claim" if state.provinces[pid].owner is None else ""),
                           {"act": "to", "province": pid}))
                 for pid, n in garrison_targets(state, seat, source).items()]
        options = paged(state, seat, candidates, [cancel])
        return Prompt(seat=seat, kind="garrison_to", text=f"Move units of the garrison of {pname(source)} "
                      "to an adjacent province you own or an unoccupied one:", answer=Pick, options=options,
                      default=cancel.choice)
    if war.sub == "B" and war.sel:
        source = war.sel["source"]
        candidates = [(t, opt(f"attack:{t}", target_label(state, seat, source, t), {"act": "attack", "target": t}))
                 for t in attack_targets(state, seat, source)]
        options = paged(state, seat, candidates, [cancel])
        force = f"army {war.sel['army'] + 1}" if war.sel.get("army") is not None else "the garrison"
        return Prompt(seat=seat, kind="declare_target", text=f"Declare an attack by {force} from {pname(source)}:",
                      answer=Pick, options=options, default=cancel.choice)
    done = opt("done", "Done with this phase", {"act": "done"})
    extras: list[Option] = []
    candidates = []
    if war.sub == "A":
        for army in player.armies:
            if army_moves(state, seat, army, False):
                extras.append(opt(f"move:{army.idx}", f"Move army {army.idx + 1} ({pname(army.location)}, "
                                  f"{army.moves_left} moves)", {"act": "move", "army": army.idx}))
            if gather_count(state, army):
                extras.append(opt(f"gather:{army.idx}", f"Army {army.idx + 1} takes garrison units in {pname(army.location)} "
                                  f"(up to {gather_count(state, army)})", {"act": "gather", "army": army.idx}))
        extras += own_turn_option(state, seat)
        return Prompt(seat=seat, kind="war_move", text="Wage War A: move your armies through your own provinces.",
                      answer=Pick, options=extras + [done], default=done.choice)
    if war.sub == "B":
        for source, force, idx in declare_sources(state, seat):
            if force == "army":
                extras.append(opt(f"army:{idx}", f"Attack with army {idx + 1} from {pname(source)}",
                                  {"act": "source", "province": source, "army": idx}))
            else:
                candidates.append((source, opt(f"garrison:{source}", f"Attack with the garrison of {pname(source)} "
                                       f"({garrison_attackers(state, source)} units)", {"act": "source", "province": source})))
        declared = "; ".join(f"{pname(d.source)}→{pname(d.target)}" for d in war.declarations)
        options = paged(state, seat, candidates, extras + own_turn_option(state, seat) + [done])
        return Prompt(seat=seat, kind="war_declare", text="Wage War B: declare attacks (one per army or garrison)."
                      + (f" Declared: {declared}." if declared else ""), answer=Pick, options=options,
                      default=done.choice)
    for army in player.armies:
        if not war.d_garrisons and army_moves(state, seat, army, True):
            extras.append(opt(f"move:{army.idx}", f"Move army {army.idx + 1} ({pname(army.location)}, {army.moves_left} moves)",
                              {"act": "move", "army": army.idx}))
        if army.alive and gather_count(state, army):
            extras.append(opt(f"gather:{army.idx}", f"Army {army.idx + 1} takes garrison units in {pname(army.location)} "
                              f"(up to {gather_count(state, army)})", {"act": "gather", "army": army.idx}))
    extras += own_turn_option(state, seat)
    for pid in garrison_sources(state, seat):
        candidates.append((pid, opt(f"garrison:{pid}", f"Move the garrison of {pname(pid)}",
                               {"act": "garrison", "province": pid})))
    options = paged(state, seat, candidates, extras + [done])
    return Prompt(seat=seat, kind="war_final", text="Wage War D: move armies first, then garrisons one step; "
                  "you may claim unoccupied provinces.", answer=Pick, options=options, default=done.choice)


# ---------------------------------------------------------------- submit


def fresh_copy(state: SamuraiState) -> SamuraiState:
    """A deep copy for the next state: submit copies on every choice, and `clone` is about
    1.7 times as fast as rebuilding from plain data (six times as pydantic's deep copy)."""
    return clone(state)


def submit(state_before: SamuraiState, seat: int, choice: dict[str, Any]) -> Step:
    if state_before.phase == "over":
        raise IllegalChoice("the game is over")
    mine = prompts(state_before, only=seat)
    if not mine:
        raise IllegalChoice("it is not your turn: nothing is asked of you now")
    prompt = mine[0]
    answer = parse_choice(prompt.answer, choice)
    state = fresh_copy(state_before)
    rng = rng_for(state.seed, state.step)
    events: list[Event] = []
    if isinstance(answer, Pick) and answer.act == "region":
        region = answer.region or ""
        if region and region not in C().map.regions:
            raise IllegalChoice(f"there is no region called {region!r}")
        state.nav[str(seat)] = region
    else:
        handle(state, seat, prompt, answer, events, rng)
        state.nav.pop(str(seat), None)
        advance(state, events, rng)
    state.step += 1
    return Step(state=state, events=events)


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


def handle_war(state: SamuraiState, seat: int, kind: str, answer: Pick, events: list[Event], rng: random.Random) -> None:
    war = state.war
    assert war is not None
    player = player_of(state, seat)
    act = answer.act
    if act == "cancel" and war.sel:
        war.sel = {}
        return
    if kind == "battle":
        if act == "calloff":
            battle = war.battle
            assert battle is not None
            finish_battle(state, events, "calloff")
            return
        if act not in ("continue", "fight_on"):
            raise IllegalChoice("continue the battle or call it off")
        assert war.battle is not None
        war.battle.fight_on = act == "fight_on"
        war.battle.stage = "ranged"
        run_rounds(state, events, rng)
        return
    if kind == "chain":
        if act == "stop":
            war.chain_army = None
            return
        army = player.armies[war.chain_army]
        target = check_province(answer.target)
        if act != "attack" or target not in attack_targets(state, seat, army.location):
            raise IllegalChoice(f"{pname(target)} is not adjacent to {pname(army.location)} or cannot be attacked")
        war.chain_army = None
        start_battle(state, events, rng, seat, target, [Declaration(source=army.location, force="army", army=army.idx, target=target)],
                     chained=True)
        return
    if kind == "war_order":
        target = check_province(answer.target)
        if act != "battle" or target not in {d.target for d in war.declarations}:
            raise IllegalChoice(f"no declared attack on {pname(target)}")
        launch(state, events, rng, seat, target)
        return
    if kind == "move_to":
        army = player.armies[war.sel["army"]]
        pid = check_province(answer.province)
        dests = army_moves(state, seat, army, claim=war.sub == "D")
        if act != "to" or pid not in dests:
            raise IllegalChoice(f"army {army.idx + 1} cannot reach {pname(pid)} from {pname(army.location)} "
                                f"through your own provinces in {army.moves_left} moves")
        move_army(state, seat, army, pid, dests[pid], events)
        war.sel = {}
        check_win(state, events)
        return
    if kind == "garrison_to":
        source = war.sel["garrison"]
        pid = check_province(answer.province)
        targets = garrison_targets(state, seat, source)
        if act != "to" or pid not in targets:
            raise IllegalChoice(f"{pname(pid)} is not adjacent to {pname(source)}, or is not yours or empty, or is full")
        if answer.count is None and force_has_choice(state, source, targets[pid]):
            war.sel["to"] = pid
            return
        n = answer.count or targets[pid]
        if n > targets[pid]:
            raise IllegalChoice(f"at most {targets[pid]} units can move from {pname(source)} to {pname(pid)}")
        move_garrison(state, events, seat, source, pid, default_force(state, source, n))
        return
    if kind == "declare_target":
        source = war.sel["source"]
        target = check_province(answer.target)
        if act != "attack" or target not in attack_targets(state, seat, source):
            if target not in C().adj[source]:
                raise IllegalChoice(f"{pname(target)} is not adjacent to {pname(source)}")
            if state.round == 1 and army_at(state, target):
                raise IllegalChoice(f"no attack may be declared on {pname(target)}: it holds an army and this is the first round")
            raise IllegalChoice(f"{pname(target)} is your own province")
        force = "army" if war.sel.get("army") is not None else "garrison"
        if force == "garrison" and answer.count is None and force_has_choice(state, source, garrison_attackers(state, source)):
            war.sel["target"] = target
            return
        count = None
        if force == "garrison" and answer.count is not None:
            most = garrison_attackers(state, source)
            if answer.count > most:
                raise IllegalChoice(f"at most {most} units of the garrison of {pname(source)} can attack "
                                    "(one must stay unless an army holds the province)")
            count = answer.count
        war.declarations.append(Declaration(source=source, force=force, army=war.sel.get("army"), target=target, count=count))
        war.sel = {}
        return
    # the phase menus
    if act == "done":
        if war.sub == "A":
            war.sub = "B"
        elif war.sub == "B":
            war.sub = "C"
            if war.declarations:
                emit(state, events, f"{who(seat)} declares attacks on " + ", ".join(
                    sorted({pname(d.target) for d in war.declarations})) + ".", kind="declare")
        elif war.sub == "D":
            end_war_turn(state, events)
        return
    if kind in ("war_move", "war_final") and act in ("move", "gather"):
        if answer.army is None or not 0 <= answer.army < len(player.armies) or not player.armies[answer.army].alive:
            raise IllegalChoice("choose one of your living armies")
        army = player.armies[answer.army]
        if act == "gather":
            if not gather_count(state, army):
                raise IllegalChoice(f"army {army.idx + 1} has no garrison units to take, or no room")
            if gather_count(state, army) > 1:
                war.sel = {"gather": army.idx}
            else:
                gather(state, seat, army, events)
            return
        if army.assassinated:
            raise IllegalChoice(f"army {army.idx + 1}'s daimyo was assassinated: it cannot move")
        if kind == "war_final" and war.d_garrisons:
            raise IllegalChoice("armies move before garrisons in phase D")
        if not army_moves(state, seat, army, claim=kind == "war_final"):
            raise IllegalChoice(f"army {army.idx + 1} has nowhere to move")
        war.sel = {"army": army.idx}
        return
    if kind in ("war_move", "war_declare", "war_final") and act == "ninja":
        if not own_turn_option(state, seat):
            raise IllegalChoice("you have no ninja that can strike now")
        state.interrupts.insert(0, Interrupt(seat=seat, kind="ninja"))
        return
    if kind == "war_final" and act == "garrison":
        pid = check_province(answer.province)
        if pid not in garrison_sources(state, seat):
            raise IllegalChoice(f"the garrison of {pname(pid)} cannot move now")
        war.sel = {"garrison": pid}
        return
    if kind == "war_declare" and act == "source":
        pid = check_province(answer.province)
        srcs = declare_sources(state, seat)
        force = "army" if answer.army is not None else "garrison"
        if (pid, force, answer.army) not in srcs:
            raise IllegalChoice(f"no {force} of yours in {pname(pid)} can declare an attack")
        war.sel = {"source": pid, "army": answer.army}
        return
    raise IllegalChoice(f"{act!r} is not a choice here")

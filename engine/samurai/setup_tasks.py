"""The setup tasks served one seat at a time from the queue (classic pace): spearmen,
claims, army deployment, and in the round the sword choice and the build."""

from __future__ import annotations

from engine.contract import Event, IllegalChoice, Prompt
from engine.kit.events import emit
from engine.kit.prompting import opt
from engine.samurai.answers import Pick
from engine.samurai.bids import sword_prompt, take_sword
from engine.samurai.board import (
    check_province,
    deploy_targets,
    garrison_size,
    paged,
    player_of,
    province_name,
    region_hint,
    who,
)
from engine.samurai.muster import build_prompt, build_targets, check_build, make_build
from engine.samurai.setup_placement import claim_targets, spear_targets
from engine.samurai.state import Army, SamuraiState, Task
from engine.words import counted


def next_undeployed(state: SamuraiState, seat: int) -> Army | None:
    """The next army still off the map, deployed in order."""
    for army in player_of(state, seat).armies:
        if army.alive and army.location is None:
            return army
    return None


def task_targets(state: SamuraiState, task: Task) -> list[str]:
    """Where the queued task may go; a task with nowhere to go is skipped by the machine."""
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
    """The prompt of the task at the head of the queue."""
    seat = task.seat
    if task.task == "sword":
        return sword_prompt(state, seat)
    if task.task == "build":
        return build_prompt(state, seat, secret=False)
    pids = task_targets(state, task)
    if task.task == "spear":
        placed = state.provinces
        candidates = [(pid, opt(f"spear:{pid}",
                                f"{province_name(pid)} ({counted(placed[pid].garrison['spearman'], 'spearman', 'spearmen')})",
                                {"act": "spear", "province": pid})) for pid in pids]
        text = "Setup: add one spearman to a province you own (at most 3 per province)."
    elif task.task == "claim":
        candidates = [(pid, opt(f"claim:{pid}", province_name(pid), {"act": "claim", "province": pid}))
                      for pid in pids]
        text = "Setup: claim an unoccupied province with one spearman."
    else:
        army = next_undeployed(state, seat)
        army_number = army.idx + 1 if army else 0
        candidates = [(pid, opt(f"deploy:{pid}",
                                f"{province_name(pid)} ({counted(garrison_size(state.provinces[pid].garrison), 'unit')})",
                                {"act": "deploy", "province": pid})) for pid in pids]
        text = f"Setup: deploy army {army_number} in a province you own without an army."
    options = paged(state, seat, candidates, [])
    return Prompt(seat=seat, kind=task.task, text=text + region_hint(state, seat, options), answer=Pick,
                  options=options, default=candidates[0][1].choice)


def do_task(state: SamuraiState, seat: int, task: Task, answer: Pick, events: list[Event]) -> None:
    """Carry out the queued task with the seat's answer, checked against its targets."""
    if task.task == "sword":
        take_sword(state, seat, answer, events)
        return
    if task.task == "build":
        make_build(state, events, seat, check_build(state, seat, answer))
        return
    if answer.act != task.task:
        raise IllegalChoice(f"this decision is a {task.task}, not {answer.act!r}")
    pid = check_province(answer.province)
    if pid not in task_targets(state, task):
        if task.task == "spear":
            raise IllegalChoice(f"{province_name(pid)} is not yours or already holds 3 spearmen")
        if task.task == "claim":
            raise IllegalChoice(f"{province_name(pid)} is not unoccupied")
        raise IllegalChoice(f"{province_name(pid)} is not yours or already has an army")
    player = player_of(state, seat)
    prov = state.provinces[pid]
    if task.task in ("spear", "claim"):
        prov.garrison["spearman"] += 1
        player.tray["spearman"] -= 1
        if task.task == "claim":
            prov.owner = seat
            emit(state, "log", events, "info", f"{who(seat)} claims {province_name(pid)}.")
        else:
            emit(state, "log", events, "info", f"{who(seat)} adds a spearman in {province_name(pid)}.")
    else:
        army = next_undeployed(state, seat)
        assert army is not None
        army.location = pid
        emit(state, "log", events, "info",
             f"{who(seat)} deploys army {army.idx + 1} in {province_name(pid)}.")


def start_deploy(state: SamuraiState, events: list[Event]) -> None:
    """Each seat deploys its three armies, one at a time in turn order."""
    state.queue = [Task(seat=seat, task="deploy") for _ in range(3) for seat in state.order]
    state.phase = "deploy"

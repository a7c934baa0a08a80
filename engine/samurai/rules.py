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
    player,
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


def next_undeployed(st: SamuraiState, seat: int) -> Army | None:
    for a in player(st, seat).armies:
        if a.alive and a.location is None:
            return a
    return None


def task_targets(st: SamuraiState, t: Task) -> list[str]:
    if t.task == "spear":
        return spear_targets(st, t.seat)
    if t.task == "claim":
        return claim_targets(st, t.seat)
    if t.task == "deploy":
        return deploy_targets(st, t.seat) if next_undeployed(st, t.seat) else []
    if t.task == "build":
        return [pid for pid, _ in build_targets(st, t.seat)]
    if t.task == "sword":
        return ["x"]
    return []


def task_prompt(st: SamuraiState, t: Task) -> Prompt:
    seat = t.seat
    if t.task == "sword":
        taken = {player(st, s).sword for s in active(st) if player(st, s).sword}
        free = [n for n in range(1, len(active(st)) + 1) if n not in taken]
        bid = player(st, seat).plan.swords if player(st, seat).plan else 0
        options = [opt(f"sword:{n}", f"Sword {n}" + (" (acts first)" if n == 1 else ""),
                       {"act": "sword", "position": n}) for n in free]
        return Prompt(seat=seat, kind="sword", text=f"You bid {bid} koku: choose your sword (turn position).",
                      answer=Pick, options=options, default=options[0].choice)
    if t.task == "build":
        return build_prompt(st, seat, secret=False)
    pids = task_targets(st, t)
    if t.task == "spear":
        placed = st.provinces
        cands = [(pid, opt(f"spear:{pid}", f"{pname(pid)} ({placed[pid].garrison['spearman']} spearmen)",
                           {"act": "spear", "province": pid})) for pid in pids]
        text = "Setup: add one spearman to a province you own (at most 3 per province)."
    elif t.task == "claim":
        cands = [(pid, opt(f"claim:{pid}", pname(pid), {"act": "claim", "province": pid})) for pid in pids]
        text = "Setup: claim an unoccupied province with one spearman."
    else:
        army = next_undeployed(st, seat)
        n = army.idx + 1 if army else 0
        cands = [(pid, opt(f"deploy:{pid}", f"{pname(pid)} ({gsize(st.provinces[pid].garrison)} units)",
                           {"act": "deploy", "province": pid})) for pid in pids]
        text = f"Setup: deploy army {n} in a province you own without an army."
    options = paged(st, seat, cands, [])
    return Prompt(seat=seat, kind=t.task, text=text + region_hint(st, seat, options), answer=Pick, options=options,
                  default=cands[0][1].choice)


def do_task(st: SamuraiState, seat: int, t: Task, ans: Pick, ev: list[Event]) -> None:
    if t.task == "sword":
        taken = {player(st, s).sword for s in active(st) if player(st, s).sword}
        n = ans.position
        if ans.act != "sword" or n is None:
            raise IllegalChoice("choose a sword by its position")
        if not 1 <= n <= len(active(st)) or n in taken:
            raise IllegalChoice(f"sword {n} is not available")
        player(st, seat).sword = n
        emit(st, ev, f"{who(seat)} takes sword {n}.")
        return
    if t.task == "build":
        make_build(st, ev, seat, check_build(st, seat, ans))
        return
    if ans.act != t.task:
        raise IllegalChoice(f"this decision is a {t.task}, not {ans.act!r}")
    pid = check_province(ans.province)
    if pid not in task_targets(st, t):
        if t.task == "spear":
            raise IllegalChoice(f"{pname(pid)} is not yours or already holds 3 spearmen")
        if t.task == "claim":
            raise IllegalChoice(f"{pname(pid)} is not unoccupied")
        raise IllegalChoice(f"{pname(pid)} is not yours or already has an army")
    pl = player(st, seat)
    prov = st.provinces[pid]
    if t.task in ("spear", "claim"):
        prov.garrison["spearman"] += 1
        pl.tray["spearman"] -= 1
        if t.task == "claim":
            prov.owner = seat
            emit(st, ev, f"{who(seat)} claims {pname(pid)}.")
        else:
            emit(st, ev, f"{who(seat)} adds a spearman in {pname(pid)}.")
    else:
        army = next_undeployed(st, seat)
        assert army is not None
        army.location = pid
        emit(st, ev, f"{who(seat)} deploys army {army.idx + 1} in {pname(pid)}.")


# ---------------------------------------------------------------- secret prompts


def plan_prompt(st: SamuraiState, seat: int, revise: bool = False) -> Prompt:
    pl = player(st, seat)
    k = pl.koku
    fields = [NumberField(name="swords", label="Turn order (swords)", max=k),
              NumberField(name="build", label="Build (0 or 2)", max=min(2, k)),
              NumberField(name="levy", label="Levy units", max=k),
              NumberField(name="ronin", label="Hire ronin (2 per koku)", max=k),
              NumberField(name="ninja", label="Hire ninja", max=k)]
    answered = "plan" in pl.draft and not revise
    text = f"Plan: put all {k} koku into the five bins (build takes 0 or 2)."
    if revise:
        text = f"Your spy has reported. Revise your plan: all {k} koku into the five bins."
    default = pl.draft.get("plan") or {"swords": 0, "build": 0, "levy": k, "ronin": 0, "ninja": 0}
    return Prompt(seat=seat, kind="plan_revise" if revise else "plan", text=text, answer=PlanAnswer,
                  input="numbers", fields=fields, secret=not revise, answered=answered, default=default)


def check_plan(st: SamuraiState, seat: int, ans: PlanAnswer) -> dict[str, int]:
    k = player(st, seat).koku
    got = ans.model_dump()
    total = sum(got.values())
    if total != k:
        raise IllegalChoice(f"you must place all {k} koku; your bins hold {total}")
    if got["build"] not in (0, 2):
        raise IllegalChoice("the build bin holds exactly 0 or 2 koku")
    return got


# ---------------------------------------------------------------- movement


# ---------------------------------------------------------------- war: declarations, battles


# ---------------------------------------------------------------- the round


def start_round(st: SamuraiState, ev: list[Event], rng: random.Random) -> None:
    st.round += 1
    for pl in st.players:
        pl.plan = None
        pl.draft = {}
        pl.levied = no_units()
        pl.ronin_hired = 0
    emit(st, ev, f"Round {st.round} begins.", kind="round")
    if st.options.mode == "lwtv":
        draw_events(st, ev, rng)
    st.phase = "plan"


def hand_limit(st: SamuraiState, seat: int) -> int:
    n = sum(1 for a in player(st, seat).armies if a.alive)
    if st.options.mode == "lwtv" and st.provinces["yamashiro"].owner == seat:
        n += 1
    return n


def draw_events(st: SamuraiState, ev: list[Event], rng: random.Random) -> None:
    cards = C().cards
    for seat in active(st):
        if not st.deck:
            st.deck, st.discard = st.discard, []
            rng.shuffle(st.deck)
        if not st.deck:
            return
        cid = st.deck.pop(0)
        card = cards[cid]
        if card.kind == "objective":
            player(st, seat).hand.append(cid)
            emit(st, ev, f"{who(seat)} draws an event card and keeps it secret.")
            emit(st, ev, f"You draw {card.title}: {card.text}", seats=[seat], kind="card")
            if len(player(st, seat).hand) > hand_limit(st, seat):
                player(st, seat).draft["discard"] = True
        else:
            emit(st, ev, f"{who(seat)} draws {card.title}: {card.text}", kind="card")
            apply_event(st, ev, seat, card)
            st.discard.append(cid)


def apply_event(st: SamuraiState, ev: list[Event], seat: int, card: Any) -> None:
    pl = player(st, seat)
    lim = C().units.limits
    if card.effect == "koku":
        pl.koku = max(0, pl.koku + card.amount)
    elif card.effect == "spearmen":
        spots = sorted((gsize(st.provinces[p].garrison), C().order[p], p) for p in owned(st, seat)
                       if gsize(st.provinces[p].garrison) < lim.garrison)
        for _, _, pid in spots[:card.amount]:
            if pl.tray["spearman"] > 0:
                pl.tray["spearman"] -= 1
                st.provinces[pid].garrison["spearman"] += 1
    elif card.effect == "castle":
        spots = sorted((-regulars_in(st, p), C().order[p], p) for p in owned(st, seat) if not st.provinces[p].fort)
        if spots and st.castles > 0:
            st.castles -= 1
            st.provinces[spots[0][2]].fort = 1
            emit(st, ev, f"A castle rises in {pname(spots[0][2])}.")
    elif card.effect == "experience":
        alive = sorted((a.level, a.idx) for a in pl.armies if a.alive)
        if alive:
            a = pl.armies[alive[0][1]]
            a.level = min(lim.max_level, a.level + 1)
    elif card.effect in ("storm", "desertion"):
        for pid, prov in st.provinces.items():
            if prov.owner is None:
                continue
            hit = (card.effect == "storm" and C().region_of[pid] == card.region and gsize(prov.garrison) >= 2) or (
                card.effect == "desertion" and prov.owner == seat and gsize(prov.garrison) >= 4)
            if hit:
                for k in CHEAP_FIRST:
                    if prov.garrison[k]:
                        prov.garrison[k] -= 1
                        player(st, prov.owner).tray[k] += 1
                        break


def lock_plans(st: SamuraiState, ev: list[Event], rng: random.Random) -> None:
    """Every plan is in: reveal all bins together, the ninja of last round goes home, and
    the sword bidding starts."""
    for seat in active(st):
        pl = player(st, seat)
        pl.plan = Plan(**pl.draft["plan"])
        pl.draft = {}
        pl.koku = 0
    st.ninja = None
    st.ninja_fresh = False
    bins = {s: player(st, s).plan.model_dump() for s in active(st)}
    end_phase(ev, st, "Plans revealed: " + "; ".join(
        f"{who(s)} swords {b['swords']}, build {b['build']}, levy {b['levy']}, ronin {b['ronin']}, ninja {b['ninja']}"
        for s, b in bins.items()), kind="plans")
    ev[-1].data = {"plans": {str(s): b for s, b in bins.items()}}
    bidders = [s for s in active(st) if player(st, s).plan.swords > 0]
    ties = {s: rng.random() for s in bidders}
    bidders.sort(key=lambda s: (-player(st, s).plan.swords, ties[s]))
    st.sword_bidders = bidders
    for s in active(st):
        player(st, s).sword = None
    st.queue = [Task(seat=s, task="sword") for s in bidders] if st.options.steps == "classic" else []
    st.phase = "swords"


def finish_swords(st: SamuraiState, ev: list[Event], rng: random.Random) -> None:
    seats = active(st)
    taken = {player(st, s).sword for s in seats if player(st, s).sword}
    free = [n for n in range(1, len(seats) + 1) if n not in taken]
    rng.shuffle(free)
    for s in seats:
        if player(st, s).sword is None:
            player(st, s).sword = free.pop()
    st.order = sorted(seats, key=lambda s: player(st, s).sword) + [s for s in st.order if s not in seats]
    end_phase(ev, st, "Turn order: " + ", ".join(f"{who(s)} (sword {player(st, s).sword})" for s in active(st)),
              kind="turn_order")
    if st.options.steps == "combined" and not build_short(st):
        start_muster(st, ev, builds_inside=True)
        return
    st.queue = [Task(seat=s, task="build") for s in active(st) if player(st, s).plan.build == 2]
    st.phase = "build"


def begin_war_turn(st: SamuraiState) -> None:
    w = st.war
    assert w is not None
    if w.order_pos < len(st.order):
        seat = st.order[w.order_pos]
        for a in player(st, seat).armies:
            a.moves_left = a.level
            a.attacks_used = 0
            a.won = False
    w.sub = "A"
    w.sel = {}
    w.declarations = []
    w.battle = None
    w.chain_army = None
    w.d_moved = []
    w.d_garrisons = False


def end_round(st: SamuraiState, ev: list[Event], rng: random.Random) -> None:
    """Action 8 (ronin leave, assassinated daimyos replaced) and Action 9 (koku)."""
    st.war = None
    for prov in st.provinces.values():
        st.ronin_pool += prov.ronin
        prov.ronin = 0
        prov.ronin_revealed = False
    for pl in st.players:
        for a in pl.armies:
            st.ronin_pool += a.ronin
            a.ronin = 0
            a.ronin_revealed = False
            if a.alive and a.assassinated:
                if army_regulars(a) == 0:
                    destroy_army(st, ev, pl.seat, a, None)
                    continue
                a.assassinated = False
                a.level = 1
                emit(st, ev, f"A new daimyo takes command of {who(pl.seat)}'s army {a.idx + 1}.")
    if st.phase == "over":
        return
    for seat in active(st):
        player(st, seat).koku += income(st, seat)
    end_phase(ev, st, f"End of round {st.round}: ronin leave; koku collected: " + ", ".join(
        f"{who(s)} {player(st, s).koku}" for s in active(st)), kind="koku")
    if st.options.mode == "lwtv" and st.end_round is not None and st.round >= st.end_round:
        final_scores(st, ev, f"the last round ({st.round}) is over")
        return
    if st.options.round_limit is not None and st.round >= st.options.round_limit:
        final_scores(st, ev, f"the round limit ({st.round}) is reached")
        return
    start_round(st, ev, rng)


# ---------------------------------------------------------------- advancing the machine


def advance(st: SamuraiState, ev: list[Event], rng: random.Random) -> None:
    """Move on through every step that needs nobody's decision."""
    for _ in range(100000):
        while st.interrupts and st.interrupts[0].kind == "rebuild" and not deploy_targets(st, st.interrupts[0].seat):
            st.interrupts.pop(0)
        if st.phase == "over" or st.interrupts:
            return
        if not step_once(st, ev, rng):
            return
    raise RuntimeError("the Samurai phase machine does not settle")


def step_once(st: SamuraiState, ev: list[Event], rng: random.Random) -> bool:
    ph = st.phase
    if ph == "claims":
        if claims_sealed(st):
            resolve_claims(st, ev)
            return True
        return False
    if ph == "placement":
        if placement_sealed(st):
            resolve_placement(st, ev)
            finish_setup(st, ev, rng)
            return True
        return False
    if ph == "swords" and st.options.steps == "combined":
        if swords_sealed(st):
            serve_swords(st, ev)
            finish_swords(st, ev, rng)
            return True
        return False
    if ph == "muster":
        if muster_complete(st):
            finish_muster(st, ev)
            start_war(st)
            return True
        return False
    if ph in ("setup", "deploy", "swords", "build"):
        while st.queue and not task_targets(st, st.queue[0]):
            t = st.queue.pop(0)
            if t.task == "build":
                emit(st, ev, f"{who(t.seat)} cannot build anything: 2 koku are lost.")
        while st.queue and player(st, st.queue[0].seat).eliminated:
            st.queue.pop(0)
        if st.queue:
            return not task_targets(st, st.queue[0])
        if ph == "setup":
            if st.options.mode == "base":
                start_deploy(st, ev)
            else:
                end_phase(ev, st, "Setup: provinces claimed and spearmen placed.", kind="setup")
                st.phase = "screens"
        elif ph == "deploy":
            finish_setup(st, ev, rng)
        elif ph == "swords":
            finish_swords(st, ev, rng)
        else:
            end_phase(ev, st, "Build done.", kind="build")
            if st.options.steps == "combined":
                start_muster(st, ev, builds_inside=False)
            else:
                st.phase = "levy"
        return True
    if ph == "screens":
        if all("a2" in player(st, s).draft for s in active(st)):
            apply_screens(st)
            end_phase(ev, st, "Army screens are set (compositions stay hidden).", kind="setup")
            start_deploy(st, ev)
            return True
        return False
    if ph == "plan":
        if all("plan" in player(st, s).draft for s in active(st)):
            if st.ninja is not None and not player(st, st.ninja).eliminated:
                st.phase = "spy"
            else:
                lock_plans(st, ev, rng)
            return True
        return False
    if ph in ("spy", "spy_revise"):
        return False
    if ph == "levy":
        owing = [s for s in active(st) if player(st, s).plan.levy > 0]
        if all("levy" in player(st, s).draft for s in owing):
            for s in active(st):
                pl = player(st, s)
                got = pl.draft.get("levy") or no_units()
                pl.draft = {}
                if any(got.values()):
                    start_placing(st, s, got)
            st.phase = "place"
            return True
        return False
    if ph == "place":
        if all(not player(st, s).draft.get("todo") for s in active(st)):
            resolve_place(st, ev)
            hire_ronin(st, ev)
            st.phase = "ronin"
            return True
        return False
    if ph == "ronin":
        if all(player(st, s).draft.get("ronin_todo", 0) <= 0 for s in active(st)):
            resolve_ronin(st, ev)
            start_war(st)
            return True
        return False
    if ph == "war":
        return war_step(st, ev, rng)
    raise RuntimeError(f"unknown phase {ph}")


def finish_setup(st: SamuraiState, ev: list[Event], rng: random.Random) -> None:
    for seat in active(st):
        player(st, seat).koku = income(st, seat)
    end_phase(ev, st, "Setup complete: armies deployed, koku collected.", kind="setup")
    start_round(st, ev, rng)


def start_war(st: SamuraiState) -> None:
    st.phase = "war"
    st.war = War()
    begin_war_turn(st)


def start_deploy(st: SamuraiState, ev: list[Event]) -> None:
    st.queue = [Task(seat=s, task="deploy") for _ in range(3) for s in st.order]
    st.phase = "deploy"


def war_options_exist(st: SamuraiState, seat: int, sub: str) -> bool:
    pl = player(st, seat)
    if sub == "A":
        return any(army_moves(st, seat, a, False) or gather_count(st, a) for a in pl.armies)
    if sub == "B":
        return bool(declare_sources(st, seat))
    if sub == "D":
        w = st.war
        assert w is not None
        if not w.d_garrisons and any(army_moves(st, seat, a, True) for a in pl.armies):
            return True
        if any(gather_count(st, a) for a in pl.armies if a.alive):
            return True
        return bool(garrison_sources(st, seat))
    return False


def war_step(st: SamuraiState, ev: list[Event], rng: random.Random) -> bool:
    w = st.war
    assert w is not None
    if w.order_pos >= len(st.order):
        end_round(st, ev, rng)
        return True
    seat = st.order[w.order_pos]
    if player(st, seat).eliminated:
        w.order_pos += 1
        begin_war_turn(st)
        return True
    if w.sub == "A":
        if w.sel or war_options_exist(st, seat, "A"):
            return False
        w.sub = "B"
        return True
    if w.sub == "B":
        if w.sel or war_options_exist(st, seat, "B"):
            return False
        w.sub = "C"
        if w.declarations:
            emit(st, ev, f"{who(seat)} declares attacks on " + ", ".join(
                sorted({pname(d.target) for d in w.declarations})) + ".", kind="declare")
        return True
    if w.sub == "C":
        if w.battle is not None:
            return False
        if w.chain_army is not None:
            a = player(st, seat).armies[w.chain_army]
            if a.alive and not a.assassinated and a.location and attack_targets(st, seat, a.location) \
                    and a.attacks_used < a.level:
                return False
            w.chain_army = None
            return True
        targets = sorted({d.target for d in w.declarations})
        if not targets:
            for a in player(st, seat).armies:
                if a.alive and a.won:
                    a.level = min(C().units.limits.max_level, a.level + 1)
                    emit(st, ev, f"{who(seat)}'s daimyo of army {a.idx + 1} gains experience (level {a.level}).")
                a.won = False
                a.moves_left = a.level
            w.sub = "D"
            return True
        if len(targets) == 1:
            launch(st, ev, rng, seat, targets[0])
            return True
        return False
    if w.sub == "D":
        if w.sel or war_options_exist(st, seat, "D"):
            return False
        end_war_turn(st, ev)
        return True
    return False


def end_war_turn(st: SamuraiState, ev: list[Event]) -> None:
    w = st.war
    assert w is not None
    seat = st.order[w.order_pos]
    end_phase(ev, st, f"{who(seat)} ends the Wage War turn.", kind="war_turn")
    w.order_pos += 1
    begin_war_turn(st)


# ---------------------------------------------------------------- prompts


def prompts(st: SamuraiState, only: int | None = None) -> list[Prompt]:
    """Every decision owed now; with ``only``, just that seat's (submit builds no other
    seat's prompts: in the simultaneous steps that was most of a choice's cost)."""
    if only is not None:
        return [p for p in _prompts(st, lambda seat: seat == only) if p.seat == only]
    return _prompts(st, lambda seat: True)


def _prompts(st: SamuraiState, asked: Callable[[int], bool]) -> list[Prompt]:
    if st.phase == "over":
        return []
    if st.interrupts:
        return [interrupt_prompt(st, st.interrupts[0])]
    ph = st.phase
    if ph == "claims":
        return [claims_prompt(st, s) for s in active(st) if asked(s)]
    if ph == "placement":
        return [placement_prompt(st, s) for s in active(st) if asked(s)]
    if ph == "swords" and st.options.steps == "combined":
        return [sealed_sword_prompt(st, s) for s in st.sword_bidders if asked(s)]
    if ph == "muster":
        return [p for p in (muster_prompt(st, s) for s in active(st) if asked(s)) if p is not None]
    if ph in ("setup", "deploy", "swords", "build"):
        return [task_prompt(st, st.queue[0])] if st.queue else []
    if ph == "screens":
        return [screen_prompt(st, s) for s in active(st) if asked(s)]
    if ph == "plan":
        return [discard_prompt(st, s) if player(st, s).draft.get("discard") else plan_prompt(st, s)
                for s in active(st) if asked(s)]
    if ph == "spy":
        h = st.ninja
        assert h is not None
        opts = [opt(f"spy:{s}", f"Spy on Player {s + 1}'s plan", {"act": "spy", "seat": s})
                for s in active(st) if s != h]
        decline = opt("decline", "Do not spy (the ninja goes home)", {"act": "decline"})
        return [Prompt(seat=h, kind="spy", text="Your ninja may look at one player's plan, then you may revise yours.",
                       answer=Pick, options=opts + [decline], default=decline.choice)]
    if ph == "spy_revise":
        assert st.ninja is not None
        return [plan_prompt(st, st.ninja, revise=True)]
    if ph == "levy":
        return [levy_prompt(st, s) for s in active(st) if asked(s) and player(st, s).plan.levy > 0]
    if ph == "place":
        return [place_prompt(st, s) for s in active(st) if asked(s) and "todo" in player(st, s).draft]
    if ph == "ronin":
        return [ronin_prompt(st, s) for s in active(st) if asked(s) and "ronin_todo" in player(st, s).draft]
    if ph == "war":
        if st.war is not None and st.war.battle is not None and st.war.battle.pending is not None:
            return loss_prompts(st)
        offer = ninja_offer(st) if st.ninja is not None and asked(st.ninja) else None
        w = st.war
        turn_elsewhere = w is not None and w.order_pos < len(st.order) and not asked(st.order[w.order_pos])
        return [p for p in (offer, None if turn_elsewhere else war_prompt(st)) if p is not None]
    return []


def interrupt_prompt(st: SamuraiState, it: Interrupt) -> Prompt:
    seat = it.seat
    if it.kind == "ninja":
        return ninja_prompt(st, seat)
    if it.kind == "counter":
        return counter_prompt(st, seat, it.data["holder"])
    return rebuild_prompt(st, seat)


def discard_prompt(st: SamuraiState, seat: int) -> Prompt:
    """LWTV: a hand over the limit is cut first, as the seat's part of the Plan step (so the
    other players plan meanwhile instead of waiting for the discards one by one)."""
    cards = C().cards
    opts = [opt(f"discard:{cid}", f"Discard {cards[cid].title}", {"act": "discard", "card": cid})
            for cid in player(st, seat).hand]
    return Prompt(seat=seat, kind="discard", text=f"Your hand holds more than {hand_limit(st, seat)} event cards: "
                  "discard one, then make your plan.", answer=Pick, options=opts, default=opts[0].choice)


def discard_card(st: SamuraiState, ev: list[Event], seat: int, ans: Pick) -> None:
    if ans.act != "discard" or ans.card not in player(st, seat).hand:
        raise IllegalChoice("choose a card from your hand to discard")
    pl = player(st, seat)
    pl.hand.remove(ans.card)
    st.discard.append(ans.card)
    if len(pl.hand) <= hand_limit(st, seat):
        pl.draft.pop("discard", None)
    emit(st, ev, f"{who(seat)} discards an event card.")


def war_prompt(st: SamuraiState) -> Prompt | None:
    w = st.war
    assert w is not None
    if w.order_pos >= len(st.order):
        return None
    seat = st.order[w.order_pos]
    pl = player(st, seat)
    if w.sub == "C" and w.battle is not None:
        b = w.battle
        atk, dfd = battle_sides(st, b)
        opts = [opt("continue", "Fight another round", {"act": "continue"}),
                opt("fight_on", "Fight to the end without asking again", {"act": "fight_on"}),
                opt("calloff", "Call off the attack", {"act": "calloff"})]
        return Prompt(seat=seat, kind="battle", text=f"Battle for {pname(b.target)} after round {b.rounds}: "
                      f"your {side_size(atk)} units against {side_size(dfd)}. Go on?", answer=Pick,
                      options=opts, default=opts[0].choice)
    if w.sub == "C" and w.chain_army is not None:
        a = pl.armies[w.chain_army]
        assert a.location is not None
        opts = [opt(f"attack:{t}", target_label(st, seat, a.location, t), {"act": "attack", "target": t})
                for t in attack_targets(st, seat, a.location)]
        stop = opt("stop", "Stop attacking with this army", {"act": "stop"})
        return Prompt(seat=seat, kind="chain", text=f"Army {a.idx + 1} (level {a.level}) may attack again from "
                      f"{pname(a.location)} ({a.level - a.attacks_used} attacks left).", answer=Pick,
                      options=(opts[:MAX_OPTIONS - 1] + [stop]), default=stop.choice)
    if w.sub == "C":
        targets = sorted({d.target for d in w.declarations})
        opts = [opt(f"battle:{t}", f"Resolve the battle for {pname(t)}", {"act": "battle", "target": t})
                for t in targets]
        return Prompt(seat=seat, kind="war_order", text="Choose the next battle to resolve.", answer=Pick,
                      options=opts[:MAX_OPTIONS], default=opts[0].choice)
    cancel = opt("cancel", "Back", {"act": "cancel"})
    if "gather" in w.sel:
        return gather_prompt(st, seat, pl.armies[w.sel["gather"]])
    if w.sub == "D" and "to" in w.sel:
        src, dest = w.sel["garrison"], w.sel["to"]
        return force_prompt(st, seat, src, garrison_targets(st, seat, src)[dest], "garrison_move",
                            f"Move garrison units from {pname(src)} to {pname(dest)}: which go?")
    if w.sub == "B" and "target" in w.sel:
        src, tgt = w.sel["source"], w.sel["target"]
        return force_prompt(st, seat, src, garrison_attackers(st, src), "garrison_force",
                            f"The garrison of {pname(src)} attacks {pname(tgt)}: which units go?")
    if w.sub in ("A", "D") and "army" in w.sel:
        a = pl.armies[w.sel["army"]]
        dests = army_moves(st, seat, a, claim=w.sub == "D")
        cands = [(pid, opt(f"to:{pid}", f"{pname(pid)} ({d} step{'s' if d > 1 else ''})"
                           + (" - claim" if st.provinces[pid].owner is None else ""),
                           {"act": "to", "province": pid})) for pid, d in dests.items()]
        options = paged(st, seat, cands, [cancel])
        return Prompt(seat=seat, kind="move_to", text=f"Move army {a.idx + 1} from {pname(a.location)} "
                      f"({a.moves_left} moves left) to:", answer=Pick, options=options, default=cancel.choice)
    if w.sub == "D" and "garrison" in w.sel:
        src = w.sel["garrison"]
        cands = [(pid, opt(f"to:{pid}", f"To {pname(pid)} (up to {n} units)"
                           + (" - claim" if st.provinces[pid].owner is None else ""),
                           {"act": "to", "province": pid}))
                 for pid, n in garrison_targets(st, seat, src).items()]
        options = paged(st, seat, cands, [cancel])
        return Prompt(seat=seat, kind="garrison_to", text=f"Move units of the garrison of {pname(src)} "
                      "to an adjacent province you own or an unoccupied one:", answer=Pick, options=options,
                      default=cancel.choice)
    if w.sub == "B" and w.sel:
        src = w.sel["source"]
        cands = [(t, opt(f"attack:{t}", target_label(st, seat, src, t), {"act": "attack", "target": t}))
                 for t in attack_targets(st, seat, src)]
        options = paged(st, seat, cands, [cancel])
        force = f"army {w.sel['army'] + 1}" if w.sel.get("army") is not None else "the garrison"
        return Prompt(seat=seat, kind="declare_target", text=f"Declare an attack by {force} from {pname(src)}:",
                      answer=Pick, options=options, default=cancel.choice)
    done = opt("done", "Done with this phase", {"act": "done"})
    extras: list[Option] = []
    cands = []
    if w.sub == "A":
        for a in pl.armies:
            if army_moves(st, seat, a, False):
                extras.append(opt(f"move:{a.idx}", f"Move army {a.idx + 1} ({pname(a.location)}, "
                                  f"{a.moves_left} moves)", {"act": "move", "army": a.idx}))
            if gather_count(st, a):
                extras.append(opt(f"gather:{a.idx}", f"Army {a.idx + 1} takes garrison units in {pname(a.location)} "
                                  f"(up to {gather_count(st, a)})", {"act": "gather", "army": a.idx}))
        extras += own_turn_option(st, seat)
        return Prompt(seat=seat, kind="war_move", text="Wage War A: move your armies through your own provinces.",
                      answer=Pick, options=extras + [done], default=done.choice)
    if w.sub == "B":
        for src, force, idx in declare_sources(st, seat):
            if force == "army":
                extras.append(opt(f"army:{idx}", f"Attack with army {idx + 1} from {pname(src)}",
                                  {"act": "source", "province": src, "army": idx}))
            else:
                cands.append((src, opt(f"garrison:{src}", f"Attack with the garrison of {pname(src)} "
                                       f"({garrison_attackers(st, src)} units)", {"act": "source", "province": src})))
        declared = "; ".join(f"{pname(d.source)}→{pname(d.target)}" for d in w.declarations)
        options = paged(st, seat, cands, extras + own_turn_option(st, seat) + [done])
        return Prompt(seat=seat, kind="war_declare", text="Wage War B: declare attacks (one per army or garrison)."
                      + (f" Declared: {declared}." if declared else ""), answer=Pick, options=options,
                      default=done.choice)
    for a in pl.armies:
        if not w.d_garrisons and army_moves(st, seat, a, True):
            extras.append(opt(f"move:{a.idx}", f"Move army {a.idx + 1} ({pname(a.location)}, {a.moves_left} moves)",
                              {"act": "move", "army": a.idx}))
        if a.alive and gather_count(st, a):
            extras.append(opt(f"gather:{a.idx}", f"Army {a.idx + 1} takes garrison units in {pname(a.location)} "
                              f"(up to {gather_count(st, a)})", {"act": "gather", "army": a.idx}))
    extras += own_turn_option(st, seat)
    for pid in garrison_sources(st, seat):
        cands.append((pid, opt(f"garrison:{pid}", f"Move the garrison of {pname(pid)}",
                               {"act": "garrison", "province": pid})))
    options = paged(st, seat, cands, extras + [done])
    return Prompt(seat=seat, kind="war_final", text="Wage War D: move armies first, then garrisons one step; "
                  "you may claim unoccupied provinces.", answer=Pick, options=options, default=done.choice)


# ---------------------------------------------------------------- submit


def fresh_copy(st: SamuraiState) -> SamuraiState:
    """A deep copy for the next state: submit copies on every choice, and `clone` is about
    1.7 times as fast as rebuilding from plain data (six times as pydantic's deep copy)."""
    return clone(st)


def submit(st0: SamuraiState, seat: int, choice: dict[str, Any]) -> Step:
    if st0.phase == "over":
        raise IllegalChoice("the game is over")
    mine = prompts(st0, only=seat)
    if not mine:
        raise IllegalChoice("it is not your turn: nothing is asked of you now")
    pr = mine[0]
    ans = parse_choice(pr.answer, choice)
    st = fresh_copy(st0)
    rng = rng_for(st.seed, st.step)
    ev: list[Event] = []
    if isinstance(ans, Pick) and ans.act == "region":
        region = ans.region or ""
        if region and region not in C().map.regions:
            raise IllegalChoice(f"there is no region called {region!r}")
        st.nav[str(seat)] = region
    else:
        handle(st, seat, pr, ans, ev, rng)
        st.nav.pop(str(seat), None)
        advance(st, ev, rng)
    st.step += 1
    return Step(state=st, events=ev)


def handle(st: SamuraiState, seat: int, pr: Prompt, ans: Any, ev: list[Event], rng: random.Random) -> None:
    k = pr.kind
    if st.interrupts and st.interrupts[0].seat == seat:
        handle_interrupt(st, seat, st.interrupts[0], ans, ev, rng)
        return
    if st.phase == "claims":
        do_claim_wish(st, seat, ans)
        return
    if st.phase == "placement":
        do_placement(st, seat, ans)
        return
    if st.phase == "muster":
        do_muster(st, seat, ans)
        return
    if st.phase == "swords" and st.options.steps == "combined":
        want_sword(st, seat, ans)
        return
    if k in ("spear", "claim", "deploy", "sword", "build"):
        t = st.queue[0]
        do_task(st, seat, t, ans, ev)
        st.queue.pop(0)
        return
    if k == "army_screen":
        do_screen(st, seat, ans)
        return
    if k == "discard":
        discard_card(st, ev, seat, ans)
        return
    if k == "plan":
        player(st, seat).draft["plan"] = check_plan(st, seat, ans)
        return
    if k == "spy":
        if ans.act == "decline":
            emit(st, ev, f"{who(seat)}'s ninja goes home unused.")
            lock_plans(st, ev, rng)
            return
        if ans.act != "spy" or ans.seat is None or ans.seat not in active(st) or ans.seat == seat:
            raise IllegalChoice("choose another player to spy on, or decline")
        target = player(st, ans.seat).draft["plan"]
        emit(st, ev, f"{who(seat)}'s ninja spies on {who(ans.seat)}'s plan.")
        emit(st, ev, f"{seat_ref(ans.seat)}'s plan: " + ", ".join(f"{b} {n}" for b, n in target.items()),
             seats=[seat], kind="spy", data={"seat": ans.seat, "plan": target})
        st.phase = "spy_revise"
        return
    if k == "plan_revise":
        player(st, seat).draft["plan"] = check_plan(st, seat, ans)
        lock_plans(st, ev, rng)
        return
    if k == "levy":
        player(st, seat).draft["levy"] = check_levy(st, seat, ans)
        return
    if k == "place":
        do_place(st, seat, ans)
        return
    if k == "ronin":
        do_ronin(st, seat, ans)
        return
    if k == "casualties":
        choose_losses(st, ev, seat, ans, rng)
        return
    if k == "ninja":
        send_ninja(st, ev, seat, ans, rng, from_offer=True)
        return
    if k in ("garrison_force", "garrison_move", "gather"):
        choose_units(st, ev, seat, k, ans)
        return
    handle_war(st, seat, k, ans, ev, rng)


def handle_interrupt(st: SamuraiState, seat: int, it: Interrupt, ans: Pick, ev: list[Event],
                     rng: random.Random) -> None:
    if it.kind == "ninja":
        send_ninja(st, ev, seat, ans, rng, from_offer=False)
        return
    if it.kind == "counter":
        strike_back(st, ev, seat, it.data["holder"], ans, rng)
        return
    rebuild(st, ev, seat, ans)


def handle_war(st: SamuraiState, seat: int, k: str, ans: Pick, ev: list[Event], rng: random.Random) -> None:
    w = st.war
    assert w is not None
    pl = player(st, seat)
    act = ans.act
    if act == "cancel" and w.sel:
        w.sel = {}
        return
    if k == "battle":
        if act == "calloff":
            b = w.battle
            assert b is not None
            finish_battle(st, ev, "calloff")
            return
        if act not in ("continue", "fight_on"):
            raise IllegalChoice("continue the battle or call it off")
        assert w.battle is not None
        w.battle.fight_on = act == "fight_on"
        w.battle.stage = "ranged"
        run_rounds(st, ev, rng)
        return
    if k == "chain":
        if act == "stop":
            w.chain_army = None
            return
        a = pl.armies[w.chain_army]
        tgt = check_province(ans.target)
        if act != "attack" or tgt not in attack_targets(st, seat, a.location):
            raise IllegalChoice(f"{pname(tgt)} is not adjacent to {pname(a.location)} or cannot be attacked")
        w.chain_army = None
        start_battle(st, ev, rng, seat, tgt, [Declaration(source=a.location, force="army", army=a.idx, target=tgt)],
                     chained=True)
        return
    if k == "war_order":
        tgt = check_province(ans.target)
        if act != "battle" or tgt not in {d.target for d in w.declarations}:
            raise IllegalChoice(f"no declared attack on {pname(tgt)}")
        launch(st, ev, rng, seat, tgt)
        return
    if k == "move_to":
        a = pl.armies[w.sel["army"]]
        pid = check_province(ans.province)
        dests = army_moves(st, seat, a, claim=w.sub == "D")
        if act != "to" or pid not in dests:
            raise IllegalChoice(f"army {a.idx + 1} cannot reach {pname(pid)} from {pname(a.location)} "
                                f"through your own provinces in {a.moves_left} moves")
        move_army(st, seat, a, pid, dests[pid], ev)
        w.sel = {}
        check_win(st, ev)
        return
    if k == "garrison_to":
        src = w.sel["garrison"]
        pid = check_province(ans.province)
        targets = garrison_targets(st, seat, src)
        if act != "to" or pid not in targets:
            raise IllegalChoice(f"{pname(pid)} is not adjacent to {pname(src)}, or is not yours or empty, or is full")
        if ans.count is None and force_has_choice(st, src, targets[pid]):
            w.sel["to"] = pid
            return
        n = ans.count or targets[pid]
        if n > targets[pid]:
            raise IllegalChoice(f"at most {targets[pid]} units can move from {pname(src)} to {pname(pid)}")
        move_garrison(st, ev, seat, src, pid, default_force(st, src, n))
        return
    if k == "declare_target":
        src = w.sel["source"]
        tgt = check_province(ans.target)
        if act != "attack" or tgt not in attack_targets(st, seat, src):
            if tgt not in C().adj[src]:
                raise IllegalChoice(f"{pname(tgt)} is not adjacent to {pname(src)}")
            if st.round == 1 and army_at(st, tgt):
                raise IllegalChoice(f"no attack may be declared on {pname(tgt)}: it holds an army and this is the first round")
            raise IllegalChoice(f"{pname(tgt)} is your own province")
        force = "army" if w.sel.get("army") is not None else "garrison"
        if force == "garrison" and ans.count is None and force_has_choice(st, src, garrison_attackers(st, src)):
            w.sel["target"] = tgt
            return
        count = None
        if force == "garrison" and ans.count is not None:
            most = garrison_attackers(st, src)
            if ans.count > most:
                raise IllegalChoice(f"at most {most} units of the garrison of {pname(src)} can attack "
                                    "(one must stay unless an army holds the province)")
            count = ans.count
        w.declarations.append(Declaration(source=src, force=force, army=w.sel.get("army"), target=tgt, count=count))
        w.sel = {}
        return
    # the phase menus
    if act == "done":
        if w.sub == "A":
            w.sub = "B"
        elif w.sub == "B":
            w.sub = "C"
            if w.declarations:
                emit(st, ev, f"{who(seat)} declares attacks on " + ", ".join(
                    sorted({pname(d.target) for d in w.declarations})) + ".", kind="declare")
        elif w.sub == "D":
            end_war_turn(st, ev)
        return
    if k in ("war_move", "war_final") and act in ("move", "gather"):
        if ans.army is None or not 0 <= ans.army < len(pl.armies) or not pl.armies[ans.army].alive:
            raise IllegalChoice("choose one of your living armies")
        a = pl.armies[ans.army]
        if act == "gather":
            if not gather_count(st, a):
                raise IllegalChoice(f"army {a.idx + 1} has no garrison units to take, or no room")
            if gather_count(st, a) > 1:
                w.sel = {"gather": a.idx}
            else:
                gather(st, seat, a, ev)
            return
        if a.assassinated:
            raise IllegalChoice(f"army {a.idx + 1}'s daimyo was assassinated: it cannot move")
        if k == "war_final" and w.d_garrisons:
            raise IllegalChoice("armies move before garrisons in phase D")
        if not army_moves(st, seat, a, claim=k == "war_final"):
            raise IllegalChoice(f"army {a.idx + 1} has nowhere to move")
        w.sel = {"army": a.idx}
        return
    if k in ("war_move", "war_declare", "war_final") and act == "ninja":
        if not own_turn_option(st, seat):
            raise IllegalChoice("you have no ninja that can strike now")
        st.interrupts.insert(0, Interrupt(seat=seat, kind="ninja"))
        return
    if k == "war_final" and act == "garrison":
        pid = check_province(ans.province)
        if pid not in garrison_sources(st, seat):
            raise IllegalChoice(f"the garrison of {pname(pid)} cannot move now")
        w.sel = {"garrison": pid}
        return
    if k == "war_declare" and act == "source":
        pid = check_province(ans.province)
        srcs = declare_sources(st, seat)
        force = "army" if ans.army is not None else "garrison"
        if (pid, force, ans.army) not in srcs:
            raise IllegalChoice(f"no {force} of yours in {pname(pid)} can declare an attack")
        w.sel = {"source": pid, "army": ans.army}
        return
    raise IllegalChoice(f"{act!r} is not a choice here")

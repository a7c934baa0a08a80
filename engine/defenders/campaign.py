"""The Dark War campaign between battles: Rebuild, Regroup and Reconcile (R), and the Rebuild
prompt where the players spend XP, level up and trade Artifacts before the next battle.

Split from rules.py (the battle flow) and actions.py (the battle's decisions); both modules'
helpers are used here, never the other way round (the Rebuild reset after a won battle is
rules.rebuild).
"""

from __future__ import annotations

from typing import Any

from engine.contract import Option, Prompt
from engine.defenders import rules, trade
from engine.defenders.content import content
from engine.defenders.names import region_name, who
from engine.defenders.prompting import Answer, dname, fit
from engine.defenders.rounds import start_battle
from engine.defenders.rules import Flow
from engine.defenders.state import Boss, DefendersState
from engine.kit.prompting import opt
from engine.text import seat_ref


def regroup_and_reconcile(f: Flow) -> None:
    state = f.state
    c = content()
    # Regroup: the 9 Enemies are dealt again; the Dire Enemies of the last Turn Deck return to the
    # Horde with one new one from the leftovers.
    enemies = [e.key for e in c.enemies]
    f.rng.shuffle(enemies)
    dire = [card[2:] for card in state.turn_deck + state.discard + state.horde if card.startswith("x:")]
    if state.leftover_dire:
        dire.append(state.leftover_dire.pop(f.rng.randrange(len(state.leftover_dire))))
        f.emit("log", f"Regroup: the Horde gathers {len(dire)} Dire Enemies, one of them new.")
    se, he = state.options.start_enemies, min(state.options.horde_enemies, 9 - state.options.start_enemies)
    state.horde = [f"e:{enemy}" for enemy in enemies[se:se + he]] + [f"x:{foe}" for foe in dire]
    f.rng.shuffle(state.horde)
    state.leftover_enemies = enemies[se + he:]
    state.turn_deck = [f"e:{enemy}" for enemy in enemies[:se]] + player_cards(state)
    state.discard = []
    state.soldiers = 5
    # Reconcile: the hostile region turns friendly; a new hostile one comes.
    if state.war_hostile is not None:
        state.regions[state.war_hostile].side = "friendly"
        state.war_friendly.append(state.war_hostile)
        f.emit("log", f"Reconcile: {region_name(state, state.war_hostile)} now fights for the realm.")
    state.war_hostile = None
    if state.war_unused:
        key = state.war_unused.pop(f.rng.randrange(len(state.war_unused)))
        state.war_hostile = key
        state.regions[key].war = True
        state.regions[key].side = "hostile"
        f.emit("log", f"Reconcile: {region_name(state, key)} turns hostile.")
    reset_war_components(state)
    state.battle += 1
    key = state.bosses_ahead.pop(0)
    boss = c.boss(key)
    kind = "general" if key in {general.key for general in c.generals} else "epic"
    hp = state.options.general_hp if kind == "general" else state.options.epic_hp
    state.boss = Boss(key=boss.key, kind=kind, hp=hp, max_hp=hp, region=boss.region)
    start_battle(f)


def reset_war_components(state: DefendersState) -> None:
    state.fleet_dice = state.storms = 3
    state.tree = None
    state.manticore = "mountains"
    state.soldiers = 5
    state.death_tokens = 6


def player_cards(state: DefendersState) -> list[str]:
    """U8: one Defender card per Defender, All Defenders cards up to four player cards."""
    n = len(state.defenders)
    return [f"d:{d.idx}" for d in state.defenders] + ["all"] * max(0, 4 - n)


# ---------------------------------------------------------------------------- the Rebuild prompt


def rebuild_options(state: DefendersState, seat: int) -> list[Option]:
    """What the seat may still do between battles, "ready" aside: the answer to a trade offered
    to it first, then its own XP choices, then the trades it may make (cut first when crowded)."""
    options = []
    for d in state.of_seat(seat):
        if state.capital_threat > 0 and d.xp >= 2:
            options.append(opt(f"cap:{d.idx}", f"{dname(d)}: spend 2 XP, Capital Threat -1",
                               {"act": "cap", "d": d.idx}))
        if d.xp >= rules.XP_MAX:
            options.append(opt(f"level:{d.idx}", f"{dname(d)}: Level up (8 XP)", {"act": "level", "d": d.idx}))
    trades = trade.trade_options(state, seat)
    return trades + options if state.trade_offer is not None else options + trades


def waiting_seats(state: DefendersState) -> list[int]:
    """Seats asked between battles: not ready, and with something to do besides being ready
    (a seat that could only say it is ready is not asked)."""
    return [s for s in range(state.seats) if s not in state.ready and rebuild_options(state, s)]


def rebuild_prompts(state: DefendersState) -> list[Prompt]:
    out = []
    for seat in waiting_seats(state):
        ready = opt("ready", "Ready for the next battle", {"act": "ready"})
        text = (f"Between battles: the Capital City holds {state.capital_threat} Threat (it falls at "
                f"{state.options.destruction}). Spend XP, level up and trade artifacts, then say you are ready.")
        if state.trade_offer is not None and state.defenders[state.trade_offer["to"]].seat == seat:
            text += " A trade is offered to you."
        out.append(Prompt(seat=seat, kind="rebuild", text=text, answer=Answer,
                          options=fit(rebuild_options(state, seat), [ready]), shared=state.seats > 1,
                          default={"act": "ready"}))
    return out


def rebuild_choice(f: Flow, seat: int, ch: dict[str, Any]) -> None:
    state = f.state
    act = ch["act"]
    if act == "ready":
        state.ready.append(seat)
        f.emit("log", f"Ready for the next battle: {seat_ref(seat)}.")
        trade.drop_offer_of(f, seat)
    elif act in ("trade", "accept", "refuse", "withdraw"):
        trade.trade_choice(f, seat, ch)
    elif act == "cap":
        d = state.defenders[ch["d"]]
        d.xp -= 2
        state.capital_threat -= 1
        f.emit("log", f"{who(d)} spends 2 XP to rebuild the Capital: Threat {state.capital_threat}.")
    elif act == "level":
        rules.level_up(f, state.defenders[ch["d"]])


def end_rebuild_when_settled(f: Flow) -> bool:
    """Nobody is left with a Rebuild decision: Regroup and Reconcile, the next battle begins."""
    if f.state.phase != "rebuild" or waiting_seats(f.state):
        return False
    regroup_and_reconcile(f)
    return True

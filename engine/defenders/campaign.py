"""The Dark War campaign between battles: Rebuild, Regroup and Reconcile (R), and the Rebuild
prompt where the players spend XP, level up and trade Artifacts before the next battle.

Split from rules.py (the battle flow) and actions.py (the battle's decisions); both modules'
helpers are used here, never the other way round (rules.boss_defeated imports `rebuild` lazily).
"""

from __future__ import annotations

from typing import Any

from engine.contract import Option, Prompt
from engine.defenders import rules, trade
from engine.defenders.board import CAPITAL
from engine.defenders.content import TERRAINS, content
from engine.defenders.names import region_name, who
from engine.defenders.prompting import Answer, dname, fit
from engine.defenders.rules import Flow, heal, start_battle
from engine.defenders.state import Boss, DefendersState
from engine.kit.prompting import opt
from engine.text import seat_ref


def rebuild(f: Flow) -> None:
    """After a won battle (R: Rebuild, Regroup, Reconcile). The automatic parts happen now;
    spending XP on the Capital, levelling up and trading artifacts are the players' choices."""
    st = f.state
    st.phase = "rebuild"
    st.ready = []
    st.trade_offer = None
    st.active = None
    st.attacks = []
    st.current = None
    for d in st.defenders:
        d.death_tokens = 0
        d.shield = d.in_tree = d.riding = False
        d.used = []
        d.region = CAPITAL  # every battle is set up with the Defenders in the Capital (A3)
        heal(d)
    for r in st.regions.values():
        r.threat = 0
        r.destroyed = False
        r.caravans = 0
        r.wards = 0
        r.storm = r.fleet_die = False
    st.caravan_pile = list(TERRAINS)
    f.rng.shuffle(st.caravan_pile)
    st.capital_caravans = 0
    st.hexed = False
    f.say(f"Rebuild: the realm is restored and every Defender heals. The Capital City keeps its "
          f"{st.capital_threat} Threat; each 2 XP spent removes 1.", kind="rebuild", phase_end=True)


def regroup_and_reconcile(f: Flow) -> None:
    st = f.state
    c = content()
    # Regroup: the 9 Enemies are dealt again; the Dire Enemies of the last Turn Deck return to the
    # Horde with one new one from the leftovers.
    enemies = [e.key for e in c.enemies]
    f.rng.shuffle(enemies)
    dire = [x[2:] for x in st.turn_deck + st.discard + st.horde if x.startswith("x:")]
    if st.leftover_dire:
        dire.append(st.leftover_dire.pop(f.rng.randrange(len(st.leftover_dire))))
        f.say(f"Regroup: the Horde gathers {len(dire)} Dire Enemies, one of them new.")
    se, he = st.options.start_enemies, min(st.options.horde_enemies, 9 - st.options.start_enemies)
    st.horde = [f"e:{k}" for k in enemies[se:se + he]] + [f"x:{k}" for k in dire]
    f.rng.shuffle(st.horde)
    st.leftover_enemies = enemies[se + he:]
    st.turn_deck = [f"e:{k}" for k in enemies[:se]] + player_cards(st)
    st.discard = []
    st.soldiers = 5
    # Reconcile: the hostile region turns friendly; a new hostile one comes.
    if st.war_hostile is not None:
        st.regions[st.war_hostile].side = "friendly"
        st.war_friendly.append(st.war_hostile)
        f.say(f"Reconcile: {region_name(st, st.war_hostile)} now fights for the realm.")
    st.war_hostile = None
    if st.war_unused:
        key = st.war_unused.pop(f.rng.randrange(len(st.war_unused)))
        st.war_hostile = key
        st.regions[key].war = True
        st.regions[key].side = "hostile"
        f.say(f"Reconcile: {region_name(st, key)} turns hostile.")
    reset_war_components(st)
    st.battle += 1
    key = st.bosses_ahead.pop(0)
    boss = c.boss(key)
    kind = "general" if key in {g.key for g in c.generals} else "epic"
    hp = st.options.general_hp if kind == "general" else st.options.epic_hp
    st.boss = Boss(key=boss.key, kind=kind, hp=hp, max_hp=hp, region=boss.region)
    start_battle(f)


def reset_war_components(st: DefendersState) -> None:
    st.fleet_dice = st.storms = 3
    st.tree = None
    st.manticore = "mountains"
    st.soldiers = 5
    st.death_tokens = 6


def player_cards(st: DefendersState) -> list[str]:
    """U8: one Defender card per Defender, All Defenders cards up to four player cards."""
    n = len(st.defenders)
    return [f"d:{d.idx}" for d in st.defenders] + ["all"] * max(0, 4 - n)


# ---------------------------------------------------------------------------- the Rebuild prompt


def rebuild_options(st: DefendersState, seat: int) -> list[Option]:
    """What the seat may still do between battles, "ready" aside: the answer to a trade offered
    to it first, then its own XP choices, then the trades it may make (cut first when crowded)."""
    options = []
    for d in st.of_seat(seat):
        if st.capital_threat > 0 and d.xp >= 2:
            options.append(opt(f"cap:{d.idx}", f"{dname(d)}: spend 2 XP, Capital Threat -1",
                               {"act": "cap", "d": d.idx}))
        if d.xp >= rules.XP_MAX:
            options.append(opt(f"level:{d.idx}", f"{dname(d)}: Level up (8 XP)", {"act": "level", "d": d.idx}))
    trades = trade.trade_options(st, seat)
    return trades + options if st.trade_offer is not None else options + trades


def waiting_seats(st: DefendersState) -> list[int]:
    """Seats asked between battles: not ready, and with something to do besides being ready
    (a seat that could only say it is ready is not asked)."""
    return [s for s in range(st.seats) if s not in st.ready and rebuild_options(st, s)]


def rebuild_prompts(st: DefendersState) -> list[Prompt]:
    out = []
    for seat in waiting_seats(st):
        ready = opt("ready", "Ready for the next battle", {"act": "ready"})
        text = (f"Between battles: the Capital City holds {st.capital_threat} Threat (it falls at "
                f"{st.options.destruction}). Spend XP, level up and trade artifacts, then say you are ready.")
        if st.trade_offer is not None and st.defenders[st.trade_offer["to"]].seat == seat:
            text += " A trade is offered to you."
        out.append(Prompt(seat=seat, kind="rebuild", text=text, answer=Answer,
                          options=fit(rebuild_options(st, seat), [ready]), shared=st.seats > 1,
                          default={"act": "ready"}))
    return out


def rebuild_choice(f: Flow, seat: int, ch: dict[str, Any]) -> None:
    st = f.state
    act = ch["act"]
    if act == "ready":
        st.ready.append(seat)
        f.say(f"Ready for the next battle: {seat_ref(seat)}.")
        trade.drop_offer_of(f, seat)
    elif act in ("trade", "accept", "refuse", "withdraw"):
        trade.trade_choice(f, seat, ch)
    elif act == "cap":
        d = st.defenders[ch["d"]]
        d.xp -= 2
        st.capital_threat -= 1
        f.say(f"{who(d)} spends 2 XP to rebuild the Capital: Threat {st.capital_threat}.")
    elif act == "level":
        rules.level_up(f, st.defenders[ch["d"]])


def end_rebuild_when_settled(f: Flow) -> bool:
    """Nobody is left with a Rebuild decision: Regroup and Reconcile, the next battle begins."""
    if f.state.phase != "rebuild" or waiting_seats(f.state):
        return False
    regroup_and_reconcile(f)
    return True

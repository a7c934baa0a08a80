"""The ninja's assassinations and the target's counter-strike.

The player aid lets the ninja strike during any player's Wage War, in Phase A, B or D. So
the holder has a standing offer through those phases of every other player's turn: an
optional prompt the game never waits for, open at every moment of them (also while that
player is half-way through a move or a declaration), never during Phase C's combat. In his
own turn the holder finds the ninja in his phase menus instead (one prompt per seat at a
time). Passing closes the offer until the next player's Wage War turn.
"""

from __future__ import annotations

import random

from engine.contract import Event, IllegalChoice, Prompt
from engine.kit.events import emit
from engine.kit.prompting import opt
from engine.samurai.answers import Pick
from engine.samurai.board import (
    MAX_OPTIONS,
    active,
    army_province,
    army_regulars,
    player_of,
    province_name,
    who,
)
from engine.samurai.elimination import destroy_army
from engine.samurai.state import Army, Interrupt, SamuraiState

ASSASSIN_HIT = 8
"""An assassination succeeds on this or less (d12)."""
COUNTER_HIT = 9
"""The target's counter-strike after a failure succeeds on this or more."""
STRIKE_PHASES = ("A", "B", "D")


def ninja_targets(state: SamuraiState, holder: int) -> list[tuple[int, Army]]:
    return [(seat, army) for seat in active(state) if seat != holder for army in player_of(state, seat).armies
            if army.alive and not army.assassinated and army.location]


def ninja_usable(state: SamuraiState) -> bool:
    holder = state.ninja
    return holder is not None and not player_of(state, holder).eliminated and bool(ninja_targets(state, holder))


def strike_moment(state: SamuraiState) -> bool:
    """Whether this is a moment the ninja may strike: Phase A, B or D of a Wage War turn, no
    battle under way and no other decision interrupting."""
    war = state.war
    return (state.phase == "war" and war is not None and war.order_pos < len(state.order)
            and war.sub in STRIKE_PHASES and war.battle is None and not state.interrupts and ninja_usable(state))


def target_options(state: SamuraiState, holder: int) -> list:
    return [opt(f"kill:{seat}:{army.idx}", f"Assassinate {who(seat)}'s daimyo of army {army.idx + 1} "
                f"({province_name(army_province(army))})", {"act": "assassinate", "seat": seat, "army": army.idx})
            for seat, army in ninja_targets(state, holder)]


def offer_open(state: SamuraiState) -> bool:
    """Whether the ninja's holder has a standing offer now (another player's Phase A, B or D,
    not passed on in this turn)."""
    war = state.war
    holder = state.ninja
    if holder is None or not strike_moment(state):
        return False
    assert war is not None
    return state.order[war.order_pos] != holder and war.ninja_passed != war.order_pos


def ninja_offer(state: SamuraiState) -> Prompt | None:
    """The holder's optional standing offer during another player's Phase A, B or D."""
    holder = state.ninja
    if holder is None or not offer_open(state):
        return None
    keep = opt("pass", "Not in this player's turn", {"act": "pass"})
    return Prompt(seat=holder, kind="ninja", text="Your ninja may strike at any moment of another player's Wage War "
                  "Phases A, B and D: 8 or less kills; on a miss the target may strike back at one of your "
                  "daimyos (9 or more). The game does not wait for you.", answer=Pick,
                  options=([keep] + target_options(state, holder))[:MAX_OPTIONS], optional=True, default=keep.choice)


def own_turn_option(state: SamuraiState, seat: int) -> list:
    """The holder's own phase menus offer the ninja at every moment of Phases A, B and D."""
    if state.ninja != seat or not strike_moment(state):
        return []
    return [opt("ninja", "Send your ninja to assassinate a daimyo", {"act": "ninja"})]


def ninja_prompt(state: SamuraiState, seat: int) -> Prompt:
    """The holder sent the ninja from his own turn's menu: pick the daimyo, or keep it."""
    keep = opt("pass", "Keep the ninja for later", {"act": "pass"})
    return Prompt(seat=seat, kind="ninja", text="Your ninja strikes: choose a daimyo (8 or less kills; on a miss "
                  "the target may strike back at one of yours on 9 or more).", answer=Pick,
                  options=([keep] + target_options(state, seat))[:MAX_OPTIONS], default=keep.choice)


def counter_prompt(state: SamuraiState, seat: int, holder: int) -> Prompt:
    options = [opt(f"counter:{army.idx}", f"Strike back at {who(holder)}'s daimyo of army {army.idx + 1}",
                   {"act": "counter", "army": army.idx})
               for army in player_of(state, holder).armies if army.alive and not army.assassinated]
    return Prompt(seat=seat, kind="counter", text="The ninja failed. Choose a daimyo of the ninja's master to strike "
                  "back at (succeeds on 9 or more).", answer=Pick, options=options, default=options[0].choice)


def send_ninja(state: SamuraiState, events: list[Event], seat: int, answer: Pick, rng: random.Random,
               from_offer: bool) -> None:
    """The holder's answer: pass, or strike. A miss gives the target's owner a counter-strike."""
    war = state.war
    if answer.act == "pass":
        if from_offer:
            assert war is not None
            war.ninja_passed = war.order_pos
        else:
            state.interrupts.pop(0)
        return
    if answer.act != "assassinate" or answer.seat is None or answer.army is None:
        raise IllegalChoice("choose a daimyo to assassinate, or pass")
    if (answer.seat, answer.army) not in {(owner, army.idx) for owner, army in ninja_targets(state, seat)}:
        raise IllegalChoice("that daimyo cannot be assassinated (not an opponent's living, active daimyo)")
    if not from_offer:
        state.interrupts.pop(0)
    state.ninja = None
    state.ninja_fresh = False
    roll = rng.randint(1, 12)
    target = player_of(state, answer.seat).armies[answer.army]
    if roll <= ASSASSIN_HIT:
        emit(state, "log", events, "ninja",
             f"{who(seat)}'s ninja assassinates {who(answer.seat)}'s daimyo of army "
             f"{answer.army + 1} (rolled {roll}).", data={"roll": roll, "success": True})
        assassinate(state, events, answer.seat, target, seat)
        return
    emit(state, "log", events, "ninja",
         f"{who(seat)}'s ninja fails against {who(answer.seat)}'s daimyo (rolled {roll}).",
         data={"roll": roll, "success": False})
    if any(army.alive and not army.assassinated for army in player_of(state, seat).armies):
        state.interrupts.insert(0, Interrupt(seat=answer.seat, kind="counter", data={"holder": seat}))


def strike_back(state: SamuraiState, events: list[Event], seat: int, holder: int, answer: Pick,
                rng: random.Random) -> None:
    if answer.act != "counter" or answer.army is None:
        raise IllegalChoice("choose one of the ninja master's daimyos")
    armies = player_of(state, holder).armies
    if not 0 <= answer.army < len(armies) or not armies[answer.army].alive or armies[answer.army].assassinated:
        raise IllegalChoice("that daimyo cannot be targeted")
    state.interrupts.pop(0)
    roll = rng.randint(1, 12)
    success = roll >= COUNTER_HIT
    emit(state, "log", events, "ninja",
         f"{who(seat)} strikes back at {who(holder)}'s daimyo of army {answer.army + 1}: rolled "
         f"{roll}, " + ("assassinated." if success else "missed."), data={"roll": roll, "success": success})
    if success:
        assassinate(state, events, holder, armies[answer.army], seat)


def assassinate(state: SamuraiState, events: list[Event], seat: int, army: Army, by: int) -> None:
    """The army lies on its side: no moving, no attacking; its daimyo does not fight. A
    declared attack of that army is cancelled; an army with no other unit is removed."""
    army.assassinated = True
    war = state.war
    if war is not None and war.order_pos < len(state.order) and state.order[war.order_pos] == seat:
        war.declarations = [declaration for declaration in war.declarations if not (declaration.force == "army" and declaration.army == army.idx)]
        if war.chain_army == army.idx:
            war.chain_army = None
        if war.sel.get("army") == army.idx or war.sel.get("gather") == army.idx:
            war.sel = {}
    if army_regulars(army) == 0 and army.ronin == 0:
        destroy_army(state, events, seat, army, by)

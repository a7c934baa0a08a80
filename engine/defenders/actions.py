"""Decisions: the prompts each seat owes now, and applying an answer.

Every prompt lists its legal answers as options; `submit` accepts exactly one of them, so a
forged or stale answer is refused with the list of what is open, and nothing changes.
Prompt kinds: skill (setup), turn (own Defender card), all (shared All Defenders AP), react
(optional any-turn skills on another player's Turn, open all Turn), target, defend (shared, with
Level Up first), artifact, rebuild (campaign.py). A seat that could only pass is not asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.contract import IllegalChoice, Prompt
from engine.defenders import campaign, effects, refusals, rounds, rules
from engine.defenders.answer_check import defence_picks, named_option, pending_targets, same_choice
from engine.defenders.card_options import (
    abilities_open,
    ability_options,
    ability_values,
    free_move,
    idle_on_card,
    move_cost,
    seat_card_options,
)
from engine.defenders.content import content
from engine.defenders.names import caravans, region_name, who
from engine.defenders.prompting import MAX_OPTIONS, Answer, dname, fit
from engine.defenders.rules import Flow
from engine.defenders.state import Defender, DefendersState
from engine.kit import ASKS_NOTHING, Asked, Phase, PhaseTable, StepRandom, opt
from engine.kit.phases import EachSeat
from engine.text import seat_ref

# ---------------------------------------------------------------------------- prompts


def prompts(state: DefendersState, only: int | None = None) -> list[Prompt]:
    """Every decision owed now; with ``only``, just that seat's (what submit needs)."""
    return PHASES.prompts(state, only)


def play_kind(state: DefendersState, seat: int) -> str | None:
    """The decision ``seat`` owes in a battle (None: none), without building its prompt
    (`PLAY_BUILDERS` does), most urgent first: an artifact offer, an attack, a target, then
    the AP card (its own Turn, reactions or the shared All Defenders card). Each seat is asked
    one decision at most, in seat order."""
    offer = state.artifact_offer
    if offer is not None:
        return "artifact" if state.defenders[offer["d"]].seat == seat else None
    if state.attacks:
        return "defend" if rules.asked_to_defend(state, state.attacks[0], seat) else None
    act = state.active
    if act is None:
        return None
    if act.pick is not None:
        return "target" if act.pick["seat"] == seat else None
    if act.card == "defender":
        if seat == state.defenders[act.defender or 0].seat:
            return "turn"
        reacts = any(abilities_open(state, d, own_turn=False, ap=act.ap) for d in state.of_seat(seat))
        return "react" if reacts else None
    return "all" if seat not in act.passed and not idle_on_card(state, seat) else None


def _seats(state: DefendersState) -> range:
    return range(state.seats)


def status_line(state: DefendersState, d: Defender) -> str:
    return (f"{dname(d)} in {region_name(state, d.region)}: {d.hp}/{rules.max_hp(d)} HP, {d.xp} XP"
            + (" (Exhausted)" if d.hp == 0 else ""))


def turn_prompt(state: DefendersState, seat: int) -> Prompt:
    assert state.active is not None
    d = state.defenders[state.active.defender or 0]
    text = (f"Your Turn (Defender card), {state.active.ap} AP left. {status_line(state, d)}. "
            f"Pick one action at a time; unused AP are lost when you end the Turn.")
    return Prompt(seat=seat, kind="turn", text=text, answer=Answer, options=seat_card_options(state, seat),
                  default={"act": "end"})


def all_prompt(state: DefendersState, seat: int) -> Prompt:
    assert state.active is not None
    mine = "; ".join(status_line(state, d) for d in state.of_seat(seat))
    text = (f"All Defenders card: {state.active.ap} AP left for the whole group, first come first served. "
            f"{mine}. Pass when you want to leave the rest to the others.")
    return Prompt(seat=seat, kind="all", text=text, answer=Answer, options=seat_card_options(state, seat),
                  shared=state.seats > 1, default={"act": "pass"})


def react_prompt(state: DefendersState, seat: int) -> Prompt:
    """Any-turn skills (and Level Up) during another Defender's Turn, open for the whole Turn.
    "Not now" marks the prompt answered, so nobody waits and no AI answers it again, yet its
    skills stay usable; it is asked afresh once its options change. Asked only when one of the
    seat's Defenders has an ability open (`play_kind`)."""
    assert state.active is not None
    found = [o for d in state.of_seat(seat) for o in ability_options(state, d, own_turn=False, ap=state.active.ap)]
    assert found
    options = fit(found, [opt("pass", "Not now", {"act": "pass"})])
    active = state.defenders[state.active.defender or 0]
    text = (f"{who(active)} is taking a Turn. Your any-turn skills stay open until that Turn ends; "
            f"the game goes on without you.")
    passed = state.active.react_passed.get(str(seat))
    return Prompt(seat=seat, kind="react", text=text, answer=Answer, options=options, optional=True,
                  answered=passed == [o.value for o in options], default={"act": "pass"})


def react_answered(state: DefendersState, seat: int, kind: str) -> bool:
    """`react_prompt`'s ``answered`` (the seat said "Not now" to these very options) without
    building the prompt: an all-AI driver passes over it (`PhaseTable.first_open`)."""
    if kind != "react":
        return False
    act = state.active
    assert act is not None
    passed = act.react_passed.get(str(seat))
    if passed is None:
        return False
    values = [value for d in state.of_seat(seat) for value in ability_values(state, d, own_turn=False, ap=act.ap)]
    return passed == [*values[:MAX_OPTIONS - 1], "pass"]


def target_prompt(state: DefendersState, seat: int | None = None) -> Prompt:
    """The target of the ability waiting for one (its user's seat is the one asked)."""
    act = state.active
    assert act is not None and act.pick is not None
    seat, d = act.pick["seat"], state.defenders[act.pick["d"]]
    src = act.pick["src"]
    ab = effects.ability_of(state, d, src)
    assert ab is not None
    options = [opt(f"t:{t}", effects.target_label(state, t), {"act": "target", "target": t})
               for t in pending_targets(state)]
    text = f"{dname(d)} uses {ab.name}: choose where or whom. {ab.text}"
    return Prompt(seat=seat, kind="target", text=text, answer=Answer,
                  options=fit(options, [opt("back", "Back", {"act": "back"})]), default={"act": "back"})


def defend_prompt(state: DefendersState, seat: int) -> Prompt:
    """``seat``'s answer to the first attack, asked of every seat with a Defender able to
    answer it; a Defender at 8 XP may first Level Up (full HP), which returns the same decision
    with the defence now affordable."""
    attack = state.attacks[0]
    able = rules.defenders_for(state, attack)
    r = state.regions[attack.region]
    where = region_name(state, attack.region)
    if r.destroyed:
        stakes = "the Capital City gains 1 Threat"
    elif r.threat >= state.options.outer_max:
        stakes = f"{where} is Destroyed"
    else:
        stakes = f"{where} goes to Threat {r.threat + 1}"
    extra = ""
    if attack.dire:
        dire = content().dire_card(attack.dire)
        extra = f" {dire.text} A defence wins an artifact."
    xp = "A defence earns 1 XP. " if attack.kind in ("enemy", "dire", "deserter") else ""
    several = len({defender.seat for defender in able}) > 1
    first = "One defence is enough; the first answer counts." if several else ""
    text = f"{where} is under attack by {attack.source}. If nobody defends, {stakes}.{extra} {xp}{first}".strip()
    options = [opt(f"defend:{d.idx}", f"Defend with {dname(d)} (-{rules.defend_cost(state, d, attack)} HP, "
                                      f"{d.hp} now)", {"act": "defend", "d": d.idx}) if what == "defend"
               else opt(f"level:{d.idx}", f"Level up {dname(d)} first (8 XP: full HP, a new skill)",
                        {"act": "level", "d": d.idx})
               for what, d in defence_picks(state, attack, [d for d in able if d.seat == seat])]
    options.append(opt("decline", "Let it through", {"act": "decline"}))
    return Prompt(seat=seat, kind="defend", text=text, answer=Answer, options=options, shared=several,
                  default={"act": "decline"})


def artifact_prompt(state: DefendersState, seat: int | None = None) -> Prompt:
    """A won artifact with its winner's slots full (its winner's seat is the one asked)."""
    offer = state.artifact_offer
    assert offer is not None
    d = state.defenders[offer["d"]]
    new = content().artifact(offer["key"])
    options = [opt(f"drop:{a}", f"Drop {content().artifact(a).name}, take {new.name}", {"act": "drop", "key": a})
               for a in d.artifacts if content().artifact(a).slot == new.slot]
    options.append(opt("leave", f"Keep what you have; {new.name} goes back", {"act": "leave"}))
    text = f"{dname(d)} won {new.name} ({new.slot}: {new.ability.text}) but the {new.slot} slots are full."
    return Prompt(seat=d.seat, kind="artifact", text=text, answer=Answer, options=options, default={"act": "leave"})


def setup_prompts(state: DefendersState) -> list[Prompt]:
    out = []
    for seat in range(state.seats):
        d = next((defender for defender in state.of_seat(seat) if defender.skill_offer), None)
        if d is None:
            continue
        options = [opt(f"keep:{skill}", content().skill(skill).name, {"act": "keep", "d": d.idx, "key": skill},
                       content().skill(skill).ability.text) for skill in d.skill_offer]
        text = (f"Choose the first skill of {dname(d)} ({rules.max_hp(d)} HP, "
                f"{content().defender(d.key).ability.name}: {content().defender(d.key).ability.text}). "
                f"The other goes to the bottom of the Skill deck.")
        out.append(Prompt(seat=seat, kind="skill", text=text, answer=Answer, options=options,
                          default=options[0].choice))
    return out


# ---------------------------------------------------------------------------- submit


STEP_RANDOM = StepRandom(salt="step", counts_first=True)
"""How a Defenders choice's RNG is derived (engine/kit/flow.py says why it differs)."""


def picked(state: DefendersState, seat: int, asked: Asked, choice: object) -> dict[str, Any]:
    """The option of the prompt ``asked`` the choice is, exactly (a copy of its choice dict): every
    Defenders answer is one of the prompt's options; anything else is refused with the most
    specific reason (refusals.py). An AP-card answer is first looked for among its own act's
    options alone (answer_check.py), without building the prompt, unless it is built already."""
    if not asked.built:
        quick = named_option(state, seat, asked.kind, choice)
        if quick is not None:
            return quick
    prompt = asked.prompt
    found = next((option for option in prompt.options
                  if option.choice == choice and same_choice(option.choice, choice)), None)
    if found is None:
        raise IllegalChoice(refusals.why_not(state, seat, prompt, choice))
    return dict(found.choice)


def keep_skill(flow: Flow, seat: int, asked: Asked, choice: dict[str, Any]) -> None:
    """Setup: the kept skill is learnt, the other goes under the Skill deck."""
    state = flow.state
    defender = state.defenders[choice["d"]]
    defender.skills.append(choice["key"])
    state.skill_deck[:0] = [key for key in defender.skill_offer if key != choice["key"]]
    defender.skill_offer = []
    flow.emit("log", f"{who(defender)} keeps the skill {content().skill(choice['key']).name}.")


def skills_kept(state: DefendersState) -> bool:
    """Every Defender has kept a skill: the battle starts."""
    return not any(other.skill_offer for other in state.defenders)


def rebuild(flow: Flow, seat: int, asked: Asked, choice: dict[str, Any]) -> None:
    campaign.rebuild_choice(flow, seat, choice)


def take_artifact(flow: Flow, seat: int, asked: Asked, choice: dict[str, Any]) -> None:
    """A won artifact with its slots full: drop one for it, or leave it to the deck."""
    state = flow.state
    offer = state.artifact_offer
    assert offer is not None
    defender = state.defenders[offer["d"]]
    state.artifact_offer = None
    new = content().artifact(offer["key"])
    if choice["act"] == "drop":
        defender.artifacts.remove(choice["key"])
        state.artifact_deck.insert(flow.rng.randrange(len(state.artifact_deck) + 1), choice["key"])
        defender.artifacts.append(new.key)
        defender.hp = min(defender.hp, rules.max_hp(defender))
        if new.ability.effect == "max_hp":
            rules.heal(defender, new.ability.amount)
        flow.emit("artifact", f"{who(defender)} drops {content().artifact(choice['key']).name} for {new.name}.")
    else:
        state.artifact_deck.insert(flow.rng.randrange(len(state.artifact_deck) + 1), new.key)
        flow.emit("log", f"{who(defender)} leaves {new.name}; it goes back into the Artifact deck.")


def defend(flow: Flow, seat: int, asked: Asked, choice: dict[str, Any]) -> None:
    state = flow.state
    attack = state.attacks[0]
    if choice["act"] == "defend":
        rules.defended(flow, attack, state.defenders[choice["d"]])
    elif choice["act"] == "level":
        rules.level_up(flow, state.defenders[choice["d"]])
    else:
        attack.declined.append(seat)


def react(flow: Flow, seat: int, asked: Asked, choice: dict[str, Any]) -> None:
    """Passing remembers the options passed on (asked afresh once they change); anything
    else is a card action."""
    active = flow.state.active
    assert active is not None
    if choice["act"] == "pass":
        active.react_passed[str(seat)] = [option.value for option in asked.prompt.options]
        return
    active.react_passed.pop(str(seat), None)
    card_action(flow, seat, asked, choice)


def pick_target(flow: Flow, seat: int, asked: Asked, choice: dict[str, Any]) -> None:
    """The target of an ability with several: it is paid and used now (or Back)."""
    state = flow.state
    assert state.active is not None
    pick = state.active.pick
    assert pick is not None
    state.active.pick = None
    if choice["act"] == "back":
        return
    defender = state.defenders[pick["d"]]
    ability = effects.ability_of(state, defender, pick["src"])
    assert ability is not None
    spend(flow, defender, ability.ap)
    effects.apply(flow, defender, pick["src"], ability, choice["target"])


def spend(f: Flow, d: Defender, ap: int) -> None:
    """AP spent on an All Defenders card starts that Defender's Turn (U14)."""
    act = f.state.active
    if ap > 0 and act is not None and act.card == "all" and not d.took_turn:
        rounds.begin_turn(f, d)


def card_action(f: Flow, seat: int, asked: Asked, ch: dict[str, Any]) -> None:
    """An answer to the AP card (own Turn, All Defenders, an any-turn skill)."""
    state = f.state
    act = state.active
    assert act is not None
    what = ch["act"]
    if what == "end":
        f.emit("log", f"{who(state.defenders[act.defender or 0])} ends the Turn.")
        state.active = None
        return
    if what == "pass":
        act.passed.append(seat)
        f.emit("log", f"All Defenders card: passed by {seat_name(seat)}.")
        return
    if what == "focus":
        act.focus[str(seat)] = ch["d"]
        return
    d = state.defenders[ch["d"]]
    ap_before = act.ap
    if what == "level":
        rules.level_up(f, d)
    elif what == "use":
        src = ch["src"]
        # The answer is one of the prompt's options (`picked`): the ability is usable now.
        ab = effects.ability_of(state, d, src)
        assert ab is not None
        options = effects.targets(state, d, src, ab)
        if len(options) > 1:
            act.pick = {"seat": seat, "d": d.idx, "src": src}
            return
        spend(f, d, ab.ap)
        effects.apply(f, d, src, ab, options[0])
    else:
        regular(f, d, ch)
    if act.card == "all" and state.active is act and state.seats > 1 and act.ap != ap_before and act.ap > 0:
        f.emit("log", f"{act.ap} shared AP left on the All Defenders card.")


def seat_name(seat: int) -> str:
    return seat_ref(seat)


def regular(f: Flow, d: Defender, ch: dict[str, Any]) -> None:
    state = f.state
    act = state.active
    assert act is not None
    what = ch["act"]
    if what == "move":
        n = ch["escort"]
        cost = move_cost(state, d, ch["to"], escort=n > 0)
        spend(f, d, cost)
        act.ap -= cost
        if free_move(d):
            d.moved_free = True  # the Turn's first move is made, free or (escorting) paid
        frm = d.region
        effects.leave(state, d)
        d.region = ch["to"]
        f.emit("move", f"{who(d)} moves to {region_name(state, d.region)}" + (f" escorting {caravans(n)} for {n} XP."
                                                                  if n else "."))
        if n:
            d.xp -= n
            effects.move_caravans(f, d, frm, d.region, n, escorted=True)
        return
    spend(f, d, 1)
    act.ap -= 1
    if what == "fly":
        effects.leave(state, d)
        d.region = ch["to"]
        f.emit("move", f"{who(d)} flies the Manticore to {region_name(state, d.region)}.")
    elif what == "secure":
        r = state.regions[d.region]
        if r.storm:
            r.storm = False
            state.storms += 1
            f.emit("secure", f"{who(d)} clears the storm from {region_name(state, r.key)}.")
        else:
            before = r.threat
            r.threat = max(0, r.threat - 1 - rules.passive(d, "secure_bonus"))
            f.emit("secure", f"{who(d)} Secures {region_name(state, r.key)}: Threat {before} to {r.threat}.")
    elif what == "fight":
        card = content().boss(state.boss.key)
        rules.damage_boss(f, d, 1 + rules.passive(d, "fight_bonus"), f"{who(d)} fights")
        if card.passive == "thorns" and state.phase == "play":
            rules.hurt(f, d, 1, card.name)
    elif what == "prepare":
        rules.gain_xp(d, 1)
        f.emit("log", f"{who(d)} prepares: {d.xp} XP.")


def close_idle_card(f: Flow) -> bool:
    """Close the AP card once nobody has anything left to do with it; True when it closed."""
    state = f.state
    act = state.active
    if act is None or state.phase != "play" or state.attacks or state.artifact_offer is not None or act.pick is not None:
        return False
    if act.card == "all":
        if any(s not in act.passed and not idle_on_card(state, s) for s in range(state.seats)):
            return False
        f.emit("log", "The All Defenders card is spent.")
    else:
        active = state.defenders[act.defender or 0]
        if not idle_on_card(state, active.seat):
            return False
        if act.ap:
            f.emit("log", f"{who(active)} can do nothing more with the {act.ap} AP left: the Turn ends.")
    state.active = None
    return True


def play_step(f: Flow) -> bool:
    """One automatic step of a battle: resolve an attack nobody can defend, close an AP card
    nobody can use, end the card, end or start a round, draw the next card. False while a
    decision is owed (an artifact offer, a defence, a target, a usable card)."""
    state = f.state
    if state.artifact_offer is not None:
        return False
    if state.attacks:
        return not rules.settle_attacks(f)
    if state.active is not None:
        return close_idle_card(f)
    if state.current is not None:
        rounds.end_card(f)
    if not state.turn_deck:
        rounds.round_end(f)
        if state.phase == "play":
            rounds.round_start(f)
        return True
    rounds.draw_card(f)
    return True


PLAY_BUILDERS: dict[str, Callable[[DefendersState, int], Prompt]] = {
    "artifact": artifact_prompt, "defend": defend_prompt, "react": react_prompt, "target": target_prompt,
    "turn": turn_prompt, "all": all_prompt}
"""The prompt of each kind of battle decision `play_kind` finds a seat owes."""

PLAY_KINDS = tuple(PLAY_BUILDERS)
"""The prompt kinds of a battle: each answers with an `Answer`, so an answer is checked before
(and often without) its prompt is built."""

PHASES: PhaseTable[DefendersState] = PhaseTable({
    "setup": Phase(prompts=lambda state, only: setup_prompts(state), handlers={"skill": keep_skill},
                   done=skills_kept, next=rounds.start_battle),
    "rebuild": Phase(prompts=lambda state, only: campaign.rebuild_prompts(state), handlers={"rebuild": rebuild},
                     step=campaign.end_rebuild_when_settled),
    "play": Phase(owed=EachSeat(_seats, play_kind), builders=PLAY_BUILDERS, answers=dict.fromkeys(PLAY_KINDS, Answer),
                  answered=react_answered,
                  handlers={"artifact": take_artifact, "defend": defend, "react": react, "target": pick_target,
                            "turn": card_action, "all": card_action}, step=play_step),
    "over": ASKS_NOTHING,
})
"""Each phase's prompts, the handler of each prompt kind (the answer it takes is exactly one
of the prompt's options, see `picked`) and its automatic step: a battle runs on card by card
until a decision is owed (a card nobody can use is closed rather than asking seats only to
pass); a Rebuild nobody has anything left to do in ends."""

"""The phases of a match: force building, Clan Phase, Hero Activation Phase, victory check.

`PHASES` says who owes what in each phase and which handler applies each answer; the game
class (engine/tinybigwars/__init__.py) hands answers to it through `KitGame.submit`.
"""

from __future__ import annotations

import random

from engine.contract import Event, IllegalChoice, NumberField, Prompt
from engine.kit import ASKS_NOTHING, Asked, Flow, Phase, PhaseTable, Sealed, StepRandom, emit, opt
from engine.text import seat_ref
from engine.tinybigwars import clan, combat
from engine.tinybigwars.answers import (
    ActionAnswer,
    ActivateAnswer,
    BuildAnswer,
    ClanAnswer,
    DamageAnswer,
    EnergyAnswer,
    EscortAnswer,
    ForceAnswer,
    RecruitAnswer,
)
from engine.tinybigwars.board import (
    ability_for,
    hero_card,
    hero_name,
    influence,
    loc_name,
)
from engine.tinybigwars.content import content
from engine.tinybigwars.forces import force_of, force_prompt
from engine.tinybigwars.state import LOG_FIELD, Hero, TBWState, topology
from engine.tinybigwars.victory import end, rank
from engine.words import counted

MAX_ACTIVATIONS = 2
START_MINIONS = 4
MAX_OPTIONS = 25


# ----------------------------------------------------------------------------- force


def _submit_force(flow: Flow[TBWState], seat: int, asked: Asked, ans: ForceAnswer) -> None:
    """A force sealed behind the screen (or revised); the phase table reveals them once all are in."""
    s = flow.state
    force = force_of(ans.picks, s.options.point_limit)
    revising = s.seats[seat].force is not None
    s.seats[seat].force = force
    flow.emit("force_sealed", f"You sealed a force of {force.points} points.", seats=[seat])
    flow.emit("force_ready", f"{seat_ref(seat)} {'revised' if revising else 'sealed'} a force.")


def _forces_sealed(state: TBWState) -> bool:
    return all(clan_seat.force is not None for clan_seat in state.seats)


def _reveal(flow: Flow[TBWState]) -> None:
    _reveal_forces(flow.state, flow.events, flow.rng)


def _reveal_forces(s: TBWState, events: list[Event], rng: random.Random) -> None:
    c = content()
    lines = []
    for clan_seat in s.seats:
        assert clan_seat.force is not None
        start = next(loc for loc in s.locations if loc.start_seat == clan_seat.seat)
        for card in clan_seat.force.heroes:
            hc = c.heroes[card]
            s.heroes.append(Hero(id=f"h{clan_seat.seat}-{card}", card=card, seat=clan_seat.seat, location=start.id, health=hc.health))
        start.minions[clan_seat.seat] = START_MINIONS + sum(c.minions[m].count for m in clan_seat.force.minion_cards)
        clan_seat.charters = [c.buildings[b].infrastructure for b in clan_seat.force.buildings]
        cards = [c.card_name(key) for key in [*clan_seat.force.heroes, *clan_seat.force.minion_cards, *clan_seat.force.buildings]]
        lines.append(f"{seat_ref(clan_seat.seat)}: {', '.join(cards)} ({counted(clan_seat.force.points, 'point')})")
    emit(
        s,
        LOG_FIELD,
        events,
        "force_reveal",
        "Forces revealed. " + "; ".join(lines),
        data={"forces": [clan_seat.force.model_dump() for clan_seat in s.seats if clan_seat.force]},
        phase_end=True,
    )
    _start_round(s, events, rng)


# ----------------------------------------------------------------------------- clan phase


def _start_round(s: TBWState, events: list[Event], rng: random.Random,
                 presence: dict[str, list[int]] | None = None) -> None:
    """The next round's Clan Phase (``presence``: the state's, when the caller has it)."""
    s.round += 1
    s.phase = "clan"
    clan.begin(s, events, presence)
    if all(clan_seat.clan_done for clan_seat in s.seats):
        _end_clan(s, events, rng)


def _clan_over(state: TBWState) -> bool:
    """Checked after any Clan Phase answer: the phase ends once every clan is done."""
    return all(clan_seat.clan_done for clan_seat in state.seats)


def _submit_clan(flow: Flow[TBWState], seat: int, asked: Asked, ans: ClanAnswer) -> None:
    clan.submit_clan(flow.state, seat, ans, flow.events)


def _submit_recruit(flow: Flow[TBWState], seat: int, asked: Asked, ans: RecruitAnswer) -> None:
    clan.submit_recruit(flow.state, seat, ans, flow.events)


def _submit_build(flow: Flow[TBWState], seat: int, asked: Asked, ans: BuildAnswer) -> None:
    clan.submit_build(flow.state, seat, ans, flow.events)


def _clan_ends(flow: Flow[TBWState]) -> None:
    _end_clan(flow.state, flow.events, flow.rng)


def _end_clan(s: TBWState, events: list[Event], rng: random.Random) -> None:
    for clan_seat in s.seats:
        clan_seat.coins = 0
        clan_seat.clan_done = True
    emit(s, LOG_FIELD, events, "clan_end", f"Round {s.round}: Clan Phase over; unspent coins are lost.", phase_end=True)
    _start_activation(s, events, rng)


# ----------------------------------------------------------------------------- activation


def activation_order(s: TBWState) -> list[int]:
    """The seat drawn at setup opens round 1; each round the order moves on by one seat.

    Influence does not decide: measured, the clan moving later in a round gains, so an
    order by influence either handed the leader the last move (lowest first) or taxed
    every influence gain, Dojos and start cards included (most first).
    """
    n = s.seats_n
    return [(s.first_seat + s.round - 1 + i) % n for i in range(n)]


def _can_activate(s: TBWState, seat: int) -> bool:
    clan_seat = s.seats[seat]
    return (
        not clan_seat.eliminated
        and not clan_seat.passed
        and clan_seat.activations < MAX_ACTIVATIONS
        and any(h.seat == seat and not h.defeated and not h.activated for h in s.heroes)
    )


def _start_activation(s: TBWState, events: list[Event], rng: random.Random) -> None:
    s.phase = "activation"
    s.turn.order = activation_order(s)
    s.turn.index = -1
    s.turn.hero = None
    emit(
        s,
        LOG_FIELD,
        events,
        "activation_start",
        "Hero Activation order: " + ", ".join(seat_ref(turn_seat) for turn_seat in s.turn.order),
        data={"order": list(s.turn.order)},
    )
    _next_turn(s, events, rng)


def _next_turn(s: TBWState, events: list[Event], rng: random.Random) -> None:
    n = len(s.turn.order)
    for step in range(1, n + 1):
        i = (s.turn.index + step) % n
        if _can_activate(s, s.turn.order[i]):
            s.turn.index = i
            return
    _end_activation(s, events, rng)


def active_seat(s: TBWState) -> int | None:
    if s.phase not in ("activation", "combat") or s.turn.index < 0 or not s.turn.order:
        return None
    return s.turn.order[s.turn.index]


def activatable(s: TBWState, seat: int) -> list[Hero]:
    """The heroes ``seat`` may activate now, in the order of its activation prompt's options
    (Pass after them): what the heuristic weighs without building the prompt."""
    return [h for h in s.live_heroes(seat) if not h.activated][: MAX_OPTIONS - 1]


def move_targets(s: TBWState, node: str) -> tuple[str, ...]:
    """Where a hero at ``node`` may move, in the order of the action prompt's move options."""
    return topology(s).neighbours(node)[: MAX_OPTIONS - 3]


def _activate_prompt(s: TBWState, seat: int) -> Prompt:
    opts = [
        opt(h.id, f"Activate {hero_card(h).name}", {"hero": h.id},
            f"at {loc_name(s, h.location or '')}, health {h.health}, energy {h.energy}")
        for h in activatable(s, seat)
    ]
    opts.append(opt("pass", "Pass", {"hero": "pass"}, "Activate no more heroes this round"))
    return Prompt(
        seat=seat,
        kind="activate",
        text=f"Round {s.round}: activate a hero ({s.seats[seat].activations}/{MAX_ACTIVATIONS} used) or pass.",
        answer=ActivateAnswer,
        options=opts,
        default={"hero": "pass"},
    )


def _submit_activate(flow: Flow[TBWState], seat: int, asked: Asked, ans: ActivateAnswer) -> None:
    s, events, rng = flow.state, flow.events, flow.rng
    clan_seat = s.seats[seat]
    if ans.hero == "pass":
        clan_seat.passed = True
        flow.emit("pass", f"{seat_ref(seat)} passes.")
        _next_turn(s, events, rng)
        return
    try:
        hero: Hero | None = s.hero(ans.hero)
    except KeyError:
        hero = None
    if hero is None or hero.seat != seat:
        raise IllegalChoice("That hero is not one of yours.")
    if hero.defeated:
        raise IllegalChoice(f"{hero_card(hero).name} has been defeated.")
    if hero.activated:
        raise IllegalChoice(f"{hero_card(hero).name} has already been activated this round.")
    hero.activated = True
    clan_seat.activations += 1
    node = hero.location or ""
    actions = 3 if hero_card(hero).ability == "three_actions" else 2
    if ability_for(s, node, seat) == "extra_action":
        actions += 1
    s.turn.hero, s.turn.actions, s.turn.free_move_used, s.turn.move_to = hero.id, actions, False, None
    flow.emit("activate", f"{seat_ref(seat)} activates {hero_card(hero).name} at {loc_name(s, node)} ({actions} actions).")
    if hero_card(hero).ability == "rally":
        s.loc(node).minions[seat] += 1
        flow.emit("ability", f"Banner Captain rallies 1 minion at {loc_name(s, node)}.")


def _action_prompt(s: TBWState, seat: int) -> Prompt:
    hero = s.hero(s.turn.hero or "")
    card = hero_card(hero)
    node = hero.location or ""
    opts = []
    for nxt in move_targets(s, node):
        opts.append(
            opt(f"move:{nxt}", f"Move to {loc_name(s, nxt)}", {"action": "move", "to": nxt},
                "enemies there: fight!" if s.foes_at(nxt, seat) else "no enemies there")
        )
    if hero.health < card.health:
        opts.append(opt("train_health", "Train: recover health", {"action": "train_health"}))
    if hero.energy < card.max_energy:
        opts.append(opt("train_energy", "Train: gain energy", {"action": "train_energy"}))
    opts.append(opt("end", "End activation", {"action": "end"}, "Skip remaining actions"))
    return Prompt(
        seat=seat,
        kind="action",
        text=f"{card.name} at {loc_name(s, node)}: {counted(s.turn.actions, 'action')} left.",
        answer=ActionAnswer,
        options=opts,
        default={"action": "end"},
    )


def _escort_prompt(s: TBWState, seat: int) -> Prompt:
    hero = s.hero(s.turn.hero or "")
    have = s.loc(hero.location or "").minions[seat]
    return Prompt(
        seat=seat,
        kind="escort",
        text=f"How many of your {counted(have, 'minion')} go with {hero_card(hero).name} to {loc_name(s, s.turn.move_to or '')}?",
        answer=EscortAnswer,
        input="numbers",
        fields=[NumberField(name="minions", label="Minions to bring", min=0, max=have)],
        default={"minions": have},
    )


def _submit_action(flow: Flow[TBWState], seat: int, asked: Asked, ans: ActionAnswer) -> None:
    s, events, rng = flow.state, flow.events, flow.rng
    hero = s.hero(s.turn.hero or "")
    card = hero_card(hero)
    node = hero.location or ""
    if ans.action == "end":
        if ans.to is not None:
            raise IllegalChoice("Ending the activation takes no destination.")
        _finish_activation(s, events, rng)
        return
    if ans.action == "move":
        roads = topology(s)
        if ans.to is None or ans.to not in roads.locations:
            raise IllegalChoice("Name a location of the city to move to.")
        if ans.to not in roads.neighbours(node):
            raise IllegalChoice(f"{loc_name(s, ans.to)} is not adjacent to {loc_name(s, node)}.")
        if s.loc(node).minions[seat] > 0:
            s.turn.move_to = ans.to
        else:
            _do_move(s, seat, ans.to, 0, events, rng)
        return
    if ans.to is not None:
        raise IllegalChoice("Training takes no destination.")
    here = ability_for(s, node, seat)
    if ans.action == "train_health":
        if hero.health >= card.health:
            raise IllegalChoice(f"{card.name} is already at full health.")
        gain = 2 if here == "train_health_2" else 1
        gain += 1 if card.ability == "train_heal_extra" else 0
        hero.health = min(card.health, hero.health + gain)
        if here == "train_both":
            hero.energy = min(card.max_energy, hero.energy + 1)
    else:
        if hero.energy >= card.max_energy:
            raise IllegalChoice(f"{card.name} already has full energy.")
        gain = 2 if here == "train_energy_2" else 1
        hero.energy = min(card.max_energy, hero.energy + gain)
        if here == "train_both":
            hero.health = min(card.health, hero.health + 1)
    flow.emit("train", f"{hero_name(hero)} trains: health {hero.health}, energy {hero.energy}.")
    s.turn.actions -= 1
    if s.turn.actions <= 0:
        _finish_activation(s, events, rng)


def _submit_escort(flow: Flow[TBWState], seat: int, asked: Asked, ans: EscortAnswer) -> None:
    s, events, rng = flow.state, flow.events, flow.rng
    hero = s.hero(s.turn.hero or "")
    have = s.loc(hero.location or "").minions[seat]
    if ans.minions < 0 or ans.minions > have:
        raise IllegalChoice(f"You can bring between 0 and {counted(have, 'minion')}.")
    to = s.turn.move_to or ""
    s.turn.move_to = None
    _do_move(s, seat, to, ans.minions, events, rng)


def move_cost(s: TBWState, seat: int, hero: Hero, to: str, there: list[int] | None = None) -> tuple[int, bool]:
    """(actions spent, Shadow Step's free move used) for moving ``hero`` to ``to`` (``there``:
    the seats present at ``to``, when the caller has them)."""
    node = hero.location or ""
    foes = any(other != seat for other in (s.present(to) if there is None else there))
    if ability_for(s, node, seat) == "free_move_out":
        return 0, False
    if s.loc(to).card == "crossroads" and not foes:
        return 0, False
    if hero_card(hero).ability == "free_first_move" and not s.turn.free_move_used:
        return 0, True
    return 1, False


def _do_move(s: TBWState, seat: int, to: str, minions: int, events: list[Event], rng: random.Random) -> None:
    hero = s.hero(s.turn.hero or "")
    origin = hero.location or ""
    there = s.present(to)
    holder = there[0] if len(there) == 1 else None
    cost, shadow = move_cost(s, seat, hero, to, there)
    s.turn.actions -= cost
    s.turn.free_move_used = s.turn.free_move_used or shadow
    s.loc(origin).minions[seat] -= minions
    s.loc(to).minions[seat] += minions
    hero.location = to
    free = "" if cost else " (free move)"
    emit(
        s,
        LOG_FIELD,
        events,
        "move",
        f"{hero_name(hero)} moves from {loc_name(s, origin)} to {loc_name(s, to)} with {counted(minions, 'minion')}{free}.",
        data={"hero": hero.id, "from": origin, "to": to, "minions": minions},
    )
    if any(other != seat for other in there):  # the move brought only the mover's own units
        if holder is not None:
            s.loc(to).held_by = holder
        s.after_combat = "activation"
        if combat.start(s, to, seat, rng, events):
            _after_combat(s, events, rng)
        return
    if s.turn.actions <= 0:
        _finish_activation(s, events, rng)


def _finish_activation(s: TBWState, events: list[Event], rng: random.Random) -> None:
    hero = s.hero(s.turn.hero or "")
    if not hero.defeated and ability_for(s, hero.location or "", hero.seat) == "rest_end":
        hero.energy = min(hero_card(hero).max_energy, hero.energy + 1)
        emit(s, LOG_FIELD, events, "ability", f"{hero_name(hero)} rests at {loc_name(s, hero.location or '')}: +1 energy.")
    s.turn.hero, s.turn.actions, s.turn.move_to = None, 0, None
    _next_turn(s, events, rng)


def _after_combat(s: TBWState, events: list[Event], rng: random.Random) -> None:
    if s.after_combat == "end_fights":
        _next_end_fight(s, events, rng)
        return
    hero = s.hero(s.turn.hero or "")
    if hero.defeated or s.turn.actions <= 0:
        _finish_activation(s, events, rng)


def _end_activation(s: TBWState, events: list[Event], rng: random.Random) -> None:
    s.turn.index = -1
    s.end_fights = [
        loc.id for loc in s.locations if s.hero_clans(loc.id) >= 2
    ]
    _next_end_fight(s, events, rng)


def _next_end_fight(s: TBWState, events: list[Event], rng: random.Random) -> None:
    while s.end_fights:
        node = s.end_fights.pop(0)
        if s.hero_clans(node) < 2:
            continue
        s.after_combat = "end_fights"
        if not combat.start(s, node, None, rng, events):
            return
    s.phase = "activation"
    emit(s, LOG_FIELD, events, "activation_end", f"Round {s.round}: Hero Activation Phase over.", phase_end=True)
    _victory_check(s, events, rng)


# ----------------------------------------------------------------------------- victory


def _victory_check(s: TBWState, events: list[Event], rng: random.Random) -> None:
    presence = s.presence()
    held: list[list[str]] = [[] for _ in range(s.seats_n)]
    for node, seats in presence.items():
        if len(seats) == 1:
            held[seats[0]].append(node)
    scores = [influence(s, seat, held[seat]) for seat in range(s.seats_n)]
    places = [len(nodes) for nodes in held]
    for clan_seat in s.seats:
        if not clan_seat.eliminated and not s.live_heroes(clan_seat.seat) and not any(loc.minions[clan_seat.seat] for loc in s.locations):
            clan_seat.eliminated = True
            emit(s, LOG_FIELD, events, "eliminated", f"{seat_ref(clan_seat.seat)} has no units left and is out.")
    alive = [clan_seat.seat for clan_seat in s.seats if not clan_seat.eliminated]
    summary = ", ".join(f"{seat_ref(i)} {v} influence" for i, v in enumerate(scores))
    reached = [seat for seat in alive if scores[seat] >= s.options.to_win]
    if reached:
        end(s, events, rank(reached, scores, places), "influence", scores, summary)
    elif len(alive) <= 1:
        end(s, events, alive, "last_clan", scores, summary)
    elif s.round >= s.options.round_limit:
        end(s, events, rank(alive, scores, places), "round_limit", scores, summary)
    else:
        emit(s, LOG_FIELD, events, "round_end", f"Round {s.round} over: {summary}.", data={"influence": scores}, phase_end=True)
        _start_round(s, events, rng, presence)


# ----------------------------------------------------------------------------- combat prompts


def _submit_energy(flow: Flow[TBWState], seat: int, asked: Asked, ans: EnergyAnswer) -> None:
    s, events, rng = flow.state, flow.events, flow.rng
    if combat.submit_energy(s, seat, ans.attack, ans.guard, events):
        _after_combat(s, events, rng)


def _submit_damage(flow: Flow[TBWState], seat: int, asked: Asked, ans: DamageAnswer) -> None:
    s, events, rng = flow.state, flow.events, flow.rng
    if combat.submit_damage(s, seat, ans.hero, events):
        _after_combat(s, events, rng)


# ----------------------------------------------------------------------------- contract


def _force_owed(state: TBWState) -> list[tuple[int, str]]:
    """Every seat, answered or not: a sealed force may be revised until all are in."""
    return [(seat, "force") for seat in range(state.seats_n)]


def _clan_owed(state: TBWState) -> list[tuple[int, str]]:
    return [(clan_seat.seat, clan_seat.pending or "clan") for clan_seat in state.seats if not clan_seat.clan_done]


def _turn_owed(state: TBWState) -> list[tuple[int, str]]:
    seat = active_seat(state)
    if seat is None:
        return []
    if state.turn.hero is None:
        return [(seat, "activate")]
    return [(seat, "escort" if state.turn.move_to is not None else "action")]


def _fight_owed(state: TBWState) -> list[tuple[int, str]]:
    fight = state.combat
    if fight is None:
        return _turn_owed(state)
    if fight.stage == "energy":
        return [(seat, "energy") for seat, need in zip(fight.seats, fight.needs_spend, strict=True) if need]
    return [(seat, "damage_order") for seat, left in zip(fight.seats, fight.damage_left, strict=True) if left]


def _force_answered(state: TBWState, seat: int, kind: str) -> bool:
    """A sealed force (revisable until all are in), as its prompt's ``answered`` says."""
    return state.seats[seat].force is not None


def _never_answered(state: TBWState, seat: int, kind: str) -> bool:
    """A Clan Phase or hero turn decision is taken by its one answer: never answered while
    owed (declared so that an all-AI driver's prompt may be built on first read)."""
    return False


def _spend_answered(state: TBWState, seat: int, kind: str) -> bool:
    """A sealed energy spend, as the energy prompt's ``answered`` says (a damage order is
    never answered while owed)."""
    fight = state.combat
    return kind == "energy" and fight is not None and fight.spend[fight.seats.index(seat)] is not None


PHASES: PhaseTable[TBWState] = PhaseTable({
    "force": Phase(
        owed=_force_owed, builders={"force": force_prompt}, answers={"force": ForceAnswer},
        answered=_force_answered,
        handlers={"force": _submit_force},
        sealed=Sealed(all_in=_forces_sealed, resolve=_reveal),
    ),
    "clan": Phase(
        owed=_clan_owed,
        builders={"clan": clan.clan_prompt, "recruit": clan.clan_prompt, "build": clan.clan_prompt},
        answers={"clan": ClanAnswer, "recruit": RecruitAnswer, "build": BuildAnswer}, answered=_never_answered,
        handlers={"clan": _submit_clan, "recruit": _submit_recruit, "build": _submit_build},
        done=_clan_over, next=_clan_ends,
    ),
    "activation": Phase(
        owed=_turn_owed,
        builders={"activate": _activate_prompt, "action": _action_prompt, "escort": _escort_prompt},
        answers={"activate": ActivateAnswer, "action": ActionAnswer, "escort": EscortAnswer},
        answered=_never_answered,
        handlers={"activate": _submit_activate, "action": _submit_action, "escort": _submit_escort},
    ),
    "combat": Phase(
        owed=_fight_owed,
        builders={"energy": combat.energy_prompt, "damage_order": combat.damage_prompt},
        answers={"energy": EnergyAnswer, "damage_order": DamageAnswer}, answered=_spend_answered,
        handlers={"energy": _submit_energy, "damage_order": _submit_damage},
    ),
    "over": ASKS_NOTHING,
})
"""Per phase: who owes which prompt kind, its builder, its answer model and its handler. Forces are sealed
answers, revealed together once every clan has sealed one. Each phase says which owed decisions
are answered (``answered``: a sealed force or energy spend), so an all-AI driver passes over
those and gets the open one unbuilt, built when first read (engine/kit/on_read.py)."""

STEP_RANDOM = StepRandom()
"""A choice draws from ``rng_for(seed, step)`` of the step it answers (engine/kit/flow.py)."""


class TBWFlow(Flow[TBWState]):
    """A Tiny Big Wars choice's pass: its public log is the state's ``last_events``."""

    log_field = LOG_FIELD


def owed(s: TBWState) -> list[tuple[int, str]]:
    """(seat, prompt kind) of every decision owed now: what ``prompts`` builds, without
    building it."""
    return PHASES.owed(s)


def prompts(s: TBWState, only: int | None = None) -> list[Prompt]:
    """Every decision owed now, answered secret prompts included (they may be revised);
    with ``only``, just that seat's."""
    return PHASES.prompts(s, only)


def refusal(state: TBWState, seat: int) -> str | None:
    """Why no answer from ``seat`` is taken now, before its prompt is looked up."""
    if state.phase == "over":
        return "The match is over."
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats_n:
        return f"There is no seat {seat!r} in this match."
    return None

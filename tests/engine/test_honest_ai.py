"""Honest AI by construction: a policy chooses from what its seat may know.

Real mid-match states are taken from seeded AI play (sealed choices pending among them); in
each, what another seat hides is changed (a sealed force, bid, plan or energy spend, the
units behind a screen, hidden ronin, hands and unseen cards). The seat's information state
must not change, and neither may any policy's choice for the same random seed. The match
seed, which fixes every future roll and deal, is not in it either: only a one-way stand-in. The information state must also show the seat exactly what
the true state shows it (its view), so it hides nothing the seat may see.

The changes below are written from the rules, not from engine/*/information.py, so a hidden
field the information state forgot to canonicalise shows up here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import engine
from engine.clone import clone
from engine.contract import Game, Prompt, State
from engine.defenders.state import DefendersState
from engine.samurai.ai import random_plan
from engine.samurai.board import army_room
from engine.samurai.state import SamuraiState
from engine.tinybigwars import combat as fights
from engine.tinybigwars.ai import random_force
from engine.tinybigwars.forces import force_of
from engine.tinybigwars.state import Energy, TBWState

Perturb = Callable[[Any, int, random.Random], Any]


def tinybigwars_hidden(state: TBWState, seat: int, rng: random.Random) -> TBWState:
    """Another force sealed, other energy spends sealed."""
    other = clone(state)
    if other.phase == "force":
        for clan in other.seats:
            if clan.seat != seat and clan.force is not None:
                clan.force = force_of(random_force(other.options.point_limit, rng), other.options.point_limit)
    fight = other.combat
    if fight is not None and fight.stage == "energy":
        for index, fighter in enumerate(fight.seats):
            if fighter != seat and fight.spend[index] is not None:
                have = fights.energy_of(other, fight.location, fighter)
                attack = rng.randint(0, have)
                fight.spend[index] = Energy(attack=attack, guard=have - attack)
    return other


def samurai_hidden(state: SamuraiState, seat: int, rng: random.Random) -> SamuraiState:
    """Other sealed plans and losses orders, units moved between another seat's armies and
    tray, other hidden ronin, the unseen cards dealt otherwise."""
    other = clone(state)
    others = [player for player in other.players if player.seat != seat]
    cards = other.deck + other.discard + [card for player in others for card in player.hand]
    rng.shuffle(cards)
    for player in others:
        player.hand, cards = cards[:len(player.hand)], cards[len(player.hand):]
        if "plan" in player.draft:
            player.draft["plan"] = random_plan(player.koku, rng)
        rng.shuffle(player.losses_order)
        player.levied = {kind: rng.randint(0, 3) for kind in player.levied}
        player.ronin_hired = rng.randint(0, 4)
        for army in player.armies:
            if not army.alive:
                continue
            for kind in sorted(army.units):
                if army.units[kind] and rng.random() < 0.5:
                    army.units[kind] -= 1
                    player.tray[kind] += 1
                elif player.tray.get(kind, 0) and army_room(army, kind) > 0:
                    army.units[kind] += 1
                    player.tray[kind] -= 1
            if not army.ronin_revealed:
                army.ronin = rng.randint(0, 3)
    other.discard, other.deck = cards[:len(other.discard)], cards[len(other.discard):]
    for prov in other.provinces.values():
        if prov.owner is not None and prov.owner != seat and not prov.ronin_revealed:
            prov.ronin = rng.randint(0, 3)
    return other


def defenders_hidden(state: DefendersState, seat: int, rng: random.Random) -> DefendersState:
    """The unseen Enemy cards dealt otherwise over the Turn Deck, the Horde and the leftovers,
    every face-down pile reordered, other skills offered, another face-down boss."""
    from engine.defenders.content import content

    other = clone(state)
    regular = [card for card in other.turn_deck + other.horde if card.startswith("e:")]
    regular += [f"e:{key}" for key in other.leftover_enemies]
    dire = [card for card in other.turn_deck + other.horde if card.startswith("x:")]
    dire += [f"x:{key}" for key in other.leftover_dire]
    rng.shuffle(regular)
    rng.shuffle(dire)
    other.leftover_enemies = [card[2:] for card in regular[:len(other.leftover_enemies)]]
    other.leftover_dire = [card[2:] for card in dire[:len(other.leftover_dire)]]
    rest = regular[len(other.leftover_enemies):] + dire[len(other.leftover_dire):]
    rng.shuffle(rest)
    places = [index for index, card in enumerate(other.turn_deck) if card.startswith(("e:", "x:"))]
    for index in places:
        other.turn_deck[index] = rest.pop()
    other.horde = rest
    rng.shuffle(other.turn_deck)
    offered = [defender for defender in other.defenders if defender.seat != seat and defender.skill_offer]
    skills = other.skill_deck + [key for defender in offered for key in defender.skill_offer]
    rng.shuffle(skills)
    for defender in offered:
        defender.skill_offer, skills = skills[:2], skills[2:]
    other.skill_deck = skills
    for pile in (other.artifact_deck, other.caravan_pile, other.war_unused):
        rng.shuffle(pile)
    c = content()
    if not other.boss.revealed:
        kind = c.generals if other.boss.kind == "general" else c.epic_foes
        card = rng.choice(kind)
        other.boss.key, other.boss.region = card.key, card.region
    return other


CASES: list[tuple[str, int, dict[str, Any], Perturb]] = [
    ("tinybigwars", 3, {}, tinybigwars_hidden),
    ("samurai", 4, {}, samurai_hidden),
    ("samurai", 3, {"mode": "lwtv"}, samurai_hidden),
    ("defenders", 2, {"mode": "campaign"}, defenders_hidden),
]


def mid_match_states(game: Game, seats: int, options: dict[str, Any], seed: int, steps: int) -> Iterator[State]:
    """States of a seeded heuristic match: every seventh, and where a sealed answer is in
    while another seat still owes one, the first of each such step and every third after."""
    policy = game.policies()["heuristic"]
    state = game.setup(seats, engine.parse_options(game, options), seed)
    order = random.Random(seed)
    was_pending = False
    for step in range(steps):
        if game.result(state) is not None:
            return
        prompts = game.prompts(state)
        sealed_pending = any(p.secret and p.answered for p in prompts) and any(not p.answered for p in prompts)
        if (sealed_pending and (step % 3 == 0 or not was_pending)) or step % 7 == 0:
            yield state
        was_pending = sealed_pending
        prompt = order.choice([p for p in prompts if not p.answered])
        rng = engine.rng_for(seed, state.step, f"ai:{prompt.seat}")
        state = game.submit(state, prompt.seat, engine.decide(game, policy, state, prompt, rng)).state


def deterministic_policies(game: Game) -> dict[str, Any]:
    """Every policy of ``game``; the search AI bounded by rounds instead of CPU time (a timed
    search may finish another round in one call than in the next), with two candidates, three worlds and
    short rollouts: it deals a world, plays it and compares, only less of it."""
    policies = dict(game.policies())
    policies["search"] = policies["search"].bounded(rounds=3, depth=1, width=2)
    return policies


def seen(game: Game, state: State, seat: int) -> dict[str, Any]:
    """The seat's view, less who has sealed an answer: Samurai's information state clears
    other seats' drafts, so it forgets that they are in (a fact the table knows; forgetting
    it leaks nothing)."""
    view = game.view(state, seat)
    if game.key == "samurai":
        view.pop("waiting")
        for row in view["seats"]:
            row.pop("ready")
    return view


@pytest.mark.parametrize(("key", "seats", "options", "perturb"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_hidden_information_changes_no_choice(key: str, seats: int, options: dict[str, Any], perturb: Perturb) -> None:
    game = engine.get(key)
    policies = deterministic_policies(game)
    assert set(policies) == set(game.policies())
    rng = random.Random(f"honest:{key}")
    checked = sealed = changed = secret = 0
    for state in mid_match_states(game, seats, options, seed=3, steps=400):
        prompts: list[Prompt] = [p for p in game.prompts(state) if not p.answered]
        before = state.model_dump_json()
        sealed += any(p.secret and p.answered for p in game.prompts(state))
        secret += any(p.secret for p in game.prompts(state))
        for prompt in prompts:
            seat = prompt.seat
            other = perturb(state, seat, rng)
            changed += other != state
            info = game.information(state, seat)
            assert info == game.information(other, seat), f"{key} step {state.step}: seat {seat} sees a hidden change"
            assert seen(game, info, seat) == seen(game, state, seat), f"{key} step {state.step}: seat {seat}'s view"
            for name, policy in policies.items():
                choices = [engine.decide(game, policy, world, prompt, random.Random(state.step)) for world in (state, other)]
                assert choices[0] == choices[1], f"{key} {name} step {state.step}: the choice read hidden information"
            checked += 1
        assert state.model_dump_json() == before, "an information state shares parts with the true state: no policy may change them"
    assert checked >= 20 and changed >= 3  # hidden parts really changed
    assert sealed >= 3 or not secret  # a game with sealed choices was checked while some were in


@pytest.mark.parametrize("key", engine.SHIPPED)
def test_the_match_seed_stays_hidden(key: str) -> None:
    """The information state carries a stand-in seed: the same all match long (a policy may
    draw per-match preferences from it), never the seed whose rolls and deals are to come."""
    game = engine.get(key)
    seats = game.info.fewest + 1
    stand_ins = set()
    for state in list(mid_match_states(game, seats, {}, seed=8, steps=60))[:5]:
        for seat in range(seats):
            info = game.information(state, seat)
            assert info.seed != state.seed
            stand_ins.add(info.seed)
    assert len(stand_ins) == 1


@pytest.mark.parametrize(("key", "seats", "options", "perturb"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_determinized_world_fits_what_the_seat_knows(key: str, seats: int, options: dict[str, Any],
                                                     perturb: Perturb) -> None:
    """A world dealt from a seat's information state is a full state the seat cannot tell
    from the true one: same information state, same view; and the rules play on from it."""
    game = engine.get(key)
    rng = random.Random(f"worlds:{key}")
    for state in list(mid_match_states(game, seats, options, seed=5, steps=300))[::4]:
        for prompt in [p for p in game.prompts(state) if not p.answered]:
            info = game.information(state, prompt.seat)
            world = game.determinize(info, prompt.seat, rng)
            again = game.information(world, prompt.seat)
            assert again.model_copy(update={"seed": info.seed}) == info  # the world's dice are its own
            assert seen(game, world, prompt.seat) == seen(game, state, prompt.seat)
            world_prompts = [p for p in game.prompts(world) if p.seat == prompt.seat and not p.answered]
            assert world_prompts, f"{key}: the seat owes nothing in a dealt world"
            choice = engine.decide(game, game.policies()["heuristic"], world, world_prompts[0], rng)
            game.submit(world, prompt.seat, choice)

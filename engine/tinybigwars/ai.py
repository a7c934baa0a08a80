"""AI policies: a random-legal one (property tests) and a heuristic that plays to win.

Both answer any open prompt with a dict ``submit`` accepts; they read the full state, so
they must only ever be used for the seat they play (the service never shows their input).
"""

from __future__ import annotations

import random
from typing import Any

from engine.contract import Prompt
from engine.tinybigwars import combat
from engine.tinybigwars.board import (
    build_cost,
    build_sites,
    hero_card,
    location_coins,
    location_influence,
    recruit_sites,
    units,
)
from engine.tinybigwars.content import content
from engine.tinybigwars.state import TBWState


def _random_force(limit: int, rng: random.Random) -> list[str]:
    """A random legal force: 1+ heroes, then random minion cards and maybe a building."""
    c = content()
    heroes = sorted(c.heroes)
    rng.shuffle(heroes)
    picks: list[str] = []
    left = limit
    for h in heroes:
        if c.heroes[h].cost <= left and (not picks or rng.random() < 0.6):
            picks.append(h)
            left -= c.heroes[h].cost
    if not picks:
        cheapest = min(c.heroes.values(), key=lambda h: (h.cost, h.id))
        picks, left = [cheapest.id], limit - cheapest.cost
    extras = sorted(c.minions) + sorted(c.buildings)
    rng.shuffle(extras)
    building = False
    for x in extras:
        cost = c.minions[x].cost if x in c.minions else c.buildings[x].cost
        if cost <= left and rng.random() < 0.7 and not (x in c.buildings and building):
            picks.append(x)
            left -= cost
            building = building or x in c.buildings
    return picks


class RandomPolicy:
    """Uniformly random among legal answers: drives the property tests."""

    name = "random"

    def choose(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        if prompt.kind == "force":
            return {"picks": _random_force(state.options.point_limit, rng)}
        if prompt.kind == "energy":
            top = prompt.fields[0].max
            attack = rng.randint(0, top)
            return {"attack": attack, "guard": rng.randint(0, top - attack)}
        if prompt.input == "numbers":
            return {f.name: rng.randint(f.min, f.max) for f in prompt.fields}
        if prompt.input == "multi":
            k = rng.randint(prompt.min_picks, max(prompt.min_picks, prompt.max_picks))
            return {prompt.field: [o.value for o in rng.sample(prompt.options, k)]}
        return dict(rng.choice(prompt.options).choice)


HERO_PREFERENCE = ["crane", "shadow", "tiger", "ember", "storm", "goldhand", "lamp", "ironmonk", "warden"]


class HeuristicPolicy:
    """Spreads minions over valuable locations, strikes weak enemy spots, guards heroes."""

    name = "heuristic"

    def choose(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        handler = getattr(self, f"_{prompt.kind}")
        return handler(state, prompt, rng)

    # force building -----------------------------------------------------------------
    def _force(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        c = content()
        limit = state.options.point_limit
        picks: list[str] = []
        left = limit
        reserve = min(8, limit // 3)
        preference = list(HERO_PREFERENCE)
        rng.shuffle(preference)  # vary the clan a little: every listed hero is a sound pick
        preference.sort(key=lambda h: HERO_PREFERENCE.index(h) // 2)
        for h in preference:
            if len(picks) < 3 and c.heroes[h].cost <= left - reserve:
                picks.append(h)
                left -= c.heroes[h].cost
        if not picks:
            cheapest = min(c.heroes.values(), key=lambda h: (h.cost, h.id))
            picks, left = [cheapest.id], limit - cheapest.cost
        for m in sorted(c.minions.values(), key=lambda m: (-m.count / m.cost, -m.count)):
            if m.cost <= left:
                picks.append(m.id)
                left -= m.cost
        for b in ("dojo_charter", "market_charter", "tower_charter"):
            if b in c.buildings and c.buildings[b].cost <= left:
                picks.append(b)
                break
        return {"picks": picks}

    # clan phase ---------------------------------------------------------------------
    def _clan(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        seat = prompt.seat
        builds = build_sites(state, seat)
        if builds:
            node = max(builds, key=lambda n: (-build_cost(state, n, seat), location_influence(state, n)))
            return {"action": "build", "location": node}
        sites = recruit_sites(state, seat)
        if sites and state.seats[seat].coins > 0:
            node = max(sites, key=lambda n: (len(state.heroes_at(n, seat)), -state.loc(n).minions[seat], n))
            return {"action": "recruit", "location": node}
        return {"action": "done"}

    def _recruit(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        return {"count": prompt.fields[0].max}

    def _build(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        return {"infrastructure": "dojo"}

    # activation ---------------------------------------------------------------------
    def _strength(self, state: TBWState, node: str, seat: int, extra_minions: int = 0) -> float:
        heroes = state.heroes_at(node, seat)
        pool = sum(hero_card(h).power for h in heroes) + state.loc(node).minions[seat] + extra_minions
        return pool * 0.5 + sum(h.energy for h in heroes) + sum(h.health for h in heroes) * 0.5

    def _target_value(self, state: TBWState, seat: int, node: str, hero_id: str, bring: int) -> float:
        present = state.present(node)
        worth = location_influence(state, node) + 0.4 * location_coins(state, node)
        if present == [seat]:
            return -0.5
        foes = [x for x in present if x != seat]
        if not foes:
            return worth + 0.5
        hero = state.hero(hero_id)
        mine = 0.5 * hero_card(hero).power + hero.energy + 0.5 * hero.health + 0.5 * bring
        theirs = sum(self._strength(state, node, f) for f in foes)
        if mine >= theirs * 1.4 + 1:
            return worth + 1.0 + units(state, node, foes[0]) * 0.2
        return -2.0

    def _activate(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        seat = prompt.seat
        best, best_score = "pass", 0.0
        for opt in prompt.options:
            if opt.value == "pass":
                continue
            hero = state.hero(opt.value)
            node = hero.location or ""
            bring = max(0, state.loc(node).minions[seat] - 1)
            score = max(
                [self._target_value(state, seat, n, hero.id, bring) for n in state.neighbours(node)] + [0.0]
            )
            score += 0.1 * state.loc(node).minions[seat] + 0.01
            if score > best_score:
                best, best_score = opt.value, score
        return {"hero": best}

    def _action(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        seat = prompt.seat
        hero = state.hero(state.turn.hero or "")
        node = hero.location or ""
        bring = max(0, state.loc(node).minions[seat] - 1)
        scored = []
        for opt in prompt.options:
            if opt.choice.get("action") != "move":
                continue
            to = opt.choice["to"]
            value = self._target_value(state, seat, to, hero.id, bring)
            if value <= 0:
                onward = [
                    self._target_value(state, seat, n, hero.id, bring) for n in state.neighbours(to) if n != node
                ]
                value = max(value, 0.4 * max(onward + [0.0]) - 0.2)
            value += rng.random() * 0.01
            scored.append((value, opt.choice))
        card = hero_card(hero)
        if scored:
            value, choice = max(scored, key=lambda x: x[0])
            if value > 0.2 and (hero.health * 2 >= card.health or value > 1.5):
                return dict(choice)
        values = {o.value for o in prompt.options}
        if "train_health" in values and hero.health < card.health:
            return {"action": "train_health"}
        if "train_energy" in values:
            return {"action": "train_energy"}
        return {"action": "end"}

    def _escort(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        have = prompt.fields[0].max
        hero = state.hero(state.turn.hero or "")
        others = [h for h in state.heroes_at(hero.location or "", prompt.seat) if h.id != hero.id]
        keep = 0 if others else 1
        return {"minions": max(0, have - keep)}

    # combat -------------------------------------------------------------------------
    def _energy(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        cb = state.combat
        assert cb is not None
        seat = prompt.seat
        have = combat.energy_of(state, cb.location, seat)
        incoming = sum(
            combat.split_hits(state, cb, foe, hits).get(seat, 0)
            for foe, hits in zip(cb.seats, cb.hits, strict=True)
            if foe != seat
        )
        exposed = max(0, incoming - state.loc(cb.location).minions[seat])
        guard = min(have, exposed)
        return {"attack": have - guard, "guard": guard}

    def _damage_order(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        best = max(prompt.options, key=lambda o: (state.hero(o.value).health, o.value))
        return dict(best.choice)

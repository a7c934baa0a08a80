"""AI policies: a random-legal one (property tests) and a heuristic that plays to win.

Both answer any open prompt with a dict ``submit`` accepts, from their seat's information
state (engine/tinybigwars/information.py: other seats' sealed forces and energy spends are
placeholders there).
"""

from __future__ import annotations

import random
from typing import Any, cast

from engine.contract import Prompt
from engine.tinybigwars import combat
from engine.tinybigwars.board import (
    build_sites,
    charter_sites,
    controlled,
    hero_card,
    location_influence,
    recruit_sites,
)
from engine.tinybigwars.builds import draw_build
from engine.tinybigwars.content import content
from engine.tinybigwars.rules import activatable, move_targets
from engine.tinybigwars.state import Hero, TBWState
from engine.tinybigwars.sums import chance_at_least
from engine.tinybigwars.tactics import (
    HERO_WORTH,
    Snapshot,
    clan_influence,
    decision_memo,
    exposure,
    forecast,
    leader_threat,
    pressure,
    snapshot,
    threat,
    worth,
)


def random_force(limit: int, rng: random.Random) -> list[str]:
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
    for extra in extras:
        cost = c.minions[extra].cost if extra in c.minions else c.buildings[extra].cost
        if cost <= left and rng.random() < 0.7 and not (extra in c.buildings and building):
            picks.append(extra)
            left -= cost
            building = building or extra in c.buildings
    return picks


class RandomPolicy:
    """Uniformly random among legal answers: drives the property tests."""

    name = "random"

    def choose(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        if prompt.kind == "force":
            return {"picks": random_force(state.options.point_limit, rng)}
        if prompt.kind == "energy":
            top = prompt.fields[0].max
            attack = rng.randint(0, top)
            return {"attack": attack, "guard": rng.randint(0, top - attack)}
        if prompt.input == "numbers":
            return {f.name: rng.randint(f.min, f.max) for f in prompt.fields}
        if prompt.input == "multi":
            count = rng.randint(prompt.min_picks, max(prompt.min_picks, prompt.max_picks))
            return {prompt.field: [o.value for o in rng.sample(prompt.options, count)]}
        return dict(rng.choice(prompt.options).choice)


_NOISE_MARGIN = 1e-9
"""Far above the rounding of a score plus its noise, far below any difference that matters."""


def _clear_winner(values: list[float], spread: float) -> int | None:
    """The index of the value that stays the only greatest whatever noise in [0, ``spread``)
    is added to each, or None when the noise could change which is."""
    top = max(values)
    best = values.index(top)
    for index, value in enumerate(values):
        if index != best and value + spread + _NOISE_MARGIN >= top:
            return None
    return best


def _sole_top(ranks: list[tuple[float, int]]) -> int | None:
    """The index of the one greatest of ``ranks``, None on a tie (which chance breaks)."""
    top = max(ranks)
    return ranks.index(top) if ranks.count(top) == 1 else None


def _own_draws(rng: random.Random) -> bool:
    """Whether ``rng`` serves one decision alone and is seeded on its first draw (engine/rng.py
    `lazy_rng_for`: what the drivers hand a policy), so that leaving its noise undrawn changes
    nothing else. A `random.Random` may be shared by many decisions (a search AI's playout
    draws every decision from one): each of those draws all its noise, as always."""
    return not isinstance(rng, random.Random)


def _pick_without_noise(values: list[float], spread: float, floor: float) -> tuple[bool, int | None]:
    """Which of ``values``, each with noise in [0, ``spread``) added, is the first greatest
    above ``floor`` (None: none is above it), where the noise cannot change the answer:
    (True, that answer); (False, None) where it could, and so must be drawn.

    A decision's RNG is seeded on its first draw (engine/rng.py `lazy_rng_for`), which costs
    as much as a small rule; a decision whose noise could not change its answer skips it."""
    if not values:
        return True, None
    top = max(values)
    if top + spread + _NOISE_MARGIN <= floor:
        return True, None
    best = _clear_winner(values, spread) if top > floor + _NOISE_MARGIN else None
    return best is not None, best


_BOARD_KINDS = frozenset({"activate", "action", "escort"})
"""The decisions whose snapshot figures are kept for the next on the same board: the move
evaluations (most of the heuristic's time) of a hero's activation and actions, and the
escort that follows a move on the board it was chosen on. Over 20 three-seat matches an
action found its board kept 488 times in 1,269, an escort 889 in 889; a build (after a clan
decision, not kept) never would."""


_PLAIN_KINDS = frozenset({"force", "recruit", "energy", "damage_order"})
"""The decisions that read a few figures of the state once each: a snapshot (engine/tinybigwars/
tactics.py) would cost them more than it keeps."""


class HeuristicPolicy:
    """Varied sound forces; expands, builds all three infrastructures, strikes where the odds
    are good and breaks the hold of a clan close to winning."""

    name = "heuristic"

    def choose(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        kind = prompt.kind
        if kind in _PLAIN_KINDS:
            return getattr(self, f"_{kind}")(state, prompt, rng)
        return getattr(self, f"_{kind}")(snapshot(state, kind in _BOARD_KINDS), prompt, rng)

    # force building -----------------------------------------------------------------
    def _force(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        limit = state.options.point_limit
        build = draw_build(limit, rng)
        return {"picks": build if build is not None else random_force(limit, rng)}

    # clan phase ---------------------------------------------------------------------
    def _infrastructure_scores(self, state: TBWState, node: str, seat: int) -> dict[str, float]:
        """How much each infrastructure would help ``seat`` at ``node`` now."""
        danger = threat(state, node, seat)
        rounds_left = max(1.0, 6.0 - state.round - 4 * leader_threat(state, seat) - 3 * pressure(state, seat))
        start = state.loc(node).start_seat == seat
        dojo = (1.0 + pressure(state, seat)) * (1 - 0.6 * danger)
        if clan_influence(state, seat) + 1 >= state.options.to_win:
            dojo += 3.0
        return {
            "dojo": dojo,
            "market": 0.35 * rounds_left * (1 - 0.6 * danger),
            "watchtower": danger * worth(state, node, seat) * 0.8 + (0.3 if start else 0.0),
        }

    def _best_infrastructure(self, state: TBWState, node: str, seat: int, rng: random.Random,
                             draw: bool = True) -> tuple[str, float]:
        """The infrastructure with the best score plus noise (in name order on a tie) and its
        score; ``draw`` False: without drawing the noise where it cannot change which."""
        scores = self._infrastructure_scores(state, node, seat)
        if not draw:
            names = list(scores)  # the names in sorted order, as they are drawn
            winner = _clear_winner(list(scores.values()), 0.4)
            if winner is not None:
                return names[winner], scores[names[winner]]
        noisy = {infrastructure: score + rng.uniform(0, 0.4) for infrastructure, score in scores.items()}
        best = max(sorted(noisy), key=lambda infrastructure: noisy[infrastructure])
        return best, scores[best]

    def _charter_site(self, state: TBWState, seat: int, rng: random.Random, held: list[str]) -> str | None:
        """Where to place the Building card's infrastructure now, or None to wait.

        A Market pays from the first round, so it goes down at once. A Dojo or Watchtower
        waits for a site other than the start node (the best Market site) until round 3.
        """
        kind = state.seats[seat].charters[0]
        sites = charter_sites(state, seat, held)
        if not sites:
            return None
        scored = []
        for node in sites:
            away = state.loc(node).start_seat != seat
            value = self._infrastructure_scores(state, node, seat)[kind] + (0.6 if away and kind != "market" else 0.0)
            if kind == "dojo":
                value -= threat(state, node, seat)
            scored.append((value + rng.uniform(0, 0.2), node, away))
        _, node, away = max(scored)
        if kind == "market" or away or state.round >= 3:
            return node
        return None

    def _clan(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        seat = prompt.seat
        held = controlled(state, seat)
        if state.seats[seat].charters:
            node = self._charter_site(state, seat, rng, held)
            if node is not None:
                return {"action": "charter", "location": node}
        if state.seats[seat].coins <= 0:
            return {"action": "done"}
        builds = build_sites(state, seat, held)
        if builds:
            scored = [
                (self._best_infrastructure(state, n, seat, rng)[1] + location_influence(state, n) * 0.1, rng.random(), n)
                for n in builds
            ]
            value, _, node = max(scored)
            if value >= 0.5:
                return {"action": "build", "location": node}
        sites = recruit_sites(state, seat, held)
        if sites and state.seats[seat].coins > 0:
            # ties fall to chance, never to node names: those differ from seat to seat
            if not state.seats[seat].charters and not builds and _own_draws(rng):  # nothing drawn yet: only a tie draws
                ranks = [(threat(state, n, seat) + 0.3 * len(state.heroes_at(n, seat)), -state.loc(n).minions[seat])
                         for n in sites]
                sole = _sole_top(ranks)
                if sole is not None:
                    return {"action": "recruit", "location": sites[sole]}
            node = max(
                sites,
                key=lambda n: (
                    threat(state, n, seat) + 0.3 * len(state.heroes_at(n, seat)),
                    -state.loc(n).minions[seat],
                    rng.random(),
                ),
            )
            return {"action": "recruit", "location": node}
        return {"action": "done"}

    def _recruit(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        return {"count": state.seats[prompt.seat].coins}  # every coin: the prompt's most

    def _build(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        node = state.seats[prompt.seat].pending_location or ""
        return {"infrastructure": self._best_infrastructure(state, node, prompt.seat, rng,
                                                             draw=not _own_draws(rng))[0]}

    # activation ---------------------------------------------------------------------
    def _denial(self, state: TBWState, node: str, seat: int) -> float:
        """What breaking the current owner's hold on ``node`` is worth to ``seat`` (once per
        decision)."""
        memo = decision_memo(state)
        key = ("denial", node, seat)
        found = memo.get(key)
        if found is None:
            owner = state.controller(node)
            found = 0.0
            if owner is not None and owner != seat:
                found = worth(state, node, owner) * (0.5 + 1.5 * pressure(state, owner))
                if clan_influence(state, owner) >= state.options.to_win:
                    found += 4.0
            memo[key] = found
        return found

    def _step_gain(self, state: TBWState, seat: int, hero: Hero, node: str, bring: int) -> float:
        """Value of the hero (with ``bring`` minions) arriving at ``node``."""
        present = state.present(node)
        if len(present) == 1 and present[0] == seat:
            danger = threat(state, node, seat)
            return -0.3 + danger * worth(state, node, seat) * 0.4 * min(1.0, bring / 3)
        if not present:
            return worth(state, node, seat) + 0.2
        return self._fight_gain(state, seat, hero, node, bring)

    def _fight_gain(self, state: TBWState, seat: int, hero: Hero, node: str, bring: int) -> float:
        """`_step_gain` where another clan's units wait at ``node``."""
        _, wipe, _, hero_loss, expected_kills, expected_losses = forecast(state, seat, hero, node, bring)
        denial = self._denial(state, node, seat)
        prize = worth(state, node, seat) + denial
        return (
            wipe * prize
            + (1 - wipe) * 0.4 * denial
            - hero_loss * HERO_WORTH
            + 0.3 * (expected_kills - expected_losses)
        )

    def _leaving_cost(self, state: TBWState, seat: int, hero: Hero, bring: int) -> float:
        """What the hero's current location loses when it leaves with ``bring`` minions (once
        per decision)."""
        memo = decision_memo(state)
        key = ("leaving", seat, hero.id, bring)
        found = memo.get(key)
        if found is None:
            node = hero.location or ""
            stay = state.loc(node).minions[seat] - bring + len(state.heroes_at(node, seat)) - 1
            if state.controller(node) != seat:
                found = 0.0
            elif stay <= 0:
                found = worth(state, node, seat) * 0.9
            else:
                found = threat(state, node, seat) * worth(state, node, seat) * 0.4
            memo[key] = found
        return found

    def _bring(self, state: TBWState, seat: int, hero: Hero, to: str) -> int:
        """Minions to take along: all but one holder (none when another hero stays). It
        depends on ``to`` only through whether a fight waits there: once per decision each."""
        there = state.present(to)
        fight = bool(there) and not (len(there) == 1 and there[0] == seat)  # another clan's units wait there
        memo = state.memo if isinstance(state, Snapshot) else decision_memo(state)
        key = ("bring", seat, hero.id, fight)
        found = memo.get(key)
        if found is None:
            node = hero.location or ""
            have = state.loc(node).minions[seat]
            others = [h for h in state.heroes_at(node, seat) if h.id != hero.id]
            keep = 0 if others or state.controller(node) != seat else 1
            if not fight and threat(state, node, seat) > 0.5 and worth(state, node, seat) >= 1.5:
                keep = max(keep, have // 2)
            found = memo[key] = max(0, have - keep)
        return int(found)

    def _exposure_cost(self, state: TBWState, seat: int, hero: Hero, node: str, stack: int) -> float:
        """What ending the activation at ``node`` with ``stack`` minions risks from enemy heroes next door."""
        toughness = stack + state.loc(node).minions[seat] + hero.health + hero.energy
        if not isinstance(state, Snapshot):
            return exposure(state, node, seat, toughness) * (0.5 * worth(state, node, seat) + HERO_WORTH * 0.5)
        worst = 0.0  # `exposure` over the snapshot, written out (the same chances, the same greatest)
        for foe, dice, energy in state.threats_near(node):
            if foe != seat:
                chance = chance_at_least(dice, 0.6 * energy, toughness)
                if chance > worst:
                    worst = chance
        return worst * (0.5 * state.worth_of(node) + HERO_WORTH * 0.5)

    def _move_value(self, state: TBWState, seat: int, hero: Hero, to: str, actions: int) -> float:
        """What moving ``hero`` to ``to`` with ``actions`` left is worth (kept with the
        board's figures: a hero's first action asks what its activation asked)."""
        memo = state.memo if isinstance(state, Snapshot) else decision_memo(state)
        key = ("move", seat, hero.id, to, actions)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._move_value_of(state, seat, hero, to, actions)
        return found

    def _move_value_of(self, state: TBWState, seat: int, hero: Hero, to: str, actions: int) -> float:
        if isinstance(state, Snapshot):
            return self._move_value_over(state, seat, hero, to, actions)
        bring = self._bring(state, seat, hero, to)
        value = self._step_gain(state, seat, hero, to, bring) - self._leaving_cost(state, seat, hero, bring)
        stay = self._exposure_cost(state, seat, hero, to, bring)
        if actions > 1:
            carried = max(0, bring - (0 if seat in state.present(to) else 1))
            best = max(self._onward(state, seat, hero, to, carried), default=-stay)
            value += 0.6 * best if best > -stay else -stay
        else:
            value -= stay
        return value

    def _move_value_over(self, state: Snapshot, seat: int, hero: Hero, to: str, actions: int) -> float:
        """`_move_value_of` over the snapshot: `_bring`, `_step_gain`, `_leaving_cost` and
        `_exposure_cost` written out around one read of who is at ``to`` (the same terms in the
        same order, so the same number)."""
        plain = cast(TBWState, state)  # the snapshot as the state the helpers are typed for
        present = state.present(to)
        held = len(present) == 1 and present[0] == seat
        bring = state.memo.get(("bring", seat, hero.id, bool(present) and not held))
        bring = self._bring(plain, seat, hero, to) if bring is None else int(bring)
        worth_here = state.worth_of(to)
        if held:
            gain = -0.3 + state.threat_of(to, seat) * worth_here * 0.4 * min(1.0, bring / 3)
        elif not present:
            gain = worth_here + 0.2
        else:
            gain = self._fight_gain(plain, seat, hero, to, bring)
        value = gain - self._leaving_cost(plain, seat, hero, bring)
        toughness = bring + state._locations[to].minions[seat] + hero.health + hero.energy
        worst = 0.0
        for foe, dice, energy in state.threats_near(to):
            if foe != seat:
                chance = chance_at_least(dice, 0.6 * energy, toughness)
                if chance > worst:
                    worst = chance
        stay = worst * (0.5 * worth_here + HERO_WORTH * 0.5)
        if actions > 1:
            carried = max(0, bring - (0 if seat in present else 1))
            onward = self._onward_best(state, seat, hero, to, carried)
            best = -stay if onward is None else onward
            value += 0.6 * best if best > -stay else -stay
        else:
            value -= stay
        return value

    def _onward(self, state: TBWState, seat: int, hero: Hero, to: str, carried: int) -> list[float]:
        """`_step_gain` less `_exposure_cost` of arriving with ``carried`` minions at every
        location one move on from ``to`` (but back where the hero stands), in road order
        (over a snapshot, `_onward_best` gives their greatest)."""
        origin = hero.location or ""
        return [self._step_gain(state, seat, hero, n, carried) - self._exposure_cost(state, seat, hero, n, carried)
                for n in state.neighbours(to) if n != origin]

    def _onward_best(self, state: Snapshot, seat: int, hero: Hero, to: str, carried: int) -> float | None:
        """The greatest of `_onward` over the snapshot (None: no location one move on).

        Most of the heuristic's time: `_step_gain` and `_exposure_cost` are written out here
        for the locations without a fight (the same terms in the same order, so the same
        numbers), and the greatest kept as the loop goes."""
        origin = hero.location or ""
        present_of, worth_of, threat_of = state.present, state.worth_of, state.threat_of
        threats_near, locations = state.threats_near, state._locations
        plain = cast(TBWState, state)
        share = min(1.0, carried / 3)
        escort = carried + hero.health + hero.energy  # ints: the toughness below adds the minions there
        best: float | None = None
        for n in state.topology().neighbours(to):
            if n == origin:
                continue
            present = present_of(n)
            worth_here = worth_of(n)
            if len(present) == 1 and present[0] == seat:
                gain = -0.3 + threat_of(n, seat) * worth_here * 0.4 * share
            elif not present:
                gain = worth_here + 0.2
            else:
                gain = self._fight_gain(plain, seat, hero, n, carried)
            toughness = locations[n].minions[seat] + escort
            worst = 0.0
            for foe, dice, energy in threats_near(n):
                if foe != seat:
                    chance = chance_at_least(dice, 0.6 * energy, toughness)
                    if chance > worst:
                        worst = chance
            value = gain - worst * (0.5 * worth_here + HERO_WORTH * 0.5)
            if best is None or value > best:
                best = value
        return best

    def _activate(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        seat = prompt.seat
        heroes = activatable(state, seat)  # the prompt's options but Pass, in order
        scores = []
        for hero in heroes:
            node = hero.location or ""
            actions = 3 if hero_card(hero).ability == "three_actions" else 2
            scores.append(max([self._move_value(state, seat, hero, n, actions) for n in state.neighbours(node)] + [0.0]))
        sure, pick = _pick_without_noise(scores, 0.05, 0.15) if _own_draws(rng) else (False, None)
        if not sure:
            best_score = 0.15
            for index, score in enumerate(scores):
                score += rng.random() * 0.05
                if score > best_score:
                    pick, best_score = index, score
        return {"hero": "pass" if pick is None else heroes[pick].id}

    def _action(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        seat = prompt.seat
        hero = state.hero(state.turn.hero or "")
        card = hero_card(hero)
        targets = move_targets(state, hero.location or "")  # the prompt's move options, in order
        values = [self._move_value(state, seat, hero, to, state.turn.actions) for to in targets]
        # a move worth more than 0.2, or than 1.5 for a hero below half health
        sure, pick = (_pick_without_noise(values, 0.02, 0.2 if hero.health * 2 >= card.health else 1.5)
                      if _own_draws(rng) else (False, None))
        if sure:
            if pick is not None:
                return {"action": "move", "to": targets[pick]}
        elif values:
            value, to = max([(value + rng.random() * 0.02, to) for value, to in zip(values, targets, strict=True)],
                            key=lambda entry: entry[0])
            if value > 0.2 and (hero.health * 2 >= card.health or value > 1.5):
                return {"action": "move", "to": to}
        # the prompt offers training only below the card's health or energy
        if hero.health < card.health:
            return {"action": "train_health"}
        if hero.energy < card.max_energy:
            return {"action": "train_energy"}
        return {"action": "end"}

    def _escort(self, state: TBWState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        hero = state.hero(state.turn.hero or "")
        bring = self._bring(state, prompt.seat, hero, state.turn.move_to or "")
        # the prompt's most: every minion where the hero stands
        return {"minions": min(state.loc(hero.location or "").minions[prompt.seat], bring)}

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

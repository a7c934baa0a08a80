"""AI policies: `choose(state, prompt, rng) -> dict`.

RandomPolicy (engine/samurai/random_policy.py, re-exported here) picks any legal answer;
HeuristicPolicy plays to take provinces: it buys cheap troops, gathers them into armies,
attacks where it is clearly stronger and claims empty land. Both only submit answers the engine accepts.
Both receive their seat's information state (engine/samurai/information.py): opponents'
screens are empty there, so the heuristic reads opponents' public facts (garrisons, army
markers) and guesses what their screens hide.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Mapping
from operator import is_
from typing import Any

from engine.contract import Prompt
from engine.rng import rng_for
from engine.samurai import muster, ninja, setup_placement, victory
from engine.samurai.battle import battle_sides, owed_losses
from engine.samurai.board import (
    active,
    armies_by_spot,
    army_at,
    army_province,
    army_regulars,
    deploy_targets,
    garrison_size,
    held_count,
    incomes,
    regulars_in,
)
from engine.samurai.combat import side_size
from engine.samurai.content import content
from engine.samurai.garrison_forces import ronin_escort
from engine.samurai.information import kept_screened
from engine.samurai.movement import (
    army_moves,
    attack_targets,
    declare_sources,
    garrison_attackers,
    garrison_sources,
    garrison_targets,
    gather_count,
)
from engine.samurai.random_policy import RandomPolicy as RandomPolicy
from engine.samurai.random_policy import random_plan as random_plan
from engine.samurai.state import SamuraiState, owner_index
from engine.samurai.war_prompts import units_answer

# ---------------------------------------------------------------- heuristic


ATTACK_MARGIN = (1.0, 0.5)
"""Attack when our head count is at least a * what we see + b: bold enough that matches
end by conquest (the benchmark's share), careful enough not to throw armies away."""
WEAK_FOE_BONUS = 3.0
"""Score factor for provinces of the weakest opponent: breaking one house (its armies and
land pass to the eliminator in base and QS) ends matches sooner than nibbling at all."""


def army_guess(state: SamuraiState, seat: int) -> dict[int, float]:
    """The regular units each opponent's army is guessed to hold (its screen is hidden).

    The guess reads only what ``seat`` may know: its own armies' mean size, scaled by the
    opponent's income against its own (the same economy fills both), and never more than
    the opponent could have (its units off the board, an army card's room). An army's level
    says how often it attacked and won, not how full it is: a level-5 daimyo whose army
    fought itself empty is a lone daimyo."""
    players = state.players
    mine = [army_regulars(army) for army in players[seat].armies if army.alive]
    mean = sum(mine) / len(mine) if mine else 0.0
    limits = content().units.limits
    room = float(limits.army_samurai + limits.army_ashigaru)
    earned = incomes(state)
    my_income = earned[seat]
    guesses: dict[int, float] = {}
    for player in players:
        if player.seat == seat or player.eliminated:
            continue
        alive = [army for army in player.armies if army.alive]
        if not alive:
            continue
        off_board = sum(player.tray.values()) + sum([army_regulars(army) for army in alive])
        mirror = mean * (earned[player.seat] + 1) / (my_income + 1)
        guesses[player.seat] = min(mirror, off_board / len(alive), room)
    return guesses


def enemy_strength(state: SamuraiState, seat: int, pid: str, guesses: dict[int, float] | None = None) -> float:
    """What we expect defending a province: garrison, fortification, revealed ronin and an
    army (its daimyo, its revealed ronin and the units `army_guess` puts behind its screen)."""
    return _strength(state, seat, pid, guesses, armies_by_spot(state))


def _strength(state: SamuraiState, seat: int, pid: str, guesses: dict[int, float] | None,
              spots: Mapping[str, tuple[int, Any]]) -> float:
    """`enemy_strength` given where armies stand (`armies_by_spot`, read once by a caller
    weighing many provinces)."""
    prov = state.provinces[pid]
    owner = prov.owner
    if owner is None and not prov.neutral:
        return 0.0
    get = prov.garrison.get  # garrison_size, spelled out: asked of every target a decision weighs
    strength = float(get("spearman", 0) + get("gunner", 0) + get("swordsman", 0) + get("bowman", 0))
    if prov.ronin_revealed:
        strength += prov.ronin
    if prov.fort:
        strength += 4 if prov.fort == 1 else 6
    found = spots.get(pid)
    if found and found[0] != seat:
        strength += hidden_army_estimate(state, seat, found[0], found[1], guesses)
    return strength


def hidden_army_estimate(state: SamuraiState, seat: int, owner: int, army: Any,
                         guesses: dict[int, float] | None = None) -> float:
    """An opponent's army as ``seat`` can expect it: the daimyo (unless assassinated), the
    ronin it has shown, the units its screen is guessed to hold, and what is in plain sight
    (an information state keeps the units of an army whose screen is not hidden)."""
    if guesses is None:
        guesses = army_guess(state, seat)
    shown = army_regulars(army)
    hidden = guesses.get(owner, 0.0) if shown == 0 else 0.0
    return (0 if army.assassinated else 1) + shown + hidden + (army.ronin if army.ronin_revealed else 0)


def own_army_strength(army: Any) -> float:
    return army_regulars(army) + 1 + army.ronin


def garrison_strength(state: SamuraiState, pid: str) -> float:
    """A garrison force's head count: the units that may leave and the ronin going along."""
    regulars = garrison_attackers(state, pid)
    return float(regulars + ronin_escort(state.provinces[pid].ronin, regulars))


def frontier(state: SamuraiState, seat: int, pid: str) -> int:
    """How many neighbours of ``pid`` are not ``seat``'s (a placement weighs every spot by it).
    Kept in the owner index while no owner changes: a seat's placements, builds and spears
    weigh the same provinces decision after decision."""
    counts = owner_index(state).frontiers
    found = counts.get((seat, pid))
    if found is None:
        provinces = state.provinces
        found = counts[(seat, pid)] = len([neighbour for neighbour in content().adj[pid]
                                           if provinces[neighbour].owner != seat])
    return found


def foe_preference(state: SamuraiState, seat: int) -> dict[int, float]:
    """A seeded tie-break among opponents, fixed for one seat and one round. Breaking ties by
    seat number made every heuristic seat pick on the lowest seat while the land was still
    even, and the low seats lost far more often (20/21/37/43 wins of 121 for seats 0-3)."""
    return dict(_foe_preference(state.seed, state.round, seat, state.seats))


@functools.lru_cache(maxsize=64)
def _foe_preference(seed: int, round_number: int, seat: int, seats: int) -> tuple[tuple[int, float], ...]:
    """`foe_preference`, drawn once per seed, round and seat (every decision asks)."""
    rng = rng_for(seed, round_number, f"foe:{seat}")
    return tuple((other, rng.random()) for other in range(seats))


def weakest_foe(state: SamuraiState, seat: int) -> int | None:
    """The living opponent with the fewest provinces (ties: the seeded foe preference)."""
    foes = [foe for foe in active(state) if foe != seat]
    if not foes:
        return None
    preference = _foe_preference(state.seed, state.round, seat, state.seats)  # (foe, its draw) by seat
    held = owner_index(state).owned  # `held_count` of every foe from one index
    return min(foes, key=lambda foe: (len(held.get(foe, ())), preference[foe][1]))


class _Decision(threading.local):
    """The state one heuristic decision reads (in this thread) and what it worked out once of
    it: a decision weighs several sources and targets against the same weakest foe and army
    guess, and a policy never changes the state it is given, so each is worked out once a
    decision. Outside a decision (another state, a caller of its own) nothing is kept.

    ``now`` holds the three at once (the state, `foes_seen` by seat, and by seat and province
    the target's `enemy_strength` and whether the weakest foe holds it: a decision weighs the
    same targets from many sources, every province an army might move to): one read of a
    thread-local attribute a call."""

    now: tuple[SamuraiState | None, dict[int, tuple[int | None, dict[int, float]]],
               dict[int, dict[str, tuple[float, bool]]]]

    def __init__(self) -> None:
        self.now = (None, {}, {})


_DECISION = _Decision()


def foes_seen(state: SamuraiState, seat: int) -> tuple[int | None, dict[int, float]]:
    """`weakest_foe` and `army_guess` of ``seat``, once a decision (read them, never change
    them)."""
    now = _DECISION.now
    if now[0] is not state:
        return weakest_foe(state, seat), army_guess(state, seat)
    found = now[1].get(seat)
    if found is None:
        found = now[1][seat] = _foes_kept(state, seat)
    return found


def _foes_kept(state: SamuraiState, seat: int) -> tuple[int | None, dict[int, float]]:
    """`foes_seen` worked out afresh, or as the last decision of ``seat`` worked it out while
    all it reads is as it was then: the seat's own living armies' units, the provinces each
    seat holds, the round, the turn order, the LWTV bonus province, and the other players,
    when each is the very screened player the information state kept giving (which nobody
    changes: engine/samurai/information.py). Between a seat's decisions the other houses
    rarely change (a muster's placements, one declaration after another). The very players
    list of then (an information state keeps its seat's list while every player in it is the
    same) holds those same players."""
    players = state.players
    kept = _FOES_KEPT.get(seat)
    if kept is None or kept[1] is not players:
        others = [player for player in players if player.seat != seat]
        if not all(map(kept_screened, others)):
            return weakest_foe(state, seat), army_guess(state, seat)
        if kept is not None and (len(kept[2]) != len(others) or not all(map(is_, kept[2], others))):
            kept = None
    else:
        others = kept[2]
    held = owner_index(state).owned
    lwtv = state.options.mode == "lwtv"
    key = (state.seed, state.round, state.seats, tuple(state.order), lwtv,
           state.provinces["settsu"].owner if lwtv else None,
           tuple([len(held.get(one, ())) for one in range(state.seats)]),
           tuple([army_regulars(army) for army in players[seat].armies if army.alive]))
    if kept is not None and kept[0] == key:
        if kept[1] is not players:
            _FOES_KEPT[seat] = (key, players, others, kept[3])
        return kept[3]
    found = (weakest_foe(state, seat), army_guess(state, seat))
    _FOES_KEPT[seat] = (key, players, others, found)
    return found


_FOES_KEPT: dict[int, tuple[tuple[object, ...], list[Any], list[Any], tuple[int | None, dict[int, float]]]] = {}
"""Per seat: what `_foes_kept` read at its last decision, the players list and the other
players then, and the answer."""


def best_target(state: SamuraiState, seat: int, source: str, force: float) -> tuple[float, str] | None:
    """The attack from ``source`` with ``force`` that scores best (None: no target is weak
    enough), as (score, target)."""
    weakest, guesses = foes_seen(state, seat)
    now = _DECISION.now
    known: dict[str, tuple[float, bool]] | None = now[2].get(seat) if now[0] is state else {}
    if known is None:
        known = now[2][seat] = {}
    by_sea = content().sea_only[source]
    spots = None
    best = None
    for target in attack_targets(state, seat, source):
        found = known.get(target)
        if found is None:
            if spots is None:
                spots = armies_by_spot(state)
            owner = state.provinces[target].owner
            found = known[target] = (_strength(state, seat, target, guesses, spots),
                                     owner is not None and owner == weakest)
        need, weak = found
        if target in by_sea:
            need *= 1.5
        if need == 0:
            score = 10.0
        elif force >= ATTACK_MARGIN[0] * need + ATTACK_MARGIN[1]:
            score = force / need
        else:
            continue
        if weak:
            score *= WEAK_FOE_BONUS
        if best is None or score > best[0]:
            best = (score, target)
    return best


class HeuristicPolicy:
    """Takes provinces: troops into armies, attacks where clearly stronger, claims empty land."""

    name = "heuristic"

    def choose(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        if prompt.answered:
            return dict(prompt.default)  # a sealed answer already given: keep it
        method = getattr(self, f"_{prompt.kind}", None)
        if method is not None:
            decision = _DECISION
            outer = decision.now
            decision.now = (state, {}, {})
            try:
                got = method(state, prompt, rng)
            finally:
                decision.now = outer
            if got is not None:
                return got
        return dict(prompt.default)

    # setup
    def _spear(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any] | None:
        candidates = setup_placement.spear_targets(state, prompt.seat)
        if not candidates:
            return None
        drafted = state.players[prompt.seat].draft.get("spears", [])
        pid = max(candidates, key=lambda spot: (frontier(state, prompt.seat, spot), -state.provinces[spot].garrison["spearman"]
                                        - drafted.count(spot), spot))
        return {"act": "spear", "province": pid}

    def _claim(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any] | None:
        candidates = setup_placement.claim_targets(state, prompt.seat)
        if not candidates:
            return None
        adj = content().adj

        def score(pid: str) -> tuple[int, str]:
            return (sum(1 for count in adj[pid] if state.provinces[count].owner == prompt.seat), pid)
        return {"act": "claim", "province": max(candidates, key=score)}

    def _deploy(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any] | None:
        candidates = setup_placement.deploy_spots(state, prompt.seat)
        if not candidates:
            return None
        pid = max(candidates,
                  key=lambda spot: (garrison_size(state.provinces[spot].garrison) + frontier(state, prompt.seat, spot), spot))
        return {"act": "deploy", "province": pid}

    def _rebuild(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any] | None:
        candidates = deploy_targets(state, prompt.seat)
        if not candidates:
            return None
        pid = max(candidates, key=lambda spot: (garrison_size(state.provinces[spot].garrison), spot))
        return {"act": "rebuild", "province": pid}

    # economy
    def _plan(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        kind = state.players[prompt.seat].koku
        plan = {"swords": 0, "build": 0, "levy": 0, "ronin": 0, "ninja": 0}
        if kind >= 8 and muster.build_targets(state, prompt.seat):
            plan["build"] = 2
        if kind >= 5:
            plan["swords"] = 1
        if kind >= 6:
            plan["ronin"] = 1
        plan["levy"] = kind - sum(plan.values())
        return plan

    _plan_revise = _plan

    def _levy(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        player = state.players[prompt.seat]
        budget = player.plan.levy if player.plan else 0
        costs = state.options.levy_costs
        cap = held_count(state, prompt.seat)
        got = {"spearman": 0, "gunner": 0, "swordsman": 0, "bowman": 0}
        count = min(cap, budget // max(1, costs["spearman"]), player.tray["spearman"])
        got["spearman"] = count
        budget -= count * costs["spearman"]
        for kind in ("swordsman", "bowman", "gunner"):
            while (got["spearman"] > 0 and budget >= costs[kind] - costs["spearman"]
                   and got[kind] < player.tray[kind]):
                got["spearman"] -= 1
                got[kind] += 1
                budget -= costs[kind] - costs["spearman"]
        return got

    def _place(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any] | None:
        draft = state.players[prompt.seat].draft
        if not draft.get("todo"):
            return {"act": "keep"}
        spots = muster.place_spots(state, prompt.seat, draft["todo"][0])
        if not spots:
            return {"act": "skip"}
        fronts: dict[str, int] = {}  # a province with an army is a spot twice: its frontier counted once

        def rank(spot: tuple[str, str]) -> tuple[bool, int, int, str]:
            pid = spot[0]
            front = fronts.get(pid)
            if front is None:
                front = fronts[pid] = frontier(state, prompt.seat, pid)
            return spot[1] == "army", front, -garrison_size(state.provinces[pid].garrison), pid
        pid, to = max(spots, key=rank)
        return {"act": "place", "province": pid, "to": to}

    def _ronin(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any] | None:
        draft = state.players[prompt.seat].draft
        todo = draft.get("ronin_todo", 0)
        if todo <= 0:
            return {"act": "keep"}
        spots = muster.ronin_spots(state, prompt.seat)
        if not spots:
            return {"act": "release"}
        pid, to, room = max(spots, key=lambda seat: (seat[1] == "army", seat[2], seat[0]))
        return {"act": "ronin", "province": pid, "to": to, "count": min(room, todo)}

    def _build(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any] | None:
        candidates = muster.build_targets(state, prompt.seat)
        if not candidates:
            return {"act": "forfeit"}
        pid, _ = max(candidates,
                     key=lambda candidate: (frontier(state, prompt.seat, candidate[0]),
                                            regulars_in(state, candidate[0]), candidate[0]))
        return {"act": "build", "province": pid}

    def _sword(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any] | None:
        """Sword 1 when naming a sealed wish (the prompt's default, worked out without building
        it); a classic queued pick takes its prompt's default."""
        if state.options.steps == "combined":
            return {"act": "sword", "position": 1}
        return None

    def _spy(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        return {"act": "decline"}

    def _ninja(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        targets = ninja.ninja_targets(state, prompt.seat)
        if not targets:
            return {"act": "pass"}
        preference = foe_preference(state, prompt.seat)
        seat, army = max(targets,
                         key=lambda task: (held_count(state, task[0]), task[1].level, preference[task[0]],
                                           -task[1].idx))
        return {"act": "assassinate", "seat": seat, "army": army.idx}

    # war
    def _casualties(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        """Lose the weakest dice first; among equals ronin (they leave at the end of the round
        anyway), then the units that have already struck before the next step, then the
        cheaper to levy again."""
        war = state.war
        assert war is not None and war.battle is not None and war.battle.pending is not None
        struck = "ranged" if war.battle.pending.step == "ranged" else "melee"
        units = content().units.units
        costs = state.options.levy_costs

        def order(kind: str) -> tuple[int, int, int, int]:
            return (units[kind].value, kind != "ronin", units[kind].step != struck, costs.get(kind, 0))
        room, left = owed_losses(state, prompt.seat)  # the prompt's fields and its default's total, unbuilt
        losses = dict.fromkeys(room, 0)
        for kind in sorted(room, key=order):
            take = min(room[kind], left)
            losses[kind] = take
            left -= take
        return losses

    def _gather(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        """The units prompt's default (every unit the card has room for), worked out without
        building the prompt; so for a garrison's force and its Phase D move."""
        war = state.war
        assert war is not None
        return units_answer(state, war, prompt.seat, prompt.kind)

    _garrison_force = _gather
    _garrison_move = _gather

    def _war_move(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        for army in state.players[prompt.seat].armies:
            if army.alive and gather_count(state, army):
                return {"act": "gather", "army": army.idx}
        for army in state.players[prompt.seat].armies:
            if self._front_move(state, prompt.seat, army):
                return {"act": "move", "army": army.idx}
        return {"act": "done"}

    @staticmethod
    def _front_move(state: SamuraiState, seat: int, army: Any) -> str | None:
        """Phase A: a province nearer to prey than where the army stands, if there is one."""
        if not army.alive or army.assassinated or army.location is None:
            return None
        dests = army_moves(state, seat, army, False)
        if not dests:
            return None
        force = own_army_strength(army)

        scores: dict[str, float] = {}

        def prey(pid: str) -> float:
            score = scores.get(pid)
            if score is None:
                hit = best_target(state, seat, pid, force)
                score = scores[pid] = hit[0] if hit else 0.0
            return score
        here = prey(army.location)
        best = max(sorted(dests), key=prey)
        return best if prey(best) > here else None

    def _war_declare(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        best = None
        for source, force, idx in declare_sources(state, prompt.seat):
            if force == "army" and idx is not None:
                strength = own_army_strength(state.players[prompt.seat].armies[idx])
            else:
                strength = garrison_strength(state, source)
            hit = best_target(state, prompt.seat, source, strength)
            if hit and (best is None or hit[0] > best[0]):
                best = (hit[0], source, idx)
        if best is None:
            return {"act": "done"}
        choice: dict[str, Any] = {"act": "source", "province": best[1]}
        if best[2] is not None:
            choice["army"] = best[2]
        return choice

    def _declare_target(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        war = state.war
        assert war is not None
        source = war.sel["source"]
        idx = war.sel.get("army")
        strength = (own_army_strength(state.players[prompt.seat].armies[idx]) if idx is not None
                    else garrison_strength(state, source))
        hit = best_target(state, prompt.seat, source, strength)
        if hit is None:
            return {"act": "cancel"}
        return {"act": "attack", "target": hit[1]}

    def _chain(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        war = state.war
        assert war is not None and war.chain_army is not None
        army = state.players[prompt.seat].armies[war.chain_army]
        hit = best_target(state, prompt.seat, army_province(army), own_army_strength(army))
        return {"act": "attack", "target": hit[1]} if hit else {"act": "stop"}

    def _war_order(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        """The battle for the first declared target by name (the prompt's default, worked out
        without building its options)."""
        war = state.war
        assert war is not None
        return {"act": "battle", "target": min(declaration.target for declaration in war.declarations)}

    def _battle(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        war = state.war
        assert war is not None and war.battle is not None
        attackers, defenders = battle_sides(state, war.battle)
        mine, theirs = float(side_size(attackers)), float(side_size(defenders))
        found = army_at(state, war.battle.target)
        if found and found[0] != prompt.seat and not any(found[1].units.values()):
            theirs += foes_seen(state, prompt.seat)[1].get(found[0], 0.0)  # its units are behind its owner's screen
        if mine >= 2 * theirs:
            return {"act": "fight_on"}
        return {"act": "continue"} if mine >= theirs else {"act": "calloff"}

    def _war_final(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        seat = prompt.seat
        war = state.war
        assert war is not None
        for army in state.players[seat].armies:
            if not war.d_garrisons and army.alive:
                dests = army_moves(state, seat, army, True)
                if any(state.provinces[draft].owner is None for draft in dests):
                    return {"act": "move", "army": army.idx}
        for pid in garrison_sources(state, seat):
            targets = garrison_targets(state, seat, pid)
            if any(state.provinces[task].owner is None for task in targets):
                return {"act": "garrison", "province": pid}
        return {"act": "done"}

    def _move_to(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        war = state.war
        assert war is not None
        army = state.players[prompt.seat].armies[war.sel["army"]]
        if war.sub == "A":
            dest = self._front_move(state, prompt.seat, army)
            return {"act": "to", "province": dest} if dest else {"act": "cancel"}
        dests = army_moves(state, prompt.seat, army, True)
        free = sorted(draft for draft in dests if state.provinces[draft].owner is None)
        if free:
            return {"act": "to", "province": free[0]}
        return {"act": "cancel"}

    def _garrison_to(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        war = state.war
        assert war is not None
        targets = garrison_targets(state, prompt.seat, war.sel["garrison"])
        free = sorted(task for task in targets if state.provinces[task].owner is None)
        if free:
            return {"act": "to", "province": free[0], "count": 1}
        return {"act": "cancel"}

    def _discard(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        """The card worth least now (the deadline default too)."""
        return {"act": "discard", "card": victory.lowest_card(state, prompt.seat)}

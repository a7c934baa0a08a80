"""AI policies: random-legal, and a heuristic that plays to win.

The heuristic scores every option of the prompt from its seat's information state (threat, HP, caravans, the boss)
and takes the best; on shared prompts it passes unless its own move is worth the group's AP.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from engine.contract import Option, Prompt, State
from engine.defenders import board, effects, rules
from engine.defenders.board import CAPITAL
from engine.defenders.card_options import seat_card_choices
from engine.defenders.content import content
from engine.defenders.information import unseen
from engine.defenders.state import Defender, DefendersState

SKILL_TASTE = ["restore_order", "long_watch", "second_wind", "field_dressing", "distant_shot", "rally_cry",
               "battle_focus", "stand_fast", "forced_march", "caravan_master", "scouting", "call_to_arms"]


class RandomPolicy:
    def choose(self, state: State, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        return dict(rng.choice(prompt.options).choice)


class HeuristicPolicy:
    def choose(self, state: State, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        """The best scored option, the first of equal ones. An AP card's options are listed
        from the seat's information state without their labels (`seat_card_choices`), so
        that the prompt itself need not be built (engine/kit/on_read.py)."""
        assert isinstance(state, DefendersState)
        goals = Goals()
        kind = prompt.kind
        choices = seat_card_choices(state, prompt.seat) if kind in CARD_PROMPTS else None
        if choices is None:
            choices = [o.choice for o in prompt.options]
        # No two choices share an index, so the tuples never compare their choices.
        best = max((score_choice(state, kind, choice, goals), -n, choice) for n, choice in enumerate(choices))
        return dict(best[2])


CARD_PROMPTS = ("turn", "all")
"""The prompt kinds whose options are `seat_card_options` (a seat's actions on an AP card)."""


class Goals:
    """Each Defender's `goal` and the first step toward it during one decision, worked out once
    for all its options."""

    def __init__(self) -> None:
        self.goals: dict[int, tuple[str, float]] = {}
        self.steps: dict[int, str | None] = {}


def score(state: DefendersState, prompt: Prompt, o: Option, goals: Goals | None = None) -> float:
    """The heuristic's score of option ``o`` of ``prompt``."""
    return score_choice(state, prompt.kind, o.choice, goals)


def score_choice(state: DefendersState, kind: str, ch: dict[str, Any], goals: Goals | None = None) -> float:
    """The heuristic's score of choosing ``ch`` in a prompt of ``kind``."""
    act = ch.get("act")
    if kind == "skill":
        return -SKILL_TASTE.index(ch["key"])
    if kind == "defend":
        return defend_score(state, ch)
    if kind == "artifact":
        return 2.0 if act == "drop" else 1.0
    if kind == "rebuild":
        d = state.defenders[ch["d"]] if "d" in ch else None
        if act == "level":
            return 6
        if act == "cap" and d is not None:
            return 5 if state.capital_threat >= 2 or d.xp >= 6 else 0
        if act == "accept":
            return 2  # a teammate's trade offer: trust it
        return 1 if act == "ready" else 0
    if kind == "target":
        return target_score(state, ch)
    if act in ("end", "pass"):
        if kind == "all" and state.active is not None and state.seats - len(state.active.passed) > 1:
            return 2.0  # shared AP: take only worthwhile actions while teammates may still act
        return 0.6 if kind in ("all", "react") else 0.1
    if act == "focus":
        return 0.05
    d = state.defenders[ch["d"]]
    react = kind == "react"
    value = action_score(state, d, ch, Goals() if goals is None else goals)
    return value - (3.5 if react else 0)


def defend_score(state: DefendersState, ch: dict[str, Any]) -> float:
    attack = state.attacks[0]
    r = state.regions[attack.region]
    danger = 6.0 if r.destroyed or r.threat >= state.options.outer_max else 1.5 * r.threat + 1
    if attack.kind == "dire":
        danger += 3
    if ch["act"] == "decline":
        return 4.0
    d = state.defenders[ch["d"]]
    if ch["act"] == "level":
        # Levelling first pays for a defence out of reach now; otherwise it only helps when hurt.
        if not rules.can_defend(state, d, attack):
            return danger + 3
        return 4.5 if d.hp < rules.max_hp(d) else 0.0
    left = d.hp - rules.defend_cost(state, d, attack)
    return danger + (3 if left >= 1 else -1) + left * 0.1


def goal(state: DefendersState, d: Defender) -> tuple[str, float]:
    """Where `d` would best go and what that is worth: the best of the offers below, each worth
    its value less 0.8 a step (the first of equal offers kept)."""
    dist = board.distances(state, d.region)
    best_key, best = d.region, 0.0
    if d.hp <= 1 and d.region != CAPITAL:
        v = 7 - 0.8 * dist[CAPITAL]
        if v > best:
            best_key, best = CAPITAL, v
    boss = state.boss
    if boss.revealed and rules.all_home(state):
        v = 9 - 0.8 * dist[boss.region]
        if v > best:
            best_key, best = boss.region, v
    pressure = incoming(state)
    escorts = d.xp >= 1
    healthy = d.hp >= 2
    regions = state.regions
    for region in state.ring:
        r = regions[region]
        away = 0.8 * dist[region]
        if r.caravans and escorts:
            v = 5 + r.caravans - away
            if v > best:
                best_key, best = region, v
        if not r.destroyed and r.threat:
            v = 1.6 * r.threat + 0.5 + 0.3 * pressure[region] - away
            if v > best:
                best_key, best = region, v
        if healthy:
            v = 0.6 * pressure[region] + (1.5 if r.destroyed else 0.4 * r.threat) - away
            if v > best:
                best_key, best = region, v
    return best_key, best


def incoming(state: DefendersState) -> dict[str, float]:
    """How hard each Outer Region will be hit by the cards still to come this round. Which
    Enemy cards fill the Turn Deck's Enemy places is hidden (engine/defenders/information.py
    pools them with the Horde and the leftovers), so each unseen Enemy card counts by the
    chance that it is one of them. A shared dict: read it, never change it."""
    return _incoming(tuple(state.ring), tuple(state.turn_deck), tuple(state.horde), tuple(state.leftover_enemies),
                     tuple(state.leftover_dire))


@functools.lru_cache(maxsize=1024)
def _incoming(ring: tuple[str, ...], turn_deck: tuple[str, ...], horde: tuple[str, ...],
              leftover_enemies: tuple[str, ...], leftover_dire: tuple[str, ...]) -> dict[str, float]:
    """`incoming` of these piles, worked out once: an information state's piles are the
    canonical deal, the same at every decision until a card is drawn or an enemy joins the
    Horde."""
    c = content()
    out = dict.fromkeys(ring, 0.0)
    places = 0
    for card in turn_deck:
        if unseen(card):
            places += 1
        elif card == "deserter":
            out["plains"] += 1
    pool = [card for card in turn_deck + horde if unseen(card)]
    pool += [f"e:{key}" for key in leftover_enemies] + [f"x:{key}" for key in leftover_dire]
    share = places / len(pool) if pool else 0.0
    for card in pool:
        if card.startswith("e:"):
            for r in c.enemy(card[2:]).regions:
                out[r] += share
        else:
            out[c.dire_card(card[2:]).region] += 2 * share
    return out


def goal_of(state: DefendersState, d: Defender, goals: Goals) -> tuple[str, float]:
    found = goals.goals.get(d.idx)
    if found is None:
        found = goals.goals[d.idx] = goal(state, d)
    return found


def first_step(state: DefendersState, d: Defender, target: str, goals: Goals) -> str | None:
    """`board.step_toward` from `d`'s place to ``target``, its goal, worked out once a decision
    (every move option of `d` asks it)."""
    if d.idx not in goals.steps:
        goals.steps[d.idx] = board.step_toward(state, d.region, target)
    return goals.steps[d.idx]


def action_score(state: DefendersState, d: Defender, ch: dict[str, Any], goals: Goals) -> float:
    act = ch["act"]
    if act == "secure":
        r = state.regions[d.region]
        return 3.0 + 2 * r.threat if not r.storm else 2.5
    if act == "fight":
        return 10.0 if rules.all_home(state) else 4.0
    if act == "prepare":
        return 0.7 if d.xp < 3 else 0.3
    if act == "level":
        return 7.0 if d.hp < rules.max_hp(d) else 4.5
    if act == "fly":
        target, value = goal_of(state, d, goals)
        return max(0.5, value + 0.8 * board.distances(state, d.region)[target]) if ch["to"] == target else 0.1
    if act == "move":
        to = ch["to"]
        if ch["escort"]:
            toward = board.distances(state, CAPITAL)
            return 8.0 + ch["escort"] if toward[to] < toward[d.region] else 0.0
        target, value = goal_of(state, d, goals)
        if target == d.region or first_step(state, d, target, goals) != to:
            return 0.2
        return max(0.5, value)
    if act == "use":
        ab = effects.ability_of(state, d, ch["src"])
        if ab is None:
            return 0.0
        return use_score(state, d, ch["src"], ab.effect) - 0.5 * ab.xp
    return 0.0


def use_score(state: DefendersState, d: Defender, src: str, effect: str) -> float:
    top_threat = max((state.regions[region].threat for region in state.ring if not state.regions[region].destroyed), default=0)
    if src == "war":
        return {"coast": 2.5, "desert": 1.5 + top_threat, "ruins": 1.5 + top_threat, "forest": 3.0,
                "mountains": 2.5, "plains": 3.0}.get(d.region, 0.0)
    if effect == "heal":
        return 4.5
    if effect in ("secure", "secure_adjacent_all"):
        return 2.5 + 2 * top_threat
    if effect == "secure_capital":
        return 3.0 * state.capital_threat
    if effect == "strike":
        return 9.5
    if effect == "rally":
        return 5.0 if d.hp > 1 or src != "hero" else 0.0
    if effect == "ward":
        return 1.5 + top_threat
    if effect == "scout":
        return 2.0
    if effect == "shield":
        return 3.0 if d.region != CAPITAL and state.regions[d.region].threat else 0.5
    if effect == "haul":
        return 4.0
    if effect == "draw_skill":
        return 0.15
    if effect == "dash":
        return 1.0
    if effect == "summon":
        return 0.5
    return 0.0


def target_score(state: DefendersState, ch: dict[str, Any]) -> float:
    if ch["act"] == "back":
        return -100.0
    t = ch["target"]
    act = state.active
    pick = act.pick if act is not None else None
    if isinstance(t, int):
        defender = state.defenders[t]
        return 1 + rules.max_hp(defender) - defender.hp
    r = state.regions.get(t)
    if r is None:
        return 0.5
    effect = ""
    if pick is not None:
        ab = effects.ability_of(state, state.defenders[pick["d"]], pick["src"])
        effect = ab.effect if ab else ""
    if effect == "haul":
        return 5 - board.distances(state, CAPITAL)[t] if t != CAPITAL else 6
    if effect == "dash":
        return 1 + r.threat + 3 * r.caravans
    return 1 + r.threat * 2 - (3 if r.destroyed else 0)



"""The Samurai search's candidates for a choose prompt: the heuristic's runners-up.

A placement offers some twenty spots, a declaration five sources or more, a target four to
eight provinces; three options drawn at random from those are mostly ones the heuristic rightly
ranks far below its choice, and the close second (the next best attack, the next frontier
province) was often not tried. `ranked` orders a prompt's options as the heuristic weighs them
(the same keys as engine/samurai/ai.py's choices), so the search spends its few worlds on the
calls the heuristic could have got wrong. Where the heuristic would pass (stop, cancel, done),
passing is always the second runner-up: holding back is the one alternative to every attack.

Kinds the heuristic does not weigh option by option (the sword, the battle's call, the order
of battles: two to four options, all of them candidates anyway) keep the prompt's order,
shuffled by a draw fixed for the state, as the candidates were before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.contract import Prompt
from engine.rng import rng_for
from engine.samurai import muster
from engine.samurai.ai import (
    ATTACK_MARGIN,
    WEAK_FOE_BONUS,
    HeuristicPolicy,
    army_guess,
    enemy_strength,
    frontier,
    garrison_strength,
    own_army_strength,
    weakest_foe,
)
from engine.samurai.board import army_province, garrison_size, regulars_in
from engine.samurai.content import content
from engine.samurai.movement import (
    army_moves,
    attack_targets,
    declare_sources,
    garrison_targets,
    gather_count,
)
from engine.samurai.state import SamuraiState

PASSES = ({"act": "done"}, {"act": "stop"}, {"act": "cancel"}, {"act": "forfeit"}, {"act": "release"})
"""The options that hold back (no attack, no move, no placement)."""
PASS_AT = 2
"""Where a pass goes in the ranking: right after the heuristic's choice and its runner-up."""


class Targets:
    """How the heuristic weighs attacks from a source (`ai.best_target`), for every target
    rather than the best alone; the weakest foe and the army guess worked out once."""

    def __init__(self, state: SamuraiState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.weakest = weakest_foe(state, seat)
        self.guesses = army_guess(state, seat)
        self.needs: dict[str, float] = {}

    def scores(self, source: str, force: float) -> dict[str, tuple[bool, float]]:
        """Per target: whether the heuristic would attack it (its margin met) and its score (the
        force over what defends it, ten for empty land, times the weak foe's bonus)."""
        by_sea = content().sea_only.get(source, frozenset())
        found: dict[str, tuple[bool, float]] = {}
        for target in attack_targets(self.state, self.seat, source):
            need = self.needs.get(target)
            if need is None:
                need = self.needs[target] = enemy_strength(self.state, self.seat, target, self.guesses)
            if target in by_sea:
                need *= 1.5
            if need == 0:
                meets, score = True, 10.0
            else:
                meets, score = force >= ATTACK_MARGIN[0] * need + ATTACK_MARGIN[1], force / need
            if self.state.provinces[target].owner is not None and self.state.provinces[target].owner == self.weakest:
                score *= WEAK_FOE_BONUS
            found[target] = (meets, score)
        return found

    def best(self, source: str, force: float) -> float:
        """The best score of an attack the heuristic would make from ``source`` (0 if none)."""
        return max((score for meets, score in self.scores(source, force).values() if meets), default=0.0)


Key = Callable[[dict[str, Any]], tuple[Any, ...] | None]
"""An option's weight as the heuristic sees it (highest first), None for one it would not take."""


def ordered(prompt: Prompt, key: Key, after: Key | None = None) -> list[dict[str, Any]]:
    """The options ``key`` weighs, highest first (ties in the prompt's order), with a pass at
    `PASS_AT`; then the options it does not, by ``after`` where given (else in the prompt's order)."""
    taken: list[tuple[tuple[Any, ...], int, dict[str, Any]]] = []
    passes: list[dict[str, Any]] = []
    rest: list[tuple[tuple[Any, ...], int, dict[str, Any]]] = []
    for number, option in enumerate(prompt.options):
        choice = dict(option.choice)
        if choice in PASSES:
            passes.append(choice)
            continue
        found = key(choice)
        if found is not None:
            taken.append((found, -number, choice))
        else:
            later = after(choice) if after is not None else None
            rest.append((later if later is not None else (), -number, choice))
    taken.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
    rest.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
    chosen = [choice for _, _, choice in taken]
    return chosen[:PASS_AT] + passes + chosen[PASS_AT:] + [choice for _, _, choice in rest]


def attack_order(prompt: Prompt, scores: dict[str, tuple[bool, float]]) -> list[dict[str, Any]]:
    """Targets the heuristic would attack by score, a pass, then the others by their odds."""
    def score(choice: dict[str, Any], meets: bool) -> tuple[Any, ...] | None:
        found = scores.get(str(choice.get("target")))
        return (found[1],) if found is not None and found[0] == meets else None

    return ordered(prompt, lambda choice: score(choice, True), lambda choice: score(choice, False))


def ranked(state: SamuraiState, prompt: Prompt) -> list[dict[str, Any]]:
    """The prompt's options, the heuristic's likeliest choices first (its own choice is the
    search's first candidate in any case)."""
    seat = prompt.seat
    kind = prompt.kind
    war = state.war
    if kind in ("declare_target", "chain") and war is not None:
        targets = Targets(state, seat)
        if kind == "chain" and war.chain_army is not None:
            army = state.players[seat].armies[war.chain_army]
            return attack_order(prompt, targets.scores(army_province(army), own_army_strength(army)))
        if kind == "declare_target":
            idx = war.sel.get("army")
            source = war.sel["source"]
            force = own_army_strength(state.players[seat].armies[idx]) if idx is not None else garrison_strength(state, source)
            return attack_order(prompt, targets.scores(source, force))
    if kind == "war_declare":
        return declare_order(state, prompt)
    if kind == "war_move":
        return war_move_order(state, prompt)
    if kind == "move_to" and war is not None:
        return move_order(state, prompt)
    if kind in ("war_final", "garrison_to") and war is not None:
        return claim_order(state, prompt)
    key = placement_key(state, prompt)
    if key is not None:
        return ordered(prompt, key)
    choices = [dict(option.choice) for option in prompt.options]
    rng_for(state.seed, state.step, f"order:{seat}").shuffle(choices)
    return choices


def declare_order(state: SamuraiState, prompt: Prompt) -> list[dict[str, Any]]:
    """Sources by the best attack the heuristic sees from each; ``done`` second runner-up."""
    targets = Targets(state, prompt.seat)
    armies = state.players[prompt.seat].armies
    listed = {(source, idx): number for number, (source, _, idx) in enumerate(declare_sources(state, prompt.seat))}

    def key(choice: dict[str, Any]) -> tuple[Any, ...] | None:
        source, idx = choice.get("province"), choice.get("army")
        if choice.get("act") != "source" or not isinstance(source, str):
            return None
        force = own_army_strength(armies[idx]) if isinstance(idx, int) else garrison_strength(state, source)
        best = targets.best(source, force)
        return (best, -listed.get((source, idx if isinstance(idx, int) else None), len(listed))) if best > 0 else None

    return ordered(prompt, key)


def war_move_order(state: SamuraiState, prompt: Prompt) -> list[dict[str, Any]]:
    """Gathers first, then armies with a step toward prey (phase A as the heuristic plays it)."""
    armies = state.players[prompt.seat].armies

    def key(choice: dict[str, Any]) -> tuple[Any, ...] | None:
        idx = choice.get("army")
        if not isinstance(idx, int):
            return None
        army = armies[idx]
        if choice.get("act") == "gather":
            return (2, -idx) if gather_count(state, army) else None
        if choice.get("act") == "move":
            return (1, -idx) if HeuristicPolicy._front_move(state, prompt.seat, army) else None
        return None

    return ordered(prompt, key)


def move_order(state: SamuraiState, prompt: Prompt) -> list[dict[str, Any]]:
    """Phase A: destinations nearer to prey than where the army stands, the best prey first;
    phase D: unoccupied land first (the heuristic claims it)."""
    war = state.war
    assert war is not None
    army = state.players[prompt.seat].armies[war.sel["army"]]
    if war.sub == "A" and army.location is not None:
        targets = Targets(state, prompt.seat)
        force = own_army_strength(army)
        here = targets.best(army.location, force)

        def prey(choice: dict[str, Any]) -> tuple[Any, ...] | None:
            destination = choice.get("province")
            if not isinstance(destination, str):
                return None
            score = targets.best(destination, force)
            return (score, [-ord(letter) for letter in destination]) if score > here else None

        return ordered(prompt, prey)
    return claim_order(state, prompt)


def claim_order(state: SamuraiState, prompt: Prompt) -> list[dict[str, Any]]:
    """Phase D: moves and garrisons onto unoccupied land first, as the heuristic claims it
    (armies before garrisons, provinces by name)."""
    war = state.war
    assert war is not None
    seat = prompt.seat
    armies = state.players[seat].armies
    provinces = state.provinces

    def key(choice: dict[str, Any]) -> tuple[Any, ...] | None:
        act = choice.get("act")
        if act == "to":
            destination = choice.get("province")
            return (0, "") if isinstance(destination, str) and provinces[destination].owner is None else None
        if act == "move" and not war.d_garrisons:
            idx = choice.get("army")
            if isinstance(idx, int) and armies[idx].alive and any(
                    provinces[pid].owner is None for pid in army_moves(state, seat, armies[idx], True)):
                return (2, -idx)
            return None
        if act == "garrison":
            source = choice.get("province")
            if isinstance(source, str) and any(provinces[pid].owner is None for pid in garrison_targets(state, seat, source)):
                return (1, 0)
        return None

    return ordered(prompt, key)


def placement_key(state: SamuraiState, prompt: Prompt) -> Callable[[dict[str, Any]], tuple[Any, ...] | None] | None:
    """The heuristic's key for a setup or muster placement (highest first), or None for a kind
    it does not weigh option by option."""
    seat = prompt.seat
    provinces = state.provinces
    kind = prompt.kind

    def province_of(choice: dict[str, Any]) -> str | None:
        pid = choice.get("province")
        return pid if isinstance(pid, str) and pid in provinces else None

    if kind == "place":
        def place(choice: dict[str, Any]) -> tuple[Any, ...] | None:
            pid = province_of(choice)
            if choice.get("act") != "place" or pid is None:
                return None
            return (choice.get("to") == "army", frontier(state, seat, pid), -garrison_size(provinces[pid].garrison), pid)
        return place
    if kind == "ronin":
        rooms = {(pid, to): room for pid, to, room in muster.ronin_spots(state, seat)}

        def ronin(choice: dict[str, Any]) -> tuple[Any, ...] | None:
            pid = province_of(choice)
            if choice.get("act") != "ronin" or pid is None:
                return None
            return (choice.get("to") == "army", rooms.get((pid, str(choice.get("to"))), 0), pid)
        return ronin
    if kind == "spear":
        drafted = state.players[seat].draft.get("spears", [])

        def spear(choice: dict[str, Any]) -> tuple[Any, ...] | None:
            pid = province_of(choice)
            if pid is None:
                return None
            return (frontier(state, seat, pid), -provinces[pid].garrison["spearman"] - drafted.count(pid), pid)
        return spear
    if kind == "deploy":
        def deploy(choice: dict[str, Any]) -> tuple[Any, ...] | None:
            pid = province_of(choice)
            if pid is None:
                return None
            return (garrison_size(provinces[pid].garrison) + frontier(state, seat, pid), pid)
        return deploy
    if kind == "claim":
        adjacent = content().adj

        def claim(choice: dict[str, Any]) -> tuple[Any, ...] | None:
            pid = province_of(choice)
            if pid is None:
                return None
            return (sum(1 for other in adjacent[pid] if provinces[other].owner == seat), pid)
        return claim
    if kind == "rebuild":
        def rebuild(choice: dict[str, Any]) -> tuple[Any, ...] | None:
            pid = province_of(choice)
            return None if pid is None else (garrison_size(provinces[pid].garrison), pid)
        return rebuild
    if kind == "build":
        def build(choice: dict[str, Any]) -> tuple[Any, ...] | None:
            pid = province_of(choice)
            if pid is None or not any(spot == pid for spot, _ in muster.build_targets(state, seat)):
                return None
            return (frontier(state, seat, pid), regulars_in(state, pid), pid)
        return build
    return None

"""The Samurai search AI: the heuristic plays rollouts to the end of the round in worlds dealt
from the seat's information state, and the world where a rollout stops is scored as the
house's chance to win (`search_eval`, fitted on heuristic matches; in LWTV, whose victory
points it was not fitted on, the lead in public victory points and troops).

A rollout stops where a round ends (`round_of`, the SearchPolicy's horizon), so every
candidate's rollout is scored at the same point of the game: the position each house plans
its next round from. A rollout of a fixed number of choices was scored wherever it stood, in
the middle of another house's war as often as not, and its province lead was short-sighted
(in Tiny Big Wars the same kind of evaluation lost matches, docs/benchmarks.md, session 16).
A decision late in a round plays on into the next one (`rollout_reach`, where the budget
allows). A rollout step costs about 0.1 CPU ms, a round about a hundred choices.

The candidates besides the heuristic's choice are, for a choose prompt, the options it ranks
next (`search_order.ranked`: the next best attack, the next frontier province, holding back),
and for sealed numbers the heuristic's own plan and levy moved about (`Variants`).

The worlds are dealt by the game's `determinize`, which spreads each opponent's units off the
board at random over its armies, filling them far beyond what armies hold in play; each army
is then cut to about what `ai.army_guess` expects (between half and one and a half times the
guess), the rest going back to its owner's tray. Both read only the information state, so
the search stays honest.
"""

from __future__ import annotations

import copy
import random
from typing import Any, cast

from engine.contract import Game, Prompt, State
from engine.samurai import search_eval
from engine.samurai.ai import army_guess
from engine.samurai.board import army_regulars, garrison_size, held_count
from engine.samurai.state import SamuraiState
from engine.samurai.victory import public_vp
from engine.search import SearchPolicy, budget_ms, lead

MS_PER_REACH = 10.0
"""Budget milliseconds per choice a rollout plays at least (a rollout step costs ~0.1 ms)."""
REACH_RANGE = (0, 60)
DEPTH = 400
"""Choices a rollout plays at most (a round is about a hundred)."""
WIDTH = 4
"""Candidates compared per decision (the heuristic's choice among them)."""
MIN_PAIRED = 4
CONFIDENCE = 1.5
"""A candidate replaces the heuristic's choice when its paired gain exceeds 1.5 standard errors
over four worlds or more: a round's rollouts are dear (a decision sees four to fifteen worlds
at 100-250 ms), and with three rivals to the heuristic's choice the engine's one standard
error over three worlds would let one of them through by chance in almost half the decisions
where all are equal."""
UNIT_WORTH = 0.1
"""A regular unit on the board (garrison or army) against a province: ten units buy about
what a province is worth, so the search does not trade its land for troops kept home."""


def evaluate(state: SamuraiState, seat: int) -> float:
    """The house's chance to win as `search_eval` fits it; in LWTV its lead in victory points."""
    if state.options.mode == "lwtv":
        return lead_evaluate(state, seat)
    return search_eval.evaluate(state, seat)


def lead_evaluate(state: SamuraiState, seat: int) -> float:
    """A house's lead in provinces held (public victory points in LWTV), its troops on the
    board counting a little."""
    holdings: dict[int, list[str]] = {}
    for pid, prov in state.provinces.items():
        if prov.owner is not None:
            holdings.setdefault(prov.owner, []).append(pid)

    def score(house: int) -> float:
        player = state.players[house]
        if player.eliminated:
            return -10.0
        held = public_vp(state, house) if state.options.mode == "lwtv" else held_count(state, house)
        troops = sum(army_regulars(army) for army in player.armies if army.alive)
        troops += sum(garrison_size(state.provinces[pid].garrison) for pid in holdings.get(house, []))
        return held + UNIT_WORTH * troops

    others = [score(house) for house in range(len(state.players)) if house != seat]
    return lead(score(seat), others, scale=4.0)


def guessed_armies(world: SamuraiState, seat: int, rng: random.Random) -> SamuraiState:
    """``world`` with each opponent's army cut to about the size ``army_guess`` expects (the
    units taken out go back to their owner's tray)."""
    guesses = army_guess(world, seat)
    for player in world.players:
        if player.seat == seat or player.seat not in guesses:
            continue
        for army in player.armies:
            if not army.alive:
                continue
            keep = int(guesses[player.seat] * rng.uniform(0.5, 1.5) + 0.5)
            units = [kind for kind, count in sorted(army.units.items()) for _ in range(count)]
            rng.shuffle(units)
            for kind in units[keep:]:
                army.units[kind] -= 1
                player.tray[kind] += 1
    return world


def search_worlds(game: Game) -> Game:
    """The game as the search sees it: a copy with the same rules whose worlds hold armies of
    the guessed size (the game itself is shared by every driver and stays as it is)."""
    worlds = copy.copy(game)
    deal = game.determinize

    def determinize(state: State, seat: int, rng: random.Random) -> SamuraiState:
        return guessed_armies(cast(SamuraiState, deal(state, seat, rng)), seat, rng)

    worlds.__dict__["determinize"] = determinize
    return worlds


def rollout_reach(budget: float) -> int:
    """Choices a rollout plays at least before the end of a round stops it, for a CPU budget in
    milliseconds (a decision late in a round then sees how the next one goes, where the budget
    allows)."""
    low, high = REACH_RANGE
    return max(low, min(high, int(budget / MS_PER_REACH)))


def round_of(state: State) -> int:
    """The horizon's mark: a rollout stops at the end of a round (the fitted evaluation reads
    the position every house then plans its next round from)."""
    return cast(SamuraiState, state).round


class Variants:
    """Alternatives to the heuristic's sealed numbers, the candidates a search can settle: its
    plan with the koku moved between bins (turn order, ronin, ninja, a castle) and its levy with
    other troops bought. Random numbers are mostly plainly worse and waste the budget."""

    name = "variants"

    def __init__(self) -> None:
        from engine.samurai.ai import HeuristicPolicy

        self.heuristic = HeuristicPolicy()

    def choose(self, state: SamuraiState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        base = self.heuristic.choose(state, prompt, rng)
        if prompt.input != "numbers":
            return base
        if prompt.kind in ("plan", "plan_revise"):
            options = plan_variants(state, prompt.seat, base)
        elif prompt.kind == "levy":
            options = levy_variants(state, prompt.seat)
        else:
            options = []
        return dict(rng.choice(options)) if options else base


def plan_variants(state: SamuraiState, seat: int, plan: dict[str, Any]) -> list[dict[str, int]]:
    """The heuristic's plan with one or two koku moved between the levy and another bin, or its
    castle given up or added (every variant spends all the koku, as the rules ask)."""
    from engine.samurai.muster import build_targets

    bins = {key: int(plan.get(key, 0)) for key in ("swords", "build", "levy", "ronin", "ninja")}
    found: list[dict[str, int]] = []

    def moved(into: str, amount: int) -> None:
        variant = dict(bins)
        variant[into] += amount
        variant["levy"] -= amount
        if min(variant.values()) >= 0:
            found.append(variant)

    for into, amount in (("swords", 1), ("swords", 2), ("swords", -1), ("ronin", 1), ("ronin", -1), ("ninja", 1)):
        moved(into, amount)
    if bins["build"] == 2:
        moved("build", -2)
    elif build_targets(state, seat):
        moved("build", 2)
    return found


def levy_variants(state: SamuraiState, seat: int) -> list[dict[str, int]]:
    """Levies that spend the levy bin on other troops than the heuristic's: spearmen only, or
    as many of one stronger kind as it buys before spearmen fill the rest."""
    player = state.players[seat]
    budget = player.plan.levy if player.plan else 0
    costs = state.options.levy_costs
    cap = held_count(state, seat)
    found = []
    for first in ("spearman", "gunner", "swordsman", "bowman"):
        got = {"spearman": 0, "gunner": 0, "swordsman": 0, "bowman": 0}
        left = budget
        for kind in (first, "spearman"):
            while left >= costs[kind] and got[kind] < player.tray[kind] and sum(got.values()) < cap:
                got[kind] += 1
                left -= costs[kind]
        found.append(got)
    return found


def search_policy(game: Game) -> SearchPolicy:
    from engine.samurai.ai import HeuristicPolicy
    from engine.samurai.search_order import ranked

    worlds = search_worlds(game)
    budget = budget_ms()
    return SearchPolicy(worlds, HeuristicPolicy(), evaluate, proposers=[Variants()],
                        depth=DEPTH, width=WIDTH, budget=budget, horizon=round_of, reach=rollout_reach(budget),
                        reach_for=rollout_reach,
                        min_paired=MIN_PAIRED, confidence=CONFIDENCE, order=ranked)

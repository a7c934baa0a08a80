"""The Tiny Big Wars search AI: the heuristic plays the rollouts to the end of the match (about
200 choices of two clans, 30 CPU ms early on); influence scores where one stops short.

Rollouts cut to a length that follows the budget (25 choices at 250 ms, 10 at 100 ms) were tried
and taken back: they let a decision see a dozen worlds, but the influence lead a few turns ahead
is a short-sighted judge, and with the worlds paired it overruled the heuristic's long plan by
small, steady margins. At 100 ms, 40 matches against the heuristic: 0.275 [0.161, 0.428] with
rollouts of 10 choices, 0.650 [0.495, 0.779] with rollouts to the end (docs/benchmarks.md).

A sealed answer the seat cannot see (a rival's force, a rival's energy spend) is dealt in each
world as the heuristic would have answered it, three times in four, and at random otherwise
(`search_worlds`). The game's own `determinize` deals them uniformly at random: the search then
weighed its force and its spend against rivals who build random forces and split their energy
at random, while the rollouts play every rival as the heuristic."""

from __future__ import annotations

import copy
import random
from typing import cast

from engine.contract import Game, State
from engine.search import SearchPolicy, lead
from engine.tinybigwars.board import controlled, influence
from engine.tinybigwars.state import Energy, TBWState

DEPTH = 400
"""Choices a rollout plays at most: a whole match."""
AS_THE_HEURISTIC = 0.75
"""The share of worlds in which a rival's hidden sealed answer is the heuristic's."""


def evaluate(state: TBWState, seat: int) -> float:
    """A clan's lead in influence (locations held break near ties), as the tie-break of victory does."""

    def score(clan: int) -> float:
        return influence(state, clan) + 0.1 * len(controlled(state, clan))

    others = [score(clan) for clan in range(state.seats_n) if clan != seat]
    return lead(score(seat), others, scale=max(2.0, state.options.to_win / 4))


def sealed_as_the_heuristic(game: Game, info: TBWState, world: TBWState, seat: int,
                            rng: random.Random) -> TBWState:
    """``world`` with each rival answer ``info`` hides replaced, ``AS_THE_HEURISTIC`` of the time,
    by the heuristic's answer in ``world`` (its force drawn as the heuristic draws one; its spend
    worked out from what the fight shows)."""
    from engine.tinybigwars.ai import HeuristicPolicy
    from engine.tinybigwars.forces import force_of

    heuristic = HeuristicPolicy()
    hidden = [other.seat for other in info.seats if other.seat != seat and other.force is not None]
    if info.phase == "force" and hidden:
        for prompt in game.prompts(world):
            if prompt.seat in hidden and prompt.kind == "force" and rng.random() < AS_THE_HEURISTIC:
                picks = heuristic.choose(world, prompt, rng)["picks"]
                world.seats[prompt.seat].force = force_of(picks, world.options.point_limit)
    fight, shown = world.combat, info.combat
    if fight is not None and shown is not None and fight.stage == "energy":
        sealed = {fighter for fighter, spend in zip(shown.seats, shown.spend, strict=True)
                  if fighter != seat and spend is not None}
        for prompt in game.prompts(world):
            if prompt.seat in sealed and prompt.kind == "energy" and rng.random() < AS_THE_HEURISTIC:
                answer = heuristic.choose(world, prompt, rng)
                fight.spend[fight.seats.index(prompt.seat)] = Energy(attack=answer["attack"], guard=answer["guard"])
    return world


def search_worlds(game: Game) -> Game:
    """The game as the search sees it: a copy with the same rules whose worlds deal hidden
    sealed answers as the heuristic would give them (the game itself is shared and stays as it is)."""
    worlds = copy.copy(game)
    deal = game.determinize

    def determinize(state: State, seat: int, rng: random.Random) -> TBWState:
        info = cast(TBWState, state)
        return sealed_as_the_heuristic(game, info, cast(TBWState, deal(info, seat, rng)), seat, rng)

    worlds.__dict__["determinize"] = determinize
    return worlds


def search_policy(game: Game) -> SearchPolicy:
    from engine.tinybigwars.ai import HeuristicPolicy, RandomPolicy

    return SearchPolicy(search_worlds(game), HeuristicPolicy(), evaluate, proposers=[RandomPolicy()], depth=DEPTH)

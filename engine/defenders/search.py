"""The Defenders search AI: the heuristic plays the rollouts for every Defender; where they stop
before the end, the table's danger scores (the Capital's Threat first).

The candidates besides the heuristic's choice are the options it ranks next (`ranked`): a turn
offers a dozen moves or more, most of them plainly worse, and candidates drawn at random spent
the budget on those while the close second choice was often not tried at all."""

from __future__ import annotations

from typing import Any

from engine.contract import Game, Prompt
from engine.defenders import rules
from engine.defenders.state import DefendersState
from engine.search import SearchPolicy


def evaluate(state: DefendersState, seat: int) -> float:
    """The whole table's safety from 0 to 1: the Capital, then the outer regions, the boss's
    wounds and the Defenders' health (the game is co-operative: every seat scores the same)."""
    options = state.options
    capital = 1 - min(1.0, state.capital_threat / max(1, options.destruction))
    outer = [region for region in state.regions.values() if region.key != "capital"]
    standing = [0.0 if region.destroyed else 1 - min(1.0, region.threat / max(1, options.outer_max)) for region in outer]
    regions = sum(standing) / len(standing) if standing else 1.0
    boss = 1 - state.boss.hp / max(1, state.boss.max_hp)
    health = sum(defender.hp / max(1, rules.max_hp(defender)) for defender in state.defenders) / max(1, len(state.defenders))
    return 0.5 * capital + 0.2 * regions + 0.2 * boss + 0.1 * health


def ranked(state: DefendersState, prompt: Prompt) -> list[dict[str, Any]]:
    """The prompt's options as the heuristic scores them, its own choice first (ties keep the
    prompt's order, as the heuristic breaks them)."""
    from engine.defenders.ai import Goals, score

    goals = Goals()
    scored = sorted(((score(state, prompt, option, goals), -n, option.choice) for n, option in enumerate(prompt.options)),
                    key=lambda entry: (entry[0], entry[1]), reverse=True)
    return [dict(choice) for _, _, choice in scored]


def search_policy(game: Game) -> SearchPolicy:
    from engine.defenders.ai import HeuristicPolicy, RandomPolicy

    return SearchPolicy(game, HeuristicPolicy(), evaluate, proposers=[RandomPolicy()], depth=40, order=ranked)

"""The Defenders search AI: the heuristic plays the rollouts for every Defender; a rollout stops
where a round ends (`round_of`), and the team's chance to win from there is read by an
evaluation fitted on heuristic matches (engine/defenders/search_eval.py).

The candidates besides the heuristic's choice are the options it ranks next (`ranked`): a turn
offers a dozen moves or more, most of them plainly worse, and candidates drawn at random spent
the budget on those while the close second choice was often not tried at all.

Rollouts stop at the end of a round, not after a fixed 40 choices (a third of a match, two
rounds): every candidate's rollout is then read at the same point of the game, and the rounds'
count, which the fitted chance weighs, is the same for all of them; a rollout is 10-25 choices
instead of 40, so a 100 ms decision sees two to three times the worlds. A decision late in a
round plays on into the next (`REACH`). The hand-set table safety used before (`table_safety`)
told won positions from lost ones little better than the win rate alone (log loss 0.618 against
0.630, the fitted chance 0.536, benchmarks/defenders_evaluation.py)."""

from __future__ import annotations

from typing import Any

from engine.contract import Game, Prompt
from engine.defenders import rules
from engine.defenders.search_eval import evaluate
from engine.defenders.state import DefendersState
from engine.search import SearchPolicy

REACH = 10
"""Choices a rollout plays at least before the end of a round stops it."""
DEPTH = 80
"""Choices a rollout plays at most (a round is 10-30)."""


def table_safety(state: DefendersState, seat: int) -> float:
    """The whole table's safety from 0 to 1: the Capital, then the outer regions, the boss's
    wounds and the Defenders' health (the game is co-operative: every seat scores the same).
    The evaluation before the fitted one, kept as its reference (benchmarks/defenders_evaluation.py)."""
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


def round_of(state: DefendersState) -> tuple[int, int]:
    """The horizon's mark: a rollout stops when the round (or the battle) changes."""
    return state.battle, state.round


def search_policy(game: Game) -> SearchPolicy:
    from engine.defenders.ai import HeuristicPolicy, RandomPolicy

    return SearchPolicy(game, HeuristicPolicy(), evaluate, proposers=[RandomPolicy()], depth=DEPTH, order=ranked,
                        horizon=round_of, reach=REACH)

"""How much stronger the search AI plays than the heuristic, in seeded matches with seats swapped.

- Tiny Big Wars, 2 seats: the search AI against the heuristic, each seed played twice with the
  seats swapped; its win share (a shared win counts by share). Target at least 0.70.
- Samurai Swords, 4 seats: one search AI against three heuristics, each seed played four times
  with the search AI in every seat; its win share (fair 0.25). Target at least 0.40.
- Tiny Epic Defenders at ``hard``, 2 seats: a team of search AIs and a team of heuristics on the
  same seeds; the search team's win rate must beat the heuristic team's by 15 points.

Shares carry 95 % Wilson intervals, the Defenders difference a 95 % normal interval. Beside them:
the median CPU milliseconds of a search decision (decisions with more than one candidate; the
budget ``--budget``, exported as WARHOST_SEARCH_MS before any policy is made) and of every
decision a search seat made.

Run: python benchmarks/ai_strength.py [--budget 1000] [--matches 40] [--samurai-matches 8]
[--defenders-matches 40] [--jobs 1] [--games tinybigwars,samurai,defenders]

``--decisions N`` measures instead, much cheaper but not the acceptance figure, what the search's
choices are worth: along N seeded heuristic matches a game, at every ``--every``-th decision the
search AI chooses from the seat's information state; where it differs from the heuristic, both
choices are played on by the heuristic in ``--judge-worlds`` worlds dealt from the same information
state (paired, to the end of the match), and the mean gain of the search's choice is printed with a
95 % interval. A search that overrules its heuristic by noise shows a gain near zero or below.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.search import BUDGET_VARIABLE, SearchPolicy  # noqa: E402

SEATS = {"tinybigwars": 2, "samurai": 4, "defenders": 2}
OPTIONS = {"defenders": {"difficulty": "hard"}}


@dataclass
class Match:
    """One match's outcome for the search side, and what its search decisions cost."""

    game: str
    seed: int
    search_seats: list[int]
    share: float
    searched_ms: list[float] = field(default_factory=list)
    all_ms: list[float] = field(default_factory=list)
    wall: float = 0.0


def play(game_key: str, seed: int, search_seats: list[int], budget: float) -> Match:
    """One seeded match; ``search_seats`` play the search AI, the others the heuristic."""
    os.environ[BUDGET_VARIABLE] = str(budget)
    started = time.perf_counter()
    game = engine.get(game_key)
    policies = game.policies()
    search = policies["search"]
    assert isinstance(search, SearchPolicy)
    heuristic = policies["heuristic"]
    state = game.setup(SEATS[game_key], engine.parse_options(game, OPTIONS.get(game_key, {})), seed)
    outcome = Match(game_key, seed, search_seats, 0.0)
    while game.result(state) is None:
        prompt = [p for p in game.prompts(state) if not p.answered][0]
        policy = search if prompt.seat in search_seats else heuristic
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(seed, state.step, f"ai:{prompt.seat}"))
        if policy is search:
            outcome.all_ms.append(search.last.cpu_ms)
            if search.last.searched:
                outcome.searched_ms.append(search.last.cpu_ms)
        state = game.submit(state, prompt.seat, choice).state
    result = game.result(state)
    assert result is not None
    ours = [seat for seat in result.winners if seat in search_seats]
    if game.info.cooperative:
        outcome.share = 1.0 if result.winners else 0.0
    else:
        outcome.share = len(ours) / len(result.winners) if result.winners else 0.0
    outcome.wall = time.perf_counter() - started
    return outcome


@dataclass
class Judged:
    """One match's search decisions set against the heuristic's, by a much larger search."""

    game: str
    seed: int
    decisions: int = 0
    overruled: int = 0
    gains: list[float] = field(default_factory=list)
    """Per overruled decision: the search's choice's worth minus the heuristic's (0 to 1 scale)."""
    kinds: list[str] = field(default_factory=list)
    """Per overruled decision: its prompt's kind (where the search gains or loses)."""
    searched_ms: list[float] = field(default_factory=list)


def judge(game_key: str, seed: int, budget: float, every: int, worlds: int) -> Judged:
    """A seeded heuristic match; at every ``every``-th decision the search AI's choice, and where
    it is not the heuristic's, both judged in ``worlds`` paired worlds of the seat's information
    state played on by the heuristic to the end (or 1,000 choices)."""
    os.environ[BUDGET_VARIABLE] = str(budget)
    game = engine.get(game_key)
    policies = game.policies()
    search = policies["search"]
    assert isinstance(search, SearchPolicy)
    heuristic = policies["heuristic"]
    judge_policy = search.bounded(rounds=worlds, depth=2000, width=2, to_end=True)
    state = game.setup(SEATS[game_key], engine.parse_options(game, OPTIONS.get(game_key, {})), seed)
    outcome = Judged(game_key, seed)
    step = 0
    while game.result(state) is None:
        prompt = [p for p in game.prompts(state) if not p.answered][0]
        rng = engine.rng_for(seed, state.step, f"ai:{prompt.seat}")
        plain = engine.decide(game, heuristic, state, prompt, rng)
        if step % every == 0:
            chosen = engine.decide(game, search, state, prompt, engine.rng_for(seed, state.step, "search"))
            if search.last.searched:
                outcome.decisions += 1
                outcome.searched_ms.append(search.last.cpu_ms)
                if chosen != plain:
                    outcome.overruled += 1
                    outcome.kinds.append(prompt.kind)
                    outcome.gains.append(paired_gain(game, judge_policy, state, prompt, chosen, plain, worlds,
                                                     random.Random(seed * 7919 + state.step)))
        step += 1
        state = game.submit(state, prompt.seat, plain).state
    return outcome


def paired_gain(game: engine.Game, judge_policy: SearchPolicy, state: engine.State, prompt: engine.Prompt,
                chosen: dict[str, object], plain: dict[str, object], worlds: int, rng: random.Random) -> float:
    """The mean of (worth of ``chosen`` - worth of ``plain``) over ``worlds`` worlds dealt from the
    seat's information state, both played on with the same random draws."""
    from engine.clone import clone
    from engine.search import Abandoned

    info = game.information(state, prompt.seat)
    gains = []
    for _ in range(worlds):
        world = judge_policy.game.determinize(info, prompt.seat, rng)
        seed = rng.getrandbits(64)
        try:
            values = [judge_policy._rollout(clone(world), prompt.seat, choice, random.Random(seed), 0.0)
                      for choice in (chosen, plain)]
        except Abandoned:
            continue
        if values[0] is None or values[1] is None:
            continue
        gains.append(values[0] - values[1])
    return sum(gains) / len(gains) if gains else 0.0


def report_judged(judged: list[Judged], budget: float) -> None:
    for key in SEATS:
        mine = [j for j in judged if j.game == key]
        if not mine:
            continue
        decisions = sum(j.decisions for j in mine)
        gains = [g for j in mine for g in j.gains]
        mean = statistics.fmean(gains) if gains else 0.0
        half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
        per_decision = sum(gains) / decisions if decisions else 0.0
        searched = [ms for j in mine for ms in j.searched_ms]
        print(f"{key}: {decisions} search decisions judged at {budget:.0f} ms, {len(gains)} overruled the "
              f"heuristic; gain of an overruling {mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}], "
              f"{per_decision:+.4f} a decision; median CPU per search decision {median(searched):.0f} ms")
        by_kind: dict[str, list[float]] = {}
        for j in mine:
            for kind, gain in zip(j.kinds, j.gains, strict=True):
                by_kind.setdefault(kind, []).append(gain)
        print("  by prompt kind: " + ", ".join(f"{kind} {statistics.fmean(found):+.3f} ({len(found)})"
                                               for kind, found in sorted(by_kind.items(), key=lambda item: -len(item[1]))))


def wilson(share: float, count: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a share observed over ``count`` matches."""
    if count == 0:
        return 0.0, 1.0
    z = 1.96
    centre = (share + z * z / (2 * count)) / (1 + z * z / count)
    half = z * math.sqrt(share * (1 - share) / count + z * z / (4 * count * count)) / (1 + z * z / count)
    return max(0.0, centre - half), min(1.0, centre + half)


def interval(share: float, count: int) -> str:
    low, high = wilson(share, count)
    return f"[{low:.3f}, {high:.3f}]"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def cost(matches: list[Match]) -> str:
    searched = [ms for match in matches for ms in match.searched_ms]
    every = [ms for match in matches for ms in match.all_ms]
    return (f"median CPU per search decision {median(searched):.0f} ms ({len(searched)} decisions searched; "
            f"{median(every):.0f} ms over all {len(every)} of the search seats)")


def report_share(title: str, matches: list[Match], target: float) -> None:
    share = sum(match.share for match in matches) / len(matches)
    low, high = wilson(share, len(matches))
    verdict = "meets" if share >= target else "misses"
    print(f"{title}: search win share {share:.3f} [{low:.3f}, {high:.3f}] over {len(matches)} matches "
          f"(target >= {target:.2f}: {verdict}); {cost(matches)}")


def report_team(matches: list[Match], heuristic: list[Match]) -> None:
    ours = sum(match.share for match in matches) / len(matches)
    theirs = sum(match.share for match in heuristic) / len(heuristic)
    gap = ours - theirs
    half = 1.96 * math.sqrt(ours * (1 - ours) / len(matches) + theirs * (1 - theirs) / len(heuristic))
    verdict = "meets" if gap >= 0.15 else "misses"
    print(f"Tiny Epic Defenders (hard, 2 seats): search team wins {ours:.3f} {interval(ours, len(matches))}, "
          f"heuristic team {theirs:.3f} {interval(theirs, len(heuristic))}; difference {gap:+.3f} "
          f"[{gap - half:+.3f}, {gap + half:+.3f}] (target >= +0.15: {verdict}); {cost(matches)}")
    plain = {match.seed: match.share for match in heuristic}
    only_search = sum(1 for match in matches if match.share > plain.get(match.seed, match.share))
    only_heuristic = sum(1 for match in matches if match.share < plain.get(match.seed, match.share))
    print(f"  same seeds: won by the search team alone {only_search}, by the heuristic team alone {only_heuristic} "
          f"(the other {len(matches) - only_search - only_heuristic} seeds went the same way for both)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=float, default=1000.0, help="CPU ms per search decision")
    parser.add_argument("--matches", type=int, default=40, help="Tiny Big Wars matches (seeds x 2 seatings)")
    parser.add_argument("--samurai-matches", type=int, default=8, help="Samurai matches (seeds x 4 seatings)")
    parser.add_argument("--defenders-matches", type=int, default=40, help="Defenders seeds (each played by both teams)")
    parser.add_argument("--jobs", type=int, default=1, help="matches played at once, one process each")
    parser.add_argument("--games", default="tinybigwars,samurai,defenders")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--decisions", type=int, default=0,
                        help="judge the search's decisions along this many heuristic matches a game instead")
    parser.add_argument("--every", type=int, default=3, help="judge every n-th decision (with --decisions)")
    parser.add_argument("--judge-worlds", type=int, default=60, help="paired worlds a judged decision")
    args = parser.parse_args()
    games = args.games.split(",")
    if args.decisions:
        started = time.perf_counter()
        with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            jobs = [pool.submit(judge, key, args.first_seed + n, args.budget, args.every, args.judge_worlds)
                    for key in games for n in range(args.decisions)]
            judged = [job.result() for job in jobs]
        print(f"budget {args.budget:.0f} CPU ms per decision; {len(judged)} heuristic matches judged in "
              f"{time.perf_counter() - started:.0f} s wall ({args.judge_worlds} worlds a judged decision)")
        report_judged(judged, args.budget)
        return
    plan: list[tuple[str, int, list[int]]] = []
    if "tinybigwars" in games:
        plan += [("tinybigwars", args.first_seed + n // 2, [n % 2]) for n in range(args.matches)]
    if "samurai" in games:
        plan += [("samurai", args.first_seed + n // 4, [n % 4]) for n in range(args.samurai_matches)]
    if "defenders" in games:
        for n in range(args.defenders_matches):
            plan += [("defenders", args.first_seed + n, [0, 1]), ("defenders", args.first_seed + n, [])]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(play, key, seed, seats, args.budget) for key, seed, seats in plan]
        for future in as_completed(futures):  # each match as it ends: a run cut short still tells
            match = future.result()
            print(f"  {match.game} seed {match.seed}, search seats {match.search_seats}: share {match.share:.2f} "
                  f"({match.wall:.0f} s wall)", file=sys.stderr, flush=True)
        done = [future.result() for future in futures]
    print(f"budget {args.budget:.0f} CPU ms per decision ({BUDGET_VARIABLE}); {len(done)} matches in "
          f"{time.perf_counter() - started:.0f} s wall")
    by_game = {key: [m for m in done if m.game == key and (key != "defenders" or m.search_seats)] for key in SEATS}
    if by_game["tinybigwars"]:
        report_share("Tiny Big Wars (2 seats, against the heuristic)", by_game["tinybigwars"], 0.70)
    if by_game["samurai"]:
        report_share("Samurai Swords (4 seats, one search against three heuristics)", by_game["samurai"], 0.40)
    if by_game["defenders"]:
        report_team(by_game["defenders"], [m for m in done if m.game == "defenders" and not m.search_seats])


if __name__ == "__main__":
    main()

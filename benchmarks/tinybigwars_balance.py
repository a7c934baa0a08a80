"""Tiny Big Wars balance: seeded heuristic self-play, measured against the balance goals.

Run: python benchmarks/tinybigwars_balance.py [--matches 1000] [--seats 2 3 4] [--processes 2]

Every figure comes from all-AI heuristic matches (seeds 0..matches-1 per seat count), the
heuristic building its own varied forces. Shares credit a sole winner 1, each seat of a
k-way draw 1/k. Goals (docs/rules/tinybigwars.md, "Balance"):

- median match length 5-8 rounds, per seat count;
- every seat's win share within 5 points of fair (1/seats), per seat count;
- win share by start card (the location card dealt onto a start node) within 7 points of
  fair, pooled over seat counts as points above fair;
- every hero's win share within 0.42-0.58 and every Building card within 6 points of no
  Building card, both pooled over seat counts as "fair-scaled" shares: 0.5 x credit won /
  credit expected (1/seats per appearance), so 0.5 is fair in any seat count;
- the heuristic builds every infrastructure during play.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.tinybigwars.ai import HeuristicPolicy, random_force  # noqa: E402

SEAT_TOLERANCE = 0.05
START_TOLERANCE = 0.07
HERO_RANGE = (0.42, 0.58)
BUILDING_TOLERANCE = 0.06
ROUNDS_RANGE = (5, 8)


class RandomForces(HeuristicPolicy):
    """Heuristic play with uniformly random legal forces: how the cards fare off the AI's builds."""

    def _force(self, state: Any, prompt: Any, rng: Any) -> dict[str, Any]:
        return {"picks": random_force(state.options.point_limit, rng)}


def play(job: tuple[int, int, int, str]) -> dict[str, Any]:
    """One match reduced to what the balance figures need, with its CPU time.

    The loop is ``bot.simulate.simulate``'s (same AI randomness per step and seat), so with
    ``forces="heuristic"`` it replays the very match ``simulate`` plays.
    """
    seats, seed, point_limit, forces = job
    start = time.process_time()
    builds: Counter[str] = Counter()
    first_order: list[int] = []
    game = engine.get("tinybigwars")
    policy = HeuristicPolicy() if forces == "heuristic" else RandomForces()
    state = game.setup(seats, engine.parse_options(game, {"point_limit": point_limit}), seed)
    while (result := game.result(state)) is None:
        prompt = next(p for p in game.prompts(state) if not p.answered)
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(seed, state.step, f"ai:{prompt.seat}"))
        step = game.submit(state, prompt.seat, choice)
        state = step.state
        builds.update(e.data.get("infrastructure", "?") for e in step.events if e.kind == "build")
        if not first_order:
            first_order = next((e.data["order"] for e in step.events if e.kind == "activation_start"), [])
    starts = {loc.start_seat: loc.card for loc in state.locations if loc.start_seat is not None}
    clans = []
    for seat in state.seats:
        force = seat.force
        clans.append(
            {
                "heroes": list(force.heroes),
                "minions": list(force.minion_cards),
                "building": force.buildings[0] if force.buildings else "none",
                "start": starts[seat.seat],
            }
        )
    winners = result.winners
    credit = [0.0] * seats
    for w in winners:
        credit[w] = 1 / len(winners)
    return {
        "seats": seats,
        "seed": seed,
        "rounds": state.round,
        "reason": result.reason,
        "draw": result.draw,
        "credit": credit,
        "clans": clans,
        "builds": dict(builds),
        "first_order": first_order,
        "cpu": time.process_time() - start,
    }


class Share:
    """Credit won against credit expected for one group of seat appearances."""

    def __init__(self) -> None:
        self.won = 0.0
        self.expected = 0.0
        self.appearances = 0
        self.variance = 0.0

    def add(self, credit: float, seats: int) -> None:
        self.won += credit
        self.expected += 1 / seats
        self.appearances += 1

    def scaled(self) -> float:
        """0.5 x won / expected: 0.5 is a fair share at any seat count."""
        return 0.5 * self.won / self.expected if self.expected else 0.0

    def above_fair(self) -> float:
        """Mean win share minus the fair share, in share units (0.07 = 7 points)."""
        return (self.won - self.expected) / self.appearances if self.appearances else 0.0

    def add_spread(self, seats: int) -> None:
        self.variance += (1 / seats) * (1 - 1 / seats)

    def standard_error(self) -> float:
        """Sampling error of ``above_fair`` if every clan won its fair share by chance alone."""
        return self.variance**0.5 / self.appearances if self.appearances else 0.0


def verdict(ok: bool) -> str:
    return "ok  " if ok else "MISS"


def report(matches: list[dict[str, Any]], cpu: float, wall: float) -> bool:
    """Print every figure and the goal verdicts; True when every goal is met."""
    all_ok = True
    counts = Counter(m["seats"] for m in matches)
    print(f"{len(matches)} seeded heuristic matches ({', '.join(f'{n} x {k} seats' for k, n in sorted(counts.items()))})")
    print(f"CPU time {cpu:.1f} s (all workers), wall {wall:.1f} s")
    print()
    print("match length and seat shares")
    for seats in sorted(counts):
        group = [m for m in matches if m["seats"] == seats]
        rounds = [m["rounds"] for m in group]
        median = statistics.median(rounds)
        ok = ROUNDS_RANGE[0] <= median <= ROUNDS_RANGE[1]
        all_ok &= ok
        reasons = Counter(m["reason"] + (" draw" if m["draw"] else "") for m in group)
        spread = Counter(rounds)
        print(
            f"  {verdict(ok)} {seats} seats: median {median} rounds, mean {statistics.mean(rounds):.2f}, "
            f"range {min(rounds)}-{max(rounds)}; ended by " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
        )
        print("       rounds: " + " ".join(f"{r}:{spread[r]}" for r in sorted(spread)))
        fair = 1 / seats
        shares = [sum(m["credit"][i] for m in group) / len(group) for i in range(seats)]
        ok = all(abs(x - fair) <= SEAT_TOLERANCE for x in shares)
        all_ok &= ok
        print(f"  {verdict(ok)} {seats} seats: win share by seat " + ", ".join(f"{i} {x:.3f}" for i, x in enumerate(shares)) + f" (fair {fair:.3f})")
        places = [sum(m["credit"][m["first_order"][k]] for m in group) / len(group) for k in range(seats)]
        print("       by place in the round-1 activation order: " + ", ".join(f"{k + 1}. {x:.3f}" for k, x in enumerate(places)))
    by_start: dict[str, Share] = defaultdict(Share)
    by_hero: dict[str, Share] = defaultdict(Share)
    by_building: dict[str, Share] = defaultdict(Share)
    by_count: dict[int, Share] = defaultdict(Share)
    builds: Counter[str] = Counter()
    forces: Counter[tuple[str, ...]] = Counter()
    for m in matches:
        builds.update(m["builds"])
        for clan, credit in zip(m["clans"], m["credit"], strict=True):
            by_start[clan["start"]].add(credit, m["seats"])
            by_start[clan["start"]].add_spread(m["seats"])
            for hero in clan["heroes"]:
                by_hero[hero].add(credit, m["seats"])
            by_building[clan["building"]].add(credit, m["seats"])
            by_count[len(clan["heroes"])].add(credit, m["seats"])
            forces[tuple(sorted([*clan["heroes"], *clan["minions"], clan["building"]]))] += 1
    print()
    worst = max(abs(x.above_fair()) for x in by_start.values())
    ok = worst <= START_TOLERANCE
    all_ok &= ok
    error = statistics.mean(x.standard_error() for x in by_start.values())
    print(
        f"  {verdict(ok)} win share by start card, points above fair (worst {100 * worst:.1f}; "
        f"chance alone moves a row by about {100 * error:.1f}, the worst of 15 rows by about {240 * error:.1f}):"
    )
    for card, share in sorted(by_start.items(), key=lambda kv: kv[1].above_fair()):
        print(f"       {card:11s} {100 * share.above_fair():+5.1f}  ({share.appearances} starts)")
    print()
    values = [x.scaled() for x in by_hero.values()]
    ok = all(HERO_RANGE[0] <= x <= HERO_RANGE[1] for x in values)
    all_ok &= ok
    print(f"  {verdict(ok)} hero win share, fair-scaled (0.5 = fair), range {min(values):.3f}-{max(values):.3f}:")
    for hero, share in sorted(by_hero.items(), key=lambda kv: kv[1].scaled()):
        print(f"       {hero:9s} {share.scaled():.3f}  ({share.appearances} clans)")
    print("       by number of heroes: " + ", ".join(f"{k}: {v.scaled():.3f} ({v.appearances})" for k, v in sorted(by_count.items())))
    print()
    base = by_building["none"].scaled() if "none" in by_building else 0.5
    gaps = {b: s.scaled() - base for b, s in by_building.items() if b != "none"}
    ok = all(abs(x) <= BUILDING_TOLERANCE for x in gaps.values())
    all_ok &= ok
    print(f"  {verdict(ok)} Building card win share, fair-scaled, against no building ({base:.3f}):")
    for card, share in sorted(by_building.items()):
        gap = "" if card == "none" else f" ({100 * gaps[card]:+.1f} points)"
        print(f"       {card:14s} {share.scaled():.3f}{gap}  ({share.appearances} clans)")
    print()
    ok = all(builds[x] > 0 for x in ("dojo", "market", "watchtower"))
    all_ok &= ok
    print(f"  {verdict(ok)} infrastructure built in play: " + ", ".join(f"{k} {v}" for k, v in sorted(builds.items())))
    clans = sum(forces.values())
    print(f"       {len(forces)} distinct forces over {clans} clans; most common {forces.most_common(1)[0][1]} times")
    print()
    print("all goals met" if all_ok else "some goals missed")
    return all_ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1000, help="seeded matches per seat count (at least 500 for the goals)")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--processes", type=int, default=2, help="worker processes (at most 2)")
    parser.add_argument("--point-limit", type=int, default=30)
    parser.add_argument(
        "--forces",
        choices=["heuristic", "random"],
        default="heuristic",
        help="who builds the forces: the heuristic (the goals) or uniformly random legal forces",
    )
    args = parser.parse_args()
    print(f"forces built by: {args.forces}; point limit {args.point_limit}")
    jobs = [(seats, seed, args.point_limit, args.forces) for seats in args.seats for seed in range(args.matches)]
    start = time.perf_counter()
    processes = max(1, min(2, args.processes))
    if processes == 1:
        matches = [play(job) for job in jobs]
    else:
        with Pool(processes) as pool:
            matches = pool.map(play, jobs, chunksize=16)
    wall = time.perf_counter() - start
    report(matches, sum(m["cpu"] for m in matches), wall)


if __name__ == "__main__":
    main()

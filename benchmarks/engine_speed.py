"""Engine speed in CPU time: heuristic matches per second, each beside floors from the same run.

The figure is ``time.process_time()`` of whole seeded all-AI matches through ``bot.simulate``
(the loop the service and the `simulate` command use), so a busy machine slows the wall clock
but barely the figure. Floors, measured in the same run on the same states:

- copy: what the state copies alone cost (one per choice), as matches/s;
- random: random-legal self-play at the same number of choices per match, as matches/s;
- prompts: building every open prompt once per choice, as matches/s;
- both: the copy and the prompts together: the least a match can cost under the engine
  contract (``submit`` returns a new state; the driver reads ``prompts`` before each choice)
  even if the AI and the rules cost nothing.

Replay (issue 31): the recorded choice logs of the same heuristic matches played again, in
choices/s, beside the copy floor (a copy per choice alone) from the same run:

- ``replay working``: through a driver-owned working copy (engine/working.py: at most one copy
  per transaction, every step in place, prompts built only when asked). This is how every
  driver applies choices (the service's ``Store.load_state``, ``bot.simulate``,
  ``engine.replay``), as the issue allows, so it is the figure the "replay through submit"
  targets are read against;
- ``replay submit``: through the contract's ``submit``, which returns a new state and so
  copies the whole state on every choice (the figure printed before; it stays at or below the
  copy floor whatever the rules cost).

Run: python benchmarks/engine_speed.py [--matches 40] [--samurai-matches 8]
[--defenders-matches 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.simulate import simulate  # noqa: E402
from engine.clone import clone  # noqa: E402
from engine.contract import State  # noqa: E402


def cpu_of(fn: Any) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def play(key: str, seats: int, seeds: range, policy: str) -> int:
    """Choices played over ``seeds``."""
    return sum(simulate(key, seats, seed, policy)["choices"] for seed in seeds)


class Floors:
    """CPU time of the floor operations on every state of a run, timed one by one as the run
    goes (keeping thousands of states alive would make the collector the figure)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.copy = self.json_copy = self.prompts = 0.0

    def on_step(self, state: State, _events: object) -> None:
        clock = time.process_time
        start = clock()
        clone(state)
        middle = clock()
        type(state).model_validate_json(state.model_dump_json())
        end = clock()
        self.game.prompts(state)
        self.copy += middle - start
        self.json_copy += end - middle
        self.prompts += clock() - end


def measure(key: str, seats: int, matches: int, repeat: int) -> None:
    """Print matches/s of heuristic play and the floors beside it."""
    game = engine.get(key)
    seeds = range(matches)
    choices = play(key, seats, seeds, "heuristic")
    per_match = choices / matches
    heuristic = statistics.median(cpu_of(lambda: play(key, seats, seeds, "heuristic")) for _ in range(repeat))
    random_choices = play(key, seats, seeds, "random")
    random_cpu = statistics.median(cpu_of(lambda: play(key, seats, seeds, "random")) for _ in range(repeat))
    floors = Floors(game)
    for seed in seeds:
        simulate(key, seats, seed, "heuristic", on_step=floors.on_step)
    random_per_choice = random_cpu / random_choices
    print(f"{key} {seats} seats, {matches} seeded heuristic matches, {per_match:.0f} choices each (median of {repeat})")
    print(f"  heuristic      {matches / heuristic:8.1f} matches/s  {choices / heuristic:8.0f} choices/s  "
          f"{heuristic / choices * 1e6:6.0f} us CPU per choice")
    print(f"  floor random   {1 / (random_per_choice * per_match):8.1f} matches/s  "
          f"{1 / random_per_choice:8.0f} choices/s  {random_per_choice * 1e6:6.0f} us per choice "
          f"(random-legal self-play, same choices per match)")
    print(f"  floor copy     {matches / floors.copy:8.1f} matches/s  {floors.copy / choices * 1e6:6.1f} us per copy "
          f"(JSON round trip: {floors.json_copy / choices * 1e6:.1f} us)")
    print(f"  floor prompts  {matches / floors.prompts:8.1f} matches/s  {floors.prompts / choices * 1e6:6.1f} us "
          f"per choice (every open prompt built once)")
    both = floors.copy + floors.prompts
    print(f"  floor both     {matches / both:8.1f} matches/s  {both / choices * 1e6:6.1f} us per choice "
          f"(one copy and the open prompts per choice: what the contract costs with free AI and rules)")


def replay(key: str, seats: int, matches: int, repeat: int) -> None:
    """Print choices/s of replaying recorded heuristic matches, through ``submit`` and through
    a working copy, beside the copy floor, all from this run."""
    game = engine.get(key)
    options = engine.parse_options(game, None)
    logs = [simulate(key, seats, seed, "heuristic")["log"] for seed in range(matches)]
    choices = sum(len(log) for log in logs)

    def through_submit() -> None:
        for seed, log in enumerate(logs):
            state = game.setup(seats, options, seed)
            for seat, choice in log:
                state = game.submit(state, seat, choice).state

    def through_working_copy() -> None:
        for seed, log in enumerate(logs):
            working = engine.Working(game, game.setup(seats, options, seed), owned=True)
            for seat, choice in log:
                working.submit(seat, choice)

    submit_cpu = statistics.median(cpu_of(through_submit) for _ in range(repeat))
    working_cpu = statistics.median(cpu_of(through_working_copy) for _ in range(repeat))
    copy_cpu = 0.0
    for seed, log in enumerate(logs):
        working = engine.Working(game, game.setup(seats, options, seed), owned=True)
        for seat, choice in log:
            start = time.process_time()
            clone(working.state)
            copy_cpu += time.process_time() - start
            working.submit(seat, choice)
    print(f"{key} {seats} seats, replay of {matches} recorded heuristic matches, {choices} choices "
          f"(median of {repeat})")
    print(f"  replay working {choices / working_cpu:8.0f} choices/s  {working_cpu / choices * 1e6:6.1f} us per choice "
          f"(driver-owned working copy, steps in place: the figure the targets read against)")
    print(f"  replay submit  {choices / submit_cpu:8.0f} choices/s  {submit_cpu / choices * 1e6:6.1f} us per choice "
          f"(the contract's submit, a copy per choice: the figure printed before)")
    print(f"  floor copy     {choices / copy_cpu:8.0f} choices/s  {copy_cpu / choices * 1e6:6.1f} us per choice "
          f"(the copy alone: the most submit can reach)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=40, help="Tiny Big Wars matches (3 seats)")
    parser.add_argument("--samurai-matches", type=int, default=8, help="Samurai Swords matches (4 seats, base)")
    parser.add_argument("--defenders-matches", type=int, default=20, help="Tiny Epic Defenders matches (2 seats)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--replay-only", action="store_true", help="only the replay figures")
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    runs = [("tinybigwars", 3, args.matches), ("samurai", 4, args.samurai_matches),
            ("defenders", 2, args.defenders_matches)]
    for key, seats, matches in runs:
        replay(key, seats, matches, args.repeat)
        if not args.replay_only:
            measure(key, seats, matches, args.repeat)
    print(f"load average at end: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()

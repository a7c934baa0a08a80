"""Soak the engines: hundreds of random-legal whole matches per game and mode, each checked with
the property checks of the engine tests (tests/engine/random_matches.py): every match ends,
prompts fit Discord and have legal defaults, `submit` never mutates its input, states round-trip
through JSON, no view shows a sealed answer or a hidden order, and fully checked matches replay
to the identical end. The tests play the first few matches of each series; this plays on.

Prints, per game: matches, choices, CPU seconds, and every property failure (the match and the
broken assertion); exits 1 if any match failed.

Run: python benchmarks/soak.py [--game samurai|defenders|tinybigwars|all] [--matches 200]
[--seeds 0]   (--seeds: where each series starts; another start plays matches no test has)
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engine.random_matches import MODES, play, schedule  # noqa: E402

DEFAULT_MATCHES = {"samurai": 200, "defenders": 200, "tinybigwars": 300}
"""The acceptance figures the tests once played in full: per mode (Tiny Big Wars: in all)."""


def soak(game: str, matches: int, first: int) -> list[str]:
    """Play one game's series; print its figures and return its failures."""
    failures: list[str] = []
    played = choices = 0
    start = time.process_time()
    for match in schedule(game, matches, first):
        try:
            choices += play(match)
        except Exception as exc:  # an AssertionError is a broken property; anything else a crash
            where = traceback.extract_tb(exc.__traceback__)[-1]
            failures.append(f"{match.label()}{' [full checks]' if match.full else ''}: "
                            f"{type(exc).__name__}: {exc} ({Path(where.filename).name}:{where.lineno})")
            print(f"FAIL {failures[-1]}", flush=True)
        played += 1
    seconds = time.process_time() - start
    modes = len(MODES[game])
    print(f"{game}: {played} matches ({modes} mode{'s' if modes > 1 else ''}), {choices} choices, "
          f"{seconds:.1f} CPU s ({choices / max(seconds, 1e-9):.0f} choices/s), {len(failures)} failed", flush=True)
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=[*DEFAULT_MATCHES, "all"], default="all")
    parser.add_argument("--matches", type=int, default=None,
                        help="matches per mode (Tiny Big Wars: in all); default 200 (300 for Tiny Big Wars)")
    parser.add_argument("--seeds", type=int, default=0, metavar="FIRST",
                        help="the first match number of each series (0: the tests' own matches come first)")
    args = parser.parse_args()
    games = list(DEFAULT_MATCHES) if args.game == "all" else [args.game]
    failures: list[str] = []
    for game in games:
        failures += soak(game, args.matches or DEFAULT_MATCHES[game], args.seeds)
    if failures:
        print(f"\n{len(failures)} propert{'y' if len(failures) == 1 else 'ies'} broken:")
        for line in failures:
            print(f"  {line}")
        return 1
    print("every property held")
    return 0


if __name__ == "__main__":
    sys.exit(main())

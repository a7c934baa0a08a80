"""Randomness derived from (match seed, step number), never stored as a live object.

The salt keeps draws for different purposes apart, so one more draw for one purpose never
shifts another's. The salts in use are part of every stored match (a match is its seed and
its choice log, replayed), so none is ever renamed, even where the games disagree:

- setup: ``"setup"`` (every game), ``"first seat"`` (Tiny Big Wars), ``"advance"`` (the run-on
  to the first decision, Samurai Swords and Defenders);
- a choice: ``""`` at the step answered (Tiny Big Wars, Samurai Swords), ``"step"`` at the step
  after it (Defenders); engine/kit/flow.py's `StepRandom` records which, and why;
- a policy choosing for a seat: ``"<who>:<seat>"`` in the service (``"ai:<seat>"`` for an AI
  seat, as in the simulator), ``"foe:<seat>"`` per round in Samurai Swords' heuristic.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any, cast


def derive_seed(seed: int, step: int, salt: str = "") -> int:
    digest = hashlib.sha256(f"{seed}:{step}:{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def rng_for(seed: int, step: int, salt: str = "") -> random.Random:
    """The RNG for one step: the same seed and step always give the same numbers."""
    return random.Random(derive_seed(seed, step, salt))


class _SeededOnUse:
    """``rng_for(seed, step, salt)``, seeded on first use: most choices and most policy
    decisions roll nothing, and seeding costs as much as a small rule. Callers take it as the
    ``random.Random`` it stands for (each method is the seeded RNG's own, so the numbers are
    the same)."""

    def __init__(self, seed: int, step: int, salt: str, make: Callable[[int, int, str], random.Random]) -> None:
        self._of = (seed, step, salt)
        self._make = make

    def __getattr__(self, name: str) -> Any:
        rng = self.__dict__.get("_rng")
        if rng is None:
            rng = self.__dict__["_rng"] = self._make(*self._of)
        value = getattr(rng, name)
        self.__dict__[name] = value
        return value


def lazy_rng_for(seed: int, step: int, salt: str = "",
                 make: Callable[[int, int, str], random.Random] | None = None) -> random.Random:
    """`rng_for` (or ``make``), seeded only when first drawn from."""
    return cast(random.Random, _SeededOnUse(seed, step, salt, make or rng_for))


def roll_dice(rng: random.Random, sides: int, count: int) -> list[int]:
    """``count`` dice of ``sides`` sides: ``[rng.randint(1, sides) for _ in range(count)]``,
    the very same numbers drawn the very same way (``randint`` takes ``getrandbits`` of the
    bit length of ``sides`` until one is below ``sides``: Random._randbelow), without the three
    Python calls ``randint`` makes per die (battles roll thousands a match). The replay digests
    and tests/engine/test_rng.py hold it to ``randint``."""
    draw = getattr(rng, "getrandbits", None)
    if draw is None:  # a scripted stand-in (tests plan the dice through randint)
        return [rng.randint(1, sides) for _ in range(count)]
    bits = sides.bit_length()
    out = []
    for _ in range(count):
        value = draw(bits)
        while value >= sides:
            value = draw(bits)
        out.append(value + 1)
    return out

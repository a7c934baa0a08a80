"""Randomness derived from (match seed, step number), never stored as a live object."""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, step: int, salt: str = "") -> int:
    digest = hashlib.sha256(f"{seed}:{step}:{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def rng_for(seed: int, step: int, salt: str = "") -> random.Random:
    """The RNG for one step: the same seed and step always give the same numbers."""
    return random.Random(derive_seed(seed, step, salt))

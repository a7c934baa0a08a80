"""AI choices that take thought (the search AI) made beside the event loop.

A heuristic answers in a millisecond, so it chooses on the loop inside the match's transaction.
A policy that says it searches (``offload = True``, engine/search.py) may spend a second of CPU
per decision: it runs in the drawing pool's worker processes (bot/service/drawing.py), the
same way a map is drawn, so acknowledgements and other matches go on meanwhile. The worker gets
the game's key, the policy's name and the true state, and asks through ``engine.decide`` like
every driver, so the policy still sees only its seat's information state. A game outside the
pool's games (a test's stand-in), or a bot without workers, thinks in a thread instead.
"""

from __future__ import annotations

import random
from typing import Any

import engine as eng
from bot.service import drawing


def offloaded(policy: object) -> bool:
    """Whether ``policy`` thinks long enough to leave the event loop."""
    return bool(getattr(policy, "offload", False))


def think(key: str, policy_name: str, state: eng.State, prompt: eng.Prompt, rng: random.Random) -> dict[str, Any]:
    """In a worker: the named policy's choice (it reads its budget here, when it is made)."""
    game = eng.get(key)
    return eng.decide(game, game.policies()[policy_name], state, prompt, rng)


async def choose(game: eng.Game, policy_name: str, policy: object, state: eng.State, prompt: eng.Prompt,
                 rng: random.Random) -> dict[str, Any]:
    """The choice of ``policy`` (named ``policy_name`` among the game's policies) for ``prompt``:
    beside the loop when it searches, on it otherwise."""
    if not offloaded(policy):
        return eng.decide(game, policy, state, prompt, rng)  # type: ignore[arg-type]
    return await drawing.run("think", think, game.key, policy_name, state, prompt, rng, game=game.key)

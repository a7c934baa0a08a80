"""Step 6: a random and a heuristic policy, ``choose(state, prompt, rng)``. The heuristic reads
only what the table knows: last round's revealed hiding places and this round's searches."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine import Prompt
from tests.addgame.lanterns.content import places
from tests.addgame.lanterns.state import LanternState


class RandomPolicy:
    name = "random"

    def choose(self, state: LanternState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        return dict(rng.choice(prompt.options).choice)


class HeuristicPolicy:
    """Hides away from where the others' lanterns were last round (the seekers look there) and
    in a dim place; searches where most of the others' lanterns were last round, the brightest
    place breaking ties."""

    name = "heuristic"

    def choose(self, state: LanternState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        table = places()
        last = Counter(place for seat, place in enumerate(state.revealed) if seat != prompt.seat)
        if prompt.kind == "hide":
            pick = min(table, key=lambda place: (last[place], table[place].glow, place))
        else:
            pick = max(table, key=lambda place: (last[place], table[place].glow, place))
        return {"place": pick}

"""The map: the Capital City in the middle of a ring of six Outer Regions.

Ring position 0 lies left of the Capital and 3 right of it; only those two touch the Capital
(defenders-facts.md A2). Distances are breadth-first over that graph.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import lru_cache

from engine.defenders.state import DefendersState

CAPITAL = "capital"


def adjacent(state: DefendersState, key: str) -> list[str]:
    return _adjacent(state.ring, key)


def _adjacent(ring: Sequence[str], key: str) -> list[str]:
    if key == CAPITAL:
        return [ring[0], ring[3]]
    i = ring.index(key)
    out = [ring[(i - 1) % 6], ring[(i + 1) % 6]]
    if i in (0, 3):
        out.append(CAPITAL)
    return out


def distances(state: DefendersState, start: str) -> dict[str, int]:
    """Steps from ``start`` to every place (a shared dict: read it, never change it)."""
    return _distances(tuple(state.ring), start)


@lru_cache(maxsize=4096)
def _distances(ring: tuple[str, ...], start: str) -> dict[str, int]:
    """Breadth-first over the map of one ring order, worked out once per order and start."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in _adjacent(ring, here):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def step_toward(state: DefendersState, start: str, goal: str) -> str | None:
    """The neighbour of `start` on a shortest path to `goal` (ring order breaks ties)."""
    if start == goal:
        return None
    dist = distances(state, goal)
    return min(adjacent(state, start), key=lambda r: dist[r])


def most_threatened(state: DefendersState, among: list[str] | None = None) -> str:
    """The Outer Region with the most Threat (destroyed ones last); ring order breaks ties."""
    keys = among if among is not None else state.ring
    return max(keys, key=lambda region: (not state.regions[region].destroyed, state.regions[region].threat, -state.ring.index(region)))

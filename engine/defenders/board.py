"""The map: the Capital City in the middle of a ring of six Outer Regions.

Ring position 0 lies left of the Capital and 3 right of it; only those two touch the Capital
(defenders-facts.md A2). Distances are breadth-first over that graph.
"""

from __future__ import annotations

from collections import deque

from engine.defenders.state import DefendersState

CAPITAL = "capital"


def adjacent(state: DefendersState, key: str) -> list[str]:
    ring = state.ring
    if key == CAPITAL:
        return [ring[0], ring[3]]
    i = ring.index(key)
    out = [ring[(i - 1) % 6], ring[(i + 1) % 6]]
    if i in (0, 3):
        out.append(CAPITAL)
    return out


def distances(state: DefendersState, start: str) -> dict[str, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in adjacent(state, here):
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

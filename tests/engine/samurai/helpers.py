"""Shared helpers for the Samurai tests: build states, answer with defaults, blank boards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine
from bot.simulate import simulate
from engine.kit import Flow
from engine.kit import flow as kit_flow
from engine.samurai.phases import PHASES
from engine.samurai.state import Army, Prov, SamuraiOptions, SamuraiState, War, no_units

G = engine.get("samurai")


def new(mode: str = "base", seats: int = 3, seed: int = 1, **opts: Any) -> SamuraiState:
    return G.setup(seats, SamuraiOptions(mode=mode, **opts), seed)


def first_open(st: SamuraiState):
    ps = G.prompts(st)
    open_ = [p for p in ps if not p.answered]
    return (open_ or ps)[0]


def step_default(st: SamuraiState) -> SamuraiState:
    pr = first_open(st)
    return G.submit(st, pr.seat, pr.default).state


def advance_to(st: SamuraiState, phase: str, limit: int = 3000) -> SamuraiState:
    for _ in range(limit):
        if st.phase == phase:
            return st
        st = step_default(st)
    raise AssertionError(f"never reached {phase}, stuck in {st.phase}")


def heuristic_match_after(choices: int) -> SamuraiState:
    """Seed 1's heuristic 3-seat match (two rounds) after its first ``choices`` choices,
    replayed through ``submit``: a state of a real match for a test to change by hand."""
    played = simulate("samurai", 3, 1, "heuristic", options={"round_limit": 2})
    state = G.setup(3, engine.parse_options(G, {"round_limit": 2}), 1)
    for seat, choice in played["log"][:choices]:
        state = G.submit(state, seat, choice).state
    assert isinstance(state, SamuraiState)
    return state


def checked_match(seats: int, seed: int, policy: str, mode: str, check: Callable[[SamuraiState], int],
                  layout: Callable[[SamuraiState], object]) -> tuple[int, int]:
    """Play a three-round match calling ``check`` on the state after every step: the sum of
    what ``check`` returned, and how many steps changed ``layout`` (the test's proof that the
    thing it checks did move during the match)."""
    seen = 0
    changed = 0
    last: object = None

    def on_step(state: object, _events: object) -> None:
        nonlocal seen, changed, last
        assert isinstance(state, SamuraiState)
        seen += check(state)
        now = layout(state)
        changed += now != last
        last = now

    simulate("samurai", seats, seed, policy, options={"mode": mode, "round_limit": 3}, on_step=on_step)
    return seen, changed


def submit(st: SamuraiState, seat: int, choice: dict[str, Any]) -> SamuraiState:
    return G.submit(st, seat, choice).state


def blank(st: SamuraiState) -> SamuraiState:
    """Empty the board: no owners, no units, armies off the map (alive, level 1, empty)."""
    st = st.model_copy(deep=True)
    st.provinces = {pid: Prov() for pid in st.provinces}
    for pl in st.players:
        pl.armies = [Army(idx=i, alive=False) for i in range(3)]
        pl.draft = {}
    st.interrupts = []
    st.queue = []
    return st


def own(st: SamuraiState, seat: int | None, pid: str, **units: int) -> None:
    prov = st.provinces[pid]
    prov.owner = seat
    g = no_units()
    g.update(units)
    prov.garrison = g


def put_army(st: SamuraiState, seat: int, idx: int, pid: str, level: int = 1, **units: int) -> Army:
    a = st.players[seat].armies[idx]
    a.alive = True
    a.location = pid
    a.level = level
    a.moves_left = level
    a.units = {**no_units(), **units}
    return a


def war_at(st: SamuraiState, seat: int, sub: str = "A", round_: int = 2) -> SamuraiState:
    """Put the state in seat's Wage War turn, phase `sub`, with nobody holding the ninja."""
    st.phase = "war"
    st.round = round_
    st.order = [seat] + [s for s in range(st.seats) if s != seat]
    st.war = War(order_pos=0, sub=sub)
    st.ninja = None
    for a in st.players[seat].armies:
        a.moves_left = a.level
        a.attacks_used = 0
    return st


def opponents_elsewhere(st: SamuraiState) -> None:
    """Give every seat an army far away so nobody is eliminated by accident."""
    spots = {0: "tosa", 1: "satsuma", 2: "tsushima", 3: "oki", 4: "osumi"}
    for pl in st.players:
        pid = spots[pl.seat]
        own(st, pl.seat, pid, spearman=1)
        put_army(st, pl.seat, 2, pid)


def prompt_for(st: SamuraiState, seat: int):
    return [p for p in G.prompts(st) if p.seat == seat][0]


def prompt_kinds(st: SamuraiState) -> list[str]:
    return [p.kind for p in G.prompts(st)]


__all__ = ["G", "kit_flow", "Flow", "PHASES", "new", "advance_to", "step_default", "submit", "blank", "own", "put_army",
           "war_at", "opponents_elsewhere", "prompt_for", "prompt_kinds", "first_open"]


class Dice:
    """A scripted RNG: randint returns the next planned die, 12 (a miss) when none is left."""

    def __init__(self, rolls=()):
        self.rolls = list(rolls)

    def randint(self, a, b):
        return self.rolls.pop(0) if self.rolls else 12

    def random(self):
        return 0.5

    def shuffle(self, x):
        return None


def declare(st, seat, src, tgt, army=None, units=None):
    """Declare an attack; a garrison force sends the units named (default: the prompt's default)."""
    choice = {"act": "source", "province": src}
    if army is not None:
        choice["army"] = army
    st = submit(st, seat, choice)
    st = submit(st, seat, {"act": "attack", "target": tgt})
    pr = prompt_for(st, seat)
    if pr.kind == "garrison_force":
        st = submit(st, seat, pr.default if units is None else units)
    return st

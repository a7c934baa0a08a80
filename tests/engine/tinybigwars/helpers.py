"""Builders for Tiny Big Wars test positions: real setups, then the board arranged by hand."""

from __future__ import annotations

from typing import Any

import engine
from engine.contract import Event
from engine.tinybigwars.state import Options, TBWState, Turn

G = engine.get("tinybigwars")


class Dice:
    """A scripted stand-in for random.Random: randint returns the given faces in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)

    def choice(self, seq: list[Any]) -> Any:
        return seq[0]


def new(seats: int = 2, seed: int = 1, **options: Any) -> TBWState:
    state = G.setup(seats, Options(**options), seed)
    assert isinstance(state, TBWState)
    return state


def sub(state: TBWState, seat: int, choice: dict[str, Any]) -> TBWState:
    return G.submit(state, seat, choice).state


def sub_ev(state: TBWState, seat: int, choice: dict[str, Any]) -> tuple[TBWState, list[Event]]:
    step = G.submit(state, seat, choice)
    return step.state, step.events


def started(*forces: list[str], seed: int = 1, **options: Any) -> TBWState:
    """A match whose forces are revealed: round 1, Clan Phase."""
    state = new(len(forces), seed, **options)
    for seat, picks in enumerate(forces):
        state = sub(state, seat, {"picks": picks})
    return state


def blank(*forces: list[str], seed: int = 1, **options: Any) -> TBWState:
    """Revealed forces on an empty board: no minions, no infrastructure, 0 energy, no coins."""
    state = started(*forces, seed=seed, **options)
    for loc in state.locations:
        loc.minions = [0] * state.seats_n
        loc.infrastructure = None
    for h in state.heroes:
        h.energy = 0
    for st in state.seats:
        st.coins = 0
        st.clan_done = True
        st.pending = None
    return state


def put_card(state: TBWState, node: str, card: str) -> None:
    """Deal location card ``card`` onto ``node`` (swapping with where it was)."""
    here = state.loc(node)
    other = next((loc for loc in state.locations if loc.card == card), None)
    if other is not None:
        other.card = here.card
    here.card = card


def neutral_card(state: TBWState, node: str) -> None:
    """Give ``node`` a card whose ability does not interfere with movement or training."""
    put_card(state, node, "counting")


def activation(state: TBWState, order: list[int]) -> TBWState:
    """Jump to the Hero Activation Phase with the given order, first seat to act."""
    state.phase = "activation"
    state.turn = Turn(order=order, index=0)
    for st in state.seats:
        st.clan_done = True
        st.coins = 0
    return state


def hero(state: TBWState, seat: int, card: str) -> Any:
    return state.hero(f"h{seat}-{card}")


def prompt_of(state: TBWState, seat: int) -> Any:
    return next(p for p in G.prompts(state) if p.seat == seat)


def plain(state: Any, *nodes: str) -> None:
    """Give the nodes cards whose abilities never touch moving, training or fighting."""
    for node, card in zip(nodes, ["counting", "gate", "academy", "hall", "temple"], strict=False):
        put_card(state, node, card)


def finish_clan_phase(s: Any) -> tuple[Any, list[Event]]:
    """Every seat still in the Clan Phase says Done, through ``submit``."""
    events: list[Event] = []
    while s.phase == "clan":
        p = G.prompts(s)[0]
        s, more = sub_ev(s, p.seat, {"action": "done"})
        events += more
    return s, events


def home(s: Any, seat: int) -> str:
    return next(loc.id for loc in s.locations if loc.start_seat == seat)


def level_starts(s: Any, *cards: str) -> None:
    """Same-influence cards on the start nodes, nobody anywhere else."""
    for loc in s.locations:
        if loc.start_seat is None:
            loc.minions = [0] * s.seats_n
    for seat, card in enumerate(cards):
        put_card(s, home(s, seat), card)

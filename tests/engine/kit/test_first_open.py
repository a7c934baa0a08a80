"""`PhaseTable.first_open`: what an all-AI driver answers next, building as few prompts as it can.

A phase's ``answered`` hook says a decision is answered (a sealed choice the seat may still
revise) without building its prompt; every game phase that declares it must agree with the
prompts it builds, at every step of a match.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import Field

import engine
from bot.simulate import simulate
from engine.contract import Prompt, State
from engine.kit import Asked, Flow, Phase, PhaseTable, Sealed
from engine.kit.game import KitGame
from engine.kit.phases import Builder
from engine.tinybigwars.answers import ActivateAnswer


class Round(State):
    """Three seats seal a bid each; seat 1 also owes a toast after its bid."""

    phase: str = "bid"
    bids: dict[str, int] = Field(default_factory=dict)
    toasted: bool = False


def _owed(state: Round) -> list[tuple[int, str]]:
    return [(0, "bid"), (1, "bid"), (1, "toast"), (2, "bid")]


def _is_answered(state: Round, seat: int, kind: str) -> bool:
    return str(seat) in state.bids if kind == "bid" else state.toasted


def _bid(flow: Flow[Round], seat: int, asked: Asked, amount: int) -> None:
    flow.state.bids[str(seat)] = amount


def _toast(flow: Flow[Round], seat: int, asked: Asked, answer: object) -> None:
    flow.state.toasted = True


class Builds:
    """Prompt builders that write down every prompt they build."""

    def __init__(self) -> None:
        self.built: list[tuple[int, str]] = []

    def builder(self, kind: str) -> Builder[Round]:
        def build(state: Round, seat: int) -> Prompt:
            self.built.append((seat, kind))
            return Prompt(seat=seat, kind=kind, text=kind, answer=ActivateAnswer, secret=True,
                          answered=_is_answered(state, seat, kind))
        return build

    def prompts(self, state: Round, only: int | None) -> list[Prompt]:
        return [self.builder(kind)(state, seat) for seat, kind in _owed(state) if only is None or seat == only]


def _tables(builds: Builds, answered: bool) -> list[PhaseTable[Round]]:
    """The same phase declared with builders and with one prompts function."""
    hook = _is_answered if answered else None
    sealed: Sealed[Round] = Sealed(all_in=lambda state: False, resolve=lambda flow: None)
    with_builders = Phase(owed=_owed, builders={"bid": builds.builder("bid"), "toast": builds.builder("toast")},
                          handlers={"bid": _bid, "toast": _toast}, answered=hook, sealed=sealed)
    with_prompts = Phase(prompts=builds.prompts, owed=_owed, answers={"bid": ActivateAnswer},
                         handlers={"bid": _bid, "toast": _toast}, answered=hook, sealed=sealed)
    return [PhaseTable({"bid": with_builders}), PhaseTable({"bid": with_prompts})]


@pytest.mark.parametrize("way", ["builders", "prompts"])
def test_answered_decisions_are_passed_over_without_building_their_prompts(way: str) -> None:
    index = 0 if way == "builders" else 1
    state = Round(bids={"0": 3, "1": 4})
    plain, hooked = Builds(), Builds()
    found = _tables(plain, answered=False)[index].first_open(state)
    quick = _tables(hooked, answered=True)[index].first_open(state)
    assert found is not None and quick is not None
    assert [prompt.model_dump() for prompt in quick] == [prompt.model_dump() for prompt in found]
    assert (quick[0].seat, quick[0].kind) == (1, "toast"), "seat 1 bid already: its toast is next"
    assert (quick[1].seat, quick[1].kind) == (1, "bid"), "the seat's first prompt, for its answer"
    assert (0, "bid") in plain.built and (0, "bid") not in hooked.built
    assert len(hooked.built) < len(plain.built)


def test_every_decision_answered_leaves_nothing_open_and_builds_nothing() -> None:
    builds = Builds()
    state = Round(bids={"0": 1, "1": 2, "2": 3}, toasted=True)
    for table in _tables(builds, answered=True):
        assert table.first_open(state) is None
    assert builds.built == []


def test_answered_needs_owed() -> None:
    with pytest.raises(ValueError, match="answered needs owed"):
        Phase(prompts=lambda state, only: [], answered=_is_answered)


GAMES = [("tinybigwars", 3, 0, {}), ("samurai", 4, 0, {"round_limit": 2}),
         ("samurai", 3, 1, {"round_limit": 2, "losses": "asked"}), ("samurai", 3, 2, {"round_limit": 1, "steps": "classic"}),
         ("defenders", 2, 0, {})]


@pytest.mark.parametrize(("key", "seats", "seed", "options"), GAMES, ids=[f"{game[0]}-{game[1]}-{game[2]}" for game in GAMES])
def test_a_game_phase_declaring_answered_agrees_with_its_prompts(key: str, seats: int, seed: int,
                                                                 options: dict[str, Any]) -> None:
    """At every step of a seeded match, a phase's ``answered`` says what the prompts it builds
    say, so that `first_open` finds the same prompt with or without building them."""
    game = engine.get(key)
    assert isinstance(game, KitGame)
    table = game.phases
    mismatches: list[tuple[int, int, str]] = []

    def check(state: State, events: object) -> None:
        if table.interrupts is not None and table.interrupts.head(state) is not None:
            return
        hook = table.phase(state).answered
        if hook is None:
            return
        for prompt in table.prompts(state):
            if hook(state, prompt.seat, prompt.kind) != prompt.answered:
                mismatches.append((state.step, prompt.seat, prompt.kind))

    simulate(key, seats, seed, options=options, on_step=check)
    assert mismatches == []

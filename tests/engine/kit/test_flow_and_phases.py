"""Flow (one choice's pass) and the phase table, on a toy game small enough to follow by hand."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import Field

from engine.contract import Prompt, State
from engine.kit import ASKS_NOTHING, LOG_LENGTH, Flow, Phase, PhaseTable, Sealed, StepRandom
from engine.kit.phases import Builder
from engine.rng import rng_for
from engine.tinybigwars.answers import ActivateAnswer


class Toy(State):
    """Two seats bid behind screens, then each says a word until three words are said."""

    phase: str = "bid"
    bids: dict[str, int] = Field(default_factory=dict)
    words: list[str] = Field(default_factory=list)
    resolved: int = 0
    log: list[str] = Field(default_factory=list)


def _prompt(kind: str) -> Builder[Toy]:
    def build(state: Toy, seat: int) -> Prompt:
        return Prompt(seat=seat, kind=kind, text=f"{kind} now", answer=ActivateAnswer,
                      answered=kind == "bid" and str(seat) in state.bids, secret=kind == "bid")
    return build


def _bid(flow: Flow[Toy], seat: int, amount: int) -> None:
    flow.state.bids[str(seat)] = amount


def _reveal(flow: Flow[Toy]) -> None:
    flow.state.resolved += 1
    flow.emit("reveal", f"Bids: {sorted(flow.state.bids.values())}")
    flow.state.phase = "talk"


def _say(flow: Flow[Toy], seat: int, word: str) -> None:
    flow.state.words.append(word)


def _talk_prompts(state: Toy, only: int | None) -> list[Prompt]:
    seat = len(state.words) % 2
    return [_prompt("word")(state, seat)]


def _end(flow: Flow[Toy]) -> None:
    flow.state.phase = "over"
    flow.emit("end", "Three words said.", phase_end=True)


TABLE: PhaseTable[Toy] = PhaseTable({
    "bid": Phase(owed=lambda state: [(0, "bid"), (1, "bid")], builders={"bid": _prompt("bid")},
                 handlers={"bid": _bid},
                 sealed=Sealed(all_in=lambda state: len(state.bids) == 2, resolve=_reveal)),
    "talk": Phase(prompts=_talk_prompts, handlers={"word": _say},
                  done=lambda state: len(state.words) >= 3, next=_end),
    "over": ASKS_NOTHING,
})


def _answer(state: Toy, kind: str, *answer: Any) -> Toy:
    flow = Flow.for_choice(state, StepRandom())
    TABLE.handle(flow, kind, *answer)
    return flow.close().state


def test_prompts_follow_the_phase_and_filter_by_seat() -> None:
    state = Toy()
    assert TABLE.owed(state) == [(0, "bid"), (1, "bid")]
    assert [(p.seat, p.kind) for p in TABLE.prompts(state)] == [(0, "bid"), (1, "bid")]
    assert [p.seat for p in TABLE.prompts(state, only=1)] == [1]
    state.phase = "talk"
    assert TABLE.owed(state) == [(0, "word")]
    assert TABLE.prompts(state, only=1) == []
    state.phase = "over"
    assert TABLE.owed(state) == [] and TABLE.prompts(state) == []


def test_sealed_answers_are_resolved_once_all_are_in_and_may_be_revised_until_then() -> None:
    state = _answer(Toy(), "bid", 0, 5)
    assert state.resolved == 0 and state.phase == "bid"
    assert [p.answered for p in TABLE.prompts(state)] == [True, False]
    state = _answer(state, "bid", 0, 7)
    assert state.resolved == 0 and state.bids == {"0": 7}
    flow = Flow.for_choice(state, StepRandom())
    TABLE.handle(flow, "bid", 1, 3)
    assert flow.state.resolved == 1 and flow.state.phase == "talk"
    assert [event.kind for event in flow.events] == ["reveal"]


def test_done_runs_next_once_and_only_when_true() -> None:
    state = Toy(phase="talk")
    state = _answer(state, "word", 0, "one")
    state = _answer(state, "word", 1, "two")
    assert state.phase == "talk" and state.log == []
    flow = Flow.for_choice(state, StepRandom())
    TABLE.handle(flow, "word", 0, "three")
    assert flow.state.phase == "over"
    assert [(event.kind, event.phase_end) for event in flow.events] == [("end", True)]


def test_the_hooks_of_a_phase_left_during_the_answer_do_not_run() -> None:
    """A handler that moves the game to another phase ends that phase's checks."""
    calls: list[str] = []

    def leave(flow: Flow[Toy], seat: int) -> None:
        flow.state.phase = "over"

    table: PhaseTable[Toy] = PhaseTable({
        "bid": Phase(prompts=lambda state, only: [], handlers={"leave": leave},
                     sealed=Sealed(all_in=lambda state: True, resolve=lambda flow: calls.append("sealed")),
                     done=lambda state: True, next=lambda flow: calls.append("next")),
        "over": ASKS_NOTHING,
    })
    flow = Flow.for_choice(Toy(), StepRandom())
    table.handle(flow, "leave", 0)
    assert calls == [] and flow.state.phase == "over"


def test_an_answer_the_phase_does_not_take_and_an_unknown_phase_are_errors() -> None:
    flow = Flow.for_choice(Toy(), StepRandom())
    with pytest.raises(ValueError, match="the bid phase takes no 'word' answer"):
        TABLE.handle(flow, "word", 0, "hello")
    with pytest.raises(ValueError, match="no phase 'lost'"):
        TABLE.prompts(Toy(phase="lost"))


def test_a_phase_is_checked_when_declared() -> None:
    with pytest.raises(ValueError, match="either owed"):
        Phase(handlers={}, owed=lambda state: [], prompts=lambda state, only: [])
    with pytest.raises(ValueError, match="either owed"):
        Phase(handlers={})
    with pytest.raises(ValueError, match="no prompt builder"):
        Phase(handlers={"bid": _bid}, owed=lambda state: [])
    with pytest.raises(ValueError, match="what comes next"):
        Phase(handlers={}, prompts=lambda state, only: [], done=lambda state: True)


def test_a_flow_works_on_a_copy_with_the_step_rng_counted_after() -> None:
    state = Toy(seed=11, step=4)
    flow = Flow.for_choice(state, StepRandom())
    flow.state.words.append("changed")
    assert state.words == [] and flow.state is not state
    assert flow.state.step == 4
    assert flow.rng.random() == rng_for(11, 4, "").random()
    step = flow.close()
    assert step.state.step == 5 and state.step == 4
    assert flow.close().state.step == 5, "closing twice counts once"


def test_a_flow_counting_first_draws_from_the_new_step_with_its_salt() -> None:
    state = Toy(seed=11, step=4)
    flow = Flow.for_choice(state, StepRandom(salt="step", counts_first=True))
    assert flow.state.step == 5
    assert flow.rng.random() == rng_for(11, 5, "step").random()
    assert flow.close().state.step == 5


def test_flow_events_feed_the_named_log_and_private_ones_stay_out() -> None:
    class Other(Toy):
        last_events: list[str] = Field(default_factory=list)

    class OtherFlow(Flow[Other]):
        log_field = "last_events"

    flow = OtherFlow(Other(), rng_for(1, 0))
    for n in range(LOG_LENGTH + 2):
        flow.emit("info", f"public {n}", data={"n": n})
    flow.emit("secret", "only you", seats=[1])
    assert flow.state.last_events == [f"public {n}" for n in range(2, LOG_LENGTH + 2)]
    assert flow.state.log == []
    assert [event.seats for event in flow.events[-2:]] == [None, [1]]
    assert flow.events[0].data == {"n": 0}

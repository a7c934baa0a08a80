"""Flow (one choice's pass) and the phase table, on a toy game small enough to follow by hand."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, Field

from engine.contract import Prompt, State
from engine.kit import (
    ASKS_NOTHING,
    LOG_LENGTH,
    Asked,
    Flow,
    Interrupts,
    Phase,
    PhaseTable,
    Sealed,
    StepRandom,
)
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


def _bid(flow: Flow[Toy], seat: int, asked: Asked, amount: int) -> None:
    flow.state.bids[str(seat)] = amount


def _reveal(flow: Flow[Toy]) -> None:
    flow.state.resolved += 1
    flow.emit("reveal", f"Bids: {sorted(flow.state.bids.values())}")
    flow.state.phase = "talk"


def _say(flow: Flow[Toy], seat: int, asked: Asked, word: str) -> None:
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


def _answer(state: Toy, seat: int, answer: Any, table: PhaseTable[Toy] = TABLE) -> Toy:
    flow = Flow.for_choice(state, StepRandom())
    prompt = table.prompt_of(flow.state, seat)
    assert prompt is not None
    table.handle(flow, seat, prompt, answer)
    return flow.close().state


def test_prompts_follow_the_phase_and_filter_by_seat() -> None:
    state = Toy()
    assert TABLE.owed(state) == [(0, "bid"), (1, "bid")]
    assert [(p.seat, p.kind) for p in TABLE.prompts(state)] == [(0, "bid"), (1, "bid")]
    assert [p.seat for p in TABLE.prompts(state, only=1)] == [1]
    prompt = TABLE.prompt_of(state, 1)
    assert prompt is not None and (prompt.seat, prompt.kind) == (1, "bid")
    state.phase = "talk"
    assert TABLE.owed(state) == [(0, "word")]
    assert TABLE.prompts(state, only=1) == [] and TABLE.prompt_of(state, 1) is None
    state.phase = "over"
    assert TABLE.owed(state) == [] and TABLE.prompts(state) == []


def test_sealed_answers_are_resolved_once_all_are_in_and_may_be_revised_until_then() -> None:
    state = _answer(Toy(), 0, 5)
    assert state.resolved == 0 and state.phase == "bid"
    assert [p.answered for p in TABLE.prompts(state)] == [True, False]
    state = _answer(state, 0, 7)
    assert state.resolved == 0 and state.bids == {"0": 7}
    flow = Flow.for_choice(state, StepRandom())
    TABLE.handle(flow, 1, _prompt("bid")(state, 1), 3)
    assert flow.state.resolved == 1 and flow.state.phase == "talk"
    assert [event.kind for event in flow.events] == ["reveal"]


def test_done_runs_next_once_and_only_when_true() -> None:
    state = Toy(phase="talk")
    state = _answer(state, 0, "one")
    state = _answer(state, 1, "two")
    assert state.phase == "talk" and state.log == []
    flow = Flow.for_choice(state, StepRandom())
    TABLE.handle(flow, 0, _prompt("word")(state, 0), "three")
    assert flow.state.phase == "over"
    assert [(event.kind, event.phase_end) for event in flow.events] == [("end", True)]


def test_the_hooks_of_a_phase_left_during_the_answer_do_not_run() -> None:
    """A handler that moves the game to another phase ends that phase's checks."""
    calls: list[str] = []

    def leave(flow: Flow[Toy], seat: int, asked: Asked, answer: object) -> None:
        flow.state.phase = "over"

    table: PhaseTable[Toy] = PhaseTable({
        "bid": Phase(prompts=lambda state, only: [], handlers={"leave": leave},
                     sealed=Sealed(all_in=lambda state: True, resolve=lambda flow: calls.append("sealed")),
                     done=lambda state: True, next=lambda flow: calls.append("next")),
        "over": ASKS_NOTHING,
    })
    flow = Flow.for_choice(Toy(), StepRandom())
    table.handle(flow, 0, _prompt("leave")(flow.state, 0), None)
    assert calls == [] and flow.state.phase == "over"


def test_an_answer_the_phase_does_not_take_and_an_unknown_phase_are_errors() -> None:
    flow = Flow.for_choice(Toy(), StepRandom())
    with pytest.raises(ValueError, match="the bid phase takes no 'word' answer"):
        TABLE.handle(flow, 0, _prompt("word")(flow.state, 0), "hello")
    with pytest.raises(ValueError, match="no phase 'lost'"):
        TABLE.prompts(Toy(phase="lost"))


def test_a_fallback_takes_every_kind_the_phase_does_not_name() -> None:
    table: PhaseTable[Toy] = PhaseTable({
        "talk": Phase(prompts=_talk_prompts, handlers={"word": _say},
                      fallback=lambda flow, seat, prompt, answer: flow.state.words.append(f"{prompt.kind}!")),
    })
    flow = Flow.for_choice(Toy(phase="talk"), StepRandom())
    table.handle(flow, 0, _prompt("shout")(flow.state, 0), None)
    table.handle(flow, 1, _prompt("word")(flow.state, 1), "hi")
    assert flow.state.words == ["shout!", "hi"]


def test_a_phase_is_checked_when_declared() -> None:
    with pytest.raises(ValueError, match="has no builders"):
        Phase(handlers={}, owed=lambda state: [], prompts=lambda state, only: [], builders={"bid": _prompt("bid")})
    with pytest.raises(ValueError, match="answer models need owed"):
        Phase(handlers={}, prompts=lambda state, only: [], answers={"word": ActivateAnswer})
    with pytest.raises(ValueError, match="owed \\(with builders\\) or prompts"):
        Phase(handlers={})
    with pytest.raises(ValueError, match="no prompt builder"):
        Phase(handlers={"bid": _bid}, owed=lambda state: [])
    with pytest.raises(ValueError, match="what comes next"):
        Phase(handlers={}, prompts=lambda state, only: [], done=lambda state: True)
    with pytest.raises(ValueError, match="both a prompt and a handler"):
        Interrupts(queue=lambda state: [], builders={"x": lambda state, pending: _prompt("x")(state, 0)},
                   handlers={})


def test_a_prompts_phase_with_owed_takes_an_answer_without_building_its_prompt() -> None:
    """``owed`` beside ``prompts``: who owes what and the answer's model are known without a
    prompt, which is built only when read."""
    built: list[int] = []

    def talk_prompts(state: Toy, only: int | None) -> list[Prompt]:
        built.append(len(state.words))
        return _talk_prompts(state, only)

    table: PhaseTable[Toy] = PhaseTable({
        "talk": Phase(prompts=talk_prompts, owed=lambda state: [(len(state.words) % 2, "word")],
                      answers={"word": ActivateAnswer}, handlers={"word": _say}),
    })
    state = Toy(phase="talk")
    assert table.owed(state) == [(0, "word")]
    assert table.asked_of(state, 1) is None
    asked = table.asked_of(state, 0)
    assert asked is not None and asked.kind == "word" and asked.answer is ActivateAnswer
    table.handle(Flow(state, rng_for(0, 0)), 0, asked, "hi")
    assert state.words == ["hi"] and built == []
    following = table.asked_of(state, 1)
    assert following is not None and following.prompt.seat == 1 and built == [1]


class Queued(BaseModel):
    seat: int
    kind: str


class Counted(Toy):
    """A counter the automatic steps raise to a target; seats may be interrupted to confirm."""

    count: int = 0
    target: int = 3
    queue: list[Queued] = Field(default_factory=list)
    entered: int = 0
    watched: int = 0


def _count_step(flow: Flow[Counted]) -> bool:
    state = flow.state
    if state.count >= state.target:
        state.phase = "talk"
        return True
    state.count += 1
    flow.emit("count", f"{state.count}")
    if state.count == 2 and not state.queue:
        state.queue.append(Queued(seat=1, kind="confirm"))
    return True


def _confirm(flow: Flow[Counted], seat: int, asked: Asked, answer: object) -> None:
    flow.state.queue.pop(0)
    flow.emit("confirmed", f"seat {seat} confirms")


def _counting_table(**extra: Any) -> PhaseTable[Counted]:
    return PhaseTable({
        "count": Phase(prompts=lambda state, only: [], step=_count_step),
        "talk": Phase(prompts=lambda state, only: [_prompt("word")(state, 0)], handlers={"word": _say},
                      enter=lambda flow: setattr(flow.state, "entered", flow.state.entered + 1)),
        "over": ASKS_NOTHING,
    }, interrupts=Interrupts(queue=lambda state: state.queue,
                             builders={"confirm": lambda state, pending: _prompt("confirm")(state, pending.seat)},
                             handlers={"confirm": _confirm},
                             owed=lambda state, pending: state.target > 0),
        watch=lambda flow: setattr(flow.state, "watched", flow.state.watched + 1), **extra)


def test_settle_runs_the_steps_stops_for_an_interrupt_and_goes_on_once_it_is_answered() -> None:
    table = _counting_table()
    flow = Flow.for_choice(Counted(phase="count"), StepRandom())
    table.settle(flow)
    assert flow.state.count == 2 and flow.state.phase == "count"
    assert table.owed(flow.state) == [(1, "confirm")], "the interrupt is the only prompt"
    assert table.prompts(flow.state, only=0) == [] and table.prompt_of(flow.state, 0) is None
    prompt = table.prompt_of(flow.state, 1)
    assert prompt is not None and prompt.kind == "confirm"
    table.handle(flow, 1, prompt, None)
    assert flow.state.count == 3 and flow.state.phase == "talk" and flow.state.entered == 1
    assert [event.kind for event in flow.events] == ["count", "count", "confirmed", "count"]
    assert table.owed(flow.state) == [(0, "word")]


def test_an_interrupt_no_longer_owed_is_dropped_unasked() -> None:
    table = _counting_table()
    state = Counted(phase="count", target=0, queue=[Queued(seat=1, kind="confirm")])
    flow = Flow.for_choice(state, StepRandom())
    table.settle(flow)
    assert flow.state.queue == [] and flow.state.phase == "talk"


def test_watch_runs_around_every_step_and_enter_once_per_phase_entered() -> None:
    table = _counting_table()
    flow = Flow.for_choice(Counted(phase="count", target=1), StepRandom())
    table.settle(flow)
    # rounds: step (count 1), step (to talk), enter talk, talk has no step: watch once more.
    assert flow.state.phase == "talk" and flow.state.entered == 1
    assert flow.state.watched == 5


def test_a_game_that_never_settles_raises_instead_of_hanging() -> None:
    table: PhaseTable[Toy] = PhaseTable({"spin": Phase(prompts=lambda state, only: [], step=lambda flow: True)},
                                        settle_limit=50)
    with pytest.raises(RuntimeError, match="more than 50 automatic steps"):
        table.settle(Flow.for_choice(Toy(phase="spin"), StepRandom()))


def test_a_glance_only_moves_the_view_and_runs_no_rule() -> None:
    def glance(flow: Flow[Toy], seat: int, asked: Asked, answer: object) -> bool:
        if answer == "look":
            flow.state.log = [f"seat {seat} looks"]
            return True
        return False

    table: PhaseTable[Toy] = PhaseTable({"talk": TABLE.phases["talk"], "over": ASKS_NOTHING}, glance=glance)
    state = _answer(Toy(phase="talk"), 0, "look", table)
    assert state.words == [] and state.log == ["seat 0 looks"]
    state = _answer(state, 0, "hello", table)
    assert state.words == ["hello"]


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

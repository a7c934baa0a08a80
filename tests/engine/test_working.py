"""A driver's working copy (engine/working.py): one copy, steps in place, same match as `submit`."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.simulate import simulate
from engine.contract import IllegalChoice

MATCHES = [
    ("tinybigwars", 3, 1, {}),
    ("samurai", 4, 0, {"round_limit": 2}),
    ("defenders", 2, 1, {}),
]


@pytest.mark.parametrize(("key", "seats", "seed", "options"), MATCHES, ids=[m[0] for m in MATCHES])
def test_working_copy_plays_the_match_submit_plays(key: str, seats: int, seed: int, options: dict[str, Any]) -> None:
    """Every state and event of a recorded match is the same through the working copy as
    through `submit`, events handed out earlier stay as they were, and the start is untouched."""
    game = engine.get(key)
    log = simulate(key, seats, seed, "heuristic", options=options)["log"]
    start = game.setup(seats, engine.parse_options(game, options), seed)
    start_json = start.model_dump_json()
    working = engine.Working(game, start)
    state = start
    handed_out: list[tuple[list[engine.Event], str]] = []
    for seat, choice in log:
        step = game.submit(state, seat, choice)
        state = step.state
        events = working.submit(seat, choice)
        assert working.state.model_dump_json() == state.model_dump_json()
        assert [e.model_dump() for e in events] == [e.model_dump() for e in step.events]
        handed_out.append((events, str([e.model_dump() for e in events])))
    assert all(str([e.model_dump() for e in events]) == dumped for events, dumped in handed_out)
    assert start.model_dump_json() == start_json
    assert working.steps == len(log)
    assert game.result(working.state) == game.result(state)
    assert engine.replay(key, seats, options, seed, log).model_dump_json() == state.model_dump_json()


def test_a_refused_choice_leaves_the_working_copy_as_it_was() -> None:
    """A choice the rules refuse changes nothing, and the match goes on from there."""
    game = engine.get("tinybigwars")
    log = simulate("tinybigwars", 2, 0, "heuristic")["log"]
    working = engine.Working(game, game.setup(2, engine.parse_options(game, None), 0))
    for seat, choice in log[:40]:
        working.submit(seat, choice)
    before = working.state.model_dump_json()
    seat, _ = log[40]
    with pytest.raises(IllegalChoice):
        working.submit(seat, {"hero": "nobody"})
    with pytest.raises(IllegalChoice):
        working.submit(seat, {"to": "nowhere", "act": "move"})
    assert working.state.model_dump_json() == before
    for seat, choice in log[40:]:
        working.submit(seat, choice)
    assert working.state.model_dump_json() == engine.replay("tinybigwars", 2, None, 0, log).model_dump_json()


def test_an_owned_working_copy_is_spoiled_by_a_refused_choice() -> None:
    """Handed over without a copy, there is nothing to rebuild from: it says so instead of
    going on from a half-changed state."""
    game = engine.get("tinybigwars")
    log = simulate("tinybigwars", 2, 0, "heuristic")["log"]
    working = engine.Working(game, game.setup(2, engine.parse_options(game, None), 0), owned=True)
    for seat, choice in log[:40]:
        working.submit(seat, choice)
    seat, choice = log[40]
    wrong = {key: "nowhere" for key in choice}
    with pytest.raises(IllegalChoice):
        working.submit(seat, wrong)
    with pytest.raises(RuntimeError, match="half changed"):
        working.submit(seat, choice)


NEXT_PROMPT_MATCHES = [
    ("tinybigwars", 3, 2, "random", {}),
    ("samurai", 4, 1, "random", {"round_limit": 2}),
    ("samurai", 3, 0, "heuristic", {"round_limit": 2}),
    ("defenders", 2, 3, "random", {}),
    ("defenders", 1, 0, "heuristic", {}),
]


@pytest.mark.parametrize(("key", "seats", "seed", "policy", "options"), NEXT_PROMPT_MATCHES,
                         ids=[f"{m[0]}-{m[1]}-{m[3]}" for m in NEXT_PROMPT_MATCHES])
def test_next_prompt_is_the_first_open_prompt(key: str, seats: int, seed: int, policy: str,
                                              options: dict[str, Any]) -> None:
    """What an all-AI driver answers next, found building only the prompts up to it, is at
    every step the first unanswered prompt of all those owed, and its seat's answer is checked
    against the very prompt the seat would be asked first."""
    game = engine.get(key)
    log = simulate(key, seats, seed, policy, options=options)["log"]
    working = engine.Working(game, game.setup(seats, engine.parse_options(game, options), seed), owned=True)
    for seat, choice in log:
        every = game.prompts(working.state)
        found = working.next_prompt()
        assert found is not None
        assert found.model_dump() == next(p for p in every if not p.answered).model_dump()
        assert found.seat == seat
        kept = working._asked
        assert kept is not None
        assert kept.model_dump() == next(p for p in every if p.seat == seat).model_dump()
        working.submit(seat, choice)
    assert game.result(working.state) is not None
    assert working.next_prompt() is None

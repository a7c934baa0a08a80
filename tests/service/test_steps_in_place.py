"""A transaction copies a state only when something else may hold it (``MatchTransaction.step``):
the state it started from, a phase post's state; the AI's turns after a choice change the
transaction's own copy in place. What players see must not change: a held state stays as it
was, an earlier event keeps its own data, a refused choice changes nothing, and the prompts and
views built of a state changed in place are built again."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

import engine
from bot.service import MatchService
from bot.service.match_transaction import MatchTransaction
from db import Store
from engine import IllegalChoice, Step
from tests.service.toygame import ToyGame, ToyState

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


class InPlaceToy(ToyGame):
    """The toy game with a ``play`` that changes the state it is given, as a game's rules do:
    its events' data hold the state's own score list, and a refused choice leaves the state
    half changed (the contract allows both)."""

    def play(self, state: ToyState, seat: int, choice: dict[str, Any]) -> Step:
        before = state.model_copy(deep=True)
        state.round += 1000  # half changed before the choice is judged
        step = self.submit(before, seat, choice)  # IllegalChoice: the state stays half changed
        score = state.score
        score[:] = step.state.score
        state.__dict__.update({**step.state.__dict__, "score": score})
        for event in step.events:
            event.data["score"] = score  # the state's own list, not a copy
        return Step(state=state, events=step.events)


def transaction(game: Any, state: ToyState) -> MatchTransaction:
    ctx = MatchTransaction(unit=SimpleNamespace(), match=SimpleNamespace(status="active"),  # type: ignore[arg-type]
                           seats=[], game=game, state=state, now=NOW)
    ctx.start_state = state
    return ctx


def dump(state: Any) -> str:
    return json.dumps(state.model_dump(mode="json"), sort_keys=True)


def started() -> ToyState:
    """Bids in, seat 0 to move: every move step raids or gathers (a score or gold change)."""
    game = InPlaceToy()
    state = game.setup(2, game.options_model()(rounds=5), 3)
    state = game.submit(state, 0, {"bid": 1}).state
    return game.submit(state, 1, {"bid": 0}).state


def test_steps_copy_only_a_state_someone_holds() -> None:
    game = InPlaceToy()
    start = started()
    start_json = dump(start)
    ctx = transaction(game, start)
    first = ctx.step(0, {"action": "raid"})
    assert first.state is not start and ctx.state is first.state  # the starting state is copied
    scored = json.loads(json.dumps(first.events[0].data))
    second = ctx.step(1, {"action": "raid"})
    assert second.state is first.state  # the transaction's own copy: changed in place
    assert dump(start) == start_json  # the starting state (kept for the next transaction) as it was
    # the first step's event still tells its own scores, not the state's as changed since
    assert first.events[0].data == scored
    ctx.hold()  # a phase post's map shows this state
    held_json = dump(second.state)
    third = ctx.step(0, {"bid": 1})
    assert third.state is not second.state and dump(second.state) == held_json
    # the same choices through the contract's ``submit`` end in the same state
    state = start
    for seat, choice in [(0, {"action": "raid"}), (1, {"action": "raid"}), (0, {"bid": 1})]:
        state = game.submit(state, seat, choice).state
    assert dump(third.state) == dump(state)


def test_a_refused_choice_in_place_leaves_the_state_as_it_was() -> None:
    game = InPlaceToy()
    ctx = transaction(game, started())
    ctx.step(0, {"action": "gather"})
    before = dump(ctx.state)
    with pytest.raises(IllegalChoice):
        ctx.step(0, {"action": "raid"})  # not seat 0's turn: refused after the state was changed
    assert ctx.state is not None and dump(ctx.state) == before
    after = ctx.step(1, {"action": "raid"})  # the game goes on from there
    assert after.state is ctx.state and after.state.turn == 0 and after.state.phase == "bid"


def test_prompts_and_views_of_a_state_changed_in_place_are_built_again() -> None:
    game = InPlaceToy()
    ctx = transaction(game, started())
    ctx.step(0, {"action": "gather"})
    assert [p.seat for p in ctx.prompts()] == [1]
    assert ctx.view(ctx.state, None)["gold"] == game.view(ctx.state, None)["gold"]  # type: ignore[arg-type]
    ctx.step(1, {"action": "gather"})  # in place: the same state object, in the next round's bids
    assert ctx.state is not None
    assert [p.kind for p in ctx.prompts()] == ["bid", "bid"]
    assert ctx.view(ctx.state, None) == game.view(ctx.state, None)


async def _played(tmp_path: Any, name: str, copy_every_step: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[Any]]:
    """A Tiny Big Wars match of a player and two heuristic AI seats, the player answering with
    the heuristic: its final state and every notice the service queued (with views and maps)."""
    if copy_every_step:
        step = MatchTransaction.step

        def copying(self: MatchTransaction, seat: int, choice: dict[str, Any]) -> Step:
            self.hold()
            return step(self, seat, choice)

        monkeypatch.setattr(MatchTransaction, "step", copying)
    game = engine.get("tinybigwars")
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / name}", migrate=True)
    notices: list[Any] = []
    try:
        svc = MatchService(store, clock=lambda: NOW, holder="test")
        info = await svc.create(None, 5, 1, "host", "tinybigwars", {"round_limit": 3}, seed=11)
        await svc.add_ai(5, 1)
        await svc.add_ai(5, 1)
        await svc.start(5, 1)
        heuristic, rng = game.policies()["heuristic"], random.Random(2)
        for _ in range(200):
            pending = await svc.pending_prompt(info.id, 1)
            if pending is None:
                break
            _match, _seats, state, _deadline = await svc._read(info.id)
            await svc.submit(info.id, 1, engine.decide(game, heuristic, state, pending.prompt, rng),
                             version=pending.version)
        notices = [(n.kind, n.user_id, n.payload) for n in await svc.outbox(100_000)]
        match, _seats, state, _deadline = await svc._read(info.id)
        assert match.status == "finished"
    finally:
        await store.close()
        monkeypatch.undo()
    return dump(state), notices


async def test_a_match_with_ai_turns_in_place_shows_players_the_same(tmp_path: Any,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    copies: list[int] = []
    clone = engine.working.clone  # type: ignore[attr-defined]

    def counted(state: Any) -> Any:
        copies.append(1)
        return clone(state)

    monkeypatch.setattr("engine.working.clone", counted)
    in_place = await _played(tmp_path, "in_place.db", False, monkeypatch)
    fewer = len(copies)
    copies.clear()
    monkeypatch.setattr("engine.working.clone", counted)
    copied = await _played(tmp_path, "copied.db", True, monkeypatch)
    assert fewer < len(copies)  # the AI's turns were played in place
    assert in_place[0] == copied[0]
    assert len(in_place[1]) > 50 and in_place[1] == copied[1]  # every post, map, prompt and line alike

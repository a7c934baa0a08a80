"""A change builds each view once: the public view of its last state and a seat's own view are
asked for by several of its notices (phase labels, the phase post's map, the turn heads-up, the
actor's reply and next prompt), and a view costs more than a rules step. The notices must
still carry the view of the state they describe."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import engine
from bot.service import MatchService
from db import Store
from tests.games import KEYS, short, table_of
from tests.service.helpers import count_views

HOST = 1


@pytest.mark.parametrize("key", KEYS)
async def test_a_players_choice_builds_each_view_once(tmp_path: Any, key: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    game = engine.get(key)
    built: Counter[tuple[int, int | None]] = Counter()
    kept: list[Any] = []  # every state asked about stays alive, so no two share an id

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", migrate=True)
    try:
        svc = MatchService(store, holder="test")
        seats, options = table_of(key), short(key, rounds=2)
        info = await svc.create(None, 77, HOST, "host", key, options, max_seats=seats, seed=5)
        for _ in range(seats - 1):
            await svc.add_ai(77, HOST)
        await svc.start(77, HOST)
        heuristic, rng = game.policies()["heuristic"], random.Random(5)
        changes = repeated = secret = 0
        for _ in range(12):
            pending = await svc.pending_prompt(info.id, HOST)
            if pending is None:
                break
            _match, _seats, state, _deadline = await svc._read(info.id)
            choice = engine.decide(game, heuristic, state, pending.prompt, rng)
            built.clear()
            count_views(monkeypatch, game, built, kept)
            await svc.submit(info.id, HOST, choice, version=pending.version)
            monkeypatch.undo()
            changes += 1
            repeated += sum(count > 1 for count in built.values())
            prompts = [n for n in await svc.outbox(100_000) if n.kind == "prompt" and n.user_id == HOST]
            pending = await svc.pending_prompt(info.id, HOST)
            if pending is not None and pending.prompt.secret:  # its private panel shows the state as committed
                shown = json.loads(json.dumps(await svc.seat_view(info.id, HOST)))
                assert prompts[-1].payload["view"] == shown
                secret += 1
            elif pending is not None:  # a plain decision's DM has no panel: no view is built for it
                assert prompts[-1].payload["view"] == {}
    finally:
        await store.close()
    # The host sealed at least one secret decision (a cooperative table keeps no secrets from itself).
    assert changes >= 3 and (secret >= 1 or game.info.cooperative)
    assert repeated == 0
